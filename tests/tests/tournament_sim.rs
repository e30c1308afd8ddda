//! A simulated tournament of 200 entries with random play runs to a winner under every
//! tournament ruleset, with chips conserved at every round of hands and the prize pool paid
//! out exactly.

use floor_engine::tournament::runtime::Setup;
use floor_engine::tournament::sim::{simulate, Money};
use floor_engine::tournament::structure::{Level, Modality, Structure};
use floor_engine::tournament::{Band, FeeBounds, PayoutTable};
use floor_tests::Repo;
use rand::SeedableRng;

fn structure() -> Structure {
    let mut levels = Vec::new();
    let (mut sb, mut bb) = (25, 50);
    for i in 0..30 {
        levels.push(Level {
            small_blind: sb,
            big_blind: bb,
            ante: if i >= 3 { bb } else { 0 },
            big_blind_ante: true,
            minutes: 20,
        });
        sb = sb * 3 / 2;
        bb = sb * 2;
    }
    Structure {
        levels,
        breaks: vec![floor_engine::tournament::structure::Break {
            after_level: 4,
            minutes: 15,
        }],
    }
}

fn money() -> Money {
    Money {
        buy_in: 10_000,
        fee_percent: 10,
        bounds: FeeBounds {
            fee_percent_min: 5,
            fee_percent_max: 20,
        },
        // Solverde §7.4's bands, the only published table among the texts.
        table: PayoutTable {
            bands: vec![
                Band {
                    entries_min: 10,
                    entries_max: 30,
                    six_max_only: false,
                    shares_percent: vec![50, 30, 20],
                    places_percent_of_entries: 0,
                    smallest_prize_buy_ins: 0,
                },
                Band {
                    entries_min: 31,
                    entries_max: 0,
                    six_max_only: false,
                    shares_percent: vec![],
                    places_percent_of_entries: 10,
                    smallest_prize_buy_ins: 2,
                },
            ],
        },
        article: "§7.4".into(),
    }
}

fn run(ruleset: &str, seed: u64) {
    let rules = Repo::bundled().rules(ruleset);
    let setup = Setup {
        seats_per_table: 9,
        starting_stack: 10_000,
        structure: structure(),
        modality: Modality::Standard,
        format: "full_ring".into(),
        paid_places: 0,
    };
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let money = money();
    let report =
        simulate(setup, rules, 200, &money, &mut rng).unwrap_or_else(|e| panic!("{ruleset}: {e}"));
    assert_eq!(report.places, 200, "{ruleset}: every entry has a place");
    assert_eq!(report.pool.fee + report.pool.prize_pool, 200 * 10_000);
    assert_eq!(report.pool.fee, 200 * 1_000);
    let paid: u64 = report.paid.iter().map(|p| p.1).sum();
    assert_eq!(
        paid, report.pool.prize_pool,
        "{ruleset}: the pool is paid exactly"
    );
    // 10% of 200 entries are paid places; players out in the hand that reaches the money
    // share a paid place's prize under pt-tournament Art. 79º(A) / ao-tournament-2025 PR-8, so
    // more than 20 players may be paid.
    assert!(
        report.paid.len() >= 20,
        "{ruleset}: {} paid",
        report.paid.len()
    );
    assert!(report.paid.iter().all(|p| p.1 > 0));
    assert!(report.paid.iter().any(|p| p.0 == report.winner));
    for point in [
        "seating.initial_draw",
        "table.breaking.reseat",
        "tournament.bubble_same_hand_eliminations",
        "tournament.levels.change_timing",
    ] {
        assert!(
            report.rulings_by_point.contains_key(point),
            "{ruleset}: no ruling at {point}: {:?}",
            report.rulings_by_point
        );
    }
    eprintln!(
        "{ruleset}: winner {} after {} hands; rulings {:?}",
        report.winner, report.hands, report.rulings_by_point
    );
}

#[test]
fn two_hundred_entries_pt_tournament() {
    run("pt-tournament", 1);
}

#[test]
fn two_hundred_entries_pt_solverde_chaves_2023() {
    run("pt-solverde-chaves-2023", 2);
}

#[test]
fn two_hundred_entries_ao_tournament_2025() {
    run("ao-tournament-2025", 3);
}

#[test]
fn two_hundred_entries_br_adtp_2012() {
    run("br-adtp-2012", 4);
}

/// Seats (from 1) whose chips rose, from the chips by seat before and after a hand.
fn gainers(before: &[u64], after: &[u64]) -> Vec<usize> {
    (0..after.len())
        .filter(|&i| after[i] > before[i])
        .map(|i| i + 1)
        .collect()
}

fn chips_by_seat(t: &floor_engine::tournament::runtime::Tournament) -> Vec<u64> {
    t.tables[0]
        .seats
        .iter()
        .map(|s| s.as_ref().map_or(0, |p| p.chips))
        .collect()
}

/// Solverde §3.1.5: in Win the Button the button goes to the winner of the last hand (or, on a
/// tie, to the player left of the button, §3.1.5.1), and the next hand is dealt with it there.
/// Where one player's chips rose, he won the main pot: the button must go to his seat. Where
/// several rose (a side pot, a split pot), it goes to one of them or, tied, left of the button.
#[test]
fn s_3_1_5_win_the_button_places_the_next_button_on_the_winner() {
    let rules = Repo::bundled().rules("pt-solverde-chaves-2023");
    let setup = Setup {
        seats_per_table: 6,
        starting_stack: 100_000,
        structure: structure(),
        modality: Modality::WinTheButton,
        format: "6-max".into(),
        paid_places: 0,
    };
    let mut t = floor_engine::tournament::runtime::Tournament::new(setup, rules).unwrap();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(31);
    t.start(6, &mut rng).unwrap();
    let (mut to_the_winner, mut several, mut dealt_there) = (0, 0, 0);
    let mut button: Option<usize> = None;
    for _ in 0..80 {
        if t.players_left() < 3 {
            break;
        }
        let before = chips_by_seat(&t);
        let from = t.rulings().len();
        t.play_round(60, &mut rng).unwrap();
        // The hand just dealt had its button where the last ruling put it.
        if let Some(seat) = button {
            assert_eq!(t.tables[0].button + 1, seat);
            dealt_there += 1;
        }
        let ruling = t.rulings()[from..]
            .iter()
            .find(|r| r.point == "button.initial_position_and_rotation")
            .cloned()
            .expect("a button ruling after every hand");
        let seat: usize = ruling.fields["button_seat"].parse().unwrap();
        let won = gainers(&before, &chips_by_seat(&t));
        match won.as_slice() {
            [winner] => {
                assert_eq!(ruling.outcome, "button_to_winner", "{}", ruling.text);
                assert_eq!(seat, *winner, "{}", ruling.text);
                assert_eq!(ruling.citation.to_string(), "§3.1.5");
                to_the_winner += 1;
            }
            _ => {
                assert!(
                    (ruling.outcome == "button_to_winner" && won.contains(&seat))
                        || (ruling.outcome == "button_to_left_of_button"
                            && ruling.citation.to_string() == "§3.1.5.1"),
                    "{won:?}: {}",
                    ruling.text
                );
                several += 1;
            }
        }
        button = Some(seat);
    }
    assert!(
        to_the_winner >= 20,
        "{to_the_winner} hands won by one player"
    );
    assert!(
        dealt_there >= 20,
        "{dealt_there} hands dealt on the ruled button"
    );
    assert!(to_the_winner + several == dealt_there + 1);
}
