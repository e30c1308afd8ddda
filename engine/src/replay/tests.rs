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

/// Replays a one-hand record under the PHH conventions.
fn replayed(text: &str) -> (Hand, ReplayReport) {
    let phh = crate::phh::parse_phh(text).expect("a valid record");
    replay(&phh, Arc::new(crate::rules::PhhConventions)).expect("a hand that sets up")
}

/// Three-handed at $1/$2: the button raises to 6 and both blinds fold.
fn steal(results: &str) -> String {
    format!(
        "variant = 'NT'\nantes = [0, 0, 0]\nblinds_or_straddles = [1, 2, 0]\nmin_bet = 2\n\
         starting_stacks = [100, 100, 100]\n\
         actions = ['d dh p1 ????', 'd dh p2 ????', 'd dh p3 ????', 'p3 cbr 6', 'p1 f', 'p2 f']\n{results}"
    )
}

/// A walk: the big blind's whole blind counted as won (as some sites write it) reads as the
/// uncalled bet counted as won; the engine's own figure (the pot alone) reads plainly.
#[test]
fn a_walks_winnings_may_count_the_uncalled_blind() {
    let walk = |w: &str| {
        format!(
            "variant = 'NT'\nantes = [0, 0]\nblinds_or_straddles = [1, 2]\nmin_bet = 2\n\
             starting_stacks = [100, 100]\nactions = ['d dh p1 ????', 'd dh p2 ????', 'p2 f']\n\
             winnings = [{w}, 0]\n"
        )
    };
    let (_, report) = replayed(&walk("3"));
    assert!(
        !report.failed() && report.contradiction.is_none(),
        "{report:?}"
    );
    assert!(report.readings.winnings_include_uncalled);
    let (_, report) = replayed(&walk("2"));
    assert!(!report.failed(), "{report:?}");
    assert!(!report.readings.winnings_include_uncalled);
}

/// Winnings after a site's rake, within a tenth of the pot plus half a big blind, are
/// accepted; a bigger difference is a mismatch.
#[test]
fn winnings_after_a_rake_are_accepted_within_the_bound() {
    let text = |w: &str| {
        format!(
            "variant = 'NT'\nantes = [0, 0, 0]\nblinds_or_straddles = [1, 2, 0]\nmin_bet = 2\n\
             starting_stacks = [100, 100, 100]\n\
             actions = ['d dh p1 ????', 'd dh p2 ????', 'd dh p3 ????', 'p3 cbr 4', 'p1 f', 'p2 cc',\
             'd db 2c7d9h', 'p2 cc', 'p3 cc', 'd db Kd', 'p2 cc', 'p3 cc', 'd db 3s', 'p2 cbr 5', 'p3 f']\n\
             winnings = [0, {w}, 0]\n"
        )
    };
    let (_, report) = replayed(&text("8.25"));
    assert!(!report.failed(), "{report:?}");
    assert_eq!(report.readings.winnings_rake, 75, "75 cents of a $9 pot");
    let (_, report) = replayed(&text("3"));
    assert!(report.winnings_mismatch.is_some(), "{report:?}");
}

/// Winnings above everything the actions put in the middle: the record contradicts itself
/// (dead money it does not record), which is not a disagreement with the engine.
#[test]
fn winnings_above_the_pot_are_a_contradiction_not_a_mismatch() {
    let (_, report) = replayed(&steal("winnings = [0, 0, 20]\n"));
    assert!(!report.failed(), "{report:?}");
    assert_eq!(
        report.contradiction.as_deref(),
        Some("the winnings pay 20 from a pot of 5 (with 4 of uncalled bets returned): more than the actions put in, and no dead money is recorded")
    );
    let (_, report) = replayed(&steal("winnings = [0, 3, 0]\n"));
    assert_eq!(
        report.contradiction.as_deref(),
        Some("the winnings pay player 2, who folded")
    );
}

/// Finishing stacks after a rake are accepted within the bound; stacks that never moved
/// although the actions move chips contradict the record's own actions.
#[test]
fn finishing_stacks_after_a_rake_and_unchanged_stacks() {
    let (_, report) = replayed(&steal("finishing_stacks = [99, 98, 102]\n"));
    assert!(
        !report.failed() && report.contradiction.is_none(),
        "{report:?}"
    );
    assert_eq!(report.readings.stacks_rake, 1);
    let (_, report) = replayed(&steal("finishing_stacks = [99, 98, 90]\n"));
    assert!(report.stack_mismatch.is_some(), "{report:?}");
    let (_, report) = replayed(&steal("finishing_stacks = [100, 100, 100]\n"));
    assert!(!report.failed(), "{report:?}");
    assert_eq!(
        report.contradiction.as_deref(),
        Some("the finishing stacks give player 1, who folded, 100 where he kept 99")
    );
    // Both players all in, both listed at their starting stacks, though one lost.
    let all_in = "variant = 'NT'\nantes = [0, 0]\nblinds_or_straddles = [1, 2]\nmin_bet = 2\n\
                  starting_stacks = [50, 80]\n\
                  actions = ['d dh p1 AsAh', 'd dh p2 7c2d', 'p2 cbr 80', 'p1 cc', 'p2 sm 7c2d', 'p1 sm AsAh',\
                  'd db KsQs3d', 'd db 9h', 'd db 4c']\nfinishing_stacks = [50, 80]\n";
    let (_, report) = replayed(all_in);
    assert!(!report.failed(), "{report:?}");
    assert_eq!(
        report.contradiction.as_deref(),
        Some("the finishing stacks are the starting stacks (player 1, player 2 all in), though the actions move chips from one player to another")
    );
}

/// A hand with only a big blind, written in the first slot, and a live post written as a
/// negative blind replay: the first to act is the player after the blind, and the post is
/// live money that does not move the order.
#[test]
fn a_big_blind_alone_and_a_negative_post_replay() {
    let (hand, report) = replayed(
        "variant = 'NT'\nantes = [0, 0, 0, 0]\nblinds_or_straddles = [10, 0, 0, 0]\nmin_bet = 10\n\
         starting_stacks = [1000, 1000, 1000, 1000]\n\
         actions = ['d dh p1 ????', 'd dh p2 ????', 'd dh p3 ????', 'd dh p4 ????', 'p2 cbr 30', 'p3 f', 'p4 f', 'p1 f']\n\
         finishing_stacks = [990, 1010, 1000, 1000]\n",
    );
    assert!(!report.failed(), "{report:?}");
    assert!(hand.is_complete());
    let (hand, report) = replayed(
        "variant = 'NT'\nantes = [0, 0, 0, 0]\nblinds_or_straddles = [1, 2, 0, -2]\nmin_bet = 2\n\
         starting_stacks = [100, 100, 100, 100]\n\
         actions = ['d dh p1 ????', 'd dh p2 ????', 'd dh p3 ????', 'd dh p4 ????', 'p3 f', 'p4 cc', 'p1 f', 'p2 cc',\
         'd db 2c7d9h', 'p2 cc', 'p4 cbr 4', 'p2 f']\nfinishing_stacks = [99, 98, 100, 103]\n",
    );
    assert!(!report.failed(), "{report:?}");
    assert_eq!(hand.stacks(), vec![99, 98, 100, 103]);
}

/// The winner of an uncontested pot showing his cards (the last action of the record) is
/// accepted: noted in the report and ruled on under `showdown.uncontested_pot`.
#[test]
fn a_show_after_an_uncontested_pot_is_noted_and_ruled_on() {
    let (hand, report) = replayed(&steal("").replace("'p2 f']", "'p2 f', 'p3 sm KcQc']"));
    assert!(!report.failed(), "{report:?}");
    assert_eq!(report.shown_after_hand.len(), 1);
    assert!(report.shown_after_hand[0].uncontested);
    let ruling = hand.rulings().last().expect("a ruling");
    assert_eq!(ruling.point, "showdown.uncontested_pot");
    assert_eq!(ruling.citation.to_string(), "not regulated by this text");
}

/// A replayer keeping only the events that settle a hand ([`EventLog::Settlement`], what
/// `floor replay` asks for) gives the same reports, rulings (with their citations), stacks
/// and pots as one keeping every event, and of the events exactly those that settle the
/// hand: its checks of winnings and finishing stacks read nothing else.
#[test]
fn a_replayer_keeping_the_settlement_only_gives_the_same_reports_and_rulings() {
    let rules: Arc<dyn Rules> = Arc::new(crate::rules::PhhConventions);
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(23);
    let mut records = random_nlhe_records(&mut rng, 300, rules.clone());
    // Winnings that read the uncalled bet and the rake, antes and a live post, a record
    // refused part-way and one that cannot start, a show after the hand.
    let texts = [
        "variant = 'NT'\nantes = [0, 0]\nblinds_or_straddles = [1, 2]\nmin_bet = 2\n\
         starting_stacks = [100, 100]\nactions = ['d dh p1 ????', 'd dh p2 ????', 'p2 f']\n\
         winnings = [3, 0]\n",
        "variant = 'NT'\nantes = [1, 1, 1]\nblinds_or_straddles = [1, 2, -2]\nmin_bet = 2\n\
         starting_stacks = [100, 100, 100]\n\
         actions = ['d dh p1 ????', 'd dh p2 ????', 'd dh p3 ????', 'p3 cbr 4', 'p1 f', 'p2 cc',\
         'd db 2c7d9h', 'p2 cc', 'p3 cc', 'd db Kd', 'p2 cc', 'p3 cc', 'd db 3s', 'p2 cbr 5', 'p3 f']\n\
         winnings = [0, 11, 0]\n",
        "variant = 'NT'\nantes = [0, 0, 0]\nblinds_or_straddles = [1, 2, 0]\nmin_bet = 2\n\
         starting_stacks = [100, 100, 100]\n\
         actions = ['d dh p1 AcAd', 'd dh p2 ????', 'd dh p3 ????', 'p3 cbr 6', 'p1 f', 'p2 f',\
         'p3 sm KsKh']\nwinnings = [0, 0, 9]\n",
        "variant = 'NT'\nantes = [0, 0, 0]\nblinds_or_straddles = [1, 2, 0]\nmin_bet = 2\n\
         starting_stacks = [100, 100, 100]\n\
         actions = ['d dh p1 ????', 'd dh p2 ????', 'd dh p3 ????', 'p3 cbr 3']\n",
    ];
    for (at, text) in texts.iter().enumerate() {
        let record = crate::phh::parse_phh(text).expect("a valid record");
        records.insert(1 + 7 * at, record);
    }
    let mut no_min_bet = records[40].clone();
    no_min_bet.min_bet = None;
    records.insert(41, no_min_bet);

    let mut every = Replayer::new(rules.clone());
    let mut settlement = Replayer::new(rules.clone()).with_event_log(EventLog::Settlement);
    let (mut compared, mut ruled, mut settling) = (0, 0, 0);
    for (index, record) in records.iter().enumerate() {
        let full = every.replay(record).cloned();
        let lean = settlement.replay(record).cloned();
        match (full, lean) {
            (Ok(full), Ok(lean)) => {
                assert_eq!(format!("{full:?}"), format!("{lean:?}"), "record {index}");
                let (a, b) = (every.hand().unwrap(), settlement.hand().unwrap());
                let settled: Vec<_> = a.events().iter().filter(|e| e.settles()).collect();
                assert_eq!(settled, b.events().iter().collect::<Vec<_>>(), "{index}");
                assert_eq!(a.rulings(), b.rulings(), "record {index}");
                assert_eq!(a.stacks(), b.stacks(), "record {index}");
                assert_eq!(a.pots(), b.pots(), "record {index}");
                assert_eq!(a.outcome(), b.outcome(), "record {index}");
                assert_eq!(b.event_log(), EventLog::Settlement);
                compared += 1;
                ruled += usize::from(!b.rulings().is_empty());
                settling += usize::from(!b.events().is_empty());
            }
            (Err(a), Err(b)) => assert_eq!(a, b, "record {index}"),
            (a, b) => panic!("record {index}: every event gave {a:?}, the settlement {b:?}"),
        }
    }
    assert!(compared >= 303, "{compared} hands compared");
    assert!(
        ruled > 100 && settling > 250,
        "{ruled} ruled, {settling} settled"
    );
}
