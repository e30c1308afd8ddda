//! Running a scenario under one ruleset and checking its expectations.

use super::format::{Expect, Scenario, Seating, Step, TableSetup};
use super::keys::{for_ruleset, log_words};
use crate::cards::Card;
use crate::events::{handle, EventRuling};
use crate::hand::{Hand, HandConfig, Structure, Variant};
use crate::phh::Action as PhhAction;
use crate::replay::apply;
use crate::rules::{Citation, Rules, Ruling};
use crate::Chips;
use serde::Serialize;
use std::collections::BTreeSet;
use std::sync::Arc;

/// One step's result.
#[derive(Clone, Debug, Serialize)]
pub struct StepResult {
    /// The step's index (from 1).
    pub step: usize,
    /// What the step was, briefly.
    pub what: String,
    /// The ruling, for events.
    pub ruling: Option<EventRuling>,
    /// Why the step was refused, if it was.
    pub error: Option<String>,
    /// The rulings the step made (cash sessions), as sentences with citations.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub rulings: Vec<String>,
    /// The rule points that ruled during the step: its event's ruling, the rulebook answer
    /// that refused an action (a raise below `betting.min_raise`), and every ruling the
    /// table recorded meanwhile (a showdown, a commission, a tournament's balancing).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub points: Vec<String>,
    /// The step compared the table's state with what the scenario expects under this
    /// ruleset (a `Table` step, a cash `Check`, a tournament step checking its state): the
    /// rulings before it are seen carried out, not only said.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub asserts: bool,
}

impl StepResult {
    /// Notes `point` as having ruled during the step (once).
    pub(super) fn note_point(&mut self, point: &str) {
        if !self.points.iter().any(|p| p == point) {
            self.points.push(point.to_string());
        }
    }

    /// Notes the points of the step's event ruling and of the rulings a log gained during
    /// the step (`log[from..]`; the whole log when it was started afresh, as a redeal does).
    pub(super) fn note_rulings(&mut self, log: &[Ruling], from: usize) {
        if let Some(point) = self.ruling.as_ref().map(|r| r.point.clone()) {
            self.note_point(&point);
        }
        for r in log.get(from..).unwrap_or(log) {
            self.note_point(r.point);
        }
    }

    /// Step `step`, described as `what`, with no ruling and no error yet.
    pub fn new(step: usize, what: impl Into<String>) -> StepResult {
        StepResult {
            step,
            what: what.into(),
            ruling: None,
            error: None,
            rulings: Vec::new(),
            points: Vec::new(),
            asserts: false,
        }
    }
}

/// A scenario run under one ruleset.
#[derive(Clone, Debug, Serialize)]
pub struct Outcome {
    /// The ruleset id.
    pub ruleset: String,
    /// Every step.
    pub steps: Vec<StepResult>,
    /// The rulings the hand recorded (engine rulings and events), as sentences with citations.
    pub log: Vec<String>,
    /// Finishing stacks, if a hand was played to the end.
    pub stacks: Option<Vec<Chips>>,
    /// Expectations not met (empty: the scenario passes).
    pub failures: Vec<String>,
    /// The ruleset refused to set the scenario up (its table, cash session or tournament),
    /// and no expectation said it would: why. Nothing was played; `floor scenario --all`
    /// reports the ruleset as *not applicable* with this reason.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub set_up_refused: Option<String>,
    /// The rule points that ruled while the scenario was set up, before its first step (a
    /// cash table opened, a tournament's draw).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub set_up_points: Vec<String>,
}

impl Outcome {
    /// An outcome under ruleset `id` with nothing run yet.
    pub fn new(id: &str) -> Outcome {
        Outcome {
            ruleset: id.to_string(),
            steps: Vec::new(),
            log: Vec::new(),
            stacks: None,
            failures: Vec::new(),
            set_up_refused: None,
            set_up_points: Vec::new(),
        }
    }

    /// The rule points that ruled before a step asserting the table's state: the rulings
    /// this run shows carried out on the table, not only said.
    pub fn points_asserted(&self) -> BTreeSet<&str> {
        let mut ruled: BTreeSet<&str> = self.set_up_points.iter().map(String::as_str).collect();
        let mut asserted = BTreeSet::new();
        for step in &self.steps {
            ruled.extend(step.points.iter().map(String::as_str));
            if step.asserts {
                asserted.extend(ruled.iter().copied());
            }
        }
        asserted
    }

    /// Records that the ruleset refused the set-up (`what`: the table, the tournament...).
    pub(super) fn refuse_set_up(&mut self, what: &str, why: String) {
        self.failures.push(format!("{what}: {why}"));
        self.set_up_refused = Some(why);
    }

    /// Whether every expectation was met.
    pub fn passed(&self) -> bool {
        self.failures.is_empty()
    }
}

fn config(table: &TableSetup, rules: &dyn Rules) -> Result<HandConfig, String> {
    rules.game(table.variant.as_deref().unwrap_or("holdem"))?;
    let n = table.stacks.len();
    if n < 2 {
        return Err("a table needs at least two players".into());
    }
    let (stacks, button, (small, big)) = (table.stacks.clone(), n - 1, table.blinds);
    let mut config = match table.seating {
        Seating::Standard => HandConfig::holdem(stacks, button, small, big),
        // The blinds go where the ruleset's `blinds.positions_and_amounts` puts them.
        Seating::Ruleset => HandConfig::at_table(stacks, button, small, big, rules).0,
    };
    config.antes = vec![table.ante; n];
    config.structure = match table.structure.as_deref().unwrap_or("no_limit") {
        "no_limit" => Structure::NoLimit,
        "pot_limit" => Structure::PotLimit,
        "half_pot_limit" => Structure::HalfPotLimit,
        "fixed_limit" => Structure::FixedLimit {
            small_bet: table.blinds.1,
            big_bet: table.blinds.1 * 2,
        },
        other => return Err(format!("unknown structure `{other}`")),
    };
    config.variant = match table.variant.as_deref().unwrap_or("holdem") {
        "holdem" => Variant::Holdem,
        "omaha" => Variant::Omaha,
        other => return Err(format!("unknown variant `{other}`")),
    };
    Ok(config)
}

/// Runs `scenario` under `rules`, checking the expectations keyed by `ruleset_id` (or `"*"`).
pub fn run(scenario: &Scenario, rules: Arc<dyn Rules>) -> Outcome {
    let id = rules.ruleset().id.to_string();
    let mut out = Outcome::new(&id);
    if let Some(session) = &scenario.cash {
        return super::cash::run(session, rules, out);
    }
    if let Some(tournament) = &scenario.tournament {
        return super::tournament::run(scenario, tournament, rules);
    }
    let rules = match super::house::with_commission(scenario.table.as_ref(), rules) {
        Ok(rules) => rules,
        Err(e) => {
            match for_ruleset(&scenario.expect_refused, &id) {
                Some(words) if e.contains(words.as_str()) => out.log.push(format!("refused: {e}")),
                _ => out.refuse_set_up("table", e),
            }
            return out;
        }
    };
    let Ok(mut hand) = open_table(scenario, &rules, &id, &mut out) else {
        return out;
    };
    if let (Some(setup), Some(cards), Some(h)) = (
        &scenario.table,
        scenario.table.as_ref().and_then(|t| t.deck.as_deref()),
        hand.as_ref(),
    ) {
        match super::dealt::open(setup, cards, h.config().clone(), &rules) {
            Ok(mut table) => super::dealt::play(scenario, &mut table, &id, &mut out),
            Err(e) => out.refuse_set_up("table", e),
        }
        close(scenario, None, None, &id, &mut out);
        return out;
    }
    // Situations need no hand; give them a two-player table to hang the log on.
    let mut scratch = Hand::new(HandConfig::holdem(vec![100, 100], 1, 1, 2), rules.clone()).ok();
    for (i, step) in scenario.steps.iter().enumerate() {
        let number = i + 1;
        let chips_refused = match step {
            Step::Event { event, expect } => {
                super::house::chips_in_play(scenario.table.as_ref(), event)
                    .err()
                    .map(|e| (describe(event), e, for_ruleset(expect, &id)))
            }
            _ => None,
        };
        let result = match chips_refused {
            Some((what, e, expect)) => {
                let mut result = StepResult::new(number, what);
                match expect.and_then(|x| x.refused.clone()) {
                    Some(words) if e.contains(words.as_str()) => out.log.push(e),
                    _ => result.error = Some(e),
                }
                result
            }
            None => {
                let logged = |h: &Option<Hand>| h.as_ref().map_or(0, |h| h.rulings().len());
                let before = (logged(&hand), logged(&scratch));
                let mut result = play_step(
                    step,
                    number,
                    &mut hand,
                    &mut scratch,
                    &id,
                    &mut out.failures,
                );
                for (h, from) in [(&hand, before.0), (&scratch, before.1)] {
                    if let Some(h) = h {
                        result.note_rulings(h.rulings(), from);
                    }
                }
                result
            }
        };
        if let Some(e) = &result.error {
            out.failures
                .push(format!("step {number} ({}): refused: {e}", result.what));
        }
        out.steps.push(result);
    }
    close(scenario, hand, scratch, &id, &mut out);
    out
}

/// The scenario's table, if it has one (`Ok(None)`: situations only); `Err` when the table
/// is refused (expected or not: `out` says so).
fn open_table(
    scenario: &Scenario,
    rules: &Arc<dyn Rules>,
    id: &str,
    out: &mut Outcome,
) -> Result<Option<Hand>, ()> {
    let mut hand = None;
    let refusal = for_ruleset(&scenario.expect_refused, id);
    if let Some(table) = &scenario.table {
        match config(table, rules.as_ref())
            .and_then(|c| Hand::new(c, rules.clone()).map_err(|e| e.to_string()))
        {
            Ok(h) => hand = Some(h),
            Err(e) => {
                match refusal {
                    Some(words) if e.contains(words.as_str()) => {
                        out.log.push(format!("refused: {e}"))
                    }
                    Some(words) => out.failures.push(format!(
                        "table refused for another reason (expected `{words}`): {e}"
                    )),
                    None => out.refuse_set_up("table", e),
                }
                return Err(());
            }
        }
    }
    if let Some(words) = refusal {
        out.failures
            .push(format!("the table was expected to be refused (`{words}`)"));
    }
    Ok(hand)
}

/// Plays one step at `hand` (situations without a table at `scratch`).
fn play_step(
    step: &Step,
    number: usize,
    hand: &mut Option<Hand>,
    scratch: &mut Option<Hand>,
    id: &str,
    failures: &mut Vec<String>,
) -> StepResult {
    let mut result = StepResult::new(number, String::new());
    match step {
        Step::Deal(holes) => {
            result.what = format!("deal {}", holes.join(" "));
            if let Some(h) = hand.as_mut() {
                for (p, text) in holes.iter().enumerate() {
                    let cards: Result<Vec<Option<Card>>, String> = text
                        .as_bytes()
                        .chunks(2)
                        .map(|c| {
                            let s = std::str::from_utf8(c).unwrap_or("??");
                            if s == "??" {
                                Ok(None)
                            } else {
                                s.parse::<Card>().map(Some).map_err(|e| e.to_string())
                            }
                        })
                        .collect();
                    if let Err(e) =
                        cards.and_then(|c| h.deal_hole(p, &c).map_err(|e| e.to_string()))
                    {
                        result.error = Some(e);
                    }
                }
            }
        }
        Step::Act(notation) => {
            result.what = notation.clone();
            let parsed: Result<PhhAction, String> = notation
                .parse()
                .map_err(|e: crate::phh::PhhError| e.to_string());
            match (hand.as_mut(), parsed) {
                (Some(h), Ok(action)) => {
                    if let Err(e) = apply(h, &action) {
                        result.error = Some(e.to_string());
                    }
                }
                (None, _) => result.error = Some("no table: add `table: (...)`".into()),
                (_, Err(e)) => result.error = Some(e),
            }
        }
        Step::Refused { act, because } => {
            result.what = format!("{act} (must be refused)");
            let parsed: Result<PhhAction, String> =
                act.parse().map_err(|e: crate::phh::PhhError| e.to_string());
            match (hand.as_mut(), parsed) {
                (Some(h), Ok(action)) => match apply(h, &action) {
                    Ok(()) => failures.push(format!(
                        "step {number}: `{act}` was accepted, expected a refusal"
                    )),
                    Err(e) if e.to_string().contains(because.as_str()) => {
                        result.what = format!("{act} — refused: {e}");
                    }
                    Err(e) => failures.push(format!(
                        "step {number}: `{act}` refused with `{e}`, expected `{because}`"
                    )),
                },
                (None, _) => result.error = Some("no table: add `table: (...)`".into()),
                (_, Err(e)) => result.error = Some(e),
            }
        }
        Step::Board(cards) => {
            result.what = format!("board {cards}");
            match (hand.as_mut(), crate::cards::parse_cards(cards)) {
                (Some(h), Ok(c)) => {
                    if let Err(e) = h.deal_board(&c) {
                        result.error = Some(e.to_string());
                    }
                }
                (None, _) => result.error = Some("no table: add `table: (...)`".into()),
                (_, Err(e)) => result.error = Some(e.to_string()),
            }
        }
        Step::NextHand => {
            result.what = "the next hand".into();
            result.error =
                Some("the next hand is dealt at a table with a deck: add `deck:`".into());
        }
        Step::Table(_) => {
            result.what = "the table".into();
            result.error =
                Some("the table's state is asserted at a table with a deck: add `deck:`".into());
        }
        Step::Event { event, expect } => {
            result.what = describe(event);
            let target = match (&event, hand.as_mut()) {
                (crate::events::TableEvent::Situation { .. }, None) => scratch.as_mut(),
                (_, Some(h)) => Some(h),
                (_, None) => None,
            };
            match target {
                None => result.error = Some("no table: add `table: (...)`".into()),
                Some(h) => match handle(h, event) {
                    Ok(ruling) => {
                        if let Some(e) = for_ruleset(expect, id) {
                            check(number, &ruling, &e, failures);
                        }
                        result.ruling = Some(ruling);
                    }
                    Err(e) => result.error = Some(e.to_string()),
                },
            }
        }
    }
    result
}

/// The end of a scenario: a showdown nobody finished settled, the log and the stacks, and
/// the log and stacks expected.
fn close(
    scenario: &Scenario,
    mut hand: Option<Hand>,
    scratch: Option<Hand>,
    id: &str,
    out: &mut Outcome,
) {
    if let Some(h) = hand.as_mut() {
        // A showdown nobody finished: tabled hands speak.
        if h.phase() == crate::hand::Phase::Showdown {
            let _ = h.finish_showdown();
        }
    }
    if let Some(h) = &hand {
        out.log = h.rulings().iter().map(ToString::to_string).collect();
        if h.is_complete() {
            out.stacks = Some(h.stacks());
        }
    }
    if let Some(s) = scratch {
        out.log.extend(s.rulings().iter().map(ToString::to_string));
    }
    for w in log_words(&scenario.expect_log, id) {
        if !out.log.iter().any(|line| line.contains(w)) {
            out.failures
                .push(format!("no ruling in the log says `{w}`"));
        }
    }
    if let Some(expected) = for_ruleset(&scenario.expect_stacks, id) {
        if out.stacks.as_ref() != Some(&*expected) {
            out.failures.push(format!(
                "finishing stacks {:?}, expected {expected:?}",
                out.stacks
            ));
        }
    }
}

pub(super) fn describe(event: &crate::events::TableEvent) -> String {
    use crate::events::TableEvent::*;
    match event {
        Chips { player, chips, .. } => format!("p{} puts in {chips:?}", player + 1),
        Declare {
            player,
            declaration,
        } => format!(
            "p{} says {:?} {:?}",
            player + 1,
            declaration.verb,
            declaration.amount
        ),
        Situation { point, .. } => format!("situation {point}"),
        FloorRuling { choice } => format!("the floor rules: {choice}"),
        Played { player, action } => format!("p{} plays {action:?}", player + 1),
        Acted {
            player,
            point,
            motions,
            ..
        } => format!("p{} acts ({point}): {motions:?}", player + 1),
        PenaltyGiven {
            player, offence, ..
        } => format!("seat {player} penalised for {offence}"),
    }
}

pub(crate) fn check(
    step: usize,
    ruling: &EventRuling,
    expect: &Expect,
    failures: &mut Vec<String>,
) {
    let mut fail = |what: String| failures.push(format!("step {step}: {what}"));
    if let Some(words) = &expect.refused {
        fail(format!(
            "ruled on ({}), expected refused with `{words}`",
            ruling.outcome
        ));
    }
    if let Some(point) = &expect.point {
        if &ruling.point != point {
            fail(format!("decided at `{}`, expected `{point}`", ruling.point));
        }
    }
    if let Some(outcome) = &expect.outcome {
        if &ruling.outcome != outcome {
            fail(format!(
                "outcome `{}`, expected `{outcome}` ({})",
                ruling.outcome, ruling.text
            ));
        }
    }
    if let Some(to) = expect.to {
        let got = ruling.fields.get("to").cloned().unwrap_or_default();
        if got != to.to_string() {
            fail(format!("to {got:?}, expected {to}"));
        }
    }
    for (k, v) in &expect.fields {
        let got = ruling.fields.get(k).cloned().unwrap_or_default();
        if &got != v {
            fail(format!("`{k}` is {got:?}, expected {v:?}"));
        }
    }
    if let Some(citation) = &expect.citation {
        let got = ruling.citation.to_string();
        if &got != citation {
            fail(format!("cites `{got}`, expected `{citation}`"));
        }
    }
    if let Some(regulated) = expect.regulated {
        let is = !matches!(ruling.citation, Citation::NotRegulated);
        if is != regulated {
            fail(format!("regulated is {is}, expected {regulated}"));
        }
    }
    if let Some(plugin) = &expect.plugin {
        match &ruling.citation {
            Citation::Plugin(cited) => {
                let got = format!("{} {}", cited.plugin.name, cited.plugin.version);
                if &got != plugin {
                    fail(format!(
                        "answered by the plugin `{got}`, expected `{plugin}`"
                    ));
                }
            }
            other => fail(format!(
                "cites `{other}`, not the plugin `{plugin}` ({})",
                ruling.text
            )),
        }
    }
    if let Some(words) = &expect.text_contains {
        if !ruling.text.contains(words.as_str()) {
            fail(format!(
                "the ruling `{}` does not contain `{words}`",
                ruling.text
            ));
        }
    }
}
