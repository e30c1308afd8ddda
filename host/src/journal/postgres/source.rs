//! Reads of a PostgreSQL journal, on connections of their own ([`Worker`]s), never the
//! writer's: paging through rulings, rebuilding a version, replaying a table's commands.

use super::super::audit::Filter;
use super::super::backend::{ChainRow, ChainSource, DbError, RawCommand, Source, Value};
use super::super::chain::Kind;
use super::super::{Activation, RulingRecord};
use super::worker::Worker;
use postgres::types::Type;
use postgres::Client;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Connections kept for reads.
const READERS: usize = 2;

/// Reads of one PostgreSQL journal.
pub struct PgSource {
    name: String,
    workers: Vec<Worker>,
    next: AtomicUsize,
}

impl PgSource {
    /// [`READERS`] connections with `config`.
    pub fn start(config: &postgres::Config, name: String) -> Result<PgSource, DbError> {
        let workers = (0..READERS)
            .map(|i| Worker::start(config.clone(), &format!("journal-read-{i}")))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(PgSource {
            name,
            workers,
            next: AtomicUsize::new(0),
        })
    }

    fn call<T: Send + 'static>(
        &self,
        f: impl FnOnce(&mut Client) -> Result<T, DbError> + Send + 'static,
    ) -> Result<T, DbError> {
        let i = self.next.fetch_add(1, Ordering::Relaxed) % self.workers.len();
        self.workers[i].call(f)
    }
}

fn raw(r: &postgres::Row) -> Result<RawCommand, postgres::Error> {
    Ok(RawCommand {
        seq: r.try_get(0)?,
        table: r.try_get(1)?,
        body: r.try_get(2)?,
        sealed: r.try_get(3)?,
        at_ms: r.try_get(4)?,
    })
}

impl Source for PgSource {
    fn name(&self) -> &str {
        &self.name
    }

    fn commands(&self, tables: Option<&[String]>) -> Result<Vec<RawCommand>, DbError> {
        let tables: Option<Vec<String>> = tables.map(<[String]>::to_vec);
        self.call(move |c| {
            let rows = match &tables {
                None => c.query(
                    "SELECT seq, table_id, body, sealed_seed, at_ms FROM commands ORDER BY seq",
                    &[],
                )?,
                Some(t) => c.query(
                    "SELECT seq, table_id, body, sealed_seed, at_ms FROM commands
                     WHERE table_id = ANY($1) ORDER BY seq",
                    &[t],
                )?,
            };
            Ok(rows.iter().map(raw).collect::<Result<Vec<_>, _>>()?)
        })
    }

    fn version(&self, hash: &str) -> Result<Option<(String, String)>, DbError> {
        let hash = hash.to_string();
        self.call(move |c| {
            let row = c.query_opt(
                "SELECT ruleset_id, toc FROM versions WHERE hash = $1",
                &[&hash],
            )?;
            Ok(match row {
                Some(r) => Some((r.try_get(0)?, r.try_get(1)?)),
                None => None,
            })
        })
    }

    fn text(&self, hash: &str) -> Result<Option<String>, DbError> {
        let hash = hash.to_string();
        self.call(move |c| {
            let row = c.query_opt("SELECT text FROM texts WHERE hash = $1", &[&hash])?;
            Ok(match row {
                Some(r) => Some(r.try_get(0)?),
                None => None,
            })
        })
    }

    fn activations(&self, after: i64, limit: i64) -> Result<Vec<Activation>, DbError> {
        self.call(move |c| {
            let rows = c.query(
                "SELECT seq, at_ms, ruleset_id, version, hash FROM activations
                 WHERE seq > $1 ORDER BY seq LIMIT $2",
                &[&after, &limit],
            )?;
            let all = rows.iter().map(|r| {
                Ok(Activation {
                    seq: r.try_get(0)?,
                    at_ms: r.try_get(1)?,
                    ruleset: r.try_get(2)?,
                    version: r.try_get(3)?,
                    hash: r.try_get(4)?,
                })
            });
            all.collect::<Result<Vec<_>, postgres::Error>>()
                .map_err(DbError::from)
        })
    }

    fn rulings(
        &self,
        filter: &Filter,
        after: i64,
        limit: i64,
    ) -> Result<Vec<RulingRecord>, DbError> {
        let filter = filter.clone();
        self.call(move |c| {
            let hand = filter.hand.map(|h| i64::try_from(h).unwrap_or(i64::MAX));
            let stmt = c.prepare_typed(
                "SELECT seq, table_id, hand, point, ruleset_id, ruleset_version, citation, text
                 FROM rulings
                 WHERE seq > $1 AND ($2::text IS NULL OR table_id = $2)
                   AND ($3::int8 IS NULL OR hand = $3) AND ($4::text IS NULL OR point = $4)
                 ORDER BY seq LIMIT $5",
                &[Type::INT8, Type::TEXT, Type::INT8, Type::TEXT, Type::INT8],
            )?;
            let rows = c.query(
                &stmt,
                &[&after, &filter.table, &hand, &filter.rule_point, &limit],
            )?;
            let all = rows.iter().map(|r| {
                Ok(RulingRecord {
                    seq: r.try_get(0)?,
                    table: r.try_get(1)?,
                    hand: u64::try_from(r.try_get::<_, i64>(2)?).unwrap_or(0),
                    point: r.try_get(3)?,
                    ruleset: r.try_get(4)?,
                    version: r.try_get(5)?,
                    citation: r.try_get(6)?,
                    text: r.try_get(7)?,
                })
            });
            all.collect::<Result<Vec<_>, postgres::Error>>()
                .map_err(DbError::from)
        })
    }
}

impl ChainSource for Client {
    fn entries(&mut self, kind: Kind, after: i64, limit: i64) -> Result<Vec<ChainRow>, DbError> {
        let (table, columns) = kind.table();
        let rows = self.query(
            &format!("SELECT {columns} FROM {table} WHERE seq > $1 ORDER BY seq LIMIT $2"),
            &[&after, &limit],
        )?;
        let mut out = Vec::with_capacity(rows.len());
        for row in &rows {
            let count = row.len();
            let seq: i64 = row.try_get(0)?;
            let chain: String = row.try_get(count - 1)?;
            let mut fields = Vec::with_capacity(count - 2);
            for (i, column) in row.columns().iter().enumerate().take(count - 1).skip(1) {
                // The columns' types are the schema's: integers and texts, as SQLite's.
                fields.push(if *column.type_() == Type::INT8 {
                    row.try_get::<_, Option<i64>>(i)?
                        .map_or(Value::Null, Value::Int)
                } else {
                    row.try_get::<_, Option<String>>(i)?
                        .map_or(Value::Null, |t| Value::Bytes(t.into_bytes()))
                });
            }
            out.push(ChainRow { seq, fields, chain });
        }
        Ok(out)
    }

    fn texts(&mut self, after: &str, limit: i64) -> Result<Vec<(String, String)>, DbError> {
        let rows = self.query(
            "SELECT hash, text FROM texts WHERE hash COLLATE \"C\" > $1 ORDER BY hash COLLATE \"C\" LIMIT $2",
            &[&after, &limit],
        )?;
        rows.iter()
            .map(|r| Ok((r.try_get(0)?, r.try_get(1)?)))
            .collect()
    }
}
