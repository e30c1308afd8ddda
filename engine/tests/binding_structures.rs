//! A binding may regulate a DECISION point for some betting structures only (`structures`):
//! a text whose sentence speaks of no-limit and pot-limit (ADTP 2012 rule 37 on reopening)
//! says nothing of limit. Under a structure the binding leaves out, the ruling is *not
//! regulated by this text* and the engine's default applies — never the article cited for a
//! case it does not cover.

use floor_engine::hand::Structure;
use floor_engine::rules::{Citation, ReopenContext, Rules};
use floor_engine::ruleset::{MemoryLoader, Ruleset, RulesetRules, Sandbox};
use std::collections::BTreeMap;
use std::sync::Arc;

fn law(bindings: &str) -> String {
    format!(
        r#"(
    id: "law", title: "A law", source: "law.txt", kind: Tournament, version: "1.0.0",
    scripts: ["law.rhai"],
    bindings: {{
{bindings}
    }},
)"#
    )
}

const SCRIPT: &str = r#"
fn chips(ctx) { #{ outcome: "call", text: "several chips are a call" } }
"#;

fn load(bindings: &str) -> Result<Ruleset, String> {
    let loader = MemoryLoader::new().with("law", &law(bindings), &[("law.rhai", SCRIPT)]);
    Ruleset::load("law", &loader, &Sandbox::new()).map_err(|problems| {
        problems
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join("\n")
    })
}

fn reopen(structure: Structure) -> ReopenContext {
    ReopenContext {
        structure,
        raised_since_last_action: 6,
        full_raise: 10,
        raises_this_round: 1,
        short_all_ins_this_round: 1,
        players_not_all_in: 3,
    }
}

/// ADTP 2012 rule 37: "em no-limit e pot-limit" a raise short of the full bet does not reopen.
#[test]
fn rule_37_binds_reopening_for_no_limit_and_pot_limit_only() {
    let ruleset = load(
        r#"        "allin.reopening": (citation: "rule 37", engine_default: true, structures: ["no_limit", "pot_limit"]),"#,
    )
    .expect("loads");
    let rules = RulesetRules::new(Arc::new(ruleset));
    let no_limit = rules.reopens(&reopen(Structure::NoLimit));
    assert_eq!(no_limit.citation, Citation::Article("rule 37".into()));
    assert!(
        !no_limit.value,
        "6 of a full 10 does not reopen in no-limit"
    );
    let limit = rules.reopens(&reopen(Structure::FixedLimit {
        small_bet: 10,
        big_bet: 20,
    }));
    assert_eq!(limit.citation, Citation::NotRegulated);
    // The engine's reference convention in limit: half a bet or more reopens.
    assert!(limit.value);
}

#[test]
fn a_table_event_under_a_structure_the_binding_leaves_out_is_not_regulated() {
    let ruleset = load(
        r#"        "action.multiple_chips": (citation: "law 4", decision: "chips", structures: ["no_limit"]),"#,
    )
    .expect("loads");
    let rules = RulesetRules::new(Arc::new(ruleset));
    let facts = |structure: &str| {
        let mut f = BTreeMap::new();
        f.insert(
            "structure".to_string(),
            ron::Value::String(structure.to_string()),
        );
        f
    };
    let covered = rules.table_event("action.multiple_chips", &facts("no_limit"));
    assert_eq!(covered.citation, Citation::Article("law 4".into()));
    assert_eq!(covered.outcome, "call");
    let left_out = rules.table_event("action.multiple_chips", &facts("fixed_limit"));
    assert_eq!(left_out.citation, Citation::NotRegulated);
}

#[test]
fn the_loader_refuses_structures_it_does_not_know_or_on_a_parameter() {
    let unknown = load(
        r#"        "allin.reopening": (citation: "rule 37", engine_default: true, structures: ["limit"]),"#,
    )
    .expect_err("refused");
    assert!(
        unknown.contains("`limit` in `structures` is not a betting structure; use no_limit, pot_limit, half_pot_limit, fixed_limit"),
        "{unknown}"
    );
    let empty = load(
        r#"        "allin.reopening": (citation: "rule 37", engine_default: true, structures: []),"#,
    )
    .expect_err("refused");
    assert!(empty.contains("`structures` is empty"), "{empty}");
    let parameter = load(
        r#"        "betting.raise_cap": (citation: "rule 40", value: 3, structures: ["fixed_limit"]),"#,
    )
    .expect_err("refused");
    assert!(
        parameter.contains("is a PARAMETER: `structures` narrows a DECISION's rule"),
        "{parameter}"
    );
}
