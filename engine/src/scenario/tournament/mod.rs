//! Tournament scenarios: a tournament set up (entries, seats per table, stack, levels,
//! modality) and a sequence of steps — hands played at random, eliminations, table breaking
//! and balancing, the clock, late entries, colour-ups — with the rulings and the state
//! expected under each ruleset. `floor scenario` and `floor test` run them like any scenario;
//! the format is documented in `rulesets/README.md`.
//!
//! Here: the format. Running a scenario is in `run`, its money (purchases, the result) in
//! `money`.

mod check;
mod money;
mod run;

pub use run::run;

use super::format::Expect;
use crate::tournament::entries::Terms;
use crate::tournament::runtime::{EntryWindows, Game};
use crate::tournament::seating::PlayerId;
use crate::tournament::structure::{Break, Level, Modality};
use crate::Chips;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

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
    /// `player` declares a rebuy before the next hand (`tournament.rebuy.declaration`): with
    /// money, paid through the ledger (its chips); without, a starting stack. The runtime
    /// carries the ruling out — the chips join his stack at once, or are held out of his next
    /// hand and join it when the hand ends — and the step checks his `(stack, held)` after
    /// the ruling, by ruleset id (`"*"`: any).
    DeclareRebuy {
        /// Who declares.
        player: PlayerId,
        /// `(chips at his seat, chips held until his next hand ends)`, by ruleset id.
        #[serde(default)]
        stacks: BTreeMap<String, (Chips, Chips)>,
        /// Rulings expected.
        #[serde(default)]
        expect: Expected,
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
        /// A prize agreement among the first players of the finishing order, asked of
        /// `prize.chop_deals` (with whether every player left sits at one table, the final
        /// table): allowed, their amounts replace the prizes of their places.
        #[serde(default)]
        chop: Option<ChopAgreed>,
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
        /// The blinds and ante `(small, big, ante)` of the level a hand dealt now is played at.
        #[serde(default)]
        blinds: Option<(Chips, Chips, Chips)>,
        /// The seat (from 1) each table's next hand has its button on, where a ruling placed
        /// it (Win the Button), by table number.
        #[serde(default)]
        next_button: Option<BTreeMap<u32, usize>>,
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
        /// What the level clock shows, minutes and seconds left in the level (`"13:00"`):
        /// what hand-for-hand counts per hand (`time.hand_for_hand_clock`) shows here.
        #[serde(default)]
        clock: Option<String>,
    },
}

fn yes() -> bool {
    true
}

/// A prize agreement ("chop") in a tournament scenario's result. Whether it is made at the
/// final table is read from the tournament (every player left at one table), not given.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChopAgreed {
    /// What each of the first players of the finishing order takes, in cents, in that order.
    pub amounts: Vec<u64>,
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
