//! `floor payouts --ruleset ID --entries N --buy-in AMOUNT [--re-entries N] [--fee PCT]
//! [--six-max] [--format text|json]`: the prize pool and the payout list under a ruleset's
//! `tournament.buy_in_and_fee` and `tournament.payout_table`, in integer cents, with the
//! articles.
//!
//! The fee: `--fee` if given, else the `fee_percent` the ruleset announces (a house ruleset);
//! a law that only bounds the fee (Solverde §4.3: 5–20%) makes `--fee` required. The fee is
//! checked against the bounds of the whole `extends` chain.

use super::CliError;
use crate::rulesets::Store;
use floor_engine::ruleset::Sandbox;
use floor_engine::tournament::{bindings, payouts, prize_pool, Cents, FeeBounds};
use serde::Serialize;
use std::fmt::Write as _;
use std::process::ExitCode;

/// Arguments of `floor payouts`.
#[derive(clap::Args, Debug)]
pub struct PayoutsArgs {
    /// The ruleset whose fee bounds and payout table apply.
    #[arg(long)]
    ruleset: String,
    /// Paid entries (late registrations included).
    #[arg(long)]
    entries: u32,
    /// The buy-in in euros, fee included (`50`, `50.00`, `12.5`).
    #[arg(long = "buy-in", value_name = "AMOUNT")]
    buy_in: String,
    /// Re-entries (they feed the pool and count for the paid places).
    #[arg(long = "re-entries", default_value_t = 0)]
    re_entries: u32,
    /// The fee, in whole percent of the buy-in (default: the ruleset's announced fee).
    #[arg(long, value_name = "PCT")]
    fee: Option<u32>,
    /// A 6-max event (Solverde §7.4 pays 6–9 entries only in 6-max events).
    #[arg(long = "six-max")]
    six_max: bool,
    #[command(flatten)]
    output: super::Output,
    #[command(flatten)]
    rulesets: super::RulesetsDirs,
}

/// The JSON report (a stable interface: see the README).
#[derive(Debug, Serialize)]
pub struct Report {
    /// The ruleset id.
    pub ruleset: String,
    /// Entries counted: paid entries plus re-entries.
    pub entries: u32,
    /// The buy-in, in cents.
    pub buy_in: Cents,
    /// The fee in whole percent.
    pub fee_percent: u32,
    /// The fee taken in all, in cents.
    pub fee: Cents,
    /// The prize pool, in cents.
    pub prize_pool: Cents,
    /// The payout list; its amounts sum to `prize_pool`.
    pub payouts: Vec<floor_engine::tournament::Payout>,
    /// The articles for the fee and for the table.
    pub citations: Citations,
}

/// The articles behind a report.
#[derive(Debug, Serialize)]
pub struct Citations {
    /// `tournament.buy_in_and_fee`: the bounds the fee was checked against.
    pub fee: String,
    /// Where the fee came from: `--fee`, or the article of the ruleset announcing it.
    pub fee_announced_by: String,
    /// `tournament.prize_pool`: what feeds the pool.
    pub prize_pool: String,
    /// `tournament.payout_table`.
    pub payout_table: String,
}

pub fn run(args: PayoutsArgs) -> Result<ExitCode, CliError> {
    let store = args.rulesets.store()?;
    let report = report(&store, &args)?;
    let text = if args.output.is_json() {
        let mut json =
            serde_json::to_string_pretty(&report).map_err(|e| CliError::Output(e.to_string()))?;
        json.push('\n');
        json
    } else {
        table(&report)
    };
    // A closed pipe (`| head`) is not an error worth a panic.
    match std::io::Write::write_all(&mut std::io::stdout(), text.as_bytes()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
            Err(CliError::Output(e.to_string()))
        }
        _ => Ok(ExitCode::SUCCESS),
    }
}

/// Computes the report (also used by tests).
pub fn report(store: &Store, args: &PayoutsArgs) -> Result<Report, CliError> {
    let buy_in = parse_euros(&args.buy_in)?;
    let ruleset = store.load_for_cli(&args.ruleset, &Sandbox::new())?;
    let id = ruleset.id().to_string();
    let refused = |source| CliError::Payouts {
        ruleset: id.clone(),
        source,
    };
    let not_regulated = |point: &str| {
        CliError::Usage(format!(
            "{id} does not regulate `{point}` (not regulated by this text): it has no {} to compute payouts from",
            if point == bindings::TABLE_POINT { "payout table" } else { "fee bounds" }
        ))
    };
    let (table, table_article) = bindings::payout_table(&ruleset)
        .map_err(refused)?
        .ok_or_else(|| not_regulated(bindings::TABLE_POINT))?;
    let (bounds, fee_article) = bindings::fee_bounds(&ruleset).unwrap_or_else(|| {
        (
            FeeBounds {
                fee_percent_min: 0,
                fee_percent_max: 100,
            },
            "not regulated by this text".to_string(),
        )
    });
    let (fee, fee_announced_by) = match (args.fee, bindings::announced_fee(&ruleset)) {
        (Some(fee), _) => (fee, "--fee".to_string()),
        (None, Some((fee, article))) => (fee, article),
        (None, None) => {
            return Err(CliError::Usage(format!(
                "{id} fixes no fee, only its bounds ({}% to {}%, {fee_article}): give the announced fee with --fee PCT",
                bounds.fee_percent_min, bounds.fee_percent_max
            )))
        }
    };
    let pool = prize_pool(
        args.entries,
        args.re_entries,
        buy_in,
        fee,
        &bounds,
        &fee_article,
    )
    .map_err(refused)?;
    let list = payouts(&table, &pool, args.six_max, &table_article).map_err(refused)?;
    Ok(Report {
        ruleset: id,
        entries: pool.entries,
        buy_in,
        fee_percent: fee,
        fee: pool.fee,
        prize_pool: pool.prize_pool,
        payouts: list,
        citations: Citations {
            fee: fee_article,
            fee_announced_by,
            prize_pool: ruleset.resolve("tournament.prize_pool").map_or_else(
                || "not regulated by this text".to_string(),
                |r| format!("{} {}", r.layer.file.id, r.binding.citation),
            ),
            payout_table: table_article,
        },
    })
}

/// `50`, `50.0`, `50.00`, `12.5` euros → cents, exactly (no floating point). At most two
/// decimals; a comma is accepted as the decimal mark (`12,50`).
pub fn parse_euros(text: &str) -> Result<Cents, CliError> {
    let bad = || {
        CliError::Usage(format!(
            "`{text}` is not an amount in euros (write 50, 50.00 or 12.5)"
        ))
    };
    let t = text.trim().trim_start_matches('€').replace(',', ".");
    let (whole, frac) = match t.split_once('.') {
        Some((w, f)) => (w, f),
        None => (t.as_str(), ""),
    };
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    if !digits(whole) || (!frac.is_empty() && !digits(frac)) || frac.len() > 2 {
        return Err(bad());
    }
    let euros: u64 = whole.parse().map_err(|_| bad())?;
    let cents: u64 = match frac.len() {
        0 => 0,
        1 => frac.parse::<u64>().map_err(|_| bad())? * 10,
        _ => frac.parse().map_err(|_| bad())?,
    };
    euros
        .checked_mul(100)
        .and_then(|c| c.checked_add(cents))
        .filter(|&c| c > 0)
        .ok_or_else(bad)
}

/// Cents as euros: `1234567` → `€12,345.67`.
pub fn euros(cents: Cents) -> String {
    let whole = (cents / 100).to_string();
    let mut grouped = String::new();
    for (i, c) in whole.chars().enumerate() {
        if i > 0 && (whole.len() - i).is_multiple_of(3) {
            grouped.push(',');
        }
        grouped.push(c);
    }
    format!("€{grouped}.{:02}", cents % 100)
}

/// The table form, with the articles.
pub fn table(r: &Report) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "ruleset     {}", r.ruleset);
    let _ = writeln!(out, "entries     {} (paid entries + re-entries)", r.entries);
    let _ = writeln!(out, "buy-in      {}", euros(r.buy_in));
    let _ = writeln!(
        out,
        "fee         {}% = {} in all, announced by {} [tournament.buy_in_and_fee · {}]",
        r.fee_percent,
        euros(r.fee),
        r.citations.fee_announced_by,
        r.citations.fee
    );
    let _ = writeln!(
        out,
        "prize pool  {} [tournament.prize_pool · {}]",
        euros(r.prize_pool),
        r.citations.prize_pool
    );
    let _ = writeln!(
        out,
        "payouts     {} places [tournament.payout_table · {}]",
        r.payouts.len(),
        r.citations.payout_table
    );
    for p in &r.payouts {
        let _ = writeln!(out, "  {:>4}  {:>14}", p.place, euros(p.amount));
    }
    let total: Cents = r.payouts.iter().map(|p| p.amount).sum();
    let _ = writeln!(out, "  total {:>14}", euros(total));
    out
}
