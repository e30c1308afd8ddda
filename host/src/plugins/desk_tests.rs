//! The desk at play: a house ruleset binding a hand point, a table event and a tournament
//! point to plugins, each answer a ruling naming the plugin; each way a plugin can fail a
//! ruling that says so, the point falling back; and a replay answered from the tape alone.

use super::desk::{self, HostDesk};
use super::testing::plugins;
use super::{sha256_hex, LoadedPlugin, Plugins};
use floor_engine::cards::Card;
use floor_engine::hand::{Street, Structure};
use floor_engine::rules::{
    Citation, DefaultRules, FirstToActContext, MinRaiseContext, OddChipContext, ReopenContext,
    Rules, ShowdownOrderContext,
};
use floor_engine::ruleset::{MemoryLoader, Ruleset, RulesetRules, Sandbox};
use std::collections::BTreeMap;
use std::sync::Arc;

/// A house ruleset whose points are answered by the two test plugins. The panicking point
/// is given the longest time limit: printing a panic's backtrace can take longer than the
/// default, and the test is of the panic, not of the clock.
const HOUSE: &str = r#"(
    id: "house-plugins",
    title: "House rules answered by plugins",
    source: "test",
    kind: House,
    version: "1.0.0",
    bindings: {
        "showdown.odd_chip": (citation: "House rule 7", plugin: "odd-chip-suits"),
        "action.string_bets": (citation: "House rule 3", plugin: "test-misbehave"),
        "tournament.chip_race": (citation: "House rule 12", plugin: "test-misbehave"),
        "betting.first_to_act": (citation: "House rule 4", plugin: "test-misbehave"),
        "showdown.order": (citation: "House rule 5", plugin: "test-misbehave", time_limit_ms: Some(5000)),
        "betting.min_raise": (citation: "House rule 6", plugin: "test-misbehave"),
        "allin.reopening": (citation: "House rule 8", plugin: "test-misbehave", time_limit_ms: Some(50)),
    },
)"#;

fn house() -> Arc<Ruleset> {
    let loader = MemoryLoader::new().with("house-plugins", HOUSE, &[]);
    Arc::new(Ruleset::load("house-plugins", &loader, &Sandbox::new()).expect("the house loads"))
}

fn loaded() -> Arc<Plugins> {
    let mut set = Plugins::default();
    for path in [plugins().odd_chip_suits(), plugins().misbehave()] {
        set.insert(LoadedPlugin::open_unchecked(&path).expect("the test plugin loads"))
            .expect("two names");
    }
    Arc::new(set)
}

fn rules(plugins: Arc<Plugins>) -> RulesetRules {
    RulesetRules::new(house()).with_desk(Arc::new(HostDesk::new(plugins)))
}

fn cards(text: &[&str]) -> Vec<Card> {
    text.iter().map(|c| c.parse().expect("a card")).collect()
}

fn odd_chip(rules: &RulesetRules) -> floor_engine::rules::Decided<usize> {
    let hole_cards = [cards(&["Kc", "2d"]), cards(&["Ks", "3h"])];
    rules.odd_chip(&OddChipContext {
        winners: &[1, 3],
        button: 0,
        players: 4,
        small_blind: Some(1),
        hole_cards: &hole_cards,
    })
}

/// The plugin named by a citation, as `name version sha256`.
fn named(citation: &Citation) -> (String, String, String, String) {
    let Citation::Plugin(cited) = citation else {
        panic!("not a plugin's ruling: {citation:?}");
    };
    (
        cited.article.to_string(),
        cited.plugin.name.clone(),
        cited.plugin.version.clone(),
        cited.plugin.sha256.clone(),
    )
}

fn sha256_of(path: &std::path::Path) -> String {
    sha256_hex(&std::fs::read(path).expect("the library reads"))
}

#[test]
fn a_hand_point_bound_to_a_plugin_is_its_answer_citing_the_binding_and_naming_the_plugin() {
    let decided = odd_chip(&rules(loaded()));
    // King of spades beats king of clubs: the player at position 3 takes the odd chip.
    assert_eq!(decided.value, 3);
    let (article, name, version, sha) = named(&decided.citation);
    assert_eq!(
        (article.as_str(), name.as_str(), version.as_str()),
        ("House rule 7", "odd-chip-suits", "0.1.0")
    );
    assert_eq!(sha, sha256_of(&plugins().odd_chip_suits()));
    assert!(decided
        .citation
        .to_string()
        .starts_with("House rule 7 — plugin odd-chip-suits 0.1.0 sha256:"));
}

#[test]
fn a_table_event_and_a_tournament_point_bound_to_a_plugin_are_its_rulings() {
    let rules = rules(loaded());
    let string_bet = rules.table_event("action.string_bets", &BTreeMap::new());
    assert_eq!(string_bet.outcome, "call");
    assert_eq!(named(&string_bet.citation).1, "test-misbehave");
    let facts: BTreeMap<String, ron::Value> = [("into", 100u64), ("retire", 25)]
        .into_iter()
        .map(|(k, v)| (k.to_string(), ron::Value::Number(ron::Number::U64(v))))
        .collect();
    let race = rules.table_event("tournament.chip_race", &facts);
    assert_eq!(race.outcome, "race_rounded");
    assert_eq!(
        race.fields.get("fractions").map(String::as_str),
        Some("rounded_half_up")
    );
    let (article, name, ..) = named(&race.citation);
    assert_eq!(
        (article.as_str(), name.as_str()),
        ("House rule 12", "test-misbehave")
    );
}

/// The sentence of a failed plugin's ruling, after checking the value fell back.
fn failed<T: PartialEq + std::fmt::Debug>(
    decided: floor_engine::rules::Decided<T>,
    default: T,
) -> String {
    assert_eq!(
        decided.value, default,
        "the point falls back to the engine default"
    );
    match decided.citation {
        Citation::ScriptFailed(why) => why.to_string(),
        other => panic!("not a failure: {other:?}"),
    }
}

#[test]
fn a_wrongly_typed_panicking_refusing_or_slow_plugin_is_a_ruling_that_says_so() {
    failures_are_rulings(&rules(loaded()));
}

/// A batch command's desk calls in place, and must rule every failure as the daemon's does:
/// a late answer (two seconds against 50 ms) is discarded and ruled a time-out, not a hang.
#[test]
fn a_desk_calling_in_place_rules_the_same_failures_as_one_calling_on_workers() {
    let in_place = RulesetRules::new(house()).with_desk(Arc::new(HostDesk::in_place(loaded())));
    failures_are_rulings(&in_place);
}

fn failures_are_rulings(rules: &RulesetRules) {
    let first = FirstToActContext {
        street: Street::Flop,
        button: 0,
        players: 3,
        small_blind: Some(1),
    };
    let why = failed(
        rules.first_to_act(&first),
        DefaultRules.first_to_act(&first).value,
    );
    assert!(
        why.starts_with("the plugin `test-misbehave` 0.1.0 (sha256:"),
        "{why}"
    );
    assert!(why.contains("for `betting.first_to_act` failed"), "{why}");
    assert!(why.contains("\"left of the button\""), "{why}");
    assert!(why.ends_with("the engine default applies instead"), "{why}");

    let order = ShowdownOrderContext {
        in_hand: &[0, 2],
        last_aggressor: None,
        button: 0,
        small_blind: Some(1),
    };
    let why = failed(
        rules.showdown_order(&order),
        DefaultRules.showdown_order(&order).value,
    );
    assert!(why.contains("it panicked"), "{why}");
    assert!(
        why.contains("showdown order over 2 players is not written yet"),
        "{why}"
    );

    let raise = MinRaiseContext {
        structure: Structure::NoLimit,
        street: Street::Flop,
        min_bet: 100,
        current_bet: 300,
        last_full_increment: 200,
    };
    let why = failed(
        rules.min_raise(&raise),
        DefaultRules.min_raise(&raise).value,
    );
    assert!(
        why.contains("it refused: this house has no minimum raise"),
        "{why}"
    );

    let reopen = ReopenContext {
        structure: Structure::NoLimit,
        raised_since_last_action: 50,
        full_raise: 100,
        raises_this_round: 2,
        short_all_ins_this_round: 1,
        players_not_all_in: 3,
    };
    let why = failed(rules.reopens(&reopen), DefaultRules.reopens(&reopen).value);
    assert!(
        why.contains("it did not answer within its time limit of 50 ms"),
        "{why}"
    );
}

#[test]
fn a_plugin_not_loaded_is_a_ruling_that_says_so() {
    let why = failed(odd_chip(&rules(Arc::new(Plugins::default()))), 1);
    assert!(why.contains("the plugin `odd-chip-suits` for `showdown.odd_chip` failed: no plugin of that name is loaded"), "{why}");
    let without_host = RulesetRules::new(house());
    let why = failed(odd_chip(&without_host), 1);
    assert!(
        why.contains("no plugin `odd-chip-suits` is loaded here"),
        "{why}"
    );
}

#[test]
fn a_replay_reads_the_recorded_answers_and_never_calls_the_plugin() {
    let (live, tape) = desk::recording(|| odd_chip(&rules(loaded())));
    assert_eq!(tape.len(), 1);
    assert_eq!(tape[0].point, "showdown.odd_chip");
    assert_eq!(tape[0].plugin, "odd-chip-suits");
    // The tape survives the journal's JSON.
    let journaled: Vec<desk::AnswerRecord> =
        serde_json::from_str(&serde_json::to_string(&tape).expect("serializes"))
            .expect("reads back");
    // No plugin loaded at all: the replay gives the same ruling, naming the same plugin.
    let without = rules(Arc::new(Plugins::default()));
    let replayed = desk::replaying(journaled, || odd_chip(&without));
    assert_eq!(replayed, live);
    // A question the journal holds no answer to is a failure, never a call.
    let why = failed(
        desk::replaying(Vec::new(), || odd_chip(&rules(loaded()))),
        1,
    );
    assert!(
        why.contains(
            "the journal holds no answer to this question; a replay never calls the plugin"
        ),
        "{why}"
    );
}

#[test]
fn a_misspelled_plugin_name_is_an_error_at_its_file_line_col_with_did_you_mean() {
    let misspelled = HOUSE.replace(r#"plugin: "odd-chip-suits""#, r#"plugin: "odd-chip-suit""#);
    let loader = MemoryLoader::new().with("house-plugins", &misspelled, &[]);
    let ruleset = Ruleset::load("house-plugins", &loader, &Sandbox::new()).expect("it loads");
    let (problems, _) = super::resolve(&ruleset, &loaded());
    let said = problems
        .iter()
        .find(|p| p.contains("odd-chip-suit`"))
        .expect("the misspelled name is reported");
    assert!(said.starts_with("house-plugins/ruleset.ron:8:65: `showdown.odd_chip` is bound to plugin `odd-chip-suit`"), "{said}");
    assert!(said.contains("did you mean `odd-chip-suits`?"), "{said}");
}

#[test]
fn resolving_probes_each_plugin_binding_and_reports_the_ones_that_fail() {
    let (problems, probed) = super::resolve(&house(), &loaded());
    assert!(
        probed > 0,
        "the odd chip plugin is probed on generated contexts"
    );
    let failing = |point: &str| {
        problems
            .iter()
            .any(|p| p.contains(&format!("for `{point}`")))
    };
    // The four misbehaving hand points fail their probe; the others pass it.
    for point in [
        "betting.first_to_act",
        "showdown.order",
        "betting.min_raise",
        "allin.reopening",
    ] {
        assert!(failing(point), "{point} passes its probe: {problems:#?}");
    }
    for point in [
        "showdown.odd_chip",
        "action.string_bets",
        "tournament.chip_race",
    ] {
        assert!(!failing(point), "{point} fails its probe: {problems:#?}");
    }
}

/// A house whose minimum raise (asked at every decision) is answered by the example plugin.
const DOUBLE: &str = r#"(
    id: "house-double", title: "A raise doubles the bet", source: "house.txt", kind: House,
    version: "1.0.0", extends: "law",
    bindings: {
        "betting.min_raise": (citation: "House rule 2", plugin: "min-raise-double"),
    },
)"#;

fn double(plugins: Arc<Plugins>) -> RulesetRules {
    let law = r#"(id: "law", title: "A law", source: "law.txt", kind: Cash, version: "1.0.0", bindings: {})"#;
    let loader = MemoryLoader::new()
        .with("law", law, &[])
        .with("house-double", DOUBLE, &[]);
    let ruleset = Ruleset::load("house-double", &loader, &Sandbox::new()).expect("the house loads");
    RulesetRules::new(Arc::new(ruleset)).with_desk(Arc::new(HostDesk::new(plugins)))
}

fn min_raise(rules: &RulesetRules, current_bet: u64) -> floor_engine::rules::Decided<u64> {
    rules.min_raise(&MinRaiseContext {
        structure: Structure::NoLimit,
        street: Street::Flop,
        min_bet: 100,
        current_bet,
        last_full_increment: 100,
    })
}

#[test]
fn an_answer_given_again_from_memory_is_journaled_and_a_replay_meets_it_in_order() {
    let mut set = Plugins::default();
    set.insert(LoadedPlugin::open_unchecked(&plugins().min_raise_double()).expect("it loads"))
        .expect("one name");
    let live_rules = double(Arc::new(set));
    // The same context twice (the second answered from memory), then another.
    let (live, tape) = desk::recording(|| [350, 350, 800].map(|bet| min_raise(&live_rules, bet)));
    assert_eq!(live.clone().map(|d| d.value), [350, 350, 800]);
    assert!(live.iter().all(|d| d
        .citation
        .to_string()
        .starts_with("House rule 2 — plugin min-raise-double 0.1.0 sha256:")));
    assert_eq!(tape.len(), 3, "the remembered answer is taken down too");
    assert_eq!(tape[0], tape[1]);
    // Replayed with no plugin and a memory of its own: the same rulings, in order.
    let replayed = desk::replaying(tape.clone(), || {
        let rules = double(Arc::new(Plugins::default()));
        [350, 350, 800].map(|bet| min_raise(&rules, bet))
    });
    assert_eq!(replayed, live);
    // A replay whose memory already holds the first answer reads the tape in the same order.
    let warm = double(Arc::new(Plugins::default()));
    desk::replaying(vec![tape[0].clone()], || min_raise(&warm, 350));
    let replayed = desk::replaying(tape, || [350, 350, 800].map(|bet| min_raise(&warm, bet)));
    assert_eq!(replayed, live);
}
