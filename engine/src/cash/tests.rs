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
