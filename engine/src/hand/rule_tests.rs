//! The betting and showdown rules the standard texts decide (TDA 2022, Robert's Rules of
//! Poker), each played out on a small table: the minimum raise, reopening after short
//! all-ins, the fixed-limit cap, the run-out in which every hand but one is mucked, and what
//! the hand keeps for its readers (why a raise is refused, the pots once awarded).

use super::*;
use crate::cards::Card;
use crate::rules::{DefaultRules, PhhConventions, Rules};
use crate::Chips;
use std::sync::Arc;

fn table(structure: Structure, stacks: &[Chips], blinds: &[Chips], rules: Arc<dyn Rules>) -> Hand {
    let n = stacks.len();
    let config = HandConfig {
        variant: Variant::Holdem,
        structure,
        min_bet: blinds.iter().copied().max().unwrap_or(2),
        stacks: stacks.to_vec(),
        antes: vec![0; n],
        blinds: blinds.to_vec(),
        posts: vec![0; n],
        button: n - 1,
    };
    let mut hand = Hand::new(config, rules).expect("a valid table");
    for p in 0..n {
        hand.deal_hole(p, &[None, None]).expect("hole cards");
    }
    hand
}

fn cards(text: &str) -> Vec<Card> {
    crate::cards::parse_cards(text).expect("cards")
}

const FIXED: Structure = Structure::FixedLimit {
    small_bet: 10,
    big_bet: 20,
};

/// The minimum raise is the last full raise over the bet, whatever the opponents hold: a
/// raise no opponent can match in full is still a raise (the uncalled part goes back).
#[test]
fn the_minimum_raise_is_not_lowered_to_what_an_opponent_can_match() {
    // Blinds 5/10; the big blind has 15 in all.
    let mut hand = table(
        Structure::NoLimit,
        &[1000, 15, 1000],
        &[5, 10, 0],
        Arc::new(DefaultRules),
    );
    hand.act(2, Action::Fold).expect("the button folds");
    let legal = hand.legal().expect("the small blind to act");
    assert_eq!(
        legal.min_raise_to,
        Some(20),
        "a full raise, not the big blind's 15"
    );
    assert_eq!(
        hand.act(0, Action::BetOrRaiseTo(15)),
        Err(ActionError::BelowMinimum {
            verb: "raise",
            amount: 15,
            minimum: 20
        })
    );
    hand.act(0, Action::BetOrRaiseTo(60))
        .expect("any raise above the minimum");
}

/// Fixed limit: the fixed raise is legal even when the only opponent left cannot match it
/// (the engine once refused it, offering a raise to the opponent's stack instead).
#[test]
fn a_fixed_limit_raise_stands_when_the_opponent_is_short() {
    let mut hand = table(
        FIXED,
        &[1000, 15, 1000],
        &[5, 10, 0],
        Arc::new(DefaultRules),
    );
    hand.act(2, Action::Fold).expect("the button folds");
    let legal = hand.legal().expect("the small blind to act");
    assert_eq!(
        (legal.min_raise_to, legal.max_raise_to),
        (Some(20), Some(20))
    );
    hand.act(0, Action::BetOrRaiseTo(20))
        .expect("the fixed raise");
}

/// Pot limit with a pot below the minimum bet, against an opponent who holds less than it:
/// the minimum bet is legal (the engine once capped the bet at the opponent's stack).
#[test]
fn a_pot_limit_bet_of_the_minimum_is_legal_when_the_pot_is_smaller() {
    let config = HandConfig {
        variant: Variant::Holdem,
        structure: Structure::PotLimit,
        min_bet: 10,
        stacks: vec![1000, 1000, 9],
        antes: vec![0; 3],
        blinds: vec![1, 2, 0],
        posts: vec![0; 3],
        button: 2,
    };
    let mut hand = Hand::new(config, Arc::new(DefaultRules)).expect("a valid table");
    for p in 0..3 {
        hand.deal_hole(p, &[None, None]).expect("hole cards");
    }
    hand.act(2, Action::CheckOrCall).expect("a call");
    hand.act(0, Action::Fold).expect("a fold");
    hand.act(1, Action::CheckOrCall).expect("a check");
    hand.deal_board(&cards("2c7d9h")).expect("the flop");
    // A pot of 5, a minimum bet of 10, and the button holds 7.
    let legal = hand.legal().expect("the big blind to act");
    assert_eq!(
        (legal.min_raise_to, legal.max_raise_to),
        (Some(10), Some(10))
    );
    hand.act(1, Action::BetOrRaiseTo(10))
        .expect("the minimum bet");
}

/// No-limit: a short all-in does not reopen the betting for a player who already acted
/// (TDA 2022 Rule 47); the legal menu says why.
#[test]
fn a_short_all_in_does_not_reopen_for_a_player_who_acted() {
    let mut hand = table(
        Structure::NoLimit,
        &[1000, 1000, 1000, 35],
        &[5, 10, 0, 0],
        Arc::new(DefaultRules),
    );
    hand.act(2, Action::BetOrRaiseTo(30))
        .expect("a raise of 20");
    hand.act(3, Action::AllIn).expect("all in for 35, 5 more");
    hand.act(0, Action::Fold).expect("a fold");
    hand.act(1, Action::CheckOrCall).expect("a call");
    let legal = hand.legal().expect("the raiser to act");
    assert_eq!(legal.player, 2);
    assert_eq!(legal.min_raise_to, None);
    assert_eq!(
        legal.no_raise,
        Some(NoRaise::NotReopened {
            raised: 5,
            full: 20
        })
    );
}

/// Fixed limit under the default rules: an all-in of half a bet or more reopens the betting
/// and counts toward the cap (Robert's Rules, section 3); less than half does neither.
#[test]
fn fixed_limit_half_a_bet_reopens_and_counts_toward_the_cap() {
    let rules: Arc<dyn Rules> = Arc::new(DefaultRules);
    // Flop bet 10; an all-in to 15 (half a bet) reopens for the bettor.
    let mut hand = table(
        FIXED,
        &[1000, 1000, 25, 1000],
        &[5, 10, 0, 0],
        rules.clone(),
    );
    for p in [2, 3, 0, 1] {
        hand.act(p, Action::CheckOrCall).expect("calls");
    }
    hand.deal_board(&cards("2c7d9h")).expect("the flop");
    hand.act(0, Action::BetOrRaiseTo(10)).expect("a bet");
    hand.act(1, Action::CheckOrCall).expect("a call");
    hand.act(2, Action::AllIn).expect("all in to 15");
    hand.act(3, Action::CheckOrCall).expect("a call");
    let legal = hand.legal().expect("the bettor to act");
    assert_eq!((legal.player, legal.min_raise_to), (0, Some(25)));
    assert_eq!(
        hand.rulings().last().map(|r| r.point),
        Some("allin.reopening")
    );

    // An all-in to 14 (less than half a bet) does not.
    let mut hand = table(FIXED, &[1000, 1000, 24, 1000], &[5, 10, 0, 0], rules);
    for p in [2, 3, 0, 1] {
        hand.act(p, Action::CheckOrCall).expect("calls");
    }
    hand.deal_board(&cards("2c7d9h")).expect("the flop");
    hand.act(0, Action::BetOrRaiseTo(10)).expect("a bet");
    hand.act(1, Action::CheckOrCall).expect("a call");
    hand.act(2, Action::AllIn).expect("all in to 14");
    hand.act(3, Action::CheckOrCall).expect("a call");
    let legal = hand.legal().expect("the bettor to act");
    assert_eq!(
        legal.no_raise,
        Some(NoRaise::NotReopened {
            raised: 4,
            full: 10
        })
    );
}

/// Fixed limit: a cap reached three-handed stays reached when a fold leaves two; a round
/// that becomes heads-up before the cap has none.
#[test]
fn a_cap_reached_multiway_stays_reached_heads_up() {
    let mut hand = table(
        FIXED,
        &[1000, 1000, 1000],
        &[5, 10, 0],
        Arc::new(DefaultRules),
    );
    hand.act(2, Action::BetOrRaiseTo(20)).expect("raise 1");
    hand.act(0, Action::BetOrRaiseTo(30)).expect("raise 2");
    hand.act(1, Action::BetOrRaiseTo(40)).expect("raise 3");
    hand.act(2, Action::BetOrRaiseTo(50))
        .expect("raise 4: the cap");
    hand.act(0, Action::Fold).expect("a fold leaves two");
    let legal = hand.legal().expect("the big blind to act");
    assert_eq!(legal.no_raise, Some(NoRaise::CapReached { cap: 4 }));

    let mut hand = table(
        FIXED,
        &[1000, 1000, 1000],
        &[5, 10, 0],
        Arc::new(DefaultRules),
    );
    hand.act(2, Action::BetOrRaiseTo(20)).expect("raise 1");
    hand.act(0, Action::Fold).expect("heads-up before the cap");
    hand.act(1, Action::BetOrRaiseTo(30)).expect("raise 2");
    hand.act(2, Action::BetOrRaiseTo(40)).expect("raise 3");
    hand.act(1, Action::BetOrRaiseTo(50)).expect("raise 4");
    hand.act(2, Action::BetOrRaiseTo(60))
        .expect("heads-up: no cap");
}

/// The reference engine's conventions (PHH): the first bet of a round reopens the betting
/// even when it is a short all-in, so a player who checked may raise it.
#[test]
fn under_the_phh_conventions_a_short_opening_bet_reopens() {
    let phh: Arc<dyn Rules> = Arc::new(PhhConventions);
    let play = |rules: Arc<dyn Rules>| {
        let mut hand = table(Structure::NoLimit, &[1000, 1000, 3], &[1, 2, 0], rules);
        for p in [2, 0, 1] {
            hand.act(p, Action::CheckOrCall).expect("limps");
        }
        hand.deal_board(&cards("2c7d9h")).expect("the flop");
        hand.act(0, Action::CheckOrCall).expect("a check");
        hand.act(1, Action::CheckOrCall).expect("a check");
        hand.act(2, Action::AllIn)
            .expect("all in for 1, short of the 2 minimum");
        hand.legal().expect("the small blind to act")
    };
    assert_eq!(play(phh).min_raise_to, Some(3));
    assert_eq!(
        play(Arc::new(DefaultRules)).no_raise,
        Some(NoRaise::NotReopened { raised: 1, full: 2 })
    );
}

/// Every hand but one mucked during a run-out: the last live hand wins at once, without the
/// rest of the board; a board dealt afterwards changes nothing.
#[test]
fn a_run_out_with_one_live_hand_left_ends_at_once() {
    let mut hand = table(
        Structure::NoLimit,
        &[100, 100, 100],
        &[1, 2, 0],
        Arc::new(DefaultRules),
    );
    hand.act(2, Action::AllIn).expect("all in");
    hand.act(0, Action::AllIn).expect("all in");
    hand.act(1, Action::AllIn).expect("all in");
    hand.deal_board(&cards("2c7d9h")).expect("the flop");
    hand.muck(0).expect("a muck during the run-out");
    assert!(!hand.is_complete(), "two live hands remain");
    hand.muck(1).expect("a second muck");
    assert!(hand.is_complete(), "one live hand: the hand is over");
    assert_eq!(hand.stacks(), vec![0, 0, 300]);
    assert_eq!(hand.pots().iter().map(|p| p.amount).sum::<Chips>(), 300);
    hand.deal_board(&cards("Kd"))
        .expect("the turn, after the hand");
    assert_eq!(hand.board().len(), 4);
    assert_eq!(hand.stacks(), vec![0, 0, 300]);
}

/// A show after the hand: accepted once it is over, ruled on (`showdown.uncontested_pot`
/// for the sole winner), and refused with cards that were not dealt.
#[test]
fn a_show_after_an_uncontested_pot_is_ruled_on() {
    let config = HandConfig::holdem(vec![100, 100], 1, 1, 2);
    let mut hand = Hand::new(config, Arc::new(DefaultRules)).expect("a hand");
    let ace_king = [
        Some("Ah".parse().expect("a card")),
        Some("Kh".parse().expect("a card")),
    ];
    hand.deal_hole(0, &ace_king).expect("cards");
    hand.deal_hole(1, &[None, None]).expect("cards");
    assert!(
        hand.show_after_hand(0, &ace_king).is_err(),
        "not before the hand is over"
    );
    hand.act(1, Action::BetOrRaiseTo(6)).expect("a raise");
    hand.act(0, Action::Fold).expect("a fold");
    let queens = [
        Some("Qs".parse().expect("a card")),
        Some("Qd".parse().expect("a card")),
    ];
    hand.show_after_hand(1, &queens).expect("the winner shows");
    let ruling = hand.rulings().last().expect("a ruling");
    assert_eq!(ruling.point, "showdown.uncontested_pot");
    assert_eq!(ruling.text(), "player 2 shows QsQd after the hand: only one player is left: the pot is his without showing his cards");
    assert_eq!(
        hand.show_after_hand(0, &queens),
        Err(ActionError::Deal("player 1 was dealt Ah, not Qs".into()))
    );
    hand.show_after_hand(0, &ace_king)
        .expect("the folder shows");
    assert_eq!(
        hand.rulings().last().map(|r| r.point),
        Some("conduct.exposing_cards")
    );
}

/// The PHH conventions asked through the trait object at every reopening and showdown
/// order: what the state machine must agree with when it answers them in place.
struct PhhAskedEveryTime;

impl Rules for PhhAskedEveryTime {
    fn ruleset(&self) -> &crate::rules::RulesetRef {
        PhhConventions.ruleset()
    }
    fn defaulted(&self) -> crate::rules::DefaultedPoints {
        use crate::rules::DefaultedPoint::{ReferenceReopening, ShowdownOrder};
        PhhConventions
            .defaulted()
            .without(ReferenceReopening)
            .without(ShowdownOrder)
    }
    fn reopens_in_round(
        &self,
        ctx: &crate::rules::ReopenContext,
        round: &crate::rules::RoundHistory,
    ) -> crate::rules::Decided<bool> {
        PhhConventions.reopens_in_round(ctx, round)
    }
    fn showdown_order(
        &self,
        ctx: &crate::rules::ShowdownOrderContext,
    ) -> crate::rules::Decided<usize> {
        PhhConventions.showdown_order(ctx)
    }
}

/// Plays a no-limit hand under `rules` from `choices` (each picks the next action among
/// fold, check or call, the smallest raise and all-in, a raise only when one is allowed), dealing the board when it is due,
/// and returns every legal menu seen, the events and the rulings.
fn play_chosen(
    rules: Arc<dyn Rules>,
    stacks: &[Chips],
    choices: &[u8],
) -> (Vec<Legal>, Vec<Event>, Vec<crate::rules::Ruling>) {
    let mut hand = table(Structure::NoLimit, stacks, &[1, 2, 0, 0, 0, 0], rules);
    let board = cards("2c7d9hJsKd");
    let (mut menus, mut choices) = (Vec::new(), choices.iter().cycle());
    loop {
        match hand.phase() {
            Phase::DealingBoard => {
                let dealt = hand.board().len();
                let next = if dealt == 0 { 3 } else { 1 };
                hand.deal_board(&board[dealt..dealt + next])
                    .expect("the next board cards");
            }
            Phase::Betting => {
                let legal = hand.legal().expect("a player to act");
                // A raise (the smallest, or all in) only when one is allowed.
                let action = match (choices.next().copied().unwrap_or(1) % 8, legal) {
                    (0, _) => Action::Fold,
                    (
                        4..=6,
                        Legal {
                            min_raise_to: Some(to),
                            ..
                        },
                    ) => Action::BetOrRaiseTo(to),
                    (
                        7,
                        Legal {
                            min_raise_to: Some(_),
                            ..
                        },
                    ) => Action::AllIn,
                    _ => Action::CheckOrCall,
                };
                menus.push(legal);
                hand.act(legal.player, action).expect("a legal action");
            }
            _ => break,
        }
    }
    (menus, hand.events().to_vec(), hand.rulings().to_vec())
}

proptest::proptest! {
    /// Under the PHH conventions the state machine answers the reopening after short
    /// all-ins (the reference engine's reading of the round) and the showdown order in
    /// place: every menu, event and ruling is the one the conventions give when asked.
    #[test]
    fn under_the_phh_conventions_the_answers_worked_out_in_place_are_the_conventions(
        stacks in proptest::collection::vec(3 as Chips..40, 6),
        choices in proptest::collection::vec(0u8..8, 1..40),
    ) {
        let in_place = play_chosen(Arc::new(PhhConventions), &stacks, &choices);
        let asked = play_chosen(Arc::new(PhhAskedEveryTime), &stacks, &choices);
        proptest::prop_assert_eq!(in_place, asked);
    }
}
