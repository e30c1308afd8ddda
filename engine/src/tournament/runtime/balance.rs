//! Tables: play stopped until balanced, tables broken and balanced, the final table formed,
//! an absent player's chips carried, and colour-ups with a chip race.

use super::{int, text, Tournament};
use crate::events::EventRuling;
use crate::tournament::chip_race::{chip_race, ChipRace, ColorUp, Fractions};
use crate::tournament::seating::{initial_draw, PlayerId, Seated, Table};
use crate::Chips;
use rand::Rng;
use std::collections::BTreeMap;

impl Tournament {
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

    pub(super) fn break_and_balance<R: Rng + ?Sized>(
        &mut self,
        left: usize,
        seats: usize,
        rng: &mut R,
    ) {
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
            if let Some(failure) = crate::events::failure_of(&ruling) {
                self.rulings.push(failure);
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
    pub(super) fn choose_move(
        &mut self,
        from: usize,
        to: usize,
    ) -> Option<(usize, usize, EventRuling)> {
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
    pub(super) fn carry_absent_chips(
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

    pub(super) fn form_final_table<R: Rng + ?Sized>(&mut self, rng: &mut R) {
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
