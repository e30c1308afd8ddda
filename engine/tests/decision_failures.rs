//! Security review finding 6: every DECISION a ruleset binds is probed by the loader (which
//! `floor check` and the daemon's reload run) over its point's generated contexts, with the
//! answer's type checked; and a decision that fails at play is a ruling that says so — the
//! point, the ruleset and version, the script's file:line:col and the error — after which the
//! point falls back as its binding declares. Never a silent default.

use floor_engine::cash::{CashConfig, CashTable};
use floor_engine::events::{handle, TableEvent};
use floor_engine::hand::{Action, Hand, HandConfig};
use floor_engine::hand::{Street, Structure};
use floor_engine::rules::{
    Citation, Finding, MinRaiseContext, PluginAnswer, PluginDesk, PluginFailure, PluginIdentity,
    PluginQuestion, Rules, Ruling,
};
use floor_engine::ruleset::{MemoryLoader, Ruleset, RulesetRules, Sandbox};
use std::sync::atomic::{AtomicUsize, Ordering::SeqCst};
use std::sync::Arc;

/// A cash rulebook that decides the minimum raise and the minimum number of players itself.
const LAW: &str = r#"(
    id: "law", title: "A law", source: "law.txt", kind: Cash, version: "1.0.0",
    scripts: ["law.rhai"],
    bindings: {
        "betting.min_raise": (citation: "law 1", decision: "min_raise"),
        "table.min_players": (citation: "law 2", decision: "min_players"),
    },
)"#;

const LAW_SCRIPT: &str = r#"
fn min_raise(ctx) { ctx.min_bet * 3 }
fn min_players(ctx) {
    if type_of(ctx.players) == "i64" && ctx.players >= 3 { "game_runs" } else { "game_suspended" }
}
"#;

fn house(bindings: &str) -> String {
    format!(
        r#"(
    id: "house", title: "House rules", source: "house.txt", kind: House, version: "2.0.0",
    extends: "law",
    scripts: ["house.rhai"],
    bindings: {{
{bindings}
    }},
)"#
    )
}

fn loader(bindings: &str, script: &str) -> MemoryLoader {
    MemoryLoader::new()
        .with("law", LAW, &[("law.rhai", LAW_SCRIPT)])
        .with("house", &house(bindings), &[("house.rhai", script)])
}

/// What `floor check` says about the house ruleset.
fn check(bindings: &str, script: &str) -> String {
    match Ruleset::load("house", &loader(bindings, script), &Sandbox::new()) {
        Ok(_) => "ok".into(),
        Err(problems) => problems
            .iter()
            .map(|p| format!("[{:?}] {p}", p.kind))
            .collect::<Vec<_>>()
            .join("\n"),
    }
}

/// The house ruleset as rules, loaded past the probe (as a journal's old version may be).
fn unprobed(bindings: &str, script: &str) -> Arc<dyn Rules> {
    let ruleset = Ruleset::load_unprobed("house", &loader(bindings, script), &Sandbox::new())
        .expect("loads without probing");
    Arc::new(RulesetRules::new(Arc::new(ruleset)))
}

const LOOPING_MIN_PLAYERS: &str = "fn min_players(ctx) {\n    loop { }\n}\n";
const MIN_PLAYERS: &str =
    r#"        "table.min_players": (citation: "house 1", decision: "min_players"),"#;

/// The review's second script: right on one input (the one a probe of a single context
/// would try), a loop on any other.
const LOOPING_MIN_RAISE: &str =
    "fn min_raise(ctx) {\n    if ctx.current_bet == 600 { ctx.min_bet } else { loop { } }\n}\n";
const MIN_RAISE: &str =
    r#"        "betting.min_raise": (citation: "house 2", decision: "min_raise"),"#;

#[test]
fn security_finding_6_a_min_players_decision_that_loops_is_refused_at_check() {
    let said = check(MIN_PLAYERS, LOOPING_MIN_PLAYERS);
    assert!(
        said.starts_with("[ScriptFailure] house/house.rhai:1:1:"),
        "{said}"
    );
    insta::assert_snapshot!(said);
}

#[test]
fn security_finding_6_a_min_raise_that_loops_on_one_input_is_refused_at_check() {
    let said = check(MIN_RAISE, LOOPING_MIN_RAISE);
    assert!(
        said.contains("`min_raise` (for `betting.min_raise`)"),
        "{said}"
    );
    insta::assert_snapshot!(said);
}

#[test]
fn security_finding_6_every_way_a_decision_fails_is_refused_with_its_place() {
    let point =
        r#"        "conduct.electronic_devices": (citation: "house 3", decision: "devices"),"#;
    let cases = [
        ("a loop", "fn devices(ctx) {\n    loop { }\n}\n"),
        ("deep recursion", "fn devices(ctx) {\n    devices(ctx)\n}\n"),
        (
            "a string past its size",
            "fn devices(ctx) {\n    let s = \"x\";\n    loop { s += s; }\n}\n",
        ),
        ("an undefined function", "fn devices(ctx) {\n    timestamp()\n}\n"),
        ("an int, not a ruling", "fn devices(ctx) {\n    42\n}\n"),
        ("a map with no outcome", "fn devices(ctx) {\n    #{ text: \"ok\" }\n}\n"),
        (
            "a failure on one case only",
            "fn devices(ctx) {\n    if ctx.device == \"camera\" { throw \"cameras\"; }\n    \"allowed\"\n}\n",
        ),
    ];
    let mut said = Vec::new();
    for (what, script) in cases {
        let problems = check(point, script);
        assert!(problems.contains("house/house.rhai:"), "{what}: {problems}");
        assert!(
            problems.contains("`conduct.electronic_devices`"),
            "{what}: {problems}"
        );
        said.push(format!("{what}:\n{problems}"));
    }
    insta::assert_snapshot!(said.join("\n\n"));
    // A decision that answers every generated context is accepted.
    let fine = "fn devices(ctx) {\n    if ctx.device == \"phone\" { \"warning\" } else { \"allowed\" }\n}\n";
    assert_eq!(check(point, fine), "ok");
}

#[test]
fn security_finding_6_a_looping_min_raise_loaded_past_check_is_a_ruling_at_play() {
    let rules = unprobed(MIN_RAISE, LOOPING_MIN_RAISE);
    let mut hand = Hand::new(HandConfig::holdem(vec![1000; 3], 2, 1, 2), rules).expect("hand");
    for p in 0..3 {
        hand.deal_hole(p, &[None, None]).expect("deal");
    }
    // The engine default (a raise at least the big blind) applies: a raise to 4 is legal.
    let first = hand.actor().expect("to act");
    assert_eq!(hand.legal().and_then(|l| l.min_raise_to), Some(4));
    hand.act(first, Action::BetOrRaiseTo(4))
        .expect("a raise to 4");
    let failures: Vec<&Ruling> = hand
        .rulings()
        .iter()
        .filter(|r| r.finding == Finding::DecisionFailed)
        .collect();
    assert_eq!(failures.len(), 1, "said once: {:#?}", hand.rulings());
    let failure = failures[0];
    assert_eq!(failure.point, "betting.min_raise");
    assert_eq!(failure.ruleset.to_string(), "house v2.0.0");
    let Citation::ScriptFailed(why) = &failure.citation else {
        panic!("cites the failure");
    };
    assert!(why.contains("house/house.rhai:1:1"), "{why}");
    insta::assert_snapshot!(failure.to_string());
    assert_eq!(hand.chips_in_play(), 3000);
}

#[test]
fn security_finding_6_a_looping_min_players_loaded_past_check_is_a_ruling_at_the_cash_table() {
    let rules = unprobed(MIN_PLAYERS, LOOPING_MIN_PLAYERS);
    let (mut table, _) = CashTable::new(rules, CashConfig::holdem(2, 200)).expect("table");
    table.seat("ana", None, 200).expect("seat");
    let out = table.seat("bia", None, 200).expect("seat");
    let failure = out
        .iter()
        .find(|r| r.point == "table.min_players" && r.finding == Finding::DecisionFailed)
        .expect("the failure is a ruling");
    insta::assert_snapshot!(failure.to_string());
    assert!(
        table.log().contains(failure),
        "and it is in the table's log"
    );
    // The engine default applies, said: two players may deal.
    let mut rng = <rand_chacha::ChaCha8Rng as rand::SeedableRng>::seed_from_u64(1);
    table.start_hand(&mut rng).expect("two players may deal");
    let dealt = table.hand().expect("a hand in play");
    assert_eq!(dealt.stacks().len(), 2, "both players are dealt in");
}

#[test]
fn a_failed_decision_falls_back_to_the_parents_ruling_when_its_binding_says_so() {
    let bindings = r#"        "betting.min_raise": (citation: "house 2", decision: "min_raise", fallback: Parent),"#;
    let rules = unprobed(bindings, LOOPING_MIN_RAISE);
    let mut hand = Hand::new(HandConfig::holdem(vec![1000; 3], 2, 1, 2), rules).expect("hand");
    for p in 0..3 {
        hand.deal_hole(p, &[None, None]).expect("deal");
    }
    // The law's ruling: a raise of at least three big blinds.
    assert_eq!(hand.legal().and_then(|l| l.min_raise_to), Some(8));
    let first = hand.actor().expect("to act");
    hand.act(first, Action::BetOrRaiseTo(8))
        .expect("a raise to 8");
    let failure = hand
        .rulings()
        .iter()
        .find(|r| r.finding == Finding::DecisionFailed)
        .expect("said");
    assert!(
        failure
            .citation
            .to_string()
            .ends_with("the parent ruleset's ruling (law 1) applies instead"),
        "{failure}"
    );
    // A fallback on a binding with no decision is refused at check.
    let said = check(
        r#"        "betting.min_raise": (citation: "house 2", engine_default: true, fallback: Parent),"#,
        "",
    );
    assert!(
        said.contains("`fallback` says what replaces a failed `decision`"),
        "{said}"
    );
}

#[test]
fn a_table_event_whose_decision_fails_is_ruled_by_the_fallback_and_says_so() {
    let bindings = r#"        "action.multiple_chips": (citation: "house 4", decision: "chips"),"#;
    // A raise with no amount: the wrong answer for a raise.
    let rules = unprobed(
        bindings,
        "fn chips(ctx) {\n    #{ outcome: \"raise\" }\n}\n",
    );
    let mut hand = Hand::new(HandConfig::holdem(vec![1000; 3], 2, 1, 2), rules).expect("hand");
    for p in 0..3 {
        hand.deal_hole(p, &[None, None]).expect("deal");
    }
    let player = hand.actor().expect("to act");
    let event = TableEvent::Chips {
        player,
        chips: vec![2, 2],
        declared: None,
        onto_previous_bet: false,
        for_change: false,
    };
    let ruling = handle(&mut hand, &event).expect("ruled");
    assert!(matches!(ruling.citation, Citation::ScriptFailed(_)));
    let rulings = hand.rulings();
    let last_two: Vec<String> = rulings[rulings.len() - 2..]
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(rulings[rulings.len() - 2].finding, Finding::DecisionFailed);
    insta::assert_snapshot!(last_two.join("\n"));
}

/// A desk that counts the questions it is asked and the answers it is told were remembered,
/// answering the minimum raise as three minimum bets, or failing every call.
#[derive(Default)]
struct CountingDesk {
    fails: bool,
    asked: AtomicUsize,
    remembered: AtomicUsize,
}

impl PluginDesk for CountingDesk {
    fn ask(&self, question: &PluginQuestion<'_>) -> Result<PluginAnswer, PluginFailure> {
        self.asked.fetch_add(1, SeqCst);
        let plugin = PluginIdentity {
            name: "triple".into(),
            version: "1.0.0".into(),
            sha256: "00".into(),
        };
        if self.fails {
            return Err(PluginFailure {
                plugin: Some(plugin),
                why: "it did not answer within its time limit of 50 ms".into(),
            });
        }
        let context: serde_json::Value =
            serde_json::from_str(question.context.get()).unwrap_or_default();
        let min_bet = context["min_bet"].as_u64().unwrap_or(0);
        Ok(PluginAnswer {
            plugin,
            answer: serde_json::json!(min_bet * 3),
        })
    }

    fn remembered(&self, _question: &PluginQuestion<'_>, _answer: &PluginAnswer) {
        self.remembered.fetch_add(1, SeqCst);
    }
}

#[test]
fn a_plugins_answer_is_remembered_by_context_like_a_scripts_and_a_failure_is_asked_again() {
    let bindings = r#"        "betting.min_raise": (citation: "house 1", plugin: "triple"),"#;
    let ruleset = Arc::new(
        Ruleset::load("house", &loader(bindings, ""), &Sandbox::new()).expect("the house loads"),
    );
    let ctx = MinRaiseContext {
        structure: Structure::NoLimit,
        street: Street::Flop,
        min_bet: 100,
        current_bet: 300,
        last_full_increment: 200,
    };
    for fails in [false, true] {
        let desk = Arc::new(CountingDesk {
            fails,
            ..CountingDesk::default()
        });
        let rules = RulesetRules::new(ruleset.clone()).with_desk(desk.clone());
        let answers: Vec<_> = (0..3).map(|_| rules.min_raise(&ctx)).collect();
        let asked = desk.asked.load(SeqCst);
        let remembered = desk.remembered.load(SeqCst);
        if fails {
            // Every call asked again, each a ruling that says so, the law's default applied.
            assert_eq!((asked, remembered), (3, 0));
            assert!(answers
                .iter()
                .all(|d| matches!(d.citation, Citation::ScriptFailed(_))));
        } else {
            // Asked once; the two answers from memory handed to the desk to journal.
            assert_eq!((asked, remembered), (1, 2));
            assert!(answers.iter().all(|d| d.value == 300));
            assert!(answers
                .iter()
                .all(|d| d.citation.to_string() == "house 1 — plugin triple 1.0.0 sha256:00"));
        }
    }
}
