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
pub(super) fn build_pots_inline(live: &[Chips], dead: Chips, in_hand: Players) -> PotList {
    let n = live.len().min(MAX_PLAYERS);
    let mut pots = PotList {
        pots: [Pot {
            amount: 0,
            eligible: 0,
        }; MAX_POTS],
        len: 0,
    };
    // The common case, no side pot: every player still in put in the same. Then every layer
    // up to that level has the same eligible players (all of them) and is one pot, and a
    // layer above it only folded players reached joins it: one pot of everything, which is
    // what the layering below gives (checked against it by `pots_agree_with_the_first_layering`).
    if in_hand >> n == 0 {
        let mut total = dead;
        let mut level: Option<Chips> = None;
        let mut equal = true;
        for (p, &c) in live[..n].iter().enumerate() {
            total += c;
            if in_hand & (1 << p) != 0 {
                equal &= *level.get_or_insert(c) == c;
            }
        }
        if equal {
            if total > 0 {
                pots.push(Pot {
                    amount: total,
                    eligible: in_hand,
                });
            }
            return pots;
        }
    }
    layered(live, dead, in_hand, &mut pots);
    pots
}

/// The general case of [`build_pots_inline`]: one layer per distinct contribution level,
/// swept from the lowest with the players sorted by what they put in. A layer at `level`
/// above `floor` holds `level - floor` from each player who reached it (a player below it
/// reached no level between `floor` and `level`, there being none), and those players,
/// less the folded ones, may win it.
fn layered(live: &[Chips], dead: Chips, in_hand: Players, pots: &mut PotList) {
    let n = live.len().min(MAX_PLAYERS);
    let mut order = [(0 as Chips, 0usize); MAX_PLAYERS];
    for (slot, (p, &c)) in order.iter_mut().zip(live[..n].iter().enumerate()) {
        *slot = (c, p);
    }
    let order = &mut order[..n];
    order.sort_unstable();
    // The players who reached the current level, and how many they are.
    let mut reached: Players = ((1u64 << n) - 1) as Players;
    let mut count = n as Chips;
    let mut floor = 0;
    let mut carry = dead;
    let mut i = 0;
    while i < n {
        let level = order[i].0;
        let amount = std::mem::take(&mut carry) + (level - floor) * count;
        let eligible = reached & in_hand;
        floor = level;
        match pots.last_mut() {
            Some(last) if eligible == 0 || last.eligible == eligible => last.amount += amount,
            _ if eligible == 0 => carry = amount,
            _ if amount > 0 => pots.push(Pot { amount, eligible }),
            _ => {}
        }
        while i < n && order[i].0 == level {
            reached &= !(1 << order[i].1);
            count -= 1;
            i += 1;
        }
    }
    if carry > 0 {
        pots.push(Pot {
            amount: carry,
            eligible: in_hand,
        });
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

    /// The one-pot shortcut and the sweep give exactly the pots the first layering gave, on
    /// every small case:
    /// contributions 0..4 for up to five players, any set of players still in, with and
    /// without antes.
    #[test]
    fn pots_agree_with_the_first_layering() {
        let empty = PotList {
            pots: [Pot {
                amount: 0,
                eligible: 0,
            }; MAX_POTS],
            len: 0,
        };
        for n in 1..=5usize {
            for code in 0..5usize.pow(n as u32) {
                let live: Vec<Chips> = (0..n)
                    .map(|p| (code / 5usize.pow(p as u32) % 5) as Chips)
                    .collect();
                for in_hand in 0..(1u32 << n) {
                    for dead in [0, 3] {
                        let fast = build_pots_inline(&live, dead, in_hand);
                        let mut slow = empty;
                        layered(&live, dead, in_hand, &mut slow);
                        let first = reference(&live, dead, in_hand);
                        assert_eq!(&*fast, &*slow, "{live:?} dead {dead} in {in_hand:b}");
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
