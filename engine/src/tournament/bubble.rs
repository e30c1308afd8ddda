//! The bubble and finishing places (rule points `tournament.hand_for_hand` and
//! `tournament.bubble_same_hand_eliminations`).
//!
//! Every eliminated player gets a finishing place: with `left` players in before a hand and
//! `k` of them eliminated in it, they take places `left - k + 1` to `left`. How they are ordered
//! among those places is ruled per ruleset:
//!
//! - [`SameHand::SplitEqually`]: pt-tournament Art. 79º(A), ao-tournament-2025 PR-8 — in the
//!   hand-for-hand hand that reaches the money, the players eliminated in it share the prizes
//!   of their places equally (for example 50 paid, 52 left, 3 out → they split the 50th prize).
//! - [`SameHand::LargerStackPlacesHigher`]: the engine's documented default where a text says
//!   nothing (common tournament practice): the player who started the hand with more chips
//!   finishes higher; equal starting stacks share their places.
//!
//! Prizes shared by several players are split equally to the cent; the cents that cannot be
//! split go one each to the sharers in order of their starting stacks, largest first (the
//! texts are silent on it).

use super::payouts::Payout;
use super::seating::PlayerId;
use super::Cents;
use crate::Chips;
use serde::Serialize;

/// How players eliminated in the same hand are placed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum SameHand {
    /// They share their places' prizes equally (all take the best of their places).
    SplitEqually,
    /// The larger starting stack finishes higher; equal stacks share.
    LargerStackPlacesHigher,
}

/// A player eliminated in a hand, with his stack when the hand began.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Bust {
    /// The player.
    pub player: PlayerId,
    /// His chips when the hand began.
    pub stack_at_start: Chips,
}

/// A finishing place.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Finish {
    /// The player.
    pub player: PlayerId,
    /// His place (1 = the winner); players who share places all take the best of them.
    pub place: u32,
    /// The last place of the group he shares with (equal to `place` when alone).
    pub shared_through: u32,
    /// His starting stack in the hand he went out in (orders the odd cents).
    pub stack_at_start: Chips,
}

/// Places the players eliminated in one hand, with `left` players in before it.
pub fn place(left: u32, busts: &[Bust], rule: SameHand) -> Vec<Finish> {
    let k = busts.len() as u32;
    let best = left.saturating_sub(k) + 1;
    let mut sorted = busts.to_vec();
    sorted.sort_by_key(|b| (std::cmp::Reverse(b.stack_at_start), b.player));
    match rule {
        SameHand::SplitEqually => sorted
            .iter()
            .map(|b| Finish {
                player: b.player,
                place: best,
                shared_through: left,
                stack_at_start: b.stack_at_start,
            })
            .collect(),
        SameHand::LargerStackPlacesHigher => {
            let mut out = Vec::new();
            let mut i = 0;
            while i < sorted.len() {
                let j = (i..sorted.len())
                    .take_while(|&j| sorted[j].stack_at_start == sorted[i].stack_at_start)
                    .count()
                    + i;
                for b in &sorted[i..j] {
                    out.push(Finish {
                        player: b.player,
                        place: best + i as u32,
                        shared_through: best + j as u32 - 1,
                        stack_at_start: b.stack_at_start,
                    });
                }
                i = j;
            }
            out
        }
    }
}

/// The prize of every finisher: the payouts of each group's places summed and split equally,
/// the odd cents one each from the largest starting stack down. Places beyond the payout list
/// win nothing.
pub fn prizes(finishes: &[Finish], payouts: &[Payout]) -> Vec<(PlayerId, Cents)> {
    let prize_of = |place: u32| {
        payouts
            .iter()
            .find(|p| p.place == place)
            .map_or(0, |p| p.amount)
    };
    let mut out = Vec::new();
    let mut groups: Vec<(u32, u32)> = finishes
        .iter()
        .map(|f| (f.place, f.shared_through))
        .collect();
    groups.sort_unstable();
    groups.dedup();
    for (first, last) in groups {
        let mut members: Vec<&Finish> = finishes
            .iter()
            .filter(|f| (f.place, f.shared_through) == (first, last))
            .collect();
        members.sort_by_key(|f| (std::cmp::Reverse(f.stack_at_start), f.player));
        let total: Cents = (first..=last).map(prize_of).sum();
        let n = members.len() as Cents;
        let (each, odd) = (total / n, total % n);
        for (i, f) in members.iter().enumerate() {
            out.push((f.player, each + Cents::from((i as Cents) < odd)));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn art_79_a_tv_a10_three_out_at_52_share_the_50th_prize() {
        let busts = [
            Bust {
                player: 7,
                stack_at_start: 5000,
            },
            Bust {
                player: 8,
                stack_at_start: 9000,
            },
            Bust {
                player: 9,
                stack_at_start: 1000,
            },
        ];
        let finishes = place(52, &busts, SameHand::SplitEqually);
        assert!(finishes
            .iter()
            .all(|f| f.place == 50 && f.shared_through == 52));
        let payouts: Vec<Payout> = (1..=50)
            .map(|place| Payout {
                place,
                amount: 10_000,
            })
            .collect();
        let paid = prizes(&finishes, &payouts);
        // 10,000 cents over three: 3,334 to the largest stack, 3,333 to the others.
        assert_eq!(paid, vec![(8, 3334), (7, 3333), (9, 3333)]);
        assert_eq!(paid.iter().map(|p| p.1).sum::<Cents>(), 10_000);
        // The default: the largest starting stack takes 50th, then 51st, 52nd.
        let finishes = place(52, &busts, SameHand::LargerStackPlacesHigher);
        let places: Vec<(PlayerId, u32)> = finishes.iter().map(|f| (f.player, f.place)).collect();
        assert_eq!(places, vec![(8, 50), (7, 51), (9, 52)]);
        assert_eq!(prizes(&finishes, &payouts)[0], (8, 10_000));
    }
}
