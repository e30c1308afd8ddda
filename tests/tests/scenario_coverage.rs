//! Every rule point whose ruling changes the table is seen carried out, under every ruleset
//! whose text rules on it: some bundled scenario, run under that ruleset, makes a ruling at
//! the point and then asserts the table's state (a hand's `Table` step, a cash `Check`, a
//! tournament step checking its state). A ruling that is only said, never checked on the
//! table, could change the wrong thing unnoticed.

use floor_engine::rules::registry::{self, Carried};
use floor_engine::scenario::{parse, playable_under, ruleset_keys, run, Scenario};
use floor_tests::{Repo, RULESETS};
use std::collections::{BTreeMap, BTreeSet};

/// Points (under every ruleset: `"*"`, or one; a `*` ending a point: every point it begins)
/// that need no scenario of their own here, and why.
const EXEMPT: &[(&str, &str, &str)] = &[
    // Values the engine reads as it plays, with no ruling of their own in the hand's or the
    // tournament's log: what they change is asserted by every table step (the blinds posted,
    // the pots, the cards dealt, the seats), but no step can show them ruling.
    ("allin.side_pots", "*", READ_AS_A_VALUE),
    ("deal.order", "*", READ_AS_A_VALUE),
    ("variant.hole_card_usage", "*", READ_AS_A_VALUE),
    ("variant.hand_ranking_and_ties", "*", READ_AS_A_VALUE),
    ("variant.offered_games", "*", READ_AS_A_VALUE),
    ("button.dead_button", "*", READ_AS_A_VALUE),
    ("seating.one_player_per_seat", "*", READ_AS_A_VALUE),
    ("table.final_table_size", "*", READ_AS_A_VALUE),
    ("table.balancing.source_table", "*", READ_AS_A_VALUE),
    // Ruled when a cash table opens; a tournament's hands read them as values.
    ("blinds.positions_and_amounts", "br-adtp-2012", READ_AS_A_VALUE),
    ("blinds.positions_and_amounts", "pt-solverde-chaves-2023", READ_AS_A_VALUE),
    ("blinds.positions_and_amounts", "pt-tournament", READ_AS_A_VALUE),
    ("table.seats_per_table", "ao-tournament-2025", READ_AS_A_VALUE),
    ("table.seats_per_table", "br-adtp-2012", READ_AS_A_VALUE),
    ("table.seats_per_table", "pt-solverde-chaves-2023", READ_AS_A_VALUE),
    ("table.seats_per_table", "pt-tournament", READ_AS_A_VALUE),
    // Parameters the penalty ruling reads: the ruling is made at the offence's own point.
    ("penalty.catalogue_and_escalation", "*", READ_AS_A_VALUE),
    ("penalty.timing", "*", READ_AS_A_VALUE),
    ("penalty.triggers", "*", READ_AS_A_VALUE),
    // Where the text, or the table, leaves a scenario nothing to carry out: each says why.
    ("presence.sit_out_and_inactivity", "pt-solverde-chaves-2023", "§9.6 rules only on the quarterly finals' no-shows (sat out through level 1, then their chips taken out of play); the tournament plays no quarterly final and takes no absent player's chips at a level's end"),
    ("betting.raise_cap", "pt-online", "the decree sets no number of raises (rules 38, 24(a) leave it to the operator): no raise is ever refused, so no hand rules at the point; rule_24_a_38 shows four raises standing"),
    ("cash.session_definition", "*", "a session counts only for the per-session commission (pt-casino-2007 rule 7(b)), which a house ruleset chooses: both bundled cash texts bind the per-hand commission, and a cash scenario cannot set its own"),
    ("table.min_players", "pt-solverde-chaves-2023", "§3.1.8 counts players only for a Sit&Go's start, which the tournament carries out at tournament.modality.sit_and_go (the wrong count refused); the cash table that asks this point is no tournament's"),
    ("tournament.modality.satellite", "ao-tournament-2025", SATELLITE_DRAW),
    ("tournament.modality.satellite", "br-adtp-2012", SATELLITE_DRAW),
    ("tournament.modality.satellite", "pt-tournament", SATELLITE_DRAW),
    ("prize.chop_deals", "pt-casino-2007", CASH_CHOP),
    ("prize.chop_deals", "pt-online", CASH_CHOP),
];

const READ_AS_A_VALUE: &str = "read as a value, never a ruling of its own";

/// A cash text forbids splitting a pot by agreement (pt-casino-2007 rule 14(c),(d), pt-online
/// rule 28): the pot goes by the cards whatever the players say, which every hand's stacks
/// assert; no table event proposes such an agreement for the refusal to act on.
const CASH_CHOP: &str = "a cash text's ban on splitting a pot by agreement leaves the pot to the cards, which every hand asserts; no table event proposes an agreement";

/// These texts name satellites only to say that their seats are drawn at random like any
/// tournament's (pt-tournament Art. 6º, br-adtp-2012 rule 5, ao-tournament-2025 Art. 7): the
/// draw is ruled and seated at `seating.initial_draw`; of a satellite's own prizes and play
/// they say nothing.
const SATELLITE_DRAW: &str = "the text names satellites only in its random seat draw, ruled at seating.initial_draw; it says nothing of a satellite's own";

/// The index in [`EXEMPT`] of the exemption of `point` under `ruleset`, if any.
fn exemption(point: &str, ruleset: &str) -> Option<usize> {
    EXEMPT.iter().position(|(p, r, _)| {
        let point_matches = match p.strip_suffix('*') {
            Some(prefix) => point.starts_with(prefix),
            None => *p == point,
        };
        point_matches && (*r == "*" || *r == ruleset)
    })
}

/// The bundled scenarios, by ruleset directory: `(home, file, scenario)`.
fn scenarios(repo: &Repo) -> Vec<(&'static str, String, Scenario)> {
    let mut all = Vec::new();
    for home in RULESETS {
        let dir = repo.0.join(home).join("tests");
        let mut files: Vec<_> = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("{}: the bundled scenarios are missing: {e}", dir.display()))
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|x| x == "ron"))
            .collect();
        files.sort();
        for file in files {
            let name = file.display().to_string();
            let text = std::fs::read_to_string(&file)
                .unwrap_or_else(|e| panic!("{name}: cannot be read: {e}"));
            let scenario = parse(&name, &text).unwrap_or_else(|e| panic!("{e}"));
            all.push((home, name, scenario));
        }
    }
    all
}

/// `(point, ruleset)` pairs a passing run shows carried out: the point ruled under the ruleset
/// and a later step asserted the table. Each scenario runs as `floor test` runs it: under its
/// directory's ruleset and every ruleset it writes expectations for, where it applies.
fn seen_carried_out(repo: &Repo) -> BTreeSet<(String, String)> {
    let loaded: BTreeMap<&str, _> = RULESETS.iter().map(|id| (*id, repo.load(id))).collect();
    // Loaded once: compiling a ruleset's scripts costs more than running a scenario.
    let rules: BTreeMap<&str, _> = RULESETS.iter().map(|id| (*id, repo.rules(id))).collect();
    let mut seen = BTreeSet::new();
    let mut failed = Vec::new();
    for (home, file, scenario) in scenarios(repo) {
        let mut ids: Vec<String> = vec![home.to_string()];
        ids.extend(ruleset_keys(&scenario).into_iter().filter(|k| k != home));
        for id in ids {
            let (Some(ruleset), Some(rules)) = (loaded.get(id.as_str()), rules.get(id.as_str()))
            else {
                continue;
            };
            if playable_under(&scenario, ruleset).is_err() {
                continue;
            }
            let outcome = run(&scenario, rules.clone());
            if !outcome.passed() {
                failed.push(format!("{file} under {id}: {:?}", outcome.failures));
                continue;
            }
            for point in outcome.points_asserted() {
                seen.insert((point.to_string(), id.clone()));
            }
        }
    }
    assert!(
        failed.is_empty(),
        "bundled scenarios fail (`floor test` says more):\n{}",
        failed.join("\n")
    );
    seen
}

#[test]
fn every_point_whose_ruling_changes_the_table_has_a_scenario_per_ruleset_asserting_the_table() {
    let repo = Repo::bundled();
    let seen = seen_carried_out(&repo);
    let loaded: Vec<_> = RULESETS.iter().map(|id| (*id, repo.load(id))).collect();
    let mut missing = Vec::new();
    // For each exemption: whether it matched a pair carried out, and one still missing.
    let mut matched = vec![(false, false); EXEMPT.len()];
    let mut pairs = 0;
    for point in registry::all() {
        if registry::carrying(point).status != Carried::CarriedOut {
            continue;
        }
        for (id, ruleset) in &loaded {
            if ruleset.resolve(point.id).is_none() {
                continue;
            }
            pairs += 1;
            let covered = seen.contains(&(point.id.to_string(), id.to_string()));
            match exemption(point.id, id) {
                Some(i) => {
                    matched[i].0 = true;
                    matched[i].1 |= !covered;
                }
                None if !covered => missing.push(format!("{:<44} {id}", point.id)),
                None => {}
            }
        }
    }
    // An exemption the scenarios have made needless goes; one for a point not carried out
    // (yet) waits for it.
    let stale: Vec<String> = EXEMPT
        .iter()
        .zip(&matched)
        .filter(|(_, (any, uncovered))| *any && !uncovered)
        .map(|((p, r, why), _)| {
            format!("exempted ({p}, {r}: {why}), yet scenarios assert every pair: remove it")
        })
        .collect();
    assert!(
        pairs > 300,
        "only {pairs} (point, ruleset) pairs are regulated and carried out"
    );
    assert!(
        missing.is_empty() && stale.is_empty(),
        "{} of {pairs} (point, ruleset) pairs carried out by the engine have no scenario, run \
         under the ruleset, that rules on the point and then asserts the table (a `Table` \
         step, a cash `Check`, a tournament state check); write one named after the article:\n\
         {}\n{}",
        missing.len(),
        missing.join("\n"),
        stale.join("\n")
    );
}
