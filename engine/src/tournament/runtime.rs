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

use super::bubble::{self, Bust, Finish, SameHand};
use super::chip_race::{chip_race, ChipRace, ColorUp, Fractions};
use super::clock::{ClockPosition, LevelClock};
use super::last_hand::LastHandWinner;
use super::seating::{initial_draw, PlayerId, Positions, Seated, Table};
use super::structure::{Level, Modality, Structure};
use crate::cards::Deck;
use crate::events::EventRuling;
use crate::hand::Hand;
use crate::rules::Rules;
use crate::Chips;
use rand::Rng;
use serde::Serialize;
use std::collections::BTreeMap;
use std::sync::Arc;

mod step;
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
            .map(|p| rules.table_event(p, &BTreeMap::new()).citation.to_string())
            .filter(|c| c != "not regulated by this text");
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

    /// Asks whether a late entry of `category` (`reentry`, or `late_registrant`/`alternate`)
    /// may come in now, once windows were announced: `tournament.reentry` (announced? window
    /// open?) or `tournament.late_registration` (window open at this level?). Where the ruleset
    /// does not decide, the announced window does (the engine's default). The ruling is
    /// recorded; a refusal is an error citing it.
    fn check_entry_window(&mut self, category: &str) -> Result<(), RuntimeError> {
        let Some(w) = self.windows else {
            return Ok(());
        };
        let level = self.current_level();
        let until = w.late_registration_until_level;
        let open = until.is_some_and(|u| level <= u);
        let reentry = category == "reentry";
        let (point, what, default_allowed) = if reentry {
            ("tournament.reentry", "re-entry", w.re_entries && open)
        } else {
            ("tournament.late_registration", "late registration", open)
        };
        let ruling = self.decide(
            point,
            &[
                ("purpose", text("window")),
                ("category", text(category)),
                ("level", int(u64::from(level))),
                (
                    "late_registration_until_level",
                    int(until.map_or(0, u64::from)),
                ),
                (
                    "late_registration_announced",
                    ron::Value::Bool(until.is_some()),
                ),
                ("window_until_level", int(until.map_or(0, u64::from))),
                ("window_open", ron::Value::Bool(open)),
                (
                    "announced",
                    ron::Value::Bool(if reentry {
                        w.re_entries
                    } else {
                        until.is_some()
                    }),
                ),
                ("stack_left", int(0)),
            ],
        );
        let decided = matches!(ruling.citation, crate::rules::Citation::Article(_))
            && matches!(ruling.outcome.as_str(), "allowed" | "refused");
        let allowed = if decided {
            ruling.outcome == "allowed"
        } else {
            default_allowed
        };
        if allowed {
            return Ok(());
        }
        Err(RuntimeError::EntryRefused {
            what: what.into(),
            why: if decided {
                ruling.text
            } else {
                match until {
                    Some(u) => format!("the window announced closed at the end of level {u}; this is level {level}"),
                    None => "none was announced".into(),
                }
            },
            citation: ruling.citation.to_string(),
        })
    }

    /// Registers `count` players and draws their seats at random over as few tables as
    /// hold them (`seating.initial_draw`). A Sit&Go needs exactly its 6 or 10 players
    /// (Solverde §3.1.8).
    pub fn start<R: Rng + ?Sized>(
        &mut self,
        count: usize,
        rng: &mut R,
    ) -> Result<(), RuntimeError> {
        let needed = match self.setup.modality {
            Modality::SitAndGoSixMax => Some(6),
            Modality::SitAndGoTenHanded => Some(10),
            _ => None,
        };
        if let Some(needed) = needed {
            let ruling = self.decide(
                "tournament.modality.sit_and_go",
                &[
                    ("players", int(count as u64)),
                    ("start_at", int(needed as u64)),
                ],
            );
            if count != needed {
                return Err(RuntimeError::SitAndGo {
                    modality: self.setup.modality.name(),
                    needed,
                    got: count,
                    article: ruling.citation.to_string(),
                });
            }
            self.setup.seats_per_table = needed;
        }
        let players: Vec<(PlayerId, Chips)> = (1..=count as u32)
            .map(|p| (p, self.setup.starting_stack))
            .collect();
        let seats = self.setup.seats_per_table.max(2);
        let tables = count.div_ceil(seats).max(1);
        self.decide(
            "seating.initial_draw",
            &[
                ("players", int(count as u64)),
                ("tables", int(tables as u64)),
            ],
        );
        self.tables = initial_draw(&players, tables, seats, rng);
        self.next_table_number = tables as u32 + 1;
        self.entries = count as u32;
        self.chips_in_play = self.setup.starting_stack * count as Chips;
        Ok(())
    }

    /// A late entrant or re-entry (a new entry number) with a full starting stack, seated at
    /// random at one of the shortest tables (`seating.new_player_entry`): he is dealt in at
    /// once unless his seat lies between the button and the small blind.
    ///
    /// Once windows were announced ([`Self::announce_entry_windows`]) an entry outside them is
    /// refused ([`RuntimeError::EntryRefused`], citing `tournament.late_registration` or
    /// `tournament.reentry`) and nobody is seated. Inside the window with every seat taken it
    /// fails with [`RuntimeError::NoSeat`] and changes nothing: no entry counted, no ruling
    /// recorded.
    pub fn late_entry<R: Rng + ?Sized>(
        &mut self,
        category: &str,
        rng: &mut R,
    ) -> Result<PlayerId, RuntimeError> {
        let rulings = self.rulings.len();
        self.check_entry_window(category)?;
        // An entry the window lets in but no seat can take changes nothing: the window's
        // ruling is withdrawn with it (a refusal by the window stands, and is recorded).
        if self.tables.iter().all(|t| t.empty_seats().is_empty()) {
            self.rulings.truncate(rulings);
            return Err(RuntimeError::NoSeat(self.entries + 1));
        }
        let chips = self.setup.starting_stack;
        self.seat_new_entry(category, chips, rng)
    }

    /// A seated player gives up his stack and buys a new one (pt-tournament Art. 7º(2),
    /// ao-tournament-2025 Art. 8(2): where re-entries were announced; "as fichas da cave
    /// abandonada são retiradas do torneio"). Asked of the ruleset at `tournament.reentry`
    /// with the announced windows (`announced`, `window_open`) and `stack_left`; where the
    /// ruleset does not decide, the announced window does (no announcement: refused).
    ///
    /// Allowed: the abandoned stack leaves play (the chips in play drop by exactly it), and the
    /// player — the same player, not a new place in the field: the money ledger counts the
    /// buy — gets a full starting stack and a new random seat at one of the shortest tables,
    /// ruled at `seating.new_player_entry` (category `reentry`: dealt in unless between the
    /// button and the small blind). Refused: [`RuntimeError::EntryRefused`] citing the ruling,
    /// which is recorded; nothing else changes. The runtime is between hands whenever it is
    /// called (a round plays its hands to the end), so the stack given up is never in a pot.
    pub fn abandon_stack<R: Rng + ?Sized>(
        &mut self,
        player: PlayerId,
        rng: &mut R,
    ) -> Result<EventRuling, RuntimeError> {
        let (t, s) = self
            .locate(player)
            .ok_or(RuntimeError::UnknownPlayer(player))?;
        let stack_left = self.tables[t].seats[s].as_ref().map_or(0, |x| x.chips);
        let level = self.current_level();
        let until = self.windows.and_then(|w| w.late_registration_until_level);
        let announced = self.windows.is_some_and(|w| w.re_entries);
        let open = until.is_some_and(|u| level <= u);
        let ruling = self.decide(
            "tournament.reentry",
            &[
                ("purpose", text("abandon_stack")),
                ("category", text("reentry")),
                ("level", int(u64::from(level))),
                ("window_until_level", int(until.map_or(0, u64::from))),
                ("window_open", ron::Value::Bool(open)),
                ("announced", ron::Value::Bool(announced)),
                ("stack_left", int(stack_left)),
            ],
        );
        let decided = matches!(ruling.citation, crate::rules::Citation::Article(_))
            && matches!(ruling.outcome.as_str(), "allowed" | "refused");
        let allowed = if decided {
            ruling.outcome == "allowed"
        } else {
            announced && open
        };
        if !allowed {
            return Err(RuntimeError::EntryRefused {
                what: "re-entry".into(),
                why: if decided {
                    ruling.text
                } else if !announced {
                    "no re-entries were announced".into()
                } else {
                    match until {
                        Some(u) => format!("the window announced closed at the end of level {u}; this is level {level}"),
                        None => "none was announced".into(),
                    }
                },
                citation: ruling.citation.to_string(),
            });
        }
        self.vacate(t, s);
        self.chips_in_play -= stack_left;
        let chips = self.setup.starting_stack;
        // His own seat was just emptied, so a seat is always free.
        let (nt, seat) = self.random_seat(rng).ok_or(RuntimeError::NoSeat(player))?;
        self.seat_player(nt, seat, player, chips);
        self.chips_in_play += chips;
        self.absent.remove(&player);
        let between = self.waits(nt, seat);
        self.decide(
            "seating.new_player_entry",
            &[
                ("category", text("reentry")),
                ("between_button_and_sb", ron::Value::Bool(between)),
                ("table", int(u64::from(self.tables[nt].number))),
                ("seat", int(seat as u64 + 1)),
            ],
        );
        Ok(ruling)
    }

    /// A new entry with a stack other than the starting stack — a Multistack day-2 direct
    /// entry with the chips of the option bought (Solverde §3.1.10) — seated as a late entrant
    /// is. Not subject to the late-registration window: day-2 entries have their own rule
    /// (`tournament.modality.multistack`, asked by the money ledger).
    pub fn entry_with_stack<R: Rng + ?Sized>(
        &mut self,
        category: &str,
        chips: Chips,
        rng: &mut R,
    ) -> Result<PlayerId, RuntimeError> {
        self.seat_new_entry(category, chips, rng)
    }

    fn seat_new_entry<R: Rng + ?Sized>(
        &mut self,
        category: &str,
        chips: Chips,
        rng: &mut R,
    ) -> Result<PlayerId, RuntimeError> {
        let player = self.entries + 1;
        let (t, seat) = self.random_seat(rng).ok_or(RuntimeError::NoSeat(player))?;
        self.entries = player;
        self.seat_player(t, seat, player, chips);
        self.chips_in_play += chips;
        let between = self.waits(t, seat);
        self.decide(
            "seating.new_player_entry",
            &[
                ("category", text(category)),
                ("between_button_and_sb", ron::Value::Bool(between)),
                ("table", int(u64::from(self.tables[t].number))),
                ("seat", int(seat as u64 + 1)),
            ],
        );
        Ok(player)
    }

    fn random_seat<R: Rng + ?Sized>(&self, rng: &mut R) -> Option<(usize, usize)> {
        let fewest = self
            .tables
            .iter()
            .filter(|t| !t.empty_seats().is_empty())
            .map(Table::players)
            .min()?;
        let candidates: Vec<usize> = (0..self.tables.len())
            .filter(|&t| {
                self.tables[t].players() == fewest && !self.tables[t].empty_seats().is_empty()
            })
            .collect();
        let t = candidates[rng.random_range(0..candidates.len())];
        let empty = self.tables[t].empty_seats();
        Some((t, empty[rng.random_range(0..empty.len())]))
    }

    fn seat_player(&mut self, t: usize, seat: usize, player: PlayerId, chips: Chips) {
        self.tables[t].seats[seat] = Some(Seated {
            player,
            chips,
            new_here: true,
        });
        let number = self.tables[t].number;
        self.vacated.retain(|&v| v != (number, seat));
    }

    /// Empties a seat, remembering the order seats were emptied in (stud balancing fills the
    /// last one first, br-adtp-2012 rule 8(A)).
    fn vacate(&mut self, t: usize, seat: usize) -> Option<Seated> {
        let taken = self.tables[t].seats.get_mut(seat)?.take();
        if taken.is_some() {
            let number = self.tables[t].number;
            self.vacated.retain(|&v| v != (number, seat));
            self.vacated.push((number, seat));
        }
        taken
    }

    /// Whether the player in `seat` at table `t` sits out the next hand (between the button
    /// and the small blind).
    fn waits(&self, t: usize, seat: usize) -> bool {
        self.tables[t]
            .next_positions(
                self.dead_button(),
                self.next_button.get(&self.tables[t].number).copied(),
            )
            .is_some_and(|p| p.skipped.contains(&seat))
    }

    fn dead_button(&self) -> bool {
        self.rules.dead_button().value
    }

    /// A player found in the wrong seat (`seating.wrong_seat`): where the ruleset moves him,
    /// he goes to his assigned seat with the stack he has now.
    pub fn wrong_seat(
        &mut self,
        player: PlayerId,
        assigned_table: u32,
        assigned_seat: usize,
    ) -> Result<EventRuling, RuntimeError> {
        let (t, seat) = self
            .locate(player)
            .ok_or(RuntimeError::UnknownPlayer(player))?;
        let ruling = self.decide(
            "seating.wrong_seat",
            &[
                ("stack_correct", ron::Value::Bool(true)),
                ("assigned_table", int(u64::from(assigned_table))),
                ("assigned_seat", int(assigned_seat as u64 + 1)),
            ],
        );
        let target = self.tables.iter().position(|x| x.number == assigned_table);
        if ruling.outcome == "moved_to_assigned_seat" {
            if let Some(to) = target.filter(|&to| {
                self.tables[to]
                    .seats
                    .get(assigned_seat)
                    .is_some_and(Option::is_none)
            }) {
                if let Some(seated) = self.vacate(t, seat) {
                    self.seat_player(to, assigned_seat, seated.player, seated.chips);
                }
            }
        }
        Ok(ruling)
    }

    /// Writes a played hand's finishing stacks (`after`, by dealt position) onto the seats and
    /// adds the players it left without chips to `busts`, with the stack they began it with.
    /// Shared by [`Tournament::play_round`] and the caller-played rounds of `finish_round`.
    fn settle_stacks(
        &mut self,
        t: usize,
        dealt: &[usize],
        before: &[Chips],
        after: &[Chips],
        busts: &mut Vec<Bust>,
    ) {
        for (i, &seat) in dealt.iter().enumerate() {
            if let Some(p) = self.tables[t].seats[seat].as_mut() {
                p.chips = after[i];
                if after[i] == 0 {
                    busts.push(Bust {
                        player: p.player,
                        stack_at_start: before[i],
                    });
                }
            }
        }
    }

    /// Plays one hand at every table that is not stopped, with random legal play, then places
    /// the players eliminated, advances the clock by `seconds_per_hand` (or, hand-for-hand, by
    /// what `time.hand_for_hand_clock` rules), and turns hand-for-hand on at the bubble.
    pub fn play_round<R: Rng + ?Sized>(
        &mut self,
        seconds_per_hand: u64,
        rng: &mut R,
    ) -> Result<Round, RuntimeError> {
        let mut round = Round::default();
        let Some((level_index, level)) =
            self.clock.level_for_new_hand().map(|(i, l)| (i, l.clone()))
        else {
            // On a break: time passes, nobody plays.
            self.clock.advance(seconds_per_hand);
            return Ok(round);
        };
        let stopped = self.stopped_tables();
        let left_before = self.players_left();
        let mut busts: Vec<Bust> = Vec::new();
        for t in 0..self.tables.len() {
            let number = self.tables[t].number;
            if stopped.contains(&number) {
                round.tables_stopped.push(number);
                continue;
            }
            let button_to = self.next_button.remove(&number);
            let Some(positions) = self.tables[t].next_positions(self.dead_button(), button_to)
            else {
                continue;
            };
            if positions.dealt.len() < 2 {
                self.tables[t].hand_played(&positions);
                continue;
            }
            let before: Vec<Chips> = positions
                .dealt
                .iter()
                .map(|&s| self.tables[t].seats[s].as_ref().map_or(0, |p| p.chips))
                .collect();
            let (after, winner) = self.play_hand(t, &positions, &level, rng)?;
            self.hands_played += 1;
            round.tables_played.push(number);
            self.settle_stacks(t, &positions.dealt, &before, &after, &mut busts);
            self.tables[t].hand_played(&positions);
            if self.setup.modality == Modality::WinTheButton {
                self.win_the_button(t, &positions, winner);
            }
            for seat in 0..self.tables[t].seats.len() {
                if self.tables[t].seats[seat]
                    .as_ref()
                    .is_some_and(|p| p.chips == 0)
                {
                    self.vacate(t, seat);
                }
            }
        }
        if !busts.is_empty() {
            self.all_in_during_hand_for_hand(busts.len());
        }
        round.finishes = self.place_busts(left_before, &busts);
        self.tables.retain(|t| t.players() > 0);
        self.tick(
            level_index,
            seconds_per_hand,
            !round.tables_played.is_empty(),
        );
        self.finish_if_won();
        Ok(round)
    }

    fn play_hand<R: Rng + ?Sized>(
        &mut self,
        t: usize,
        positions: &Positions,
        level: &Level,
        rng: &mut R,
    ) -> Result<(Vec<Chips>, LastHandWinner), RuntimeError> {
        let config = self.hand_config(t, positions, level);
        let before: Chips = config.stacks.iter().sum();
        let number = self.tables[t].number;
        let err = |e: String| RuntimeError::Hand {
            table: number,
            message: e,
        };
        let mut hand = Hand::new(config, self.rules.clone()).map_err(|e| err(e.to_string()))?;
        let mut deck = Deck::shuffled(rng);
        super::play::play_paced(&mut hand, &mut deck, rng).map_err(|e| err(e.to_string()))?;
        let after = hand.stacks();
        let total: Chips = after.iter().sum();
        if total != before {
            return Err(RuntimeError::ChipsNotConserved {
                table: number,
                before,
                after: total,
            });
        }
        Ok((after, super::last_hand::of_hand(&hand)))
    }

    /// Win the Button (Solverde §3.1.5): the next button goes to the last hand's winner; a
    /// tied hand gives it to the player left of the button (§3.1.5.1), as the ruleset rules.
    fn win_the_button(&mut self, t: usize, positions: &Positions, winner: LastHandWinner) {
        // The winner of the main pot ([`super::last_hand`]'s reading of §3.1.5).
        let winners: Vec<usize> = match winner {
            LastHandWinner::One(i) => positions.dealt.get(i).copied().into_iter().collect(),
            LastHandWinner::Tied => Vec::new(),
        };
        let tied = winners.len() != 1;
        let occupied: Vec<ron::Value> = self.tables[t]
            .seated()
            .filter(|(_, s)| s.chips > 0)
            .map(|(i, _)| int(i as u64 + 1))
            .collect();
        let ruling = self.decide(
            "button.initial_position_and_rotation",
            &[
                ("modality", text("win_the_button")),
                (
                    "last_hand_winner",
                    int(winners.first().map_or(0, |&s| s as u64 + 1)),
                ),
                ("tied", ron::Value::Bool(tied)),
                ("button_seat", int(positions.button as u64 + 1)),
                ("occupied_seats", ron::Value::Seq(occupied)),
            ],
        );
        let seat = ruling
            .fields
            .get("button_seat")
            .and_then(|s| s.parse::<usize>().ok())
            .and_then(|s| s.checked_sub(1))
            .filter(|&s| {
                self.tables[t]
                    .seats
                    .get(s)
                    .is_some_and(|x| x.as_ref().is_some_and(|p| p.chips > 0))
            });
        if let Some(seat) = seat {
            self.next_button.insert(self.tables[t].number, seat);
        }
    }

    /// Places the players eliminated in one round (`tournament.bubble_same_hand_eliminations`).
    fn place_busts(&mut self, left_before: u32, busts: &[Bust]) -> Vec<Finish> {
        if busts.is_empty() {
            return Vec::new();
        }
        if busts.len() == 1 {
            let finishes = bubble::place(left_before, busts, SameHand::LargerStackPlacesHigher);
            self.finishes.extend(finishes.iter().copied());
            return finishes;
        }
        let ruling = self.decide(
            "tournament.bubble_same_hand_eliminations",
            &[
                ("players_left_before", int(u64::from(left_before))),
                ("paid_places", int(u64::from(self.setup.paid_places))),
                ("eliminated", int(busts.len() as u64)),
                ("hand_for_hand", ron::Value::Bool(self.hand_for_hand)),
            ],
        );
        let rule = if ruling.outcome == "split_equally" {
            SameHand::SplitEqually
        } else {
            SameHand::LargerStackPlacesHigher
        };
        let finishes = bubble::place(left_before, busts, rule);
        self.finishes.extend(finishes.iter().copied());
        finishes
    }

    /// Forces the elimination of `players` in one hand, their chips going to `winner` (a
    /// scenario's way of saying who went out, without dealing the cards).
    pub fn eliminate(
        &mut self,
        players: &[PlayerId],
        winner: PlayerId,
    ) -> Result<Vec<Finish>, RuntimeError> {
        let (wt, ws) = self
            .locate(winner)
            .ok_or(RuntimeError::UnknownPlayer(winner))?;
        let left_before = self.players_left();
        let mut busts = Vec::new();
        for &p in players {
            let (t, s) = self.locate(p).ok_or(RuntimeError::UnknownPlayer(p))?;
            if let Some(seated) = self.vacate(t, s) {
                busts.push(Bust {
                    player: p,
                    stack_at_start: seated.chips,
                });
                if let Some(w) = self.tables[wt].seats[ws].as_mut() {
                    w.chips += seated.chips;
                }
            }
        }
        if !busts.is_empty() {
            self.all_in_during_hand_for_hand(busts.len());
        }
        let finishes = self.place_busts(left_before, &busts);
        self.tables.retain(|t| t.players() > 0);
        for f in &finishes {
            self.absent.remove(&f.player);
        }
        self.finish_if_won();
        self.check_hand_for_hand();
        Ok(finishes)
    }

    /// A hand in which players went all-in, were called and were eliminated, played during
    /// hand-for-hand: asks `allin.cards_face_up` with the fact `hand_for_hand` (pt-tournament
    /// Art. 79º(F): the hands stay face down and the board is not dealt until the dealer is
    /// told to — so the eliminations of the round are settled together, as the runtime does
    /// by placing every bust of a hand-for-hand round at once).
    fn all_in_during_hand_for_hand(&mut self, eliminated: usize) {
        if !self.hand_for_hand {
            return;
        }
        self.decide(
            "allin.cards_face_up",
            &[
                ("all_in", ron::Value::Bool(true)),
                ("called", ron::Value::Bool(true)),
                ("action_complete", ron::Value::Bool(true)),
                ("hand_for_hand", ron::Value::Bool(true)),
                ("eliminated", int(eliminated as u64)),
            ],
        );
    }

    fn finish_if_won(&mut self) {
        if self.players_left() == 1 {
            if let Some((_, s)) = self.tables.first().and_then(|t| t.seated().next()) {
                let winner = Finish {
                    player: s.player,
                    place: 1,
                    shared_through: 1,
                    stack_at_start: s.chips,
                };
                if !self.finishes.iter().any(|f| f.place == 1) {
                    self.finishes.push(winner);
                }
            }
        }
    }

    /// Lets time pass: `seconds` outside hand-for-hand; hand-for-hand, each hand counts what
    /// `time.hand_for_hand_clock` rules (2 minutes under pt-tournament Art. 79º(B)). A level
    /// the clock reaches is ruled on at `tournament.levels.change_timing` (it applies from the
    /// next hand). Then hand-for-hand is turned on at the bubble (`tournament.hand_for_hand`).
    fn tick(&mut self, level_index: usize, seconds: u64, hands_in_progress: bool) {
        let mut advanced = false;
        if self.hand_for_hand {
            if let ClockPosition::Level {
                seconds_left: Some(left),
                ..
            } = self.clock.position()
            {
                let r = self.decide(
                    "time.hand_for_hand_clock",
                    &[("level_seconds_left", int(left)), ("hands_played", int(1))],
                );
                if let Some(s) = r
                    .fields
                    .get("clock_seconds_left")
                    .and_then(|s| s.parse::<u64>().ok())
                {
                    self.clock.set_seconds_left(s);
                    advanced = true;
                }
            }
        }
        if !advanced {
            self.clock.advance(seconds);
        }
        self.note_level_change(level_index, hands_in_progress);
        self.check_hand_for_hand();
    }

    fn note_level_change(&mut self, level_index: usize, hands_in_progress: bool) {
        if let Some((now, level)) = self.clock.level_for_new_hand().map(|(i, l)| (i, l.clone())) {
            if now != level_index {
                self.decide(
                    "tournament.levels.change_timing",
                    &[
                        ("level", int(now as u64 + 1)),
                        ("small_blind", int(level.small_blind)),
                        ("big_blind", int(level.big_blind)),
                        ("ante", int(level.ante)),
                        ("hand_in_progress", ron::Value::Bool(hands_in_progress)),
                    ],
                );
            }
        }
    }

    /// Passes `seconds` with no hand in play (a scenario's clock step).
    pub fn elapse(&mut self, seconds: u64) {
        let from = self.clock.level_for_new_hand().map_or(usize::MAX, |l| l.0);
        self.clock.advance(seconds);
        self.note_level_change(from, false);
    }

    fn check_hand_for_hand(&mut self) {
        let left = self.players_left();
        let paid = self.setup.paid_places;
        if paid == 0 || self.hand_for_hand || left <= paid || self.tables.len() < 2 {
            if self.hand_for_hand && left <= paid {
                self.hand_for_hand = false;
            }
            return;
        }
        // Asked again only when the field has changed.
        if self.hand_for_hand_asked_at == Some(left) {
            return;
        }
        self.hand_for_hand_asked_at = Some(left);
        let r = self.decide(
            "tournament.hand_for_hand",
            &[
                ("players_left", int(u64::from(left))),
                ("paid_places", int(u64::from(paid))),
                ("tables", int(self.tables.len() as u64)),
            ],
        );
        self.hand_for_hand = match r.outcome.as_str() {
            "hand_for_hand" => true,
            "normal_play" => false,
            // The engine's default where the text says nothing: hand-for-hand once one round
            // of hands could burst the bubble.
            _ => left - paid <= self.tables.len() as u32,
        };
    }

    /// Tables that must stop until balanced (`table.balancing.stop_play_threshold`).
    pub fn stopped_tables(&mut self) -> Vec<u32> {
        let fullest = self.tables.iter().map(Table::players).max().unwrap_or(0);
        let mut stopped = Vec::new();
        for t in 0..self.tables.len() {
            let here = self.tables[t].players();
            if fullest < here + 3 || self.tables.len() < 2 {
                continue;
            }
            let r = self.decide(
                "table.balancing.stop_play_threshold",
                &[
                    ("format", text(&self.setup.format.clone())),
                    ("players_at_table", int(here as u64)),
                    ("players_at_fullest_table", int(fullest as u64)),
                ],
            );
            if r.outcome == "stop_play" {
                stopped.push(self.tables[t].number);
            }
        }
        stopped
    }

    /// Breaks and balances tables: forms the final table when the ruleset says it is time
    /// (`table.breaking.reseat` with the fact `final_table`), breaks a table whose players fit
    /// at the others (`table.breaking.reseat`: random seats), and moves players from the
    /// fullest to the shortest table until no two differ by more than one
    /// (`table.balancing.player_selection`: the next big blind, to the worst position).
    /// The table broken and the table moved from are chosen by a fixed procedure (Art. 10º(2)):
    /// the highest-numbered of the shortest, and of the fullest, tables.
    pub fn balance<R: Rng + ?Sized>(&mut self, rng: &mut R) {
        if self.tables.len() < 2 {
            return;
        }
        let left = self.players_left() as usize;
        let seats = self.setup.seats_per_table;
        // The final table is asked about again only when the field has changed.
        if self.final_table_asked_at == Some(left as u32) {
            self.break_and_balance(left, seats, rng);
            return;
        }
        self.final_table_asked_at = Some(left as u32);
        let r = self.decide(
            "table.breaking.reseat",
            &[
                ("final_table", ron::Value::Bool(true)),
                ("players_left", int(left as u64)),
                ("players_per_table", int(seats as u64)),
                ("format", text(&self.setup.format.clone())),
                // br-adtp-2012 rule 9 sizes the final table by the game ("jogos de Stud").
                ("game", text(self.game.facts().0)),
            ],
        );
        let form = match r.outcome.as_str() {
            "form_final_table" | "may_form_final_table" => true,
            "not_yet" => false,
            _ => left <= seats,
        };
        if form {
            self.form_final_table(rng);
            return;
        }
        self.break_and_balance(left, seats, rng);
    }

    fn break_and_balance<R: Rng + ?Sized>(&mut self, left: usize, seats: usize, rng: &mut R) {
        // Break tables while the others can seat their players.
        while self.tables.len() > 1 && left <= (self.tables.len() - 1) * seats {
            let fewest = self.tables.iter().map(Table::players).min().unwrap_or(0);
            let Some(t) = self.tables.iter().rposition(|x| x.players() == fewest) else {
                break;
            };
            let broken = self.tables.remove(t);
            let mut movers: Vec<Seated> = broken.seats.into_iter().flatten().collect();
            for i in (1..movers.len()).rev() {
                movers.swap(i, rng.random_range(0..=i));
            }
            for m in movers {
                let Some((to, seat)) = self.random_seat(rng) else {
                    break;
                };
                self.seat_player(to, seat, m.player, m.chips);
                self.carry_absent_chips(m.player, m.chips, broken.number, to, seat);
                let between = self.waits(to, seat);
                self.decide(
                    "table.breaking.reseat",
                    &[
                        ("between_button_and_sb", ron::Value::Bool(between)),
                        ("player", int(u64::from(m.player))),
                        ("from_table", int(u64::from(broken.number))),
                        ("to_table", int(u64::from(self.tables[to].number))),
                        ("seat", int(seat as u64 + 1)),
                    ],
                );
            }
        }
        // Balance: the next big blind of the fullest table to the worst seat of the shortest.
        while let Some(max) = self.tables.iter().map(Table::players).max() {
            let min = self.tables.iter().map(Table::players).min().unwrap_or(max);
            if max <= min + 1 {
                break;
            }
            let (Some(from), Some(to)) = (
                self.tables.iter().rposition(|x| x.players() == max),
                self.tables.iter().position(|x| x.players() == min),
            ) else {
                break;
            };
            let Some((seat, dest, ruling)) = self.choose_move(from, to) else {
                break;
            };
            let Some(moved) = self.vacate(from, seat) else {
                break;
            };
            self.seat_player(to, dest, moved.player, moved.chips);
            // The ruling says who moves and where to, now that both are known.
            let mut ruling = ruling;
            for (k, v) in [
                ("player", u64::from(moved.player)),
                ("from_table", u64::from(self.tables[from].number)),
                ("from_seat", seat as u64 + 1),
                ("to_table", u64::from(self.tables[to].number)),
                ("to_seat", dest as u64 + 1),
            ] {
                ruling.fields.insert(k.to_string(), v.to_string());
            }
            self.rulings.push(ruling);
        }
    }

    /// Who moves from table `from` to table `to`, and into which seat, as
    /// `table.balancing.player_selection` rules with the facts `game` and `stud_level`:
    /// `move_next_big_blind` and `move_would_be_holdem_big_blind` (a mixed game's stud level,
    /// br-adtp-2012 rule 8(B): the button stays frozen, so the next big blind is the one the
    /// next Hold'em hand would have) move the next big blind to the worst position (never the
    /// small blind); `move_by_position` (stud, rule 8(A)) fills the short table's seat emptied
    /// last, with the player in the same seat number at the full table or, that seat being
    /// empty, the next player clockwise from it. The ruling is returned to be recorded once
    /// the move is made.
    fn choose_move(&mut self, from: usize, to: usize) -> Option<(usize, usize, EventRuling)> {
        let (game, stud_level) = self.game.facts();
        let facts: BTreeMap<String, ron::Value> = [
            ("game".to_string(), text(game)),
            ("stud_level".to_string(), ron::Value::Bool(stud_level)),
            (
                "players_at_table".to_string(),
                int(self.tables[from].players() as u64),
            ),
        ]
        .into_iter()
        .collect();
        let d = self
            .rules
            .table_event("table.balancing.player_selection", &facts);
        let ruling = EventRuling {
            point: "table.balancing.player_selection".into(),
            ruleset: self.rules.ruleset().clone(),
            citation: d.citation,
            outcome: d.outcome,
            fields: d.fields,
            text: d.text,
        };
        if ruling.outcome == "move_by_position" {
            let number = self.tables[to].number;
            let empty = self.tables[to].empty_seats();
            let dest = self
                .vacated
                .iter()
                .rev()
                .find(|(t, s)| *t == number && empty.contains(s))
                .map(|&(_, s)| s)
                .or_else(|| empty.first().copied())?;
            let seats = self.tables[from].seats.len();
            let seat = (0..seats)
                .map(|i| (dest + i) % seats)
                .find(|&s| self.tables[from].seats[s].is_some())?;
            return Some((seat, dest, ruling));
        }
        let dead = self.dead_button();
        let seat = self.tables[from].next_big_blind(dead)?;
        let dest = self.tables[to].worst_position()?;
        Some((seat, dest, ruling))
    }

    /// An absent player whose table closes (`table.breaking.absent_player_chips`,
    /// ao-tournament-2025 PR-14: a member of the staff carries his chips to the new table):
    /// the ruling is recorded; his stack goes to his new seat whatever the ruleset says, as
    /// the engine's default does — no text removes the chips of a player moved while away.
    fn carry_absent_chips(
        &mut self,
        player: PlayerId,
        chips: Chips,
        from: u32,
        to: usize,
        seat: usize,
    ) {
        if !self.absent.contains(&player) {
            return;
        }
        self.decide(
            "table.breaking.absent_player_chips",
            &[
                ("player", int(u64::from(player))),
                ("present", ron::Value::Bool(false)),
                ("chips", int(chips)),
                ("from_table", int(u64::from(from))),
                ("to_table", int(u64::from(self.tables[to].number))),
                ("seat", int(seat as u64 + 1)),
            ],
        );
    }

    fn form_final_table<R: Rng + ?Sized>(&mut self, rng: &mut R) {
        let players: Vec<(PlayerId, Chips)> = self
            .tables
            .iter()
            .flat_map(|t| t.seated().map(|(_, s)| (s.player, s.chips)))
            .collect();
        let seats = players.len().max(self.setup.seats_per_table);
        let from: BTreeMap<PlayerId, u32> = self
            .tables
            .iter()
            .flat_map(|t| t.seated().map(|(_, s)| (s.player, t.number)))
            .collect();
        let mut table = initial_draw(&players, 1, seats, rng).remove(0);
        table.number = self.next_table_number;
        self.next_table_number += 1;
        self.tables = vec![table];
        self.next_button.clear();
        self.vacated.clear();
        // Every table closes to form the final table: absent players' chips are carried too.
        for (player, chips) in players {
            if let (Some(seat), Some(&old)) = (self.tables[0].seat_of(player), from.get(&player)) {
                self.carry_absent_chips(player, chips, old, 0, seat);
            }
        }
    }

    /// A colour-up with a chip race at every table (`tournament.chip_up_color_up`,
    /// `tournament.chip_race`), from seat 1. The chips in play change by what the race adds
    /// or removes, and that is accounted in [`Self::chips_in_play`].
    pub fn color_up<R: Rng + ?Sized>(
        &mut self,
        retire: Chips,
        into: Chips,
        rng: &mut R,
    ) -> Vec<(u32, ChipRace)> {
        self.decide(
            "tournament.chip_up_color_up",
            &[("retire", int(retire)), ("into", int(into))],
        );
        let r = self.decide(
            "tournament.chip_race",
            &[("retire", int(retire)), ("into", int(into))],
        );
        let fractions = match r.fields.get("fractions").map(String::as_str) {
            Some("removed") => Fractions::Removed,
            _ => Fractions::RoundHalfUp,
        };
        let color_up = ColorUp {
            retire,
            into,
            lowest_in_play: into,
            fractions,
        };
        let mut races = Vec::new();
        for table in &mut self.tables {
            let players: Vec<(PlayerId, Chips)> =
                table.seated().map(|(_, s)| (s.player, s.chips)).collect();
            let race = chip_race(&players, &color_up, rng);
            for line in &race.lines {
                if let Some(seat) = table.seat_of(line.player) {
                    if let Some(s) = table.seats[seat].as_mut() {
                        s.chips = line.after;
                    }
                }
            }
            self.chips_in_play = self.chips_in_play + race.total_after - race.total_before;
            races.push((table.number, race));
        }
        races
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::DefaultRules;
    use crate::tournament::structure::Level;
    use proptest::prelude::*;
    use rand::SeedableRng;

    fn setup(seats: usize, paid: u32) -> Setup {
        let levels = (0..20u64)
            .map(|i| Level {
                small_blind: 25 << i.min(12),
                big_blind: 50 << i.min(12),
                ante: 0,
                big_blind_ante: false,
                minutes: 10,
            })
            .collect();
        Setup {
            seats_per_table: seats,
            starting_stack: 5_000,
            structure: Structure {
                levels,
                breaks: Vec::new(),
            },
            modality: Modality::Standard,
            format: "full_ring".into(),
            paid_places: paid,
        }
    }

    /// Solverde §6.1 / pt-tournament Art. 7º: once the windows are announced, a late entry
    /// and a re-entry after the last level are refused and nobody is seated; where the rules
    /// do not decide, the announced window does and the refusal says so.
    #[test]
    fn art_7_entries_outside_the_announced_window_are_refused() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        let mut t = Tournament::new(setup(9, 3), Arc::new(DefaultRules)).unwrap();
        t.start(12, &mut rng).unwrap();
        t.announce_entry_windows(EntryWindows {
            late_registration_until_level: Some(1),
            re_entries: false,
        });
        assert_eq!(t.late_entry("late_registrant", &mut rng).unwrap(), 13);
        let err = t.late_entry("reentry", &mut rng).unwrap_err();
        assert!(
            matches!(&err, RuntimeError::EntryRefused { what, citation, .. }
                if what == "re-entry" && citation == "not regulated by this text"),
            "{err}"
        );
        t.elapse(600);
        assert_eq!(t.current_level(), 2);
        let err = t.late_entry("late_registrant", &mut rng).unwrap_err();
        assert!(
            err.to_string()
                .contains("closed at the end of level 1; this is level 2"),
            "{err}"
        );
        assert_eq!((t.entries(), t.players_left()), (13, 13));
        assert_eq!(t.chips_in_play(), 13 * 5_000);
        assert_eq!(t.chips_at_tables(), t.chips_in_play());
    }

    /// A late entry inside the window with every seat taken fails and changes nothing: the
    /// entry count, the chips in play and the rulings are as before (the window's ruling is
    /// withdrawn with the entry).
    #[test]
    fn a_late_entry_without_a_free_seat_changes_nothing() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(10);
        let mut t = Tournament::new(setup(2, 1), Arc::new(DefaultRules)).unwrap();
        t.start(2, &mut rng).unwrap();
        t.announce_entry_windows(EntryWindows {
            late_registration_until_level: Some(5),
            re_entries: true,
        });
        let rulings = t.rulings().len();
        for category in ["late_registrant", "reentry"] {
            assert_eq!(
                t.late_entry(category, &mut rng),
                Err(RuntimeError::NoSeat(3))
            );
        }
        assert_eq!(t.rulings().len(), rulings);
        assert_eq!((t.entries(), t.players_left()), (2, 2));
        assert_eq!(t.chips_in_play(), 2 * 5_000);
        assert_eq!(t.chips_at_tables(), t.chips_in_play());
    }

    /// Callers that announce no window keep the old behaviour: entries are not checked.
    #[test]
    fn without_an_announcement_late_entries_are_not_checked() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(8);
        let mut t = Tournament::new(setup(9, 3), Arc::new(DefaultRules)).unwrap();
        t.start(10, &mut rng).unwrap();
        t.elapse(6_000);
        let (chips, left) = (t.chips_in_play(), t.players_left());
        let player = t.late_entry("reentry", &mut rng).expect("not checked");
        assert_eq!((player, t.entries()), (11, 11));
        assert_eq!(t.players_left(), left + 1);
        assert_eq!(t.chips_in_play(), chips + 5_000);
        assert!(t
            .rulings()
            .iter()
            .all(|r| r.point != "tournament.late_registration" && r.point != "tournament.reentry"));
    }

    /// pt-tournament Art. 7º(2): a seated player gives up his stack and buys a new one; the
    /// chips of the stack given up leave the tournament. Under the engine's defaults the
    /// announced window decides: refused before any announcement (nothing changes), allowed
    /// inside it (the chips in play drop by exactly the stack given up and he holds a full
    /// starting stack at a seat), refused once the window closed.
    #[test]
    fn art_7_2_reentry_abandons_the_stack() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(72);
        let mut t = Tournament::new(setup(9, 3), Arc::new(DefaultRules)).unwrap();
        t.start(12, &mut rng).unwrap();
        t.eliminate(&[1], 2).unwrap();
        assert_eq!(t.chips_in_play(), 12 * 5_000);
        let err = t.abandon_stack(2, &mut rng).unwrap_err();
        assert!(
            matches!(&err, RuntimeError::EntryRefused { what, citation, .. }
                if what == "re-entry" && citation == "not regulated by this text"),
            "{err}"
        );
        assert_eq!(t.chips_in_play(), 12 * 5_000);
        t.announce_entry_windows(EntryWindows {
            late_registration_until_level: Some(1),
            re_entries: true,
        });
        let stack = |t: &Tournament, p| {
            let (ti, s) = t.locate(p).unwrap();
            t.tables[ti].seats[s].as_ref().unwrap().chips
        };
        assert_eq!(stack(&t, 2), 10_000);
        let ruling = t.abandon_stack(2, &mut rng).unwrap();
        assert_eq!(ruling.point, "tournament.reentry");
        assert_eq!(t.chips_in_play(), 12 * 5_000 - 10_000 + 5_000);
        assert_eq!(t.chips_at_tables(), t.chips_in_play());
        assert_eq!(stack(&t, 2), 5_000);
        assert_eq!((t.entries(), t.players_left()), (12, 11));
        assert!(t.rulings().last().unwrap().point == "seating.new_player_entry");
        t.elapse(600);
        let err = t.abandon_stack(3, &mut rng).unwrap_err();
        assert!(
            err.to_string().contains("closed at the end of level 1"),
            "{err}"
        );
        assert_eq!(stack(&t, 3), 5_000);
        assert_eq!(t.chips_in_play(), 12 * 5_000 - 5_000);
        assert_eq!(
            t.abandon_stack(99, &mut rng),
            Err(RuntimeError::UnknownPlayer(99))
        );
    }

    /// Purchased chips (a rebuy, an add-on, an Xtrastack) join the stack and the chips in play.
    #[test]
    fn solverde_3_1_2_purchased_chips_join_the_stack_and_the_chips_in_play() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(9);
        let mut t = Tournament::new(setup(9, 3), Arc::new(DefaultRules)).unwrap();
        t.start(4, &mut rng).unwrap();
        t.add_chips(2, 5_000).unwrap();
        assert_eq!(t.chips_in_play(), 25_000);
        assert_eq!(t.chips_at_tables(), 25_000);
        assert_eq!(t.add_chips(9, 1), Err(RuntimeError::UnknownPlayer(9)));
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(128))]

        /// Under the engine's defaults, any field plays to one winner: chips are conserved at
        /// every round, after balancing no two tables differ by more than one player, and every
        /// entry gets a place, the places covering 1..=entries exactly.
        #[test]
        fn any_field_plays_to_a_winner_with_balanced_tables(
            entries in 2usize..60,
            seats in prop::sample::select(vec![6usize, 9, 10]),
            seed in any::<u64>(),
        ) {
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
            let mut t = Tournament::new(setup(seats, 3), Arc::new(DefaultRules)).unwrap();
            t.start(entries, &mut rng).unwrap();
            let mut rounds = 0;
            while t.players_left() > 1 {
                rounds += 1;
                prop_assert!(rounds < 20_000);
                t.balance(&mut rng);
                let sizes: Vec<usize> = t.tables.iter().map(Table::players).collect();
                if sizes.len() > 1 {
                    let (min, max) = (sizes.iter().min().unwrap(), sizes.iter().max().unwrap());
                    prop_assert!(max - min <= 1, "tables {:?}", sizes);
                }
                // No table ever holds more players than it has seats.
                prop_assert!(sizes.iter().all(|&n| n <= seats), "tables {:?}", sizes);
                t.play_round(120, &mut rng).unwrap();
                prop_assert_eq!(t.chips_at_tables(), t.chips_in_play());
            }
            prop_assert_eq!(t.finishes.len(), entries);
            let mut covered = vec![0u32; entries + 1];
            for f in &t.finishes {
                prop_assert!(f.place >= 1 && f.shared_through as usize <= entries);
                let group = t
                    .finishes
                    .iter()
                    .filter(|g| (g.place, g.shared_through) == (f.place, f.shared_through))
                    .count() as u32;
                prop_assert_eq!(group, f.shared_through - f.place + 1);
                covered[f.place as usize] += 1;
            }
            prop_assert_eq!(covered.iter().sum::<u32>() as usize, entries);
        }
    }
}
