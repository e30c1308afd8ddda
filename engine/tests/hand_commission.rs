//! The commission a hand played on its own takes when it is settled: from each payment where
//! the ruleset says so (pt-casino-2007 rule 65, pt-online rule 19), as the cash table takes
//! it; otherwise the engine's default, from the pot, main pot first.

use floor_engine::cards::{parse_cards, Card};
use floor_engine::hand::{Action, Event, Hand, HandConfig};
use floor_engine::rules::{Citation, Decided, EventDecision, RakeContext, Rules};
use floor_engine::Chips;
use std::collections::BTreeMap;
use std::sync::Arc;

/// 5% of every pot, and `cash.rake.split_payments` answered `from_each_payment` when `each`.
struct FivePercent {
    each: bool,
}

impl Rules for FivePercent {
    fn rake(&self, ctx: &RakeContext) -> Decided<Chips> {
        Decided {
            value: ctx.pot * 5 / 100,
            citation: Citation::Article("rule 7(a)".into()),
        }
    }

    fn table_event(&self, point: &str, facts: &BTreeMap<String, ron::Value>) -> EventDecision {
        if point == "cash.rake.split_payments" && self.each {
            return EventDecision {
                outcome: "from_each_payment".into(),
                fields: BTreeMap::new(),
                text: format!("from each payment ({facts:?})"),
                citation: Citation::Article("rule 65".into()),
            };
        }
        floor_engine::rules::DefaultRules.table_event(point, facts)
    }
}

fn cards(text: &str) -> Vec<Card> {
    parse_cards(text).expect("test cards")
}

/// A (position 0) is all-in for 50, B and C for 100 each; A holds aces, B and C kings that
/// tie: the main pot of 150 goes to A, the side pot of 100 is split 50 / 50 between B and C.
fn three_payments(rules: FivePercent) -> Hand {
    let config = HandConfig::holdem(vec![50, 100, 100], 2, 1, 2);
    let mut hand = Hand::new(config, Arc::new(rules)).expect("valid config");
    for (p, h) in ["AhAd", "KhKd", "KsKc"].iter().enumerate() {
        let hole: Vec<Option<Card>> = cards(h).into_iter().map(Some).collect();
        hand.deal_hole(p, &hole).expect("deal");
    }
    hand.act(2, Action::AllIn).expect("C all-in");
    hand.act(0, Action::AllIn).expect("A all-in");
    hand.act(1, Action::AllIn).expect("B all-in");
    for board in ["2c7d9h", "Js", "3c"] {
        hand.deal_board(&cards(board)).expect("board");
    }
    for p in 0..3 {
        if !hand.is_complete() {
            hand.show(p, None).expect("show");
        }
    }
    assert!(hand.is_complete());
    hand
}

fn raked(hand: &Hand) -> Vec<(usize, Chips)> {
    hand.events()
        .iter()
        .filter_map(|e| match e {
            Event::Raked { pot, amount } => Some((*pot, *amount)),
            _ => None,
        })
        .collect()
}

/// Rule 65 / rule 19: each payment bears 5%, rounded down: 7 of A's 150, 2 of B's 50 and 2 of
/// C's 50 — 11 in all, where the pot's 5% would be 12.
#[test]
fn rule_65_the_commission_is_taken_from_each_payment() {
    let hand = three_payments(FivePercent { each: true });
    assert_eq!(hand.stacks(), [143, 48, 48]);
    assert_eq!(raked(&hand), [(0, 7), (1, 2), (1, 2)]);
    assert_eq!(hand.stacks().iter().sum::<Chips>() + 11, 250);
    let log: Vec<String> = hand.rulings().iter().map(ToString::to_string).collect();
    assert!(
        log.iter().any(|l| l.contains("cash.rake.split_payments")
            && l.contains("rule 65")
            && l.contains("\"payments\": Number(I64(3))")
            && l.contains("\"all_in\": Bool(true)")),
        "{log:#?}"
    );
    assert!(
        log.iter().any(|l| l.starts_with(
            "a commission of 11 is taken from each payment: 7 of player 1's 150, 2 of player 2's 50, 2 of player 3's 50"
        ) && l.contains("rule 7(a)")),
        "{log:#?}"
    );
}

/// Where the ruleset does not say so, the engine's default: the pot's 5% (12), from the main
/// pot first, before it is paid.
#[test]
fn by_default_the_commission_is_taken_from_the_pot() {
    let hand = three_payments(FivePercent { each: false });
    assert_eq!(hand.stacks(), [138, 50, 50]);
    assert_eq!(raked(&hand), [(0, 12)]);
    let log: Vec<String> = hand.rulings().iter().map(ToString::to_string).collect();
    assert!(
        log.iter()
            .any(|l| l.starts_with("a commission of 12 is taken from the pot")),
        "{log:#?}"
    );
    assert!(
        log.iter()
            .any(|l| l.contains("cash.rake.split_payments")
                && l.contains("not regulated by this text")),
        "{log:#?}"
    );
}
