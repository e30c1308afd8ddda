//! The journal's tables on PostgreSQL: schema version 1, the same entries as SQLite's (the
//! same columns hashed into the same chain), and what several daemons need besides: the
//! chain's head as a row each transaction locks, the daemons' leases, the tables' owners, and
//! one sequence for new table and tournament ids.

use postgres::Client;

/// The tables, created once (under an advisory lock: daemons started together create them
/// once).
const TABLES: &str = "
CREATE TABLE header(
    format TEXT NOT NULL, schema INTEGER NOT NULL, journal_id TEXT NOT NULL,
    created_ms BIGINT NOT NULL, key_check TEXT NOT NULL);
CREATE TABLE head(
    one BOOLEAN PRIMARY KEY DEFAULT true CHECK (one), seq BIGINT NOT NULL, chain TEXT NOT NULL);
CREATE TABLE commands(
    seq BIGINT PRIMARY KEY, at_ms BIGINT NOT NULL, table_id TEXT NOT NULL,
    body TEXT NOT NULL, sealed_seed BIGINT, chain TEXT NOT NULL);
CREATE INDEX commands_table ON commands(table_id, seq);
CREATE TABLE rulings(
    seq BIGINT PRIMARY KEY, command_seq BIGINT NOT NULL, table_id TEXT NOT NULL,
    hand BIGINT NOT NULL, point TEXT NOT NULL, ruleset_id TEXT NOT NULL,
    ruleset_version TEXT NOT NULL, citation TEXT NOT NULL, text TEXT NOT NULL,
    chain TEXT NOT NULL);
CREATE INDEX rulings_table ON rulings(table_id, hand);
CREATE TABLE activations(
    seq BIGINT PRIMARY KEY, at_ms BIGINT NOT NULL, ruleset_id TEXT NOT NULL,
    version TEXT NOT NULL, hash TEXT NOT NULL, chain TEXT NOT NULL);
CREATE TABLE versions(
    seq BIGINT PRIMARY KEY, hash TEXT NOT NULL UNIQUE, ruleset_id TEXT NOT NULL,
    toc TEXT NOT NULL, chain TEXT NOT NULL);
CREATE TABLE texts(hash TEXT PRIMARY KEY, text TEXT NOT NULL);
CREATE TABLE lifecycle(
    seq BIGINT PRIMARY KEY, at_ms BIGINT NOT NULL, what TEXT NOT NULL, chain TEXT NOT NULL);
CREATE TABLE daemons(
    id TEXT PRIMARY KEY, url TEXT NOT NULL, started_ms BIGINT NOT NULL,
    expires_at TIMESTAMPTZ NOT NULL, rulesets TEXT NOT NULL DEFAULT '[]');
CREATE TABLE owners(
    id TEXT PRIMARY KEY, daemon TEXT, crashed BOOLEAN NOT NULL DEFAULT false);
CREATE INDEX owners_daemon ON owners(daemon);
CREATE SEQUENCE ids;
";

/// The advisory lock taken while the tables are created ("FLOR").
const CREATE_LOCK: i64 = 0x464c_4f52;

/// Creates the tables, the header and the head row when the database has none (and the
/// caller's key, through `key_check`, becomes the journal's); returns whether it did.
pub fn create_if_missing(
    c: &mut Client,
    key_check: impl FnOnce() -> Result<String, String>,
) -> Result<bool, String> {
    let sql = |e: postgres::Error| super::super::backend::DbError::from(e).to_string();
    c.execute("SELECT pg_advisory_lock($1)", &[&CREATE_LOCK])
        .map_err(sql)?;
    let done = (|| {
        let exists: Option<String> = c
            .query_one("SELECT to_regclass('header')::text", &[])
            .and_then(|r| r.try_get(0))
            .map_err(sql)?;
        if exists.is_some() {
            return Ok(false);
        }
        let key_check = key_check()?;
        let journal = hex::encode(rand::random::<[u8; 16]>());
        let genesis = hex::encode(crate::journal::chain::genesis(&journal));
        let mut tx = c.transaction().map_err(sql)?;
        tx.batch_execute(TABLES).map_err(sql)?;
        tx.execute(
            "INSERT INTO header(format, schema, journal_id, created_ms, key_check)
             VALUES ($1, $2, $3, $4, $5)",
            &[
                &crate::journal::schema::FORMAT,
                &(crate::journal::schema::SCHEMA_VERSION as i32),
                &journal,
                &crate::journal::now_ms(),
                &key_check,
            ],
        )
        .map_err(sql)?;
        tx.execute("INSERT INTO head(seq, chain) VALUES (0, $1)", &[&genesis])
            .map_err(sql)?;
        tx.commit().map_err(sql)?;
        Ok(true)
    })();
    let _ = c.execute("SELECT pg_advisory_unlock($1)", &[&CREATE_LOCK]);
    done
}

/// The header of a journal of this schema; `Err` says why the database is not one.
pub fn header(c: &mut Client) -> Result<crate::journal::schema::Header, String> {
    use crate::journal::schema::{Header, FORMAT, SCHEMA_VERSION};
    let sql = |e: postgres::Error| super::super::backend::DbError::from(e).to_string();
    let exists: Option<String> = c
        .query_one("SELECT to_regclass('header')::text", &[])
        .and_then(|r| r.try_get(0))
        .map_err(sql)?;
    if exists.is_none() {
        return Err(format!(
            "it is not a floor journal of schema version {SCHEMA_VERSION} (no header table)"
        ));
    }
    let rows = c
        .query(
            "SELECT format, schema, journal_id, key_check FROM header",
            &[],
        )
        .map_err(sql)?;
    let [row] = rows.as_slice() else {
        return Err("its header is missing or is not a floor journal's".into());
    };
    let (format, schema, journal, key_check): (String, i32, String, String) = (
        row.try_get(0).map_err(sql)?,
        row.try_get(1).map_err(sql)?,
        row.try_get(2).map_err(sql)?,
        row.try_get(3).map_err(sql)?,
    );
    let schema = i64::from(schema);
    if schema > SCHEMA_VERSION {
        return Err(format!(
            "its schema is version {schema}, newer than this floor's {SCHEMA_VERSION}: use a newer floor"
        ));
    }
    if format != FORMAT || schema != SCHEMA_VERSION {
        return Err("its header is missing or is not a floor journal's".into());
    }
    Ok(Header { journal, key_check })
}
