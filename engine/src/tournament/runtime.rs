//! A tournament in play: tables of players, the level clock, hands played with the hand
//! engine, eliminations and finishing places, moves between tables, colour-ups — every step
//! that a rulebook regulates asked of the ruleset in force and recorded as a ruling with its
//! citation.
//!
//! The runtime is pure: time passes only when the caller says so, and every random draw
//! (seats, buttons, the race, the cards) comes from the RNG the caller passes in. Hands at
//! different tables are played in rounds, one hand per table per round; during hand-for-hand
//! (pt-tournament Art. 79º) that is exactly how play goes, and outside it players eliminated
//! in the same round at different tables are placed by their starting stacks.
//!
//! Here: the setup, the state and what can be asked of it. Entries and seats are in
//! `entries`, rounds the runtime plays itself in `rounds`, rounds a caller plays in `step`,
//! the clock and hand-for-hand in `time`, balancing, breaking and colour-ups in `balance`.

use super::bubble::{Bust, Finish};
use super::clock::{ClockPosition, LevelClock};
use super::seating::{PlayerId, Table};
use super::structure::{Modality, Structure};
use crate::events::EventRuling;
use crate::rules::Rules;
use crate::Chips;
use serde::Serialize;
use std::collections::BTreeMap;
use std::sync::Arc;

mod balance;
mod disqualify;
mod entries;
mod positions;
mod rebuy;
mod rounds;
mod step;
mod time;
pub use step::{HandPlan, HandResult, RoundPlan};

/// How a tournament is set up.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Setup {
    /// Seats per table (9 for a full-ring event, 6 for 6-max).
    pub seats_per_table: usize,
    /// The starting stack.
    pub starting_stack: Chips,
    /// The structure of levels.
    pub structure: Structure,
    /// The modality.
    pub modality: Modality,
    /// The event's format as the decisions read it (`full_ring`, `6-max`).
    pub format: String,
    /// Places paid (for the bubble).
    pub paid_places: u32,
}

/// The late-registration and re-entry windows the tournament direction announced (Solverde
/// §6.1: it decides whether they exist and how long they last; pt-tournament Art. 7º(2):
/// re-entries only where announced). Once announced with
/// [`Tournament::announce_entry_windows`], every late entry and re-entry is asked of the
/// ruleset (`tournament.late_registration`, `tournament.reentry`) and refused outside them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EntryWindows {
    /// The last level (from 1) at which late registration is open; `None`: no late
    /// registration.
    #[serde(default)]
    pub late_registration_until_level: Option<u32>,
    /// Whether re-entries were announced (open during the late-registration window).
    #[serde(default)]
    pub re_entries: bool,
}

/// The game dealt, as balancing reads it (br-adtp-2012 rule 8: flop games move the next big
/// blind; stud events move by position; a mixed game's stud level moves the player who would
/// be the Hold'em big blind, the button frozen). The runtime deals Hold'em hands whatever
/// the game: this only says how players are chosen to move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Game {
    /// Hold'em, Omaha: flop games (the default).
    #[default]
    Flop,
    /// A stud-only event.
    Stud,
    /// A mixed game (HORSE...) in a flop-game level.
    MixedFlopLevel,
    /// A mixed game in a stud level.
    MixedStudLevel,
}

impl Game {
    /// The facts a decision reads: `game` (`flop`, `stud`, `mixed`) and `stud_level`.
    fn facts(self) -> (&'static str, bool) {
        match self {
            Game::Flop => ("flop", false),
            Game::Stud => ("stud", true),
            Game::MixedFlopLevel => ("mixed", false),
            Game::MixedStudLevel => ("mixed", true),
        }
    }
}

/// Something the runtime cannot do.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RuntimeError {
    /// The structure is not playable, or breaks its modality's rule.
    #[error("structure: {0}")]
    Structure(#[from] super::structure::StructureError),
    /// No such player is in the tournament.
    #[error("player {0} is not playing in this tournament")]
    UnknownPlayer(PlayerId),
    /// The ruleset names no chips in play for a rebuy declared before a hand: nothing is
    /// bought, and the player may buy his rebuy between hands.
    #[error("player {player}'s rebuy declared before the hand is not ruled on ({citation}): {text}; nothing was bought — a rebuy between hands is")]
    RebuyNotRuled {
        /// The player.
        player: PlayerId,
        /// The ruling's citation.
        citation: String,
        /// The ruling's words.
        text: String,
    },
    /// No seat is free for a new player.
    #[error("no free seat for player {0}: every table is full")]
    NoSeat(PlayerId),
    /// A Sit&Go started with the wrong number of players.
    #[error("a {modality} Sit&Go starts with exactly {needed} players, not {got} ({article})")]
    SitAndGo {
        /// The modality.
        modality: &'static str,
        /// Players it needs.
        needed: usize,
        /// Players registered.
        got: usize,
        /// The article.
        article: String,
    },
    /// The hand engine refused something (a bug, reported rather than hidden).
    #[error("table {table}: {message}")]
    Hand {
        /// The table.
        table: u32,
        /// What happened.
        message: String,
    },
    /// A late entry or re-entry outside its window (or not announced), with the ruling's
    /// article (`tournament.late_registration`, `tournament.reentry`).
    #[error("{what} refused: {why} ({citation})")]
    EntryRefused {
        /// What was asked for (`late registration`, `re-entry`).
        what: String,
        /// Why not, in the ruling's words.
        why: String,
        /// The article, or *not regulated by this text*.
        citation: String,
    },
    /// Chips appeared or vanished in a hand.
    #[error("table {table}: {before} chips before the hand, {after} after")]
    ChipsNotConserved {
        /// The table.
        table: u32,
        /// Chips before.
        before: Chips,
        /// Chips after.
        after: Chips,
    },
}

/// What one round of hands did.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Round {
    /// Tables that played a hand.
    pub tables_played: Vec<u32>,
    /// Tables stopped because they were short.
    pub tables_stopped: Vec<u32>,
    /// Players eliminated, with their places.
    pub finishes: Vec<Finish>,
}

/// A tournament in play.
#[derive(Clone)]
pub struct Tournament {
    rules: Arc<dyn Rules>,
    setup: Setup,
    /// The tables in play.
    pub tables: Vec<Table>,
    clock: LevelClock,
    /// Finishing places of every eliminated player (and the winner, at the end).
    pub finishes: Vec<Finish>,
    rulings: Vec<EventRuling>,
    entries: u32,
    chips_in_play: Chips,
    hand_for_hand: bool,
    hand_for_hand_asked_at: Option<u32>,
    final_table_asked_at: Option<u32>,
    next_button: BTreeMap<u32, usize>,
    hands_played: u64,
    next_table_number: u32,
    windows: Option<EntryWindows>,
    game: Game,
    absent: std::collections::BTreeSet<PlayerId>,
    /// Seats emptied, in order, by table number: stud balancing fills the last one first.
    vacated: Vec<(u32, usize)>,
    /// Rebuy chips declared before a hand and held out of it (`rebuy`): they join the
    /// player's stack when his next hand ends.
    held_rebuys: BTreeMap<PlayerId, Chips>,
    /// Entries disqualified: out of the tournament, unplaced (`disqualify`).
    disqualified: std::collections::BTreeSet<PlayerId>,
}

fn int(v: u64) -> ron::Value {
    ron::Value::Number(ron::Number::U64(v))
}

fn text(v: &str) -> ron::Value {
    ron::Value::String(v.to_string())
}

impl Tournament {
    /// A tournament under `rules` with no players yet.
    pub fn new(setup: Setup, rules: Arc<dyn Rules>) -> Result<Tournament, RuntimeError> {
        let article = setup
            .modality
            .point()
            .and_then(|p| rules.citation(p).article().map(str::to_string));
        setup
            .structure
            .check_modality(setup.modality, article.as_deref())?;
        Ok(Tournament {
            clock: LevelClock::new(setup.structure.clone()),
            rules,
            setup,
            tables: Vec::new(),
            finishes: Vec::new(),
            rulings: Vec::new(),
            entries: 0,
            chips_in_play: 0,
            hand_for_hand: false,
            hand_for_hand_asked_at: None,
            final_table_asked_at: None,
            next_button: BTreeMap::new(),
            hands_played: 0,
            next_table_number: 1,
            windows: None,
            game: Game::Flop,
            absent: std::collections::BTreeSet::new(),
            vacated: Vec::new(),
            held_rebuys: BTreeMap::new(),
            disqualified: std::collections::BTreeSet::new(),
        })
    }

    /// The rules in force.
    pub fn rules(&self) -> &Arc<dyn Rules> {
        &self.rules
    }

    /// Every ruling made so far, in order.
    pub fn rulings(&self) -> &[EventRuling] {
        &self.rulings
    }

    /// The level clock.
    pub fn clock(&self) -> &LevelClock {
        &self.clock
    }

    /// Hands dealt so far, over all tables.
    pub fn hands_played(&self) -> u64 {
        self.hands_played
    }

    /// Entries so far (each registration or re-entry).
    pub fn entries(&self) -> u32 {
        self.entries
    }

    /// Whether hand-for-hand play is on.
    pub fn hand_for_hand(&self) -> bool {
        self.hand_for_hand
    }

    /// Players still in.
    pub fn players_left(&self) -> u32 {
        self.tables.iter().map(|t| t.players() as u32).sum()
    }

    /// The chips in play: starting stacks of every entry, adjusted by colour-ups.
    pub fn chips_in_play(&self) -> Chips {
        self.chips_in_play
    }

    /// The chips actually at the tables (equal to [`Self::chips_in_play`] at every moment).
    pub fn chips_at_tables(&self) -> Chips {
        self.tables.iter().map(Table::chips).sum()
    }

    /// A player's table and seat (from 0).
    pub fn locate(&self, player: PlayerId) -> Option<(usize, usize)> {
        self.tables
            .iter()
            .enumerate()
            .find_map(|(t, table)| table.seat_of(player).map(|s| (t, s)))
    }

    /// The seat (from 0) table `number`'s next hand has its button on, where a ruling has
    /// placed it (Win the Button); `None`: the button moves on as usual.
    pub fn next_button(&self, number: u32) -> Option<usize> {
        self.next_button.get(&number).copied()
    }

    /// Players per table, by table number.
    pub fn table_sizes(&self) -> Vec<(u32, usize)> {
        self.tables
            .iter()
            .map(|t| (t.number, t.players()))
            .collect()
    }

    /// Asks the ruleset to rule on `point` with `facts`, records the ruling and returns it.
    pub fn decide(&mut self, point: &str, facts: &[(&str, ron::Value)]) -> EventRuling {
        let facts: BTreeMap<String, ron::Value> = facts
            .iter()
            .map(|(k, v)| (k.to_string(), v.clone()))
            .collect();
        let d = self.rules.table_event(point, &facts);
        let ruling = EventRuling {
            point: point.to_string(),
            ruleset: self.rules.ruleset().clone(),
            citation: d.citation,
            outcome: d.outcome,
            fields: d.fields,
            text: d.text,
        };
        if let Some(failure) = crate::events::failure_of(&ruling) {
            self.rulings.push(failure);
        }
        self.rulings.push(ruling.clone());
        ruling
    }

    /// Records a ruling made outside the runtime (a purchase the money ledger ruled on), so
    /// that it is among the tournament's rulings in order.
    pub fn note(&mut self, ruling: EventRuling) {
        self.rulings.push(ruling);
    }

    /// Announces the late-registration and re-entry windows: from now on a late entry or a
    /// re-entry outside them is refused, citing the ruleset's article. Before any
    /// announcement entries are not checked (the caller manages its own windows).
    pub fn announce_entry_windows(&mut self, windows: EntryWindows) {
        self.windows = Some(windows);
    }

    /// The windows announced, if any.
    pub fn entry_windows(&self) -> Option<EntryWindows> {
        self.windows
    }

    /// The level (from 1) being played, or on a break the level just played: the level a
    /// purchase or an entry is made at.
    pub fn current_level(&self) -> u32 {
        match self.clock.position() {
            ClockPosition::Level { index, .. } => index as u32 + 1,
            ClockPosition::Break { after, .. } => after as u32 + 1,
        }
    }

    /// Sets the game dealt, as balancing reads it (see [`Game`]).
    pub fn set_game(&mut self, game: Game) {
        self.game = game;
    }

    /// Marks a player absent from (or back at) his seat: an absent player's chips moved when
    /// his table breaks are ruled on at `table.breaking.absent_player_chips`
    /// (ao-tournament-2025 PR-14: staff carry them to the new table).
    pub fn set_absent(&mut self, player: PlayerId, absent: bool) -> Result<(), RuntimeError> {
        self.locate(player)
            .ok_or(RuntimeError::UnknownPlayer(player))?;
        if absent {
            self.absent.insert(player);
        } else {
            self.absent.remove(&player);
        }
        Ok(())
    }

    /// Whether a player is marked absent.
    pub fn is_absent(&self, player: PlayerId) -> bool {
        self.absent.contains(&player)
    }

    /// Adds chips a player bought (a rebuy, an add-on, an Xtrastack) to his stack at the
    /// table; the chips in play grow by as much.
    pub fn add_chips(&mut self, player: PlayerId, chips: Chips) -> Result<(), RuntimeError> {
        let (t, s) = self
            .locate(player)
            .ok_or(RuntimeError::UnknownPlayer(player))?;
        if let Some(seated) = self.tables[t].seats[s].as_mut() {
            seated.chips += chips;
        }
        self.chips_in_play += chips;
        Ok(())
    }
}

#[cfg(test)]
mod tests;
