//! Starting the real `floor serve` binary on a loopback port with its own data and rulesets
//! directories, and a small HTTP client for it (std only: requests are few and simple).
//! Waits poll with a deadline; nothing asserts on a fixed sleep.

#![allow(dead_code)]

pub mod browser;
pub mod journals;
pub mod plugins;
pub mod sse;

use serde_json::Value;
use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The operator's token of the daemons the tests start (32 characters of the base64
/// alphabet: a token the daemon accepts).
pub const OPERATOR: &str = "operator-token-for-the-tests-0123";
/// The auditor's token of the daemons the tests start.
pub const AUDITOR: &str = "auditor-token-for-the-tests-01234";

/// A pt-casino-2007 hold'em table as rule 6 sets it (ten seats), blinds 1/2, a fixed buy-in of
/// 200: the set-up of [`Daemon::four_seated`].
pub const CASINO_TABLE: &str =
    r#"{"ruleset": "pt-casino-2007", "blinds": [1, 2], "seats": 10, "buy_in": 200}"#;

/// [`CASINO_TABLE`] whose showdown waits for the dealer to call each live hand.
pub const CASINO_TABLE_CALLED_SHOWDOWN: &str = r#"{"ruleset": "pt-casino-2007", "blinds": [1, 2], "seats": 10, "buy_in": 200, "called_showdown": true}"#;

/// A cash table played under pt-tournament (blinds 1/2, six seats, a buy-in of 200): a text
/// whose corrections after the settlement move chips (Art. 22º) and whose floor names the
/// sanction of a penalty (Art. 71º(1)).
pub const TOURNAMENT_RULES_TABLE: &str =
    r#"{"ruleset": "pt-tournament", "blinds": [1, 2], "seats": 6, "buy_in": 200}"#;

/// Creates the daemon's data directory as the daemon wants it: private (0700).
pub fn private_dir(data: &Path) {
    use std::os::unix::fs::{DirBuilderExt, PermissionsExt};
    if !data.exists() {
        std::fs::DirBuilder::new()
            .recursive(true)
            .mode(0o700)
            .create(data)
            .expect("data dir");
    }
    std::fs::set_permissions(data, std::fs::Permissions::from_mode(0o700)).expect("chmod 700");
}

/// How long any wait may take before the test fails (generous: a loaded 2-core machine).
pub const PATIENCE: Duration = Duration::from_secs(30);

/// A scratch directory removed on drop.
pub struct Scratch(pub PathBuf);

impl Scratch {
    /// A fresh directory for test `name`.
    pub fn new(name: &str) -> Scratch {
        let dir = std::env::temp_dir().join(format!("floor-serve-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("scratch dir");
        Scratch(dir)
    }

    /// The rulesets directory: a copy of the repository's rulesets.
    pub fn rulesets(&self) -> PathBuf {
        let dir = self.0.join("rulesets");
        if !dir.exists() {
            copy_dir(
                &Path::new(env!("CARGO_MANIFEST_DIR")).join("../rulesets"),
                &dir,
            );
        }
        dir
    }

    /// The data directory.
    pub fn data(&self) -> PathBuf {
        self.0.join("data")
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("mkdir");
    for entry in std::fs::read_dir(from).expect("read rulesets").flatten() {
        let path = entry.path();
        let target = to.join(entry.file_name());
        if path.is_dir() {
            copy_dir(&path, &target);
        } else {
            std::fs::copy(&path, &target).expect("copy");
        }
    }
}

/// Polls `f` until it returns `Some`, or panics after [`PATIENCE`] saying what it waited for.
pub fn eventually<T>(what: &str, mut f: impl FnMut() -> Option<T>) -> T {
    let start = Instant::now();
    loop {
        if let Some(v) = f() {
            return v;
        }
        assert!(start.elapsed() < PATIENCE, "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// A running daemon.
pub struct Daemon {
    child: Child,
    /// `127.0.0.1:PORT`.
    pub addr: String,
    /// The operator's token.
    pub operator: String,
    /// The auditor's token.
    pub auditor: String,
    /// The data directory.
    pub data: PathBuf,
}

/// The `floor` binary under test.
pub fn floor() -> Command {
    Command::new(env!("CARGO_BIN_EXE_floor"))
}

/// `floor audit --data DATA FILTERS...`: its output, the command having succeeded.
pub fn audit(data: &Path, filters: &[&str]) -> String {
    audit_on(data, &journals::Backend::Sqlite, filters)
}

/// [`audit`] of the journal `backend` (`--journal URL` on PostgreSQL).
pub fn audit_on(data: &Path, backend: &journals::Backend, filters: &[&str]) -> String {
    let out = floor()
        .args(["audit", "--data"])
        .arg(data)
        .args(backend.args())
        .args(filters)
        .output()
        .expect("floor audit");
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(out.status.success(), "floor audit failed: {text}");
    text
}

/// Runs `floor serve` over `rulesets` and `data` (the tests' tokens, its config beside the
/// data directory, which it neither creates nor changes), which must refuse to start: returns
/// what it said on stderr. Fails if it serves (writes its address) or has not exited within
/// [`PATIENCE`].
pub fn refused_start(rulesets: &Path, data: &Path) -> String {
    refused_start_config(
        rulesets,
        data,
        &format!(r#"(operator_token: "{OPERATOR}", auditor_token: "{AUDITOR}")"#),
    )
}

/// [`refused_start`] with the config file `config` (RON).
pub fn refused_start_config(rulesets: &Path, data: &Path, config: &str) -> String {
    let text = config;
    let config = data.with_extension("refused-config.ron");
    std::fs::write(&config, text).expect("config");
    let _ = std::fs::remove_file(data.join("addr"));
    let mut child = floor()
        .arg("serve")
        .arg("--rulesets-dir")
        .arg(rulesets)
        .arg("--data")
        .arg(data)
        .args(["--addr", "127.0.0.1:0", "--config"])
        .arg(&config)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start floor serve");
    let start = Instant::now();
    let status = loop {
        if let Ok(Some(status)) = child.try_wait() {
            break status;
        }
        let started = data.join("addr").exists();
        if started || start.elapsed() > PATIENCE {
            let _ = child.kill();
            let _ = child.wait();
            if started {
                panic!("floor serve started on a data directory it must refuse");
            }
            panic!("floor serve neither refused nor started within {PATIENCE:?}");
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    let mut said = String::new();
    if let Some(mut err) = child.stderr.take() {
        let _ = err.read_to_string(&mut said);
    }
    assert!(!status.success(), "floor serve exited 0: {said}");
    assert!(!data.join("addr").exists(), "it wrote its address: {said}");
    said
}

impl Daemon {
    /// Starts `floor serve` on port 0 over `rulesets` and `data`, and waits until it answers.
    pub fn start(rulesets: &Path, data: &Path) -> Daemon {
        Daemon::start_with(rulesets, data, "")
    }

    /// [`Daemon::start`] with its journal on `backend`.
    pub fn start_on(rulesets: &Path, data: &Path, backend: &journals::Backend) -> Daemon {
        Daemon::start_with(rulesets, data, &backend.config())
    }

    /// [`Daemon::start_with`] with its journal on `backend`.
    pub fn start_with_on(
        rulesets: &Path,
        data: &Path,
        backend: &journals::Backend,
        extra: &str,
    ) -> Daemon {
        Daemon::start_with(rulesets, data, &format!("{} {extra}", backend.config()))
    }

    /// [`Daemon::start`] with `extra` config fields (RON, e.g. `plugins: [...]`).
    pub fn start_with(rulesets: &Path, data: &Path, extra: &str) -> Daemon {
        Daemon::start_logged(rulesets, data, extra, "info")
    }

    /// [`Daemon::start_with`] logging at `level` (`RUST_LOG`) into `DATA/daemon.log`.
    pub fn start_logged(rulesets: &Path, data: &Path, extra: &str, level: &str) -> Daemon {
        Daemon::start_dirs(&[rulesets], data, extra, level)
    }

    /// [`Daemon::start_logged`] over several rulesets directories (`--rulesets-dir` each).
    pub fn start_dirs(rulesets: &[&Path], data: &Path, extra: &str, level: &str) -> Daemon {
        private_dir(data);
        let addr_file = data.join("addr");
        let _ = std::fs::remove_file(&addr_file);
        let config = data.join("test-config.ron");
        std::fs::write(
            &config,
            format!(
                r#"(operator_token: "{OPERATOR}", auditor_token: "{AUDITOR}", reload_debounce_ms: 30, {extra})"#
            ),
        )
        .expect("config");
        let child = floor()
            .arg("serve")
            .args(
                rulesets
                    .iter()
                    .flat_map(|d| [Path::new("--rulesets-dir"), d]),
            )
            .arg("--data")
            .arg(data)
            .args(["--addr", "127.0.0.1:0", "--config"])
            .arg(&config)
            .env("RUST_LOG", level)
            .stdout(Stdio::null())
            .stderr(
                std::fs::OpenOptions::new()
                    .create(true)
                    .append(true)
                    .open(data.join("daemon.log"))
                    .map(Stdio::from)
                    .unwrap_or_else(|_| Stdio::null()),
            )
            .spawn()
            .expect("start floor serve");
        let mut daemon = Daemon {
            child,
            addr: String::new(),
            operator: OPERATOR.into(),
            auditor: AUDITOR.into(),
            data: data.to_path_buf(),
        };
        daemon.addr = eventually("the daemon's address file", || {
            std::fs::read_to_string(&addr_file)
                .ok()
                .filter(|a| a.contains(':'))
        });
        eventually("the daemon to answer", || {
            daemon
                .try_get("/api/rulesets", None)
                .filter(|(s, _)| *s == 200)
        });
        daemon
    }

    /// The daemon's process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Kills the daemon with SIGKILL (no chance to close anything).
    pub fn kill9(mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// Stops the daemon with SIGTERM and waits for it to exit; returns its success.
    pub fn terminate(mut self) -> bool {
        let _ = Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status();
        let start = Instant::now();
        loop {
            if let Ok(Some(status)) = self.child.try_wait() {
                if !status.success() {
                    // The assertion that follows says only "false": what the daemon said is
                    // the reason.
                    let log = std::fs::read_to_string(self.data.join("daemon.log"));
                    let log = log.as_deref().unwrap_or("(no daemon.log)");
                    let tail: Vec<&str> = log.lines().rev().take(20).collect();
                    eprintln!("daemon stopped with {status}; the end of its log:");
                    tail.iter().rev().for_each(|line| eprintln!("  {line}"));
                }
                return status.success();
            }
            assert!(start.elapsed() < PATIENCE, "daemon did not stop on SIGTERM");
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    /// A client of this daemon, for another thread.
    pub fn client(&self) -> Client {
        Client {
            addr: self.addr.clone(),
            operator: self.operator.clone(),
        }
    }

    /// Whether the daemon has exited of itself.
    pub fn exited(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(Some(_)))
    }

    /// A request; `None` if the connection failed.
    pub fn try_request(
        &self,
        method: &str,
        path: &str,
        token: Option<&str>,
        body: Option<&str>,
    ) -> Option<(u16, Value)> {
        self.client().try_request(method, path, token, body)
    }
}

/// A client of a daemon, without the daemon (for other threads).
#[derive(Clone, Debug)]
pub struct Client {
    /// `127.0.0.1:PORT`.
    pub addr: String,
    /// The operator's token.
    pub operator: String,
}

impl Client {
    /// A request; `None` if the connection failed.
    pub fn try_request(
        &self,
        method: &str,
        path: &str,
        token: Option<&str>,
        body: Option<&str>,
    ) -> Option<(u16, Value)> {
        let mut stream = TcpStream::connect(&self.addr).ok()?;
        stream.set_read_timeout(Some(PATIENCE)).ok()?;
        let body = body.unwrap_or("");
        let auth = token.map_or(String::new(), |t| format!("Authorization: Bearer {t}\r\n"));
        let request = format!(
            "{method} {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n{auth}Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
            self.addr,
            body.len()
        );
        stream.write_all(request.as_bytes()).ok()?;
        let mut raw = Vec::new();
        stream.read_to_end(&mut raw).ok()?;
        let text = String::from_utf8_lossy(&raw);
        let (head, rest) = text.split_once("\r\n\r\n")?;
        let status: u16 = head.split_whitespace().nth(1)?.parse().ok()?;
        let value = serde_json::from_str(rest).unwrap_or(Value::String(rest.to_string()));
        Some((status, value))
    }
}

impl Daemon {
    fn try_get(&self, path: &str, token: Option<&str>) -> Option<(u16, Value)> {
        self.try_request("GET", path, token, None)
    }

    /// A request that must get an answer.
    pub fn request(
        &self,
        method: &str,
        path: &str,
        token: Option<&str>,
        body: Option<&str>,
    ) -> (u16, Value) {
        self.try_request(method, path, token, body)
            .unwrap_or_else(|| panic!("no answer to {method} {path}"))
    }

    /// GET that must answer 200.
    pub fn get(&self, path: &str, token: Option<&str>) -> Value {
        let (status, value) = self.request("GET", path, token, None);
        assert_eq!(status, 200, "GET {path}: {value}");
        value
    }

    /// POST as the operator that must answer 200.
    pub fn post(&self, path: &str, body: &str) -> Value {
        let (status, value) = self.request("POST", path, Some(&self.operator), Some(body));
        assert_eq!(status, 200, "POST {path} {body}: {value}");
        value
    }

    /// The active entry of ruleset `id` in `/api/rulesets`.
    pub fn ruleset(&self, id: &str) -> Value {
        let list = self.get("/api/rulesets", None);
        list.as_array()
            .and_then(|l| l.iter().find(|r| r["id"] == id))
            .cloned()
            .unwrap_or_else(|| panic!("no ruleset {id} in {list}"))
    }

    /// Opens a cash table whose fixed initial buy-in is `stack` with `players` seated (seats
    /// 1..), each buying in for it; returns the table id and the seat tokens.
    pub fn table(&self, ruleset: &str, players: usize, stack: u64) -> (String, Vec<String>) {
        let created = self.post(
            "/api/tables",
            &format!(
                r#"{{"ruleset": "{ruleset}", "blinds": [1, 2], "seats": 6, "buy_in": {stack}}}"#
            ),
        );
        let id = created["table"].as_str().expect("table id").to_string();
        let tokens = (1..=players)
            .map(|s| {
                let seated = self.post(
                    &format!("/api/tables/{id}/seats"),
                    &format!(r#"{{"seat": {s}, "name": "player{s}", "stack": {stack}}}"#),
                );
                seated["token"].as_str().expect("token").to_string()
            })
            .collect();
        (id, tokens)
    }

    /// Opens a table with `setup` (the body of `POST /api/tables`) and seats four players,
    /// `player1`..`player4` with 200 chips each, in seats 1 to 4: its id. The dealer's console
    /// and the rulings at a live table are tested at such a table.
    pub fn four_seated(&self, setup: &str) -> String {
        let created = self.post("/api/tables", setup);
        let id = created["table"].as_str().expect("table id").to_string();
        for s in 1..=4 {
            self.post(
                &format!("/api/tables/{id}/seats"),
                &format!(r#"{{"seat": {s}, "name": "player{s}", "stack": 200}}"#),
            );
        }
        id
    }

    /// [`Daemon::four_seated`] with the first hand dealt.
    pub fn four_dealt(&self, setup: &str) -> String {
        let id = self.four_seated(setup);
        self.post(&format!("/api/tables/{id}/hands"), "");
        id
    }

    /// [`Daemon::four_dealt`] at [`CASINO_TABLE`].
    pub fn dealt_table(&self) -> String {
        self.four_dealt(CASINO_TABLE)
    }

    /// Every player in turn checks or calls until nobody is to act: the hand is at its
    /// showdown (a table whose showdown the dealer calls) or over. The table as it is then.
    pub fn check_down(&self, table: &str) -> Value {
        for _ in 0..40 {
            let view = self.view(table);
            let Some(seat) = view["hand"]["to_act"].as_u64() else {
                return view;
            };
            self.post(
                &format!("/api/tables/{table}/actions"),
                &format!(r#"{{"seat": {seat}, "action": "cc"}}"#),
            );
        }
        panic!("the hand never reached its showdown: {}", self.view(table));
    }

    /// The table as the operator sees it.
    pub fn view(&self, table: &str) -> Value {
        self.get(&format!("/api/tables/{table}"), Some(&self.operator))
    }

    /// Plays the hand in progress to the end: each seat to act checks or calls, except
    /// `folder` who folds when facing a bet.
    pub fn play_out(&self, table: &str) {
        for _ in 0..200 {
            let view = self.view(table);
            let hand = &view["hand"];
            if hand["phase"] == "Complete" || hand["voided"] == true {
                return;
            }
            let seat = hand["to_act"].as_u64().expect("someone to act");
            self.post(
                &format!("/api/tables/{table}/actions"),
                &format!(r#"{{"seat": {seat}, "action": "cc"}}"#),
            );
        }
        panic!("the hand did not finish");
    }

    /// The chips the table answers for (`chips` in the table list): the seats' stacks, the pot,
    /// and the commission taken.
    pub fn chips(&self, table: &str) -> u64 {
        let list = self.get("/api/tables", None);
        list.as_array()
            .and_then(|l| l.iter().find(|t| t["id"] == table))
            .and_then(|t| t["chips"].as_u64())
            .expect("table chips")
    }
}

impl Drop for Daemon {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Each seated player's stack, in seat order, from a table's view.
pub fn seat_stacks(view: &Value) -> Vec<u64> {
    view["seats"]
        .as_array()
        .expect("seats")
        .iter()
        .filter(|s| s["player"].is_string())
        .filter_map(|s| s["stack"].as_u64())
        .collect()
}
