//! The hand state machine on hands written by hand: minimum raises, reopening, pots, the odd
//! chip, structures, refusals that leave the state unchanged.

use floor_engine::cards::{parse_cards, Card};
use floor_engine::hand::{Action, ActionError, Event, Hand, HandConfig, Outcome, Phase, Structure};
use floor_engine::rules::{DefaultRules, PhhConventions, Rules};
use std::sync::Arc;

fn cards(text: &str) -> Vec<Card> {
    parse_cards(text).expect("test cards")
}

fn hole(text: &str) -> Vec<Option<Card>> {
    cards(text).into_iter().map(Some).collect()
}

fn default_rules() -> Arc<dyn Rules> {
    Arc::new(DefaultRules)
}

/// Positions 0 = small blind, 1 = big blind, ... last = button (the PHH order).
fn holdem(stacks: &[u64], sb: u64, bb: u64, rules: Arc<dyn Rules>) -> Hand {
    let n = stacks.len();
    let mut config = HandConfig::holdem(stacks.to_vec(), n - 1, sb, bb);
    if n == 2 {
        // Heads-up the button (position 1) posts the small blind.
        config.blinds = vec![bb, sb];
    }
    Hand::new(config, rules).expect("valid config")
}

fn deal(hand: &mut Hand, holes: &[&str]) {
    for (p, h) in holes.iter().enumerate() {
        hand.deal_hole(p, &hole(h)).expect("deal");
    }
}

fn total(hand: &Hand) -> u64 {
    hand.stacks().iter().sum::<u64>() + hand.pot_total()
}

#[test]
fn raise_below_the_minimum_is_refused_and_changes_nothing() {
    let mut hand = holdem(&[1000, 1000, 1000, 1000], 50, 100, default_rules());
    deal(&mut hand, &["AhKh", "2c3d", "QsQd", "7h8h"]);
    hand.act(2, Action::BetOrRaiseTo(300)).unwrap();
    let before = format!("{hand:?}");
    let err = hand.act(3, Action::BetOrRaiseTo(450)).unwrap_err();
    assert_eq!(
        err.to_string(),
        "raise to 450 is below the minimum raise to 500"
    );
    assert_eq!(
        format!("{hand:?}"),
        before,
        "a refused action leaves the hand unchanged"
    );
    hand.act(3, Action::BetOrRaiseTo(500)).unwrap();
}

#[test]
fn acting_out_of_turn_is_refused() {
    let mut hand = holdem(&[1000, 1000, 1000], 5, 10, default_rules());
    deal(&mut hand, &["AhKh", "2c3d", "QsQd"]);
    assert_eq!(hand.actor(), Some(2));
    let err = hand.act(0, Action::Fold).unwrap_err();
    assert_eq!(
        err,
        ActionError::OutOfTurn {
            player: 0,
            expected: 2
        }
    );
    assert_eq!(err.to_string(), "it is player 3's turn, not player 1's");
}

/// BTN raises, SB calls, BB's all-in is less than a full raise: under the usual rule the
/// button may only call or fold; under the PHH reference conventions betting reopens.
fn short_all_in_hand(rules: Arc<dyn Rules>) -> Hand {
    let mut hand = holdem(&[1000, 150, 1000], 5, 10, rules);
    deal(&mut hand, &["AhKh", "2c3d", "QsQd"]);
    hand.act(2, Action::BetOrRaiseTo(100)).unwrap();
    hand.act(0, Action::Call).unwrap();
    hand.act(1, Action::AllIn).unwrap();
    hand
}

#[test]
fn short_all_in_does_not_reopen_betting_by_default() {
    let mut hand = short_all_in_hand(default_rules());
    assert_eq!(hand.actor(), Some(2));
    let legal = hand.legal().unwrap();
    assert_eq!(legal.to_call, 50);
    assert_eq!(legal.min_raise_to, None);
    let err = hand.act(2, Action::BetOrRaiseTo(400)).unwrap_err();
    assert!(
        matches!(
            err,
            ActionError::NotReopened {
                raised: 50,
                full: 90
            }
        ),
        "{err}"
    );
    let ruling = hand
        .rulings()
        .iter()
        .find(|r| r.point == "allin.reopening")
        .unwrap();
    assert_eq!(ruling.ruleset.id.as_ref(), "default");
    assert!(ruling.to_string().contains("not regulated by this text"));
    hand.act(2, Action::Call).unwrap();
}

#[test]
fn short_all_in_does_not_reopen_for_the_raiser_under_the_phh_reference_conventions() {
    // The reference engine, like the usual rule, lets the button (who raised and has acted
    // since) only call or fold after an all-in short of a full raise.
    let mut hand = short_all_in_hand(Arc::new(PhhConventions));
    assert_eq!(hand.actor(), Some(2));
    let legal = hand.legal().unwrap();
    assert_eq!(legal.to_call, 50);
    assert_eq!(legal.min_raise_to, None);
    let err = hand.act(2, Action::BetOrRaiseTo(400)).unwrap_err();
    assert!(
        matches!(
            err,
            ActionError::NotReopened {
                raised: 50,
                full: 90
            }
        ),
        "{err}"
    );
    let ruling = hand
        .rulings()
        .iter()
        .find(|r| r.point == "allin.reopening")
        .expect("the short all-in is ruled on");
    assert_eq!(ruling.ruleset.id.as_ref(), "phh-reference");
    assert!(ruling.to_string().contains("not regulated by this text"));
    hand.act(2, Action::Call).unwrap();
    assert_eq!(hand.bet_of(2), 150);
}

#[test]
fn uncalled_bet_goes_back_and_the_pot_to_the_raiser() {
    let mut hand = holdem(&[1000, 1000], 5, 10, default_rules());
    deal(&mut hand, &["AhKh", "2c3d"]);
    // Heads-up the button (position 1) posted the small blind and acts first.
    assert_eq!(hand.actor(), Some(1));
    hand.act(1, Action::BetOrRaiseTo(30)).unwrap();
    hand.act(0, Action::Fold).unwrap();
    assert!(hand.is_complete());
    assert!(hand.events().contains(&Event::UncalledReturned {
        player: 1,
        amount: 20
    }));
    assert_eq!(hand.stacks(), vec![990, 1010]);
}

#[test]
fn side_pots_go_to_the_best_hand_each_can_win() {
    // Position 0 has the best hand but only 100; 1 the second best with 300; 2 the worst.
    let mut hand = holdem(&[100, 300, 1000], 5, 10, default_rules());
    deal(&mut hand, &["AsAh", "KsKh", "2c7d"]);
    hand.act(2, Action::AllIn).unwrap();
    hand.act(0, Action::AllIn).unwrap();
    hand.act(1, Action::AllIn).unwrap();
    assert_eq!(hand.phase(), Phase::DealingBoard);
    hand.deal_board(&cards("9c5dJh")).unwrap();
    hand.deal_board(&cards("3s")).unwrap();
    hand.deal_board(&cards("4h")).unwrap();
    assert_eq!(hand.phase(), Phase::Showdown);
    for p in 0..3 {
        hand.show(p, None).unwrap();
    }
    assert_eq!(hand.outcome(), Outcome::Awarded);
    // Main pot 300 to AA; side pot 400 to KK; the uncalled 700 back to position 2.
    assert_eq!(hand.stacks(), vec![300, 400, 700]);
    assert_eq!(total(&hand), 1400);
}

#[test]
fn a_split_pot_gives_the_odd_chip_left_of_the_button() {
    // Antes of 1 and blinds of 1/2: the button folds, the blinds check it down and both play a
    // royal flush on the board. The pot of 7 splits 3 + 3 and the odd chip goes to the first
    // winner left of the button (the engine default; rulesets bind `showdown.odd_chip`).
    let mut config = HandConfig::holdem(vec![500, 500, 500], 0, 1, 2);
    config.antes = vec![1, 1, 1];
    let mut hand = Hand::new(config, default_rules()).unwrap();
    deal(&mut hand, &["2c3d", "2d3h", "2h3s"]);
    hand.act(0, Action::Fold).unwrap();
    hand.act(1, Action::Call).unwrap();
    hand.act(2, Action::Check).unwrap();
    for board in ["AsKsQs", "Js", "Ts"] {
        hand.deal_board(&cards(board)).unwrap();
        while let Some(p) = hand.actor() {
            hand.act(p, Action::Check).unwrap();
        }
    }
    for p in 1..3 {
        hand.show(p, None).unwrap();
    }
    assert_eq!(hand.stacks(), vec![499, 501, 500]);
    let ruling = hand
        .rulings()
        .iter()
        .find(|r| r.point == "showdown.odd_chip")
        .expect("an odd-chip ruling");
    assert_eq!(
        ruling.text(),
        "pot 1 splits 2 ways; the odd chip goes to player 2"
    );
    assert_eq!(ruling.citation.to_string(), "not regulated by this text");
}

#[test]
fn pot_limit_caps_a_raise_at_the_pot_after_calling() {
    let mut config = HandConfig::holdem(vec![1000, 1000, 1000], 2, 1, 2);
    config.structure = Structure::PotLimit;
    let mut hand = Hand::new(config, default_rules()).unwrap();
    deal(&mut hand, &["AhKh", "2c3d", "QsQd"]);
    // Pot 3, call 2: raise by at most 5, to 7.
    assert_eq!(hand.legal().unwrap().max_raise_to, Some(7));
    let err = hand.act(2, Action::BetOrRaiseTo(8)).unwrap_err();
    assert_eq!(
        err.to_string(),
        "raise to 8 is above the maximum raise to 7"
    );
    hand.act(2, Action::BetOrRaiseTo(7)).unwrap();
}

#[test]
fn half_pot_limit_of_the_2007_decree_caps_at_half() {
    let mut config = HandConfig::holdem(vec![1000, 1000, 1000], 2, 10, 20);
    config.structure = Structure::HalfPotLimit;
    let mut hand = Hand::new(config, default_rules()).unwrap();
    deal(&mut hand, &["AhKh", "2c3d", "QsQd"]);
    // Pot 30, call 20: pot after calling 50, half of it 25: raise to at most 45.
    assert_eq!(hand.legal().unwrap().max_raise_to, Some(45));
}

#[test]
fn fixed_limit_caps_raises_except_heads_up() {
    let mut config = HandConfig::holdem(vec![1000, 1000, 1000], 2, 1, 2);
    config.structure = Structure::FixedLimit {
        small_bet: 2,
        big_bet: 4,
    };
    let mut hand = Hand::new(config, default_rules()).unwrap();
    deal(&mut hand, &["AhKh", "2c3d", "QsQd"]);
    let err = hand.act(2, Action::BetOrRaiseTo(5)).unwrap_err();
    assert_eq!(
        err.to_string(),
        "in fixed limit the raise must be to exactly 4, not 5"
    );
    for (p, to) in [(2, 4), (0, 6), (1, 8), (2, 10)] {
        hand.act(p, Action::BetOrRaiseTo(to)).unwrap();
    }
    // Four voluntary bets and raises (blinds are not counted, as in the PHH reference
    // engine) reach the default cap.
    let err = hand.act(0, Action::BetOrRaiseTo(12)).unwrap_err();
    assert_eq!(
        err.to_string(),
        "the raise cap of 4 bets and raises this round is reached"
    );
    let legal = hand.legal().unwrap();
    assert_eq!(legal.to_call, 4);
    assert_eq!(legal.min_raise_to, None);
    // A cap reached three-handed stays reached when a fold leaves two.
    hand.act(0, Action::Fold).unwrap();
    let err = hand.act(1, Action::BetOrRaiseTo(12)).unwrap_err();
    assert_eq!(
        err.to_string(),
        "the raise cap of 4 bets and raises this round is reached"
    );
    // Heads-up from the start the cap does not apply.
    let mut config = HandConfig::holdem(vec![1000, 1000], 1, 1, 2);
    config.structure = Structure::FixedLimit {
        small_bet: 2,
        big_bet: 4,
    };
    let mut hand = Hand::new(config, default_rules()).unwrap();
    deal(&mut hand, &["AhKh", "2c3d"]);
    for to in [4, 6, 8, 10, 12, 14] {
        let p = hand.actor().unwrap();
        hand.act(p, Action::BetOrRaiseTo(to)).unwrap();
    }
}

#[test]
fn when_every_contender_of_a_side_pot_mucks_the_last_live_hand_wins_it() {
    // Position 0 is all-in for 100 (main pot); 1 and 2 contest a side pot and both muck at
    // showdown, 1 first: 2 held the last live hand for the side pot.
    let mut hand = holdem(&[100, 500, 500], 5, 10, default_rules());
    deal(&mut hand, &["AsAh", "KsKh", "QcQd"]);
    hand.act(2, Action::BetOrRaiseTo(300)).unwrap();
    hand.act(0, Action::AllIn).unwrap();
    hand.act(1, Action::Call).unwrap();
    for board in ["9c5dJh", "3s", "4h"] {
        while let Some(p) = hand.actor() {
            hand.act(p, Action::Check).unwrap();
        }
        hand.deal_board(&cards(board)).unwrap();
    }
    while let Some(p) = hand.actor() {
        hand.act(p, Action::Check).unwrap();
    }
    hand.show(0, None).unwrap();
    hand.muck(1).unwrap();
    hand.muck(2).unwrap();
    assert!(hand.is_complete());
    // Main pot 300 to position 0; side pot 400 to position 2.
    assert_eq!(hand.stacks(), vec![300, 200, 600]);
}

#[test]
fn a_duplicate_card_is_refused() {
    let mut hand = holdem(&[100, 100], 1, 2, default_rules());
    hand.deal_hole(0, &hole("AsAh")).unwrap();
    let err = hand.deal_hole(1, &hole("AsKd")).unwrap_err();
    assert_eq!(
        err.to_string(),
        "cannot deal now: As has already been dealt"
    );
}

#[test]
fn a_hand_log_reads_as_a_floor_persons_explanation() {
    // Three players; the button raises, the small blind moves all in for 151, both call; the
    // board pairs the kings and the two ace-kings split the pot of 453 against the sevens; the
    // odd chip goes to the first winner left of the button.
    let mut hand = holdem(&[151, 1000, 1000], 5, 10, default_rules());
    deal(&mut hand, &["AhKh", "AdKd", "7c7d"]);
    hand.act(2, Action::BetOrRaiseTo(30)).unwrap();
    hand.act(0, Action::AllIn).unwrap();
    hand.act(1, Action::Call).unwrap();
    hand.act(2, Action::Call).unwrap();
    for board in ["2s3s9c", "Jh", "Kc"] {
        hand.deal_board(&cards(board)).unwrap();
        while let Some(p) = hand.actor() {
            hand.act(p, Action::Check).unwrap();
        }
    }
    for p in [0, 1, 2] {
        if hand.can_show(p) {
            hand.show(p, None).unwrap();
        }
    }
    let log: Vec<String> = hand.rulings().iter().map(ToString::to_string).collect();
    insta::assert_snapshot!(log.join("\n"));
    assert_eq!(hand.stacks(), vec![227, 1000 - 151 + 226, 1000 - 151]);
}

#[test]
fn refusals_say_why() {
    let mut hand = holdem(&[1000, 1000, 1000], 50, 100, default_rules());
    deal(&mut hand, &["AhKh", "2c3d", "QsQd"]);
    let mut refusals = Vec::new();
    for (player, action) in [
        (0, Action::Check),
        (2, Action::Check),
        (2, Action::BetOrRaiseTo(150)),
        (2, Action::BetOrRaiseTo(5000)),
        (7, Action::Fold),
    ] {
        let error: ActionError = hand.act(player, action).unwrap_err();
        refusals.push(format!("player {} {action:?}: {error}", player + 1));
    }
    insta::assert_snapshot!(refusals.join("\n"));
}
