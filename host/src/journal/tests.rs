//! The journal's own checks, on files written here (the daemon's are in
//! `host/tests/serve_journal.rs`).

use super::writer::Entry;
use super::*;
use crate::live::content::File;

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("floor-journal-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn count(data: &Path, table: &str) -> i64 {
    let c = schema::connect(&Journal::path(data), false).expect("read");
    c.query_row(&format!("SELECT count(*) FROM {table}"), [], |r| r.get(0))
        .expect("count")
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

/// A journal with three commands (each with a ruling) and a clean stop; returns its dir.
fn written(name: &str) -> PathBuf {
    let dir = scratch(name);
    let mut j = Journal::open(&dir).expect("new journal");
    j.lifecycle("started").expect("started");
    let batch = [
        entry("t1", r#"{"command":"a"}"#, None),
        entry("t1", r#"{"command":"b"}"#, Some(0xdead_beef_0bad_cafe)),
    ];
    j.append_batch(batch.iter()).expect("batch");
    j.append_batch([entry("t2", r#"{"command":"c"}"#, None)].iter())
        .expect("one");
    j.close().expect("close");
    dir
}

fn refusal(dir: &Path) -> String {
    match Journal::open(dir) {
        Ok(_) => panic!("a damaged journal was opened"),
        Err(e) => e.to_string(),
    }
}

fn tamper(dir: &Path, sql: &str) {
    let c = schema::connect(&Journal::path(dir), true).expect("open");
    c.execute_batch(sql).expect("tamper");
}

#[test]
fn a_whole_journal_opens_again_and_its_sealed_seed_reads_back() {
    let dir = written("whole");
    let j = Journal::open(&dir).expect("reopens");
    assert!(j.stopped_cleanly().expect("lifecycle"));
    let commands = j.reader().commands::<serde_json::Value>().expect("read");
    let seeds: Vec<Option<u64>> = commands.iter().map(|c| c.seed).collect();
    assert_eq!(seeds, [None, Some(0xdead_beef_0bad_cafe), None]);
    // The stored value is not the seed.
    let c = schema::connect(&Journal::path(&dir), false).expect("read");
    let stored: i64 = c
        .query_row(
            "SELECT sealed_seed FROM commands WHERE sealed_seed IS NOT NULL",
            [],
            |r| r.get(0),
        )
        .expect("sealed");
    assert_ne!(
        u64::from_le_bytes(stored.to_le_bytes()),
        0xdead_beef_0bad_cafe
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_changed_entry_is_found_by_the_hash_chain() {
    let dir = written("changed");
    tamper(
        &dir,
        r#"UPDATE commands SET body = '{"command":"x"}' WHERE body = '{"command":"b"}'"#,
    );
    let message = refusal(&dir);
    assert!(
        message.contains("does not match the hash chain")
            && message.contains("floor audit --verify"),
        "{message}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_removed_entry_is_found_as_a_gap() {
    let dir = written("removed");
    tamper(
        &dir,
        "DELETE FROM rulings WHERE seq = (SELECT min(seq) FROM rulings)",
    );
    let message = refusal(&dir);
    assert!(message.contains("is missing"), "{message}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_journal_ending_before_its_head_record_lost_acknowledged_entries() {
    let dir = written("lost");
    // The last entries vanish as a lost WAL would take them: the chain left is whole.
    tamper(
        &dir,
        "DELETE FROM lifecycle WHERE seq = (SELECT max(seq) FROM lifecycle)",
    );
    let message = refusal(&dir);
    assert!(
        message.contains("acknowledged entries were lost"),
        "{message}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_emptied_journal_with_its_head_record_is_refused_not_started_anew() {
    let dir = written("emptied");
    std::fs::write(Journal::path(&dir), b"").expect("truncate");
    let message = refusal(&dir);
    assert!(message.contains("it holds nothing"), "{message}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn another_key_is_refused() {
    let dir = written("key");
    files::write_private(&dir.join(seal::KEY_FILE), hex::encode([1u8; 32]).as_bytes())
        .expect("key");
    let message = refusal(&dir);
    assert!(message.contains("is not the key"), "{message}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_journal_of_a_newer_schema_is_refused_with_a_message_saying_so() {
    let dir = written("newer");
    tamper(&dir, "PRAGMA user_version = 99;");
    let message = refusal(&dir);
    assert!(
        message.contains("version 99") && message.contains("newer than this floor's 1"),
        "{message}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn each_file_text_is_stored_once_however_many_versions_share_it() {
    let dir = scratch("dedup");
    let mut j = Journal::open(&dir).expect("open");
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
    assert_eq!(count(&dir, "activations"), 20);
    assert_eq!(count(&dir, "versions"), 10);
    assert_eq!(
        count(&dir, "texts"),
        11,
        "ten house texts and the parent's once"
    );
    let c = schema::connect(&Journal::path(&dir), false).expect("read");
    let stored: i64 = c
        .query_row("SELECT sum(length(text)) FROM texts", [], |r| r.get(0))
        .expect("size");
    assert!(stored < 10_000 + 10 * 100, "{stored} bytes of text");
    // Versions and texts are checked at open like every entry.
    drop(c);
    Journal::open(&dir).expect("whole");
    tamper(
        &dir,
        "UPDATE texts SET text = 'y' WHERE length(text) = 10000",
    );
    assert!(refusal(&dir).contains("was changed"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_page_holds_rulings_and_activations_in_journal_order_with_a_cursor() {
    let dir = written("page");
    let j = Journal::open(&dir).expect("open");
    let reader = j.reader();
    let all = audit::Filter::default();
    let first = reader.page(&all, 0, 2).expect("page");
    assert_eq!(first.rulings.len(), 2);
    let next = first.next.expect("more");
    let rest = reader.page(&all, next, 2).expect("page");
    assert_eq!(rest.rulings.len(), 1);
    assert_eq!(rest.next, None);
    assert!(rest.rulings[0].seq > first.rulings[1].seq);
    let _ = std::fs::remove_dir_all(&dir);
}
