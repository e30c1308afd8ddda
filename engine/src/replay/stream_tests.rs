//! Replaying a chunk as it is read against reading it, then replaying each hand.

use super::*;
use crate::phh::{read_chunk, write_phh, write_phhs};
use crate::sim::random_nlhe_records;
use rand::SeedableRng;

/// Hands whose actions cannot all be played as they are read, among ordinary ones: a scale
/// found after the actions, a bet with decimals, a commentary, a refused action, a show
/// after the hand, an unknown stack, a negative ante (a hand that cannot be set up), the
/// set-up after the actions.
const AWKWARD: &str = "\
[1001]
variant = 'NT'
antes = [0, 0]
blinds_or_straddles = [1, 2]
min_bet = 2
starting_stacks = [100, 100]
actions = ['d dh p1 ????', 'd dh p2 ????', 'p2 f']
finishing_stacks = [100.50, 99.50]

[1002]
variant = 'NT'
antes = [0, 0]
blinds_or_straddles = [1, 2]
min_bet = 2
starting_stacks = [100, 100]
actions = ['d dh p1 ????', 'd dh p2 ????', 'p2 cbr 4.50', 'p1 f']
finishing_stacks = [98, 102]

[1003]
variant = 'NT'
antes = [0, 0, 0]
blinds_or_straddles = [1, 2, 0]
min_bet = 2
starting_stacks = [100, 100, 100]
actions = ['d dh p1 ????', 'd dh p2 ????', 'd dh p3 ????', 'p3 cbr 6 # a raise', 'p1 f', 'p2 f']
winnings = [0, 0, 9]

[1004]
variant = 'NT'
antes = [0, 0, 0]
blinds_or_straddles = [1, 2, 0]
min_bet = 2
starting_stacks = [100, 100, 100]
actions = ['d dh p1 ????', 'd dh p2 ????', 'd dh p3 ????', 'p3 cbr 1', 'p1 f', 'p2 f']

[1005]
variant = 'NT'
antes = [0, 0, 0]
blinds_or_straddles = [1, 2, 0]
min_bet = 2
starting_stacks = [100, 100, 100]
actions = ['d dh p1 AcAd', 'd dh p2 ????', 'd dh p3 ????', 'p3 cbr 6', 'p1 f', 'p2 f', 'p3 sm KsKh']
winnings = [0, 0, 9]

[1006]
variant = 'NT'
antes = [0, 0]
blinds_or_straddles = [1, 2]
min_bet = 2
starting_stacks = [inf, 100]
actions = ['d dh p1 ????', 'd dh p2 ????', 'p2 f']

[1007]
variant = 'NT'
antes = [-1, 0]
blinds_or_straddles = [1, 2]
min_bet = 2
starting_stacks = [100, 100]
actions = ['d dh p1 ????', 'd dh p2 ????', 'p2 f']

[1008]
variant = 'NT'
antes = [0, 0]
starting_stacks = [100, 100]
actions = ['d dh p1 ????', 'd dh p2 ????', 'p2 f']
blinds_or_straddles = [1, 2]
min_bet = 2
finishing_stacks = [101, 99]
";

/// Every hand [`replay_chunk`] replays as it reads it must be exactly what reading the
/// chunk and then replaying the hand gives: the same report, rulings and stacks, in order;
/// and ordinary hands must be played as they are read (their `actions` left empty).
#[test]
fn replaying_a_chunk_as_it_is_read_gives_what_reading_then_replaying_gives() {
    let rules: Arc<dyn Rules> = Arc::new(crate::rules::PhhConventions);
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(31);
    let records = random_nlhe_records(&mut rng, 120, rules.clone());
    let (head, tail) = records.split_at(60);
    let text = format!(
        "{}\n{AWKWARD}\n{}",
        write_phhs(head),
        renumbered(tail, 2000)
    );

    let mut expected = Vec::new();
    let mut replayer = Replayer::new(rules.clone()).with_event_log(EventLog::Settlement);
    let read = read_chunk(&text, 1, true, &mut PhhHand::default(), |phh| {
        let report = replayer.replay(phh).map(|r| format!("{r:?}"));
        expected.push((phh.number, phh.actions.len(), report));
    });

    let mut got = Vec::new();
    let mut streamer = Replayer::new(rules).with_event_log(EventLog::Settlement);
    let mut hand = PhhHand::default();
    let again = replay_chunk(
        text.as_bytes(),
        (1, true),
        &mut hand,
        &mut streamer,
        |phh, report| {
            got.push((
                phh.number,
                phh.actions.len(),
                report.map(|r| format!("{r:?}")),
            ))
        },
    )
    .expect("UTF-8");
    assert_eq!(format!("{read:?}"), format!("{again:?}"));
    assert_eq!(got.len(), expected.len());
    assert_eq!(expected.len(), 128);
    let mut streamed = 0;
    for ((number, listed, report), (again_number, again_listed, again_report)) in
        expected.iter().zip(&got)
    {
        assert_eq!(number, again_number);
        assert_eq!(report, again_report, "hand {number:?}");
        streamed += usize::from(*again_listed == 0 && *listed > 0);
    }
    // Ordinary hands (but the first, which sets the replayer's hand up) are played as they
    // are read, and so are a refused action, a show after the hand and an unknown stack;
    // the other awkward hands are read whole, then replayed.
    assert!(streamed >= 120, "{streamed} hands streamed");
    let listed = |number: usize| got.iter().find(|g| g.0 == Some(number)).map(|g| g.1);
    for number in [1001, 1002, 1003, 1007, 1008] {
        assert!(
            listed(number) > Some(0),
            "hand {number} is replayed from its list"
        );
    }
    for number in [1004, 1005, 1006] {
        assert_eq!(
            listed(number),
            Some(0),
            "hand {number} is played as it is read"
        );
    }
    // The last hand's table is the same too.
    let (a, b) = (replayer.hand().unwrap(), streamer.hand().unwrap());
    assert_eq!(a.rulings(), b.rulings());
    assert_eq!(a.stacks(), b.stacks());
}

/// `records` written as a `.phhs` text whose hands are numbered from `first`.
fn renumbered(records: &[PhhHand], first: usize) -> String {
    let hands: Vec<String> = records
        .iter()
        .enumerate()
        .map(|(i, r)| format!("[{}]\n{}", first + i, write_phh(r)))
        .collect();
    hands.join("\n")
}
