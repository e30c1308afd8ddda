//! Hands played under the bundled rulesets, where the texts differ on how a hand is run. Each
//! test names the article it proves.

use floor_engine::cards::parse_cards;
use floor_engine::hand::{Action, Hand, HandConfig};
use floor_engine::rules::{Citation, Rules};
use floor_tests::Repo;
use std::sync::Arc;

fn rules(id: &str) -> Arc<dyn Rules> {
    Repo::bundled().rules(id)
}

fn hole(text: &str) -> Vec<Option<floor_engine::cards::Card>> {
    parse_cards(text)
        .expect("cards")
        .into_iter()
        .map(Some)
        .collect()
}

/// Four players, button (or marker) at position 3; everyone calls preflop, then the flop.
fn to_the_flop(rules: Arc<dyn Rules>) -> Hand {
    let (config, _) = HandConfig::at_table(vec![1000; 4], 3, 5, 10, rules.as_ref());
    let mut hand = Hand::new(config, rules).expect("hand");
    for (p, cards) in ["AhKh", "2c3d", "QsQd", "7h7d"].iter().enumerate() {
        hand.deal_hole(p, &hole(cards)).expect("deal");
    }
    while let Some(p) = hand.actor() {
        let legal = hand.legal().expect("legal");
        let action = if legal.to_call > 0 {
            Action::Call
        } else {
            Action::Check
        };
        hand.act(p, action).expect("act");
    }
    hand.deal_board(&parse_cards("2s5s9c").expect("flop"))
        .expect("flop");
    hand
}

#[test]
fn pt_casino_2007_rules_81_and_85_the_marker_holder_posts_the_small_bet_and_opens_later_rounds() {
    let rules = rules("pt-casino-2007");
    let (config, citation) = HandConfig::at_table(vec![1000; 4], 3, 5, 10, rules.as_ref());
    // The marker holder (position 3) posts the small bet; the player on his left the big bet.
    assert_eq!(config.blinds, vec![10, 0, 0, 5]);
    assert_eq!(
        citation,
        Citation::Article("rules 81, 82, 83 (Hold'em via 92)".into())
    );
    let hand = to_the_flop(rules);
    assert_eq!(hand.actor(), Some(3), "the mão opens the flop");
}

#[test]
fn pt_tournament_the_small_blind_sits_left_of_the_button_and_opens_later_rounds() {
    let rules = rules("pt-tournament");
    let (config, citation) = HandConfig::at_table(vec![1000; 4], 3, 5, 10, rules.as_ref());
    assert_eq!(config.blinds, vec![5, 10, 0, 0]);
    assert_eq!(citation, Citation::Article("Art. 23º".into()));
    let hand = to_the_flop(rules);
    assert_eq!(hand.actor(), Some(0));
}

#[test]
fn pt_casino_2007_rule_86_a_raise_need_only_be_the_table_minimum() {
    // Blinds 5/10: A raises to 100 (a raise of 90). Under rule 86 B may raise to 110; under
    // pt-tournament Art. 48º(1) the minimum is 190.
    for (id, min_to) in [("pt-casino-2007", 110), ("pt-tournament", 190)] {
        let rules = rules(id);
        let (config, _) = HandConfig::at_table(vec![1000; 4], 3, 5, 10, rules.as_ref());
        let mut hand = Hand::new(config, rules).expect("hand");
        for (p, cards) in ["AhKh", "2c3d", "QsQd", "7h7d"].iter().enumerate() {
            hand.deal_hole(p, &hole(cards)).expect("deal");
        }
        let opener = hand.actor().expect("someone opens");
        hand.act(opener, Action::BetOrRaiseTo(100)).expect("raise");
        let legal = hand.legal().expect("legal");
        assert_eq!(legal.min_raise_to, Some(min_to), "{id}");
    }
}

/// The state machine works out in place the frequent questions a ruleset leaves to the
/// engine's default (`betting.min_raise`, `allin.reopening`, `betting.first_to_act`,
/// `betting.pot_limit_max`, `betting.raise_cap`) and asks the rest: each bundled ruleset
/// must report as left to the default exactly the points it does not decide by script or
/// bind a cap for — pt-casino-2007 decides the minimum raise (rule 86) and who opens later
/// rounds (rule 85) and caps the raises (rules 47, 88), pt-online decides the minimum raise
/// and binds "unlimited", br-adtp-2012 caps the raises even heads-up (rule 40),
/// pt-tournament (and pt-solverde-chaves-2023, which extends it) and ao-tournament-2025
/// decide the reopening after a short all-in.
#[test]
fn each_ruleset_leaves_to_the_default_exactly_the_frequent_points_it_does_not_decide() {
    use floor_engine::rules::DefaultedPoint::{
        FirstToAct, MinRaise, PotLimitMax, RaiseCap, Reopening,
    };
    let points = [
        ("betting.min_raise", MinRaise),
        ("allin.reopening", Reopening),
        ("betting.first_to_act", FirstToAct),
        ("betting.pot_limit_max", PotLimitMax),
    ];
    let mut decided = Vec::new();
    for id in floor_tests::RULESETS {
        let ruleset = Repo::bundled().load(id);
        let defaulted = rules(id).defaulted();
        for (point, flag) in points {
            let by_script = ruleset
                .resolve(point)
                .is_some_and(|r| r.binding.decision.is_some());
            assert_eq!(defaulted.contains(flag), !by_script, "{id}: {point}");
            if by_script {
                decided.push(format!("{id}: {point}"));
            }
        }
        // The cap is a PARAMETER: left to the default when no value is bound (unbound, or
        // bound as `engine_default` with the article).
        let cap_bound = ruleset
            .resolve("betting.raise_cap")
            .is_some_and(|r| r.binding.value.is_some());
        assert_eq!(defaulted.contains(RaiseCap), !cap_bound, "{id}: raise cap");
        if cap_bound {
            decided.push(format!("{id}: betting.raise_cap"));
        }
    }
    decided.sort();
    assert_eq!(
        decided,
        [
            "ao-tournament-2025: allin.reopening",
            "br-adtp-2012: betting.raise_cap",
            "pt-casino-2007: betting.first_to_act",
            "pt-casino-2007: betting.min_raise",
            "pt-casino-2007: betting.raise_cap",
            "pt-online: betting.min_raise",
            "pt-online: betting.raise_cap",
            "pt-solverde-chaves-2023: allin.reopening",
            "pt-tournament: allin.reopening",
        ]
    );
}
