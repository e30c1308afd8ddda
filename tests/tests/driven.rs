//! The cash game and the tournament as a daemon drives them, by commands: the setup checked
//! against the ruleset, chips conserved command after command, every entry placed and paid,
//! and the same commands at the same times giving the same tournament.

use floor_engine::cash::{CashGame, TableCommand};
use floor_engine::rules::Rules;
use floor_engine::ruleset::RulesetRules;
use floor_engine::table::{Move, RulesVersion, TableError, TableSpec, Viewer};
use floor_engine::tournament::director::{Command, Director, Status, TournamentSpec};
use floor_tests::Repo;
use rand::{Rng, SeedableRng};
use std::sync::Arc;

fn version(id: &str) -> (Arc<floor_engine::ruleset::Ruleset>, RulesVersion) {
    let ruleset = Repo::bundled().load(id);
    let rules: Arc<dyn Rules> = Arc::new(RulesetRules::new(ruleset.clone()));
    (
        ruleset,
        RulesVersion {
            rules,
            hash: Arc::from(id),
        },
    )
}

fn cash_spec(ruleset: &str, seats: usize) -> TableSpec {
    TableSpec {
        ruleset: ruleset.into(),
        blinds: (5, 10),
        ante: 0,
        seats,
        buy_in: Some(1000),
        rebuy: None,
        minimum_entry: None,
        table_maximum: None,
        mode: None,
        variant: None,
        called_showdown: false,
    }
}

/// pt-casino-2007 rule 6: a hold'em table has 10 seats; the table opens with the rulings
/// that set its limits.
#[test]
fn pt_casino_2007_rule_6_a_cash_game_checks_its_setup_against_the_ruleset() {
    let (_, v) = version("pt-casino-2007");
    match CashGame::open(
        "t1".into(),
        cash_spec("pt-casino-2007", 6),
        "pt-casino-2007",
        v.clone(),
    ) {
        Err(TableError::Invalid(e)) => assert!(e.contains("(rule 6)"), "{e}"),
        Err(e) => panic!("6 seats refused for another reason: {e}"),
        Ok(_) => panic!("6 seats accepted"),
    }
    let (_, rulings) = CashGame::open(
        "t1".into(),
        cash_spec("pt-casino-2007", 10),
        "pt-casino-2007",
        v,
    )
    .expect("10 seats open");
    let points: Vec<&str> = rulings.iter().map(|r| r.point).collect();
    assert_eq!(
        points,
        ["table.seats_per_table", "blinds.positions_and_amounts"]
    );
}

/// pt-online rules 8 and 72: hands dealt one after another by command conserve every chip
/// bought (on the table or taken as commission), the button moves round the table, every hand
/// is pinned to the version it was dealt under, and a refused command changes nothing.
#[test]
fn pt_online_rules_8_72_a_cash_game_driven_by_commands_conserves_chips() {
    let (_, v) = version("pt-online");
    let mut spec = cash_spec("pt-online", 6);
    spec.blinds = (1, 2);
    spec.buy_in = Some(200);
    let (mut game, _) = CashGame::open("t1".into(), spec, "pt-online", v.clone()).expect("open");
    for seat in 1..=4 {
        let name = format!("p{seat}");
        game.apply(TableCommand::Seat {
            seat,
            name,
            stack: 200,
        })
        .expect("seated");
    }
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(8);
    let mut buttons = Vec::new();
    for hand in 0..40u64 {
        let dealt = game.apply(TableCommand::StartHand {
            seed: hand,
            version: v.clone(),
        });
        if dealt.is_err() {
            break; // fewer than two players can be dealt in
        }
        let view = game.view(Viewer::Public, true);
        buttons.push(view.button);
        assert_eq!(
            view.hand.as_ref().map(|h| h.hash.as_str()),
            Some("pt-online")
        );
        while let Some(h) = game
            .view(Viewer::Operator, false)
            .hand
            .filter(|_| game.in_hand())
        {
            assert_eq!(game.chips(), 800);
            let seat = h.to_act.expect("someone to act");
            let before = format!("{:?}", game.view(Viewer::Operator, true));
            let other = if seat == 1 { 2 } else { 1 };
            assert!(game
                .apply(TableCommand::Act {
                    seat: other,
                    action: Move::Fold
                })
                .is_err());
            assert_eq!(format!("{:?}", game.view(Viewer::Operator, true)), before);
            let action = match rng.random_range(0..6) {
                0 => Move::Fold,
                1 => h.min_raise_to.map_or(Move::CheckOrCall, Move::RaiseTo),
                _ => Move::CheckOrCall,
            };
            game.apply(TableCommand::Act { seat, action })
                .expect("a legal action");
        }
        assert_eq!(game.chips(), 800, "after hand {}", hand + 1);
    }
    assert!(buttons.len() >= 2);
    assert_ne!(buttons[0], buttons[1], "the button moved");
}

/// A tournament announced as on a daemon: pt-solverde-chaves-2023, six-max, rebuys and an
/// add-on offered, late registration and re-entries open to level 3.
fn solverde_spec() -> TournamentSpec {
    serde_json::from_value(serde_json::json!({
        "ruleset": "pt-solverde-chaves-2023",
        "buy_in": 5000,
        "fee_percent": 10,
        "seed": 42,
        "seats_per_table": 6,
        "starting_stack": 1000,
        "seconds_per_round": 120,
        "structure": "turbo",
        "rebuy": 5000,
        "add_on": {"price": 4000, "chips": 2000},
        "late_registration_until_level": 3,
        "re_entries": true
    }))
    .expect("a tournament spec")
}

/// Plays a tournament from commands to its end: registrations, rounds, actions chosen with
/// `seed`, now and then a rebuy, an add-on, a late entry or a re-entry. Returns every
/// command carried out with its time, and the tournament.
fn play(seed: u64) -> (Vec<(Command, i64)>, Director) {
    let (ruleset, v) = version("pt-solverde-chaves-2023");
    let mut d = Director::new("tour1".into(), solverde_spec(), ruleset, v, 0).expect("created");
    let mut given = Vec::new();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let mut at = 0;
    // As a daemon does: each command applied to a copy, kept (and remembered) only if
    // it is carried out.
    let mut give = |d: &mut Director, c: Command, at: i64| {
        let mut copy = d.clone();
        let done = copy.apply(&c, at)?;
        *d = copy;
        given.push((c, at));
        Ok::<_, TableError>(done)
    };
    for i in 1..=14 {
        let name = format!("p{i}");
        give(&mut d, Command::Register { name }, at).expect("registered");
    }
    give(&mut d, Command::Start, at).expect("started");
    for step in 0..5_000 {
        at += 1_000;
        let view = d.view(Viewer::Operator, None);
        if view.status != Status::Running {
            break;
        }
        assert_eq!(view.chips.at_tables, view.chips.in_play, "step {step}");
        let player = 1 + step % 14;
        let extra = match step % 97 {
            3 => Some(Command::Purchase {
                player,
                add_on: false,
            }),
            5 => Some(Command::Purchase {
                player,
                add_on: true,
            }),
            7 => Some(Command::ReEnter { player }),
            11 if step < 200 => Some(Command::Register {
                name: format!("late{step}"),
            }),
            _ => None,
        };
        if let Some(c) = extra {
            let _ = give(&mut d, c, at);
        }
        let to_act = view.tables.iter().find_map(|t| {
            let h = t.table.hand.as_ref()?;
            Some((t.number, h.to_act?, h.min_raise_to))
        });
        let command = match to_act {
            Some((table, seat, min)) => {
                let action = match rng.random_range(0..10) {
                    0..=3 => Move::Fold,
                    4 => min.map_or(Move::CheckOrCall, Move::RaiseTo),
                    5 if rng.random_ratio(1, 10) => Move::AllIn,
                    _ => Move::CheckOrCall,
                };
                Command::Act {
                    table,
                    seat,
                    action,
                }
            }
            None if view.break_seconds_left.is_some() => Command::Clock { seconds: 600 },
            None => Command::Deal,
        };
        let _ = give(&mut d, command, at);
    }
    (given, d)
}

/// Solverde §7 (the payout table) and §3.1.2 (rebuys and add-ons): played to the end by
/// commands, every entry gets a place, the places cover 1 to the number of entries, the
/// prizes add up to the prize pool, and the chips at the tables were the chips in play at
/// every step.
#[test]
fn solverde_7_a_tournament_played_by_commands_places_and_pays_every_entry() {
    let (_, d) = play(5);
    let view = d.view(Viewer::Auditor, None);
    assert_eq!(view.status, Status::Finished, "{:?}", view.players_left);
    let entries = view.entries as usize;
    assert_eq!(view.places.len(), entries);
    let mut places: Vec<u32> = view.places.iter().map(|p| p.place).collect();
    places.sort();
    assert_eq!(places.first(), Some(&1));
    assert!(places.iter().all(|&p| p as usize <= entries));
    let paid: u64 = view.places.iter().map(|p| p.prize).sum();
    assert_eq!(paid, view.money.prize_pool);
    let listed: u64 = view.money.payouts.iter().map(|p| p.amount).sum();
    assert_eq!(listed, view.money.prize_pool);
}

/// The tournament is a function of its commands and their times: given again to a new
/// tournament they give the same tournament, ruling for ruling.
#[test]
fn the_same_commands_at_the_same_times_give_the_same_tournament() {
    let (given, first) = play(9);
    let (ruleset, v) = version("pt-solverde-chaves-2023");
    let mut again = Director::new("tour1".into(), solverde_spec(), ruleset, v, 0).expect("new");
    let mut rulings = 0;
    for (command, at) in &given {
        rulings += again
            .apply(command, *at)
            .expect("carried out again")
            .rulings
            .len();
    }
    assert!(rulings > 100, "{rulings} rulings");
    let json = |d: &Director| {
        serde_json::to_string(&d.view(Viewer::Operator, None)).expect("a view is JSON")
    };
    assert_eq!(json(&again), json(&first));
}
