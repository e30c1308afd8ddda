//! Main and side pots, built from what each player put in over the whole hand.
//!
//! A pot is one "layer" of contributions: every all-in level of the players still in the hand
//! closes a layer, and only players who reached that level can win it. Folded players' chips
//! stay in the pots they reached, but they are eligible for none.

use super::config::MAX_PLAYERS;
use crate::Chips;
use serde::Serialize;

/// A set of positions, one bit each (positions are below [`super::MAX_PLAYERS`]).
pub type Players = u32;

/// One pot: its chips and who may win them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Pot {
    /// The chips in it.
    pub amount: Chips,
    /// Who may win it: bit `p` set for position `p`.
    pub eligible: Players,
}

impl Pot {
    /// The eligible positions in position order.
    pub fn eligible_players(&self) -> impl Iterator<Item = usize> + '_ {
        (0..32).filter(move |p| self.eligible & (1 << p) != 0)
    }
}

/// Builds the main pot and side pots, smallest all-in level first.
///
/// `live[p]` is what position `p` put in through blinds, straddles and bets (after uncalled
/// bets were returned); `dead` is the antes, which are dead money: they go into the main pot,
/// whoever posted them, and every player still in the hand can win them. That is how a
/// big-blind ante must work (the one ante covers the whole table) and how PokerKit builds its
/// pots. `in_hand` has a bit for each player who has not folded or mucked.
///
/// Consecutive layers with the same eligible players are one pot; a layer that only folded
/// players reached (possible only in odd records) joins the pot below it.
pub fn build_pots(live: &[Chips], dead: Chips, in_hand: Players) -> Vec<Pot> {
    build_pots_inline(live, dead, in_hand).to_vec()
}

/// At most this many pots: one per distinct contribution level, plus the antes' carry.
const MAX_POTS: usize = MAX_PLAYERS + 1;

/// Pots held inline, so that settling a hand allocates nothing. Reads as a slice.
#[derive(Clone, Copy)]
pub(super) struct PotList {
    pots: [Pot; MAX_POTS],
    len: usize,
}

impl PotList {
    /// No pots yet.
    pub(super) fn new() -> PotList {
        PotList {
            pots: [Pot {
                amount: 0,
                eligible: 0,
            }; MAX_POTS],
            len: 0,
        }
    }

    fn push(&mut self, pot: Pot) {
        self.pots[self.len] = pot;
        self.len += 1;
    }

    fn last_mut(&mut self) -> Option<&mut Pot> {
        self.len.checked_sub(1).map(|i| &mut self.pots[i])
    }
}

impl std::ops::Deref for PotList {
    type Target = [Pot];
    fn deref(&self) -> &[Pot] {
        &self.pots[..self.len]
    }
}

impl std::ops::DerefMut for PotList {
    fn deref_mut(&mut self) -> &mut [Pot] {
        &mut self.pots[..self.len]
    }
}

/// [`build_pots`] without allocating: the same pots, held inline. `live` has at most
/// [`MAX_PLAYERS`] entries (one per position).
fn build_pots_inline(live: &[Chips], dead: Chips, in_hand: Players) -> PotList {
    let mut pots = PotList::new();
    build_pots_into(live, dead, in_hand, &mut pots);
    pots
}

/// The pots of [`build_pots`], written into `pots` (emptied first), which the caller holds:
/// nothing is copied on the way out. `live` has one entry per position (at most
/// [`MAX_PLAYERS`] are read).
///
/// Only the levels of the players still in can change who may win, so the pots are cut
/// there rather than at every player's level (the layering gives the same pots, checked by
/// `pots_agree_with_the_first_layering`): the `j`th pot holds what every player put in
/// between the `j - 1`th level and the `j`th (the antes go into the first), the players
/// still in who reached the `j`th level may win it, and what only folded players put in
/// above the last level joins the last pot. The levels are a handful, sorted as they are
/// found; each player's chips are then spread over the levels they reached.
pub(super) fn build_pots_into(live: &[Chips], dead: Chips, in_hand: Players, pots: &mut PotList) {
    pots.len = 0;
    let live = &live[..live.len().min(MAX_PLAYERS)];
    let n = live.len();
    let eligible = in_hand & ((1u64 << n) - 1) as Players;
    if eligible == 0 {
        // Nobody can win a layer: everything is carried to one pot for the players in.
        let total = live.iter().fold(dead, |sum, &c| sum + c);
        if total > 0 {
            pots.push(Pot {
                amount: total,
                eligible: in_hand,
            });
        }
        return;
    }
    // The distinct levels of the players still in, smallest first.
    let mut levels = [0 as Chips; MAX_PLAYERS];
    let mut k = 0;
    let mut left = eligible;
    while left != 0 {
        let level = live[left.trailing_zeros() as usize];
        left &= left - 1;
        let mut at = k;
        while at > 0 && levels[at - 1] > level {
            at -= 1;
        }
        if at > 0 && levels[at - 1] == level {
            continue;
        }
        levels.copy_within(at..k, at + 1);
        levels[at] = level;
        k += 1;
    }
    let levels = &levels[..k];
    // Pot `j` is built in `pots.pots[j]`: each player's chips spread over the levels reached.
    for pot in &mut pots.pots[..k] {
        *pot = Pot {
            amount: 0,
            eligible: 0,
        };
    }
    pots.pots[0].amount = dead;
    let mut above = 0;
    for (p, &put) in live.iter().enumerate() {
        let bit = (eligible >> p & 1) << p;
        // The levels the player reached in full (eligible for those pots, if still in).
        let mut j = 0;
        let mut floor = 0;
        while j < k && levels[j] <= put {
            let pot = &mut pots.pots[j];
            pot.amount += levels[j] - floor;
            pot.eligible |= bit;
            floor = levels[j];
            j += 1;
        }
        // The rest goes into the next pot, short of its level, or above the last level.
        match pots.pots[..k].get_mut(j) {
            Some(pot) => pot.amount += put - floor,
            None => above += put - floor,
        }
    }
    pots.len = k;
    // Only the first pot can be empty (every player still in put nothing, and no antes).
    if pots.pots[0].amount == 0 {
        pots.pots.copy_within(1..k, 0);
        pots.len -= 1;
    }
    // What only folded players put in above the last level (odd records only).
    if above > 0 {
        match pots.last_mut() {
            Some(last) => last.amount += above,
            None => pots.push(Pot {
                amount: above,
                eligible: in_hand,
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The layering as first written (each level's layer summed over every player), kept
    /// as the reference the faster code is checked against.
    fn reference(live: &[Chips], dead: Chips, in_hand: Players) -> Vec<Pot> {
        let mut sorted = live.to_vec();
        sorted.sort_unstable();
        let mut pots: Vec<Pot> = Vec::new();
        let mut floor = 0;
        let mut carry = dead;
        for (i, &level) in sorted.iter().enumerate() {
            if i > 0 && sorted[i - 1] == level {
                continue;
            }
            let mut amount = std::mem::take(&mut carry);
            let mut eligible = 0;
            for (p, &c) in live.iter().enumerate() {
                amount += c.min(level).saturating_sub(floor);
                if c >= level && in_hand & (1 << p) != 0 {
                    eligible |= 1 << p;
                }
            }
            floor = level;
            match pots.last_mut() {
                Some(last) if eligible == 0 || last.eligible == eligible => last.amount += amount,
                _ if eligible == 0 => carry = amount,
                _ if amount > 0 => pots.push(Pot { amount, eligible }),
                _ => {}
            }
        }
        if carry > 0 {
            pots.push(Pot {
                amount: carry,
                eligible: in_hand,
            });
        }
        pots
    }

    /// The pots cut at the levels of the players still in are exactly the pots the first
    /// layering gave, on every small case: contributions 0..4 for up to five players, any set
    /// of players still in, with and without antes.
    #[test]
    fn pots_agree_with_the_first_layering() {
        for n in 1..=5usize {
            for code in 0..5usize.pow(n as u32) {
                let live: Vec<Chips> = (0..n)
                    .map(|p| (code / 5usize.pow(p as u32) % 5) as Chips)
                    .collect();
                // (A bit past the players, which no hand sets, must change nothing either.)
                for in_hand in (0..(1u32 << n)).flat_map(|m| [m, m | 1 << n]) {
                    for dead in [0, 3] {
                        let fast = build_pots_inline(&live, dead, in_hand);
                        let first = reference(&live, dead, in_hand);
                        assert_eq!(&*fast, &first[..], "{live:?} dead {dead} in {in_hand:b}");
                    }
                }
            }
        }
    }

    #[test]
    fn one_all_in_makes_a_side_pot() {
        // A all-in for 50; B and C each put 200; D folded after putting 20.
        let pots = build_pots(&[50, 200, 200, 20], 0, 0b0111);
        assert_eq!(
            pots,
            vec![
                Pot {
                    amount: 170,
                    eligible: 0b0111
                },
                Pot {
                    amount: 300,
                    eligible: 0b0110
                },
            ]
        );
        let total: Chips = pots.iter().map(|p| p.amount).sum();
        assert_eq!(total, 470);
    }

    #[test]
    fn equal_contributions_make_one_pot() {
        let pots = build_pots(&[100, 100, 100], 0, 0b111);
        assert_eq!(
            pots,
            vec![Pot {
                amount: 300,
                eligible: 0b111
            }]
        );
    }

    #[test]
    fn antes_are_dead_money_in_the_main_pot() {
        // A big-blind ante of 20 posted by C; A all-in for 50, B and C put in 200 each.
        let pots = build_pots(&[50, 200, 200], 20, 0b111);
        assert_eq!(
            pots,
            vec![
                Pot {
                    amount: 170,
                    eligible: 0b111
                },
                Pot {
                    amount: 300,
                    eligible: 0b110
                },
            ]
        );
        // A player all-in on the ante alone still plays for the antes.
        let pots = build_pots(&[0, 32, 32], 2, 0b111);
        assert_eq!(
            pots,
            vec![
                Pot {
                    amount: 2,
                    eligible: 0b111
                },
                Pot {
                    amount: 64,
                    eligible: 0b110
                },
            ]
        );
    }
}
