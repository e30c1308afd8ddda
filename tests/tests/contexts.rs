//! The typed contexts of the DECISIONs are the real contract: every fact the engine computes
//! at a hand, a cash table or a tournament, and every fact a bundled scenario gives a
//! `Situation`, fits the context type of the point it is asked at.

use floor_engine::rules::decision::signature;
use floor_engine::rules::*;
use floor_engine::scenario::{parse, playable_under, run};
use floor_engine::Chips;
use floor_tests::{Repo, RULESETS};
use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

/// Rules that check every table event's facts against its point's context, then ask the
/// ruleset.
struct Checked {
    rules: Arc<dyn Rules>,
    misfits: Arc<Mutex<Vec<String>>>,
}

impl Rules for Checked {
    fn ruleset(&self) -> &RulesetRef {
        self.rules.ruleset()
    }
    fn defaulted(&self) -> DefaultedPoints {
        self.rules.defaulted()
    }
    fn min_raise(&self, ctx: &MinRaiseContext) -> Decided<Chips> {
        self.rules.min_raise(ctx)
    }
    fn reopens(&self, ctx: &ReopenContext) -> Decided<bool> {
        self.rules.reopens(ctx)
    }
    fn raise_cap(&self, ctx: &RaiseCapContext) -> Decided<Option<u32>> {
        self.rules.raise_cap(ctx)
    }
    fn pot_limit_max(&self, ctx: &PotLimitContext) -> Decided<Chips> {
        self.rules.pot_limit_max(ctx)
    }
    fn odd_chip(&self, ctx: &OddChipContext) -> Decided<usize> {
        self.rules.odd_chip(ctx)
    }
    fn showdown_order(&self, ctx: &ShowdownOrderContext) -> Decided<usize> {
        self.rules.showdown_order(ctx)
    }
    fn first_to_act(&self, ctx: &FirstToActContext) -> Decided<usize> {
        self.rules.first_to_act(ctx)
    }
    fn blinds(&self, ctx: &BlindsContext) -> Decided<BlindPlan> {
        self.rules.blinds(ctx)
    }
    fn dead_button(&self) -> Decided<bool> {
        self.rules.dead_button()
    }
    fn rake(&self, ctx: &RakeContext) -> Decided<Chips> {
        self.rules.rake(ctx)
    }
    fn table_event(&self, point: &str, facts: &BTreeMap<String, ron::Value>) -> EventDecision {
        if let Some(s) = signature(point) {
            if let Err(why) = s.fits(facts) {
                let mut misfits = self.misfits.lock().unwrap_or_else(|e| e.into_inner());
                misfits.push(format!("{point}: {why}: {facts:?}"));
            }
        }
        self.rules.table_event(point, facts)
    }
    fn game(&self, name: &str) -> Result<(), String> {
        self.rules.game(name)
    }
    fn timeout_action(&self, ctx: &TimeoutContext) -> Decided<TimeoutAction> {
        self.rules.timeout_action(ctx)
    }
    fn citation(&self, point: &str) -> Citation {
        self.rules.citation(point)
    }
    fn parameter(&self, point: &str) -> Option<Decided<ron::Value>> {
        self.rules.parameter(point)
    }
}

#[test]
fn every_fact_the_engine_and_the_bundled_scenarios_give_fits_its_points_context() {
    let repo = Repo::bundled();
    let misfits = Arc::new(Mutex::new(Vec::new()));
    let mut played = 0;
    for id in RULESETS {
        let ruleset = repo.load(id);
        let rules: Arc<dyn Rules> = Arc::new(Checked {
            rules: repo.rules(id),
            misfits: misfits.clone(),
        });
        for dir in RULESETS {
            let tests = repo.0.join(dir).join("tests");
            let mut files: Vec<_> = std::fs::read_dir(&tests)
                .unwrap_or_else(|e| {
                    panic!(
                        "{}: the bundled scenarios are missing: {e}",
                        tests.display()
                    )
                })
                .flatten()
                .map(|e| e.path())
                .collect();
            files.sort();
            for file in files {
                let text = std::fs::read_to_string(&file).expect("a scenario file");
                let scenario = parse(&file.display().to_string(), &text).expect("a scenario");
                if playable_under(&scenario, &ruleset).is_err() {
                    continue;
                }
                let _ = run(&scenario, rules.clone());
                played += 1;
            }
        }
    }
    assert!(played > 200, "{played} scenarios played");
    let misfits = misfits.lock().unwrap_or_else(|e| e.into_inner());
    assert!(
        misfits.is_empty(),
        "{} facts outside their context:\n{}",
        misfits.len(),
        misfits.join("\n")
    );
}
