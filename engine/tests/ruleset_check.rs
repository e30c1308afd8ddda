//! `floor check`'s errors, made by the engine's loader: each names file:line:col and says what
//! to do. Snapshot-tested so that a change of wording is reviewed, never silent.

use floor_engine::hand::{Action, Hand, HandConfig};
use floor_engine::rules::{Citation, Rules};
use floor_engine::ruleset::{
    MemoryLoader, ProblemKind, Ruleset, RulesetRules, Sandbox, Script, ScriptCache,
};
use std::cell::{Cell, RefCell};
use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

const PARENT: &str = r#"(
    id: "law",
    title: "A law",
    source: "law.txt",
    kind: Cash,
    version: "1.0.0",
    bounds: {
        "cash.rake.mode_and_bounds": (citation: "rule 7(a)", field: "percent", max: 5),
        "betting.min_raise": (citation: "rule 86", locked: true),
    },
    bindings: {
        "cash.rake.mode_and_bounds": (citation: "rule 7(a)", value: {"percent": 5, "cap": 0}),
    },
)"#;

fn house(bindings: &str, scripts: &str) -> String {
    format!(
        r#"(
    id: "house",
    title: "House rules",
    source: "house.txt",
    kind: House,
    version: "2.1.0",
    extends: "law",
    scripts: [{scripts}],
    bindings: {{
{bindings}
    }},
)"#
    )
}

/// The problems loading `id` gives, as `floor check` prints them. The load must fail, with
/// exactly the problem kinds `kinds` in order: the refusal itself is asserted before its
/// wording is compared with a snapshot, so an input wrongly accepted cannot be recorded.
fn refused(loader: &MemoryLoader, id: &str, kinds: &[ProblemKind]) -> String {
    let problems = match Ruleset::load(id, loader, &Sandbox::new()) {
        Ok(_) => panic!("{id} loaded; expected {kinds:?}"),
        Err(problems) => problems,
    };
    let found: Vec<ProblemKind> = problems.iter().map(|p| p.kind).collect();
    assert_eq!(found, kinds, "{problems:#?}");
    problems
        .iter()
        .map(|p| format!("[{:?}] {p}", p.kind))
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn a_rhai_syntax_error_names_file_line_and_column() {
    let loader = MemoryLoader::new().with("law", PARENT, &[]).with(
        "house",
        &house(
            r#"        "showdown.order": (citation: "h1", decision: "order"),"#,
            r#""rules.rhai""#,
        ),
        &[("rules.rhai", "fn order(ctx) {\n    let x = ;\n}\n")],
    );
    insta::assert_snapshot!(refused(&loader, "house", &[ProblemKind::ScriptSyntax]));
}

#[test]
fn an_endless_loop_is_stopped_by_the_operation_limit() {
    let loader = MemoryLoader::new().with("law", PARENT, &[]).with(
        "house",
        &house(
            r#"        "showdown.order": (citation: "h1", decision: "order"),"#,
            r#""rules.rhai""#,
        ),
        &[("rules.rhai", "fn order(ctx) {\n    loop { }\n}\n")],
    );
    insta::assert_snapshot!(refused(&loader, "house", &[ProblemKind::ScriptFailure]));
}

#[test]
fn an_unknown_rule_point_is_refused_with_neighbours_suggested() {
    let loader = MemoryLoader::new().with("law", PARENT, &[]).with(
        "house",
        &house(
            r#"        "showdown.odd_chips": (citation: "h2", engine_default: true),"#,
            "",
        ),
        &[],
    );
    insta::assert_snapshot!(refused(&loader, "house", &[ProblemKind::UnknownRulePoint]));
}

#[test]
fn a_wrong_return_type_is_found_by_probing() {
    let loader = MemoryLoader::new().with("law", PARENT, &[]).with(
        "house",
        &house(
            r#"        "allin.reopening": (citation: "h3", decision: "reopens"),"#,
            r#""rules.rhai""#,
        ),
        &[("rules.rhai", "fn reopens(ctx) {\n    \"yes\"\n}\n")],
    );
    insta::assert_snapshot!(refused(&loader, "house", &[ProblemKind::WrongReturnType]));
}

#[test]
fn a_child_exceeding_a_parents_bound_is_refused_citing_the_parent() {
    let loader = MemoryLoader::new().with("law", PARENT, &[]).with(
        "house",
        &house(
            r#"        "cash.rake.mode_and_bounds": (citation: "house 3", value: {"percent": 8, "cap": 0}),
        "betting.min_raise": (citation: "house 4", engine_default: true),"#,
            "",
        ),
        &[],
    );
    insta::assert_snapshot!(refused(
        &loader,
        "house",
        &[ProblemKind::BoundExceeded, ProblemKind::BoundExceeded]
    ));
}

#[test]
fn an_extends_cycle_is_refused() {
    let a = r#"(id: "a", title: "A", source: "a", kind: House, version: "1", extends: "b")"#;
    let b = r#"(id: "b", title: "B", source: "b", kind: House, version: "1", extends: "a")"#;
    let loader = MemoryLoader::new().with("a", a, &[]).with("b", b, &[]);
    insta::assert_snapshot!(refused(&loader, "a", &[ProblemKind::ExtendsCycle]));
}

#[test]
fn malformed_ron_names_line_and_column() {
    let loader = MemoryLoader::new().with("law", "(\n    id: \"law\",\n    title: 5,\n)", &[]);
    insta::assert_snapshot!(refused(&loader, "law", &[ProblemKind::Ron]));
}

#[test]
fn a_house_ruleset_within_bounds_loads_and_inherits() {
    let loader = MemoryLoader::new().with("law", PARENT, &[]).with(
        "house",
        &house(
            r#"        "cash.rake.mode_and_bounds": (citation: "house 3", value: {"percent": 4, "cap": 100}),"#,
            "",
        ),
        &[],
    );
    let ruleset = Ruleset::load("house", &loader, &Sandbox::new()).expect("loads");
    assert_eq!(ruleset.layers().len(), 2);
    let rake = ruleset.resolve("cash.rake.mode_and_bounds").expect("bound");
    assert!(!rake.inherited);
    assert_eq!(rake.binding.citation, "house 3");
    assert!(ruleset.resolve("showdown.order").is_none());
}

#[test]
fn a_script_failing_at_the_table_gives_the_default_and_says_so() {
    // The script fails when nobody bet. `floor check` refuses it (its probe tries a showdown
    // with no aggressor); loaded without probing, as a journal's old version may be, the hand
    // goes on under the default, and the rulings say why.
    let script = "fn order(ctx) {\n    if ctx.last_aggressor == () { throw \"no aggressor\"; }\n    ctx.last_aggressor\n}\n";
    let loader = MemoryLoader::new().with("law", PARENT, &[]).with(
        "house",
        &house(
            r#"        "showdown.order": (citation: "h1", decision: "order"),"#,
            r#""rules.rhai""#,
        ),
        &[("rules.rhai", script)],
    );
    refused(&loader, "house", &[ProblemKind::ScriptFailure]);
    let ruleset =
        Arc::new(Ruleset::load_unprobed("house", &loader, &Sandbox::new()).expect("loads"));
    let rules: Arc<dyn Rules> = Arc::new(RulesetRules::new(ruleset));
    let mut hand = Hand::new(HandConfig::holdem(vec![100, 100], 1, 1, 2), rules).expect("hand");
    for p in 0..2 {
        hand.deal_hole(p, &[None, None]).expect("deal");
    }
    hand.act(1, Action::Call).expect("call");
    hand.act(0, Action::Check).expect("check");
    for board in ["AsKsQs", "2d", "3c"] {
        let cards = floor_engine::cards::parse_cards(board).expect("cards");
        hand.deal_board(&cards).expect("board");
        while let Some(p) = hand.actor() {
            hand.act(p, Action::Check).expect("check");
        }
    }
    let rulings: Vec<_> = hand
        .rulings()
        .iter()
        .filter(|r| r.point == "showdown.order")
        .collect();
    // The failure first, as a ruling of its own; then the ruling its fallback gave.
    assert_eq!(rulings.len(), 2, "{rulings:#?}");
    assert_eq!(
        rulings[0].finding,
        floor_engine::rules::Finding::DecisionFailed
    );
    assert!(rulings
        .iter()
        .all(|r| matches!(r.citation, Citation::ScriptFailed(_))));
    let said: Vec<String> = rulings.iter().map(ToString::to_string).collect();
    insta::assert_snapshot!(said.join("\n"));
    assert_eq!(hand.chips_in_play(), 200, "the table state is intact");
}

#[test]
fn table_event_decisions_read_the_rulesets_parameters() {
    let ron = r#"(
    id: "house", title: "House", source: "h", kind: House, version: "1",
    scripts: ["rules.rhai"],
    bindings: {
        "table.final_table_size": (citation: "h1", value: {"max": 9}),
        "table.breaking.reseat": (citation: "h2", decision: "reseat"),
    },
)"#;
    let script = "fn reseat(ctx) {\n    #{ outcome: \"final_table\", seats: ctx.params[\"table.final_table_size\"].max }\n}\n";
    let loader = MemoryLoader::new().with("house", ron, &[("rules.rhai", script)]);
    let ruleset = Arc::new(Ruleset::load("house", &loader, &Sandbox::new()).expect("loads"));
    let rules = RulesetRules::new(ruleset);
    let decision = rules.table_event("table.breaking.reseat", &Default::default());
    assert_eq!(decision.outcome, "final_table");
    assert_eq!(decision.fields.get("seats").map(String::as_str), Some("9"));
    assert_eq!(decision.citation, Citation::Article("h2".into()));
}

#[test]
fn no_decision_changes_the_parameters_the_next_one_reads() {
    // The ruleset's parameters are the same for every decision: one that writes into its
    // `ctx.params`, directly, through a helper or through a copy, or changes a list in it,
    // must not change what the next decision reads.
    let ron = r#"(
    id: "house", title: "House", source: "h", kind: House, version: "1",
    scripts: ["rules.rhai"],
    bindings: {
        "table.final_table_size": (citation: "h1", value: {"max": 9, "sizes": [9, 10]}),
        "table.breaking.reseat": (citation: "h2", decision: "reseat"),
    },
)"#;
    let script = r#"fn tamper(ctx) {
    ctx.params["table.final_table_size"].max = 2;
}
fn reseat(ctx) {
    if "how" in ctx {
        if ctx.how == "direct" { ctx.params["table.final_table_size"].max = 2; }
        if ctx.how == "helper" { tamper(ctx); }
        if ctx.how == "copy" { let p = ctx.params; p["table.final_table_size"].max = 2; }
        if ctx.how == "push" { ctx.params["table.final_table_size"].sizes.push(2); }
    }
    let size = ctx.params["table.final_table_size"];
    #{ outcome: "final_table", seats: size.max * 100 + size.sizes.len() }
}
"#;
    let loader = MemoryLoader::new().with("house", ron, &[("rules.rhai", script)]);
    let ruleset = Arc::new(Ruleset::load("house", &loader, &Sandbox::new()).expect("loads"));
    let rules = RulesetRules::new(ruleset);
    for how in ["direct", "helper", "copy", "push"] {
        let facts = BTreeMap::from([("how".to_string(), ron::Value::String(how.into()))]);
        let tampered = rules.table_event("table.breaking.reseat", &facts);
        // A fact of its own, so that the answer is not one remembered from an earlier question.
        let after = BTreeMap::from([("after".to_string(), ron::Value::String(how.into()))]);
        let read = rules.table_event("table.breaking.reseat", &after);
        assert_eq!(
            read.fields.get("seats").map(String::as_str),
            Some("902"),
            "after `{how}`: {tampered:?}"
        );
        assert_eq!(read.citation, Citation::Article("h2".into()));
    }
}

#[test]
fn a_plugin_may_answer_any_decision_but_not_a_parameter() {
    // A plugin on a PARAMETER is refused, as is a time limit without a plugin or out of
    // bounds; on any DECISION — one the hand plays too — it loads (beside a Rhai decision
    // too: the script rules whether, the plugin computes the amounts) and the binding
    // carries the plugin's name.
    let loader = MemoryLoader::new().with("law", PARENT, &[]).with(
        "house",
        &house(
            r#"        "cash.rake.mode_and_bounds": (citation: "house 3", value: {"percent": 4, "cap": 0}, plugin: "rake"),
        "showdown.order": (citation: "house 5", plugin: "order"),
        "showdown.odd_chip": (citation: "house 6", plugin: "suits", time_limit_ms: Some(0)),
        "betting.min_raise": (citation: "house 7", engine_default: true, time_limit_ms: Some(10)),
        "prize.chop_deals": (citation: "house 9", decision: "chop", plugin: "icm-chop"),"#,
            r#""rules.rhai""#,
        ),
        &[("rules.rhai", "fn chop(ctx) {\n    true\n}\n")],
    );
    insta::assert_snapshot!(refused(
        &loader,
        "house",
        &[
            ProblemKind::InvalidBinding,
            ProblemKind::InvalidBinding,
            ProblemKind::InvalidBinding
        ]
    ));

    let loader = MemoryLoader::new().with("law", PARENT, &[]).with(
        "house",
        &house(
            r#"        "prize.chop_deals": (citation: "house 9", plugin: "icm-chop"),"#,
            "",
        ),
        &[],
    );
    let ruleset = Ruleset::load("house", &loader, &Sandbox::new()).expect("loads");
    let chop = ruleset.resolve("prize.chop_deals").expect("bound");
    assert_eq!(chop.binding.plugin.as_deref(), Some("icm-chop"));
    assert_eq!(chop.binding.citation, "house 9");
}

/// A cache that counts what it was asked to keep (each keep is one compilation).
#[derive(Default)]
struct Counting {
    scripts: RefCell<HashMap<String, Script>>,
    compiled: Cell<usize>,
}

impl ScriptCache for Counting {
    fn get(&self, text: &str) -> Option<Script> {
        self.scripts.borrow().get(text).cloned()
    }

    fn keep(&self, script: &Script) {
        self.compiled.set(self.compiled.get() + 1);
        self.scripts
            .borrow_mut()
            .insert(script.text().to_string(), script.clone());
    }
}

#[test]
fn a_script_cache_spares_compiling_an_unchanged_script_but_every_decision_is_still_probed() {
    let sandbox = Sandbox::new();
    let cache = Counting::default();
    let with = |script: &str| {
        MemoryLoader::new().with("law", PARENT, &[]).with(
            "house",
            &house(
                r#"        "allin.reopening": (citation: "h3", decision: "reopens"),"#,
                r#""rules.rhai""#,
            ),
            &[("rules.rhai", script)],
        )
    };
    let good = with("fn reopens(ctx) {\n    true\n}\n");
    let first = Ruleset::load_cached("house", &good, &sandbox, &cache).expect("loads");
    let again = Ruleset::load_cached("house", &good, &sandbox, &cache).expect("loads again");
    assert_eq!(cache.compiled.get(), 1, "the second load compiled nothing");
    assert_eq!(first.hash(), again.hash());
    let script = again
        .resolve("allin.reopening")
        .and_then(|r| r.layer.script_for("reopens"))
        .expect("the cached script defines the decision");
    assert_eq!(script.file(), "house/rules.rhai");

    // A script that compiles but returns the wrong type: refused by probing whether it came
    // from the cache or not, naming the file this load read.
    let wrong = with("fn reopens(ctx) {\n    \"yes\"\n}\n");
    for _ in 0..2 {
        let problems =
            Ruleset::load_cached("house", &wrong, &sandbox, &cache).expect_err("refused");
        assert!(
            problems
                .iter()
                .any(|p| p.kind == ProblemKind::WrongReturnType
                    && p.to_string().contains("house/rules.rhai")),
            "{problems:?}"
        );
    }
    assert_eq!(cache.compiled.get(), 2);
}
