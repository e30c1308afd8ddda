//! The replayer against `replay`: the same hands, rulings and reports.

use super::*;
use crate::rules::DefaultRules;
use crate::sim::random_nlhe_records;
use rand::SeedableRng;

/// Every hand a [`Replayer`] replays, reusing one hand's buffers, must be exactly the
/// hand [`replay`] builds afresh: same events, rulings (with citations), stacks, pots
/// and report — including after hands that failed or could not be set up.
#[test]
fn a_replayer_reusing_its_hand_gives_exactly_what_replay_gives() {
    let rules: Arc<dyn Rules> = Arc::new(DefaultRules);
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
    let mut records = random_nlhe_records(&mut rng, 400, rules.clone());
    // Records that fail part-way or cannot start, between ordinary ones.
    let mut illegal = records[3].clone();
    if let Some(line) = illegal
        .actions
        .iter_mut()
        .find(|l| matches!(l.action, PhhAction::CheckCall { .. }))
    {
        let player = match line.action {
            PhhAction::CheckCall { player } => player,
            _ => 0,
        };
        line.action = PhhAction::CompleteBetRaiseTo { player, amount: 1 };
    }
    let mut unknown_variant = records[5].clone();
    unknown_variant.variant = "F7S".into();
    let mut no_min_bet = records[7].clone();
    no_min_bet.min_bet = None;
    let mut truncated = records[9].clone();
    truncated.actions.truncate(truncated.actions.len() / 2);
    // Records the replayer sets up from directly, or refuses before touching its hand:
    // each must give what `replay` gives (the same error, or the same hand).
    let tweak = |i: usize, f: &dyn Fn(&mut PhhHand)| {
        let mut record: PhhHand = records[i].clone();
        f(&mut record);
        record
    };
    let negative_ante = tweak(11, &|r| r.antes[0] = -1);
    let empty_stack = tweak(12, &|r| r.starting_stacks[1] = Stack::Chips(0));
    let short_antes = tweak(13, &|r| {
        r.antes.pop();
    });
    let long_blinds = tweak(14, &|r| r.blinds_or_straddles.push(0));
    let one_player = tweak(15, &|r| {
        r.starting_stacks.truncate(1);
        r.antes.truncate(1);
        r.blinds_or_straddles.truncate(1);
    });
    let zero_min_bet = tweak(16, &|r| r.min_bet = Some(0));
    let long_variant = tweak(17, &|r| r.variant = "NTX".into());
    // Antes that leave a player short of the blind, and live posts, heads-up and not.
    let short_of_blind = tweak(18, &|r| {
        r.antes.iter_mut().for_each(|a| *a = 2);
        r.starting_stacks[0] = Stack::Chips(3);
        r.starting_stacks[1] = Stack::Unknown;
        if let Some(b) = r.blinds_or_straddles.last_mut() {
            *b = -4;
        }
    });
    let heads_up = tweak(19, &|r| {
        r.starting_stacks.truncate(2);
        r.antes = vec![1, 3];
        r.blinds_or_straddles = vec![1, -2];
        r.actions.clear();
    });
    for (at, record) in [
        (10, illegal),
        (20, unknown_variant),
        (30, no_min_bet),
        (40, truncated),
        (50, negative_ante),
        (51, empty_stack),
        (52, short_antes),
        (53, long_blinds),
        (54, one_player),
        (55, zero_min_bet),
        (56, long_variant),
        (57, short_of_blind),
        (58, heads_up),
    ] {
        records.insert(at, record);
    }
    let mut replayer = Replayer::new(rules.clone());
    let mut compared = 0;
    for record in &records {
        let fresh = replay(record, rules.clone());
        let reused = replayer.replay(record).cloned();
        match (fresh, reused) {
            (Ok((hand, report)), Ok(again)) => {
                let reused_hand = replayer.hand().expect("a hand was replayed");
                assert_eq!(format!("{report:?}"), format!("{again:?}"));
                assert_eq!(hand.events(), reused_hand.events());
                assert_eq!(hand.rulings(), reused_hand.rulings());
                assert_eq!(hand.stacks(), reused_hand.stacks());
                assert_eq!(hand.pots(), reused_hand.pots());
                assert_eq!(hand.board(), reused_hand.board());
                assert_eq!(hand.phase(), reused_hand.phase());
                assert_eq!(hand.outcome(), reused_hand.outcome());
                assert_eq!(hand.config(), reused_hand.config());
                assert_eq!(
                    hand.small_blind_position(),
                    reused_hand.small_blind_position()
                );
                compared += 1;
            }
            (Err(a), Err(b)) => assert_eq!(a, b),
            (a, b) => panic!("replay gave {a:?}, the replayer {b:?}"),
        }
    }
    assert!(compared >= 402, "{compared} hands compared");
}

/// [`Replayer::replay_all`], which fetches records ahead, visits every record once, in
/// order, with what [`replay`] gives for it.
#[test]
fn replay_all_gives_what_replay_gives() {
    let rules: Arc<dyn Rules> = Arc::new(DefaultRules);
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
    let mut records = random_nlhe_records(&mut rng, 200, rules.clone());
    // Records with empty lists and no finishing stacks, and one that cannot start.
    records.insert(5, PhhHand::default());
    let mut bare = records[8].clone();
    bare.finishing_stacks = None;
    bare.actions.clear();
    records.insert(9, bare);
    let mut visited = Vec::new();
    Replayer::new(rules.clone()).replay_all(&records, |index, result| {
        let fresh = replay(&records[index], rules.clone());
        match (fresh, result) {
            (Ok((hand, report)), Ok((again, again_report))) => {
                assert_eq!(format!("{report:?}"), format!("{again_report:?}"));
                assert_eq!(hand.events(), again.events());
                assert_eq!(hand.rulings(), again.rulings());
                assert_eq!(hand.stacks(), again.stacks());
            }
            (Err(a), Err(b)) => assert_eq!(a, b),
            (a, b) => panic!("record {index}: replay gave {a:?}, replay_all {b:?}"),
        }
        visited.push(index);
    });
    assert_eq!(visited, (0..records.len()).collect::<Vec<_>>());
}
