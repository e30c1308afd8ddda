//! The operator's report per table over a time range (`floor audit --report`,
//! `GET /api/reports`): hands played and voided, the chips in play at the end of the range,
//! the commission the house took by the rule that took it, the rulings by rule point with the
//! ruleset version that made them, and each tournament's entries, fee and prize pool.
//!
//! A hand counts in the range it was dealt in; commission and rulings in the range of the
//! command that made them; chips in play and a tournament's money are as they stood after the
//! last command of the range. Times are the journal's (UTC).

use super::{when, Hands};
use crate::journal::RulingRecord;
use crate::serve::{App, Effect, Replayed};
use floor_engine::Chips;
use serde::Serialize;
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// A time range, `from` included, `to` excluded (ms since the Unix epoch, UTC).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Range {
    /// The first millisecond counted.
    pub from: i64,
    /// The first millisecond not counted.
    pub to: i64,
}

impl Range {
    /// The UTC day `YYYY-MM-DD`.
    pub fn day(text: &str) -> Result<Range, String> {
        let days = when::parse_date(text)
            .ok_or_else(|| format!("`{text}` is not a day: write it as 2026-11-26 (UTC)"))?;
        Ok(Range {
            from: days * when::DAY_MS,
            to: (days + 1) * when::DAY_MS,
        })
    }

    /// From `from` (default: the start of the journal) to `to` (default: its end), each a
    /// time [`when::parse`] reads.
    pub fn between(from: Option<&str>, to: Option<&str>) -> Result<Range, String> {
        let range = Range {
            from: from.map(when::parse).transpose()?.unwrap_or(i64::MIN),
            to: to.map(when::parse).transpose()?.unwrap_or(i64::MAX),
        };
        if range.from >= range.to {
            return Err("the range is empty: `from` must come before `to`".into());
        }
        Ok(range)
    }

    fn holds(&self, at_ms: i64) -> bool {
        self.from <= at_ms && at_ms < self.to
    }
}

/// The report: one entry per table that played, ruled or took commission in the range.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Report {
    /// The range, as given (`null`: open).
    pub from: Option<String>,
    /// The end of the range, excluded (`null`: open).
    pub to: Option<String>,
    /// Per table, by id.
    pub tables: BTreeMap<String, TableReport>,
    /// Per tournament, by id.
    pub tournaments: BTreeMap<String, TournamentReport>,
}

/// One table's figures.
#[derive(Clone, Debug, Default, Serialize)]
pub struct TableReport {
    /// The tournament it belongs to (`null`: a cash table).
    pub tournament: Option<String>,
    /// Hands dealt in the range and played to the end.
    pub hands_played: u64,
    /// Hands dealt in the range and voided (every bet returned).
    pub hands_voided: u64,
    /// A cash table's chips at the end of the range: stacks and bets on the table, the
    /// commission not included (`null`: a tournament table, whose chips its tournament
    /// counts).
    pub chips_in_play: Option<Chips>,
    /// The commission the house took, by the rule that took it.
    pub commission: Vec<CommissionLine>,
    /// The rulings, by rule point and ruleset version.
    pub rulings: Vec<RulingLine>,
}

/// Commission taken under one rule.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CommissionLine {
    /// The rule point of the ruling that took it.
    pub point: String,
    /// Its article (or *not regulated by this text*).
    pub citation: String,
    /// Chips taken.
    pub total: Chips,
    /// How many times (hands, sessions or buy-ins) it was taken.
    pub count: u64,
}

/// Rulings made at one rule point under one ruleset version.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RulingLine {
    /// The rule point.
    pub point: String,
    /// The ruleset.
    pub ruleset: String,
    /// Its version.
    pub version: String,
    /// How many rulings.
    pub count: u64,
}

/// One tournament's money at the end of the range (amounts in cents).
#[derive(Clone, Debug, Default, Serialize)]
pub struct TournamentReport {
    /// Its ruleset.
    pub ruleset: String,
    /// Entries counted (re-entries included).
    pub entries: u32,
    /// The buy-in, fee included, in cents.
    pub buy_in: u64,
    /// The house's fee taken in all, in cents.
    pub fee: u64,
    /// The prize pool, in cents.
    pub prize_pool: u64,
    /// `registering`, `running`, `finished` or `cancelled`.
    pub status: String,
    /// The tournament's own rulings (seating, levels, entries), by rule point and ruleset
    /// version; its tables' are theirs.
    pub rulings: Vec<RulingLine>,
}

/// Builds the report for `range` from a replay of the journal: `walk` runs the replay and
/// calls the function it is given once per command ([`App::watch`] or [`App::watch_own`]).
pub fn build<E>(
    range: Range,
    walk: impl FnOnce(&mut dyn FnMut(&App, Replayed<'_>)) -> Result<usize, E>,
) -> Result<Report, E> {
    let mut report = Report {
        from: (range.from != i64::MIN).then(|| when::format(range.from)),
        to: (range.to != i64::MAX).then(|| when::format(range.to)),
        ..Report::default()
    };
    let mut hands = Hands::default();
    let mut commission: BTreeMap<String, Chips> = BTreeMap::new();
    walk(&mut |app, replayed| {
        for h in hands.see(&replayed) {
            if !range.holds(h.dealt_ms) {
                continue;
            }
            let t = table(&mut report, &h.played.table, h.tournament.as_deref());
            if h.played.void {
                t.hands_voided += 1;
            } else {
                t.hands_played += 1;
            }
        }
        let inside = range.holds(replayed.at_ms);
        // Commission: what the table's running total grew by, under the command's ruling.
        if let Ok(slot) = app.tables.get(replayed.table) {
            let state = slot.state.lock().unwrap_or_else(|e| e.into_inner());
            let game = &state.game;
            let taken = game.cash().commission_taken();
            let before = commission.insert(replayed.table.to_string(), taken);
            let grown = taken.saturating_sub(before.unwrap_or(0));
            if inside {
                let t = table(&mut report, replayed.table, None);
                t.chips_in_play = Some(game.cash().chips_on_table());
                if grown > 0 {
                    add_commission(t, &replayed.effect, grown);
                }
            }
        }
        if inside {
            let tournament = replayed.effect.tournament.is_some();
            for r in &replayed.effect.rulings {
                if tournament && r.table == replayed.table {
                    // The tournament's own rulings (seating, levels, entries): not a table's.
                    let t = report.tournaments.entry(r.table.clone()).or_default();
                    add_ruling(&mut t.rulings, r);
                } else {
                    let owner = tournament.then_some(replayed.table);
                    add_ruling(&mut table(&mut report, &r.table, owner).rulings, r);
                }
            }
            if let Ok(slot) = app.tournaments.get(replayed.table) {
                let state = slot.state.lock().unwrap_or_else(|e| e.into_inner());
                let director = &state.director;
                let pool = director.pool();
                let t = report
                    .tournaments
                    .entry(replayed.table.to_string())
                    .or_default();
                t.ruleset.clone_from(&director.spec.ruleset);
                (t.entries, t.buy_in, t.fee, t.prize_pool) =
                    (pool.entries, pool.buy_in, pool.fee, pool.prize_pool);
                t.status = format!("{:?}", director.status()).to_lowercase();
            }
        }
    })?;
    Ok(report)
}

fn table<'a>(report: &'a mut Report, id: &str, tournament: Option<&str>) -> &'a mut TableReport {
    let t = report.tables.entry(id.to_string()).or_default();
    if t.tournament.is_none() {
        t.tournament = tournament.map(str::to_string);
    }
    t
}

/// Counts `grown` chips of commission under the commission ruling `effect` made (the one
/// of `cash.rake.mode_and_bounds` first, else any other of `cash.rake.*`).
fn add_commission(t: &mut TableReport, effect: &Effect, grown: Chips) {
    let rake = |exact: bool| {
        effect.rulings.iter().find(|r| {
            if exact {
                r.point == "cash.rake.mode_and_bounds"
            } else {
                r.point.starts_with("cash.rake.")
            }
        })
    };
    let (point, citation) = match rake(true).or_else(|| rake(false)) {
        Some(r) => (r.point.clone(), r.citation.clone()),
        None => (
            "cash.rake.mode_and_bounds".to_string(),
            "the command that took it made no commission ruling".to_string(),
        ),
    };
    match t
        .commission
        .iter_mut()
        .find(|c| c.point == point && c.citation == citation)
    {
        Some(c) => {
            c.total += grown;
            c.count += 1;
        }
        None => t.commission.push(CommissionLine {
            point,
            citation,
            total: grown,
            count: 1,
        }),
    }
}

fn add_ruling(lines: &mut Vec<RulingLine>, r: &RulingRecord) {
    match lines
        .iter_mut()
        .find(|l| l.point == r.point && l.ruleset == r.ruleset && l.version == r.version)
    {
        Some(l) => l.count += 1,
        None => {
            lines.push(RulingLine {
                point: r.point.clone(),
                ruleset: r.ruleset.clone(),
                version: r.version.clone(),
                count: 1,
            });
            lines.sort_by(|a, b| {
                (&a.point, &a.ruleset, &a.version).cmp(&(&b.point, &b.ruleset, &b.version))
            });
        }
    }
}

/// The report as text: a block per table, then the tournaments.
pub fn text(report: &Report) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "Report from {} to {} (UTC, the end excluded)",
        report.from.as_deref().unwrap_or("the start of the journal"),
        report.to.as_deref().unwrap_or("its end")
    );
    if report.tables.is_empty() && report.tournaments.is_empty() {
        let _ = writeln!(
            out,
            "\nNo table played, ruled or took commission in this range."
        );
    }
    for (id, t) in &report.tables {
        let _ = writeln!(out);
        match &t.tournament {
            Some(tour) => {
                let _ = writeln!(out, "Table {id} (tournament {tour})");
            }
            None => {
                let _ = writeln!(out, "Table {id}");
            }
        }
        let _ = writeln!(out, "  hands played   {:>8}", t.hands_played);
        let _ = writeln!(out, "  hands voided   {:>8}", t.hands_voided);
        if let Some(chips) = t.chips_in_play {
            let _ = writeln!(out, "  chips in play  {chips:>8}");
        }
        if t.commission.is_empty() {
            let _ = writeln!(out, "  commission            0");
        } else {
            let total: Chips = t.commission.iter().map(|c| c.total).sum();
            let _ = writeln!(out, "  commission     {total:>8}");
            for c in &t.commission {
                let _ = writeln!(
                    out,
                    "    {:<40} {:>6} chips in {} × [{}]",
                    c.point, c.total, c.count, c.citation
                );
            }
        }
        rulings(&mut out, &t.rulings);
    }
    for (id, t) in &report.tournaments {
        let _ = writeln!(out);
        let _ = writeln!(out, "Tournament {id} ({}, {})", t.ruleset, t.status);
        let _ = writeln!(out, "  entries        {:>8}", t.entries);
        let _ = writeln!(out, "  buy-in         {:>11}", cents(t.buy_in));
        let _ = writeln!(out, "  fee            {:>11}", cents(t.fee));
        let _ = writeln!(out, "  prize pool     {:>11}", cents(t.prize_pool));
        rulings(&mut out, &t.rulings);
    }
    out
}

/// The count of `lines`, then one line per rule point and version.
fn rulings(out: &mut String, lines: &[RulingLine]) {
    let count: u64 = lines.iter().map(|l| l.count).sum();
    let _ = writeln!(out, "  rulings        {count:>8}");
    for l in lines {
        let _ = writeln!(
            out,
            "    {:<40} {:>6}  {} v{}",
            l.point, l.count, l.ruleset, l.version
        );
    }
}

/// Cents as `1234.56`.
fn cents(c: u64) -> String {
    format!("{}.{:02}", c / 100, c % 100)
}
