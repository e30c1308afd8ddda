//! The engine proven on hands nobody here wrote: the real online logs, the 2019 WSOP hand and
//! the cross-check corpora of random hands played by PokerKit. Every hand must replay with no
//! illegal action and no stack or winnings mismatch. The corpora live outside the
//! repository, in `../shared/data`; when they are absent the tests fail and say what is missing.

use floor_engine::phh::{parse_file, PhhHand};
use floor_engine::replay::{replay, ReplayReport};
use floor_engine::rules::{PhhConventions, Rules};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// A file of the shared corpora (`../shared/data` beside the workspace). Missing, the test
/// fails and says what is missing: the oracles are never switched off in silence.
fn shared(relative: &str) -> PathBuf {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../shared/data")
        .join(relative);
    assert!(
        path.is_file(),
        "{} is missing: these tests replay the shared corpora (real online hands, the WSOP hand, \
         PokerKit's cross-check hands) from ../shared/data beside the workspace",
        path.display()
    );
    path
}

fn load(path: &Path) -> Vec<PhhHand> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    parse_file(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// What replaying a file found: hands, settled hands, the failed hands' reports, and the
/// hands whose records contradict themselves.
struct Replayed {
    hands: usize,
    settled: usize,
    failed: Vec<(usize, ReplayReport)>,
    contradictory: Vec<usize>,
}

/// Replays every hand of a file.
fn replay_file(path: &Path) -> Replayed {
    let rules: Arc<dyn Rules> = Arc::new(PhhConventions);
    let hands = load(path);
    let mut found = Replayed {
        hands: hands.len(),
        settled: 0,
        failed: Vec::new(),
        contradictory: Vec::new(),
    };
    for (i, phh) in hands.iter().enumerate() {
        let (_, report) = replay(phh, rules.clone())
            .unwrap_or_else(|e| panic!("{} hand {}: {e}", path.display(), i + 1));
        assert!(
            report.completed,
            "{} hand {} did not complete",
            path.display(),
            i + 1
        );
        found.settled += report.settled as usize;
        let number = phh.number.unwrap_or(i + 1);
        if report.failed() {
            found.failed.push((number, report.clone()));
        }
        if report.contradiction.is_some() {
            found.contradictory.push(number);
        }
    }
    found
}

#[test]
fn real_online_hands_replay_cleanly() {
    // Absolute Poker's records: winnings after the site's rake, walks paid with the big
    // blind's whole blind, winners showing after an uncontested pot, a hand with only a big
    // blind (hand 255 of the first file; 11 and 263 of the second), and three records whose
    // winnings exceed everything their actions put in (dead money they do not record).
    for (file, hands, settled, contradictory) in [
        ("phh/ps_NLH_handhq_334-OBFUSCATED.phhs", 439, 417, vec![]),
        ("phh/ftp_NLH_handhq_406-OBFUSCATED.phhs", 61, 57, vec![]),
        ("phh/abs_NLH_handhq_1-OBFUSCATED.phhs", 314, 290, vec![266]),
        (
            "phh/abs_NLH_handhq_2-OBFUSCATED.phhs",
            316,
            293,
            vec![76, 172],
        ),
    ] {
        let path = shared(file);
        let found = replay_file(&path);
        assert_eq!(found.failed.len(), 0, "{file}: {:#?}", found.failed);
        // Unsettled hands are showdowns whose cards the site never revealed: legality only.
        assert_eq!(
            (found.hands, found.settled),
            (hands, settled),
            "{file}: hands, settled"
        );
        assert_eq!(
            found.contradictory, contradictory,
            "{file}: contradictory records"
        );
    }
}

#[test]
fn the_wsop_big_blind_ante_hand_finishes_as_recorded() {
    let path = shared("phh/wsop-2019-42-3-00-01-07.phh");
    let hands = load(&path);
    let (hand, report) = replay(&hands[0], Arc::new(PhhConventions)).expect("sets up");
    assert!(!report.failed(), "{report:#?}");
    assert_eq!(
        hand.stacks(),
        vec![
            18_100_000, 5_625_000, 6_675_000, 5_750_000, 9_150_000, 6_525_000, 12_950_000,
            7_300_000
        ]
    );
    // The record leaves out the button's fold to the raise; the replay says so.
    let folds: Vec<usize> = report.inferred_folds.iter().map(|f| f.player).collect();
    assert_eq!(folds, vec![7]);
}

#[test]
fn cross_check_corpora_match_pokerkit_finishing_stacks() {
    for (file, hands) in [
        ("crosscheck/random-nlhe-2k.phhs", 2000),
        ("crosscheck/random-plo-500.phhs", 500),
    ] {
        let path = shared(file);
        let found = replay_file(&path);
        assert_eq!(found.failed.len(), 0, "{file}: {:#?}", found.failed);
        assert!(found.contradictory.is_empty(), "{file}");
        assert_eq!((found.hands, found.settled), (hands, hands), "{file}");
    }
}
