//! PHH action notation: the strings of the `actions` array (`d dh p1 AhKd`, `p3 cbr 18`,
//! `p2 sm`), read into [`Action`]s a replayer can apply and written back.
//!
//! Grammar (from the PHH specification): `[actor action[ arguments…]][ # commentary]`, words
//! separated by any whitespace. The dealer is `d`, players are `p1`, `p2`, … (stored from 0).
//! Cards are concatenated (`ThJc5h`), `??` for an unknown card.

use super::amount::{Decimal, Scale};
use super::cards::CardList;
use super::error::{PhhError, PhhErrorKind};
use crate::cards::Card;
use std::fmt;
use std::str::FromStr;

/// One action of a hand, as the notation describes it. Players are indices from 0 (`p1` is
/// player 0), in the order of the hand's per-player arrays, held in a byte (`p1` to `p256`;
/// no table seats more): an action is then three words, and a corpus is mostly actions —
/// its size in memory is what a replay of a large corpus waits on. Amounts are integer chips at the
/// hand's [`Scale`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action {
    /// `d dh pN CARDS`: the dealer deals hole cards; `None` for a card the record does not
    /// know (`??`), so hands from sites that hide other players' cards still replay.
    DealHole {
        /// Who receives the cards.
        player: u8,
        /// The cards, known or not.
        cards: CardList<Option<Card>>,
    },
    /// `d db CARDS`: the dealer deals board cards (always known).
    DealBoard {
        /// The new board cards.
        cards: CardList<Card>,
    },
    /// `pN pb`: posts the bring-in (stud games).
    BringIn {
        /// Who posts.
        player: u8,
    },
    /// `pN cbr AMOUNT`: completes, bets or raises to a total of `amount` for the round.
    CompleteBetRaiseTo {
        /// Who bets.
        player: u8,
        /// The total the player's bet for the round becomes, in chips.
        amount: i64,
    },
    /// `pN cc`: checks, or calls the largest bet.
    CheckCall {
        /// Who acts.
        player: u8,
    },
    /// `pN f`: folds.
    Fold {
        /// Who folds.
        player: u8,
    },
    /// `pN sd [CARDS]`: stands pat (no cards) or discards the cards given (draw games).
    StandPatDiscard {
        /// Who draws.
        player: u8,
        /// The discarded cards; empty when standing pat.
        cards: CardList<Option<Card>>,
    },
    /// `pN sm [CARDS]`: shows the cards given, or mucks when there are none (PokerKit's
    /// reading). `pN sm -` ("show the cards dealt") is read as showing the cards dealt to
    /// the player earlier in the hand, so a replayer sees which cards were shown.
    ShowMuck {
        /// Who shows or mucks.
        player: u8,
        /// The shown cards (some may be `None`: shown face down in a cash game); `None` for
        /// a muck. An empty list is written, and so read back, as a muck.
        cards: Option<CardList<Option<Card>>>,
    },
    /// An empty string or a lone `# commentary`: nothing happens.
    NoOp,
}

impl Action {
    /// The player who acts, or receives the cards of a `d dh`; `None` for board deals and
    /// no-ops.
    pub fn player(&self) -> Option<usize> {
        match self {
            Action::DealHole { player, .. }
            | Action::BringIn { player }
            | Action::CompleteBetRaiseTo { player, .. }
            | Action::CheckCall { player }
            | Action::Fold { player }
            | Action::StandPatDiscard { player, .. }
            | Action::ShowMuck { player, .. } => Some(usize::from(*player)),
            Action::DealBoard { .. } | Action::NoOp => None,
        }
    }

    /// The notation with amounts written in the units of `scale` (12630 chips at scale 100
    /// is `cbr 126.30`). [`Display`](fmt::Display) writes at scale 1.
    pub fn notation(&self, scale: Scale) -> String {
        let p = |player: &u8| usize::from(*player) + 1;
        match self {
            Action::DealHole { player, cards } => {
                format!("d dh p{} {}", p(player), format_hole(cards))
            }
            Action::DealBoard { cards } => format!("d db {}", crate::cards::format_cards(cards)),
            Action::BringIn { player } => format!("p{} pb", p(player)),
            Action::CompleteBetRaiseTo { player, amount } => {
                format!("p{} cbr {}", p(player), scale.format(*amount))
            }
            Action::CheckCall { player } => format!("p{} cc", p(player)),
            Action::Fold { player } => format!("p{} f", p(player)),
            Action::StandPatDiscard { player, cards } if cards.is_empty() => {
                format!("p{} sd", p(player))
            }
            Action::StandPatDiscard { player, cards } => {
                format!("p{} sd {}", p(player), format_hole(cards))
            }
            Action::ShowMuck {
                player,
                cards: Some(cards),
            } if !cards.is_empty() => {
                format!("p{} sm {}", p(player), format_hole(cards))
            }
            Action::ShowMuck { player, .. } => format!("p{} sm", p(player)),
            Action::NoOp => String::new(),
        }
    }
}

impl fmt::Display for Action {
    /// The PHH notation at scale 1 (amounts as integer chips), e.g. `p3 cbr 18`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.notation(Scale::ONE))
    }
}

impl FromStr for Action {
    type Err = PhhError;

    /// Reads one notation on its own, for tools and tests: amounts must be whole chips,
    /// players are not checked against a hand, `sm -` is refused (it needs the hand's deals)
    /// and a commentary is dropped. Whole hands are read with [`super::parse_phh`].
    fn from_str(text: &str) -> Result<Action, PhhError> {
        let at = |offset: usize, message: String| PhhError {
            kind: PhhErrorKind::Notation,
            line: 1,
            col: Some(offset + 1),
            message,
        };
        let mut parsed = parse(text, None).map_err(|e| at(e.offset, e.message))?;
        if let Some(offset) = parsed.shows_dealt {
            return Err(at(
                offset,
                "`sm -` shows the cards dealt earlier, so it can only be read as part of a hand"
                    .into(),
            ));
        }
        if let (Some((decimal, offset)), Action::CompleteBetRaiseTo { amount, .. }) =
            (parsed.amount, &mut parsed.action)
        {
            *amount = Scale::ONE.to_chips(decimal).ok_or_else(|| {
                at(
                    offset,
                    format!("`{decimal}` is not a whole number of chips"),
                )
            })?;
        }
        Ok(parsed.action)
    }
}

/// One entry of a hand's `actions`: the action, its commentary and its source line, so a
/// replayer can say which line of the file it refuses.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ActionLine {
    /// The action.
    pub action: Action,
    /// The text after ` # `, trimmed, if the entry has one (a boxed `str`, two words: most
    /// entries have none, and a corpus's memory is mostly its action lines).
    pub commentary: Option<Box<str>>,
    /// The line of the file the entry is written on (0 for actions built in code; a file of
    /// more than `u32::MAX` lines gives `u32::MAX` past that point).
    pub line: u32,
}

/// A file's line number as an [`ActionLine`] keeps it (past `u32::MAX`, `u32::MAX`).
pub(crate) fn source_line(line: usize) -> u32 {
    u32::try_from(line).unwrap_or(u32::MAX)
}

impl ActionLine {
    /// An action with no commentary and no source line, for building hands in code.
    pub fn new(action: Action) -> ActionLine {
        ActionLine {
            action,
            commentary: None,
            line: 0,
        }
    }

    /// The full entry as PHH writes it, commentary included, amounts in `scale` units.
    pub fn notation(&self, scale: Scale) -> String {
        let action = self.action.notation(scale);
        match &self.commentary {
            None => action,
            Some(c) if action.is_empty() => format!("# {c}").trim_end().to_string(),
            Some(c) => format!("{action} # {c}").trim_end().to_string(),
        }
    }
}

/// Hole cards as PHH writes them, `??` for unknown cards.
pub fn format_hole(cards: &[Option<Card>]) -> String {
    cards
        .iter()
        .map(|c| c.map_or_else(|| "??".to_string(), |c| c.to_string()))
        .collect()
}

/// One notation read before the hand's scale and deals are known.
#[derive(Debug)]
pub(crate) struct Parsed {
    /// The action; a `cbr` amount is 0 until [`Parsed::amount`] is converted.
    pub action: Action,
    pub commentary: Option<String>,
    /// The `cbr` amount as written, with its character offset in the string.
    pub amount: Option<(Decimal, usize)>,
    /// For `sm -`: the character offset of the `-`; the cards are filled in from the deals.
    pub shows_dealt: Option<usize>,
}

/// A notation problem at a character offset within the action string.
#[derive(Debug)]
pub(crate) struct NotationError {
    pub offset: usize,
    pub message: String,
}

fn fail<T>(offset: usize, message: impl Into<String>) -> Result<T, NotationError> {
    Err(NotationError {
        offset,
        message: message.into(),
    })
}

/// The most words [`words`] keeps: an action has at most four (`d dh p1 AhKd`), and the
/// fifth is enough to say what follows the last argument.
const MAX_WORDS: usize = 5;

/// The first [`MAX_WORDS`] words of a notation, held inline (no allocation per action).
struct Words<'a> {
    words: [(usize, &'a str); MAX_WORDS],
    len: usize,
}

impl<'a> std::ops::Deref for Words<'a> {
    type Target = [(usize, &'a str)];
    fn deref(&self) -> &[(usize, &'a str)] {
        &self.words[..self.len]
    }
}

/// Splits on whitespace, keeping each word's character offset; only the first
/// [`MAX_WORDS`] are kept, which is all [`parse`] looks at.
fn words(text: &str) -> Words<'_> {
    if text.is_ascii() {
        return ascii_words(text);
    }
    let mut out = Words {
        words: [(0, ""); MAX_WORDS],
        len: 0,
    };
    let mut start: Option<(usize, usize)> = None;
    for (char_index, (byte_index, c)) in text.char_indices().enumerate() {
        if c.is_whitespace() {
            if let Some((byte, ch)) = start.take() {
                out.words[out.len] = (ch, &text[byte..byte_index]);
                out.len += 1;
                if out.len == MAX_WORDS {
                    return out;
                }
            }
        } else if start.is_none() {
            start = Some((byte_index, char_index));
        }
    }
    if let Some((byte, ch)) = start {
        out.words[out.len] = (ch, &text[byte..]);
        out.len += 1;
    }
    out
}

/// [`words`] for ASCII text (every notation a file holds), where a character is a byte.
fn ascii_words(text: &str) -> Words<'_> {
    let mut out = Words {
        words: [(0, ""); MAX_WORDS],
        len: 0,
    };
    let bytes = text.as_bytes();
    // ASCII whitespace as `char::is_whitespace` has it: tab to carriage return, and space.
    let space = |b: u8| matches!(b, b'\t'..=b'\r' | b' ');
    let mut at = 0;
    while out.len < MAX_WORDS {
        while at < bytes.len() && space(bytes[at]) {
            at += 1;
        }
        if at == bytes.len() {
            break;
        }
        let start = at;
        while at < bytes.len() && !space(bytes[at]) {
            at += 1;
        }
        out.words[out.len] = (start, &text[start..at]);
        out.len += 1;
    }
    out
}

/// Reads one action string. `players` bounds the `pN` numbers when known.
pub(crate) fn parse(text: &str, players: Option<usize>) -> Result<Parsed, NotationError> {
    let (body, commentary) = match text.split_once('#') {
        Some((body, comment)) => (body, Some(comment.trim().to_string())),
        None => (text, None),
    };
    let words = words(body);
    let mut parsed = Parsed {
        action: Action::NoOp,
        commentary,
        amount: None,
        shows_dealt: None,
    };
    let Some(&(actor_at, actor)) = words.first() else {
        return Ok(parsed);
    };
    // Where the last word ends, for saying what is missing after it.
    let end = || words.last().map_or(0, |(at, w)| at + w.chars().count());
    let arg = |i: usize, what: &str| -> Result<(usize, &str), NotationError> {
        match words.get(i) {
            Some(&word) => Ok(word),
            None => fail(end(), what.to_string()),
        }
    };
    let Some(&(op_at, op)) = words.get(1) else {
        return fail(end(), format!("`{actor}` must be followed by an action, such as `f`, `cc`, `cbr 18` or (for the dealer `d`) `db`"));
    };
    let arity;
    let action = if actor == "d" {
        match op {
            "dh" => {
                let (at, word) = arg(2, "`dh` needs a player and cards, like `d dh p1 AhKd`")?;
                let player = parse_player(at, word, players)?;
                let (at, word) = arg(3, "`dh` needs the cards dealt, like `d dh p1 AhKd` (`????` when unknown)")?;
                arity = 4;
                Action::DealHole {
                    player,
                    cards: parse_hole(at, word)?,
                }
            }
            "db" => {
                let (at, word) = arg(2, "`db` needs the board cards, like `d db ThJc5h`")?;
                let cards = parse_hole(at, word)?
                    .iter()
                    .copied()
                    .collect::<Option<CardList<Card>>>()
                    .map_or_else(|| fail(at, "board cards must be known: `??` is only for hole cards"), Ok)?;
                arity = 3;
                Action::DealBoard { cards }
            }
            other => return fail(op_at, format!("`{other}` is not a dealer action: the dealer `d` deals hole cards (`dh`) or the board (`db`)")),
        }
    } else {
        let player = parse_player(actor_at, actor, players)?;
        arity = 2;
        match op {
            "pb" => Action::BringIn { player },
            "cc" => Action::CheckCall { player },
            "f" => Action::Fold { player },
            "cbr" => {
                let (at, word) = arg(2, "`cbr` needs an amount, like `p1 cbr 18`")?;
                let amount = match Decimal::parse(word) {
                    Some(d) if !d.is_negative() => d,
                    Some(_) => {
                        return fail(
                            at,
                            format!("`{word}`: a bet or raise amount cannot be negative"),
                        )
                    }
                    None => {
                        return fail(
                            at,
                            format!(
                                "`{word}` is not an amount (write digits, like `18` or `126.30`)"
                            ),
                        )
                    }
                };
                parsed.amount = Some((amount, at));
                return finish(
                    parsed,
                    Action::CompleteBetRaiseTo { player, amount: 0 },
                    &words,
                    3,
                );
            }
            "sd" => {
                let cards = match words.get(2) {
                    Some(&(at, word)) => parse_hole(at, word)?,
                    None => CardList::new(),
                };
                return finish(parsed, Action::StandPatDiscard { player, cards }, &words, 3);
            }
            "sm" => {
                let cards = match words.get(2) {
                    Some(&(at, "-")) => {
                        parsed.shows_dealt = Some(at);
                        Some(CardList::new())
                    }
                    Some(&(at, word)) => Some(parse_hole(at, word)?),
                    None => None,
                };
                return finish(parsed, Action::ShowMuck { player, cards }, &words, 3);
            }
            "dh" | "db" => {
                return fail(
                    actor_at,
                    format!("only the dealer deals: write `d {op} …`, not `{actor} {op}`"),
                )
            }
            other => {
                return fail(
                    op_at,
                    format!(
                        "`{other}` is not an action: players `pb`, `cbr`, `cc`, `f`, `sd` or `sm`"
                    ),
                )
            }
        }
    };
    finish(parsed, action, &words, arity)
}

/// Checks that no words follow the action's last argument.
fn finish(
    mut parsed: Parsed,
    action: Action,
    words: &[(usize, &str)],
    arity: usize,
) -> Result<Parsed, NotationError> {
    if let Some(&(at, extra)) = words.get(arity) {
        let head: Vec<&str> = words[..arity].iter().map(|w| w.1).collect();
        return fail(
            at,
            format!(
                "unexpected `{extra}` after `{}` (a commentary starts with `#`)",
                head.join(" ")
            ),
        );
    }
    parsed.action = action;
    Ok(parsed)
}

/// `pN` → player index N-1 (at most `p256`: see [`Action`]).
fn parse_player(at: usize, word: &str, players: Option<usize>) -> Result<u8, NotationError> {
    let number = match word.as_bytes() {
        // `p1` to `p99`, the numbers every hand has, without the general parse.
        [b'p', d @ b'0'..=b'9'] => Some(usize::from(d - b'0')),
        [b'p', t @ b'0'..=b'9', d @ b'0'..=b'9'] => {
            Some(usize::from(t - b'0') * 10 + usize::from(d - b'0'))
        }
        _ => word
            .strip_prefix('p')
            .filter(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
            .and_then(|n| n.parse::<usize>().ok()),
    };
    match (number, players) {
        (None, _) => fail(
            at,
            format!("`{word}` is not an actor: `d` is the dealer, `p1`, `p2`, … the players"),
        ),
        (Some(0), _) => fail(at, "players are numbered from `p1`"),
        (Some(n), Some(count)) if n > count => fail(
            at,
            format!(
                "`{word}`, but the hand has {count} player{}",
                if count == 1 { "" } else { "s" }
            ),
        ),
        (Some(n), _) => match u8::try_from(n - 1) {
            Ok(index) => Ok(index),
            Err(_) => fail(
                at,
                format!("`{word}`: the notation numbers at most 256 players"),
            ),
        },
    }
}

/// Concatenated cards, `??` for an unknown card.
fn parse_hole(at: usize, word: &str) -> Result<CardList<Option<Card>>, NotationError> {
    if !word.is_ascii() || !word.len().is_multiple_of(2) {
        return fail(
            at,
            format!("`{word}` is not a list of cards: each card is a rank (23456789TJQKA) and a suit (cdhs), like `AhKd`, or `??` when unknown"),
        );
    }
    let mut cards = CardList::new();
    for i in (0..word.len()).step_by(2) {
        match &word[i..i + 2] {
            "??" => cards.push(None),
            text => match text.parse::<Card>() {
                Ok(card) => cards.push(Some(card)),
                Err(e) => return fail(at + i, e.to_string()),
            },
        }
    }
    Ok(cards)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_and_writes_each_action() {
        for text in [
            "d dh p1 ????",
            "d dh p2 ??Ad",
            "d db ThJc5h",
            "p1 pb",
            "p3 cbr 18",
            "p1 cc",
            "p2 f",
            "p1 sd",
            "p1 sd 7h??",
            "p1 sm",
            "p1 sm AhKd",
            "",
        ] {
            let action: Action = text.parse().unwrap();
            assert_eq!(action.to_string(), text);
        }
        let line = parse("  p1   cbr 126.30   # big bet ", Some(2)).unwrap();
        assert_eq!(line.commentary.as_deref(), Some("big bet"));
        assert_eq!(line.amount.map(|a| a.0.to_string()), Some("126.30".into()));
    }

    #[test]
    fn errors_point_at_the_word() {
        let e = parse("p1 cbr", None).unwrap_err();
        assert_eq!((e.offset, e.message.contains("needs an amount")), (6, true));
        assert_eq!(parse("p9 f", Some(8)).unwrap_err().offset, 0);
        assert_eq!(parse("d dh p1 AhKx", None).unwrap_err().offset, 10);
        assert_eq!(parse("p1 f now", None).unwrap_err().offset, 5);
        assert!(parse("d db ??", None).is_err());
        assert!(parse("p1 xx", None).is_err());
        assert!(parse("p1 sm ’’", None).is_err());
    }

    /// An action holds its player in a byte: `p256` is the last the notation reads, and
    /// past it the refusal says so (no table seats that many).
    #[test]
    fn players_up_to_p256_are_read_and_past_it_refused() {
        let last = parse("p256 f", None).unwrap();
        assert_eq!(last.action, Action::Fold { player: 255 });
        assert_eq!(last.action.to_string(), "p256 f");
        let e = parse("p257 f", None).unwrap_err();
        assert_eq!(e.offset, 0);
        assert!(e.message.contains("at most 256 players"), "{}", e.message);
    }
}
