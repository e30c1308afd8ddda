//! The behaviour oracle for performance work (ignored in the default run): dumps, for every
//! hand of the shared corpora and of seeded random hands, everything the engine decided —
//! events, rulings with their citations, stacks, pots, board, phase, outcome, the report, and
//! (for hands played through the API) the legal menu at every turn — under the default rules,
//! the PHH conventions and every bundled ruleset. An optimisation must leave the dump
//! byte-identical:
//!
//! ```text
//! PERF_ORACLE_OUT=/tmp/before cargo test --release -p floor-engine --test perf_oracle -- --ignored
//! # change the engine
//! PERF_ORACLE_OUT=/tmp/after  cargo test --release -p floor-engine --test perf_oracle -- --ignored
//! diff -r /tmp/before /tmp/after
//! ```
//!
//! The corpora are read from `../shared/data/{phh,crosscheck}` beside the workspace (as
//! `PERF_ORACLE_DATA` may say otherwise); without them only the seeded hands are dumped.

use floor_engine::cards::Deck;
use floor_engine::hand::{Hand, Phase};
use floor_engine::phh::{parse_file, PhhHand};
use floor_engine::replay::{replay, Replayer};
use floor_engine::rules::{DefaultRules, PhhConventions, Rules};
use floor_engine::sim::{deal_next, random_action, random_config};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::fmt::Write as _;
use std::path::PathBuf;
use std::sync::Arc;

mod corpus;

fn dump_hand(out: &mut String, hand: &Hand) {
    let _ = writeln!(
        out,
        "  phase {:?} outcome {:?}",
        hand.phase(),
        hand.outcome()
    );
    let _ = writeln!(out, "  stacks {:?}", hand.stacks());
    let _ = writeln!(out, "  pots {:?}", hand.pots());
    let _ = writeln!(out, "  board {:?}", hand.board());
    let _ = writeln!(out, "  small blind {:?}", hand.small_blind_position());
    for event in hand.events() {
        let _ = writeln!(out, "  e {event:?}");
    }
    for ruling in hand.rulings() {
        let _ = writeln!(out, "  r {ruling:?}");
        let _ = writeln!(out, "  r {ruling}");
    }
}

/// Replays `records` through [`replay`] and through one [`Replayer`] (which must agree) and
/// dumps what they found.
fn dump_corpus(out: &mut String, name: &str, records: &[PhhHand], rules: &Arc<dyn Rules>) {
    let mut fresh = String::new();
    for (i, record) in records.iter().enumerate() {
        let _ = writeln!(fresh, "{name} #{i}");
        match replay(record, rules.clone()) {
            Ok((hand, report)) => {
                let _ = writeln!(fresh, "  report {report:?}");
                dump_hand(&mut fresh, &hand);
            }
            Err(error) => {
                let _ = writeln!(fresh, "  setup {error:?} {error}");
            }
        }
    }
    let mut reused = String::new();
    Replayer::new(rules.clone()).replay_all(records, |i, result| {
        let _ = writeln!(reused, "{name} #{i}");
        match result {
            Ok((hand, report)) => {
                let _ = writeln!(reused, "  report {report:?}");
                dump_hand(&mut reused, hand);
            }
            Err(error) => {
                let _ = writeln!(reused, "  setup {error:?} {error}");
            }
        }
    });
    assert!(fresh == reused, "{name}: replay and replay_all disagree");
    out.push_str(&fresh);
}

/// Plays one random hand through the API, dumping the legal menu at every turn and every
/// refusal, then the hand.
fn dump_played(out: &mut String, seed: u64, rules: &Arc<dyn Rules>) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let config = random_config(&mut rng);
    let _ = writeln!(out, "played #{seed}");
    let mut hand = match Hand::new(config, rules.clone()) {
        Ok(hand) => hand,
        Err(error) => {
            let _ = writeln!(out, "  config {error}");
            return;
        }
    };
    let mut deck = Deck::shuffled(&mut rng);
    for _ in 0..2_000 {
        let step = match hand.phase() {
            Phase::Complete => break,
            Phase::DealingHole | Phase::DealingBoard => deal_next(&mut hand, &mut deck).map(|_| ()),
            Phase::Betting => match hand.legal() {
                Some(legal) => {
                    let _ = writeln!(
                        out,
                        "  legal {legal:?} full {} opening {}",
                        hand.full_raise(),
                        hand.facing_opening_bet()
                    );
                    // A refused action too, to keep the refusals' reasons.
                    if let Some(min) = legal.min_raise_to {
                        if min > hand.current_bet() + 1 {
                            let refused = hand.act(
                                legal.player,
                                floor_engine::hand::Action::BetOrRaiseTo(min - 1),
                            );
                            let _ = writeln!(out, "  try {refused:?}");
                        }
                    }
                    hand.act(legal.player, random_action(&legal, &mut rng))
                }
                None => break,
            },
            Phase::Showdown => match (0..hand.config().players()).find(|&p| hand.can_show(p)) {
                Some(p) if rng.random_ratio(1, 5) => hand.muck(p),
                Some(p) => hand.show(p, None),
                None => hand.finish_showdown(),
            },
        };
        if let Err(error) = step {
            let _ = writeln!(out, "  refused {error}");
            break;
        }
    }
    dump_hand(out, &hand);
}

#[test]
#[ignore = "the performance oracle: run it by hand with PERF_ORACLE_OUT set"]
fn dump_every_decision_for_the_performance_oracle() {
    let Ok(dir) = std::env::var("PERF_ORACLE_OUT") else {
        panic!("set PERF_ORACLE_OUT to the directory to write the dump to");
    };
    let dir = PathBuf::from(dir);
    std::fs::create_dir_all(&dir).expect("the output directory");
    let data = std::env::var("PERF_ORACLE_DATA")
        .map(PathBuf::from)
        .unwrap_or_else(|_| corpus::shared_data());
    let mut corpora: Vec<(String, Vec<PhhHand>)> = corpus::shared_corpora(&data)
        .into_iter()
        .map(|(name, text)| {
            let records = parse_file(&text).expect("a parseable corpus");
            (name, records)
        })
        .collect();
    corpora.push(("random-nlhe".into(), corpus::random_nlhe(5_000)));
    // The parsed records themselves (the parser is on the optimised path too).
    let mut parsed = String::new();
    for (name, records) in &corpora {
        for (i, record) in records.iter().enumerate() {
            let _ = writeln!(parsed, "{name} #{i} {record:?}");
        }
    }
    std::fs::write(dir.join("parsed.txt"), parsed).expect("write");
    let mut all: Vec<(String, Arc<dyn Rules>)> = vec![
        ("default".into(), Arc::new(DefaultRules)),
        ("phh-conventions".into(), Arc::new(PhhConventions)),
    ];
    all.extend(
        corpus::bundled_ids()
            .iter()
            .map(|id| (id.to_string(), corpus::bundled(id))),
    );
    for (id, rules) in &all {
        let mut out = String::new();
        for (name, records) in &corpora {
            dump_corpus(&mut out, name, records, rules);
        }
        for seed in 0..3_000 {
            dump_played(&mut out, seed, rules);
        }
        std::fs::write(dir.join(format!("{id}.txt")), out).expect("write");
    }
}
