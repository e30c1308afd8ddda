//! The in-place reading of an action's notation ([`quoted_action`]) against the reading of
//! the same notation as a string ([`quick_action`]): what the first reads, the second reads
//! the same, up to the closing quote and no further.

use super::actions::{board_to_quote, cards_to_quote, quick_action, quoted_action};
use super::numbers::Small;
use crate::cards::Card;
use crate::phh::notation::Action;
use proptest::prelude::*;

/// Reads `notation` as it lies in an `actions` array (quoted, another action after it).
fn in_place(notation: &str, players: usize) -> Option<(Action, Option<Small>)> {
    let text = format!("['{notation}', 'p2 f']");
    let (action, amount, end) = quoted_action(text.as_bytes(), 2, players)?;
    assert_eq!(
        end,
        2 + notation.len(),
        "{notation:?} is read up to its closing quote"
    );
    Some((action, amount))
}

/// Every notation the writers use is read in place, as the string reading reads it.
#[test]
fn the_usual_notations_are_read_in_place() {
    for notation in [
        "d dh p1 AhKd",
        "d dh p3 ????",
        "d dh p2 AhKdQcJs",
        "d db 2c7d9h",
        "d db Ts",
        "p1 f",
        "p6 cc",
        "p10 cc",
        "p2 cbr 18",
        "p2 cbr 18.50",
        "p4 sm",
        "p4 sm AhKd",
        "p4 sm ??Kd",
    ] {
        let read = in_place(notation, 10);
        assert!(read.is_some(), "{notation:?} is not read in place");
        assert_eq!(read, quick_action(notation.as_bytes(), 10), "{notation:?}");
    }
}

/// Notations built from the pieces of the usual ones, and of their near misses.
fn notation() -> impl Strategy<Value = String> {
    let piece = prop::sample::select(vec![
        "d dh ",
        "d db ",
        "d ",
        "p",
        "p1",
        "p2 ",
        "p10",
        "p0",
        "p01",
        "p300",
        "1",
        "9",
        " ",
        "f",
        "cc",
        "ccc",
        "sm",
        "cbr",
        " f",
        " cc",
        " sm",
        " sm ",
        " cbr ",
        "  f",
        "AhKd",
        "??",
        "????",
        "Ah",
        "AhKdQc",
        "AhKdQcJs2d",
        "AhKdQcJs2d3c",
        "Td9s8h7c",
        "ahkD",
        "qC",
        "Xx",
        "A",
        "12",
        "12.50",
        "0.5",
        ".5",
        "5.",
        "1e3",
        "-3",
        "0012",
        "999999999999999999",
        "1234567890123456789",
        "#",
        "-",
    ]);
    prop::collection::vec(piece, 1..6).prop_map(|pieces| pieces.concat())
}

proptest! {
    #[test]
    fn what_is_read_in_place_is_what_the_string_reading_reads(
        notation in notation(),
        players in 2usize..12,
    ) {
        if let Some(read) = in_place(&notation, players) {
            prop_assert_eq!(Some(read), quick_action(notation.as_bytes(), players));
        }
    }
}

/// Lists built from the pieces of integer lists and of their near misses.
fn list_text() -> impl Strategy<Value = String> {
    let piece = prop::sample::select(vec![
        "[",
        "]",
        "1",
        "23",
        "0",
        "007",
        ", ",
        ",",
        " ",
        ".",
        "-",
        "+",
        "inf",
        "5.5",
        "e3",
        "999999999999999999",
        "9",
        "123456",
        "1234567",
        "\n",
    ]);
    prop::collection::vec(piece, 1..10).prop_map(|pieces| pieces.concat())
}

/// The amounts `reader` read, as `(mantissa, decimals)`.
fn amounts(items: &[super::Raw]) -> Vec<Option<(i64, u32)>> {
    items
        .iter()
        .map(|raw| match raw {
            super::Raw::Amount(s) => Some((s.mantissa, s.frac)),
            super::Raw::Inf => None,
        })
        .collect()
}

proptest! {
    #[test]
    fn an_integer_list_is_read_as_the_general_list_reading_reads_it(text in list_text()) {
        let mut tight = super::FastReader::new(text.as_bytes(), 1);
        let mut read = vec![-1];
        if let Some(count) = tight.integers(&mut read, |chips| chips) {
            let mut general = super::FastReader::new(text.as_bytes(), 1);
            let mut expected = Vec::new();
            let general_count = general.array(|r| {
                expected.push(super::Raw::Amount(r.number()?.0));
                Some(())
            });
            prop_assert_eq!(general_count, Some(count));
            prop_assert_eq!(count, read.len());
            let read: Vec<_> = read.iter().map(|&m| Some((m, 0))).collect();
            prop_assert_eq!(read, amounts(&expected));
            prop_assert_eq!(tight.at, general.at);
        } else {
            prop_assert!(read.is_empty());
            prop_assert_eq!(tight.at, 0);
        }
    }
}

/// The list layout every writer uses is read by the tight loop.
#[test]
fn the_usual_integer_lists_are_read_by_the_tight_loop() {
    for (text, expected) in [
        ("[0, 0]", vec![0, 0]),
        ("[1, 2, 0, 0, 0, 0]\n", vec![1, 2, 0, 0, 0, 0]),
        ("[298, 599]", vec![298, 599]),
    ] {
        let mut reader = super::FastReader::new(text.as_bytes(), 1);
        let mut read = Vec::new();
        assert_eq!(
            reader.integers(&mut read, |chips| chips),
            Some(expected.len()),
            "{text:?}"
        );
        assert_eq!(read, expected);
    }
}

/// Cards up to a closing quote as the plain reading has them: two letters a card (`??` an
/// unknown one, each parsed by [`Card`]'s parser), at most five, at least one.
fn cards_plainly(text: &[u8]) -> Option<(Vec<Option<Card>>, usize)> {
    let end = text.iter().position(|&b| b == b'\'')?;
    let body = &text[..end];
    if body.is_empty() || !body.len().is_multiple_of(2) || body.len() > 10 {
        return None;
    }
    let cards = body
        .chunks(2)
        .map(|pair| match pair {
            b"??" => Some(None),
            _ => std::str::from_utf8(pair)
                .ok()?
                .parse::<Card>()
                .ok()
                .map(Some),
        })
        .collect::<Option<Vec<_>>>()?;
    Some((cards, end))
}

/// Texts of cards and near misses, each ending with a quote (and sometimes more after it).
fn cards_text() -> impl Strategy<Value = String> {
    let piece = prop::sample::select(vec![
        "Ah", "Kd", "2c", "Ts", "9H", "qc", "??", "Xx", "A", "'", "Ahh", "1c", "ñ",
    ]);
    (prop::collection::vec(piece, 0..7), any::<bool>()).prop_map(|(pieces, more)| {
        let tail = if more { "', 'p1 f'" } else { "'" };
        pieces.concat() + tail
    })
}

proptest! {
    /// The card readers' shortcuts (two hole cards, a flop, one board card) read what
    /// the plain reading reads, and give up where it does.
    #[test]
    fn cards_are_read_as_the_plain_reading_reads_them(text in cards_text()) {
        let plain = cards_plainly(text.as_bytes());
        let read = cards_to_quote(text.as_bytes()).map(|(c, n)| (c.to_vec(), n));
        prop_assert_eq!(&read, &plain);
        let board = board_to_quote(text.as_bytes()).map(|(c, n)| (c.to_vec(), n));
        let known = plain.and_then(|(cards, n)| {
            cards.into_iter().collect::<Option<Vec<Card>>>().map(|c| (c, n))
        });
        prop_assert_eq!(board, known);
    }
}

/// A deal of two hole cards, a flop, a turn, written in either case, read by the shortcuts.
#[test]
fn the_usual_deals_are_read_by_the_shortcuts() {
    let card = |t: &str| t.parse::<Card>().ok();
    let read = cards_to_quote(b"AhkD', ").map(|(c, n)| (c.to_vec(), n));
    assert_eq!(read, Some((vec![card("Ah"), card("Kd")], 4)));
    let flop = board_to_quote(b"2c7d9h'").map(|(c, n)| (c.to_vec(), n));
    assert_eq!(
        flop,
        Some((["2c", "7d", "9h"].map(|t| card(t).unwrap()).to_vec(), 6))
    );
    let turn = board_to_quote(b"Ts'").map(|(c, n)| (c.to_vec(), n));
    assert_eq!(turn, Some((vec![card("Ts").unwrap()], 2)));
    assert_eq!(board_to_quote(b"??'").map(|(c, _)| c.len()), None);
}

proptest! {
    /// The digits read a word at a time are the digits a loop reads, whatever follows
    /// them and wherever the text ends.
    #[test]
    fn digits_are_read_as_a_loop_reads_them(text in "[0-9]{0,20}[0-9 ,\\]'.a\u{e9}]{0,9}", at in 0usize..3) {
        let bytes = text.as_bytes();
        let at = at.min(bytes.len());
        let (mut value, mut len) = (0i64, 0);
        while let Some(&b @ b'0'..=b'9') = bytes.get(at + len) {
            value = value.wrapping_mul(10).wrapping_add(i64::from(b - b'0'));
            len += 1;
        }
        let (read, read_len) = super::numbers::digits(bytes, at);
        prop_assert_eq!(read_len, len);
        if len <= 18 {
            prop_assert_eq!(read, value);
        }
    }
}
