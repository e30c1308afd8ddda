//! Who won the last hand, for Win the Button (Solverde §3.1.5: the button goes to "o vencedor
//! da última jogada"; §3.1.5.1: "em caso de empate", to the player left of the button).
//!
//! The winner of a hand is the player awarded its main pot, the pot every player still in
//! contested: a side pot's winner does not take the button from him, and chips a player gets
//! back (an uncalled bet) win nothing. Several players sharing the main pot is a tie, whatever
//! odd chip one of them receives. This reading is recorded with pt-solverde-chaves-2023's
//! binding of `button.initial_position_and_rotation`.
//!
//! A caller that reports only the stacks after a hand it played itself (the daemon's tables)
//! gives no pots: [`by_stacks`] then takes the player who gained the most, which agrees with
//! the main pot except where a side pot pays someone more, or an odd chip tips a split.

use crate::hand::{Event, Hand};
use crate::Chips;

/// The winner of a hand, by position in the hand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LastHandWinner {
    /// One player won the main pot.
    One(usize),
    /// Several shared it, or nothing was awarded.
    Tied,
}

/// The winner of a hand the engine played: who was awarded its main pot.
pub fn of_hand(hand: &Hand) -> LastHandWinner {
    let mut main = hand.events().iter().filter_map(|e| match e {
        Event::Awarded { pot: 0, player, .. } => Some(*player),
        _ => None,
    });
    let Some(first) = main.next() else {
        return LastHandWinner::Tied;
    };
    if main.all(|p| p == first) {
        LastHandWinner::One(first)
    } else {
        LastHandWinner::Tied
    }
}

/// The winner of a hand known only by each position's stack `before` and `after` it: the
/// player who gained the most; two who gained the same most, or nobody gaining, is a tie.
pub fn by_stacks(before: &[Chips], after: &[Chips]) -> LastHandWinner {
    let gain = |i: usize| after[i] as i128 - before.get(i).copied().unwrap_or(0) as i128;
    let best = (0..after.len()).map(gain).max().unwrap_or(0);
    let mut winners = (0..after.len()).filter(|&i| best > 0 && gain(i) == best);
    match (winners.next(), winners.next()) {
        (Some(one), None) => LastHandWinner::One(one),
        _ => LastHandWinner::Tied,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::{parse_cards, Card};
    use crate::hand::{Action, HandConfig};
    use crate::rules::DefaultRules;
    use std::sync::Arc;

    fn hand(stacks: &[Chips], holes: &[&str]) -> Hand {
        let n = stacks.len();
        let config = HandConfig::holdem(stacks.to_vec(), n - 1, 5, 10);
        let mut hand = Hand::new(config, Arc::new(DefaultRules)).expect("valid config");
        for (p, h) in holes.iter().enumerate() {
            let hole: Vec<Option<Card>> = parse_cards(h)
                .expect("cards")
                .into_iter()
                .map(Some)
                .collect();
            hand.deal_hole(p, &hole).expect("deal");
        }
        hand
    }

    /// Deals the rest of the board (`flop turn river`), checking each street, and shows.
    fn check_down(hand: &mut Hand, board: [&str; 3]) {
        for b in board {
            hand.deal_board(&parse_cards(b).expect("board"))
                .expect("board");
            while let Some(legal) = hand.legal() {
                hand.act(legal.player, Action::CheckOrCall).expect("check");
            }
        }
        for p in 0..hand.config().stacks.len() {
            if !hand.is_complete() && !hand.has_folded(p) {
                hand.show(p, None).expect("show");
            }
        }
        assert!(hand.is_complete());
    }

    /// Everyone folds to a raise: the raise above the big blind comes back uncalled, and the
    /// raiser wins the blinds.
    #[test]
    fn an_uncalled_bet_wins_the_blinds() {
        let mut h = hand(&[1000, 1000, 1000], &["AhKh", "2c3d", "7s8s"]);
        h.act(2, Action::BetOrRaiseTo(500)).expect("raise");
        h.act(0, Action::Fold).expect("fold");
        h.act(1, Action::Fold).expect("fold");
        assert_eq!(h.stacks(), [995, 990, 1015]);
        assert_eq!(of_hand(&h), LastHandWinner::One(2));
        assert_eq!(by_stacks(&[1000; 3], &h.stacks()), LastHandWinner::One(2));
    }

    /// The small blind folds to a raise to 100 the big blind calls; both play a broadway
    /// straight on the board and split 205: the odd chip makes one gain 3 and the other 2,
    /// but the pot was shared, and that is a tie.
    #[test]
    fn a_split_pot_is_a_tie_whatever_its_odd_chip() {
        let mut h = hand(&[1000, 1000, 1000], &["2c3d", "4h5h", "6s7s"]);
        h.act(2, Action::BetOrRaiseTo(100)).expect("raise");
        h.act(0, Action::Fold).expect("fold");
        h.act(1, Action::Call).expect("call");
        check_down(&mut h, ["TsJdQc", "Kh", "As"]);
        assert_eq!(h.stacks(), [995, 1003, 1002]);
        assert_eq!(of_hand(&h), LastHandWinner::Tied);
        // The stacks alone cannot tell a shared pot from a win by one chip.
        assert_eq!(by_stacks(&[1000; 3], &h.stacks()), LastHandWinner::One(1));
    }

    /// A is all-in for 50 and wins the main pot of 150; B wins the side pot of 400 (+150 over
    /// his 250): A won the hand, though B gained more.
    #[test]
    fn the_main_pot_winner_wins_a_hand_with_a_side_pot() {
        let mut h = hand(&[50, 250, 250], &["AhAd", "KhKd", "7c2s"]);
        h.act(2, Action::AllIn).expect("all-in");
        h.act(0, Action::AllIn).expect("all-in");
        h.act(1, Action::AllIn).expect("all-in");
        check_down(&mut h, ["3c8dJs", "4h", "9c"]);
        assert_eq!(h.stacks(), [150, 400, 0]);
        assert_eq!(of_hand(&h), LastHandWinner::One(0));
        assert_eq!(
            by_stacks(&[50, 250, 250], &h.stacks()),
            LastHandWinner::One(1)
        );
    }

    #[test]
    fn a_hand_where_nobody_gains_is_a_tie_by_the_stacks() {
        assert_eq!(by_stacks(&[100, 100], &[100, 100]), LastHandWinner::Tied);
        assert_eq!(
            by_stacks(&[100, 100, 100], &[150, 150, 0]),
            LastHandWinner::Tied
        );
        assert_eq!(by_stacks(&[], &[]), LastHandWinner::Tied);
    }
}
