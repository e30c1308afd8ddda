//! Cash tables under the two cash rulesets: money is conserved over many random hands, the
//! multi-table draw, and house rules outside the decrees' commission bounds refused. Each test
//! names the article it proves.

use floor_engine::cash::{draw_seats, CashConfig, CashTable, Failure, Registration};
use floor_engine::rules::Rules;
use floor_engine::ruleset::{Loader, MemoryLoader, Problem, Ruleset, RulesetSource, Sandbox};
use floor_engine::sim::random_action;
use floor_tests::Repo;
use rand::{Rng, SeedableRng};
use std::sync::Arc;

/// What a random session played: the test asserts it played enough to mean something.
#[derive(Debug, Default)]
struct Coverage {
    /// Hands dealt.
    dealt: u32,
    /// Hands played to the end.
    finished: u32,
    /// Hands voided by a failure on the operator's side.
    voided: u32,
    /// Finished hands whose commission was more than nothing.
    raked: u32,
    /// Times the table fell short and its players were seated again.
    reseated: u32,
}

/// Random play at a cash table: players sit, rest, rebuy, leave and come back; hands are
/// played to the end or voided. Every chip bought is on the table, taken as commission or
/// cashed out. When the table falls short of its minimum (pt-casino-2007 rule 24 needs four
/// players), the players who left sit down again, those resting come back and those short
/// rebuy, so that the session goes on: every start refused after that is a failure.
fn conserved(id: &str, seed: u64) -> Coverage {
    let rules: Arc<dyn Rules> = Repo::bundled().rules(id);
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let (mut table, _) = CashTable::new(rules, CashConfig::holdem(10, 1000)).expect("table");
    let names: Vec<String> = (0..7).map(|i| format!("p{i}")).collect();
    for n in &names {
        let _ = table.seat(n, None, 1000);
    }
    let mut coverage = Coverage::default();
    for _ in 0..300 {
        if table.hand().is_none() {
            // Between hands: someone may rest, come back, rebuy, leave or (re)join.
            let who = &names[rng.random_range(0..names.len())];
            match rng.random_range(0..10) {
                0 => drop(table.sit_out(who)),
                1 => drop(table.sit_in(who)),
                2 => drop(table.rebuy(who, 1000)),
                3 => drop(table.leave(who)),
                4 => drop(join(&mut table, who)),
                _ => {}
            }
            table.advance(rng.random_range(0..3));
            if table.start_hand(&mut rng).is_err() {
                // Short of players: everyone sits down again, plays and tops up.
                coverage.reseated += 1;
                for n in &names {
                    let _ = join(&mut table, n);
                    let _ = table.sit_in(n);
                    if table.stack(n).is_some_and(|s| s < 10) {
                        let _ = table.rebuy(n, 1000);
                    }
                }
                table
                    .start_hand(&mut rng)
                    .unwrap_or_else(|e| panic!("{id} seed {seed}: with every player back: {e}"));
            }
            coverage.dealt += 1;
        }
        let before = table.commission_taken();
        let mut voided = false;
        while table.to_act().is_some() {
            if rng.random_range(0..200) == 0 {
                table.void_hand(Failure::Operator).expect("void");
                voided = true;
                break;
            }
            // Now and then someone not holding live cards (he folded, or rests) leaves.
            if rng.random_range(0..20) == 0 {
                let who = &names[rng.random_range(0..names.len())];
                let _ = table.leave(who);
            }
            let Some(player) = table.to_act() else {
                break;
            };
            let legal = table.hand().and_then(|h| h.legal()).expect("legal");
            // A daemon acts on a copy and keeps it: the copy plays exactly as the table.
            let mut copy = table.clone();
            let action = random_action(&legal, &mut rng);
            copy.act(&player, action).expect("legal action");
            table.act(&player, action).expect("legal action");
            assert_eq!(copy.state(), table.state(), "{id} seed {seed}");
            // Mid-hand too, every chip is counted once (what the players dealt in put in
            // is in the hand, not also in their seats).
            let (bought, out) = accounts(&table, &names);
            assert_eq!(table.chips_on_table() + out, bought, "{id} seed {seed}");
        }
        assert!(table.hand().is_none(), "{id} seed {seed}: the hand is over");
        if voided {
            coverage.voided += 1;
        } else {
            coverage.finished += 1;
            coverage.raked += u32::from(table.commission_taken() > before);
        }
        let (bought, out) = accounts(&table, &names);
        assert_eq!(table.chips_on_table() + out, bought, "{id} seed {seed}");
        let commission: u64 = names
            .iter()
            .filter_map(|n| table.totals(n))
            .map(|t| t.commission)
            .sum();
        assert_eq!(table.commission_taken(), commission);
    }
    coverage
}

/// Seats `who` with what the rules ask: the fixed buy-in, or else the average stack.
fn join(table: &mut CashTable, who: &str) -> Result<(), floor_engine::cash::CashError> {
    if table.seat(who, None, 1000).is_ok() {
        return Ok(());
    }
    let stacks: Vec<u64> = table.state().seats.iter().map(|s| s.state.stack).collect();
    let average = stacks.iter().sum::<u64>() / stacks.len().max(1) as u64;
    table.seat(who, None, average).map(drop)
}

/// Chips bought in, and chips gone from the table (commission, cashed out), over `names`.
fn accounts(table: &CashTable, names: &[String]) -> (u64, u64) {
    let mut bought = 0;
    let mut out = 0;
    for n in names {
        if let Some(t) = table.totals(n) {
            bought += t.bought_in;
            out += t.commission + t.cashed_out;
        }
    }
    (bought, out)
}

/// Each of the 300 steps of a session deals a hand (a short table is filled again), nearly
/// all are played to the end, and the commission is taken in many of them.
fn assert_covered(id: &str, seed: u64, c: &Coverage) {
    assert_eq!(c.dealt, 300, "{id} seed {seed}: {c:?}");
    assert_eq!(c.finished + c.voided, c.dealt, "{id} seed {seed}: {c:?}");
    assert!(c.finished >= 250, "{id} seed {seed}: {c:?}");
    assert!(c.raked >= 100, "{id} seed {seed}: {c:?}");
}

#[test]
fn pt_casino_2007_rules_7_28_79_chips_are_conserved_over_random_sessions() {
    let mut reseated = 0;
    for seed in 0..4 {
        let c = conserved("pt-casino-2007", seed);
        assert_covered("pt-casino-2007", seed, &c);
        reseated += c.reseated;
    }
    // Rule 24's minimum of four is reached in these sessions, and the table goes on.
    assert!(reseated > 0, "the table never fell short of four players");
}

#[test]
fn pt_online_rules_8_17_72_chips_are_conserved_over_random_sessions() {
    for seed in 0..4 {
        assert_covered("pt-online", seed, &conserved("pt-online", seed));
    }
}

#[test]
fn pt_casino_2007_rules_25_27_the_draw_fills_tables_by_suit_and_favours_the_previous_session() {
    let rules = Repo::bundled().rules("pt-casino-2007");
    let registered: Vec<Registration> = (0..25)
        .map(|i| Registration {
            player: format!("p{i:02}"),
            previous_session: i >= 20,
        })
        .collect();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
    // Two tables of 10: tables drawn by suit; the 5 left out go to the waiting list.
    let draw = draw_seats(rules.as_ref(), &registered, 2, 10, &mut rng);
    assert_eq!(
        draw.tables.iter().map(Vec::len).collect::<Vec<_>>(),
        [10, 10]
    );
    assert_eq!(draw.left_out.len(), 5);
    assert_eq!(draw.ruling.citation.to_string(), "rules 6, 25");
    // One table, 25 players: seats drawn with priority to the previous session (rule 27).
    let draw = draw_seats(rules.as_ref(), &registered, 1, 10, &mut rng);
    assert_eq!(draw.ruling.citation.to_string(), "rules 6, 27");
    for i in 20..25 {
        let name = format!("p{i:02}");
        assert!(
            draw.tables[0].iter().any(|(_, p)| *p == name),
            "{name} has priority"
        );
    }
    let mut seats: Vec<usize> = draw.tables[0].iter().map(|(s, _)| *s).collect();
    seats.dedup();
    assert_eq!(seats, (1..=10).collect::<Vec<_>>());
}

/// Serves a house ruleset from memory and its parent from the repository.
struct HouseOver(MemoryLoader);

impl Loader for HouseOver {
    fn ruleset(&self, id: &str) -> Result<RulesetSource, Problem> {
        self.0.ruleset(id).or_else(|_| Repo::bundled().ruleset(id))
    }
    fn script(&self, id: &str, name: &str) -> Result<RulesetSource, Problem> {
        self.0
            .script(id, name)
            .or_else(|_| Repo::bundled().script(id, name))
    }
}

fn house_over_pt_online(value: &str) -> String {
    let house = format!(
        r#"(
    id: "house-online",
    title: "An operator's table rules",
    source: "house.txt",
    kind: House,
    version: "1.0.0",
    extends: "pt-online",
    bindings: {{
        "cash.rake.mode_and_bounds": (
            citation: "house rule 2",
            ruling: "the house commission",
            value: {value},
        ),
    }},
)"#
    );
    let loader = HouseOver(MemoryLoader::new().with("house-online", &house, &[]));
    match Ruleset::load("house-online", &loader, &Sandbox::new()) {
        Ok(_) => "ok".into(),
        Err(problems) => problems
            .iter()
            .map(|p| {
                // The parent's path is the checkout's: keep only what a reader compares.
                format!("[{:?}] {p}", p.kind)
            })
            .collect::<Vec<_>>()
            .join("\n"),
    }
}

/// Asserts the refusal itself (one bound exceeded, citing the article) before its wording is
/// compared with the snapshot: an accepted ruleset would read "ok" and fail here.
fn assert_bound_refused(problems: &str, article: &str) {
    assert!(
        problems.starts_with("[BoundExceeded] ") && problems.lines().count() == 1,
        "{problems}"
    );
    assert!(problems.contains(article), "{problems}");
}

#[test]
fn pt_online_rule_17_a_a_house_commission_of_6_percent_is_refused() {
    let problems = house_over_pt_online(r#"{"mode": "per_hand", "percent": 6, "cap": 0}"#);
    assert_bound_refused(
        &problems,
        "`percent` 6 is above the maximum 5 (bound set by pt-online, rule 17(a))",
    );
    insta::assert_snapshot!(problems);
}

#[test]
fn pt_online_rule_17_b_a_buy_in_commission_of_25_percent_is_refused() {
    let problems = house_over_pt_online(r#"{"mode": "per_buy_in", "buy_in_percent": 25}"#);
    assert_bound_refused(
        &problems,
        "`buy_in_percent` 25 is above the maximum 20 (bound set by pt-online, rule 17(b))",
    );
    insta::assert_snapshot!(problems);
}

#[test]
fn pt_online_rule_17_commissions_within_the_bounds_are_accepted() {
    assert_eq!(
        house_over_pt_online(r#"{"mode": "per_hand", "percent": 1, "cap": 300}"#),
        "ok"
    );
    assert_eq!(
        house_over_pt_online(r#"{"mode": "per_buy_in", "buy_in_percent": 20}"#),
        "ok"
    );
}

/// Rules of a house ruleset extending `parent` with the commission `value`.
fn house_rules(parent: &str, value: &str) -> Arc<dyn Rules> {
    let house = format!(
        r#"(
    id: "house",
    title: "House rules",
    source: "house.txt",
    kind: House,
    version: "1.0.0",
    extends: "{parent}",
    bindings: {{
        "cash.rake.mode_and_bounds": (citation: "house rule 1", value: {value}),
    }},
)"#
    );
    let loader = HouseOver(MemoryLoader::new().with("house", &house, &[]));
    let ruleset = Ruleset::load("house", &loader, &Sandbox::new()).expect("house loads");
    Arc::new(floor_engine::ruleset::RulesetRules::new(Arc::new(ruleset)))
}

fn average(table: &CashTable) -> u64 {
    let stacks: Vec<u64> = table.state().seats.iter().map(|s| s.state.stack).collect();
    stacks.iter().sum::<u64>() / stacks.len() as u64
}

#[test]
fn pt_casino_2007_rule_7_b_tv_a24_b_the_session_fee_and_the_thirty_minutes() {
    let rules = house_rules(
        "pt-casino-2007",
        r#"{"mode": "per_session", "session_percent": 10, "base": "table_maximum"}"#,
    );
    let mut config = CashConfig::holdem(10, 1000);
    config.table_maximum = Some(500);
    let (mut table, _) = CashTable::new(rules, config).expect("table");
    for p in ["ana", "bia", "caio", "duda"] {
        table.seat(p, None, 1000).expect("seat");
    }
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
    // The session starts with the first hand: everyone seated pays 10% of the maximum, 50.
    let out = table.start_hand(&mut rng).expect("hand");
    let fees: Vec<String> = out
        .iter()
        .filter(|r| r.point == "cash.rake.mode_and_bounds")
        .map(|r| r.to_string())
        .collect();
    assert_eq!(fees.len(), 4, "{fees:?}");
    assert!(fees[0].contains(
        "ana pays the session commission of 50 (10% of the table maximum, 500) for session 1"
    ));
    assert!(fees[0].contains("house rule 1"));
    table.void_hand(Failure::Operator).expect("void");
    assert_eq!(table.stack("ana"), Some(950));
    // eva sits down 29 minutes in: she pays; fred at 31 minutes does not (for this session).
    table.advance(29);
    let out = table.seat("eva", None, average(&table)).expect("eva");
    assert!(out.iter().any(|r| r
        .to_string()
        .contains("eva pays the session commission of 50")));
    table.advance(2);
    let out = table.seat("fred", None, average(&table)).expect("fred");
    assert!(out
        .iter()
        .any(|r| r.to_string().contains("31 minutes into session 1")));
    assert_eq!(table.totals("fred").map(|t| t.commission), Some(0));
    // An hour after the session began, the next hand opens session 2: everyone pays again.
    table.advance(28);
    let out = table.start_hand(&mut rng).expect("hand");
    assert!(
        out.iter().all(|r| !r.to_string().contains("session 2")),
        "59 minutes: the hour is not yet over"
    );
    table.void_hand(Failure::Operator).expect("void");
    table.advance(1);
    let out = table.start_hand(&mut rng).expect("hand");
    let session_two = out
        .iter()
        .filter(|r| r.to_string().contains("for session 2"))
        .count();
    assert_eq!(session_two, 6);
    assert_eq!(table.totals("fred").map(|t| t.commission), Some(50));
    assert_eq!(table.totals("ana").map(|t| t.commission), Some(100));
}

#[test]
fn pt_casino_2007_rule_7_b_a_session_fee_of_25_percent_is_refused() {
    let house = r#"(
    id: "house",
    title: "House rules",
    source: "house.txt",
    kind: House,
    version: "1.0.0",
    extends: "pt-casino-2007",
    bindings: {
        "cash.rake.mode_and_bounds": (citation: "house rule 1", value: {"mode": "per_session", "session_percent": 25, "base": "buy_in"}),
    },
)"#;
    let loader = HouseOver(MemoryLoader::new().with("house", house, &[]));
    let problems = match Ruleset::load("house", &loader, &Sandbox::new()) {
        Ok(_) => "ok".to_string(),
        Err(problems) => problems
            .iter()
            .map(|p| format!("[{:?}] {p}", p.kind))
            .collect(),
    };
    assert_bound_refused(
        &problems,
        "`session_percent` 25 is above the maximum 20 (bound set by pt-casino-2007, rule 7(b))",
    );
    insta::assert_snapshot!(problems);
}

#[test]
fn pt_online_rule_17_b_tv_a35_b_ten_percent_of_the_buy_in_and_of_every_rebuy() {
    let rules = house_rules(
        "pt-online",
        r#"{"mode": "per_buy_in", "buy_in_percent": 10}"#,
    );
    let (mut table, _) = CashTable::new(rules, CashConfig::holdem(2, 100)).expect("table");
    let out = table.seat("ana", None, 100).expect("seat");
    assert!(out.iter().any(|r| r.to_string().contains(
        "a commission of 10 (10% of 100) is taken from ana's buy-in when the chips are bought [cash.rake.mode_and_bounds · house v1.0.0 · house rule 1]"
    )));
    assert_eq!(table.stack("ana"), Some(90));
    table.rebuy("ana", 50).expect("rebuy");
    assert_eq!(table.stack("ana"), Some(135));
    let totals = table.totals("ana").expect("totals");
    assert_eq!((totals.bought_in, totals.commission), (150, 15));
    // No commission is taken from the pots in this mode.
    table.seat("bia", None, 100).expect("seat");
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
    table.start_hand(&mut rng).expect("hand");
    while let Some(p) = table.to_act() {
        table
            .act(&p, floor_engine::hand::Action::CheckOrCall)
            .expect("act");
    }
    assert!(table
        .log()
        .iter()
        .all(|r| !r.to_string().contains("of the pot")));
    assert_eq!(table.chips_on_table(), 135 + 90);
}

#[test]
fn a_hand_keeps_the_ruleset_version_it_started_with() {
    let (mut table, _) = CashTable::new(
        Repo::bundled().rules("pt-online"),
        CashConfig::holdem(10, 1000),
    )
    .expect("table");
    for p in ["ana", "bia", "caio"] {
        table.seat(p, None, 1000).expect("seat");
    }
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(9);
    table.start_hand(&mut rng).expect("hand");
    // The operator publishes new rules (a 2% commission) while the hand is played.
    table
        .set_rules(house_rules(
            "pt-online",
            r#"{"mode": "per_hand", "percent": 2}"#,
        ))
        .expect("new rules");
    assert_eq!(table.state().ruleset, "house v1.0.0");
    assert_eq!(
        table.state().hand.map(|h| h.ruleset),
        Some("pt-online v1.1.3".to_string())
    );
    let mut last = Vec::new();
    while let Some(p) = table.to_act() {
        last = table
            .act(&p, floor_engine::hand::Action::CheckOrCall)
            .expect("act");
    }
    let commission = last
        .iter()
        .find(|r| r.point == "cash.rake.mode_and_bounds")
        .expect("a commission");
    assert_eq!(commission.ruleset.to_string(), "pt-online v1.1.3");
    assert!(commission.to_string().contains("(5% of the pot)"));
    // The next hand is dealt under the new rules.
    let out = table.start_hand(&mut rng).expect("hand");
    assert!(out.iter().all(|r| r.ruleset.to_string() == "house v1.0.0"));
}

#[test]
fn security_finding_7_a_rebuy_past_the_bound_is_refused_with_the_bound_named() {
    use floor_engine::bounds::MAX_CHIPS;
    for id in ["pt-online", "pt-casino-2007"] {
        let (mut table, _) =
            CashTable::new(Repo::bundled().rules(id), CashConfig::holdem(2, 200)).expect("table");
        table.seat("ana", None, 200).expect("seat");
        let before = (table.stack("ana"), table.totals("ana").cloned());
        // The review's request: 10^12 on top of a 200 stack passes the per-seat bound.
        let refused = table.rebuy("ana", MAX_CHIPS).expect_err("past the bound");
        let message = refused.to_string();
        assert!(
            message.contains(&format!(
                "the stack after the rebuy {} is above the bound of {MAX_CHIPS} chips",
                MAX_CHIPS + 200
            )),
            "{id}: {message}"
        );
        assert_eq!((table.stack("ana"), table.totals("ana").cloned()), before);
        // An amount above the bound on its own is named as the rebuy.
        let refused = table.rebuy("ana", u64::MAX).expect_err("past the bound");
        assert!(refused
            .to_string()
            .contains("the rebuy 18446744073709551615 is above the bound"));
        // Up to the bound is fine, and not one chip more.
        table
            .rebuy("ana", MAX_CHIPS - 200)
            .expect("up to the bound");
        assert_eq!(table.stack("ana"), Some(MAX_CHIPS));
        let refused = table.rebuy("ana", 1).expect_err("one chip past the bound");
        assert!(
            refused.to_string().contains(&format!(
                "the stack after the rebuy {} is above the bound of {MAX_CHIPS} chips",
                MAX_CHIPS + 1
            )),
            "{id}: {refused}"
        );
        assert_eq!(table.chips_on_table(), MAX_CHIPS);
        // A buy-in above the bound is refused as well.
        assert!(table
            .seat("bia", None, u64::MAX)
            .expect_err("past the bound")
            .to_string()
            .contains("the buy-in 18446744073709551615 is above the bound"));
    }
}

#[test]
fn security_finding_20_a_buy_in_below_the_big_blind_is_refused_and_a_minimum_entry_above_it_is_not()
{
    // pt-online rules 15, 12: a stack below the table minimum must rebuy to play.
    let rules = Repo::bundled().rules("pt-online");
    let mut config = CashConfig::holdem(2, 1);
    config.small_blind = Some(1);
    let refused = CashTable::new(rules, config)
        .err()
        .expect("a buy-in below the big blind");
    assert_eq!(
        refused.to_string(),
        "table configuration refused: the initial buy-in of 1 is below the big blind of 2: \
         a stack of 1 is below the table's minimum bet of 2: to keep playing the player must \
         rebuy (rules 15, 12)"
    );
    // pt-casino-2007 rules 75, 78: the initial buy-in is fixed before the game begins; the
    // minimum entry binds a new player joining a game under way, so it may exceed the
    // initial buy-in (the daemon's rule 78 test plays exactly that) and is not refused.
    let rules = Repo::bundled().rules("pt-casino-2007");
    let mut config = CashConfig::holdem(10, 1000);
    config.minimum_entry = Some(5000);
    let (mut table, _) =
        CashTable::new(rules.clone(), config).expect("a minimum entry above the buy-in");
    // Before the game begins, a player sits down with the initial buy-in.
    table.seat("ana", None, 1000).expect("the initial buy-in");
    assert_eq!(table.stack("ana"), Some(1000));
    let mut config = CashConfig::holdem(10, 1000);
    config.minimum_entry = Some(1000);
    CashTable::new(rules, config).expect("a minimum entry equal to the buy-in");
    // Amounts past the bound never reach the table.
    let mut config = CashConfig::holdem(10, 1000);
    config.table_maximum = Some(u64::MAX);
    let refused = CashTable::new(Repo::bundled().rules("pt-online"), config)
        .err()
        .expect("past the bound");
    assert!(refused
        .to_string()
        .contains("the table maximum 18446744073709551615 is above the bound"));
}
