//! Tournament scenarios: a tournament set up (entries, seats per table, stack, levels,
//! modality) and a sequence of steps — hands played at random, eliminations, table breaking
//! and balancing, the clock, late entries, colour-ups — with the rulings and the state
//! expected under each ruleset. `floor scenario` and `floor test` run them like any scenario;
//! the format is documented in `rulesets/README.md`.

use super::format::{Expect, Scenario};
use super::keys::for_ruleset;
use super::run::{check, Outcome, StepResult};
use crate::events::EventRuling;
use crate::rules::Citation;
use crate::rules::Rules;
use crate::tournament::entries::{Ledger, Receipt, Refused, Terms};
use crate::tournament::result::{self, Outcome as MoneyOutcome, TournamentResult};
use crate::tournament::runtime::{EntryWindows, Game, Setup, Tournament};
use crate::tournament::seating::PlayerId;
use crate::tournament::structure::{Break, Level, Modality, Structure};
use crate::Chips;
use rand::SeedableRng;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::sync::Arc;

fn nine() -> usize {
    9
}

fn full_ring() -> String {
    "full_ring".into()
}

fn one() -> u32 {
    1
}

/// A tournament scenario's set-up and steps (the `tournament` field of a scenario).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TournamentScenario {
    /// Players registered at the start (entry numbers 1..=entries).
    pub entries: usize,
    /// Seats per table (default 9).
    #[serde(default = "nine")]
    pub seats_per_table: usize,
    /// The starting stack.
    pub starting_stack: Chips,
    /// The levels.
    pub levels: Vec<Level>,
    /// The breaks.
    #[serde(default)]
    pub breaks: Vec<Break>,
    /// The modality (`standard`, `win_the_button`, `ante_up`, `escalator`,
    /// `sit_and_go_6_max`, `sit_and_go_10_handed`).
    #[serde(default)]
    pub modality: Modality,
    /// The format decisions read (`full_ring` by default, `6-max`...).
    #[serde(default = "full_ring")]
    pub format: String,
    /// Places paid.
    #[serde(default)]
    pub paid_places: u32,
    /// The seed of every random draw (seats, buttons, cards, the race).
    #[serde(default)]
    pub seed: u64,
    /// The money: the announced terms (modality, buy-in and fee, rebuys, add-on, bounty,
    /// Xtrastack, day-2 options, the late-registration window, re-entries). With it every
    /// entry at the start is paid, purchases (`Buy`, `LateEntry`) go through the money ledger,
    /// and `Result` draws up the prizes, bounties and ranking points.
    #[serde(default)]
    pub money: Option<Terms>,
    /// The late-registration and re-entry windows announced (default: the money terms'
    /// window and re-entries, if money is given; otherwise none, and entries are not checked).
    #[serde(default)]
    pub windows: Option<EntryWindows>,
    /// The game, as balancing reads it: `flop` (default), `stud`, `mixed_flop_level`,
    /// `mixed_stud_level`.
    #[serde(default)]
    pub game: Game,
    /// What happens, in order.
    pub steps: Vec<TournamentStep>,
}

/// Rulings a step must make, by ruleset id (`"*"`: any): each one must match some ruling of
/// the step.
pub type Expected = BTreeMap<String, Vec<Expect>>;

/// One step of a tournament scenario.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum TournamentStep {
    /// Plays `rounds` rounds (one hand at every table that is not stopped) with random legal
    /// play, each hand taking `seconds_per_hand` of the clock.
    Play {
        /// Rounds to play.
        #[serde(default = "one")]
        rounds: u32,
        /// Clock seconds each round takes.
        #[serde(default)]
        seconds_per_hand: u64,
        /// Rulings expected.
        #[serde(default)]
        expect: Expected,
    },
    /// Eliminates `players` in one hand, their chips going to `winner`.
    Eliminate {
        /// Who goes out.
        players: Vec<PlayerId>,
        /// Who takes their chips.
        winner: PlayerId,
        /// The `(place, shared_through)` of each eliminated player, in the order given, by
        /// ruleset id (`"*"`: any).
        #[serde(default)]
        places: BTreeMap<String, Vec<(u32, u32)>>,
        /// Rulings expected.
        #[serde(default)]
        expect: Expected,
    },
    /// Eliminates the first `count` players (by seat) of table `table`, one hand each, their
    /// chips going to the next player at that table.
    EliminateAt {
        /// The table's number.
        table: u32,
        /// How many go out.
        count: usize,
    },
    /// Breaks and balances tables, or forms the final table.
    Balance {
        /// Rulings expected.
        #[serde(default)]
        expect: Expected,
    },
    /// Asks which tables must stop because they are short.
    StopCheck {
        /// The table numbers that must stop.
        stopped: Vec<u32>,
        /// Rulings expected.
        #[serde(default)]
        expect: Expected,
    },
    /// Lets `seconds` pass with no hand in play.
    Elapse {
        /// Seconds.
        seconds: u64,
        /// Rulings expected.
        #[serde(default)]
        expect: Expected,
    },
    /// A late entrant or re-entry (`category`: `late_registrant`, `reentry`, `alternate`),
    /// refused outside the windows announced; with money, paid through the ledger.
    LateEntry {
        /// The category.
        category: String,
        /// Rulings expected.
        #[serde(default)]
        expect: Expected,
        /// The entry must be refused, with these words, by ruleset id (`"*"`: any).
        #[serde(default)]
        refused: BTreeMap<String, String>,
    },
    /// A seated `player` gives up his stack and buys a new one (pt-tournament Art. 7º(2),
    /// ao-tournament-2025 Art. 8(2)): refused outside the re-entries announced; allowed, the
    /// chips in play drop by exactly the stack given up and he holds a full starting stack at
    /// a new random seat (the step checks both); with money, paid through the ledger.
    AbandonStack {
        /// The player.
        player: PlayerId,
        /// Rulings expected.
        #[serde(default)]
        expect: Expected,
        /// The re-entry must be refused, with these words, by ruleset id (`"*"`: any).
        #[serde(default)]
        refused: BTreeMap<String, String>,
    },
    /// A purchase by `player`: a rebuy, the add-on, an Xtrastack (his chips grow), or a
    /// Multistack day-2 direct entry (`DayTwo(option)`, from 0: a new entry with that
    /// option's stack; `player` is then not read).
    Buy {
        /// Who buys.
        #[serde(default)]
        player: PlayerId,
        /// What.
        purchase: Purchase,
        /// Whether the player is in a hand (an Xtrastack may not be bought in action).
        #[serde(default)]
        in_action: bool,
        /// The receipt expected, by ruleset id: `(paid, fee, to_pool, bounty, to_fund, chips)`.
        #[serde(default)]
        receipt: BTreeMap<String, (u64, u64, u64, u64, u64, Chips)>,
        /// Rulings expected.
        #[serde(default)]
        expect: Expected,
        /// The purchase must be refused, with these words, by ruleset id (`"*"`: any).
        #[serde(default)]
        refused: BTreeMap<String, String>,
    },
    /// Marks a player absent from his seat (`absent: false`: back).
    Absent {
        /// The player.
        player: PlayerId,
        /// Absent (default) or back.
        #[serde(default = "yes")]
        absent: bool,
    },
    /// Draws up the result (needs `money`): places (players still in ranked by chips, then
    /// the eliminated by place), the prize list, bounties, ranking points and the money
    /// check, with what is expected by ruleset id.
    Result {
        /// Expected, by ruleset id (`"*"`: any).
        #[serde(default)]
        expect: BTreeMap<String, ResultExpect>,
    },
    /// A player found in the wrong seat; his assigned table and seat (from 1).
    WrongSeat {
        /// The player.
        player: PlayerId,
        /// His assigned table.
        table: u32,
        /// His assigned seat, from 1 (default: the table's first empty seat).
        #[serde(default)]
        seat: Option<usize>,
        /// Rulings expected.
        #[serde(default)]
        expect: Expected,
    },
    /// A colour-up of `retire` chips into `into` chips, with a chip race at every table.
    ColorUp {
        /// The chip retired.
        retire: Chips,
        /// The chip raced for.
        into: Chips,
        /// New chips the race gives, over all tables.
        #[serde(default)]
        chips_awarded: Option<u32>,
        /// Rulings expected.
        #[serde(default)]
        expect: Expected,
    },
    /// Checks the state. Every field given must match.
    Check {
        /// Players per table, in table-number order.
        #[serde(default)]
        tables: Option<Vec<usize>>,
        /// Players left.
        #[serde(default)]
        players_left: Option<u32>,
        /// The level a hand dealt now is played at, from 1.
        #[serde(default)]
        level: Option<usize>,
        /// Whether hand-for-hand is on.
        #[serde(default)]
        hand_for_hand: Option<bool>,
        /// The chips in play (and at the tables).
        #[serde(default)]
        chips: Option<Chips>,
        /// Whether one player has every chip.
        #[serde(default)]
        finished: Option<bool>,
        /// Whether the clock is on a break.
        #[serde(default)]
        on_break: Option<bool>,
        /// Hands dealt so far over all tables.
        #[serde(default)]
        hands: Option<u64>,
    },
}

fn yes() -> bool {
    true
}

/// A purchase in a tournament scenario.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Purchase {
    /// A rebuy (the starting stack).
    Rebuy,
    /// The add-on.
    AddOn,
    /// An Xtrastack.
    Xtrastack,
    /// A Multistack day-2 direct entry with stack option N (from 0).
    DayTwo(usize),
}

/// What a tournament's result must show. Every field given must match.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ResultExpect {
    /// Everything paid in, in cents.
    #[serde(default)]
    pub paid_in: Option<u64>,
    /// The house's fee.
    #[serde(default)]
    pub fee: Option<u64>,
    /// The prize pool.
    #[serde(default)]
    pub prize_pool: Option<u64>,
    /// The Xtrastack fund.
    #[serde(default)]
    pub xtrastack_fund: Option<u64>,
    /// The finishing order, winner first.
    #[serde(default)]
    pub places: Option<Vec<PlayerId>>,
    /// The prize list in place order: `(player, amount)`.
    #[serde(default)]
    pub payouts: Option<Vec<(PlayerId, u64)>>,
    /// The form of each prize (`cash`, `seat`, `chop`).
    #[serde(default)]
    pub forms: Option<Vec<String>>,
    /// Words the payout list's citation must contain.
    #[serde(default)]
    pub payouts_citation: Option<String>,
    /// Bounties paid: `(eliminated, eliminator, amount)`.
    #[serde(default)]
    pub bounties: Option<Vec<(PlayerId, PlayerId, u64)>>,
    /// Words every bounty's citation must contain.
    #[serde(default)]
    pub bounty_citation: Option<String>,
    /// Ranking points: `(player, points)`, in place order.
    #[serde(default)]
    pub ranking: Option<Vec<(PlayerId, u64)>>,
    /// Words every ranking line's citation must contain.
    #[serde(default)]
    pub ranking_citation: Option<String>,
    /// Whether paid in = fee + prizes + bounties + fund.
    #[serde(default)]
    pub balanced: Option<bool>,
    /// The result cannot be drawn up: words of the error.
    #[serde(default)]
    pub refused: Option<String>,
}

/// A citation as a ruling carries it, from the text a ledger or a result gives.
fn citation_of(text: &str) -> Citation {
    let not = Citation::NotRegulated.to_string();
    if text.is_empty() || text.starts_with(&not) {
        Citation::NotRegulated
    } else {
        Citation::Article(text.into())
    }
}

/// The ruling a purchase made, for the tournament's record.
fn purchase_ruling(
    t: &Tournament,
    point: &str,
    what: &str,
    done: &Result<Receipt, Refused>,
) -> EventRuling {
    let mut fields = BTreeMap::new();
    let (outcome, citation, text) = match done {
        Ok(r) => {
            for (k, v) in [
                ("player", u64::from(r.player)),
                ("level", u64::from(r.level)),
                ("paid", r.paid),
                ("fee", r.fee),
                ("to_pool", r.to_pool),
                ("bounty", r.bounty),
                ("to_fund", r.to_fund),
                ("chips", r.chips),
            ] {
                fields.insert(k.to_string(), v.to_string());
            }
            (
                "allowed",
                r.citation.clone(),
                format!(
                    "{what} by player {}: {} paid, {} fee, {} to the prize pool, {} bounty, {} to the Xtrastack fund; {} chips",
                    r.player, r.paid, r.fee, r.to_pool, r.bounty, r.to_fund, r.chips
                ),
            )
        }
        Err(e) => (
            "refused",
            e.citation.clone(),
            format!("{}: {}", e.what, e.why),
        ),
    };
    EventRuling {
        point: point.to_string(),
        ruleset: t.rules().ruleset().clone(),
        citation: citation_of(&citation),
        outcome: outcome.into(),
        fields,
        text,
    }
}

/// Checks a refusal (or an acceptance) against the words expected for this ruleset.
fn check_refusal(
    refused: &BTreeMap<String, String>,
    id: &str,
    error: Option<String>,
    failures: &mut Vec<String>,
    fail: &dyn Fn(String) -> String,
) {
    let want = for_ruleset(refused, id);
    match (want, error) {
        (None, None) => {}
        (Some(words), Some(e)) if e.contains(words.as_str()) => {}
        (Some(words), Some(e)) => failures.push(fail(format!(
            "refused with `{e}`, expected the words `{words}`"
        ))),
        (Some(words), None) => failures.push(fail(format!(
            "expected to be refused (`{words}`), but it was allowed"
        ))),
        (None, Some(e)) => failures.push(fail(format!("refused: {e}"))),
    }
}

/// The finishing order: players still in ranked by chips (Solverde §3.1.9's Survivor ranks
/// by chip count; for a result drawn before the end the same order is used), then the
/// eliminated by place.
fn finishing_order(t: &Tournament) -> Vec<PlayerId> {
    let mut seated: Vec<(Chips, PlayerId)> = t
        .tables
        .iter()
        .flat_map(|x| x.seated().map(|(_, s)| (s.chips, s.player)))
        .collect();
    seated.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    let mut order: Vec<PlayerId> = seated.iter().map(|s| s.1).collect();
    let mut out: Vec<(u32, PlayerId)> = t
        .finishes
        .iter()
        .filter(|f| !order.contains(&f.player))
        .map(|f| (f.place, f.player))
        .collect();
    out.sort();
    order.extend(out.into_iter().map(|f| f.1));
    order
}

fn check_result(
    want: &ResultExpect,
    got: &Result<TournamentResult, result::ResultError>,
    failures: &mut Vec<String>,
    fail: &dyn Fn(String) -> String,
) {
    let r = match (got, &want.refused) {
        (Err(e), Some(words)) if e.to_string().contains(words.as_str()) => return,
        (Err(e), _) => {
            failures.push(fail(format!("no result: {e}")));
            return;
        }
        (Ok(_), Some(words)) => {
            failures.push(fail(format!(
                "the result was expected to be refused (`{words}`)"
            )));
            return;
        }
        (Ok(r), None) => r,
    };
    let mut eq = |name: &str, got: String, want: Option<String>| {
        if let Some(want) = want {
            if got != want {
                failures.push(fail(format!("{name} {got}, expected {want}")));
            }
        }
    };
    eq(
        "paid in",
        r.paid_in.value.to_string(),
        want.paid_in.map(|v| v.to_string()),
    );
    eq(
        "fee",
        r.fee.value.to_string(),
        want.fee.map(|v| v.to_string()),
    );
    eq(
        "prize pool",
        r.prize_pool.value.to_string(),
        want.prize_pool.map(|v| v.to_string()),
    );
    eq(
        "Xtrastack fund",
        r.xtrastack_fund.value.to_string(),
        want.xtrastack_fund.map(|v| v.to_string()),
    );
    eq(
        "places",
        format!("{:?}", r.places),
        want.places.as_ref().map(|v| format!("{v:?}")),
    );
    let payouts: Vec<(PlayerId, u64)> = r.payouts.iter().map(|p| (p.player, p.amount)).collect();
    eq(
        "payouts (player, amount)",
        format!("{payouts:?}"),
        want.payouts.as_ref().map(|v| format!("{v:?}")),
    );
    let forms: Vec<&str> = r.payouts.iter().map(|p| p.form.as_str()).collect();
    eq(
        "forms",
        format!("{forms:?}"),
        want.forms.as_ref().map(|v| format!("{v:?}")),
    );
    let bounties: Vec<(PlayerId, PlayerId, u64)> = r
        .bounties
        .iter()
        .map(|b| (b.eliminated, b.eliminator, b.amount))
        .collect();
    eq(
        "bounties (eliminated, eliminator, amount)",
        format!("{bounties:?}"),
        want.bounties.as_ref().map(|v| format!("{v:?}")),
    );
    let ranking: Vec<(PlayerId, u64)> = r.ranking.iter().map(|p| (p.player, p.points)).collect();
    eq(
        "ranking (player, points)",
        format!("{ranking:?}"),
        want.ranking.as_ref().map(|v| format!("{v:?}")),
    );
    eq(
        "balanced",
        r.conservation.balanced.to_string(),
        want.balanced.map(|v| v.to_string()),
    );
    if let Some(words) = &want.payouts_citation {
        if !r.payouts_citation.contains(words.as_str()) {
            failures.push(fail(format!(
                "the payout list cites `{}`, expected `{words}`",
                r.payouts_citation
            )));
        }
    }
    if let Some(words) = &want.bounty_citation {
        for b in r
            .bounties
            .iter()
            .filter(|b| !b.citation.contains(words.as_str()))
        {
            failures.push(fail(format!(
                "a bounty cites `{}`, expected `{words}`",
                b.citation
            )));
        }
    }
    if let Some(words) = &want.ranking_citation {
        for p in r
            .ranking
            .iter()
            .filter(|p| !p.citation.contains(words.as_str()))
        {
            failures.push(fail(format!(
                "ranking points cite `{}`, expected `{words}`",
                p.citation
            )));
        }
    }
}

/// The rulings a result makes, for the tournament's record (and `floor compare`).
fn result_rulings(t: &Tournament, r: &TournamentResult, point: &str) -> Vec<EventRuling> {
    let ruleset = t.rules().ruleset().clone();
    let mut out = Vec::new();
    for p in &r.payouts {
        out.push(EventRuling {
            point: point.to_string(),
            ruleset: ruleset.clone(),
            citation: citation_of(&r.payouts_citation),
            outcome: p.form.clone(),
            fields: [
                ("place".to_string(), p.place.to_string()),
                ("player".to_string(), p.player.to_string()),
                ("amount".to_string(), p.amount.to_string()),
            ]
            .into_iter()
            .collect(),
            text: format!(
                "place {}: player {} is paid {} ({})",
                p.place, p.player, p.amount, p.form
            ),
        });
    }
    for b in &r.bounties {
        out.push(EventRuling {
            point: "tournament.modality.knockout_bounty".into(),
            ruleset: ruleset.clone(),
            citation: citation_of(&b.citation),
            outcome: "bounty_paid".into(),
            fields: [
                ("eliminated".to_string(), b.eliminated.to_string()),
                ("eliminator".to_string(), b.eliminator.to_string()),
                ("amount".to_string(), b.amount.to_string()),
            ]
            .into_iter()
            .collect(),
            text: format!(
                "player {}'s bounty of {} to player {} ({}), outside the prize pool",
                b.eliminated, b.amount, b.eliminator, b.form
            ),
        });
    }
    for p in &r.ranking {
        out.push(EventRuling {
            point: "ranking.points".into(),
            ruleset: ruleset.clone(),
            citation: citation_of(&p.citation),
            outcome: "points".into(),
            fields: [
                ("player".to_string(), p.player.to_string()),
                ("points".to_string(), p.points.to_string()),
            ]
            .into_iter()
            .collect(),
            text: format!("player {}: {} ranking points", p.player, p.points),
        });
    }
    out
}

/// Runs a tournament scenario under `rules`.
pub fn run(scenario: &Scenario, setup: &TournamentScenario, rules: Arc<dyn Rules>) -> Outcome {
    let id = rules.ruleset().id.to_string();
    let mut out = Outcome::new(&id);
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(setup.seed);
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
            return out;
        }
        (Err(e), Some(words)) if e.to_string().contains(words.as_str()) => {
            out.log.push(format!("refused: {e}"));
            return out;
        }
        (Err(e), _) => {
            out.refuse_set_up("tournament refused", e.to_string());
            return out;
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
    let rules_in_force = t.rules().clone();
    let mut ledger = setup
        .money
        .clone()
        .map(|terms| Ledger::under_rules(terms, rules_in_force.as_ref()));
    if let Some(ledger) = ledger.as_mut() {
        for p in 1..=setup.entries as u32 {
            if let Err(e) = ledger.register(rules_in_force.as_ref(), p, 1, false) {
                out.failures.push(format!("entry {p}: {e}"));
            }
        }
    }
    let mut eliminations: Vec<(PlayerId, PlayerId)> = Vec::new();
    // The set-up's own rulings (the draw, a Sit&Go start) go to the log only: every scenario
    // makes them, and as probes for `floor compare` they would say nothing.
    let mut seen = t.rulings().len();
    for (i, step) in setup.steps.iter().enumerate() {
        let number = i + 1;
        let before = seen;
        let what: String;
        let mut expected: Option<&Expected> = None;
        let fail = |m: String| format!("step {number} ({}): {m}", describe(step));
        let mut failures: Vec<String> = Vec::new();
        match step {
            TournamentStep::Play {
                rounds,
                seconds_per_hand,
                expect,
            } => {
                what = format!("play {rounds} round(s)");
                expected = Some(expect);
                for _ in 0..*rounds {
                    if t.players_left() < 2 {
                        break;
                    }
                    if let Err(e) = t.play_round(*seconds_per_hand, &mut rng) {
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
            TournamentStep::Eliminate {
                players,
                winner,
                places,
                expect,
            } => {
                what = format!("players {players:?} out, chips to {winner}");
                expected = Some(expect);
                match t.eliminate(players, *winner) {
                    Ok(finishes) => {
                        eliminations.extend(players.iter().map(|&p| (p, *winner)));
                        if let Some(places) = for_ruleset(places, &id) {
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
            TournamentStep::EliminateAt { table, count } => {
                what = format!("{count} out at table {table}");
                for _ in 0..*count {
                    let Some(tb) = t.tables.iter().find(|x| x.number == *table) else {
                        failures.push(fail(format!("no table {table}")));
                        break;
                    };
                    let seated: Vec<PlayerId> = tb.seated().map(|(_, s)| s.player).collect();
                    if seated.len() < 2 {
                        failures.push(fail(format!("table {table} has fewer than two players")));
                        break;
                    }
                    match t.eliminate(&seated[..1], seated[1]) {
                        Ok(_) => eliminations.push((seated[0], seated[1])),
                        Err(e) => failures.push(fail(e.to_string())),
                    }
                }
            }
            TournamentStep::Balance { expect } => {
                what = "balance".into();
                expected = Some(expect);
                t.balance(&mut rng);
            }
            TournamentStep::StopCheck { stopped, expect } => {
                what = "which tables stop".into();
                expected = Some(expect);
                let got = t.stopped_tables();
                if &got != stopped {
                    failures.push(fail(format!("tables {got:?} stop, expected {stopped:?}")));
                }
            }
            TournamentStep::Elapse { seconds, expect } => {
                what = format!("{seconds} s pass");
                expected = Some(expect);
                t.elapse(*seconds);
            }
            TournamentStep::LateEntry {
                category,
                expect,
                refused,
            } => {
                what = format!("a {category} enters");
                expected = Some(expect);
                let level = t.current_level();
                let error = match t.late_entry(category, &mut rng) {
                    Ok(player) => {
                        if let Some(ledger) = ledger.as_mut() {
                            let rules = rules_in_force.as_ref();
                            let paid = if category == "reentry" {
                                ledger.re_enter(rules, player, level, 0).cloned()
                            } else {
                                ledger.register(rules, player, level, true).cloned()
                            };
                            let point = if category == "reentry" {
                                "tournament.reentry"
                            } else {
                                "tournament.late_registration"
                            };
                            t.note(purchase_ruling(&t, point, category, &paid));
                            if let Err(e) = paid {
                                failures.push(fail(format!(
                                    "seated, but the money ledger refuses: {e}"
                                )));
                            }
                        }
                        None
                    }
                    Err(e) => Some(e.to_string()),
                };
                check_refusal(refused, &id, error, &mut failures, &fail);
            }
            TournamentStep::AbandonStack {
                player,
                expect,
                refused,
            } => {
                what = format!("player {player} gives up his stack and re-enters");
                expected = Some(expect);
                let level = t.current_level();
                let stack_of = |t: &Tournament| {
                    t.locate(*player)
                        .and_then(|(ti, s)| t.tables[ti].seats[s].as_ref())
                        .map_or(0, |s| s.chips)
                };
                let (stack_left, chips_before) = (stack_of(&t), t.chips_in_play());
                let error = match t.abandon_stack(*player, &mut rng) {
                    Ok(_) => {
                        let starting = setup.starting_stack;
                        let expected_chips = chips_before - stack_left + starting;
                        if t.chips_in_play() != expected_chips {
                            failures.push(fail(format!(
                                "{} chips in play after giving up a stack of {stack_left}, expected {expected_chips}",
                                t.chips_in_play()
                            )));
                        }
                        if stack_of(&t) != starting {
                            failures.push(fail(format!(
                                "the new stack is {}, not the starting stack {starting}",
                                stack_of(&t)
                            )));
                        }
                        if let Some(ledger) = ledger.as_mut() {
                            let rules = rules_in_force.as_ref();
                            let paid = ledger.re_enter(rules, *player, level, stack_left).cloned();
                            t.note(purchase_ruling(&t, "tournament.reentry", "reentry", &paid));
                            if let Err(e) = paid {
                                failures.push(fail(format!(
                                    "re-seated, but the money ledger refuses: {e}"
                                )));
                            }
                        }
                        None
                    }
                    Err(e) => Some(e.to_string()),
                };
                check_refusal(refused, &id, error, &mut failures, &fail);
            }
            TournamentStep::Buy {
                player,
                purchase,
                in_action,
                receipt,
                expect,
                refused,
            } => {
                what = format!("{purchase:?} bought");
                expected = Some(expect);
                let level = t.current_level();
                let rules = rules_in_force.clone();
                let error = match ledger.as_mut() {
                    None => Some("a purchase needs the scenario's `money` terms".to_string()),
                    Some(ledger) => {
                        let stack = t
                            .locate(*player)
                            .and_then(|(ti, s)| t.tables[ti].seats[s].as_ref())
                            .map_or(0, |s| s.chips);
                        let (point, paid) = match purchase {
                            Purchase::Rebuy | Purchase::AddOn => (
                                // The point that rules: a freeze-out's or a knockout's own
                                // refusal (§3.1.1, §3.1.3.2), else the rebuy and add-on terms.
                                match ledger.terms.modality {
                                    crate::tournament::entries::Modality::FreezeOut => {
                                        "tournament.modality.freeze_out"
                                    }
                                    crate::tournament::entries::Modality::KnockoutBounty => {
                                        "tournament.modality.knockout_bounty"
                                    }
                                    _ => "tournament.modality.rebuy_addon",
                                },
                                ledger
                                    .rebuy(
                                        rules.as_ref(),
                                        *player,
                                        level,
                                        *purchase == Purchase::AddOn,
                                    )
                                    .cloned(),
                            ),
                            Purchase::Xtrastack => (
                                "tournament.xtrastack",
                                ledger
                                    .xtrastack(rules.as_ref(), *player, level, stack, *in_action)
                                    .cloned(),
                            ),
                            Purchase::DayTwo(option) => (
                                "tournament.modality.multistack",
                                ledger
                                    .day_two_entry(rules.as_ref(), t.entries() + 1, *option)
                                    .cloned(),
                            ),
                        };
                        t.note(purchase_ruling(&t, point, &format!("{purchase:?}"), &paid));
                        match paid {
                            Ok(r) => {
                                let chips = match purchase {
                                    Purchase::DayTwo(_) => {
                                        t.entry_with_stack("day_two_entry", r.chips, &mut rng).err()
                                    }
                                    _ => t.add_chips(*player, r.chips).err(),
                                };
                                if let Some(e) = chips {
                                    failures.push(fail(e.to_string()));
                                }
                                if let Some(want) = for_ruleset(receipt, &id) {
                                    let got =
                                        (r.paid, r.fee, r.to_pool, r.bounty, r.to_fund, r.chips);
                                    if got != *want {
                                        failures.push(fail(format!(
                                            "receipt (paid, fee, to_pool, bounty, to_fund, chips) {got:?}, expected {want:?}"
                                        )));
                                    }
                                }
                                None
                            }
                            Err(e) => Some(e.to_string()),
                        }
                    }
                };
                check_refusal(refused, &id, error, &mut failures, &fail);
            }
            TournamentStep::Absent { player, absent } => {
                what = format!("player {player} absent: {absent}");
                if let Err(e) = t.set_absent(*player, *absent) {
                    failures.push(fail(e.to_string()));
                }
            }
            TournamentStep::Result { expect } => {
                what = "the result".into();
                match ledger.as_ref() {
                    None => {
                        failures.push(fail("a result needs the scenario's `money` terms".into()))
                    }
                    Some(ledger) => {
                        let outcome = MoneyOutcome {
                            places: finishing_order(&t),
                            eliminations: eliminations.clone(),
                            six_max: setup.format == "6-max",
                            chop: None,
                        };
                        let got = result::audit_under(rules_in_force.as_ref(), ledger, &outcome);
                        match &got {
                            Ok(r) => {
                                out.log.push(format!(
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
                                    crate::tournament::entries::Modality::Satellite { .. } => {
                                        "tournament.modality.satellite"
                                    }
                                    crate::tournament::entries::Modality::Survivor => {
                                        "tournament.modality.survivor"
                                    }
                                    _ => "tournament.payout_table",
                                };
                                for ruling in result_rulings(&t, r, point) {
                                    t.note(ruling);
                                }
                            }
                            Err(e) => out.log.push(format!("result refused: {e}")),
                        }
                        if let Some(want) = for_ruleset(expect, &id) {
                            check_result(&want, &got, &mut failures, &fail);
                        }
                    }
                }
            }
            TournamentStep::WrongSeat {
                player,
                table,
                seat,
                expect,
            } => {
                let seat = seat.unwrap_or_else(|| {
                    t.tables
                        .iter()
                        .find(|x| x.number == *table)
                        .and_then(|x| x.empty_seats().first().copied())
                        .map_or(0, |s| s + 1)
                });
                what = format!("player {player} in the wrong seat (assigned {table}/{seat})");
                expected = Some(expect);
                match t.wrong_seat(*player, *table, seat.saturating_sub(1)) {
                    Ok(r) if r.outcome == "moved_to_assigned_seat" => {
                        let at = t
                            .locate(*player)
                            .map(|(ti, s)| (t.tables[ti].number, s + 1));
                        if at != Some((*table, seat)) {
                            failures.push(fail(format!(
                                "player {player} is at {at:?}, not table {table} seat {seat}"
                            )));
                        }
                    }
                    Ok(_) => {}
                    Err(e) => failures.push(fail(e.to_string())),
                }
            }
            TournamentStep::ColorUp {
                retire,
                into,
                chips_awarded,
                expect,
            } => {
                what = format!("colour-up of {retire}s into {into}s");
                expected = Some(expect);
                let races = t.color_up(*retire, *into, &mut rng);
                let awarded: u32 = races.iter().map(|r| r.1.chips_awarded).sum();
                for (table, race) in &races {
                    out.log.push(format!(
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
                    if awarded != *n {
                        failures.push(fail(format!("the race gave {awarded} chips, expected {n}")));
                    }
                }
                if t.tables
                    .iter()
                    .flat_map(|x| x.seated())
                    .any(|(_, s)| s.chips == 0)
                {
                    failures.push(fail("a player was eliminated by the race".into()));
                }
            }
            TournamentStep::Check {
                tables,
                players_left,
                level,
                hand_for_hand,
                chips,
                finished,
                on_break,
                hands,
            } => {
                what = "check".into();
                let sizes: Vec<usize> = t.table_sizes().into_iter().map(|x| x.1).collect();
                if let Some(want) = tables {
                    if &sizes != want {
                        failures.push(fail(format!("tables seat {sizes:?}, expected {want:?}")));
                    }
                }
                if let Some(want) = players_left {
                    if t.players_left() != *want {
                        failures.push(fail(format!(
                            "{} players left, expected {want}",
                            t.players_left()
                        )));
                    }
                }
                if let Some(want) = level {
                    let got = t.clock().level_for_new_hand().map(|l| l.0 + 1);
                    if got != Some(*want) {
                        failures.push(fail(format!("level {got:?}, expected {want}")));
                    }
                }
                if let Some(want) = hand_for_hand {
                    if t.hand_for_hand() != *want {
                        failures.push(fail(format!(
                            "hand-for-hand is {}, expected {want}",
                            t.hand_for_hand()
                        )));
                    }
                }
                if let Some(want) = chips {
                    if t.chips_in_play() != *want || t.chips_at_tables() != *want {
                        failures.push(fail(format!(
                            "{} chips in play, {} at the tables, expected {want}",
                            t.chips_in_play(),
                            t.chips_at_tables()
                        )));
                    }
                }
                if let Some(want) = on_break {
                    let got = t.clock().level_for_new_hand().is_none();
                    if got != *want {
                        failures.push(fail(format!("on a break: {got}, expected {want}")));
                    }
                }
                if let Some(want) = hands {
                    if t.hands_played() != *want {
                        failures.push(fail(format!(
                            "{} hands dealt, expected {want}",
                            t.hands_played()
                        )));
                    }
                }
                if let Some(want) = finished {
                    if (t.players_left() == 1) != *want {
                        failures.push(fail(format!("{} players left", t.players_left())));
                    }
                }
            }
        }
        out.failures.extend(failures);
        seen = record(&mut out, number, &what, &t, before, expected, &id);
    }
    out.log.extend(t.rulings().iter().map(|r| {
        format!(
            "{} [{}; {}]: {} — {}",
            r.point, r.ruleset, r.citation, r.outcome, r.text
        )
    }));
    out
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
        out.steps.push(StepResult {
            step: number,
            what: what.to_string(),
            ruling: None,
            error: None,
            rulings: Vec::new(),
        });
    }
    for r in new {
        out.steps.push(StepResult {
            step: number,
            what: format!("{what}: {}", r.point),
            ruling: Some(r.clone()),
            error: None,
            rulings: Vec::new(),
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
