//! The journal's schema across floor versions: a journal written by the
//! previous schema — every activated version's files kept whole in `contents` — opens in the
//! daemon, is migrated to the table-of-contents layout, and replays: a table's hands keep the
//! ruleset version they were dealt under, rebuilt from the migrated copy.

mod support;

use rusqlite::Connection;
use support::{audit, Daemon, Scratch};

/// Turns a journal of the current schema back into the previous one, as the previous floor
/// wrote it: `contents(hash, ruleset_id, body)` with each version's files as JSON, no
/// `versions` or `texts`, `user_version` 0.
const TO_PREVIOUS_SCHEMA: &str = "
CREATE TABLE contents(hash TEXT PRIMARY KEY, ruleset_id TEXT NOT NULL, body TEXT NOT NULL);
INSERT INTO contents(hash, ruleset_id, body)
  SELECT v.hash, v.ruleset_id, json_object('files', json((
    SELECT json_group_array(json_object(
             'ruleset', json_extract(e.value, '$.ruleset'),
             'name', json_extract(e.value, '$.name'),
             'path', json_extract(e.value, '$.path'),
             'text', t.text) ORDER BY e.key)
    FROM json_each(v.toc) AS e JOIN texts AS t ON t.hash = json_extract(e.value, '$.text'))))
  FROM versions AS v;
DROP TABLE versions;
DROP TABLE texts;
PRAGMA user_version = 0;
";

fn set_version(rulesets: &std::path::Path, id: &str, version: &str) {
    let path = rulesets.join(id).join("ruleset.ron");
    let text = std::fs::read_to_string(&path).expect("read ruleset");
    let start = text.find("version: \"").expect("version field") + "version: \"".len();
    let end = start + text[start..].find('"').expect("closing quote");
    let edited = format!("{}{version}{}", &text[..start], &text[end..]);
    std::fs::write(&path, edited).expect("write ruleset");
}

#[test]
fn a_journal_of_the_previous_schema_is_migrated_and_replays_its_hands_under_their_versions() {
    let scratch = Scratch::new("journal-v0");
    let rulesets = scratch.rulesets();
    let data = scratch.data();
    let d = Daemon::start(&rulesets, &data);
    let (t, _) = d.table("pt-online", 3, 100);
    d.post(&format!("/api/tables/{t}/hands"), "");
    let first = d.view(&t)["hand"]["to_act"].as_u64().expect("to act");
    d.post(
        &format!("/api/tables/{t}/actions"),
        &format!(r#"{{"seat": {first}, "action": {{"raise_to": 10}}}}"#),
    );
    d.play_out(&t);
    let played = d.view(&t);
    let old = d.ruleset("pt-online");
    assert_eq!(played["hand"]["hash"], old["hash"]);
    assert!(d.terminate(), "clean stop");
    let before = audit(&data, &[]);

    let journal = data.join("journal.sqlite");
    let c = Connection::open(&journal).expect("journal");
    c.execute_batch(TO_PREVIOUS_SCHEMA)
        .expect("previous schema");
    let whole: i64 = c
        .query_row("SELECT count(*) FROM contents", [], |r| r.get(0))
        .expect("contents");
    assert!(whole >= 6, "every bundled ruleset's version kept whole");
    drop(c);
    // `floor audit` reads the previous schema as it did.
    assert_eq!(audit(&data, &[]), before);

    // The version on disk changes: the table's hand 1 can only come back from the journal.
    set_version(&rulesets, "pt-online", "9.9.9-house");
    let d = Daemon::start(&rulesets, &data);
    assert_eq!(d.ruleset("pt-online")["version"], "9.9.9-house");
    let replayed = d.view(&t);
    assert_eq!(replayed["hand"]["number"], 1);
    assert_eq!(replayed["hand"]["hash"], old["hash"], "{replayed}");
    assert_eq!(replayed["hand"]["version"], old["version"]);
    assert_eq!(replayed["seats"], played["seats"]);
    assert_eq!(d.chips(&t), 300);
    // Play goes on, under the version live now.
    d.post(&format!("/api/tables/{t}/hands"), "");
    assert_eq!(d.view(&t)["hand"]["version"], "9.9.9-house");
    assert!(d.terminate(), "clean stop");

    let c = Connection::open(&journal).expect("journal");
    let version: i64 = c
        .query_row("PRAGMA user_version", [], |r| r.get(0))
        .expect("user_version");
    assert_eq!(version, 2);
    let old_table: i64 = c
        .query_row(
            "SELECT count(*) FROM sqlite_master WHERE name = 'contents'",
            [],
            |r| r.get(0),
        )
        .expect("schema");
    assert_eq!(old_table, 0);
    let kept: i64 = c
        .query_row(
            "SELECT count(*) FROM versions WHERE hash = ?1",
            [old["hash"].as_str().expect("hash")],
            |r| r.get(0),
        )
        .expect("versions");
    assert_eq!(kept, 1);
}
