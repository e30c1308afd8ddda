//! Entries: the start (seats drawn), late entries and re-entries inside the announced windows,
//! a stack given up for a new one, seats for new entries, a player found in the wrong seat.

use super::{int, text, RuntimeError, Tournament};
use crate::events::EventRuling;
use crate::tournament::seating::{initial_draw, PlayerId, Seated, Table};
use crate::tournament::structure::Modality;
use crate::Chips;
use rand::Rng;

impl Tournament {
    /// Asks whether a late entry of `category` (`reentry`, or `late_registrant`/`alternate`)
    /// may come in now, once windows were announced: `tournament.reentry` (announced? window
    /// open?) or `tournament.late_registration` (window open at this level?). Where the ruleset
    /// does not decide, the announced window does (the engine's default). The ruling is
    /// recorded; a refusal is an error citing it.
    pub(super) fn check_entry_window(&mut self, category: &str) -> Result<(), RuntimeError> {
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
        let decided = ruling.citation.is_article()
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
        self.rule_on_structure();
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
        let decided = ruling.citation.is_article()
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

    pub(super) fn seat_new_entry<R: Rng + ?Sized>(
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

    pub(super) fn random_seat<R: Rng + ?Sized>(&self, rng: &mut R) -> Option<(usize, usize)> {
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

    pub(super) fn seat_player(&mut self, t: usize, seat: usize, player: PlayerId, chips: Chips) {
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
    pub(super) fn vacate(&mut self, t: usize, seat: usize) -> Option<Seated> {
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
    pub(super) fn waits(&self, t: usize, seat: usize) -> bool {
        self.tables[t]
            .next_positions(
                self.dead_button(),
                self.next_button.get(&self.tables[t].number).copied(),
            )
            .is_some_and(|p| p.skipped.contains(&seat))
    }

    pub(super) fn dead_button(&self) -> bool {
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
}
