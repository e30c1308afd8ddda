//! Tournament money under the bundled rulesets: entries, re-entries, rebuys, add-ons,
//! bounties, Xtrastacks, satellites, Survivor and Multistack, through to the audited result —
//! every case checking that money is conserved to the cent. Tests are named after the
//! article they check; TV-… are RULEPOINTS worked examples.

use floor_engine::rules::Rules;
use floor_engine::ruleset::RulesetRules;
use floor_engine::tournament::entries::{Ledger, Modality, Price, Stream, Terms};
use floor_engine::tournament::result::{audit, Chop, Outcome, ResultError, TournamentResult};
use floor_tests::Repo;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::sync::Arc;

const SOLVERDE: &str = "pt-solverde-chaves-2023";

fn terms(modality: Modality, buy_in: u64, fee_percent: u32) -> Terms {
    Terms {
        modality,
        buy_in: Price {
            amount: buy_in,
            fee_percent,
        },
        starting_stack: 20_000,
        rebuy: None,
        max_rebuys: None,
        add_on: None,
        late_registration_until_level: Some(6),
        re_entries_allowed: true,
        bounty: 0,
        xtrastack: None,
        day_two_options: Vec::new(),
    }
}

fn setup(id: &str, terms: Terms) -> (Arc<floor_engine::ruleset::Ruleset>, RulesetRules, Ledger) {
    let ruleset = Repo::bundled().load(id);
    let rules = RulesetRules::new(ruleset.clone());
    let ledger = Ledger::under(terms, &ruleset);
    (ruleset, rules, ledger)
}

fn register_all(ledger: &mut Ledger, rules: &dyn Rules, players: u32) {
    for p in 0..players {
        ledger.register(rules, p, 1, false).expect("registration");
    }
}

fn outcome(players: u32) -> Outcome {
    Outcome {
        places: (0..players).collect(),
        eliminations: (1..players).rev().map(|p| (p, 0)).collect(),
        six_max: false,
        chop: None,
    }
}

fn assert_conserved(r: &TournamentResult) {
    let c = r.conservation;
    assert!(c.balanced, "{c:?}");
    assert_eq!(c.paid_in, c.fee + c.prizes + c.bounties + c.xtrastack_fund);
    assert_eq!(c.prizes, r.prize_pool.value);
}

#[test]
fn solverde_7_2_late_entries_and_re_entries_feed_the_pool_less_the_fee() {
    let (ruleset, rules, mut ledger) = setup(SOLVERDE, terms(Modality::FreezeOut, 5_000, 10));
    register_all(&mut ledger, &rules, 40);
    for p in 40..45 {
        ledger
            .register(&rules, p, 5, true)
            .expect("late registration open until level 6");
    }
    let late = ledger.register(&rules, 99, 7, true).unwrap_err();
    assert!(late.to_string().contains("closed at level 7"), "{late}");
    for p in 0..8 {
        let receipt = ledger.re_enter(&rules, p, 3, 0).expect("re-entry");
        assert_eq!(receipt.citation, "§6.1, §7.2, §7.4");
    }
    let r = audit(&ruleset, &ledger, &outcome(45)).expect("result");
    // TV-A39 (a): 45 paid entries + 8 re-entries = 53 → 6 places.
    assert_eq!(r.entries.value + r.late_entries.value, 45);
    assert_eq!(r.re_entries.value, 8);
    assert_eq!(r.prize_pool.value, 53 * 4_500);
    assert_eq!(r.prize_pool.citation, "§7.2, §3.1.3, §3.1.13, §3.1.10");
    assert_eq!(r.fee.value, 53 * 500);
    assert_eq!(r.payouts.len(), 6);
    assert_eq!(r.payouts[5].amount, 10_000); // TV-A39 (c): twice the buy-in
    assert_eq!(r.payouts_citation, "pt-solverde-chaves-2023 §7.4, §7.5");
    assert_conserved(&r);
}

#[test]
fn solverde_6_1_re_entry_refused_when_not_announced_or_after_the_period() {
    let mut t = terms(Modality::FreezeOut, 5_000, 10);
    t.re_entries_allowed = false;
    let (_, rules, mut ledger) = setup(SOLVERDE, t);
    let err = ledger.re_enter(&rules, 1, 2, 0).unwrap_err();
    assert_eq!(
        (err.why.as_str(), err.citation.as_str()),
        (
            "the tournament direction announced no re-entries for this event (§6.1)",
            "§6.1, §7.2, §7.4"
        )
    );
    let (_, rules, mut ledger) = setup(SOLVERDE, terms(Modality::FreezeOut, 5_000, 10));
    let err = ledger.re_enter(&rules, 1, 7, 0).unwrap_err();
    assert_eq!(
        (err.why.as_str(), err.citation.as_str()),
        (
            "the re-entry period set by the tournament direction is over (§6.1)",
            "§6.1, §7.2, §7.4"
        )
    );
}

#[test]
fn pt_tournament_art_7_2_re_entry_only_where_announced() {
    let mut t = terms(Modality::FreezeOut, 5_000, 10);
    t.re_entries_allowed = false;
    let (_, rules, mut ledger) = setup("pt-tournament", t);
    let err = ledger.re_enter(&rules, 1, 2, 500).unwrap_err();
    assert_eq!(err.citation, "Art. 7º(1),(2)");
    assert!(err.why.contains("not announced"), "{err}");
}

#[test]
fn solverde_3_1_1_freeze_out_has_no_rebuy_nor_add_on() {
    // The terms offer both, so only the modality can refuse them.
    let mut t = terms(Modality::FreezeOut, 5_000, 10);
    t.rebuy = Some(t.buy_in);
    t.add_on = Some((t.buy_in, 20_000));
    let (_, rules, mut ledger) = setup(SOLVERDE, t);
    register_all(&mut ledger, &rules, 10);
    for (add_on, what) in [(false, "rebuy"), (true, "add-on")] {
        let err = ledger.rebuy(&rules, 1, 2, add_on).unwrap_err();
        assert_eq!(err.what, what);
        assert_eq!(err.why, "a freeze-out event has no rebuy and no add-on");
        assert_eq!(err.citation, "§3.1.1");
    }
}

#[test]
fn solverde_3_1_2_tv_a47_one_add_on_of_at_least_the_starting_stack() {
    let mut t = terms(Modality::RebuyAddOn, 5_000, 10);
    t.rebuy = Some(Price {
        amount: 5_000,
        fee_percent: 10,
    });
    t.max_rebuys = Some(2);
    t.add_on = Some((
        Price {
            amount: 3_000,
            fee_percent: 0,
        },
        20_000,
    ));
    let (ruleset, rules, mut ledger) = setup(SOLVERDE, t.clone());
    register_all(&mut ledger, &rules, 10);
    ledger.rebuy(&rules, 1, 2, false).expect("first rebuy");
    ledger.rebuy(&rules, 1, 3, false).expect("second rebuy");
    let err = ledger.rebuy(&rules, 1, 3, false).unwrap_err();
    assert_eq!(err.why, "the 2 rebuys announced are used up", "{err}");
    ledger.rebuy(&rules, 1, 4, true).expect("the add-on");
    let err = ledger.rebuy(&rules, 1, 4, true).unwrap_err();
    assert_eq!(err.citation, "§3.1.2, §3.1.2.1, §3.1.2.2");
    let r = audit(&ruleset, &ledger, &outcome(10)).expect("result");
    assert_eq!((r.rebuys.value, r.add_ons.value), (2, 1));
    // 10 entries and 2 rebuys at €45 net, one add-on of €30 with no fee.
    assert_eq!(r.prize_pool.value, 12 * 4_500 + 3_000);
    assert_conserved(&r);
    // TV-A47: an add-on smaller than the 20,000-chip starting stack is refused.
    t.add_on = Some((
        Price {
            amount: 3_000,
            fee_percent: 0,
        },
        15_000,
    ));
    let (_, rules, mut ledger) = setup(SOLVERDE, t);
    let err = ledger.rebuy(&rules, 1, 4, true).unwrap_err();
    assert!(err.why.contains("below the 20000"), "{err}");
}

#[test]
fn solverde_3_1_3_bounties_go_to_the_eliminator_outside_the_pool() {
    let mut t = terms(Modality::KnockoutBounty, 5_000, 10);
    t.bounty = 2_000;
    t.rebuy = Some(t.buy_in);
    let (ruleset, rules, mut ledger) = setup(SOLVERDE, t);
    register_all(&mut ledger, &rules, 12);
    let err = ledger.rebuy(&rules, 3, 2, false).unwrap_err();
    assert_eq!(err.citation, "§3.1.3.2");
    let r = audit(&ruleset, &ledger, &outcome(12)).expect("result");
    assert_eq!(r.prize_pool.value, 12 * 4_500); // the bounty is not in the pool
    assert_eq!(r.conservation.paid_in, 12 * 7_000);
    assert_eq!(r.bounties.len(), 12); // 11 eliminations + the winner's own bounty back
    assert!(r.bounties[..11]
        .iter()
        .all(|b| b.amount == 2_000 && b.eliminator == 0 && b.form == "voucher or chips"));
    assert_eq!(r.bounties[0].citation, "§3.1.3, §3.1.3.1, §3.1.3.2, §5.3.2");
    assert_eq!(r.conservation.bounties, 12 * 2_000);
    assert_conserved(&r);
}

#[test]
fn solverde_3_1_4_1_tv_a43_satellite_seats_and_the_remainder() {
    // 30 entries at €81.25 with a 20% fee: €65 each to the pool, €1,950 in all.
    let t = terms(
        Modality::Satellite {
            target_buy_in: 30_000,
        },
        8_125,
        20,
    );
    let (ruleset, rules, mut ledger) = setup(SOLVERDE, t);
    register_all(&mut ledger, &rules, 30);
    let r = audit(&ruleset, &ledger, &outcome(30)).expect("result");
    assert_eq!(r.prize_pool.value, 195_000);
    let seats: Vec<_> = r.payouts.iter().filter(|p| p.form == "seat").collect();
    assert_eq!(seats.len(), 6);
    assert!(seats.iter().all(|p| p.amount == 30_000));
    assert_eq!(r.payouts[6].place, 7);
    assert_eq!(
        (r.payouts[6].amount, r.payouts[6].form.as_str()),
        (15_000, "cash")
    );
    assert_eq!(r.payouts_citation, "§3.1.4, §3.1.4.1, §9.2");
    // §9.2: a seat is worth its value in points: 81 for the buy-in + 300.
    assert_eq!(r.ranking[0].points, 381);
    assert_eq!(r.ranking[6].points, 81 + 150);
    assert_conserved(&r);
}

#[test]
fn solverde_3_1_9_survivor_ends_at_the_money_with_equal_shares() {
    let (ruleset, rules, mut ledger) = setup(SOLVERDE, terms(Modality::Survivor, 5_000, 10));
    register_all(&mut ledger, &rules, 31);
    let r = audit(&ruleset, &ledger, &outcome(31)).expect("result");
    assert_eq!(r.payouts.len(), 4);
    assert!(r.payouts.iter().all(|p| p.amount == 34_875));
    assert!(
        r.payouts_citation.starts_with("§3.1.9; "),
        "{}",
        r.payouts_citation
    );
    assert_conserved(&r);
}

#[test]
fn solverde_3_1_10_multistack_day_one_and_day_two_entries_share_one_pool() {
    let mut t = terms(Modality::Multistack, 5_000, 10);
    t.day_two_options = vec![
        (
            Price {
                amount: 5_000,
                fee_percent: 10,
            },
            20_000,
        ),
        (
            Price {
                amount: 10_000,
                fee_percent: 10,
            },
            45_000,
        ),
        (
            Price {
                amount: 15_000,
                fee_percent: 10,
            },
            70_000,
        ),
    ];
    let (ruleset, rules, mut ledger) = setup(SOLVERDE, t);
    register_all(&mut ledger, &rules, 20);
    for (p, option) in [(20, 0), (21, 1), (22, 2), (23, 2)] {
        let receipt = ledger
            .day_two_entry(&rules, p, option)
            .expect("day-2 entry");
        assert_eq!(receipt.citation, "§3.1.10");
    }
    // Three options are announced: a fourth does not exist.
    let err = ledger.day_two_entry(&rules, 24, 3).unwrap_err();
    assert!(err.why.contains("three stack options"), "{err}");
    assert_eq!(err.citation, "§3.1.10");
    let r = audit(&ruleset, &ledger, &outcome(24)).expect("result");
    assert_eq!(r.day_two_entries.value, 4);
    assert_eq!(r.prize_pool.value, 20 * 4_500 + 4_500 + 9_000 + 2 * 13_500);
    assert_eq!(r.payouts.len(), 3); // 24 entries: 50/30/20
    assert_conserved(&r);
}

#[test]
fn solverde_3_1_13_xtrastacks_go_to_the_quarterly_final_not_the_pool() {
    let mut t = terms(Modality::FreezeOut, 5_000, 10);
    t.xtrastack = Some((1_000, 5_000));
    let (ruleset, rules, mut ledger) = setup(SOLVERDE, t);
    register_all(&mut ledger, &rules, 10);
    for p in 0..4 {
        ledger
            .xtrastack(&rules, p, 2, 20_000, false)
            .expect("Xtrastack");
    }
    let err = ledger.xtrastack(&rules, 5, 7, 20_000, false).unwrap_err();
    assert_eq!(err.citation, "§3.1.14");
    let err = ledger.xtrastack(&rules, 5, 2, 20_000, true).unwrap_err();
    assert_eq!(err.citation, "§3.1.15");
    let r = audit(&ruleset, &ledger, &outcome(10)).expect("result");
    assert_eq!(r.xtrastacks.value, 4);
    assert_eq!(r.xtrastack_fund.value, 4_000);
    assert_eq!(r.prize_pool.value, 45_000);
    assert_conserved(&r);
}

#[test]
fn solverde_9_2_tv_a41_ranking_points_per_place() {
    let (ruleset, rules, mut ledger) = setup(SOLVERDE, terms(Modality::FreezeOut, 6_000, 10));
    register_all(&mut ledger, &rules, 10);
    let r = audit(&ruleset, &ledger, &outcome(10)).expect("result");
    // Pool €540: 50/30/20 = €270, €162, €108. 60 points for the buy-in, plus whole euros.
    let points: Vec<u64> = r.ranking.iter().map(|p| p.points).collect();
    assert_eq!(&points[..4], &[330, 222, 168, 60]);
    assert_eq!(r.ranking[0].citation, "§9.1, §9.2, §3.1.9");
}

#[test]
fn solverde_4_3_an_announced_fee_outside_5_to_20_percent_is_refused() {
    let (ruleset, rules, mut ledger) = setup(SOLVERDE, terms(Modality::FreezeOut, 5_000, 25));
    register_all(&mut ledger, &rules, 10);
    let err = audit(&ruleset, &ledger, &outcome(10)).unwrap_err();
    assert!(err.to_string().contains("§4.3"), "{err}");
}

#[test]
fn texts_without_a_payout_table_cannot_pay_out_but_account_for_the_money() {
    for id in ["pt-tournament", "ao-tournament-2025", "br-adtp-2012"] {
        let (ruleset, rules, mut ledger) = setup(id, terms(Modality::FreezeOut, 5_000, 10));
        register_all(&mut ledger, &rules, 10);
        let err = audit(&ruleset, &ledger, &outcome(10)).unwrap_err();
        assert!(matches!(err, ResultError::NoTable(_)), "{id}: {err}");
        assert!(err.to_string().contains("not regulated by this text"));
        let totals = ledger.totals();
        assert_eq!(totals.paid_in, totals.fee + totals.prize_pool);
    }
}

#[test]
fn money_is_conserved_whatever_is_bought() {
    let ruleset = Repo::bundled().load(SOLVERDE);
    let rules = RulesetRules::new(ruleset.clone());
    let mut rng = ChaCha8Rng::seed_from_u64(2023);
    // Results drawn up, by modality: rebuy and add-on, knockout, Survivor, satellite.
    let mut drawn_up = [0u32; 4];
    for _ in 0..200 {
        let buy_in = rng.random_range(100..100_000);
        let kind = rng.random_range(0..4);
        let modality = match kind {
            0 => Modality::RebuyAddOn,
            1 => Modality::KnockoutBounty,
            2 => Modality::Survivor,
            // A satellite's seats are to a dearer event: 2 to 20 buy-ins.
            _ => Modality::Satellite {
                target_buy_in: buy_in * rng.random_range(2..=20),
            },
        };
        let mut t = terms(modality, buy_in, rng.random_range(5..=20));
        t.bounty = rng.random_range(0..5_000);
        t.rebuy = Some(t.buy_in);
        t.add_on = Some((
            Price {
                amount: rng.random_range(100..10_000),
                fee_percent: rng.random_range(0..=20),
            },
            20_000,
        ));
        t.xtrastack = Some((rng.random_range(100..5_000), 5_000));
        let mut ledger = Ledger::under(t, &ruleset);
        let players = rng.random_range(10..200);
        register_all(&mut ledger, &rules, players);
        for _ in 0..rng.random_range(0..100) {
            let p = rng.random_range(0..players);
            let level = rng.random_range(1..9);
            let _ = match rng.random_range(0..4) {
                0 => ledger.re_enter(&rules, p, level, 0).map(|_| ()),
                1 => ledger.rebuy(&rules, p, level, false).map(|_| ()),
                2 => ledger.rebuy(&rules, p, level, true).map(|_| ()),
                _ => ledger.xtrastack(&rules, p, level, 100, false).map(|_| ()),
            };
        }
        let entries = ledger.counted_entries();
        let mut o = outcome(players);
        // Every entry (re-entries included) but the winner's last is eliminated once.
        o.eliminations = (1..entries).map(|i| (i % players, 0)).collect();
        match audit(&ruleset, &ledger, &o) {
            Ok(r) => {
                assert_conserved(&r);
                let receipts: u64 = ledger.receipts.iter().map(|x| x.paid).sum();
                assert_eq!(receipts, r.conservation.paid_in);
                assert_eq!(ledger.total(Stream::Xtrastack) as u64, r.xtrastacks.value);
                drawn_up[kind] += 1;
            }
            // A satellite pool too small for a seat, or more paid places than players.
            Err(e) => assert!(
                matches!(
                    e,
                    ResultError::TooFewPlaces { .. } | ResultError::Payouts(_)
                ),
                "{e}"
            ),
        }
    }
    // Nearly every case is drawn up and checked, satellites included.
    assert!(drawn_up.iter().all(|&n| n >= 35), "{drawn_up:?}");
    assert!(drawn_up.iter().sum::<u32>() >= 190, "{drawn_up:?}");
}

#[test]
fn solverde_4_1_1_5_2_tv_a46_registration_deadlines_are_bound() {
    let ruleset = Repo::bundled().load(SOLVERDE);
    let binding = ruleset
        .resolve("tournament.registration_and_checkin")
        .expect("bound");
    let value = floor_engine::ruleset::render(binding.binding.value.as_ref().expect("a value"));
    assert!(
        value.contains("\"confirm_deadline_min_before_start\": 30"),
        "{value}"
    );
    assert!(
        value.contains("\"checkin_opens_min_before_start\": 60"),
        "{value}"
    );
    let claims = ruleset.resolve("ranking.claims_window").expect("bound");
    assert_eq!(claims.binding.citation, "§9.7");
    assert_eq!(
        floor_engine::ruleset::render(claims.binding.value.as_ref().expect("a value")),
        "{\"hours\": 72}"
    );
}

#[test]
fn solverde_7_3_9_2_tv_a42_a_chop_at_the_final_table_and_its_points() {
    // 10 entries at €111.12, 10% fee (1,111 cents): a pool of €1,000.10; 50/30/20.
    let (ruleset, rules, mut ledger) = setup(SOLVERDE, terms(Modality::FreezeOut, 11_112, 10));
    register_all(&mut ledger, &rules, 10);
    let mut o = outcome(10);
    let pool = 10 * (11_112 - 1_111);
    assert_eq!(pool, 100_010);
    // The 3 left share the €1,000.10 still to be awarded: 334, 333.10, 333.
    o.chop = Some(Chop {
        amounts: vec![33_400, 33_310, 33_300],
        final_table: true,
    });
    let r = audit(&ruleset, &ledger, &o).expect("result");
    assert!(r.payouts.iter().all(|p| p.form == "chop"));
    assert!(
        r.payouts_citation.ends_with("chop: §7.3, §1.3, §8.2, §9.2"),
        "{}",
        r.payouts_citation
    );
    // TV-A42: ceil(1,000.10 / 3) = 334 prize points each, plus 111 for the buy-in (Q-S05 (a)).
    assert!(
        r.ranking[..3].iter().all(|p| p.points == 111 + 334),
        "{:?}",
        r.ranking
    );
    assert_eq!(r.ranking[3].points, 111);
    assert_conserved(&r);
    // Not at the final table: refused.
    o.chop = Some(Chop {
        amounts: vec![33_400, 33_310, 33_300],
        final_table: false,
    });
    let err = audit(&ruleset, &ledger, &o).unwrap_err();
    assert!(matches!(err, ResultError::ChopRefused { .. }), "{err}");
    // Not the money still to be awarded: refused.
    o.chop = Some(Chop {
        amounts: vec![50_000, 50_000, 1],
        final_table: true,
    });
    let err = audit(&ruleset, &ledger, &o).unwrap_err();
    assert!(matches!(err, ResultError::ChopDoesNotAddUp { .. }), "{err}");
}

#[test]
fn the_result_is_json_a_regulator_can_read() {
    let mut t = terms(Modality::KnockoutBounty, 5_000, 10);
    t.bounty = 1_000;
    let (ruleset, rules, mut ledger) = setup(SOLVERDE, t);
    register_all(&mut ledger, &rules, 10);
    let r = audit(&ruleset, &ledger, &outcome(10)).expect("result");
    let json = serde_json::to_value(&r).expect("JSON");
    for key in [
        "entries",
        "re_entries",
        "rebuys",
        "add_ons",
        "fee",
        "prize_pool",
        "payouts",
        "places",
        "bounties",
        "ranking",
        "conservation",
    ] {
        assert!(json.get(key).is_some(), "{key}");
    }
    insta::assert_snapshot!(serde_json::to_string_pretty(&json).expect("JSON"));
}
