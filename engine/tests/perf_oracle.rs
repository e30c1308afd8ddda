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
use floor_engine::hand::{Hand, HandConfig, Phase, Structure, Variant};
use floor_engine::phh::{parse_file, PhhHand};
use floor_engine::replay::{replay, Replayer};
use floor_engine::rules::{DefaultRules, PhhConventions, Rules};
use floor_engine::ruleset::{MemoryLoader, Ruleset, RulesetRules, Sandbox};
use floor_engine::sim::{deal_next, random_action, random_nlhe_records};
use floor_engine::Chips;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::Arc;

const RULESETS: [&str; 6] = [
    "ao-tournament-2025",
    "br-adtp-2012",
    "pt-casino-2007",
    "pt-online",
    "pt-solverde-chaves-2023",
    "pt-tournament",
];

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Every bundled ruleset, read from the repository's rulesets/ directory.
fn rulesets() -> Vec<(String, Arc<dyn Rules>)> {
    let mut loader = MemoryLoader::new();
    for id in RULESETS {
        let dir = workspace().join("rulesets").join(id);
        let read = |name: &str| std::fs::read_to_string(dir.join(name)).unwrap_or_default();
        let mut names: Vec<String> = std::fs::read_dir(&dir)
            .map(|entries| {
                entries
                    .filter_map(|e| e.ok())
                    .map(|e| e.file_name().to_string_lossy().into_owned())
                    .filter(|n| n.ends_with(".rhai"))
                    .collect()
            })
            .unwrap_or_default();
        names.sort();
        let texts: Vec<String> = names.iter().map(|n| read(n)).collect();
        let scripts: Vec<(&str, &str)> = names
            .iter()
            .zip(&texts)
            .map(|(n, t)| (n.as_str(), t.as_str()))
            .collect();
        loader = loader.with(id, &read("ruleset.ron"), &scripts);
    }
    let sandbox = Sandbox::new();
    RULESETS
        .iter()
        .map(|id| match Ruleset::load(id, &loader, &sandbox) {
            Ok(ruleset) => (
                id.to_string(),
                Arc::new(RulesetRules::new(Arc::new(ruleset))) as Arc<dyn Rules>,
            ),
            Err(problems) => panic!("{id} does not load: {problems:?}"),
        })
        .collect()
}

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

/// A random but valid table (as in `random_hands.rs`): every structure, antes, big-blind
/// antes, straddles, live posts, short stacks.
fn random_config(rng: &mut ChaCha8Rng) -> HandConfig {
    let n = rng.random_range(2..=11usize);
    let bb: Chips = rng.random_range(1..=50) * 2;
    let sb = bb / 2;
    let stacks: Vec<Chips> = (0..n)
        .map(|_| match rng.random_range(0..10) {
            0 => rng.random_range(1..=bb * 2),
            1..=6 => rng.random_range(bb * 10..=bb * 100),
            _ => rng.random_range(1..=bb * 300),
        })
        .collect();
    let mut config = HandConfig::holdem(stacks, n - 1, sb, bb);
    match rng.random_range(0..6) {
        0 => config.antes = vec![rng.random_range(1..=sb.max(1)); n],
        1 => config.antes[if n == 2 { 0 } else { 1 }] = bb,
        _ => {}
    }
    if n >= 4 && rng.random_ratio(1, 8) {
        config.blinds[2] = bb * 2;
    } else if n >= 4 && rng.random_ratio(1, 8) {
        config.posts[rng.random_range(2..n)] = bb;
    }
    config.variant = if rng.random_ratio(1, 4) {
        Variant::Omaha
    } else {
        Variant::Holdem
    };
    config.structure = match rng.random_range(0..8) {
        0 | 1 => Structure::PotLimit,
        2 => Structure::FixedLimit {
            small_bet: bb,
            big_bet: bb * 2,
        },
        3 => Structure::HalfPotLimit,
        _ => Structure::NoLimit,
    };
    config
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
        .unwrap_or_else(|_| workspace().join("../shared/data"));
    let mut corpora: Vec<(String, Vec<PhhHand>)> = Vec::new();
    for sub in ["phh", "crosscheck"] {
        let mut files: Vec<PathBuf> = std::fs::read_dir(data.join(sub))
            .map(|entries| entries.filter_map(|e| e.ok()).map(|e| e.path()).collect())
            .unwrap_or_default();
        files.sort();
        for file in files {
            let name = file.display().to_string();
            if !(name.ends_with(".phh") || name.ends_with(".phhs")) {
                continue;
            }
            let text = std::fs::read_to_string(&file).expect("a readable corpus");
            let records = parse_file(&text).expect("a parseable corpus");
            corpora.push((
                format!(
                    "{sub}/{}",
                    file.file_name().unwrap_or_default().to_string_lossy()
                ),
                records,
            ));
        }
    }
    let mut rng = ChaCha8Rng::seed_from_u64(2026);
    corpora.push((
        "random-nlhe".into(),
        random_nlhe_records(&mut rng, 5_000, Arc::new(DefaultRules)),
    ));
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
    all.extend(rulesets());
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
