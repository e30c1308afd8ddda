//! The `actions` array: the notations writers use, read in place up to their closing quote
//! (the verb matched on the bytes where they lie, the cards by table), anything else read
//! as a string and handed to the general notation parser.

use super::numbers::{plain_amount, Amount, Small};
use super::{FastReader, STACKS};
use crate::cards::Card;
use crate::phh::cards::{CardList, INLINE_CARDS};
use crate::phh::hand::PhhHand;
use crate::phh::notation::{self, Action, ActionLine};

impl FastReader<'_> {
    /// `actions`: each string's notation, straight into the hand's actions.
    pub(super) fn actions(&mut self, hand: &mut PhhHand) -> Option<()> {
        let players = self.lens[STACKS];
        let line = notation::source_line(self.line);
        let mut amounts = std::mem::take(&mut self.amounts);
        // Whether every entry is read in place (see `FastReader::plain_actions`).
        let mut plain = true;
        let read = self.array(|reader| {
            let index = hand.actions.len();
            // The usual notations, read where they lie, up to their closing quote.
            if reader.peek() == Some(b'\'') {
                if let Some((action, amount, end)) =
                    quoted_action(reader.bytes, reader.at + 1, players)
                {
                    if let Some(amount) = amount {
                        reader.fractions |= amount.frac != 0;
                        amounts.push((index, Amount::Small(amount)));
                    }
                    hand.actions.push(ActionLine {
                        action,
                        commentary: None,
                        line,
                    });
                    reader.at = end + 1;
                    return Some(());
                }
            }
            plain = false;
            let text = reader.string()?;
            let action = match quick_action(text.as_bytes(), players) {
                Some((action, amount)) => {
                    if let Some(amount) = amount {
                        reader.fractions |= amount.frac != 0;
                        amounts.push((index, Amount::Small(amount)));
                    }
                    ActionLine {
                        action,
                        commentary: None,
                        line,
                    }
                }
                None => {
                    let parsed = notation::parse(text, Some(players)).ok()?;
                    if parsed.shows_dealt.is_some() {
                        return None;
                    }
                    if let Some((amount, _)) = parsed.amount {
                        reader.fractions = true;
                        amounts.push((index, Amount::Decimal(amount)));
                    }
                    ActionLine {
                        action: parsed.action,
                        commentary: parsed.commentary.map(String::into_boxed_str),
                        line,
                    }
                }
            };
            hand.actions.push(action);
            Some(())
        });
        self.amounts = amounts;
        if plain {
            self.plain_actions = Some((hand.actions.as_ptr(), hand.actions.len()));
        }
        read.map(|_| ())
    }
}

/// The common notations, written with single spaces and no commentary (`d dh p1 AhKd`,
/// `d db 2c7d9h`, `p3 f`, `p3 cc`, `p3 cbr 18.50`, `p3 sm AhKd`, `p3 sm`), read without the
/// general notation parser: the action and a `cbr` amount as written. `None` for anything
/// else, which [`notation::parse`] reads.
#[inline]
pub(super) fn quick_action(text: &[u8], players: usize) -> Option<(Action, Option<Small>)> {
    match text {
        [b'd', b' ', b'd', b'h', b' ', rest @ ..] => {
            let (player, cards) = player_then(rest, players)?;
            Some((
                Action::DealHole {
                    player,
                    cards: hole_cards(cards?)?,
                },
                None,
            ))
        }
        [b'd', b' ', b'd', b'b', b' ', cards @ ..] => {
            let cards = hole_cards(cards)?
                .iter()
                .copied()
                .collect::<Option<CardList<Card>>>()?;
            Some((Action::DealBoard { cards }, None))
        }
        [b'p', ..] => {
            let (player, rest) = player_then(text, players)?;
            match rest {
                None => None,
                Some(b"f") => Some((Action::Fold { player }, None)),
                Some(b"cc") => Some((Action::CheckCall { player }, None)),
                Some(b"sm") => Some((
                    Action::ShowMuck {
                        player,
                        cards: None,
                    },
                    None,
                )),
                Some([b's', b'm', b' ', cards @ ..]) if cards != b"-" => Some((
                    Action::ShowMuck {
                        player,
                        cards: Some(hole_cards(cards)?),
                    },
                    None,
                )),
                Some([b'c', b'b', b'r', b' ', amount @ ..]) => {
                    let amount = plain_amount(amount)?;
                    Some((
                        Action::CompleteBetRaiseTo { player, amount: 0 },
                        Some(amount),
                    ))
                }
                Some(_) => None,
            }
        }
        _ => None,
    }
}

/// A notation [`quick_action`] reads, written in a literal string whose content starts at
/// `at`, read in place up to its closing quote: the action, a `cbr` amount, and where the
/// quote is. `None` for anything else (the string is then read whole and its notation
/// parsed), so what this reads is what [`quick_action`] reads of the same content.
#[inline]
pub(super) fn quoted_action(
    bytes: &[u8],
    at: usize,
    players: usize,
) -> Option<(Action, Option<Small>, usize)> {
    // Matched on the bytes where they lie (slice patterns: a length check and a few byte
    // compares), the verb picked by its first letter: this runs for every action of a
    // corpus, and trying each verb's prefix in turn was a large part of the reading.
    match bytes.get(at..)? {
        [b'd', b' ', b'd', b'h', b' ', rest @ ..] => {
            let (player, n) = player_at(rest, players)?;
            let rest = rest.get(n..)?.strip_prefix(b" ")?;
            let (cards, len) = cards_to_quote(rest)?;
            let end = at + 5 + n + 1 + len;
            Some((Action::DealHole { player, cards }, None, end))
        }
        [b'd', b' ', b'd', b'b', b' ', rest @ ..] => {
            let (cards, len) = board_to_quote(rest)?;
            Some((Action::DealBoard { cards }, None, at + 5 + len))
        }
        b @ [b'p', ..] => {
            let (player, n) = player_at(b, players)?;
            // `end` is where the closing quote is.
            let (action, amount, end) = match &b[n..] {
                [b' ', b'f', b'\'', ..] => (Action::Fold { player }, None, at + n + 2),
                [b' ', b'c', b'c', b'\'', ..] => (Action::CheckCall { player }, None, at + n + 3),
                [b' ', b's', b'm', b'\'', ..] => {
                    let action = Action::ShowMuck {
                        player,
                        cards: None,
                    };
                    (action, None, at + n + 3)
                }
                [b' ', b's', b'm', b' ', shown @ ..] => {
                    let (cards, len) = cards_to_quote(shown)?;
                    let action = Action::ShowMuck {
                        player,
                        cards: Some(cards),
                    };
                    (action, None, at + n + 4 + len)
                }
                [b' ', b'c', b'b', b'r', b' ', amount @ ..] => {
                    let len = amount.iter().position(|&b| b == b'\'')?;
                    let value = plain_amount(&amount[..len])?;
                    let action = Action::CompleteBetRaiseTo { player, amount: 0 };
                    (action, Some(value), at + n + 5 + len)
                }
                _ => return None,
            };
            Some((action, amount, end))
        }
        _ => None,
    }
}

/// `pN` at the start of `text` (1 ≤ N ≤ players, no leading zero): the index and the bytes
/// it takes.
#[inline]
pub(super) fn player_at(text: &[u8], players: usize) -> Option<(u8, usize)> {
    // Nine players in ten seats or fewer: one digit, read without the loop.
    if let [b'p', d @ b'1'..=b'9', next, ..] = *text {
        if !next.is_ascii_digit() {
            let n = d - b'0';
            return (usize::from(n) <= players).then_some((n - 1, 2));
        }
    }
    if text.first() != Some(&b'p') {
        return None;
    }
    let mut n = 0usize;
    let mut len = 0;
    while let Some(&d @ b'0'..=b'9') = text.get(1 + len) {
        if len == 3 || (len == 0 && d == b'0') {
            return None;
        }
        n = n * 10 + usize::from(d - b'0');
        len += 1;
    }
    if len == 0 || n > players || n > 256 {
        return None;
    }
    Some(((n - 1) as u8, 1 + len))
}

/// Cards up to a closing quote (at most [`INLINE_CARDS`], at least one), as [`hole_cards`]
/// reads them: the cards and the bytes they take.
#[inline]
pub(super) fn cards_to_quote(text: &[u8]) -> Option<(CardList<Option<Card>>, usize)> {
    // Two known cards, then the quote: every hold'em deal and show of a corpus, read
    // without the loop (what the loop reads of them).
    if let [r0, s0, r1, s1, b'\'', ..] = *text {
        if let (Some(a), Some(b)) = (card(r0, s0), card(r1, s1)) {
            let mut cards = [None; INLINE_CARDS];
            (cards[0], cards[1]) = (Some(a), Some(b));
            return Some((CardList::inline(cards, 2), 4));
        }
    }
    let mut cards = [None; INLINE_CARDS];
    let mut count = 0;
    let mut rest = text;
    // Two bytes a card, the rest of the text matched by pattern (one length check and the
    // bytes, no index arithmetic): every deal and show of a corpus passes here.
    loop {
        let card = match *rest {
            [b'\'', ..] => break,
            [b'?', b'?', ..] => None,
            [rank, suit, ..] => Some(card(rank, suit)?),
            _ => return None,
        };
        *cards.get_mut(count)? = card;
        count += 1;
        rest = &rest[2..];
    }
    (count > 0).then(|| (CardList::inline(cards, count), count * 2))
}

/// Board cards up to a closing quote, all known: what [`cards_to_quote`] reads, collected
/// into a list of known cards (`None` if one is unknown). The flop and a single card, the
/// deals of every hold'em board, are read without the loop.
#[inline]
pub(super) fn board_to_quote(text: &[u8]) -> Option<(CardList<Card>, usize)> {
    let mut cards = [Card::default(); INLINE_CARDS];
    // Anything else, or a byte in them that is not a card's (a quote among them), is left
    // to the loop.
    match *text {
        [r0, s0, b'\'', ..] => {
            if let Some(c0) = card(r0, s0) {
                cards[0] = c0;
                return Some((CardList::inline(cards, 1), 2));
            }
        }
        [r0, s0, r1, s1, r2, s2, b'\'', ..] => {
            if let (Some(c0), Some(c1), Some(c2)) = (card(r0, s0), card(r1, s1), card(r2, s2)) {
                (cards[0], cards[1], cards[2]) = (c0, c1, c2);
                return Some((CardList::inline(cards, 3), 6));
            }
        }
        _ => {}
    }
    let (read, len) = cards_to_quote(text)?;
    for (slot, card) in cards.iter_mut().zip(read.iter()) {
        *slot = (*card)?;
    }
    Some((CardList::inline(cards, read.len()), len))
}

/// `pN` at the start of `text` (1 ≤ N ≤ players), then, after one space, the rest (which
/// the caller matches whole: a second space leaves it unmatched).
#[inline]
fn player_then(text: &[u8], players: usize) -> Option<(u8, Option<&[u8]>)> {
    let digits = text.get(1..)?;
    let len = digits.iter().take_while(|b| b.is_ascii_digit()).count();
    if len == 0 || len > 3 || digits[0] == b'0' {
        return None;
    }
    let n = digits[..len]
        .iter()
        .fold(0usize, |n, &d| n * 10 + usize::from(d - b'0'));
    if n > players || n > 256 {
        return None;
    }
    let rest = match &digits[len..] {
        [] => None,
        [b' ', rest @ ..] if !rest.is_empty() => Some(rest),
        _ => return None,
    };
    Some(((n - 1) as u8, rest))
}

/// Concatenated cards, `??` for an unknown one, as [`Card`]'s parser reads them (at most
/// [`INLINE_CARDS`]: longer lists are the general notation's).
#[inline]
fn hole_cards(text: &[u8]) -> Option<CardList<Option<Card>>> {
    let len = text.len() / 2;
    if text.is_empty() || !text.len().is_multiple_of(2) || len > INLINE_CARDS {
        return None;
    }
    let mut cards = [None; INLINE_CARDS];
    for (slot, pair) in cards.iter_mut().zip(text.chunks_exact(2)) {
        *slot = match pair {
            b"??" => None,
            &[rank, suit] => Some(card(rank, suit)?),
            _ => return None,
        };
    }
    Some(CardList::inline(cards, len))
}

/// Four times the value of each rank letter (either case) in `0..13`, [`NOT_A_CARD`] for
/// other bytes: added to a suit's value it is the card's index, or past every card.
pub(super) const RANK4_OF: [u8; 256] = {
    let mut table = [NOT_A_CARD; 256];
    let mut i = 0;
    while i < 13 {
        let letter = crate::cards::RANKS[i];
        table[letter as usize] = 4 * i as u8;
        table[letter.to_ascii_lowercase() as usize] = 4 * i as u8;
        i += 1;
    }
    table
};

/// The value of each suit letter (either case) in `0..4`, [`NOT_A_CARD`] for other bytes.
pub(super) const SUIT_OF: [u8; 256] = {
    let mut table = [NOT_A_CARD; 256];
    let mut i = 0;
    while i < 4 {
        let letter = crate::cards::SUITS[i];
        table[letter as usize] = i as u8;
        table[letter.to_ascii_uppercase() as usize] = i as u8;
        i += 1;
    }
    table
};

/// What the tables give a byte that is not a rank or suit letter: with anything added to
/// it (at most another `NOT_A_CARD`), still no card's index and still a byte.
const NOT_A_CARD: u8 = 64;

/// A card from its rank and suit letters (either case, as [`Card`]'s parser takes them):
/// one sum of two table entries, which is a card's index exactly when both letters are,
/// checked once by [`Card::from_index`].
#[inline]
fn card(rank: u8, suit: u8) -> Option<Card> {
    Card::from_index(RANK4_OF[rank as usize] + SUIT_OF[suit as usize])
}
