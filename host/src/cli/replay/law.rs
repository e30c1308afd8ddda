//! `floor replay --ruleset ID FILES` and `--rulesets A,B FILES`: the law's effect on
//! real play. Every hand is replayed twice — under the PHH reference conventions and under
//! the jurisdiction's ruleset (or under two rulesets) — and compared: an action one law
//! forbids, a pot divided otherwise, a commission taken. Each effect names its rule point and
//! the article each side rules by; the summary counts the hands each rule point affects and
//! the amount it moves, in the records' units.

use super::failures::Spilled;
use super::stream::{self, Input};
use super::{CliError, ReplayArgs};
use floor_engine::hand::{Event, Hand};
use floor_engine::phh::{PhhHand, Scale};
use floor_engine::replay::{IllegalAction, ReplayReport, Replayer};
use floor_engine::rules::{PhhConventions, Rules};
use floor_engine::ruleset::{Ruleset, RulesetRules, Sandbox};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::io::Write;
use std::process::ExitCode;
use std::sync::Arc;

/// One side of the comparison: a ruleset, or the PHH reference conventions.
#[derive(Clone)]
struct Side {
    id: String,
    rules: Arc<dyn Rules>,
    ruleset: Option<Arc<Ruleset>>,
}

impl Side {
    /// The article this side rules `point` by, as its text binds it.
    fn citation(&self, point: &str) -> String {
        match &self.ruleset {
            Some(ruleset) => ruleset.resolve(point).map_or_else(
                || "not regulated by this text".to_string(),
                |r| r.binding.citation.clone(),
            ),
            None => "the PHH reference conventions".to_string(),
        }
    }
}

/// Where the law rules differently in one hand. Amounts in `what` are in the record's own
/// units; `chips` counts chips at the record's scale.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
struct Effect {
    /// The rule point.
    point: String,
    /// What differs, in a sentence.
    what: String,
    /// The amount that ends up elsewhere (or is taken) because of it, in the record's units.
    amount: String,
    /// The same in chips, at the record's scale (`decimals` decimal places).
    #[serde(skip)]
    chips: u64,
    #[serde(skip)]
    decimals: u32,
    /// The article each side rules by: first side, second side.
    citations: [String; 2],
}

/// A hand the law affects.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
struct Affected {
    file: String,
    hand: usize,
    line: usize,
    effects: Vec<Effect>,
}

/// What a worker found in one chunk.
#[derive(Default)]
struct LawTally {
    hands: usize,
    /// Hands one side could not replay at all (a setup the record's own check refuses).
    not_replayed: usize,
    affected: Vec<Affected>,
}

/// Per rule point: hands affected, the amount moved (in the records' units), and the
/// citations.
#[derive(Serialize, Default)]
struct PointSummary {
    point: String,
    hands: usize,
    amount_moved: String,
    /// The amount moved at 18 decimal places, whatever each record's scale.
    #[serde(skip)]
    moved: i128,
    citations: BTreeMap<String, String>,
}

/// An amount held at 18 decimal places, written without trailing zeros.
fn exact(amount: i128) -> String {
    let (whole, frac) = (amount / 10i128.pow(18), (amount % 10i128.pow(18)).abs());
    if frac == 0 {
        return whole.to_string();
    }
    let digits = format!("{frac:018}");
    format!("{whole}.{}", digits.trim_end_matches('0'))
}

pub(super) fn run(args: &ReplayArgs, inputs: &[Input], jobs: usize) -> Result<ExitCode, CliError> {
    let store = args.rulesets_dir.store()?;
    let sandbox = Sandbox::new();
    let desk = super::super::scenario::desk(args.config.as_deref())?;
    let load = |id: &str| -> Result<Side, CliError> {
        let ruleset = store.load_for_cli(id, &sandbox)?;
        Ok(Side {
            id: id.to_string(),
            rules: Arc::new(RulesetRules::new(ruleset.clone()).with_desk(desk.clone())),
            ruleset: Some(ruleset),
        })
    };
    let sides: [Side; 2] =
        match (&args.ruleset, args.compare_rulesets.as_slice()) {
            (Some(id), []) => [
                Side {
                    id: "phh-reference".into(),
                    rules: Arc::new(PhhConventions),
                    ruleset: None,
                },
                load(id)?,
            ],
            (None, [a, b]) => [load(a)?, load(b)?],
            _ => return Err(CliError::Usage(
                "--rulesets takes two ruleset ids, like `--rulesets pt-casino-2007,br-adtp-2012`"
                    .into(),
            )),
        };
    let worker = || {
        let mut replayers = [
            Replayer::new(sides[0].rules.clone()),
            Replayer::new(sides[1].rules.clone()),
        ];
        let sides = sides.clone();
        stream::EachHand(move |phh: &PhhHand, tally: &mut LawTally| {
            compare_hand(phh, &sides, &mut replayers, tally)
        })
    };
    let names: Vec<String> = inputs.iter().map(|i| i.name.clone()).collect();
    let mut hands = 0;
    let mut not_replayed = 0;
    let mut affected: Spilled<Affected> = Spilled::default();
    let mut points: BTreeMap<String, PointSummary> = BTreeMap::new();
    let mut take = |file: usize, tally: LawTally, _bytes: u64| {
        hands += tally.hands;
        not_replayed += tally.not_replayed;
        for mut hand in tally.affected {
            hand.file.clone_from(&names[file]);
            for effect in &hand.effects {
                let entry = points
                    .entry(effect.point.clone())
                    .or_insert_with(|| PointSummary {
                        point: effect.point.clone(),
                        citations: sides
                            .iter()
                            .zip(&effect.citations)
                            .map(|(s, c)| (s.id.clone(), c.clone()))
                            .collect(),
                        ..PointSummary::default()
                    });
                entry.hands += 1;
                entry.moved += i128::from(effect.chips) * 10i128.pow(18 - effect.decimals.min(18));
            }
            affected.push(hand);
        }
    };
    stream::replay_files(inputs, jobs, &worker, &mut take)?;
    let report = Report {
        rulesets: [sides[0].id.clone(), sides[1].id.clone()],
        hands,
        not_replayed,
        hands_affected: affected.len(),
        rule_points: points
            .into_values()
            .map(|mut p| {
                p.amount_moved = exact(p.moved);
                p
            })
            .collect(),
    };
    let mut out = std::io::stdout().lock();
    let printed = if args.output.is_json() {
        report.json(&mut out, &mut affected)
    } else {
        report.table(&mut out, &mut affected)
    };
    match printed {
        Ok(()) => Ok(ExitCode::SUCCESS),
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(ExitCode::SUCCESS),
        Err(e) => Err(CliError::Output(e.to_string())),
    }
}

/// Replays one hand under both sides and notes where they part.
fn compare_hand(
    phh: &PhhHand,
    sides: &[Side; 2],
    replayers: &mut [Replayer; 2],
    tally: &mut LawTally,
) {
    tally.hands += 1;
    let mut played: Vec<(Hand, ReplayReport)> = Vec::with_capacity(2);
    for replayer in replayers.iter_mut() {
        match replayer.replay(phh) {
            Ok(report) => {
                let report = report.clone();
                match replayer.hand() {
                    Some(hand) => played.push((hand.clone(), report)),
                    None => break,
                }
            }
            Err(_) => break,
        }
    }
    let [(a, ra), (b, rb)] = match <[(Hand, ReplayReport); 2]>::try_from(played) {
        Ok(both) => both,
        Err(_) => {
            tally.not_replayed += 1;
            return;
        }
    };
    let mut effects = Vec::new();
    match (&ra.illegal, &rb.illegal) {
        (None, Some(refused)) => effects.push(forbidden(refused, 1, sides)),
        (Some(refused), None) => effects.push(forbidden(refused, 0, sides)),
        (Some(_), Some(_)) => {}
        (None, None) if ra.settled && rb.settled => outcome(&a, &b, sides, phh.scale, &mut effects),
        (None, None) => {}
    }
    if !effects.is_empty() {
        tally.affected.push(Affected {
            file: String::new(),
            hand: phh.number.unwrap_or(1),
            line: phh.line,
            effects,
        });
    }
}

/// An action side `refusing` forbids and the other allows.
fn forbidden(refused: &IllegalAction, refusing: usize, sides: &[Side; 2]) -> Effect {
    // A refusal no rulebook decides cannot differ between two sets of rules.
    let point = refused.point.unwrap_or("none");
    Effect {
        point: point.to_string(),
        what: format!(
            "{} refuses action {} `{}`: {}",
            sides[refusing].id,
            refused.index + 1,
            refused.notation,
            refused.reason
        ),
        amount: "0".into(),
        chips: 0,
        decimals: 0,
        citations: [sides[0].citation(point), sides[1].citation(point)],
    }
}

/// The commission each hand took, and each player's winnings.
fn paid(hand: &Hand) -> (u64, Vec<u64>) {
    let mut won = vec![0; hand.config().players()];
    let mut raked = 0;
    for event in hand.events() {
        match *event {
            Event::Awarded { player, amount, .. } => won[player] += amount,
            Event::Raked { amount, .. } => raked += amount,
            _ => {}
        }
    }
    (raked, won)
}

/// Both sides played the hand to the end: the commission and the division of the pots.
fn outcome(a: &Hand, b: &Hand, sides: &[Side; 2], scale: Scale, effects: &mut Vec<Effect>) {
    let ((rake_a, won_a), (rake_b, won_b)) = (paid(a), paid(b));
    if rake_a != rake_b {
        let point = "cash.rake.mode_and_bounds";
        effects.push(Effect {
            point: point.into(),
            what: format!(
                "commission: {} takes {}, {} takes {}",
                sides[0].id,
                scale.format(rake_a),
                sides[1].id,
                scale.format(rake_b)
            ),
            amount: scale.format(rake_a.abs_diff(rake_b)),
            chips: rake_a.abs_diff(rake_b),
            decimals: scale.decimals(),
            citations: [sides[0].citation(point), sides[1].citation(point)],
        });
    }
    // The division: what each player won, the commission's difference aside (it comes out
    // of the winners' shares).
    let moved: u64 = won_a
        .iter()
        .zip(&won_b)
        .map(|(&x, &y)| y.saturating_sub(x))
        .sum::<u64>()
        .saturating_sub(rake_a.saturating_sub(rake_b));
    if moved == 0 {
        return;
    }
    let odd_chip = |h: &Hand| {
        h.rulings()
            .iter()
            .filter(|r| r.point == "showdown.odd_chip")
            .map(|r| r.text())
            .collect::<Vec<_>>()
    };
    let point = if odd_chip(a) != odd_chip(b) {
        "showdown.odd_chip"
    } else {
        "allin.side_pots"
    };
    let division = |won: &[u64]| {
        won.iter()
            .enumerate()
            .filter(|(_, &w)| w > 0)
            .map(|(p, &w)| format!("player {} {}", p + 1, scale.format(w)))
            .collect::<Vec<_>>()
            .join(", ")
    };
    effects.push(Effect {
        point: point.into(),
        what: format!(
            "the pot is divided otherwise: {} pays {}; {} pays {}",
            sides[0].id,
            division(&won_a),
            sides[1].id,
            division(&won_b)
        ),
        amount: scale.format(moved),
        chips: moved,
        decimals: scale.decimals(),
        citations: [sides[0].citation(point), sides[1].citation(point)],
    });
}

/// The whole report.
#[derive(Serialize)]
struct Report {
    rulesets: [String; 2],
    hands: usize,
    not_replayed: usize,
    hands_affected: usize,
    rule_points: Vec<PointSummary>,
}

impl Report {
    /// JSON, the affected hands written one by one (exactly as `to_string_pretty` writes a
    /// `hands` list after the rest).
    fn json(&self, out: &mut dyn Write, affected: &mut Spilled<Affected>) -> std::io::Result<()> {
        let json = |e: serde_json::Error| std::io::Error::other(e.to_string());
        let head = serde_json::to_string_pretty(self).map_err(json)?;
        write!(out, "{},\n  \"affected\": [", head.trim_end_matches("\n}"))?;
        let mut first = true;
        let empty = affected.is_empty();
        affected.for_each(|hand| {
            let item = serde_json::to_string_pretty(hand).map_err(json)?;
            let sep = if first { "" } else { "," };
            first = false;
            write!(out, "{sep}\n    {}", item.replace('\n', "\n    "))
        })?;
        if !empty {
            write!(out, "\n  ")?;
        }
        writeln!(out, "]\n}}")
    }

    fn table(&self, out: &mut dyn Write, affected: &mut Spilled<Affected>) -> std::io::Result<()> {
        let [a, b] = &self.rulesets;
        writeln!(
            out,
            "{b} against {a}: {} hands, {} affected",
            self.hands, self.hands_affected
        )?;
        if self.not_replayed > 0 {
            writeln!(
                out,
                "{} hands could not be replayed under one of them",
                self.not_replayed
            )?;
        }
        if !self.rule_points.is_empty() {
            let width = self
                .rule_points
                .iter()
                .map(|p| p.point.len())
                .max()
                .unwrap_or(10)
                .max(10);
            writeln!(
                out,
                "\n{:<width$}  {:>7} {:>12}  articles",
                "rule point", "hands", "amount moved"
            )?;
            for p in &self.rule_points {
                let cite = |id: &str| p.citations.get(id).map_or("", String::as_str).to_string();
                writeln!(
                    out,
                    "{:<width$}  {:>7} {:>12}  {a}: {}; {b}: {}",
                    p.point,
                    p.hands,
                    p.amount_moved,
                    cite(a),
                    cite(b)
                )?;
            }
        }
        if !affected.is_empty() {
            writeln!(out, "\nhands:")?;
        }
        affected.for_each(|hand| {
            for e in &hand.effects {
                writeln!(
                    out,
                    "  {}:{} hand {} [{}] {} ({a}: {}; {b}: {})",
                    hand.file,
                    hand.line,
                    hand.hand,
                    e.point,
                    e.what,
                    e.citations[0],
                    e.citations[1]
                )?;
            }
            Ok(())
        })
    }
}
