//! The deal and the points checked by hand, and the invariants by property.

use crate::chop::{chop_deals, chop_points, deal};
use proptest::prelude::*;
use serde_json::json;

fn cents(stacks: &[u64], prizes: &[u64]) -> Vec<u64> {
    deal(stacks, prizes).into_iter().map(|s| s.cents).collect()
}

#[test]
fn s7_3_heads_up_deal_is_second_prize_plus_chip_share_of_the_difference() {
    // 600 € and 400 € left; 7 500 vs 2 500 chips: 400 + 3/4·200 = 550 €, 400 + 1/4·200 = 450 €.
    assert_eq!(cents(&[7500, 2500], &[60000, 40000]), vec![55000, 45000]);
}

#[test]
fn s7_3_three_way_deal_rounds_to_the_cent_and_sums_exactly() {
    // Exact: 3839 2/7, 3275, 2885 5/7 cents. Floors sum to 9999; the odd cent goes to the
    // largest fraction (5/7, player 3).
    assert_eq!(
        cents(&[50, 30, 20], &[5000, 3000, 2000]),
        vec![3839, 3275, 2886]
    );
}

#[test]
fn s7_3_equal_stacks_split_equally_and_the_odd_cents_go_in_seat_order() {
    assert_eq!(
        cents(&[100, 100, 100], &[600, 300, 100]),
        vec![334, 333, 333]
    );
    assert_eq!(cents(&[100, 100], &[700, 300]), vec![500, 500]);
}

#[test]
fn s7_3_a_short_stack_still_gets_more_than_the_last_prize() {
    // 500 € + 1% of the 500 € difference = 505 €; the chip leader 500 € + 99% = 995 €.
    let deal = cents(&[9900, 100], &[100000, 50000]);
    assert_eq!(deal, vec![99500, 50500]);
}

#[test]
fn s9_2_chop_points_divide_the_remaining_prizes_and_round_up() {
    // 100 € among 3: 33.33 → 34 points each.
    assert_eq!(chop_points(10000, 3), 34);
    // 1 000 € among 4: exactly 250.
    assert_eq!(chop_points(100000, 4), 250);
    // 1 000.01 € among 4: 250.0025 → 251.
    assert_eq!(chop_points(100001, 4), 251);
}

#[test]
fn s7_3_the_rule_point_answers_in_json_with_deals_and_points() {
    let answer = chop_deals(json!({
        "stacks": [50, 30, 20],
        "prizes": [5000, 3000, 2000],
        "buy_in": 5000
    }))
    .unwrap();
    assert_eq!(answer["total"], 10000);
    let deals: Vec<u64> = answer["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["deal"].as_u64().unwrap())
        .collect();
    assert_eq!(deals, vec![3839, 3275, 2886]);
    assert_eq!(answer["players"][0]["exact"], "26875/7");
    assert_eq!(answer["ranking_points"]["chop"], 34);
    assert_eq!(answer["ranking_points"]["buy_in"], 50);
    assert_eq!(answer["players"][2]["ranking_points"], 84);
}

#[test]
fn contexts_the_deal_cannot_be_made_from_are_refused_with_the_reason() {
    let error = |ctx| chop_deals(ctx).unwrap_err();
    assert!(error(json!({"stacks": [1], "prizes": [10]})).contains("at least 2"));
    let eleven = vec![100; 11];
    assert!(error(json!({"stacks": eleven, "prizes": [10]}))
        .contains("limited to 10 (the largest final table, pt-tournament Art. 11º)"));
    assert!(error(json!({"stacks": [5, 0], "prizes": [10]})).contains("player 2 has no chips"));
    assert!(error(json!({"stacks": [5, 5], "prizes": [3, 2, 1]})).contains("3 prizes for 2"));
    assert!(error(json!({"stacks": [5, 5]})).contains("a chop needs"));
    assert!(error(json!({"stacks": [5, 5], "prizes": [-3]})).contains("a chop needs"));
}

#[test]
fn ten_players_are_computed_at_once() {
    let stacks: Vec<u64> = (1..=10).map(|i| i * 1000).collect();
    let prizes: Vec<u64> = (1..=10).rev().map(|i| i * 10_000).collect();
    let deal = cents(&stacks, &prizes);
    assert_eq!(deal.iter().sum::<u64>(), prizes.iter().sum::<u64>());
    assert!(deal.windows(2).all(|w| w[0] <= w[1]), "{deal:?}");
}

fn table() -> impl Strategy<Value = (Vec<u64>, Vec<u64>)> {
    (2usize..=7).prop_flat_map(|n| {
        (
            prop::collection::vec(1u64..1_000_000, n),
            prop::collection::vec(0u64..10_000_000, 1..=n),
        )
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn the_deal_sums_exactly_to_the_prizes_and_each_is_within_a_cent((stacks, prizes) in table()) {
        let shares = deal(&stacks, &prizes);
        prop_assert_eq!(shares.iter().map(|s| s.cents).sum::<u64>(), prizes.iter().sum::<u64>());
        for share in &shares {
            let floor = share.exact.floor().to_integer();
            let paid = num_bigint::BigInt::from(share.cents);
            prop_assert!(paid == floor || paid == floor + 1u32);
        }
    }

    #[test]
    fn a_bigger_stack_never_gets_a_smaller_deal((stacks, prizes) in table()) {
        let mut prizes = prizes;
        prizes.sort_unstable_by(|a, b| b.cmp(a));
        let deal = cents(&stacks, &prizes);
        for i in 0..stacks.len() {
            for j in 0..stacks.len() {
                if stacks[i] > stacks[j] {
                    prop_assert!(deal[i] >= deal[j], "{:?} {:?} {:?}", stacks, prizes, deal);
                }
            }
        }
    }

    #[test]
    fn adding_chips_to_a_player_never_lowers_their_deal((stacks, prizes) in table(), extra in 1u64..100_000) {
        let mut prizes = prizes;
        prizes.sort_unstable_by(|a, b| b.cmp(a));
        let before = deal(&stacks, &prizes);
        let mut more = stacks.clone();
        more[0] += extra;
        let after = deal(&more, &prizes);
        prop_assert!(after[0].exact >= before[0].exact);
    }

    #[test]
    fn equal_stacks_get_equal_shares_to_the_cent(n in 2usize..=8, stack in 1u64..1_000_000,
                                                 prizes in prop::collection::vec(0u64..1_000_000, 1..=2)) {
        let deal = cents(&vec![stack; n], &prizes);
        let max = deal.iter().max().copied().unwrap_or(0);
        let min = deal.iter().min().copied().unwrap_or(0);
        prop_assert!(max - min <= 1);
        let total: u64 = prizes.iter().sum();
        prop_assert_eq!(min, total / n as u64);
    }
}
