//! Tournament scenarios: a tournament set up (entries, seats per table, stack, levels,
//! modality) and a sequence of steps — hands played at random, eliminations, table breaking
//! and balancing, the clock, late entries, colour-ups — with the rulings and the state
//! expected under each ruleset. `floor scenario` and `floor test` run them like any scenario;
//! the format is documented in `rulesets/README.md`.

use super::format::{Expect, Scenario};
use super::run::{check, Outcome, StepResult};
use crate::events::EventRuling;
use crate::rules::Rules;
use crate::tournament::runtime::{Setup, Tournament};
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
    /// A late entrant or re-entry (`category`: `late_registrant`, `reentry`, `alternate`).
    LateEntry {
        /// The category.
        category: String,
        /// Rulings expected.
        #[serde(default)]
        expect: Expected,
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

/// Runs a tournament scenario under `rules`.
pub fn run(scenario: &Scenario, setup: &TournamentScenario, rules: Arc<dyn Rules>) -> Outcome {
    let id = rules.ruleset().id.to_string();
    let mut out = Outcome {
        ruleset: id.clone(),
        steps: Vec::new(),
        log: Vec::new(),
        stacks: None,
        failures: Vec::new(),
    };
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(setup.seed);
    let refusal = scenario
        .expect_refused
        .get(&id)
        .or_else(|| scenario.expect_refused.get("*"));
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
            out.failures.push(format!("tournament refused: {e}"));
            return out;
        }
    };
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
                        if let Some(places) = places.get(&id).or_else(|| places.get("*")) {
                            let got: Vec<(u32, u32)> = players
                                .iter()
                                .filter_map(|p| finishes.iter().find(|f| f.player == *p))
                                .map(|f| (f.place, f.shared_through))
                                .collect();
                            if &got != places {
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
                    if let Err(e) = t.eliminate(&seated[..1], seated[1]) {
                        failures.push(fail(e.to_string()));
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
            TournamentStep::LateEntry { category, expect } => {
                what = format!("a {category} enters");
                expected = Some(expect);
                if let Err(e) = t.late_entry(category, &mut rng) {
                    failures.push(fail(e.to_string()));
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
    if let Some(wants) = expected.and_then(|e| e.get(id).or_else(|| e.get("*"))) {
        for want in wants {
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
