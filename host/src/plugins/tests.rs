//! The loader against real plugins, built from the workspace: an ICM deal through a ruleset's
//! binding, refusals (unlisted, another hash, another ABI), and a panic that becomes a ruling
//! error while the host and the plugin carry on.

use super::testing::plugins;
use super::*;
use crate::rulesets::Store;
use floor_engine::rules::Citation;
use floor_engine::ruleset::{MemoryLoader, Ruleset, Sandbox};
use serde_json::json;
use std::path::{Path, PathBuf};

/// A config allowing `files` with their real hashes.
fn allowing(files: &[&Path]) -> PluginConfig {
    let text: String = files
        .iter()
        .map(|file| {
            let sha = sha256_hex(&std::fs::read(file).expect("built"));
            format!(
                "(path: {:?}, sha256: \"{sha}\"),\n",
                file.display().to_string()
            )
        })
        .collect();
    PluginConfig::from_ron(&format!("(plugins: [\n{text}])"), Path::new("floor.ron"))
        .expect("valid config")
}

fn solverde() -> std::sync::Arc<Ruleset> {
    Store::choose(None)
        .load("pt-solverde-chaves-2023", &Sandbox::new())
        .expect("the bundled ruleset loads")
}

/// A house ruleset binding `prize.chop_deals` to `plugin`.
fn house_binding(plugin: &str) -> Ruleset {
    let ron = format!(
        r#"(id: "house", title: "House", source: "house.txt", kind: House, version: "3.0.0",
            bindings: {{ "prize.chop_deals": (citation: "house rule 12", plugin: "{plugin}") }})"#
    );
    let loader = MemoryLoader::new().with("house", &ron, &[]);
    Ruleset::load("house", &loader, &Sandbox::new()).expect("loads")
}

#[test]
fn s7_3_the_icm_plugin_is_loaded_when_listed_and_rules_on_a_chop_citing_the_binding() {
    let icm = plugins().icm_chop();
    let loaded = Plugins::load(&allowing(&[&icm])).expect("allowed");
    let plugin = loaded.get("icm-chop").expect("named icm-chop");
    assert_eq!(plugin.rule_points(), ["prize.chop_deals"]);
    assert_eq!(plugin.abi_version(), floor_plugin_api::ABI_VERSION);

    let context = json!({"stacks": [50, 30, 20], "prizes": [5000, 3000, 2000], "buy_in": 5000});
    let ruling = loaded
        .rule(&solverde(), "prize.chop_deals", &context)
        .expect("a ruling");
    assert_eq!(ruling.point, "prize.chop_deals");
    assert_eq!(&*ruling.ruleset.id, "pt-solverde-chaves-2023");
    assert_eq!(&*ruling.ruleset.version, "1.2.3");
    assert_eq!(
        ruling.citation,
        Citation::Article("§7.3, §1.3, §8.2, §9.2".into())
    );
    assert_eq!(ruling.plugin.name, "icm-chop");
    assert_eq!(ruling.plugin.version, "0.1.0");
    assert_eq!(
        ruling.plugin.sha256,
        sha256_hex(&std::fs::read(&icm).expect("built"))
    );
    let deals: Vec<u64> = ruling.answer["players"]
        .as_array()
        .expect("players")
        .iter()
        .map(|p| p["deal"].as_u64().expect("cents"))
        .collect();
    assert_eq!(deals, [3839, 3275, 2886]);
    assert_eq!(deals.iter().sum::<u64>(), 10000);
    assert_eq!(ruling.answer["ranking_points"]["chop"], 34);
    let text = ruling.to_string();
    assert!(
        text.contains("[prize.chop_deals · pt-solverde-chaves-2023 v1.2.3 · §7.3, §1.3, §8.2, §9.2 · plugin icm-chop 0.1.0 sha256:"),
        "{text}"
    );
}

#[test]
fn a_plugin_with_another_hash_is_refused_naming_the_file_and_both_hashes() {
    let icm = plugins().icm_chop();
    let text = format!(
        "(plugins: [(path: {:?}, sha256: \"{}\")])",
        icm.display().to_string(),
        "0".repeat(64)
    );
    let config = PluginConfig::from_ron(&text, Path::new("floor.ron")).unwrap();
    let error = Plugins::load(&config).expect_err("refused");
    let actual = sha256_hex(&std::fs::read(&icm).unwrap());
    assert!(
        matches!(error, PluginError::HashMismatch { .. }),
        "{error:?}"
    );
    let message = error.to_string();
    assert!(message.contains(&icm.display().to_string()), "{message}");
    assert!(message.contains(&actual), "{message}");
    assert!(message.contains(&"0".repeat(64)), "{message}");
}

#[test]
fn a_plugin_the_config_does_not_list_is_refused_with_the_hash_to_list() {
    let built = plugins();
    let config = allowing(&[&built.icm_chop()]);
    let error = LoadedPlugin::open(&built.test_panic(), &config).expect_err("refused");
    let actual = sha256_hex(&std::fs::read(built.test_panic()).unwrap());
    assert!(matches!(error, PluginError::NotListed { .. }), "{error:?}");
    let message = error.to_string();
    assert!(message.contains("is not listed in floor.ron"), "{message}");
    assert!(
        message.contains(&format!("sha256: \"{actual}\"")),
        "{message}"
    );
}

#[test]
fn a_plugin_of_another_abi_version_is_refused_naming_both_versions() {
    let wrong = plugins().wrong_abi();
    let error = Plugins::load(&allowing(&[&wrong])).expect_err("refused");
    match &error {
        PluginError::AbiMismatch {
            found, expected, ..
        } => assert_eq!((*found, *expected), (2, 1)),
        other => panic!("{other:?}"),
    }
    assert!(error
        .to_string()
        .contains("built for plugin ABI version 2, this floor speaks version 1"));
}

#[test]
fn a_panic_in_a_plugin_is_a_ruling_error_and_the_host_and_plugin_carry_on() {
    let panicky = plugins().test_panic();
    let loaded = Plugins::load(&allowing(&[&panicky])).expect("allowed");
    let error = loaded
        .rule(
            &house_binding("test-panic"),
            "prize.chop_deals",
            &json!({"stacks": [1, 2]}),
        )
        .expect_err("a ruling error");
    assert!(
        matches!(*error.source, PluginError::Panicked { .. }),
        "{error:?}"
    );
    assert_eq!(error.citation, Citation::Article("house rule 12".into()));
    let message = error.to_string();
    assert!(
        message.starts_with("no ruling on `prize.chop_deals` under house v3.0.0 (house rule 12): plugin `test-panic` 0.1.0 panicked on `prize.chop_deals`: the plugin panicked: index out of bounds"),
        "{message}"
    );
    // Same plugin, same process, next call: it answers.
    let plugin = loaded.get("test-panic").unwrap();
    for _ in 0..3 {
        assert!(plugin.call("prize.chop_deals", &json!({})).is_err());
        assert_eq!(
            plugin
                .call("ranking.points", &json!({"n": 1}))
                .expect("answers"),
            json!({"echo": {"n": 1}})
        );
    }
}

#[test]
fn a_plugin_refusal_names_the_plugin_and_its_reason() {
    let loaded = Plugins::load(&allowing(&[&plugins().icm_chop()])).unwrap();
    let error = loaded
        .rule(
            &solverde(),
            "prize.chop_deals",
            &json!({"stacks": [5], "prizes": [10]}),
        )
        .expect_err("one player cannot chop");
    assert!(
        error.to_string().ends_with("plugin `icm-chop` 0.1.0 refused `prize.chop_deals`: a chop is an agreement between players: 1 player given, at least 2 needed"),
        "{error}"
    );
    let error = loaded
        .get("icm-chop")
        .unwrap()
        .call("ranking.points", &json!({}))
        .expect_err("not declared");
    assert_eq!(
        error.to_string(),
        "plugin `icm-chop` does not implement `ranking.points` (it implements: prize.chop_deals)"
    );
}

#[test]
fn a_ruleset_that_binds_no_plugin_or_an_unloaded_one_gets_no_plugin_ruling() {
    let store = Store::choose(None);
    let loaded = Plugins::load(&allowing(&[&plugins().icm_chop()])).unwrap();
    let context = json!({"stacks": [1, 1], "prizes": [2]});
    // pt-casino-2007 binds the point (chops forbidden, rule 14) but names no plugin.
    let casino = store.load("pt-casino-2007", &Sandbox::new()).unwrap();
    let error = loaded
        .rule(&casino, "prize.chop_deals", &context)
        .unwrap_err();
    assert_eq!(
        error.to_string(),
        "no ruling on `prize.chop_deals` under pt-casino-2007 v1.1.4 (rule 14): `prize.chop_deals` is not bound to a plugin by this ruleset"
    );
    let error = Plugins::default()
        .rule(&solverde(), "prize.chop_deals", &context)
        .unwrap_err();
    assert!(
        error.to_string().ends_with("`prize.chop_deals` is bound to plugin `icm-chop`, which is not loaded: list it in the `plugins` of the daemon's config"),
        "{error}"
    );
}

#[test]
fn a_config_name_the_plugin_does_not_give_is_refused() {
    let icm = plugins().icm_chop();
    let sha = sha256_hex(&std::fs::read(&icm).unwrap());
    let text = format!(
        "(plugins: [(path: {:?}, sha256: \"{sha}\", name: \"icm\")])",
        icm.display().to_string()
    );
    let config = PluginConfig::from_ron(&text, Path::new("floor.ron")).unwrap();
    let error = Plugins::load(&config).unwrap_err();
    assert!(
        error
            .to_string()
            .ends_with("refused: it calls itself `icm-chop`, but floor.ron lists it as `icm`"),
        "{error}"
    );
}

#[test]
fn two_plugins_of_one_name_are_refused_and_a_missing_file_is_named() {
    let icm = plugins().icm_chop();
    let mut set = Plugins::default();
    set.insert(LoadedPlugin::open_unchecked(&icm).unwrap())
        .unwrap();
    let error = set
        .insert(LoadedPlugin::open_unchecked(&icm).unwrap())
        .unwrap_err();
    assert!(
        error
            .to_string()
            .ends_with("both call themselves `icm-chop`"),
        "{error}"
    );
    let missing = PathBuf::from("/nonexistent/libnothing.so");
    let error = LoadedPlugin::open_unchecked(&missing).unwrap_err();
    assert!(
        error
            .to_string()
            .starts_with("/nonexistent/libnothing.so: "),
        "{error}"
    );
}

#[test]
fn the_loaded_plugin_is_shared_between_threads() {
    let loaded = std::sync::Arc::new(Plugins::load(&allowing(&[&plugins().icm_chop()])).unwrap());
    let handles: Vec<_> = (0..4u64)
        .map(|i| {
            let loaded = loaded.clone();
            std::thread::spawn(move || {
                let answer = loaded
                    .get("icm-chop")
                    .unwrap()
                    .call(
                        "prize.chop_deals",
                        &json!({"stacks": [i + 1, 1], "prizes": [100, 0]}),
                    )
                    .unwrap();
                answer["players"][1]["deal"].as_u64().unwrap()
            })
        })
        .collect();
    let seconds: Vec<u64> = handles.into_iter().map(|h| h.join().unwrap()).collect();
    assert_eq!(seconds, [50, 33, 25, 20]);
}
