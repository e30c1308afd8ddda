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
pub(super) const MAX_POTS: usize = MAX_PLAYERS + 1;

/// Pots held inline, so that settling a hand allocates nothing: their amounts and their
/// eligible players as two arrays (a pot's two fields side by side would leave padding that
/// starting an empty list writes around, field by field; two plain arrays start empty in a
/// few wide stores).
#[derive(Clone, Copy)]
pub(super) struct PotList {
    amounts: [Chips; MAX_POTS],
    eligibles: [Players; MAX_POTS],
    len: usize,
}

impl PotList {
    /// No pots yet.
    pub(super) fn new() -> PotList {
        PotList {
            amounts: [0; MAX_POTS],
            eligibles: [0; MAX_POTS],
            len: 0,
        }
    }

    /// Empties the list (the entries past the length are never read).
    pub(super) fn clear(&mut self) {
        self.len = 0;
    }

    fn push(&mut self, pot: Pot) {
        self.amounts[self.len] = pot.amount;
        self.eligibles[self.len] = pot.eligible;
        self.len += 1;
    }

    /// How many pots there are.
    pub(super) fn len(&self) -> usize {
        self.len
    }

    /// Each pot's chips, main pot first.
    pub(super) fn amounts(&self) -> &[Chips] {
        &self.amounts[..self.len]
    }

    /// Each pot's chips, to take the commission from.
    pub(super) fn amounts_mut(&mut self) -> &mut [Chips] {
        &mut self.amounts[..self.len]
    }

    /// Each pot's eligible players, main pot first.
    pub(super) fn eligibles(&self) -> &[Players] {
        &self.eligibles[..self.len]
    }

    /// The run of pots from pot `first` that a dealer pushes together once the losing hands
    /// are killed: those after it whose eligible players among `contenders` are the same as
    /// its own. Returns the pot after the run, and the chips of the run.
    #[inline]
    pub(super) fn merged_from(&self, first: usize, contenders: Players) -> (usize, Chips) {
        let (amounts, eligibles) = (self.amounts(), self.eligibles());
        let mask = eligibles[first] & contenders;
        let mut amount = amounts[first];
        let mut next = first + 1;
        while next < amounts.len() && eligibles[next] & contenders == mask {
            amount += amounts[next];
            next += 1;
        }
        (next, amount)
    }

    /// The pots, main pot first.
    pub(super) fn iter(&self) -> impl Iterator<Item = Pot> + '_ {
        self.amounts()
            .iter()
            .zip(self.eligibles())
            .map(|(&amount, &eligible)| Pot { amount, eligible })
    }

    /// The pots as a list.
    pub(super) fn to_vec(self) -> Vec<Pot> {
        self.iter().collect()
    }
}

/// The pots of a hand whose players put in `contributed` (position by position, antes
/// included), `ante` of it as antes: what [`build_pots_into`] makes of the contributions less
/// the antes as live money and the antes as dead money, read straight from the hand's arrays
/// (entries past `n` are not read). Returns everything put in, and the antes in it.
#[inline]
pub(super) fn build_pots_from(
    n: usize,
    contributed: &[Chips; MAX_PLAYERS],
    ante: &[Chips; MAX_PLAYERS],
    in_hand: Players,
    pots: &mut PotList,
) -> (Chips, Chips) {
    let n = n.min(MAX_PLAYERS);
    let dead: Chips = ante[..n].iter().sum();
    let total = build_pots_into(n, |p| contributed[p] - ante[p], dead, in_hand, pots);
    (total, dead)
}

/// [`build_pots`] without allocating: the same pots, held inline. `live` has at most
/// [`MAX_PLAYERS`] entries (one per position).
fn build_pots_inline(live: &[Chips], dead: Chips, in_hand: Players) -> PotList {
    let mut pots = PotList::new();
    let n = live.len().min(MAX_PLAYERS);
    build_pots_into(n, |p| live[p], dead, in_hand, &mut pots);
    pots
}

/// The pots of [`build_pots`], written into `pots` (emptied first), which the caller holds
/// (nothing is copied on the way out), with `live(p)` read once for each position `p` below
/// `n` (at most [`MAX_PLAYERS`]).
///
/// The players are swept in the order of what they put in, keeping the sum of every
/// contribution up to the current level. Only the levels of the players still in change who
/// may win, so a pot is cut there and nowhere else (the layering at every level gives the
/// same pots, checked by `pots_agree_with_the_first_layering`): it holds what was put in
/// since the previous cut (the antes go into the first), and the players still in who
/// reached its level may win it. What only folded players put in above the last cut joins
/// the last pot. Returns everything put in (what the pots hold together).
pub(super) fn build_pots_into(
    n: usize,
    live: impl Fn(usize) -> Chips,
    dead: Chips,
    in_hand: Players,
    pots: &mut PotList,
) -> Chips {
    pots.len = 0;
    let n = n.min(MAX_PLAYERS);
    let eligible = in_hand & ((1u64 << n) - 1) as Players;
    // The common case, no side pot: every player still in put in the same. Then there is
    // one cut, and everything is one pot (for the players still in, unless the cut took
    // nothing at all: then only folded players put chips in, and they are carried to the
    // players in, as the sweep below would).
    // One pass: everything put in, and the least and the most a player still in put in.
    let mut total = dead;
    let (mut least, mut most) = (Chips::MAX, 0);
    for p in 0..n {
        let put = live(p);
        total += put;
        let still_in = eligible >> p & 1 != 0;
        least = least.min(if still_in { put } else { Chips::MAX });
        most = most.max(if still_in { put } else { 0 });
    }
    if least == most {
        if total > 0 {
            pots.push(Pot {
                amount: total,
                eligible: if least > 0 || dead > 0 {
                    eligible
                } else {
                    in_hand
                },
            });
        }
        return total;
    }
    // Every player by what they put in, smallest first (of equals, in position order). Up
    // to eight players whose amounts leave room for a position beside them (every hand but
    // a full ring, or stakes beyond belief): one key each, through a fixed network of
    // compare-exchanges, with no branch on the amounts (an insertion sort's comparisons
    // mispredict about half the time). Otherwise by insertion.
    if n <= NETWORK && total < 1 << (Chips::BITS - KEY_SHIFT) {
        let mut keys = [u64::MAX; NETWORK];
        for (p, key) in keys[..n].iter_mut().enumerate() {
            *key = live(p) << KEY_SHIFT | p as u64;
        }
        sort_network(&mut keys);
        return sweep(
            n,
            |i| (keys[i] >> KEY_SHIFT, (keys[i] & KEY_POSITION) as u32),
            dead,
            in_hand,
            eligible,
            pots,
        );
    }
    let mut sorted = [(0 as Chips, 0u32); MAX_PLAYERS];
    for p in 0..n {
        let put = live(p);
        let mut at = p;
        while at > 0 && sorted[at - 1].0 > put {
            sorted[at] = sorted[at - 1];
            at -= 1;
        }
        sorted[at] = (put, p as u32);
    }
    sweep(n, |i| sorted[i], dead, in_hand, eligible, pots)
}

/// How many players the sorting network takes.
const NETWORK: usize = 8;
/// A sort key is an amount shifted left past a position (positions are below 32).
const KEY_SHIFT: u32 = 5;
const KEY_POSITION: u64 = (1 << KEY_SHIFT) - 1;

/// Sorts eight keys, smallest first, with Knuth's 19 compare-exchanges for eight inputs:
/// always the same steps, whatever the keys, on keys held in registers (written out step
/// by step: a loop over the steps would go through memory).
#[inline(always)]
fn sort_network(keys: &mut [u64; NETWORK]) {
    /// One compare-exchange: the smaller key to `a`, the larger to `b`.
    #[inline(always)]
    fn cx(a: &mut u64, b: &mut u64) {
        let (x, y) = (*a, *b);
        *a = x.min(y);
        *b = x.max(y);
    }
    let [mut k0, mut k1, mut k2, mut k3, mut k4, mut k5, mut k6, mut k7] = *keys;
    cx(&mut k0, &mut k2);
    cx(&mut k1, &mut k3);
    cx(&mut k4, &mut k6);
    cx(&mut k5, &mut k7);
    cx(&mut k0, &mut k4);
    cx(&mut k1, &mut k5);
    cx(&mut k2, &mut k6);
    cx(&mut k3, &mut k7);
    cx(&mut k0, &mut k1);
    cx(&mut k2, &mut k3);
    cx(&mut k4, &mut k5);
    cx(&mut k6, &mut k7);
    cx(&mut k2, &mut k4);
    cx(&mut k3, &mut k5);
    cx(&mut k1, &mut k4);
    cx(&mut k3, &mut k6);
    cx(&mut k1, &mut k2);
    cx(&mut k3, &mut k4);
    cx(&mut k5, &mut k6);
    *keys = [k0, k1, k2, k3, k4, k5, k6, k7];
}

/// The sweep of [`build_pots_into`] over the `n` players by what they put in, smallest
/// first (`sorted(i)` is the `i`-th amount and its position), keeping the sum of every
/// contribution up to the current level; the pots go into `pots`, and everything put in is
/// returned.
#[inline(always)]
fn sweep(
    n: usize,
    sorted: impl Fn(usize) -> (Chips, u32),
    dead: Chips,
    in_hand: Players,
    eligible: Players,
    pots: &mut PotList,
) -> Chips {
    let mut eligible = eligible;
    // The contributions up to `floor`, antes included, and what the pots cut so far hold.
    let mut upto = dead;
    let mut floor = 0;
    let mut cut = 0;
    // The pots cut so far, counted here (not through `pots`, which the writes may alias).
    let mut len = 0;
    for i in 0..n {
        let (put, p) = sorted(i);
        // Every player not yet swept put in at least `put`.
        upto += (put - floor) * (n - i) as Chips;
        floor = put;
        let bit = 1 << p;
        let still_in = eligible & bit != 0;
        // A player still in cuts a pot at their level, if that takes anything (so only the
        // first of them at a level does: the others find nothing added since). The pot is
        // written whatever, and kept only then: no branch on the amounts. (It fits: fewer
        // pots were cut before than there are players. `pots` is empty.)
        let cuts = still_in & (upto > cut);
        pots.amounts[len] = upto - cut;
        pots.eligibles[len] = eligible;
        len += cuts as usize;
        cut = std::hint::select_unpredictable(cuts, upto, cut);
        eligible &= !bit;
    }
    pots.len = len;
    // What only folded players put in above the last cut (odd records only), or everything
    // when nobody who reached a level is still in.
    if upto > cut {
        let above = upto - cut;
        match pots.len.checked_sub(1) {
            Some(last) => pots.amounts[last] += above,
            None => pots.push(Pot {
                amount: above,
                eligible: in_hand,
            }),
        }
    }
    // Every player swept: everything put in.
    upto
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
                        assert_eq!(fast.to_vec(), first, "{live:?} dead {dead} in {in_hand:b}");
                        // Each pot's eligible players include the next pot's.
                        for pair in fast.eligibles().windows(2) {
                            assert_eq!(pair[1] & !pair[0], 0, "{live:?}");
                        }
                    }
                }
            }
        }
    }

    /// Larger tables and larger amounts than the exhaustive check reaches (the sorting
    /// network and the insertion sort both), against the first layering.
    #[test]
    fn pots_agree_with_the_first_layering_on_random_tables() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        for _ in 0..100_000 {
            let n = rng.random_range(1..=MAX_PLAYERS);
            let top: Chips = if rng.random_bool(0.1) { 1 << 62 } else { 20 };
            let live: Vec<Chips> = (0..n)
                .map(|_| match rng.random_range(0..3) {
                    0 => 0,
                    _ => rng.random_range(0..=top / n as Chips),
                })
                .collect();
            let in_hand: Players = rng.random();
            let dead = if rng.random_bool(0.3) { 3 } else { 0 };
            let fast = build_pots_inline(&live, dead, in_hand);
            let first = reference(&live, dead, in_hand);
            assert_eq!(fast.to_vec(), first, "{live:?} dead {dead} in {in_hand:b}");
        }
    }

    /// The network sorts every sequence of eight zeros and ones (so, by the zero-one
    /// principle, every sequence of eight keys).
    #[test]
    fn the_sorting_network_sorts() {
        for bits in 0..256u32 {
            let mut keys: [u64; NETWORK] = std::array::from_fn(|i| u64::from(bits >> i & 1));
            sort_network(&mut keys);
            assert!(keys.windows(2).all(|w| w[0] <= w[1]), "{bits:08b}");
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

    /// Pots whose remaining contenders are the same players are pushed together as one
    /// share; a pot a different set of contenders may win starts a new one.
    #[test]
    fn pots_with_the_same_contenders_are_pushed_together() {
        // A all-in for 50, B all-in for 120, C and D put in 200 each.
        let pots = build_pots_inline(&[50, 120, 200, 200], 0, 0b1111);
        assert_eq!(pots.amounts(), [200, 210, 160]);
        // C wins everything he contests, and A the main pot: the side pots are one share.
        let contenders = 0b0101;
        assert_eq!(pots.merged_from(0, contenders), (1, 200));
        assert_eq!(pots.merged_from(1, contenders), (3, 370));
        // A, B and C each win the pots they reach first: three shares.
        assert_eq!(pots.merged_from(1, 0b0111), (2, 210));
        assert_eq!(pots.merged_from(2, 0b0111), (3, 160));
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
