//! The journal on the real daemon: what its files hold and who may read them (finding 2 of the
//! security review), and damage of every kind found at start, where the daemon refuses to
//! serve a state it did not acknowledge and says how to get out (findings 10, 11, 12); the
//! operator's backup and check.

use crate::support;

use rusqlite::{Connection, OpenFlags};
use serde_json::Value;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use support::journals::Backend;
use support::{
    audit, eventually, floor, refused_start, refused_start_config, Daemon, Scratch, AUDITOR,
    OPERATOR,
};

fn mode(path: &Path) -> u32 {
    std::fs::metadata(path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .permissions()
        .mode()
        & 0o777
}

/// The raw bytes of every file of the journal (database and WAL), as a reader of the files
/// would see them.
fn journal_bytes(data: &Path) -> Vec<u8> {
    let mut all = Vec::new();
    for name in ["journal.sqlite", "journal.sqlite-wal"] {
        all.extend(std::fs::read(data.join(name)).unwrap_or_default());
    }
    all
}

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|w| w == needle)
}

/// A table with three players and one hand played to the end; the daemon still running.
fn played(d: &Daemon) -> String {
    let (t, _) = d.table("pt-online", 3, 100);
    d.post(&format!("/api/tables/{t}/hands"), "");
    d.play_out(&t);
    t
}

/// `floor audit --verify --data DATA`: (success, stdout and stderr).
fn verify(data: &Path) -> (bool, String) {
    let out = floor()
        .args(["audit", "--verify", "--data"])
        .arg(data)
        .output()
        .expect("floor audit --verify");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.success(), text)
}

/// What every refusal of a damaged journal must say: that it is not trusted and the way out.
fn says_the_way_out(said: &str) {
    assert!(
        said.contains("cannot be trusted")
            && said.contains("restore the journal from a backup")
            && said.contains("floor audit --verify"),
        "{said}"
    );
}

#[test]
fn finding_2_data_directory_0700_and_its_files_0600_even_under_umask_000() {
    let scratch = Scratch::new("modes");
    let data = scratch.data();
    let config = scratch.0.join("serve.ron");
    std::fs::write(
        &config,
        format!(
            r#"(operator_token: "{}", auditor_token: "{}")"#,
            support::OPERATOR,
            support::AUDITOR
        ),
    )
    .expect("config");
    // The daemon started by a shell whose umask grants everyone everything.
    let mut child = std::process::Command::new("sh")
        .arg("-c")
        .arg(r#"umask 000; exec "$0" "$@""#)
        .arg(env!("CARGO_BIN_EXE_floor"))
        .arg("serve")
        .arg("--rulesets-dir")
        .arg(scratch.rulesets())
        .arg("--data")
        .arg(&data)
        .args(["--addr", "127.0.0.1:0", "--config"])
        .arg(&config)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("floor serve");
    eventually("the daemon's address", || {
        std::fs::read_to_string(data.join("addr"))
            .ok()
            .filter(|a| a.contains(':'))
    });
    eventually("the WAL and its index", || {
        (data.join("journal.sqlite-wal").exists() && data.join("journal.sqlite-shm").exists())
            .then_some(())
    });
    let _ = child.kill();
    let _ = child.wait();
    assert_eq!(mode(&data), 0o700, "the data directory");
    for file in [
        "tokens.json",
        "journal.sqlite",
        "journal.sqlite-wal",
        "journal.sqlite-shm",
        "journal.key",
        "journal.head",
    ] {
        assert_eq!(mode(&data.join(file)), 0o600, "{file}");
    }
}

#[test]
fn finding_2_a_data_directory_or_tokens_file_others_may_read_is_refused_naming_path_and_mode() {
    let scratch = Scratch::new("open-modes");
    let data = scratch.data();
    std::fs::create_dir_all(&data).expect("data dir");
    std::fs::set_permissions(&data, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    let said = refused_start(&scratch.rulesets(), &data);
    assert!(
        said.contains(&data.display().to_string()) && said.contains("mode 755"),
        "{said}"
    );
    std::fs::set_permissions(&data, std::fs::Permissions::from_mode(0o700)).expect("chmod");
    let tokens = data.join("tokens.json");
    std::fs::write(&tokens, "{}").expect("tokens");
    std::fs::set_permissions(&tokens, std::fs::Permissions::from_mode(0o644)).expect("chmod");
    let said = refused_start(&scratch.rulesets(), &data);
    assert!(
        said.contains(&tokens.display().to_string()) && said.contains("mode 644"),
        "{said}"
    );
}

#[test]
fn finding_2_the_journal_of_a_hand_in_play_holds_no_seat_token_no_seed_and_no_card() {
    let scratch = Scratch::new("no-secrets");
    let data = scratch.data();
    let d = Daemon::start(&scratch.rulesets(), &data);
    let (t, tokens) = d.table("pt-online", 3, 100);
    let seed: u64 = 0x5eed_1234_abcd_0042;
    d.post(
        &format!("/api/tables/{t}/hands"),
        &format!(r#"{{"seed": {seed}}}"#),
    );
    let view = d.view(&t);
    assert_eq!(view["hand"]["phase"], "Betting", "a hand in play: {view}");
    let bytes = journal_bytes(&data);
    assert!(bytes.len() > 4096, "the journal was read");
    for token in &tokens {
        assert!(
            !contains(&bytes, token.as_bytes()),
            "seat token {token} in the journal"
        );
    }
    assert!(
        !contains(&bytes, seed.to_string().as_bytes()),
        "the seed in decimal"
    );
    assert!(!contains(&bytes, &seed.to_le_bytes()), "the seed's bytes");
    assert!(!contains(&bytes, &seed.to_be_bytes()), "the seed's bytes");
    let dealt = view["seats"]
        .as_array()
        .expect("seats")
        .iter()
        .filter(|s| s["in_hand"] == true);
    for seat in dealt {
        let cards: Vec<&str> = seat["cards"]
            .as_array()
            .expect("the operator sees every hand")
            .iter()
            .filter_map(Value::as_str)
            .collect();
        for shape in [
            format!(r#""{}","{}""#, cards[0], cards[1]),
            format!("{}{}", cards[0], cards[1]),
            format!("{} {}", cards[0], cards[1]),
        ] {
            assert!(
                !contains(&bytes, shape.as_bytes()),
                "{shape} in the journal"
            );
        }
    }
    // The deal is journaled all the same, its seed sealed apart from the body.
    let c = Connection::open_with_flags(
        data.join("journal.sqlite"),
        OpenFlags::SQLITE_OPEN_READ_ONLY,
    )
    .expect("journal");
    let (body, sealed): (String, Option<i64>) = c
        .query_row(
            "SELECT body, sealed_seed FROM commands WHERE body LIKE '%start_hand%'",
            [],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .expect("the deal");
    let body: Value = serde_json::from_str(&body).expect("json");
    assert_eq!(body["seed"], 0, "{body}");
    assert!(sealed.is_some_and(|s| s as u64 != seed));
    drop(c);
    // The daemon itself still replays the hand from it: the same cards after a restart.
    assert!(d.terminate());
    let d = Daemon::start(&scratch.rulesets(), &data);
    assert_eq!(d.view(&t)["seats"], view["seats"]);
}

#[test]
fn finding_10_a_journal_truncated_to_zero_bytes_is_refused_not_taken_as_new() {
    let scratch = Scratch::new("zero");
    let data = scratch.data();
    let d = Daemon::start(&scratch.rulesets(), &data);
    played(&d);
    assert!(d.terminate());
    std::fs::write(data.join("journal.sqlite"), b"").expect("truncate");
    let said = refused_start(&scratch.rulesets(), &data);
    says_the_way_out(&said);
    assert!(said.contains("holds nothing"), "{said}");
}

#[test]
fn finding_10_a_database_file_cut_in_half_is_refused() {
    let scratch = Scratch::new("half-db");
    let data = scratch.data();
    let d = Daemon::start(&scratch.rulesets(), &data);
    played(&d);
    assert!(d.terminate());
    let db = data.join("journal.sqlite");
    let len = std::fs::metadata(&db).expect("db").len();
    std::fs::OpenOptions::new()
        .write(true)
        .open(&db)
        .and_then(|f| f.set_len(len / 2))
        .expect("cut");
    says_the_way_out(&refused_start(&scratch.rulesets(), &data));
}

/// Where the frames SQLite will read end in a WAL, and the salts that mark them. A checkpoint
/// that folded the whole WAL lets the next commit write it again from its start: the frames of
/// the earlier generation stay behind the new ones, with other salts, and SQLite ignores them —
/// damage there loses nothing, so a test must aim inside the current frames.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct WalFrames {
    salts: [u8; 8],
    end: u64,
}

/// The WAL's header is 32 bytes (page size at 8..12, salts at 16..24); each frame is a 24-byte
/// header (its salts at 8..16) and a page.
fn wal_frames(wal: &Path) -> WalFrames {
    const HEADER: usize = 32;
    let bytes = std::fs::read(wal).unwrap_or_default();
    if bytes.len() < HEADER {
        return WalFrames {
            salts: [0; 8],
            end: HEADER as u64,
        };
    }
    let page = match u32::from_be_bytes(bytes[8..12].try_into().expect("4 bytes")) {
        1 => 65_536,
        n => n as usize,
    };
    let salts: [u8; 8] = bytes[16..24].try_into().expect("8 bytes");
    let frame = 24 + page;
    let mut end = HEADER;
    while end + frame <= bytes.len() && bytes[end + 8..end + 16] == salts {
        end += frame;
    }
    WalFrames {
        salts,
        end: end as u64,
    }
}

/// Plays on after a reader took a snapshot (so the checkpointer cannot fold what follows into
/// the database file: it stays in the WAL), kills the daemon, damages the WAL with `damage`
/// at the middle of the frames written after the snapshot, and returns what the restart said.
fn wal_damage(name: &str, damage: impl FnOnce(&Path, u64)) -> (PathBuf, String, Scratch) {
    let scratch = Scratch::new(name);
    let data = scratch.data();
    let d = Daemon::start(&scratch.rulesets(), &data);
    let t = played(&d);
    let reader = Connection::open_with_flags(
        data.join("journal.sqlite"),
        OpenFlags::SQLITE_OPEN_READ_ONLY,
    )
    .expect("reader");
    reader
        .set_db_config(
            rusqlite::config::DbConfig::SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE,
            true,
        )
        .expect("no checkpoint on close");
    reader
        .execute_batch("BEGIN; SELECT count(*) FROM commands;")
        .expect("snapshot");
    let wal = data.join("journal.sqlite-wal");
    let at_snapshot = wal_frames(&wal);
    for _ in 0..3 {
        d.post(&format!("/api/tables/{t}/hands"), "");
        d.play_out(&t);
    }
    d.kill9();
    reader.execute_batch("COMMIT;").expect("end snapshot");
    drop(reader);
    let at_kill = wal_frames(&wal);
    // Restarted after the snapshot (new salts): every current frame came after it.
    let from = if at_kill.salts == at_snapshot.salts {
        at_snapshot.end
    } else {
        32
    };
    assert!(
        at_kill.end > from,
        "the hands played after the snapshot are in the WAL: {at_snapshot:?} then {at_kill:?}"
    );
    damage(&wal, from + (at_kill.end - from) / 2);
    let said = refused_start(&scratch.rulesets(), &data);
    (data, said, scratch)
}

/// The restart and `floor audit --verify` both said acknowledged entries are missing (the
/// journal ends before the head record's entry, or holds nothing at all when no checkpoint
/// had folded anything into the database file before the WAL went).
fn lost(said: &str, data: &Path) {
    says_the_way_out(said);
    let missing = |text: &str| {
        text.contains("acknowledged entries were lost")
            || (text.contains("holds nothing") && text.contains("was acknowledged"))
    };
    assert!(missing(said), "{said}");
    let (whole, text) = verify(data);
    assert!(
        !whole,
        "floor audit --verify passed a damaged journal: {text}"
    );
    assert!(missing(&text), "{text}");
}

#[test]
fn finding_11_a_wal_truncated_after_kill_9_loses_acknowledged_entries_and_is_refused() {
    let (data, said, _s) = wal_damage("wal-half", |wal, middle| {
        std::fs::OpenOptions::new()
            .write(true)
            .open(wal)
            .and_then(|f| f.set_len(middle))
            .expect("truncate");
    });
    lost(&said, &data);
}

#[test]
fn finding_11_a_wal_overwritten_in_the_middle_is_refused() {
    let (data, said, _s) = wal_damage("wal-bytes", |wal, middle| {
        use std::os::unix::fs::FileExt;
        std::fs::OpenOptions::new()
            .write(true)
            .open(wal)
            .and_then(|f| f.write_all_at(&[0x5a; 64], middle))
            .expect("overwrite");
    });
    lost(&said, &data);
}

#[test]
fn finding_11_a_deleted_wal_is_refused() {
    let (data, said, _s) = wal_damage("wal-gone", |wal, _| {
        std::fs::remove_file(wal).expect("delete");
    });
    // A checkpoint under way at the kill may have copied part of the WAL into the database
    // file, leaving it a mix of two moments: then SQLite's own integrity check, or the hash
    // chain (an entry missing or changed), finds the damage before the head record does.
    // Either way the journal is refused, and so is its verification.
    let mixed = [
        "SQLite's integrity check failed",
        "is missing",
        "does not match the hash chain",
    ];
    if mixed.iter().any(|m| said.contains(m)) {
        says_the_way_out(&said);
        let (whole, text) = verify(&data);
        assert!(
            !whole,
            "floor audit --verify passed a damaged journal: {text}"
        );
        return;
    }
    lost(&said, &data);
}

/// A clean stop, then `sql` on the journal kept on `backend`: what the daemon said refusing
/// to start, and what `floor audit --verify` said.
fn tampered(backend: &Backend, name: &str, sql: &str) -> (Scratch, String, String) {
    let scratch = Scratch::new(&format!("{name}-{}", backend.name()));
    let data = scratch.data();
    let d = Daemon::start_on(&scratch.rulesets(), &data, backend);
    played(&d);
    assert!(d.terminate());
    backend.tamper(&data, sql);
    let said = refused_start_config(
        &scratch.rulesets(),
        &data,
        &format!(
            r#"(operator_token: "{OPERATOR}", auditor_token: "{AUDITOR}", {})"#,
            backend.config()
        ),
    );
    let out = floor()
        .args(["audit", "--verify", "--data"])
        .arg(&data)
        .args(backend.args())
        .output()
        .expect("floor audit --verify");
    assert!(!out.status.success(), "verify passed a damaged journal");
    let verified = String::from_utf8_lossy(&out.stdout).into_owned()
        + String::from_utf8_lossy(&out.stderr).as_ref();
    (scratch, said, verified)
}

/// On both journals, the daemon and `floor audit --verify` alike.
#[test]
fn finding_11_a_changed_entry_is_found_by_the_hash_chain() {
    for backend in Backend::both("changed") {
        let (_s, said, verified) = tampered(
            &backend,
            "changed",
            "UPDATE commands SET body = replace(body, '\"stack\":100', '\"stack\":900')
             WHERE seq = (SELECT min(seq) FROM commands WHERE body LIKE '%\"stack\":100%')",
        );
        says_the_way_out(&said);
        assert!(said.contains("does not match the hash chain"), "{said}");
        assert!(
            verified.contains("does not match the hash chain"),
            "{verified}"
        );
    }
}

/// On both journals, the daemon and `floor audit --verify` alike.
#[test]
fn finding_11_a_removed_entry_is_found_as_a_gap() {
    for backend in Backend::both("removed") {
        let (_s, said, verified) = tampered(
            &backend,
            "removed",
            "DELETE FROM commands WHERE seq = (SELECT max(seq) FROM commands WHERE body LIKE '%\"act\"%')",
        );
        says_the_way_out(&said);
        assert!(said.contains("is missing"), "{said}");
        assert!(verified.contains("is missing"), "{verified}");
    }
}

#[test]
fn finding_12_an_entry_that_cannot_be_replayed_stops_the_start() {
    let scratch = Scratch::new("unreplayable");
    let rulesets = scratch.rulesets();
    let data = scratch.data();
    let d = Daemon::start(&rulesets, &data);
    let t = played(&d);
    assert!(d.terminate());
    // The version the table was opened under is no longer on disk, and its ruleset.ron is
    // gone from the journal too (texts are kept by hash, outside the chain): the table can
    // no longer be rebuilt.
    let path = rulesets.join("pt-online/ruleset.ron");
    let text = std::fs::read_to_string(&path).expect("ruleset");
    std::fs::write(
        &path,
        text.replacen("version: \"1.1.3\"", "version: \"9.9.9\"", 1),
    )
    .expect("edit");
    let c = Connection::open(data.join("journal.sqlite")).expect("journal");
    let removed = c
        .execute(
            "DELETE FROM texts WHERE text LIKE '%id: \"pt-online\"%' AND text LIKE '%version: \"1.1.3\"%'",
            [],
        )
        .expect("delete");
    assert_eq!(removed, 1);
    drop(c);
    let said = refused_start(&rulesets, &data);
    says_the_way_out(&said);
    assert!(
        said.contains("cannot be replayed") && said.contains(&format!("create_table at {t}")),
        "{said}"
    );
    let (whole, text) = verify(&data);
    assert!(!whole && text.contains("cannot be replayed"), "{text}");
}

#[test]
fn floor_journal_backup_copies_a_running_journal_that_restores_and_verifies() {
    let scratch = Scratch::new("backup");
    let data = scratch.data();
    let d = Daemon::start(&scratch.rulesets(), &data);
    let t = played(&d);
    let at_backup = d.view(&t);
    let dest = scratch.0.join("backup.sqlite");
    let out = floor()
        .args(["journal", "backup", "--data"])
        .arg(&data)
        .arg(&dest)
        .output()
        .expect("floor journal backup");
    let said = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(
        out.status.success(),
        "{said}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        said.contains("hash chain intact") && said.contains("journal.key"),
        "{said}"
    );
    assert_eq!(mode(&dest), 0o600);
    // Never over an existing file.
    let again = floor()
        .args(["journal", "backup", "--data"])
        .arg(&data)
        .arg(&dest)
        .output()
        .expect("floor journal backup");
    assert!(!again.status.success());
    // Play goes on after the backup; then the data directory is lost.
    d.post(&format!("/api/tables/{t}/hands"), "");
    d.kill9();
    // Restored, as docs/API.md says: the copy as the journal, the key kept apart beside it.
    let restored = scratch.0.join("restored");
    support::private_dir(&restored);
    std::fs::copy(&dest, restored.join("journal.sqlite")).expect("copy");
    std::fs::copy(data.join("journal.key"), restored.join("journal.key")).expect("key");
    let (whole, text) = verify(&restored);
    assert!(whole && text.contains("whole"), "{text}");
    let d = Daemon::start(&scratch.rulesets(), &restored);
    let view = d.view(&t);
    assert_eq!(view["seats"], at_backup["seats"]);
    assert_eq!(view["hand"]["number"], at_backup["hand"]["number"]);
    assert!(d.terminate());
    let (whole, text) = verify(&restored);
    assert!(whole && text.contains("the head record's entry"), "{text}");
    assert!(!audit(&restored, &[]).is_empty());
}
