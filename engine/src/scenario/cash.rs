//! Cash-session scenarios: a cash table, then players joining, leaving, resting, rebuying,
//! time passing, hands dealt and played, failures — with the rulings and the table state
//! expected under each ruleset. Written as `Scenario(name: ..., cash: (table: ..., steps:
//! [...]))`; documented in `rulesets/README.md`.

use super::keys::for_ruleset;
use super::run::{Outcome, StepResult};
use crate::cards::{parse_cards, Card, Deck};
use crate::cash::{CashConfig, CashTable, Failure, Status, TableMode};
use crate::hand::{Action, Structure, Variant};
use crate::rules::{Citation, Rules, Ruling};
use crate::Chips;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::sync::Arc;

/// A cash session: the table and what happens at it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CashSession {
    /// The table's configuration.
    pub table: CashSetup,
    /// What happens, in order.
    pub steps: Vec<CashStep>,
}

/// A cash table's configuration in a scenario (amounts in chips).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CashSetup {
    /// The table minimum bet (the big blind).
    pub table_minimum: Chips,
    /// The fixed initial buy-in.
    pub initial_buy_in: Chips,
    /// The small blind (default: as the ruleset says, or half the minimum).
    #[serde(default)]
    pub small_blind: Option<Chips>,
    /// The table maximum (base of a per-session commission).
    #[serde(default)]
    pub table_maximum: Option<Chips>,
    /// Seats (default: the ruleset's count).
    #[serde(default)]
    pub seats: Option<usize>,
    /// The fixed rebuy amount.
    #[serde(default)]
    pub rebuy: Option<Chips>,
    /// The casino's minimum entry.
    #[serde(default)]
    pub minimum_entry: Option<Chips>,
    /// `holdem` (default) or `omaha`.
    #[serde(default)]
    pub variant: Option<String>,
    /// `no_limit` (default), `pot_limit`, `half_pot_limit`, `fixed_limit`.
    #[serde(default)]
    pub structure: Option<String>,
    /// `Continuous` (default) or `Session`.
    #[serde(default)]
    pub mode: TableMode,
}

/// Expectations of one step, by ruleset id (`"*"`: any ruleset).
pub type StepExpectations = BTreeMap<String, StepExpect>;

/// One step of a cash session.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum CashStep {
    /// A player sits down (`seat` from 1; default the lowest free seat).
    Seat {
        /// The player.
        player: String,
        /// The seat.
        #[serde(default)]
        seat: Option<usize>,
        /// The buy-in.
        buy_in: Chips,
        /// Expected.
        #[serde(default)]
        expect: StepExpectations,
    },
    /// The seats drawn at the start of the game among the registered `players`
    /// (`seating.initial_draw`): each drawn player sits in his drawn seat with the initial
    /// buy-in, those left without a seat wait; `previous_session` names the players of the
    /// previous session; `seed` seeds the draw.
    Draw {
        /// The registered players.
        players: Vec<String>,
        /// Those who played the previous session.
        #[serde(default)]
        previous_session: Vec<String>,
        /// The draw's seed.
        #[serde(default)]
        seed: u64,
        /// Expected.
        #[serde(default)]
        expect: StepExpectations,
    },
    /// A player leaves with his stack.
    Leave {
        /// The player.
        player: String,
        /// Expected.
        #[serde(default)]
        expect: StepExpectations,
    },
    /// A player rests from the next hand.
    SitOut {
        /// The player.
        player: String,
        /// Expected.
        #[serde(default)]
        expect: StepExpectations,
    },
    /// A resting player comes back.
    SitIn {
        /// The player.
        player: String,
        /// Expected.
        #[serde(default)]
        expect: StepExpectations,
    },
    /// A player buys more chips.
    Rebuy {
        /// The player.
        player: String,
        /// The amount.
        amount: Chips,
        /// Expected.
        #[serde(default)]
        expect: StepExpectations,
    },
    /// A player joins the waiting list.
    WaitingList {
        /// The player.
        player: String,
        /// Expected.
        #[serde(default)]
        expect: StepExpectations,
    },
    /// A seated player asks to change seat.
    SeatChange {
        /// The player.
        player: String,
        /// Expected.
        #[serde(default)]
        expect: StepExpectations,
    },
    /// Time passes.
    Advance {
        /// Minutes.
        minutes: u64,
        /// Expected.
        #[serde(default)]
        expect: StepExpectations,
    },
    /// A hand is dealt: `cards` are the hole cards of the players dealt in, by seat order
    /// (lowest seat first), then the board; the rest of the deck follows in a fixed order.
    /// `draw` picks the button among the players dealt in where the ruleset draws it.
    Deal {
        /// Cards, e.g. `"AhKh QsQd 7c2d 9h9d 2s5s9c Tc Jd"` (spaces ignored).
        #[serde(default)]
        cards: String,
        /// The button draw.
        #[serde(default)]
        draw: usize,
        /// Expected.
        #[serde(default)]
        expect: StepExpectations,
    },
    /// A player acts: `f`, `cc` (check or call), `cbr N` (bet or raise to N), `ai` (all-in).
    Act {
        /// The player.
        player: String,
        /// The action.
        action: String,
        /// Expected.
        #[serde(default)]
        expect: StepExpectations,
    },
    /// Every remaining player checks or calls until the hand ends.
    CheckDown {
        /// Expected.
        #[serde(default)]
        expect: StepExpectations,
    },
    /// Every player to act folds until the hand ends (the last player in wins the blinds).
    FoldAround {
        /// Expected.
        #[serde(default)]
        expect: StepExpectations,
    },
    /// A failure interrupts the hand in progress.
    Failure {
        /// `Operator` or `Player`.
        side: Failure,
        /// Expected.
        #[serde(default)]
        expect: StepExpectations,
    },
    /// The table's state, by ruleset id (`"*"`: any).
    Check(BTreeMap<String, TableCheck>),
}

/// What a step must produce.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StepExpect {
    /// The step must be refused, with these words in the reason.
    #[serde(default)]
    pub refused: Option<String>,
    /// Each must match one of the step's rulings.
    #[serde(default)]
    pub rulings: Vec<RulingExpect>,
}

/// A ruling the step must make. Omitted fields are not checked.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RulingExpect {
    /// The rule point.
    #[serde(default)]
    pub point: Option<String>,
    /// The citation, exactly.
    #[serde(default)]
    pub citation: Option<String>,
    /// Words in the ruling.
    #[serde(default)]
    pub text_contains: Option<String>,
    /// `false`: must read *not regulated by this text*.
    #[serde(default)]
    pub regulated: Option<bool>,
}

/// The table's state at a point of the scenario. Omitted fields are not checked.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TableCheck {
    /// `open`, `running`, `suspended` or `closed`.
    #[serde(default)]
    pub status: Option<String>,
    /// Stacks by player.
    #[serde(default)]
    pub stacks: BTreeMap<String, Chips>,
    /// Exactly the seated players, by seat order.
    #[serde(default)]
    pub seated: Option<Vec<String>>,
    /// The seat holding the button (from 1).
    #[serde(default)]
    pub button: Option<usize>,
    /// Session totals by player.
    #[serde(default)]
    pub totals: BTreeMap<String, TotalsCheck>,
    /// The last hand by player (pt-online rule 65).
    #[serde(default)]
    pub last_hand: BTreeMap<String, ReviewCheck>,
}

/// A player's session totals.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TotalsCheck {
    /// Bought in.
    #[serde(default)]
    pub bought_in: Option<Chips>,
    /// Wagered.
    #[serde(default)]
    pub wagered: Option<Chips>,
    /// Won (after commission).
    #[serde(default)]
    pub won: Option<Chips>,
    /// Commission paid.
    #[serde(default)]
    pub commission: Option<Chips>,
    /// Net result.
    #[serde(default)]
    pub net: Option<i64>,
    /// Hands dealt in.
    #[serde(default)]
    pub hands: Option<u32>,
}

/// A player's last hand.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReviewCheck {
    /// The hand number.
    #[serde(default)]
    pub hand: Option<u64>,
    /// Void.
    #[serde(default)]
    pub void: Option<bool>,
    /// Won less wagered.
    #[serde(default)]
    pub result: Option<i64>,
    /// Commission from his winnings.
    #[serde(default)]
    pub commission: Option<Chips>,
}

fn config(setup: &CashSetup) -> Result<CashConfig, String> {
    let variant = match setup.variant.as_deref().unwrap_or("holdem") {
        "holdem" => Variant::Holdem,
        "omaha" => Variant::Omaha,
        other => return Err(format!("unknown variant `{other}`")),
    };
    let structure = match setup.structure.as_deref().unwrap_or("no_limit") {
        "no_limit" => Structure::NoLimit,
        "pot_limit" => Structure::PotLimit,
        "half_pot_limit" => Structure::HalfPotLimit,
        "fixed_limit" => Structure::FixedLimit {
            small_bet: setup.table_minimum,
            big_bet: setup.table_minimum * 2,
        },
        other => return Err(format!("unknown structure `{other}`")),
    };
    Ok(CashConfig {
        variant,
        structure,
        seats: setup.seats,
        table_minimum: setup.table_minimum,
        small_blind: setup.small_blind,
        table_maximum: setup.table_maximum,
        initial_buy_in: setup.initial_buy_in,
        rebuy: setup.rebuy,
        minimum_entry: setup.minimum_entry,
        mode: setup.mode,
    })
}

fn deck(cards: &str) -> Result<Deck, String> {
    let compact: String = cards.split_whitespace().collect();
    let mut order = parse_cards(&compact).map_err(|e| e.to_string())?;
    for c in Card::all() {
        if !order.contains(&c) {
            order.push(c);
        }
    }
    Ok(Deck::written(&order))
}

fn action(text: &str) -> Result<Action, String> {
    let words: Vec<&str> = text.split_whitespace().collect();
    match words.as_slice() {
        ["f"] => Ok(Action::Fold),
        ["cc"] => Ok(Action::CheckOrCall),
        ["ai"] => Ok(Action::AllIn),
        ["cbr", n] => n
            .parse()
            .map(Action::BetOrRaiseTo)
            .map_err(|_| format!("`{n}` is not an amount")),
        _ => Err(format!("unknown action `{text}` (f, cc, cbr N, ai)")),
    }
}

/// Runs a cash session under `rules`, checking the expectations keyed by its id (or `"*"`).
pub fn run(session: &CashSession, rules: Arc<dyn Rules>, mut out: Outcome) -> Outcome {
    let id = out.ruleset.clone();
    let table =
        config(&session.table).and_then(|c| CashTable::new(rules, c).map_err(|e| e.to_string()));
    let mut table = match table {
        Ok((table, rulings)) => {
            out.log.extend(rulings.iter().map(ToString::to_string));
            out.set_up_points = rulings.iter().map(|r| r.point.to_string()).collect();
            table
        }
        Err(e) => {
            out.refuse_set_up("table", e);
            return out;
        }
    };
    for (i, step) in session.steps.iter().enumerate() {
        let number = i + 1;
        let (what, result, expect) = carry_out(step, &mut table, number, &id, &mut out.failures);
        let expected = expect.and_then(|e| for_ruleset(e, &id));
        let mut step_result = judge(number, what, result, expected.as_deref(), &mut out);
        if let CashStep::Check(checks) = step {
            step_result.asserts = for_ruleset(checks, &id).is_some();
        }
        out.steps.push(step_result);
    }
    let state = table.state();
    out.stacks = Some(state.seats.iter().map(|s| s.state.stack).collect());
    out
}

/// What a step did: in words, the rulings it made (or why it was refused), and what it
/// expects.
type Done<'s> = (
    String,
    Result<Vec<Ruling>, String>,
    Option<&'s StepExpectations>,
);

/// Carries out one step at `table`.
fn carry_out<'s>(
    step: &'s CashStep,
    table: &mut CashTable,
    number: usize,
    id: &str,
    failures: &mut Vec<String>,
) -> Done<'s> {
    match step {
        CashStep::Seat {
            player,
            seat,
            buy_in,
            expect,
        } => (
            format!(
                "{player} sits down{} with {buy_in}",
                seat.map_or(String::new(), |s| format!(" in seat {s}"))
            ),
            table
                .seat(player, *seat, *buy_in)
                .map_err(|e| e.to_string()),
            Some(expect),
        ),
        CashStep::Draw {
            players,
            previous_session,
            seed,
            expect,
        } => {
            let registered: Vec<_> = players
                .iter()
                .map(|p| crate::cash::Registration {
                    player: p.clone(),
                    previous_session: previous_session.contains(p),
                })
                .collect();
            let mut rng = <rand_chacha::ChaCha8Rng as rand::SeedableRng>::seed_from_u64(*seed);
            (
                format!("the seats are drawn among {}", players.join(", ")),
                table
                    .draw_and_seat(&registered, &mut rng)
                    .map_err(|e| e.to_string()),
                Some(expect),
            )
        }
        CashStep::Leave { player, expect } => (
            format!("{player} leaves"),
            table.leave(player).map_err(|e| e.to_string()),
            Some(expect),
        ),
        CashStep::SitOut { player, expect } => (
            format!("{player} sits out"),
            table.sit_out(player).map_err(|e| e.to_string()),
            Some(expect),
        ),
        CashStep::SitIn { player, expect } => (
            format!("{player} comes back"),
            table.sit_in(player).map_err(|e| e.to_string()),
            Some(expect),
        ),
        CashStep::Rebuy {
            player,
            amount,
            expect,
        } => (
            format!("{player} rebuys {amount}"),
            table.rebuy(player, *amount).map_err(|e| e.to_string()),
            Some(expect),
        ),
        CashStep::WaitingList { player, expect } => (
            format!("{player} joins the waiting list"),
            table.join_waiting_list(player).map_err(|e| e.to_string()),
            Some(expect),
        ),
        CashStep::SeatChange { player, expect } => (
            format!("{player} asks to change seat"),
            table.request_seat_change(player).map_err(|e| e.to_string()),
            Some(expect),
        ),
        CashStep::Advance { minutes, expect } => (
            format!("{minutes} minutes pass"),
            Ok(table.advance(*minutes)),
            Some(expect),
        ),
        CashStep::Deal {
            cards,
            draw,
            expect,
        } => (
            format!(
                "a hand is dealt{}",
                if cards.is_empty() {
                    String::new()
                } else {
                    format!(": {cards}")
                }
            ),
            deck(cards).and_then(|d| table.start_hand_with(d, *draw).map_err(|e| e.to_string())),
            Some(expect),
        ),
        CashStep::Act {
            player,
            action: text,
            expect,
        } => (
            format!("{player}: {text}"),
            action(text).and_then(|a| table.act(player, a).map_err(|e| e.to_string())),
            Some(expect),
        ),
        CashStep::CheckDown { expect } => (
            "everyone checks or calls to the end".into(),
            everyone(table, Action::CheckOrCall),
            Some(expect),
        ),
        CashStep::FoldAround { expect } => (
            "everyone folds in turn".into(),
            everyone(table, Action::Fold),
            Some(expect),
        ),
        CashStep::Failure { side, expect } => (
            format!(
                "a failure on the {} side",
                match side {
                    Failure::Operator => "operator's",
                    Failure::Player => "player's",
                }
            ),
            table.void_hand(*side).map_err(|e| e.to_string()),
            Some(expect),
        ),
        CashStep::Check(checks) => {
            if let Some(c) = for_ruleset(checks, id) {
                check_table(number, table, &c, failures);
            }
            ("check the table".into(), Ok(Vec::new()), None)
        }
    }
}

/// Every player acts `action` in turn until the hand ends (or an action is refused).
fn everyone(table: &mut CashTable, action: Action) -> Result<Vec<Ruling>, String> {
    let mut all = Vec::new();
    while let Some(p) = table.to_act() {
        all.extend(table.act(&p, action).map_err(|e| e.to_string())?);
    }
    Ok(all)
}

/// A step's result against what it expects: the rulings it must make, or the refusal.
fn judge(
    number: usize,
    what: String,
    result: Result<Vec<Ruling>, String>,
    expected: Option<&StepExpect>,
    out: &mut Outcome,
) -> StepResult {
    let mut step_result = StepResult::new(number, what);
    match (result, expected.and_then(|e| e.refused.as_ref())) {
        (Ok(rulings), refused) => {
            if let Some(words) = refused {
                out.failures.push(format!(
                    "step {number}: accepted, expected a refusal (`{words}`)"
                ));
            }
            if let Some(e) = expected {
                for want in &e.rulings {
                    if !rulings.iter().any(|r| matches(r, want)) {
                        out.failures.push(format!(
                            "step {number} ({}): no ruling matches {want:?}; got: {}",
                            step_result.what,
                            rulings
                                .iter()
                                .map(ToString::to_string)
                                .collect::<Vec<_>>()
                                .join(" | ")
                        ));
                    }
                }
            }
            step_result.rulings = rulings.iter().map(ToString::to_string).collect();
            step_result.note_rulings(&rulings, 0);
            out.log.extend(step_result.rulings.iter().cloned());
        }
        (Err(e), Some(words)) if e.contains(words.as_str()) => {
            step_result.what = format!("{} — refused: {e}", step_result.what);
        }
        (Err(e), Some(words)) => out.failures.push(format!(
            "step {number}: refused with `{e}`, expected `{words}`"
        )),
        (Err(e), None) => {
            out.failures.push(format!(
                "step {number} ({}): refused: {e}",
                step_result.what
            ));
            step_result.error = Some(e);
        }
    }
    step_result
}

fn matches(r: &Ruling, want: &RulingExpect) -> bool {
    want.point.as_ref().is_none_or(|p| r.point == p)
        && want
            .citation
            .as_ref()
            .is_none_or(|c| r.citation.to_string() == *c)
        && want
            .text_contains
            .as_ref()
            .is_none_or(|w| r.text().contains(w.as_str()))
        && want
            .regulated
            .is_none_or(|reg| reg == !matches!(r.citation, Citation::NotRegulated))
}

fn check_table(step: usize, table: &CashTable, c: &TableCheck, failures: &mut Vec<String>) {
    let mut fail = |what: String| failures.push(format!("step {step}: {what}"));
    if let Some(status) = &c.status {
        let is = match table.status() {
            Status::Open => "open",
            Status::Running => "running",
            Status::Suspended { .. } => "suspended",
            Status::Closed => "closed",
        };
        if is != status {
            fail(format!("the table is {is}, expected {status}"));
        }
    }
    for (player, stack) in &c.stacks {
        if table.stack(player) != Some(*stack) {
            fail(format!(
                "{player}'s stack is {:?}, expected {stack}",
                table.stack(player)
            ));
        }
    }
    let state = table.state();
    if let Some(seated) = &c.seated {
        let is: Vec<String> = state.seats.iter().map(|s| s.state.player.clone()).collect();
        if &is != seated {
            fail(format!("seated {is:?}, expected {seated:?}"));
        }
    }
    if let Some(button) = c.button {
        if state.button != Some(button) {
            fail(format!(
                "the button is at seat {:?}, expected {button}",
                state.button
            ));
        }
    }
    for (player, want) in &c.totals {
        let Some(t) = table.totals(player) else {
            fail(format!("no totals for {player}"));
            continue;
        };
        let pairs = [
            (
                "bought_in",
                want.bought_in.map(|v| v as i128),
                t.bought_in as i128,
            ),
            (
                "wagered",
                want.wagered.map(|v| v as i128),
                t.wagered as i128,
            ),
            ("won", want.won.map(|v| v as i128), t.won as i128),
            (
                "commission",
                want.commission.map(|v| v as i128),
                t.commission as i128,
            ),
            ("net", want.net.map(|v| v as i128), t.net()),
            ("hands", want.hands.map(|v| v as i128), t.hands as i128),
        ];
        for (name, want, is) in pairs {
            if let Some(w) = want {
                if w != is {
                    fail(format!("{player}'s {name} is {is}, expected {w}"));
                }
            }
        }
    }
    for (player, want) in &c.last_hand {
        let Some(r) = table.last_hand(player) else {
            fail(format!("{player} has no last hand to review"));
            continue;
        };
        if want.hand.is_some_and(|h| h != r.hand) {
            fail(format!(
                "{player}'s last hand is {}, expected {:?}",
                r.hand, want.hand
            ));
        }
        if want.void.is_some_and(|v| v != r.void) {
            fail(format!(
                "{player}'s last hand void is {}, expected {:?}",
                r.void, want.void
            ));
        }
        if want.result.is_some_and(|v| v as i128 != r.result) {
            fail(format!(
                "{player}'s last hand result is {}, expected {:?}",
                r.result, want.result
            ));
        }
        if want.commission.is_some_and(|v| v != r.commission) {
            fail(format!(
                "{player}'s last hand commission is {}, expected {:?}",
                r.commission, want.commission
            ));
        }
    }
}
