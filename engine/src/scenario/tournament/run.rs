//! Running a tournament scenario: the tournament set up under a ruleset, then each step
//! carried out by the runtime (and the money ledger), its rulings recorded and checked
//! against what the scenario expects.

use super::check::check_state;
use super::money::{
    check_refusal, check_result, chop_ruling, finishing_order, purchase_ruling, result_rulings,
};
use super::{ChopAgreed, Expected, Purchase, ResultExpect, TournamentScenario, TournamentStep};
use crate::events::EventRuling;
use crate::rules::Rules;
use crate::scenario::format::Scenario;
use crate::scenario::keys::for_ruleset;
use crate::scenario::run::{check, Outcome, StepResult};
use crate::tournament::entries::{Ledger, Modality as Money};
use crate::tournament::result::{self, Chop, Outcome as MoneyOutcome, ResultError};
use crate::tournament::runtime::{EntryWindows, Setup, Tournament};
use crate::tournament::seating::PlayerId;
use crate::tournament::structure::Structure;
use crate::Chips;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::collections::BTreeMap;
use std::sync::Arc;

/// A step's failure, in the words of the step (`step N (Kind): ...`).
type Fail<'a> = &'a dyn Fn(String) -> String;

/// A scenario's tournament being run, with what the steps share.
struct Runner<'a> {
    setup: &'a TournamentScenario,
    /// The ruleset's id.
    id: String,
    t: Tournament,
    rng: ChaCha8Rng,
    /// The rules in force (the money ledger is asked under them too).
    rules: Arc<dyn Rules>,
    ledger: Option<Ledger>,
    /// `(eliminated, eliminator)`, for the bounties of a result.
    eliminations: Vec<(PlayerId, PlayerId)>,
    out: Outcome,
}

/// Runs a tournament scenario under `rules`.
pub fn run(scenario: &Scenario, setup: &TournamentScenario, rules: Arc<dyn Rules>) -> Outcome {
    let mut r = match Runner::start(scenario, setup, rules) {
        Ok(r) => r,
        Err(out) => return out,
    };
    // The set-up's own rulings (the draw, a Sit&Go start) go to the log only: every scenario
    // makes them, and as probes for `floor compare` they would say nothing.
    let mut seen = r.t.rulings().len();
    r.out.set_up_points = r.t.rulings().iter().map(|x| x.point.clone()).collect();
    for (i, step) in setup.steps.iter().enumerate() {
        let number = i + 1;
        let fail = |m: String| format!("step {number} ({}): {m}", describe(step));
        let mut failures: Vec<String> = Vec::new();
        let (what, expected) = r.step(step, &fail, &mut failures);
        r.out.failures.extend(failures);
        seen = record(&mut r.out, number, &what, &r.t, seen, expected, &r.id);
        if let Some(last) = r.out.steps.last_mut() {
            last.asserts = asserts_state(step, &r.id);
        }
    }
    let mut out = r.out;
    out.log.extend(r.t.rulings().iter().map(|r| {
        format!(
            "{} [{}; {}]: {} — {}",
            r.point, r.ruleset, r.citation, r.outcome, r.text
        )
    }));
    out
}

impl<'a> Runner<'a> {
    /// The tournament started (entries seated, the game and windows set, every entry paid
    /// where the scenario has money), or the outcome of a scenario that ends there (a
    /// refusal expected or not).
    // An outcome that ends the scenario is returned once, never passed along: not boxed.
    #[allow(clippy::result_large_err)]
    fn start(
        scenario: &Scenario,
        setup: &'a TournamentScenario,
        rules: Arc<dyn Rules>,
    ) -> Result<Runner<'a>, Outcome> {
        let id = rules.ruleset().id.to_string();
        let mut out = Outcome::new(&id);
        let mut rng = ChaCha8Rng::seed_from_u64(setup.seed);
        let refusal = for_ruleset(&scenario.expect_refused, &id);
        let started = Tournament::new(
            Setup {
                seats_per_table: setup.seats_per_table,
                starting_stack: setup.starting_stack,
                structure: Structure {
                    levels: setup.levels.clone(),
                    breaks: setup.breaks.clone(),
                },
                modality: setup.modality,
                format: setup.format.clone(),
                paid_places: setup.paid_places,
            },
            rules,
        )
        .and_then(|mut t| t.start(setup.entries, &mut rng).map(|()| t));
        let mut t = match (started, refusal) {
            (Ok(t), None) => t,
            (Ok(_), Some(words)) => {
                out.failures.push(format!(
                    "the tournament was expected to be refused (`{words}`)"
                ));
                return Err(out);
            }
            (Err(e), Some(words)) if e.to_string().contains(words.as_str()) => {
                out.log.push(format!("refused: {e}"));
                return Err(out);
            }
            (Err(e), _) => {
                out.refuse_set_up("tournament refused", e.to_string());
                return Err(out);
            }
        };
        t.set_game(setup.game);
        let windows = setup.windows.or_else(|| {
            setup.money.as_ref().map(|m| EntryWindows {
                late_registration_until_level: m.late_registration_until_level,
                re_entries: m.re_entries_allowed,
            })
        });
        if let Some(w) = windows {
            t.announce_entry_windows(w);
        }
        let rules = t.rules().clone();
        let mut ledger = setup
            .money
            .clone()
            .map(|terms| Ledger::under_rules(terms, rules.as_ref()));
        if let Some(ledger) = ledger.as_mut() {
            for p in 1..=setup.entries as u32 {
                if let Err(e) = ledger.register(rules.as_ref(), p, 1, false) {
                    out.failures.push(format!("entry {p}: {e}"));
                }
            }
        }
        Ok(Runner {
            setup,
            id,
            t,
            rng,
            rules,
            ledger,
            eliminations: Vec::new(),
            out,
        })
    }

    /// Carries out one step; returns what it was, in words, and the rulings it expects.
    fn step<'s>(
        &mut self,
        step: &'s TournamentStep,
        fail: Fail,
        failures: &mut Vec<String>,
    ) -> (String, Option<&'s Expected>) {
        match step {
            TournamentStep::Play {
                rounds,
                seconds_per_hand,
                expect,
            } => {
                self.play(*rounds, *seconds_per_hand, fail, failures);
                (format!("play {rounds} round(s)"), Some(expect))
            }
            TournamentStep::Eliminate {
                players,
                winner,
                places,
                expect,
            } => {
                self.eliminate(players, *winner, places, fail, failures);
                (
                    format!("players {players:?} out, chips to {winner}"),
                    Some(expect),
                )
            }
            TournamentStep::EliminateAt { table, count } => {
                self.eliminate_at(*table, *count, fail, failures);
                (format!("{count} out at table {table}"), None)
            }
            TournamentStep::Balance { expect } => {
                self.t.balance(&mut self.rng);
                ("balance".into(), Some(expect))
            }
            TournamentStep::StopCheck { stopped, expect } => {
                let got = self.t.stopped_tables();
                if &got != stopped {
                    failures.push(fail(format!("tables {got:?} stop, expected {stopped:?}")));
                }
                ("which tables stop".into(), Some(expect))
            }
            TournamentStep::Elapse { seconds, expect } => {
                self.t.elapse(*seconds);
                (format!("{seconds} s pass"), Some(expect))
            }
            TournamentStep::LateEntry {
                category,
                expect,
                refused,
            } => {
                let error = self.late_entry(category, fail, failures);
                check_refusal(refused, &self.id, error, failures, fail);
                (format!("a {category} enters"), Some(expect))
            }
            TournamentStep::AbandonStack {
                player,
                expect,
                refused,
            } => {
                let error = self.abandon_stack(*player, fail, failures);
                check_refusal(refused, &self.id, error, failures, fail);
                (
                    format!("player {player} gives up his stack and re-enters"),
                    Some(expect),
                )
            }
            TournamentStep::Buy {
                player,
                purchase,
                in_action,
                receipt,
                expect,
                refused,
            } => {
                let error = self.buy(*player, *purchase, *in_action, receipt, fail, failures);
                check_refusal(refused, &self.id, error, failures, fail);
                (format!("{purchase:?} bought"), Some(expect))
            }
            TournamentStep::DeclareRebuy {
                player,
                stacks,
                expect,
            } => {
                self.declare_rebuy(*player, stacks, fail, failures);
                (
                    format!("player {player} declares a rebuy before the hand"),
                    Some(expect),
                )
            }
            TournamentStep::Absent { player, absent } => {
                if let Err(e) = self.t.set_absent(*player, *absent) {
                    failures.push(fail(e.to_string()));
                }
                (format!("player {player} absent: {absent}"), None)
            }
            TournamentStep::Result { chop, expect } => {
                self.result(chop.as_ref(), expect, fail, failures);
                ("the result".into(), None)
            }
            TournamentStep::WrongSeat {
                player,
                table,
                seat,
                expect,
            } => (
                self.wrong_seat(*player, *table, *seat, fail, failures),
                Some(expect),
            ),
            TournamentStep::ColorUp {
                retire,
                into,
                chips_awarded,
                expect,
            } => {
                self.color_up(*retire, *into, *chips_awarded, fail, failures);
                (format!("colour-up of {retire}s into {into}s"), Some(expect))
            }
            TournamentStep::Check { .. } => {
                check_state(&self.t, step, fail, failures);
                ("check".into(), None)
            }
        }
    }

    fn play(&mut self, rounds: u32, seconds: u64, fail: Fail, failures: &mut Vec<String>) {
        let t = &mut self.t;
        for _ in 0..rounds {
            if t.players_left() < 2 {
                break;
            }
            if let Err(e) = t.play_round(seconds, &mut self.rng) {
                failures.push(fail(e.to_string()));
                break;
            }
            if t.chips_at_tables() != t.chips_in_play() {
                failures.push(fail(format!(
                    "{} chips at the tables, {} in play",
                    t.chips_at_tables(),
                    t.chips_in_play()
                )));
            }
        }
    }

    fn eliminate(
        &mut self,
        players: &[PlayerId],
        winner: PlayerId,
        places: &BTreeMap<String, Vec<(u32, u32)>>,
        fail: Fail,
        failures: &mut Vec<String>,
    ) {
        match self.t.eliminate(players, winner) {
            Ok(finishes) => {
                self.eliminations
                    .extend(players.iter().map(|&p| (p, winner)));
                if let Some(places) = for_ruleset(places, &self.id) {
                    let got: Vec<(u32, u32)> = players
                        .iter()
                        .filter_map(|p| finishes.iter().find(|f| f.player == *p))
                        .map(|f| (f.place, f.shared_through))
                        .collect();
                    if got != *places {
                        failures.push(fail(format!(
                            "places (place, shared through) {got:?}, expected {places:?}"
                        )));
                    }
                }
            }
            Err(e) => failures.push(fail(e.to_string())),
        }
    }

    fn eliminate_at(&mut self, table: u32, count: usize, fail: Fail, failures: &mut Vec<String>) {
        for _ in 0..count {
            let Some(tb) = self.t.tables.iter().find(|x| x.number == table) else {
                failures.push(fail(format!("no table {table}")));
                break;
            };
            let seated: Vec<PlayerId> = tb.seated().map(|(_, s)| s.player).collect();
            if seated.len() < 2 {
                failures.push(fail(format!("table {table} has fewer than two players")));
                break;
            }
            match self.t.eliminate(&seated[..1], seated[1]) {
                Ok(_) => self.eliminations.push((seated[0], seated[1])),
                Err(e) => failures.push(fail(e.to_string())),
            }
        }
    }

    /// A late entry; returns the runtime's refusal, if any.
    fn late_entry(
        &mut self,
        category: &str,
        fail: Fail,
        failures: &mut Vec<String>,
    ) -> Option<String> {
        let level = self.t.current_level();
        let player = match self.t.late_entry(category, &mut self.rng) {
            Ok(player) => player,
            Err(e) => return Some(e.to_string()),
        };
        if let Some(ledger) = self.ledger.as_mut() {
            let rules = self.rules.as_ref();
            let (paid, point) = if category == "reentry" {
                (
                    ledger.re_enter(rules, player, level, 0).cloned(),
                    "tournament.reentry",
                )
            } else {
                (
                    ledger.register(rules, player, level, true).cloned(),
                    "tournament.late_registration",
                )
            };
            self.t
                .note(purchase_ruling(&self.t, point, category, &paid));
            if let Err(e) = paid {
                failures.push(fail(format!("seated, but the money ledger refuses: {e}")));
            }
        }
        None
    }

    /// The chips in front of `player`, if he is seated.
    fn stack_of(&self, player: PlayerId) -> Chips {
        self.t
            .locate(player)
            .and_then(|(ti, s)| self.t.tables[ti].seats[s].as_ref())
            .map_or(0, |s| s.chips)
    }

    /// A stack given up for a new one; returns the runtime's refusal, if any.
    fn abandon_stack(
        &mut self,
        player: PlayerId,
        fail: Fail,
        failures: &mut Vec<String>,
    ) -> Option<String> {
        let level = self.t.current_level();
        let (stack_left, chips_before) = (self.stack_of(player), self.t.chips_in_play());
        if let Err(e) = self.t.abandon_stack(player, &mut self.rng) {
            return Some(e.to_string());
        }
        let starting = self.setup.starting_stack;
        let expected_chips = chips_before - stack_left + starting;
        if self.t.chips_in_play() != expected_chips {
            failures.push(fail(format!(
                "{} chips in play after giving up a stack of {stack_left}, expected {expected_chips}",
                self.t.chips_in_play()
            )));
        }
        if self.stack_of(player) != starting {
            failures.push(fail(format!(
                "the new stack is {}, not the starting stack {starting}",
                self.stack_of(player)
            )));
        }
        if let Some(ledger) = self.ledger.as_mut() {
            let paid = ledger
                .re_enter(self.rules.as_ref(), player, level, stack_left)
                .cloned();
            self.t.note(purchase_ruling(
                &self.t,
                "tournament.reentry",
                "reentry",
                &paid,
            ));
            if let Err(e) = paid {
                failures.push(fail(format!(
                    "re-seated, but the money ledger refuses: {e}"
                )));
            }
        }
        None
    }

    /// A purchase through the money ledger; returns its refusal, if any.
    fn buy(
        &mut self,
        player: PlayerId,
        purchase: Purchase,
        in_action: bool,
        receipt: &BTreeMap<String, (u64, u64, u64, u64, u64, Chips)>,
        fail: Fail,
        failures: &mut Vec<String>,
    ) -> Option<String> {
        let level = self.t.current_level();
        let stack = self.stack_of(player);
        let entries = self.t.entries();
        let rules = self.rules.as_ref();
        let Some(ledger) = self.ledger.as_mut() else {
            return Some("a purchase needs the scenario's `money` terms".to_string());
        };
        let (point, paid) = match purchase {
            Purchase::Rebuy | Purchase::AddOn => (
                // The point that rules: a freeze-out's or a knockout's own refusal (§3.1.1,
                // §3.1.3.2), else the rebuy and add-on terms.
                match ledger.terms.modality {
                    Money::FreezeOut => "tournament.modality.freeze_out",
                    Money::KnockoutBounty => "tournament.modality.knockout_bounty",
                    _ => "tournament.modality.rebuy_addon",
                },
                ledger
                    .rebuy(rules, player, level, purchase == Purchase::AddOn)
                    .cloned(),
            ),
            Purchase::Xtrastack => (
                "tournament.xtrastack",
                ledger
                    .xtrastack(rules, player, level, stack, in_action)
                    .cloned(),
            ),
            Purchase::DayTwo(option) => (
                "tournament.modality.multistack",
                ledger.day_two_entry(rules, entries + 1, option).cloned(),
            ),
        };
        self.t.note(purchase_ruling(
            &self.t,
            point,
            &format!("{purchase:?}"),
            &paid,
        ));
        let r = match paid {
            Ok(r) => r,
            Err(e) => return Some(e.to_string()),
        };
        let chips = match purchase {
            Purchase::DayTwo(_) => self
                .t
                .entry_with_stack("day_two_entry", r.chips, &mut self.rng)
                .err(),
            _ => self.t.add_chips(player, r.chips).err(),
        };
        if let Some(e) = chips {
            failures.push(fail(e.to_string()));
        }
        if let Some(want) = for_ruleset(receipt, &self.id) {
            let got = (r.paid, r.fee, r.to_pool, r.bounty, r.to_fund, r.chips);
            if got != *want {
                failures.push(fail(format!(
                    "receipt (paid, fee, to_pool, bounty, to_fund, chips) {got:?}, expected {want:?}"
                )));
            }
        }
        None
    }

    /// A rebuy declared before the hand: carried out by the runtime as
    /// `tournament.rebuy.declaration` rules, then paid through the ledger where the scenario
    /// has money (a declaration the text leaves to the floor buys nothing).
    fn declare_rebuy(
        &mut self,
        player: PlayerId,
        stacks: &BTreeMap<String, (Chips, Chips)>,
        fail: Fail,
        failures: &mut Vec<String>,
    ) {
        let level = self.t.current_level();
        let chips = self
            .ledger
            .as_ref()
            .map_or(self.setup.starting_stack, |l| l.terms.starting_stack);
        if let Err(e) = self.t.declare_rebuy(player, chips) {
            failures.push(fail(e.to_string()));
            return;
        }
        if let Some(ledger) = self.ledger.as_mut() {
            let paid = ledger
                .rebuy(self.rules.as_ref(), player, level, false)
                .cloned();
            self.t.note(purchase_ruling(
                &self.t,
                "tournament.modality.rebuy_addon",
                "Rebuy",
                &paid,
            ));
            if let Err(e) = paid {
                failures.push(fail(format!(
                    "carried out, but the money ledger refuses: {e}"
                )));
            }
        }
        if let Some(want) = for_ruleset(stacks, &self.id) {
            let got = (self.stack_of(player), self.t.held_rebuy(player));
            if got != *want {
                failures.push(fail(format!(
                    "player {player} has (stack, held) {got:?}, expected {want:?}"
                )));
            }
        }
    }

    /// Draws up the result and checks it.
    fn result(
        &mut self,
        chop: Option<&ChopAgreed>,
        expect: &BTreeMap<String, ResultExpect>,
        fail: Fail,
        failures: &mut Vec<String>,
    ) {
        let Some(ledger) = self.ledger.as_ref() else {
            failures.push(fail("a result needs the scenario's `money` terms".into()));
            return;
        };
        let outcome = MoneyOutcome {
            places: finishing_order(&self.t),
            eliminations: self.eliminations.clone(),
            six_max: self.setup.format == "6-max",
            chop: chop.map(|c| Chop {
                amounts: c.amounts.clone(),
                final_table: self.t.tables.iter().filter(|x| x.players() > 0).count() == 1,
            }),
        };
        let got = result::audit_under(self.rules.as_ref(), ledger, &outcome);
        if let Err(ResultError::ChopRefused { why, citation }) = &got {
            self.t
                .note(chop_ruling(&self.t, "refused", why.clone(), citation));
        }
        match &got {
            Ok(r) => {
                self.out.log.push(format!(
                    "result: paid in {}, fee {}, prize pool {}, fund {}; payouts {:?} [{}]; balanced {}",
                    r.paid_in.value,
                    r.fee.value,
                    r.prize_pool.value,
                    r.xtrastack_fund.value,
                    r.payouts.iter().map(|p| (p.player, p.amount)).collect::<Vec<_>>(),
                    r.payouts_citation,
                    r.conservation.balanced
                ));
                let point = match ledger.terms.modality {
                    Money::Satellite { .. } => "tournament.modality.satellite",
                    Money::Survivor => "tournament.modality.survivor",
                    _ => "tournament.payout_table",
                };
                if let (Some(c), Some(citation)) = (chop, &r.chop_citation) {
                    let text = format!(
                        "a chop among the first {} players agreed: {:?}",
                        c.amounts.len(),
                        c.amounts
                    );
                    self.t.note(chop_ruling(&self.t, "allowed", text, citation));
                }
                for ruling in result_rulings(&self.t, r, point) {
                    self.t.note(ruling);
                }
            }
            Err(e) => self.out.log.push(format!("result refused: {e}")),
        }
        if let Some(want) = for_ruleset(expect, &self.id) {
            check_result(&want, &got, failures, fail);
        }
    }

    /// A player in the wrong seat; returns what the step was, in words.
    fn wrong_seat(
        &mut self,
        player: PlayerId,
        table: u32,
        seat: Option<usize>,
        fail: Fail,
        failures: &mut Vec<String>,
    ) -> String {
        let seat = seat.unwrap_or_else(|| {
            self.t
                .tables
                .iter()
                .find(|x| x.number == table)
                .and_then(|x| x.empty_seats().first().copied())
                .map_or(0, |s| s + 1)
        });
        match self.t.wrong_seat(player, table, seat.saturating_sub(1)) {
            Ok(r) if r.outcome == "moved_to_assigned_seat" => {
                let t = &self.t;
                let at = t.locate(player).map(|(ti, s)| (t.tables[ti].number, s + 1));
                if at != Some((table, seat)) {
                    failures.push(fail(format!(
                        "player {player} is at {at:?}, not table {table} seat {seat}"
                    )));
                }
            }
            Ok(_) => {}
            Err(e) => failures.push(fail(e.to_string())),
        }
        format!("player {player} in the wrong seat (assigned {table}/{seat})")
    }

    fn color_up(
        &mut self,
        retire: Chips,
        into: Chips,
        chips_awarded: Option<u32>,
        fail: Fail,
        failures: &mut Vec<String>,
    ) {
        let races = self.t.color_up(retire, into, &mut self.rng);
        let awarded: u32 = races.iter().map(|r| r.1.chips_awarded).sum();
        for (table, race) in &races {
            self.out.log.push(format!(
                "table {table} race: {}",
                race.lines
                    .iter()
                    .filter(|l| l.odd > 0)
                    .map(|l| format!(
                        "player {} ({} odd, cards {}){}",
                        l.player,
                        l.odd,
                        l.cards.join(" "),
                        if l.won {
                            " wins a chip"
                        } else if l.saved {
                            " saved with one chip"
                        } else {
                            ""
                        }
                    ))
                    .collect::<Vec<_>>()
                    .join("; ")
            ));
        }
        if let Some(n) = chips_awarded {
            if awarded != n {
                failures.push(fail(format!("the race gave {awarded} chips, expected {n}")));
            }
        }
        if self
            .t
            .tables
            .iter()
            .flat_map(|x| x.seated())
            .any(|(_, s)| s.chips == 0)
        {
            failures.push(fail("a player was eliminated by the race".into()));
        }
    }
}

/// Whether the step compares the tournament's state with what the scenario expects under
/// ruleset `id`: the tables, players and chips (`Check`), the tables that stop, the places
/// given, a receipt, the chips a race gave, the stack given up at a re-entry, the result.
fn asserts_state(step: &TournamentStep, id: &str) -> bool {
    match step {
        TournamentStep::Check { .. } | TournamentStep::StopCheck { .. } => true,
        TournamentStep::AbandonStack { refused, .. } => for_ruleset(refused, id).is_none(),
        TournamentStep::Eliminate { places, .. } => for_ruleset(places, id).is_some(),
        TournamentStep::Buy { receipt, .. } => for_ruleset(receipt, id).is_some(),
        TournamentStep::ColorUp { chips_awarded, .. } => chips_awarded.is_some(),
        TournamentStep::Result { expect, .. } => for_ruleset(expect, id).is_some(),
        TournamentStep::DeclareRebuy { stacks, .. } => for_ruleset(stacks, id).is_some(),
        TournamentStep::Play { .. }
        | TournamentStep::EliminateAt { .. }
        | TournamentStep::Balance { .. }
        | TournamentStep::Elapse { .. }
        | TournamentStep::LateEntry { .. }
        | TournamentStep::Absent { .. }
        | TournamentStep::WrongSeat { .. } => false,
    }
}

fn describe(step: &TournamentStep) -> &'static str {
    match step {
        TournamentStep::Play { .. } => "Play",
        TournamentStep::Eliminate { .. } => "Eliminate",
        TournamentStep::EliminateAt { .. } => "EliminateAt",
        TournamentStep::Balance { .. } => "Balance",
        TournamentStep::StopCheck { .. } => "StopCheck",
        TournamentStep::Elapse { .. } => "Elapse",
        TournamentStep::LateEntry { .. } => "LateEntry",
        TournamentStep::AbandonStack { .. } => "AbandonStack",
        TournamentStep::Buy { .. } => "Buy",
        TournamentStep::Absent { .. } => "Absent",
        TournamentStep::DeclareRebuy { .. } => "DeclareRebuy",
        TournamentStep::Result { .. } => "Result",
        TournamentStep::WrongSeat { .. } => "WrongSeat",
        TournamentStep::ColorUp { .. } => "ColorUp",
        TournamentStep::Check { .. } => "Check",
    }
}

/// Adds one step result per ruling the step made (so `floor compare` can measure the
/// decisions on them), checks the step's expected rulings, and returns how many rulings
/// there are now.
fn record(
    out: &mut Outcome,
    number: usize,
    what: &str,
    t: &Tournament,
    from: usize,
    expected: Option<&Expected>,
    id: &str,
) -> usize {
    let new: &[EventRuling] = &t.rulings()[from..];
    if new.is_empty() {
        out.steps.push(StepResult::new(number, what));
    }
    for r in new {
        out.steps.push(StepResult {
            ruling: Some(r.clone()),
            points: vec![r.point.clone()],
            ..StepResult::new(number, format!("{what}: {}", r.point))
        });
    }
    if let Some(wants) = expected.and_then(|e| for_ruleset(e, id)) {
        for want in wants.iter() {
            let candidates: Vec<&EventRuling> = new
                .iter()
                .filter(|r| want.point.as_ref().is_none_or(|p| &r.point == p))
                .collect();
            let mut best: Option<Vec<String>> = None;
            for r in &candidates {
                let mut f = Vec::new();
                check(number, r, want, &mut f);
                if f.is_empty() {
                    best = Some(Vec::new());
                    break;
                }
                if best.as_ref().is_none_or(|b| f.len() < b.len()) {
                    best = Some(f);
                }
            }
            match best {
                Some(f) => out.failures.extend(f),
                None => out.failures.push(format!(
                    "step {number}: no ruling at `{}` (rulings: {})",
                    want.point.as_deref().unwrap_or("any point"),
                    new.iter()
                        .map(|r| r.point.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                )),
            }
        }
    }
    t.rulings().len()
}
