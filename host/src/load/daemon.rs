//! The daemon the load generator starts when it is not pointed at a running one: the real
//! `floor serve` (this same binary) as a child process, in a scratch directory holding a copy
//! of the rulesets (plus the house ruleset it rewrites) and a fresh data directory, so the
//! journal is on and nothing outside the scratch directory is touched.

use super::house;
use crate::rulesets::{Store, EMBEDDED};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// Why the generator's own daemon could not be started or stopped.
#[derive(Debug, thiserror::Error)]
pub enum DaemonError {
    /// A file of the scratch directory could not be written.
    #[error("{path}: {source}")]
    Io {
        /// The file or directory.
        path: String,
        /// Why.
        source: std::io::Error,
    },
    /// The daemon did not come up; its log says why.
    #[error("the daemon did not start within {secs} s; see its log {log}")]
    NotStarted {
        /// How long it was given.
        secs: u64,
        /// Its log file.
        log: String,
    },
}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> DaemonError + '_ {
    move |source| DaemonError::Io {
        path: path.display().to_string(),
        source,
    }
}

/// A running child daemon and its scratch directory.
pub struct OwnDaemon {
    child: Child,
    /// The scratch directory (removed on drop unless kept).
    pub dir: PathBuf,
    /// `127.0.0.1:PORT`.
    pub addr: String,
    /// The operator's token.
    pub token: String,
    /// The watched rulesets directory (a copy).
    pub rulesets: PathBuf,
    /// The data directory (the journal).
    pub data: PathBuf,
    /// Keep the scratch directory after the run.
    pub keep: bool,
}

/// Copies the rulesets of `store` into `to` (from disk, or the copies built into the binary).
fn copy_rulesets(store: &Store, to: &Path) -> Result<(), DaemonError> {
    match store {
        Store::Dir(from) => copy_dir(from, to),
        Store::Dirs(dirs) => dirs.iter().try_for_each(|from| copy_dir(from, to)),
        Store::Embedded => {
            for (rel, text) in EMBEDDED {
                let path = to.join(rel);
                if let Some(parent) = path.parent() {
                    std::fs::create_dir_all(parent).map_err(io(parent))?;
                }
                std::fs::write(&path, text).map_err(io(&path))?;
            }
            Ok(())
        }
    }
}

fn copy_dir(from: &Path, to: &Path) -> Result<(), DaemonError> {
    std::fs::create_dir_all(to).map_err(io(to))?;
    for entry in std::fs::read_dir(from).map_err(io(from))?.flatten() {
        let path = entry.path();
        let target = to.join(entry.file_name());
        if path.is_dir() {
            copy_dir(&path, &target)?;
        } else {
            std::fs::copy(&path, &target).map_err(io(&path))?;
        }
    }
    Ok(())
}

impl OwnDaemon {
    /// Prepares the scratch directory (rulesets copied from `source`, the house ruleset at
    /// revision 0) and starts `floor serve` on a free loopback port; returns once it answers
    /// and the house ruleset is live. Its journal is SQLite in its data directory, or
    /// `journal` (`postgres://…`, a database the run may fill).
    pub fn start(
        source: &Store,
        keep: bool,
        journal: Option<&str>,
    ) -> Result<OwnDaemon, DaemonError> {
        let dir = std::env::temp_dir().join(format!("floor-load-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let rulesets = dir.join("rulesets");
        let data = dir.join("data");
        copy_rulesets(source, &rulesets)?;
        house::write(&rulesets, 0).map_err(io(&rulesets))?;
        // The daemon creates its data directory itself, private (0700).
        let token = crate::serve::config::new_token();
        let config = dir.join("config.ron");
        std::fs::write(
            &config,
            match journal {
                Some(url) => format!(
                    r#"(operator_token: "{token}", reload_debounce_ms: 50, journal: {url:?})"#
                ),
                None => format!(r#"(operator_token: "{token}", reload_debounce_ms: 50)"#),
            },
        )
        .map_err(io(&config))?;
        let log = dir.join("daemon.log");
        let log_file = std::fs::File::create(&log).map_err(io(&log))?;
        let exe = std::env::current_exe().map_err(io(Path::new("floor")))?;
        let child = Command::new(exe)
            .arg("serve")
            .arg("--rulesets-dir")
            .arg(&rulesets)
            .arg("--data")
            .arg(&data)
            .args(["--addr", "127.0.0.1:0", "--config"])
            .arg(&config)
            .env(
                "RUST_LOG",
                std::env::var("RUST_LOG").unwrap_or_else(|_| "info".into()),
            )
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::from(log_file))
            .spawn()
            .map_err(io(Path::new("floor serve")))?;
        let mut daemon = OwnDaemon {
            child,
            dir,
            addr: String::new(),
            token,
            rulesets,
            data,
            keep,
        };
        let patience = Duration::from_secs(60);
        let start = Instant::now();
        let addr_file = daemon.data.join("addr");
        loop {
            if let Ok(a) = std::fs::read_to_string(&addr_file) {
                if a.contains(':') && std::net::TcpStream::connect(a.trim()).is_ok() {
                    daemon.addr = a.trim().to_string();
                    return Ok(daemon);
                }
            }
            if start.elapsed() > patience || matches!(daemon.child.try_wait(), Ok(Some(_))) {
                return Err(DaemonError::NotStarted {
                    secs: patience.as_secs(),
                    log: log.display().to_string(),
                });
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// The child's process id (for its CPU time).
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Stops the daemon with SIGTERM (a clean stop: the journal is closed) and waits for it;
    /// `true` if it exited successfully.
    pub fn stop(&mut self) -> bool {
        let _ = Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status();
        let start = Instant::now();
        while start.elapsed() < Duration::from_secs(60) {
            if let Ok(Some(status)) = self.child.try_wait() {
                return status.success();
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
        false
    }
}

impl Drop for OwnDaemon {
    fn drop(&mut self) {
        if matches!(self.child.try_wait(), Ok(None)) {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
        if !self.keep {
            let _ = std::fs::remove_dir_all(&self.dir);
        }
    }
}
