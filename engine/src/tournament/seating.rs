//! Tables, seats and the positions of a hand (rule points `seating.initial_draw`,
//! `seating.wrong_seat`, `seating.new_player_entry`, `button.dead_button`).
//!
//! A table keeps who sits where with what stack, and where the blinds were last hand; from
//! that it works out the next hand's button, blinds and who is dealt in:
//!
//! - With a dead button (pt-tournament Art. 33º, ao-tournament-2025 Art. 32, br-adtp-2012
//!   rule 7's "rights and duties of the seat"), the big blind moves to the next player every
//!   hand, the small blind is posted from the seat that had the big blind (dead when that
//!   seat is empty), and the button goes to the seat that had the small blind, even empty.
//! - Without it, the button moves to the next player and the blinds follow it.
//! - A player who takes a seat between the button and the small blind — a late entrant, a
//!   re-entry, a player from a broken table — is not dealt in until the button has passed
//!   him (pt-tournament Art. 7º(1), Art. 9º; ao-tournament-2025 Art. 8(1), Art. 10;
//!   br-adtp-2012 rule 7).

use crate::Chips;
use rand::Rng;
use serde::Serialize;

/// A player's tournament id (entry number, from 1).
pub type PlayerId = u32;

/// Who sits in a seat.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Seated {
    /// The player.
    pub player: PlayerId,
    /// His stack.
    pub chips: Chips,
    /// He has just sat down (entry, re-entry, move): if the seat lies between the button and
    /// the small blind he is not dealt in until the button passes.
    pub new_here: bool,
}

/// The positions of one hand at a table. Seats are indices from 0 (seat 1 is index 0).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Positions {
    /// The button's seat (possibly empty: a dead button).
    pub button: usize,
    /// The small blind's seat as a position (possibly empty: no small blind is posted).
    pub small_blind_seat: usize,
    /// Whether a small blind is posted (the seat is occupied and dealt in).
    pub small_blind_posted: bool,
    /// The big blind's seat.
    pub big_blind: usize,
    /// The seats dealt in, clockwise from the first seat after the button; the last one acts
    /// last after the flop (the button's player, or the one before an empty button seat).
    pub dealt: Vec<usize>,
    /// Seats skipped because their player sat down between the button and the small blind.
    pub skipped: Vec<usize>,
}

/// One table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Table {
    /// The table's number, from 1.
    pub number: u32,
    /// The seats (index 0 is seat 1).
    pub seats: Vec<Option<Seated>>,
    /// The button's seat for the first hand, or after the last hand.
    pub button: usize,
    /// The seat of last hand's small blind (as a position) and big blind; `None` before the
    /// first hand.
    pub last_blinds: Option<(usize, usize)>,
    /// How many players were dealt into the last hand (0 before the first): a heads-up that
    /// follows a hand of three or more is ruled on at `button.heads_up`.
    pub last_dealt: usize,
}

impl Table {
    /// An empty table of `seats` seats.
    pub fn new(number: u32, seats: usize) -> Table {
        Table {
            number,
            seats: vec![None; seats],
            button: 0,
            last_blinds: None,
            last_dealt: 0,
        }
    }

    /// How many players sit at the table.
    pub fn players(&self) -> usize {
        self.seats.iter().flatten().count()
    }

    /// The players, by seat.
    pub fn seated(&self) -> impl Iterator<Item = (usize, &Seated)> {
        self.seats
            .iter()
            .enumerate()
            .filter_map(|(i, s)| s.as_ref().map(|s| (i, s)))
    }

    /// The chips at the table.
    pub fn chips(&self) -> Chips {
        self.seated().map(|(_, s)| s.chips).sum()
    }

    /// The seat of `player`, if he sits here.
    pub fn seat_of(&self, player: PlayerId) -> Option<usize> {
        self.seated()
            .find(|(_, s)| s.player == player)
            .map(|(i, _)| i)
    }

    /// The empty seats.
    pub fn empty_seats(&self) -> Vec<usize> {
        (0..self.seats.len())
            .filter(|&i| self.seats[i].is_none())
            .collect()
    }

    fn next_occupied(&self, from: usize) -> usize {
        let n = self.seats.len();
        (1..=n)
            .map(|k| (from + k) % n)
            .find(|&i| self.seats[i].is_some())
            .unwrap_or(from)
    }

    /// Whether `seat` lies strictly between `button` and `small_blind` clockwise.
    fn between(&self, seat: usize, button: usize, small_blind: usize) -> bool {
        let n = self.seats.len();
        let d_seat = (seat + n - button) % n;
        let d_sb = (small_blind + n - button) % n;
        d_seat > 0 && d_seat < d_sb
    }

    /// Draws the button for the table's first hand among the occupied seats.
    pub fn draw_button<R: Rng + ?Sized>(&mut self, rng: &mut R) {
        let occupied: Vec<usize> = self.seated().map(|(i, _)| i).collect();
        if !occupied.is_empty() {
            self.button = occupied[rng.random_range(0..occupied.len())];
        }
        self.last_blinds = None;
        self.last_dealt = 0;
    }

    /// The positions of the next hand. `dead_button` is the ruleset's `button.dead_button`;
    /// `button_to` places the button on a given seat first (win-the-button, Solverde §3.1.5),
    /// the blinds then following it. `None` when fewer than two players can be dealt in.
    pub fn next_positions(&self, dead_button: bool, button_to: Option<usize>) -> Option<Positions> {
        if self.players() < 2 {
            return None;
        }
        let heads_up = self.players() == 2;
        let n = self.seats.len();
        let from_button = |button: usize| {
            let sb = if heads_up {
                button
            } else {
                self.next_occupied(button)
            };
            (button, sb, self.next_occupied(sb))
        };
        let (button, sb_seat, bb) = match (button_to, self.last_blinds) {
            (Some(b), _) => from_button(b),
            (None, None) => from_button(self.button),
            // Heads-up the button moves on as usual; whether the last big blind then posts
            // it again is `button.heads_up`'s to rule (see `heads_up_seats`).
            (None, Some(_)) if heads_up => from_button(self.next_occupied(self.button)),
            (None, Some((last_sb, last_bb))) if dead_button => {
                (last_sb, last_bb, self.next_occupied(last_bb))
            }
            (None, Some(_)) => from_button(self.next_occupied(self.button)),
        };
        let mut dealt = Vec::new();
        let mut skipped = Vec::new();
        for k in 1..=n {
            let seat = (button + k) % n;
            if let Some(s) = &self.seats[seat] {
                if s.new_here && !heads_up && self.between(seat, button, sb_seat) {
                    skipped.push(seat);
                } else {
                    dealt.push(seat);
                }
            }
        }
        let small_blind_posted =
            sb_seat != bb && dealt.contains(&sb_seat) && self.seats[sb_seat].is_some();
        Some(Positions {
            button,
            small_blind_seat: sb_seat,
            small_blind_posted,
            big_blind: bb,
            dealt,
            skipped,
        })
    }

    /// Records that a hand was played at `positions`: the blinds move on from there, and
    /// every player dealt in (or passed by the button) is no longer new here.
    pub fn hand_played(&mut self, positions: &Positions) {
        self.button = positions.button;
        self.last_blinds = Some((positions.small_blind_seat, positions.big_blind));
        self.last_dealt = positions.dealt.len();
        for seat in self.seats.iter_mut().flatten() {
            seat.new_here = false;
        }
    }

    /// The worst position for a player moved in to balance (pt-tournament Art. 10º(1),
    /// ao-tournament-2025 Art. 11(A), br-adtp-2012 rule 8(A)): the empty seat that will pay
    /// the big blind soonest — the next big blind itself where it is empty, even if the seat
    /// then pays the big blind twice — and never the small blind (the seat of the last big
    /// blind, from which the next small blind is posted).
    pub fn worst_position(&self) -> Option<usize> {
        let n = self.seats.len();
        let start = match self.last_blinds {
            Some((_, last_bb)) => last_bb,
            None => self.next_occupied(self.button),
        };
        (1..n)
            .map(|k| (start + k) % n)
            .find(|&i| self.seats[i].is_none())
    }

    /// The player who would be the big blind next hand (the one moved to balance tables).
    pub fn next_big_blind(&self, dead_button: bool) -> Option<usize> {
        self.next_positions(dead_button, None).map(|p| p.big_blind)
    }
}

/// Draws every player a seat at random over `tables` tables of `seats` seats, filling the
/// tables as evenly as possible (pt-tournament Art. 6º, br-adtp-2012 rule 5: seats are drawn
/// at random), and draws each table's button.
pub fn initial_draw<R: Rng + ?Sized>(
    players: &[(PlayerId, Chips)],
    tables: usize,
    seats: usize,
    rng: &mut R,
) -> Vec<Table> {
    let mut all: Vec<Table> = (0..tables)
        .map(|t| Table::new(t as u32 + 1, seats))
        .collect();
    // Deal out seat tickets as evenly as possible, then shuffle which player holds which.
    let mut tickets: Vec<(usize, usize)> = Vec::new();
    'outer: for s in 0..seats {
        for t in 0..tables {
            if tickets.len() == players.len() {
                break 'outer;
            }
            tickets.push((t, s));
        }
    }
    for i in (1..tickets.len()).rev() {
        tickets.swap(i, rng.random_range(0..=i));
    }
    // Spread the occupied seats around each table, not all in seats 1..k: the ticket's seat
    // index is shuffled per table.
    let mut seat_orders: Vec<Vec<usize>> = (0..tables)
        .map(|_| {
            let mut order: Vec<usize> = (0..seats).collect();
            for i in (1..order.len()).rev() {
                order.swap(i, rng.random_range(0..=i));
            }
            order
        })
        .collect();
    for (&(player, chips), &(t, s)) in players.iter().zip(&tickets) {
        let seat = seat_orders[t][s];
        all[t].seats[seat] = Some(Seated {
            player,
            chips,
            new_here: false,
        });
    }
    for table in &mut all {
        table.draw_button(rng);
    }
    seat_orders.clear();
    all
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table(occupied: &[usize], seats: usize) -> Table {
        let mut t = Table::new(1, seats);
        for &s in occupied {
            t.seats[s] = Some(Seated {
                player: s as u32 + 1,
                chips: 1000,
                new_here: false,
            });
        }
        t
    }

    #[test]
    fn art_33_dead_button_moves_the_big_blind_on_one_player() {
        let mut t = table(&[0, 2, 4, 6], 9);
        t.button = 0;
        let p = t.next_positions(true, None).unwrap();
        assert_eq!((p.button, p.small_blind_seat, p.big_blind), (0, 2, 4));
        t.hand_played(&p);
        // The small blind's player (seat 3) leaves: next hand the button sits on his empty
        // seat, the last big blind posts the small, the next player the big.
        t.seats[2] = None;
        let p = t.next_positions(true, None).unwrap();
        assert_eq!((p.button, p.small_blind_seat, p.big_blind), (2, 4, 6));
        assert_eq!(p.dealt, vec![4, 6, 0]);
        // Without a dead button the button moves to the next player.
        let p = t.next_positions(false, None).unwrap();
        assert_eq!((p.button, p.small_blind_seat, p.big_blind), (4, 6, 0));
    }

    #[test]
    fn art_7_1_new_player_between_button_and_small_blind_waits() {
        let mut t = table(&[0, 4, 6], 9);
        t.button = 0;
        let p = t.next_positions(true, None).unwrap();
        assert_eq!((p.button, p.small_blind_seat, p.big_blind), (0, 4, 6));
        t.hand_played(&p);
        // Next hand: button seat 5 (index 4), small blind seat 7, big blind seat 1. A new
        // player in seat 6, between the button and the small blind, waits; one in seat 3 plays.
        for seat in [5, 2] {
            t.seats[seat] = Some(Seated {
                player: 90 + seat as u32,
                chips: 1000,
                new_here: true,
            });
        }
        let p = t.next_positions(true, None).unwrap();
        assert_eq!((p.button, p.small_blind_seat, p.big_blind), (4, 6, 0));
        assert_eq!(p.skipped, vec![5]);
        assert_eq!(p.dealt, vec![6, 0, 2, 4]);
        t.hand_played(&p);
        let p = t.next_positions(true, None).unwrap();
        assert!(p.dealt.contains(&5));
    }

    #[test]
    fn art_10_1_worst_position_is_the_next_big_blind_never_the_small() {
        let mut t = table(&[0, 2, 5, 7], 9);
        t.last_blinds = Some((0, 2));
        // Next big blind would be seat 6 (index 5); seats 4 and 5 (indices 3, 4) are empty and
        // would pay it sooner: index 3 is the worst position.
        assert_eq!(t.worst_position(), Some(3));
        t.seats[3] = Some(Seated {
            player: 50,
            chips: 1,
            new_here: true,
        });
        assert_eq!(t.next_positions(true, None).unwrap().big_blind, 3);
    }
}
