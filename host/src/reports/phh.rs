//! `floor audit --phh PATH`: every hand the daemon played, cash tables and tournament tables,
//! as PHH hand histories (<https://github.com/uoftcprg/phh-std>) that `floor replay`,
//! PokerKit and other PHH tools read.
//!
//! Each hand is one record: the engine's own export of the hand ([`to_phh`]: variant, antes,
//! blinds, minimum bet, starting stacks, every deal, action and showdown), the finishing
//! stacks and winnings after the commission the table took, and the fields PHH defines for
//! where and when it was played (`table`, `hand`, `seats`, `seat_count`, `players`, `event`,
//! the journal's date and time in UTC). floor's own facts go under PHH's user-defined keys,
//! which begin with `_`: the ruleset, its version and content hash, the commission, the
//! redeals after a misdeal, the journal entries, and every ruling with its article.
//!
//! A void hand (a misdeal not redealt, a failure of the gaming system, a cancelled
//! tournament) is left out and counted: every bet of it was returned and no pot awarded, which
//! a PHH record cannot say — a PHH tool would play it to an outcome that never happened. Its
//! rulings stay in the journal (`floor audit --hand N`).

use super::{when, HandRecord, Hands};
use crate::journal::Location;
use crate::serve::App;
use floor_engine::phh::{write_phhs, PhhHand, Value};
use floor_engine::replay::{phh_order, to_phh};
use floor_engine::Chips;
use serde::Serialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// What an export wrote.
#[derive(Debug, Default, Serialize)]
pub struct Exported {
    /// Hands written, by table.
    pub hands: BTreeMap<String, usize>,
    /// Void hands left out (every bet returned), by table.
    pub void: BTreeMap<String, usize>,
    /// Hands PHH cannot describe, left out with why (table, hand, reason).
    pub refused: Vec<(String, u64, String)>,
    /// The files written.
    pub files: Vec<PathBuf>,
    /// Commands replayed.
    pub commands: usize,
}

/// Why an export failed.
#[derive(Debug, thiserror::Error)]
pub enum ExportError {
    /// The journal cannot be read or replayed.
    #[error(transparent)]
    Journal(#[from] crate::journal::JournalError),
    /// An output file or directory cannot be written.
    #[error("{path}: {source}")]
    Write {
        /// The file or directory.
        path: String,
        /// The system's error.
        source: std::io::Error,
    },
}

/// Exports every hand of the journal at `location` to `out`: one `.phhs` file when `out`
/// ends in `.phhs`, otherwise a directory (made if missing) holding one `TABLE.phhs` per
/// table.
pub fn export(data: &Path, location: &Location, out: &Path) -> Result<Exported, ExportError> {
    let mut by_table: BTreeMap<String, Vec<PhhHand>> = BTreeMap::new();
    let mut exported = Exported::default();
    let mut hands = Hands::default();
    exported.commands = App::watch(data, location, &mut |_, replayed| {
        for h in hands.see(&replayed) {
            let table = h.played.table.clone();
            if h.played.void {
                *exported.void.entry(table).or_default() += 1;
                continue;
            }
            match record(&h) {
                Ok(r) => {
                    *exported.hands.entry(table.clone()).or_default() += 1;
                    by_table.entry(table).or_default().push(r);
                }
                Err(why) => exported.refused.push((table, h.played.number, why)),
            }
        }
    })?;
    let write = |path: &Path, text: String| {
        std::fs::write(path, text).map_err(|source| ExportError::Write {
            path: path.display().to_string(),
            source,
        })
    };
    if out.extension().is_some_and(|e| e == "phhs") {
        let all: Vec<PhhHand> = by_table.into_values().flatten().collect();
        write(out, write_phhs(&all))?;
        exported.files.push(out.to_path_buf());
    } else {
        std::fs::create_dir_all(out).map_err(|source| ExportError::Write {
            path: out.display().to_string(),
            source,
        })?;
        for (table, records) in by_table {
            let path = out.join(format!("{}.phhs", file_name(&table)));
            write(&path, write_phhs(&records))?;
            exported.files.push(path);
        }
    }
    Ok(exported)
}

/// A table id as a file name: the daemon's ids (`t1`, `tour1.3`) are kept; anything else
/// a file name cannot hold becomes `_`.
fn file_name(table: &str) -> String {
    table
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '.' || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// The PHH record of a hand played to its end, or why PHH cannot hold it.
pub fn record(h: &HandRecord) -> Result<PhhHand, String> {
    let p = &h.played;
    let mut phh = to_phh(&p.hand).map_err(|e| e.to_string())?;
    // Per-position facts in PHH's order (the button last), as the record's.
    let order = phh_order(&p.hand);
    let ordered = |values: &[Chips]| -> Vec<Chips> {
        order
            .iter()
            .map(|&i| values.get(i).copied().unwrap_or(0))
            .collect()
    };
    let signed = |values: Vec<Chips>| -> Result<Vec<i64>, String> {
        values
            .into_iter()
            .map(|c| i64::try_from(c).map_err(|_| format!("{c} chips do not fit a PHH record")))
            .collect()
    };
    phh.finishing_stacks = p
        .finishing_stacks()
        .map(|s| signed(ordered(&s)))
        .transpose()?;
    phh.winnings = Some(signed(ordered(&p.winnings()))?);
    let (year, month, day, hh, mm, ss) = when::split(h.dealt_ms);
    let text = |s: &str| Value::String(s.to_string());
    let int = |n: i64| Value::Integer(n);
    let count = |n: u64| Value::Integer(i64::try_from(n).unwrap_or(i64::MAX));
    let mut fields: Vec<(&str, Value)> = Vec::new();
    if let Some(t) = &h.tournament {
        fields.push(("event", text(t)));
    }
    fields.extend([
        ("time", Value::DateTime(format!("{hh:02}:{mm:02}:{ss:02}"))),
        ("time_zone", text("UTC")),
        ("day", int(i64::from(day))),
        ("month", int(i64::from(month))),
        ("year", int(year)),
        ("hand", count(p.number)),
        (
            "seats",
            Value::Array(
                order
                    .iter()
                    .map(|&i| count(p.seats.get(i).copied().unwrap_or(0) as u64))
                    .collect(),
            ),
        ),
        ("seat_count", count(p.seat_count as u64)),
        ("table", text(&p.table)),
        (
            "players",
            Value::Array(
                order
                    .iter()
                    .map(|&i| text(p.players.get(i).map_or("", String::as_str)))
                    .collect(),
            ),
        ),
        ("_ruleset", text(&p.ruleset)),
        ("_ruleset_version", text(&p.version)),
        ("_ruleset_sha256", text(&p.hash)),
        (
            "_journal_entries",
            Value::Array(vec![int(h.dealt_seq), int(h.ended_seq)]),
        ),
    ]);
    let commission: Chips = p.commission.iter().sum::<Chips>() + p.raked();
    if commission > 0 {
        let per_player = signed(ordered(&p.commission))?;
        fields.push(("_commission", count(commission)));
        fields.push((
            "_commission_by_player",
            Value::Array(per_player.into_iter().map(int).collect()),
        ));
    }
    if p.redeals > 0 {
        fields.push(("_redeals", count(u64::from(p.redeals))));
    }
    fields.push((
        "_rulings",
        Value::Array(
            h.rulings
                .iter()
                .map(|r| {
                    text(&format!(
                        "{} — {} [{} v{} · {}]",
                        r.point, r.text, r.ruleset, r.version, r.citation
                    ))
                })
                .collect(),
        ),
    ));
    phh.fields = fields
        .into_iter()
        .map(|(k, v)| (k.to_string(), v))
        .collect();
    Ok(phh)
}
