//! The fast reader and the chunked reading against the general reader: the same hands, and
//! for a file cut into chunks anywhere a cut may fall, the same outcome (hands or error).

use super::chunk::{next_cut, read_chunk, read_chunk_bytes, ChunkRead, FileError, FileReading};
use super::{parse_file, write_phhs, PhhError, PhhHand, Stack};
use crate::rules::DefaultRules;
use crate::sim::random_nlhe_records;
use proptest::prelude::*;
use rand::SeedableRng;
use std::sync::Arc;

/// A hand in every shape the shared corpora use: decimal amounts, unknown stacks, unknown
/// cards, posts, a show after the hand, and the fields real records carry.
const REAL: &str = "[1]
variant = 'NT'
ante_trimming_status = false
antes = [0.50, 0.50, 0.50]
blinds_or_straddles = [1, 2, -2]
min_bet = 2
starting_stacks = [231.80, inf, 321.95]
actions = ['d dh p1 ????', 'd dh p2 AhKd', 'd dh p3 ????', 'p3 cbr 6.25', 'p1 f', 'p2 f', 'p3 sm QsQd']
venue = 'Absolute Poker'
time = 00:41:14
day = 1
month = 7
year = 2009
hand = 3017387946
seats = [5, 1, 2]
table = 'LUCAS AVE'
players = ['AMqMLSbphDpif8xHwUsxOg', 'DXl+pwgHgmCQeDLkzlg3ww', 'x’y']
winnings = [0, 0, 8.75]
currency_symbol = '$'
time_zone_abbreviation = 'ET'

[2]
variant = 'FT'
antes = [0, 0]
blinds_or_straddles = [5, 10]
small_bet = 10
big_bet = 20
starting_stacks = [79, 40]
actions = ['d dh p1 3dQd', 'd dh p2 TcJd', 'p2 cbr 20', 'p1 cc', 'd db 2c8cAs', 'p1 cc', 'p2 cc', 'd db 7c', 'p1 cc', 'p2 cc', 'd db Kh', 'p1 cc', 'p2 cc', 'p2 sm TcJd', 'p1 sm 3dQd']
finishing_stacks = [59, 60]
";

/// Hands as the general reader gives them, less what the fast reader does not keep.
fn without_fields(hands: &[PhhHand]) -> Vec<PhhHand> {
    hands
        .iter()
        .map(|h| PhhHand {
            fields: Vec::new(),
            field_order: Vec::new(),
            ..h.clone()
        })
        .collect()
}

/// Reads `text` cut at `cuts` (byte offsets, ascending) as `floor replay` does: each chunk
/// on its own, judged in order; a chunk ending inside an array is joined to the next.
fn read_in_chunks(text: &str, cuts: &[usize]) -> Result<Vec<PhhHand>, PhhError> {
    let mut bounds: Vec<usize> = vec![0];
    bounds.extend(cuts.iter().copied().filter(|&c| c > 0 && c < text.len()));
    bounds.push(text.len());
    bounds.dedup();
    if bounds.len() < 2 {
        // An empty text is one (empty) chunk.
        bounds.push(0);
    }
    let mut file = FileReading::either();
    let mut hands = Vec::new();
    let mut reused = PhhHand::default();
    let mut i = 0;
    while i + 1 < bounds.len() {
        let mut end = i + 1;
        loop {
            let chunk = &text[bounds[i]..bounds[end]];
            let line = 1 + text[..bounds[i]].matches('\n').count();
            let mut got = Vec::new();
            let read = read_chunk(chunk, line, i == 0, &mut reused, |h| got.push(h.clone()));
            if read.ends_in_array() && end + 1 < bounds.len() {
                end += 1;
                continue;
            }
            file.add(&read);
            hands.extend(got);
            break;
        }
        i = end;
    }
    match file.outcome() {
        Ok(()) => Ok(without_fields(&hands)),
        Err(FileError::Phh(e)) => Err(e),
        Err(FileError::Duplicate { number, line }) => {
            let whole = parse_file(text).expect_err("a repeated hand");
            assert!(whole
                .message
                .contains(&format!("hand [{number}] appears twice")));
            assert_eq!(whole.line, line);
            Err(whole)
        }
    }
}

fn whole(text: &str) -> Result<Vec<PhhHand>, PhhError> {
    parse_file(text).map(|hands| without_fields(&hands))
}

/// Every hand of `text` as the fast reader reads it, failing the test where it gives up.
fn fast_hands(text: &str) -> Vec<PhhHand> {
    let mut reader = super::fast::FastReader::new(text.as_bytes(), 1);
    let mut hand = PhhHand::default();
    let mut fast = Vec::new();
    loop {
        match reader.next_hand(&mut hand) {
            super::fast::Step::Hand => fast.push(hand.clone()),
            super::fast::Step::Streamed => panic!("no sink takes the actions"),
            super::fast::Step::End => return fast,
            super::fast::Step::Bail => panic!("the fast reader gave up at hand {}", fast.len() + 1),
        }
    }
}

/// The hands' fields under the headers `[1]`, `[2]`, … of a `.phhs` file.
fn numbered(hands: &[&str]) -> String {
    hands
        .iter()
        .enumerate()
        .map(|(i, hand)| format!("[{}]\n{hand}\n", i + 1))
        .collect()
}

/// The fast reader takes every hand of the random corpus and of the real-shaped hands
/// without giving up, and reads them as the general reader does.
#[test]
fn fast_reader_reads_written_corpora_as_the_general_reader_does() {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
    let text = write_phhs(&random_nlhe_records(&mut rng, 300, Arc::new(DefaultRules)));
    let mut texts = vec![text, REAL.to_string()];
    // The shared corpora, written by other tools.
    let shared = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/data");
    for file in [
        "phh/abs_NLH_handhq_1-OBFUSCATED.phhs",
        "phh/abs_NLH_handhq_2-OBFUSCATED.phhs",
        "phh/ftp_NLH_handhq_406-OBFUSCATED.phhs",
        "phh/ps_NLH_handhq_334-OBFUSCATED.phhs",
        "crosscheck/random-nlhe-2k.phhs",
        "crosscheck/random-plo-500.phhs",
    ] {
        let path = shared.join(file);
        texts.push(std::fs::read_to_string(&path).unwrap_or_else(|e| {
            panic!("{} is missing ({e}): the shared corpora live in ../shared/data beside the workspace", path.display())
        }));
    }
    for text in texts.iter().map(String::as_str) {
        assert_eq!(Ok(fast_hands(text)), whole(text));
    }
}

/// The fields matched by their first letter with the usual ` = ` and those read byte by
/// byte (other spacing, keys sharing a first letter, a variant of other than two letters or
/// in double quotes) give the hands the general reader gives, without the fast reader
/// giving up.
#[test]
fn fast_reader_reads_keys_in_any_spacing_as_the_general_reader_does() {
    let hands = [
        "variant='NT'\nantes =[0, 0]\nblinds_or_straddles  =  [1, 2]\nmin_bet\t= 2\nstarting_stacks= [300, 200]\nactions = ['d dh p1 ????', 'd dh p2 ????', 'p2 f']\nfinishing_stacks = [299, 201]\n",
        "author = 'x'\nvariant = \"NT\"\nante_trimming_status = false\nantes = [0, 0]\nblinds_or_straddles = [1, 2]\nmin_bet = 2\nstarting_stacks = [300, 200]\nactions = ['d dh p1 ????', 'd dh p2 ????', 'p2 f']\nwinnings = [0, 3]\nseats = [1, 2]\n",
        "variant = 'FT'\nantes = [0, 0]\nblinds_or_straddles = [5, 10]\nsmall_bet = 10\nbig_bet = 20\nstarting_stacks = [79, 40]\nactions = ['d dh p1 3dQd', 'd dh p2 TcJd', 'p2 f']\n",
        "variant = 'NTX'\nantes = [0, 0]\nstarting_stacks = [79, 40]\nactions = ['d dh p1 3dQd', 'd dh p2 TcJd', 'p2 f']\n",
    ];
    let text = numbered(&hands);
    let fast = fast_hands(&text);
    assert_eq!(fast.len(), hands.len());
    assert_eq!(Ok(fast), whole(&text));
}

/// Per-player lists of plain integers are read straight into the hand's chips at scale 1;
/// an amount with decimals read after them (a bet, a list, a single amount) makes the
/// hand's scale larger, and they are rescaled to it, as the general reader reads them.
#[test]
fn fast_reader_rescales_integer_lists_to_the_scale_of_a_later_decimal() {
    let hands = [
        // A bet with decimals after every list but the last two.
        "variant = 'NT'\nantes = [0, 0]\nblinds_or_straddles = [1, 2]\nmin_bet = 2\nstarting_stacks = [300, 200]\nactions = ['d dh p1 ????', 'd dh p2 ????', 'p2 cbr 2.5', 'p1 f']\nfinishing_stacks = [299, 201]\nwinnings = [0, 3]\n",
        // A list with decimals after integer lists, then integer lists again.
        "variant = 'NT'\nantes = [0, 0]\nblinds_or_straddles = [1, 2]\nstarting_stacks = [300.25, 200]\nmin_bet = 2\nactions = ['d dh p1 ????', 'd dh p2 ????', 'p2 f']\nfinishing_stacks = [301.25, 199]\n",
        // A single amount with two decimals after the lists.
        "variant = 'NT'\nantes = [1, 1]\nblinds_or_straddles = [1, 2]\nstarting_stacks = [300, 200]\nactions = ['d dh p1 ????', 'd dh p2 ????', 'p2 f']\nfinishing_stacks = [302, 198]\nmin_bet = 0.05\n",
        // Back to a whole-chip hand: scale 1 again.
        "variant = 'NT'\nantes = [0, 0]\nblinds_or_straddles = [1, 2]\nmin_bet = 2\nstarting_stacks = [300, 200]\nactions = ['d dh p1 ????', 'd dh p2 ????', 'p2 f']\nfinishing_stacks = [301, 199]\n",
    ];
    let text = numbered(&hands);
    let fast = fast_hands(&text);
    assert_eq!(fast.len(), hands.len());
    assert_eq!(
        fast[0].starting_stacks,
        [Stack::Chips(3000), Stack::Chips(2000)]
    );
    assert_eq!(fast[0].winnings, Some(vec![0, 30]));
    assert_eq!(fast[2].antes, [100, 100]);
    assert_eq!(fast[3].finishing_stacks, Some(vec![301, 199]));
    assert_eq!(Ok(fast), whole(&text));
}

/// The cut finder cuts before headers only, past the minimum asked.
#[test]
fn cuts_fall_before_headers() {
    let cut = next_cut(REAL.as_bytes(), 10).expect("a second hand");
    assert!(REAL[cut..].starts_with("[2]\n"));
    assert_eq!(next_cut(REAL.as_bytes(), cut), None);
    assert_eq!(next_cut(b"[1]\nvariant = 'NT'\n", 0), None);
}

/// A nested array whose lines look like headers: the chunk cut there ends inside the
/// array and is read again joined to the next, as the whole file is read.
#[test]
fn a_cut_inside_a_multi_line_array_is_mended() {
    let text = format!(
        "{REAL}\n[3]\n{}extra = [\n[1]\n]\n",
        &REAL[REAL.find("variant = 'FT'").unwrap_or(0)..]
    );
    let cut = text.find("[1]\n]").expect("the nested array");
    assert_eq!(read_in_chunks(&text, &[cut]), whole(&text));
}

/// Mutations of a file: the fast reader never accepts what the general reader refuses, and
/// a file read in chunks (cut at any header) has the outcome of the whole file.
fn mutated() -> impl Strategy<Value = String> {
    let edits = prop::collection::vec((0..REAL.len(), 0usize..12), 1..4);
    edits.prop_map(|edits| {
        let mut text = REAL.as_bytes().to_vec();
        for (at, what) in edits {
            let at = at.min(text.len().saturating_sub(1));
            let insert: &[u8] = match what {
                0 => b"[",
                1 => b"]",
                2 => b"'",
                3 => b",",
                4 => b"\n",
                5 => b" ",
                6 => b"#",
                7 => b"9",
                8 => b".",
                9 => b"\n[1]\n",
                10 => b"inf",
                _ => b"",
            };
            if what == 11 {
                text.remove(at);
            } else {
                text.splice(at..at, insert.iter().copied());
            }
        }
        String::from_utf8_lossy(&text).into_owned()
    })
}

proptest! {
    #[test]
    fn chunked_reading_of_a_mutated_file_is_the_whole_reading(text in mutated(), seed in 0usize..1000) {
        let whole = whole(&text);
        // Every place a cut may fall (before a line starting with `[` and a digit), some
        // of them taken.
        let bytes = text.as_bytes();
        let cuts: Vec<usize> = (1..bytes.len())
            .filter(|&i| bytes[i - 1] == b'\n' && bytes[i] == b'[')
            .filter(|&i| bytes.get(i + 1).is_some_and(u8::is_ascii_digit))
            .enumerate()
            .filter(|(k, _)| (seed >> (k % 8)) & 1 == 1)
            .map(|(_, i)| i)
            .collect();
        let chunked = read_in_chunks(&text, &cuts);
        prop_assert_eq!(chunked, whole);
    }
}

/// Texts without a header (an empty file, a `.phh` file, fields only) are judged as a
/// whole reading judges them.
#[test]
fn texts_without_headers_are_read_as_the_general_reader_reads_them() {
    let single = "variant = 'NT'\nantes = [0, 0]\nblinds_or_straddles = [1, 2]\nmin_bet = 2\nstarting_stacks = [100, 100]\nactions = ['d dh p1 ????', 'd dh p2 ????', 'p2 f']\n";
    for text in [
        "",
        "\n\n",
        "# a comment\n",
        single,
        "variant = 'NT'\n",
        "\u{feff}[1]\nvariant = 'NT'\n",
    ] {
        assert_eq!(read_in_chunks(text, &[]), whole(text), "{text:?}");
    }
}

/// Bytes of the real-shaped hands with bytes that are not ASCII put anywhere: some valid
/// UTF-8 (`é`, `’`), some not (a lone continuation byte, a cut sequence, `0xff`).
fn with_foreign_bytes() -> impl Strategy<Value = Vec<u8>> {
    let edits = prop::collection::vec((0..REAL.len(), 0usize..6), 1..3);
    edits.prop_map(|edits| {
        let mut bytes = REAL.as_bytes().to_vec();
        for (at, what) in edits {
            let at = at.min(bytes.len());
            let insert: &[u8] = match what {
                0 => "é".as_bytes(),
                1 => "’".as_bytes(),
                2 => &[0x80],
                3 => &[0xc3],
                4 => &[0xe2, 0x80],
                _ => &[0xff],
            };
            bytes.splice(at..at, insert.iter().copied());
        }
        bytes
    })
}

/// What reading a chunk gave: its hands and findings.
fn findings(read: &ChunkRead, hands: Vec<PhhHand>) -> impl PartialEq + std::fmt::Debug {
    (
        hands,
        read.hands,
        read.headers.clone(),
        read.syntax_error.clone(),
        read.content_error.clone(),
        read.single_error.clone(),
    )
}

proptest! {
    /// Reading bytes (the fast reader checking only what it reads) refuses exactly the
    /// chunks that are not UTF-8, and reads the others as reading the checked text does.
    #[test]
    fn reading_bytes_refuses_exactly_what_is_not_utf8(bytes in with_foreign_bytes()) {
        let mut reused = PhhHand::default();
        let mut got = Vec::new();
        let read = read_chunk_bytes(&bytes, 1, true, &mut reused, |h| got.push(h.clone()));
        match std::str::from_utf8(&bytes) {
            Err(e) => prop_assert_eq!(read.err(), Some(e)),
            Ok(text) => {
                let read = read.map_err(|e| TestCaseError::fail(e.to_string()))?;
                let mut expected = Vec::new();
                let checked = read_chunk(text, 1, true, &mut reused, |h| expected.push(h.clone()));
                prop_assert_eq!(findings(&read, got), findings(&checked, expected));
            }
        }
    }
}

/// A name that is not ASCII is read by the fast reader; a byte that is not UTF-8 in a
/// string, a key or an action refuses the chunk.
#[test]
fn only_the_bytes_that_are_not_utf8_refuse_a_chunk() {
    let mut hand = PhhHand::default();
    let named = REAL.replace("'x’y'", "'José'");
    let read = read_chunk_bytes(named.as_bytes(), 1, true, &mut hand, |_| {});
    assert_eq!(read.map(|r| r.hands).ok(), Some(2));
    for (from, to) in [
        ("'x’y'", &b"'x\xffy'"[..]),
        ("venue", &b"ven\xc3ue"[..]),
        ("'p1 f'", &b"'p1 \xe2f'"[..]),
    ] {
        let at = REAL.find(from).unwrap_or(0);
        let mut bytes = REAL.as_bytes()[..at].to_vec();
        bytes.extend_from_slice(to);
        bytes.extend_from_slice(&REAL.as_bytes()[at + from.len()..]);
        let read = read_chunk_bytes(&bytes, 1, true, &mut hand, |_| {});
        assert!(read.is_err(), "{from:?} → {to:?} is refused");
    }
}

/// The first hand number given twice, and its line, as noting each number in turn finds it.
fn first_repeat(headers: &[(usize, usize)]) -> Option<(usize, usize)> {
    let mut seen = std::collections::HashSet::new();
    headers
        .iter()
        .copied()
        .find(|&(number, _)| !seen.insert(number))
}

proptest! {
    /// Hand numbers noted a run at a time find the repeated number, and its line, that
    /// noting them one by one finds, however the headers fall into chunks.
    #[test]
    fn hand_numbers_noted_by_runs_find_the_first_repeat(
        numbers in prop::collection::vec(1usize..24, 0..40),
        cuts in prop::collection::vec(0usize..40, 0..6),
    ) {
        let headers: Vec<(usize, usize)> =
            numbers.iter().enumerate().map(|(i, &n)| (n, 10 * i + 1)).collect();
        let mut cuts: Vec<usize> = cuts.into_iter().filter(|&c| c <= headers.len()).collect();
        cuts.push(0);
        cuts.push(headers.len());
        cuts.sort_unstable();
        let mut judge = FileReading::either();
        for pair in cuts.windows(2) {
            let chunk = ChunkRead {
                headers: headers[pair[0]..pair[1]].to_vec(),
                file_start: pair[0] == 0,
                ..ChunkRead::default()
            };
            judge.add(&chunk);
        }
        let expected = match first_repeat(&headers) {
            Some((number, line)) => Err(FileError::Duplicate { number, line }),
            None => Ok(()),
        };
        prop_assert_eq!(judge.outcome(), expected);
    }
}

/// Chunks of a file numbered in order, then a chunk that gives a number again after new
/// ones: the repeat is found with its line.
#[test]
fn a_number_given_again_after_runs_is_found_with_its_line() {
    let mut judge = FileReading::either();
    for start in [1usize, 4, 7] {
        let headers = (start..start + 3).map(|n| (n, n * 10)).collect();
        judge.add(&ChunkRead {
            headers,
            file_start: start == 1,
            ..ChunkRead::default()
        });
    }
    judge.add(&ChunkRead {
        headers: vec![(10, 100), (11, 110), (5, 120)],
        ..ChunkRead::default()
    });
    assert_eq!(
        judge.outcome(),
        Err(FileError::Duplicate {
            number: 5,
            line: 120
        })
    );
}
