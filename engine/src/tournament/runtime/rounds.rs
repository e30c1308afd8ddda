//! Rounds played by the runtime itself (random legal play, for simulations and scenarios):
//! a hand at every table that is not stopped, stacks settled, eliminations placed, Win the
//! Button, forced eliminations, and the winner.

use super::{int, text, Round, RuntimeError, Tournament};
use crate::cards::Deck;
use crate::hand::Hand;
use crate::tournament::bubble::{self, Bust, Finish, SameHand};
use crate::tournament::last_hand::LastHandWinner;
use crate::tournament::seating::{PlayerId, Positions};
use crate::tournament::structure::{Level, Modality};
use crate::Chips;
use rand::Rng;

impl Tournament {
    /// Writes a played hand's finishing stacks (`after`, by dealt position) onto the seats, with
    /// any rebuy chips held out of the hand, and adds the players it left without chips to
    /// `busts`, with the stack they began it with.
    /// Shared by [`Tournament::play_round`] and the caller-played rounds of `finish_round`.
    pub(super) fn settle_stacks(
        &mut self,
        t: usize,
        dealt: &[usize],
        before: &[Chips],
        after: &[Chips],
        busts: &mut Vec<Bust>,
    ) {
        for (i, &seat) in dealt.iter().enumerate() {
            let player = self.tables[t].seats[seat].as_ref().map(|p| p.player);
            // Rebuy chips held out of this hand join the stack now, before anyone is counted
            // out: the rebuy he is obliged to make keeps him in.
            let held = player.map_or(0, |p| self.release_held_rebuy(p));
            if let Some(p) = self.tables[t].seats[seat].as_mut() {
                p.chips = after[i] + held;
                if p.chips == 0 {
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
            let Some((positions, heads_up)) = self.hand_positions(t, button_to) else {
                continue;
            };
            if let Some(seats) = heads_up {
                self.note_heads_up(seats);
            }
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

    pub(super) fn play_hand<R: Rng + ?Sized>(
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
        crate::tournament::play::play_paced(&mut hand, &mut deck, rng)
            .map_err(|e| err(e.to_string()))?;
        let after = hand.stacks();
        let total: Chips = after.iter().sum();
        if total != before {
            return Err(RuntimeError::ChipsNotConserved {
                table: number,
                before,
                after: total,
            });
        }
        Ok((after, crate::tournament::last_hand::of_hand(&hand)))
    }

    /// Win the Button (Solverde §3.1.5): the next button goes to the last hand's winner; a
    /// tied hand gives it to the player left of the button (§3.1.5.1), as the ruleset rules.
    pub(super) fn win_the_button(
        &mut self,
        t: usize,
        positions: &Positions,
        winner: LastHandWinner,
    ) {
        // The winner of the main pot ([`crate::tournament::last_hand`]'s reading of §3.1.5).
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
    pub(super) fn place_busts(&mut self, left_before: u32, busts: &[Bust]) -> Vec<Finish> {
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
    pub(super) fn all_in_during_hand_for_hand(&mut self, eliminated: usize) {
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

    pub(super) fn finish_if_won(&mut self) {
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
}
