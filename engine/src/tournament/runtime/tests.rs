//! The runtime's own tests: entry windows, re-entries, purchased chips, and any field played
//! to a winner.

use super::*;
use crate::rules::DefaultRules;
use crate::tournament::structure::Level;
use proptest::prelude::*;
use rand::SeedableRng;

fn setup(seats: usize, paid: u32) -> Setup {
    let levels = (0..20u64)
        .map(|i| Level {
            small_blind: 25 << i.min(12),
            big_blind: 50 << i.min(12),
            ante: 0,
            big_blind_ante: false,
            minutes: 10,
        })
        .collect();
    Setup {
        seats_per_table: seats,
        starting_stack: 5_000,
        structure: Structure {
            levels,
            breaks: Vec::new(),
        },
        modality: Modality::Standard,
        format: "full_ring".into(),
        paid_places: paid,
    }
}

/// Solverde §6.1 / pt-tournament Art. 7º: once the windows are announced, a late entry
/// and a re-entry after the last level are refused and nobody is seated; where the rules
/// do not decide, the announced window does and the refusal says so.
#[test]
fn art_7_entries_outside_the_announced_window_are_refused() {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
    let mut t = Tournament::new(setup(9, 3), Arc::new(DefaultRules)).unwrap();
    t.start(12, &mut rng).unwrap();
    t.announce_entry_windows(EntryWindows {
        late_registration_until_level: Some(1),
        re_entries: false,
    });
    assert_eq!(t.late_entry("late_registrant", &mut rng).unwrap(), 13);
    let err = t.late_entry("reentry", &mut rng).unwrap_err();
    assert!(
        matches!(&err, RuntimeError::EntryRefused { what, citation, .. }
            if what == "re-entry" && citation == "not regulated by this text"),
        "{err}"
    );
    t.elapse(600);
    assert_eq!(t.current_level(), 2);
    let err = t.late_entry("late_registrant", &mut rng).unwrap_err();
    assert!(
        err.to_string()
            .contains("closed at the end of level 1; this is level 2"),
        "{err}"
    );
    assert_eq!((t.entries(), t.players_left()), (13, 13));
    assert_eq!(t.chips_in_play(), 13 * 5_000);
    assert_eq!(t.chips_at_tables(), t.chips_in_play());
}

/// A late entry inside the window with every seat taken fails and changes nothing: the
/// entry count, the chips in play and the rulings are as before (the window's ruling is
/// withdrawn with the entry).
#[test]
fn a_late_entry_without_a_free_seat_changes_nothing() {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(10);
    let mut t = Tournament::new(setup(2, 1), Arc::new(DefaultRules)).unwrap();
    t.start(2, &mut rng).unwrap();
    t.announce_entry_windows(EntryWindows {
        late_registration_until_level: Some(5),
        re_entries: true,
    });
    let rulings = t.rulings().len();
    for category in ["late_registrant", "reentry"] {
        assert_eq!(
            t.late_entry(category, &mut rng),
            Err(RuntimeError::NoSeat(3))
        );
    }
    assert_eq!(t.rulings().len(), rulings);
    assert_eq!((t.entries(), t.players_left()), (2, 2));
    assert_eq!(t.chips_in_play(), 2 * 5_000);
    assert_eq!(t.chips_at_tables(), t.chips_in_play());
}

/// Callers that announce no window keep the old behaviour: entries are not checked.
#[test]
fn without_an_announcement_late_entries_are_not_checked() {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(8);
    let mut t = Tournament::new(setup(9, 3), Arc::new(DefaultRules)).unwrap();
    t.start(10, &mut rng).unwrap();
    t.elapse(6_000);
    let (chips, left) = (t.chips_in_play(), t.players_left());
    let player = t.late_entry("reentry", &mut rng).expect("not checked");
    assert_eq!((player, t.entries()), (11, 11));
    assert_eq!(t.players_left(), left + 1);
    assert_eq!(t.chips_in_play(), chips + 5_000);
    assert!(t
        .rulings()
        .iter()
        .all(|r| r.point != "tournament.late_registration" && r.point != "tournament.reentry"));
}

/// pt-tournament Art. 7º(2): a seated player gives up his stack and buys a new one; the
/// chips of the stack given up leave the tournament. Under the engine's defaults the
/// announced window decides: refused before any announcement (nothing changes), allowed
/// inside it (the chips in play drop by exactly the stack given up and he holds a full
/// starting stack at a seat), refused once the window closed.
#[test]
fn art_7_2_reentry_abandons_the_stack() {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(72);
    let mut t = Tournament::new(setup(9, 3), Arc::new(DefaultRules)).unwrap();
    t.start(12, &mut rng).unwrap();
    t.eliminate(&[1], 2).unwrap();
    assert_eq!(t.chips_in_play(), 12 * 5_000);
    let err = t.abandon_stack(2, &mut rng).unwrap_err();
    assert!(
        matches!(&err, RuntimeError::EntryRefused { what, citation, .. }
            if what == "re-entry" && citation == "not regulated by this text"),
        "{err}"
    );
    assert_eq!(t.chips_in_play(), 12 * 5_000);
    t.announce_entry_windows(EntryWindows {
        late_registration_until_level: Some(1),
        re_entries: true,
    });
    let stack = |t: &Tournament, p| {
        let (ti, s) = t.locate(p).unwrap();
        t.tables[ti].seats[s].as_ref().unwrap().chips
    };
    assert_eq!(stack(&t, 2), 10_000);
    let ruling = t.abandon_stack(2, &mut rng).unwrap();
    assert_eq!(ruling.point, "tournament.reentry");
    assert_eq!(t.chips_in_play(), 12 * 5_000 - 10_000 + 5_000);
    assert_eq!(t.chips_at_tables(), t.chips_in_play());
    assert_eq!(stack(&t, 2), 5_000);
    assert_eq!((t.entries(), t.players_left()), (12, 11));
    assert!(t.rulings().last().unwrap().point == "seating.new_player_entry");
    t.elapse(600);
    let err = t.abandon_stack(3, &mut rng).unwrap_err();
    assert!(
        err.to_string().contains("closed at the end of level 1"),
        "{err}"
    );
    assert_eq!(stack(&t, 3), 5_000);
    assert_eq!(t.chips_in_play(), 12 * 5_000 - 5_000);
    assert_eq!(
        t.abandon_stack(99, &mut rng),
        Err(RuntimeError::UnknownPlayer(99))
    );
}

/// Purchased chips (a rebuy, an add-on, an Xtrastack) join the stack and the chips in play.
#[test]
fn solverde_3_1_2_purchased_chips_join_the_stack_and_the_chips_in_play() {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(9);
    let mut t = Tournament::new(setup(9, 3), Arc::new(DefaultRules)).unwrap();
    t.start(4, &mut rng).unwrap();
    t.add_chips(2, 5_000).unwrap();
    assert_eq!(t.chips_in_play(), 25_000);
    assert_eq!(t.chips_at_tables(), 25_000);
    assert_eq!(t.add_chips(9, 1), Err(RuntimeError::UnknownPlayer(9)));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    /// Under the engine's defaults, any field plays to one winner: chips are conserved at
    /// every round, after balancing no two tables differ by more than one player, and every
    /// entry gets a place, the places covering 1..=entries exactly.
    #[test]
    fn any_field_plays_to_a_winner_with_balanced_tables(
        entries in 2usize..60,
        seats in prop::sample::select(vec![6usize, 9, 10]),
        seed in any::<u64>(),
    ) {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let mut t = Tournament::new(setup(seats, 3), Arc::new(DefaultRules)).unwrap();
        t.start(entries, &mut rng).unwrap();
        let mut rounds = 0;
        while t.players_left() > 1 {
            rounds += 1;
            prop_assert!(rounds < 20_000);
            t.balance(&mut rng);
            let sizes: Vec<usize> = t.tables.iter().map(Table::players).collect();
            if sizes.len() > 1 {
                let (min, max) = (sizes.iter().min().unwrap(), sizes.iter().max().unwrap());
                prop_assert!(max - min <= 1, "tables {:?}", sizes);
            }
            // No table ever holds more players than it has seats.
            prop_assert!(sizes.iter().all(|&n| n <= seats), "tables {:?}", sizes);
            t.play_round(120, &mut rng).unwrap();
            prop_assert_eq!(t.chips_at_tables(), t.chips_in_play());
        }
        prop_assert_eq!(t.finishes.len(), entries);
        let mut covered = vec![0u32; entries + 1];
        for f in &t.finishes {
            prop_assert!(f.place >= 1 && f.shared_through as usize <= entries);
            let group = t
                .finishes
                .iter()
                .filter(|g| (g.place, g.shared_through) == (f.place, f.shared_through))
                .count() as u32;
            prop_assert_eq!(group, f.shared_through - f.place + 1);
            covered[f.place as usize] += 1;
        }
        prop_assert_eq!(covered.iter().sum::<u32>() as usize, entries);
    }
}
