//! The PostgreSQL back end: one journal that several daemons share, on a database built for
//! it (its own durability, replication and standbys), not on a home-made replication.
//!
//! The same entries as SQLite's in the same hash chain. Daemons take turns on the chain: each
//! transaction locks the head row (`head`), appends after it and moves it, so the chain is
//! one sequence whatever daemon wrote an entry. Group commit works as on SQLite: a daemon's
//! writer puts the commands waiting into one transaction, each kind of row in one statement.
//!
//! Checks at open, besides the header, the key and the chain (as for SQLite): the head row
//! must be the chain's last entry, and the last entry this daemon's data directory
//! acknowledged (its head record) must be there, unchanged — a database restored from an
//! older copy is refused. SQLite's integrity check has no counterpart to run here: the
//! server's own (data checksums, `amcheck`) are the operator's.
//!
//! Ownership ([`fleet`]): each daemon holds a lease (a row with an expiry the daemon renews)
//! and owns tables (a row each naming its daemon). Every transaction is fenced: it commits
//! only if the daemon's lease is alive, holding it (`FOR KEY SHARE`) so that no takeover can
//! pass it, and only for tables the daemon owns. A daemon whose lease expired cannot commit.

pub mod fleet;
pub mod schema;
pub mod source;
pub mod worker;

use super::backend::{Backend, DbError, Row, Source};
use super::head::Head;
use super::seal::Seal;
use super::{JournalError, Opened};
pub use fleet::{Fleet, LeaseSpec};
use postgres::{Client, Config, SimpleQueryMessage, Statement};
use source::PgSource;
use std::path::Path;
use std::sync::Arc;

/// A URL as messages show it: the password replaced by `***`.
pub fn redact(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else {
        return url.to_string();
    };
    let (auth, host) = match rest.rsplit_once('@') {
        Some(parts) => parts,
        None => return url.to_string(),
    };
    match auth.split_once(':') {
        Some((user, _)) => format!("{scheme}://{user}:***@{host}"),
        None => url.to_string(),
    }
}

fn config(url: &str) -> Result<Config, JournalError> {
    url.parse::<Config>().map_err(|e| JournalError::Sql {
        file: redact(url),
        source: e.into(),
    })
}

/// The writer's connection and its prepared statements.
pub struct PgBackend {
    client: Client,
    config: Config,
    name: String,
    fleet: Arc<Fleet>,
    statements: Option<Statements>,
}

/// The statements every batch runs, prepared once per connection.
struct Statements {
    commands: Statement,
    rulings: Statement,
    owned: Statement,
}

impl Statements {
    fn prepare(c: &mut Client) -> Result<Statements, postgres::Error> {
        Ok(Statements {
            commands: c.prepare(
                "INSERT INTO commands(seq, at_ms, table_id, body, sealed_seed, chain)
                 SELECT * FROM unnest($1::int8[], $2::int8[], $3::text[], $4::text[],
                                      $5::int8[], $6::text[])",
            )?,
            rulings: c.prepare(
                "INSERT INTO rulings(seq, command_seq, table_id, hand, point, ruleset_id,
                    ruleset_version, citation, text, chain)
                 SELECT * FROM unnest($1::int8[], $2::int8[], $3::text[], $4::int8[],
                     $5::text[], $6::text[], $7::text[], $8::text[], $9::text[], $10::text[])",
            )?,
            // A table met for the first time (just created: ids are never reused) becomes
            // this daemon's; the count is of the batch's tables this daemon owns.
            owned: c.prepare(
                "WITH new AS (
                    INSERT INTO owners(id, daemon) SELECT t, $2 FROM unnest($1::text[]) t
                    ON CONFLICT (id) DO NOTHING RETURNING id)
                 SELECT (SELECT count(*) FROM new)
                      + (SELECT count(*) FROM owners WHERE id = ANY($1) AND daemon = $2)",
            )?,
        })
    }
}

impl PgBackend {
    fn statements(&mut self) -> Result<&Statements, DbError> {
        if self.client.is_closed() {
            self.client = worker::connect(&self.config)?;
            self.statements = None;
        }
        if self.statements.is_none() {
            self.statements = Some(Statements::prepare(&mut self.client)?);
        }
        self.statements
            .as_ref()
            .ok_or_else(|| DbError::Shape("no statements".into()))
    }
}

/// The rows of a simple query's answer.
fn rows(messages: &[SimpleQueryMessage]) -> Vec<&postgres::SimpleQueryRow> {
    messages
        .iter()
        .filter_map(|m| match m {
            SimpleQueryMessage::Row(r) => Some(r),
            _ => None,
        })
        .collect()
}

impl Backend for PgBackend {
    fn name(&self) -> &str {
        &self.name
    }

    fn begin(&mut self) -> Result<Head, DbError> {
        self.statements()?;
        let me = self.fleet.id();
        // One round trip: the transaction, the chain's head locked, this daemon's lease held
        // alive for the transaction (a takeover waits for it, then finds what it wrote).
        let answer = self.client.simple_query(&format!(
            "BEGIN; SELECT seq, chain FROM head FOR UPDATE;
             SELECT id FROM daemons WHERE id = '{me}' AND expires_at > clock_timestamp() FOR KEY SHARE;"
        ))?;
        let mut results = answer.split(|m| matches!(m, SimpleQueryMessage::CommandComplete(_)));
        let _begin = results.next();
        let head = rows(results.next().unwrap_or_default());
        let lease = rows(results.next().unwrap_or_default());
        let head = match head.as_slice() {
            [row] => {
                let seq: i64 = row
                    .get(0)
                    .and_then(|s| s.parse().ok())
                    .ok_or_else(|| DbError::Shape("the head row has no sequence number".into()))?;
                let chain: [u8; 32] = row
                    .get(1)
                    .and_then(|h| hex::decode(h).ok())
                    .and_then(|b| b.try_into().ok())
                    .ok_or_else(|| DbError::Shape("the head row has no chain hash".into()))?;
                Head { seq, chain }
            }
            _ => return Err(DbError::Shape("the journal has no head row".into())),
        };
        if lease.is_empty() {
            self.fleet.expired();
            return Err(DbError::Fenced(format!(
                "this daemon's lease ({me}) has expired: another daemon may own its tables now; nothing was written"
            )));
        }
        Ok(head)
    }

    fn insert(&mut self, rows: &[Row<'_>]) -> Result<(), DbError> {
        let mut commands = CommandColumns::default();
        let mut rulings = RulingColumns::default();
        for row in rows {
            match row {
                Row::Command { .. } => commands.push(row),
                Row::Ruling { .. } => rulings.push(row),
                other => insert_single(&mut self.client, other)?,
            }
        }
        if !commands.seq.is_empty() {
            let s = self.statements()?.commands.clone();
            let c = &commands;
            self.client.execute(
                &s,
                &[&c.seq, &c.at_ms, &c.table, &c.body, &c.sealed, &c.chain],
            )?;
        }
        if !rulings.seq.is_empty() {
            let s = self.statements()?.rulings.clone();
            let r = &rulings;
            self.client.execute(
                &s,
                &[
                    &r.seq,
                    &r.command_seq,
                    &r.table,
                    &r.hand,
                    &r.point,
                    &r.ruleset,
                    &r.version,
                    &r.citation,
                    &r.text,
                    &r.chain,
                ],
            )?;
        }
        Ok(())
    }

    fn has_version(&mut self, hash: &str) -> Result<bool, DbError> {
        Ok(self
            .client
            .query_opt("SELECT 1 FROM versions WHERE hash = $1", &[&hash])?
            .is_some())
    }

    fn fence(&mut self, tables: &[&str]) -> Result<(), DbError> {
        if tables.is_empty() {
            return Ok(());
        }
        let s = self.statements()?.owned.clone();
        let me = self.fleet.id().to_string();
        let owned: i64 = self.client.query_one(&s, &[&tables, &me])?.try_get(0)?;
        if usize::try_from(owned).ok() == Some(tables.len()) {
            return Ok(());
        }
        let others = self.client.query(
            "SELECT o.id, coalesce(d.url, 'no daemon') FROM owners o
             LEFT JOIN daemons d ON d.id = o.daemon
             WHERE o.id = ANY($1) AND o.daemon IS DISTINCT FROM $2",
            &[&tables, &me],
        )?;
        let named: Vec<String> = others
            .iter()
            .filter_map(|r| {
                let id: String = r.try_get(0).ok()?;
                let url: String = r.try_get(1).ok()?;
                Some(format!("{id} (now at {url})"))
            })
            .collect();
        Err(DbError::Fenced(format!(
            "this daemon no longer owns {}: nothing was written",
            named.join(", ")
        )))
    }

    fn commit(&mut self, head: Head) -> Result<(), DbError> {
        // Literal values: an integer and 64 hex digits.
        self.client.simple_query(&format!(
            "UPDATE head SET seq = {}, chain = '{}'; COMMIT;",
            head.seq,
            hex::encode(head.chain)
        ))?;
        Ok(())
    }

    fn rollback(&mut self) {
        let _ = self.client.simple_query("ROLLBACK");
    }

    fn last_lifecycle(&mut self) -> Result<Option<String>, DbError> {
        // Several daemons start and stop on one journal: whether a table's hand was cut
        // short is known from its owner's lease (see `fleet`), not from the last stop.
        Ok(None)
    }

    fn close(mut self: Box<Self>) -> Result<(), DbError> {
        // A clean stop hands this daemon's tables back, their hands as they are, for the next
        // daemon to take without voiding anything; then the lease goes.
        let me = self.fleet.id().to_string();
        let mut tx = self.client.transaction()?;
        tx.execute(
            "UPDATE owners SET daemon = NULL, crashed = false WHERE daemon = $1",
            &[&me],
        )?;
        tx.execute("DELETE FROM daemons WHERE id = $1", &[&me])?;
        tx.commit()?;
        Ok(())
    }
}

/// Opens the PostgreSQL journal at `url` for writing: creates its tables (and the key in
/// `data`) on an empty database, takes this daemon's lease (`lease`), and returns what the
/// checks need. The head row must be the chain's end (checked here: the chain is walked by
/// the caller, and its end compared).
pub fn open(
    data: &Path,
    url: &str,
    recorded: Option<&(String, Head)>,
    lease: Option<&LeaseSpec>,
) -> Result<Opened, JournalError> {
    let name = redact(url);
    let config = config(url)?;
    let sql = |e: DbError| JournalError::Sql {
        file: name.clone(),
        source: e,
    };
    let damaged = |what: String| JournalError::Damaged {
        file: name.clone(),
        data: data.display().to_string(),
        at: crate::journal::place::Place::File,
        what,
    };
    let lease = lease.ok_or_else(|| JournalError::Write {
        file: name.clone(),
        message: "a daemon writing to PostgreSQL needs its address for the lease".into(),
    })?;
    worker::off_runtime(|| {
        let mut client = worker::connect(&config).map_err(sql)?;
        let created = schema::create_if_missing(&mut client, || {
            if let Some((_, h)) = recorded {
                return Err(format!(
                    "it holds nothing, but {} records that entry {} was acknowledged: the database was emptied or replaced",
                    super::head::HEAD_FILE,
                    h.seq
                ));
            }
            Seal::load(data, true)
                .map_err(|e| e.to_string())?
                .map(|s| s.check())
                .ok_or_else(|| "no key".to_string())
        })
        .map_err(damaged)?;
        if created {
            tracing::info!(journal = %name, "new journal created");
        }
        let header = schema::header(&mut client).map_err(damaged)?;
        let fleet = Arc::new(Fleet::register(&config, lease, data).map_err(sql)?);
        let source = PgSource::start(&config, name.clone()).map_err(sql)?;
        let chain =
            Box::new(HeadChecked::new(worker::connect(&config).map_err(sql)?).map_err(sql)?);
        let writer = worker::connect(&config).map_err(sql)?;
        Ok(Opened {
            db: Box::new(PgBackend {
                client: writer,
                config: config.clone(),
                name: name.clone(),
                fleet: fleet.clone(),
                statements: None,
            }),
            source: Arc::new(source),
            header,
            chain,
            fleet: Some(fleet),
        })
    })
}

/// The chain as the checks read it, in one snapshot with the head row, which must be the
/// chain's end: a row changed, or entries added behind the writers' backs, are found so.
pub struct HeadChecked {
    client: Client,
    row: Option<Head>,
}

impl HeadChecked {
    /// Starts the snapshot on `client`.
    pub fn new(mut client: Client) -> Result<HeadChecked, DbError> {
        client.simple_query("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")?;
        let row = head_row(&mut client)?;
        Ok(HeadChecked {
            client,
            row: Some(row),
        })
    }
}

impl super::backend::ChainSource for HeadChecked {
    fn entries(
        &mut self,
        kind: super::chain::Kind,
        after: i64,
        limit: i64,
    ) -> Result<Vec<super::backend::ChainRow>, DbError> {
        self.client.entries(kind, after, limit)
    }

    fn texts(&mut self, after: &str, limit: i64) -> Result<Vec<(String, String)>, DbError> {
        self.client.texts(after, limit)
    }

    fn end(&mut self, head: Head) -> Result<(), String> {
        let _ = self.client.simple_query("COMMIT");
        match self.row.take() {
            Some(row) if row == head => Ok(()),
            Some(row) => Err(format!(
                "its head row records entry {}, but the hash chain ends at entry {}",
                row.seq, head.seq
            )),
            None => Ok(()),
        }
    }
}

/// The head row: the last entry committed, as the journal's writers recorded it.
pub fn head_row(c: &mut Client) -> Result<Head, DbError> {
    let row = c.query_one("SELECT seq, chain FROM head", &[])?;
    let seq: i64 = row.try_get(0)?;
    let chain: String = row.try_get(1)?;
    let chain: [u8; 32] = hex::decode(&chain)
        .ok()
        .and_then(|b| b.try_into().ok())
        .ok_or_else(|| DbError::Shape("the head row's chain hash is not 64 hex digits".into()))?;
    Ok(Head { seq, chain })
}

/// Reads of the journal at `url` (`floor audit`): its header must be a floor journal's.
pub fn open_source(
    data: &Path,
    url: &str,
) -> Result<(Arc<dyn Source>, super::schema::Header), JournalError> {
    let name = redact(url);
    let config = config(url)?;
    worker::off_runtime(|| {
        let mut client = worker::connect(&config).map_err(|e| JournalError::Sql {
            file: name.clone(),
            source: e,
        })?;
        let header = schema::header(&mut client).map_err(|what| JournalError::Damaged {
            file: name.clone(),
            data: data.display().to_string(),
            at: crate::journal::place::Place::File,
            what,
        })?;
        let source = PgSource::start(&config, name.clone()).map_err(|e| JournalError::Sql {
            file: name.clone(),
            source: e,
        })?;
        Ok((Arc::new(source) as Arc<dyn Source>, header))
    })
}

/// `floor audit --verify` on PostgreSQL: the header, the key in `data`, the chain from the
/// first entry to the last, the head row against the chain's end, and the head record of
/// `data`; nothing written.
pub fn verify(
    data: &Path,
    url: &str,
) -> Result<(super::Reader, super::backup::Whole), JournalError> {
    let name = redact(url);
    let config = config(url)?;
    let damaged = |what: String| JournalError::Damaged {
        file: name.clone(),
        data: data.display().to_string(),
        at: crate::journal::place::Place::File,
        what,
    };
    let recorded =
        super::head::read(data).map_err(|found| JournalError::damaged(&name, data, found))?;
    let (header, head) = worker::off_runtime(|| {
        let sql = |e| JournalError::Sql {
            file: name.clone(),
            source: e,
        };
        let mut client = worker::connect(&config).map_err(sql)?;
        let header = schema::header(&mut client).map_err(damaged)?;
        let mut chain = HeadChecked::new(client).map_err(sql)?;
        let (_, head) = super::check(&mut chain, &header, data, &name, recorded.as_ref())?;
        Ok::<_, JournalError>((header, head))
    })?;
    let (source, _) = open_source(data, url)?;
    let seal = Seal::load(data, false).ok().flatten();
    Ok((
        super::Reader::new(source, header.journal, seal),
        super::backup::Whole {
            head,
            acknowledged: recorded.map(|(_, h)| h.seq),
        },
    ))
}

/// The commands of one group commit as columns, so that they go to the server in one
/// statement (`unnest` over arrays) instead of one round trip each.
#[derive(Default)]
struct CommandColumns<'a> {
    seq: Vec<i64>,
    at_ms: Vec<i64>,
    table: Vec<&'a str>,
    body: Vec<&'a str>,
    sealed: Vec<Option<i64>>,
    chain: Vec<&'a str>,
}

impl<'a> CommandColumns<'a> {
    fn push(&mut self, row: &'a Row<'a>) {
        if let Row::Command {
            seq,
            at_ms,
            table,
            body,
            sealed,
            chain,
        } = row
        {
            self.seq.push(*seq);
            self.at_ms.push(*at_ms);
            self.table.push(table);
            self.body.push(body);
            self.sealed.push(*sealed);
            self.chain.push(chain.as_str());
        }
    }
}

/// The rulings of one group commit as columns, for the same reason as [`CommandColumns`].
#[derive(Default)]
struct RulingColumns<'a> {
    seq: Vec<i64>,
    command_seq: Vec<i64>,
    table: Vec<&'a str>,
    hand: Vec<i64>,
    point: Vec<&'a str>,
    ruleset: Vec<&'a str>,
    version: Vec<&'a str>,
    citation: Vec<&'a str>,
    text: Vec<&'a str>,
    chain: Vec<&'a str>,
}

impl<'a> RulingColumns<'a> {
    fn push(&mut self, row: &'a Row<'a>) {
        if let Row::Ruling {
            seq,
            command_seq,
            hand,
            ruling: r,
            chain,
        } = row
        {
            self.seq.push(*seq);
            self.command_seq.push(*command_seq);
            self.table.push(r.table.as_str());
            self.hand.push(*hand);
            self.point.push(r.point.as_str());
            self.ruleset.push(r.ruleset.as_str());
            self.version.push(r.version.as_str());
            self.citation.push(r.citation.as_str());
            self.text.push(r.text.as_str());
            self.chain.push(chain.as_str());
        }
    }
}

/// Writes one of the rare rows (activations, versions, texts, lifecycle) on its own: they
/// come a few per reload, so batching them would buy nothing.
fn insert_single(client: &mut Client, row: &Row<'_>) -> Result<(), DbError> {
    match row {
        Row::Activation {
            seq,
            at_ms,
            ruleset,
            version,
            hash,
            chain,
        } => {
            client.execute(
                "INSERT INTO activations(seq, at_ms, ruleset_id, version, hash, chain)
                 VALUES ($1, $2, $3, $4, $5, $6)",
                &[seq, at_ms, ruleset, version, hash, chain],
            )?;
        }
        Row::Version {
            seq,
            hash,
            ruleset,
            toc,
            chain,
        } => {
            client.execute(
                "INSERT INTO versions(seq, hash, ruleset_id, toc, chain)
                 VALUES ($1, $2, $3, $4, $5)",
                &[seq, hash, ruleset, toc, chain],
            )?;
        }
        Row::Text { hash, text } => {
            client.execute(
                "INSERT INTO texts(hash, text) VALUES ($1, $2) ON CONFLICT (hash) DO NOTHING",
                &[hash, text],
            )?;
        }
        Row::Lifecycle {
            seq,
            at_ms,
            what,
            chain,
        } => {
            client.execute(
                "INSERT INTO lifecycle(seq, at_ms, what, chain) VALUES ($1, $2, $3, $4)",
                &[seq, at_ms, what, chain],
            )?;
        }
        Row::Command { .. } | Row::Ruling { .. } => {}
    }
    Ok(())
}
