//! Cash-table behaviour that needs a table in a state the public operations reach only after
//! many hands (a stack worn below the big blind).

use super::{CashConfig, CashTable};
use crate::rules::DefaultRules;
use rand::SeedableRng;
use std::sync::Arc;

#[test]
fn security_finding_20_a_blind_ruling_says_what_a_short_player_posted() {
    let (mut table, _) =
        CashTable::new(Arc::new(DefaultRules), CashConfig::holdem(2, 100)).expect("table");
    for player in ["m1", "m2", "m3"] {
        table.seat(player, None, 100).expect("seat");
    }
    // Worn down to a single chip by earlier hands: he plays on, all in for what he has.
    for seat in table.table.seats.iter_mut().flatten() {
        seat.stack = 1;
    }
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
    let out = table.start_hand(&mut rng).expect("a hand");
    let blinds = out
        .iter()
        .find(|r| r.point == "blinds.positions_and_amounts")
        .expect("the blinds ruling")
        .text();
    assert!(
        blinds.contains("posts 1 of the 2 blind, all in"),
        "{blinds}"
    );
    assert!(!blinds.contains("posts 2"), "{blinds}");
    let hand = table.hand().expect("the hand");
    assert_eq!(
        hand.pot_total(),
        2,
        "a 1-chip small blind and a 1-chip big blind"
    );
}

/// A rebuy at the amount the table fixes is ruled at the point that fixes it, with the stack
/// it leaves; any other amount is refused and the stack is untouched.
#[test]
fn a_rebuy_at_the_fixed_amount_is_ruled_and_any_other_refused() {
    let mut config = CashConfig::holdem(2, 100);
    config.rebuy = Some(100);
    let (mut table, _) = CashTable::new(Arc::new(DefaultRules), config).expect("table");
    table.seat("m1", None, 100).expect("seat");
    assert!(table.rebuy("m1", 50).is_err(), "not the fixed rebuy");
    let out = table.rebuy("m1", 100).expect("the fixed rebuy");
    let r = out
        .iter()
        .find(|r| r.point == "cash.buy_in.initial_and_rebuy_amounts")
        .expect("the rebuy ruled");
    assert!(r.text().contains("m1 rebuys 100") && r.text().contains("200 in front of him"));
    let stack = table
        .table
        .seats
        .iter()
        .flatten()
        .map(|s| s.stack)
        .sum::<u64>();
    assert_eq!(stack, 200);
}

/// The draw at the start of the game seats every player drawn in his drawn seat with the
/// initial buy-in, and puts those left without a seat on the waiting list.
#[test]
fn the_initial_draw_seats_the_players_drawn_and_lists_the_rest() {
    let (mut table, _) =
        CashTable::new(Arc::new(DefaultRules), CashConfig::holdem(2, 100)).expect("table");
    let seats = table.table.seats.len();
    // One more registered player than the table seats.
    let registered: Vec<_> = (0..=seats)
        .map(|i| super::Registration {
            player: format!("m{i}"),
            previous_session: false,
        })
        .collect();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
    let out = table.draw_and_seat(&registered, &mut rng).expect("drawn");
    assert!(out.iter().any(|r| r.point == "seating.initial_draw"));
    let seated: Vec<_> = table.table.seats.iter().flatten().collect();
    assert_eq!(seated.len(), seats);
    assert!(seated.iter().all(|s| s.stack == 100));
    assert_eq!(table.waiting_list.len(), 1);
    assert!(
        table.draw_and_seat(&registered, &mut rng).is_err(),
        "not at a table already seated"
    );
}

/// A player resting at a cash table is shown sitting out at his seat in the table view, and
/// nobody else is; back in, the mark is gone.
#[test]
fn a_resting_player_is_shown_sitting_out_at_his_seat() {
    let (mut table, _) =
        CashTable::new(Arc::new(DefaultRules), CashConfig::holdem(2, 100)).expect("table");
    for player in ["m1", "m2", "m3"] {
        table.seat(player, None, 100).expect("seat");
    }
    table.sit_out("m2").expect("rests");
    let seat = table.seat_of("m2").expect("seated");
    let marked: Vec<usize> = table
        .table()
        .seat_views(crate::table::Viewer::Public)
        .iter()
        .filter(|s| s.sitting_out)
        .map(|s| s.seat)
        .collect();
    assert_eq!(marked, vec![seat]);
    table.sit_in("m2").expect("back");
    assert!(table
        .table()
        .seat_views(crate::table::Viewer::Public)
        .iter()
        .all(|s| !s.sitting_out));
}
