//! The journal's own checks, on journals written here, each run against both back ends:
//! SQLite and PostgreSQL (the server `tests/with-postgres` starts; the daemon's checks are in
//! `host/tests/serve_journal.rs` and `host/tests/serve_postgres.rs`).

use super::writer::Entry;
use super::*;
use crate::live::content::File;

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("floor-journal-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// The URL of a new, empty database on the test server for test `name`. Fails, saying why,
/// when there is no server: nothing is skipped.
pub fn postgres_database(name: &str) -> String {
    let base = match std::env::var("FLOOR_TEST_POSTGRES") {
        Ok(url) => url,
        Err(_) => panic!(
            "no PostgreSQL for the journal's tests: {}",
            std::env::var("FLOOR_TEST_POSTGRES_ERROR").unwrap_or_else(|_| {
                "FLOOR_TEST_POSTGRES is not set: run the tests with tests/run (or tests/with-postgres cargo test ...), which starts a throwaway server".into()
            })
        ),
    };
    let db = format!("floor_unit_{}_{name}", std::process::id());
    let mut c = postgres::worker::connect(&base.parse().expect("the test server's URL"))
        .expect("the test server answers");
    c.batch_execute(&format!("DROP DATABASE IF EXISTS {db}"))
        .and_then(|()| c.batch_execute(&format!("CREATE DATABASE {db}")))
        .expect("a database for the test");
    match base.rsplit_once('/') {
        Some((server, _)) => format!("{server}/{db}"),
        None => panic!("{base} names no database"),
    }
}

/// One journal under test: its data directory and where it is kept.
struct Fixture {
    dir: PathBuf,
    location: Location,
}

/// The same journal on each back end.
fn both(name: &str) -> [Fixture; 2] {
    let sqlite = scratch(&format!("{name}-sqlite"));
    let pg = scratch(&format!("{name}-pg"));
    [
        Fixture {
            location: Location::in_data(&sqlite),
            dir: sqlite,
        },
        Fixture {
            location: Location::Postgres(postgres_database(name)),
            dir: pg,
        },
    ]
}

impl Fixture {
    fn lease() -> postgres::LeaseSpec {
        postgres::LeaseSpec {
            url: "http://127.0.0.1:1".into(),
            ttl: std::time::Duration::from_secs(30),
        }
    }

    fn open(&self) -> Result<Journal, JournalError> {
        Journal::open(&self.dir, &self.location, Some(&Self::lease()))
    }

    fn refusal(&self) -> String {
        match self.open() {
            Ok(_) => panic!("a damaged journal was opened ({:?})", self.location),
            Err(e) => e.to_string(),
        }
    }

    /// Runs `sql` on the journal's database, as someone with access to it would.
    fn tamper(&self, sql: &str) {
        match &self.location {
            Location::Sqlite(path) => schema::connect(path, true)
                .expect("open")
                .execute_batch(sql)
                .expect("tamper"),
            Location::Postgres(url) => postgres::worker::connect(&url.parse().expect("url"))
                .expect("connect")
                .batch_execute(sql)
                .expect("tamper"),
        }
    }

    fn count(&self, sql: &str) -> i64 {
        match &self.location {
            Location::Sqlite(path) => schema::connect(path, false)
                .expect("read")
                .query_row(sql, [], |r| r.get(0))
                .expect("count"),
            Location::Postgres(url) => postgres::worker::connect(&url.parse().expect("url"))
                .expect("connect")
                .query_one(sql, &[])
                .and_then(|r| r.try_get::<_, i64>(0))
                .expect("count"),
        }
    }

    fn is_postgres(&self) -> bool {
        matches!(self.location, Location::Postgres(_))
    }
}

impl Drop for Fixture {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

fn file(ruleset: &str, name: &str, text: &str) -> File {
    File {
        ruleset: ruleset.into(),
        name: name.into(),
        path: format!("rulesets/{ruleset}/{name}"),
        text: text.into(),
    }
}

fn entry(table: &str, body: &str, seed: Option<u64>) -> Entry {
    Entry {
        table: table.into(),
        body: body.into(),
        seed,
        rulings: vec![RulingRecord {
            seq: 0,
            table: table.into(),
            hand: 1,
            point: "online.communication_failure".into(),
            ruleset: "pt-online".into(),
            version: "1.1.0".into(),
            citation: "rule 72".into(),
            text: "void".into(),
        }],
    }
}

/// Three commands (each with a ruling) and a clean stop, on each back end.
fn written(name: &str) -> [Fixture; 2] {
    let all = both(name);
    for f in &all {
        let mut j = f.open().expect("new journal");
        j.lifecycle("started").expect("started");
        let batch = [
            entry("t1", r#"{"command":"a"}"#, None),
            entry("t1", r#"{"command":"b"}"#, Some(0xdead_beef_0bad_cafe)),
        ];
        j.append_batch(batch.iter()).expect("batch");
        j.append_batch([entry("t2", r#"{"command":"c"}"#, None)].iter())
            .expect("one");
        j.close().expect("close");
    }
    all
}

#[test]
fn a_whole_journal_opens_again_and_its_sealed_seed_reads_back() {
    for f in written("whole") {
        let mut j = f.open().expect("reopens");
        assert!(j.stopped_cleanly().expect("lifecycle"));
        let commands = j
            .reader()
            .commands::<serde_json::Value>(None)
            .expect("read");
        let seeds: Vec<Option<u64>> = commands.iter().map(|c| c.seed).collect();
        assert_eq!(
            seeds,
            [None, Some(0xdead_beef_0bad_cafe), None],
            "{:?}",
            f.location
        );
        let only_t2 = j
            .reader()
            .commands::<serde_json::Value>(Some(&["t2".to_string()]))
            .expect("read");
        assert_eq!(only_t2.len(), 1);
        // The stored value is not the seed.
        let stored = f.count("SELECT sealed_seed FROM commands WHERE sealed_seed IS NOT NULL");
        assert_ne!(
            u64::from_le_bytes(stored.to_le_bytes()),
            0xdead_beef_0bad_cafe
        );
        j.close().expect("close");
    }
}

#[test]
fn a_changed_entry_is_found_by_the_hash_chain() {
    for f in written("changed") {
        f.tamper(r#"UPDATE commands SET body = '{"command":"x"}' WHERE body = '{"command":"b"}'"#);
        let message = f.refusal();
        assert!(
            message.contains("does not match the hash chain")
                && message.contains("floor audit --verify"),
            "{message}"
        );
    }
}

#[test]
fn a_removed_entry_is_found_as_a_gap() {
    for f in written("removed") {
        f.tamper("DELETE FROM rulings WHERE seq = (SELECT min(seq) FROM rulings)");
        let message = f.refusal();
        assert!(message.contains("is missing"), "{message}");
    }
}

#[test]
fn a_journal_ending_before_its_head_record_lost_acknowledged_entries() {
    for f in written("lost") {
        // The last entries vanish as a lost WAL (or a database restored from an older copy)
        // would take them: the chain left is whole.
        f.tamper("DELETE FROM lifecycle WHERE seq = (SELECT max(seq) FROM lifecycle)");
        let message = f.refusal();
        assert!(
            message.contains("acknowledged entries were lost"),
            "{message}"
        );
    }
}

#[test]
fn an_emptied_journal_with_its_head_record_is_refused_not_started_anew() {
    for f in written("emptied") {
        match &f.location {
            Location::Sqlite(path) => std::fs::write(path, b"").expect("truncate"),
            Location::Postgres(_) => f.tamper("DROP SCHEMA public CASCADE; CREATE SCHEMA public;"),
        }
        let message = f.refusal();
        assert!(message.contains("holds nothing"), "{message}");
    }
}

#[test]
fn another_key_is_refused() {
    for f in written("key") {
        files::write_private(
            &f.dir.join(seal::KEY_FILE),
            hex::encode([1u8; 32]).as_bytes(),
        )
        .expect("key");
        let message = f.refusal();
        assert!(message.contains("is not the key"), "{message}");
    }
}

#[test]
fn a_journal_of_a_newer_schema_is_refused_with_a_message_saying_so() {
    for f in written("newer") {
        f.tamper(if f.is_postgres() {
            "UPDATE header SET schema = 99"
        } else {
            "PRAGMA user_version = 99;"
        });
        let message = f.refusal();
        assert!(
            message.contains("version 99") && message.contains("newer than this floor's 1"),
            "{message}"
        );
    }
}

#[test]
fn postgres_a_head_row_moved_behind_the_writers_backs_is_found() {
    let [_, f] = written("headrow");
    f.tamper("UPDATE head SET seq = seq - 1");
    let message = f.refusal();
    assert!(
        message.contains("head row records entry") && message.contains("cannot be trusted"),
        "{message}"
    );
}

#[test]
fn each_file_text_is_stored_once_however_many_versions_share_it() {
    for f in both("dedup") {
        let mut j = f.open().expect("open");
        let parent = file("p", "ruleset.ron", &"x".repeat(10_000));
        for n in 0..10 {
            let content = Content {
                files: vec![
                    file("h", "ruleset.ron", &format!("(version: \"1.0.{n}\")")),
                    parent.clone(),
                ],
            };
            let hash = content.sha256();
            j.activation("h", &format!("1.0.{n}"), &hash, &content)
                .expect("activation");
            // Activating the same version again adds an activation, not content.
            j.activation("h", &format!("1.0.{n}"), &hash, &content)
                .expect("again");
            assert_eq!(
                j.reader().content(&hash).expect("read"),
                Some(("h".into(), content))
            );
        }
        j.close().expect("close");
        assert_eq!(f.count("SELECT count(*) FROM activations"), 20);
        assert_eq!(f.count("SELECT count(*) FROM versions"), 10);
        assert_eq!(
            f.count("SELECT count(*) FROM texts"),
            11,
            "ten house texts and the parent's once"
        );
        let stored = f.count("SELECT CAST(sum(length(text)) AS BIGINT) FROM texts");
        assert!(stored < 10_000 + 10 * 100, "{stored} bytes of text");
        // Versions and texts are checked at open like every entry.
        f.open().expect("whole").close().expect("close");
        f.tamper("UPDATE texts SET text = 'y' WHERE length(text) = 10000");
        assert!(f.refusal().contains("was changed"));
    }
}

#[test]
fn a_page_holds_rulings_and_activations_in_journal_order_with_a_cursor() {
    for f in written("page") {
        let j = f.open().expect("open");
        let reader = j.reader();
        let all = audit::Filter::default();
        let first = reader.page(&all, 0, 2).expect("page");
        assert_eq!(first.rulings.len(), 2);
        let next = first.next.expect("more");
        let rest = reader.page(&all, next, 2).expect("page");
        assert_eq!(rest.rulings.len(), 1);
        assert_eq!(rest.next, None);
        assert!(rest.rulings[0].seq > first.rulings[1].seq);
        let t2 = reader
            .rulings(&audit::Filter {
                table: Some("t2".into()),
                ..audit::Filter::default()
            })
            .expect("filtered");
        assert_eq!(t2.len(), 1);
        j.close().expect("close");
    }
}

#[test]
fn postgres_two_writers_share_one_chain_and_a_table_is_written_by_its_owner_only() {
    let url = postgres_database("two");
    let (a_dir, b_dir) = (scratch("two-a"), scratch("two-b"));
    let location = Location::Postgres(url);
    let mut a = Journal::open(&a_dir, &location, Some(&Fixture::lease())).expect("a");
    // The second daemon has the key the first created (every daemon of a journal has a copy).
    files::private_dir(&b_dir).expect("dir");
    std::fs::copy(a_dir.join(seal::KEY_FILE), b_dir.join(seal::KEY_FILE)).expect("key");
    let mut b = Journal::open(&b_dir, &location, Some(&Fixture::lease())).expect("b");
    a.append_batch([entry("t1", "{}", None)].iter())
        .expect("a owns t1");
    b.append_batch([entry("t2", "{}", None)].iter())
        .expect("b owns t2");
    a.append_batch([entry("t1", "{}", Some(7))].iter())
        .expect("a again");
    let refused = b
        .append_batch([entry("t1", "{}", None)].iter())
        .expect_err("t1 is a's");
    assert!(
        matches!(refused, JournalError::Fenced { .. })
            && refused.to_string().contains("no longer owns t1"),
        "{refused}"
    );
    // One chain, whoever wrote: both reopen whole, and the refused entry is not in it.
    assert_eq!(
        a.reader()
            .commands::<serde_json::Value>(None)
            .expect("read")
            .len(),
        3
    );
    a.close().expect("close a");
    b.close().expect("close b");
    Journal::open(&a_dir, &location, Some(&Fixture::lease()))
        .expect("whole after both")
        .close()
        .expect("close");
    let _ = std::fs::remove_dir_all(&a_dir);
    let _ = std::fs::remove_dir_all(&b_dir);
}

/// The refusal of `f`'s journal with its data directory written `DATA`, for a snapshot.
fn refusal_in_data(f: &Fixture) -> String {
    f.refusal().replace(&f.dir.display().to_string(), "DATA")
}

/// The SQLite journal of `f` checkpointed into its database file, and the bytes of the page
/// at `byte`: what an operator finds at the offset a refusal names.
fn page_at(f: &Fixture, byte: u64) -> Vec<u8> {
    let Location::Sqlite(path) = &f.location else {
        panic!("a page of a PostgreSQL journal")
    };
    let c = schema::connect(path, true).expect("open");
    c.execute_batch("PRAGMA wal_checkpoint(TRUNCATE)")
        .expect("checkpoint");
    let size: u64 = c
        .query_row("PRAGMA page_size", [], |r| r.get::<_, i64>(0))
        .map(|n| n as u64)
        .expect("page size");
    let bytes = std::fs::read(path).expect("the database file");
    let start = usize::try_from(byte).expect("offset");
    bytes[start..start + size as usize].to_vec()
}

/// The byte offset a refusal names (`entry N at byte B`).
fn byte_named(message: &str) -> u64 {
    let (_, rest) = message
        .split_once(" at byte ")
        .unwrap_or_else(|| panic!("no byte offset in: {message}"));
    rest.split(':')
        .next()
        .and_then(|b| b.parse().ok())
        .unwrap_or_else(|| panic!("no byte offset in: {message}"))
}

#[test]
fn a_changed_entry_is_named_with_its_file_entry_and_the_byte_of_its_page() {
    let [sqlite, pg] = written("changed_at");
    for f in [&sqlite, &pg] {
        f.tamper(r#"UPDATE commands SET body = '{"command":"x"}' WHERE body = '{"command":"b"}'"#);
    }
    let message = refusal_in_data(&sqlite);
    insta::assert_snapshot!("journal_changed_entry", message);
    let page = page_at(&sqlite, byte_named(&message));
    assert!(
        page.windows(15).any(|w| w == br#"{"command":"x"}"#),
        "the page at the byte named holds the changed entry"
    );
    // PostgreSQL has no file to point into: the entry is named by its number.
    let message = pg.refusal();
    assert!(
        message.contains(": entry 4: this command does not match the hash chain"),
        "{message}"
    );
}

#[test]
fn a_gap_is_named_at_the_entry_after_it() {
    let [sqlite, pg] = written("gap_at");
    for f in [&sqlite, &pg] {
        f.tamper("DELETE FROM rulings WHERE seq = (SELECT min(seq) FROM rulings)");
    }
    insta::assert_snapshot!("journal_gap", refusal_in_data(&sqlite));
    let message = pg.refusal();
    assert!(
        message
            .contains(": entry 4: entry 3 is missing: the journal goes from entry 2 to this one"),
        "{message}"
    );
}

#[test]
fn a_changed_file_text_is_named_with_the_byte_of_its_page() {
    for f in both("text_at") {
        let mut j = f.open().expect("open");
        let content = Content {
            files: vec![file("h", "ruleset.ron", "(version: \"1.0.0\")")],
        };
        j.activation("h", "1.0.0", &content.sha256(), &content)
            .expect("activation");
        j.close().expect("close");
        f.tamper("UPDATE texts SET text = 'y'");
        let message = f.refusal();
        let (at, what) = message
            .split_once(": this file text was changed")
            .unwrap_or_else(|| panic!("{message}"));
        assert!(at.contains(": text "), "{message}");
        assert_eq!(at.contains(" at byte "), !f.is_postgres(), "{message}");
        assert!(what.contains("cannot be trusted"), "{message}");
    }
}

#[test]
fn a_head_record_that_disagrees_is_named_by_line_and_column() {
    let [f, _] = written("head_at");
    let head = f.dir.join(head::HEAD_FILE);
    let record = std::fs::read_to_string(&head).expect("head record");
    // Lost entries: the journal ends before the entry the record says was acknowledged.
    f.tamper("DELETE FROM lifecycle WHERE seq = (SELECT max(seq) FROM lifecycle)");
    insta::assert_snapshot!("journal_head_lost_entries", refusal_in_data(&f));
    // A record from another journal: its id column.
    let other = written("head_other");
    std::fs::copy(other[0].dir.join(head::HEAD_FILE), &head).expect("copy");
    insta::assert_snapshot!("journal_head_of_another_journal", refusal_in_data(&f));
    // A record changed by hand: its checksum column.
    let seq = head::columns("0123456789abcdef0123456789abcdef").seq - 1;
    let changed = format!("{}9{}", &record[..seq], &record[seq + 1..]);
    std::fs::write(&head, changed).expect("tamper");
    insta::assert_snapshot!("journal_head_damaged", refusal_in_data(&f));
}
