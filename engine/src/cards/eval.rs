//! High-hand evaluation of 0 to 7 cards (and more), and Omaha's "two from the hand, three from
//! the board".
//!
//! The ranking is the one every text here gives (pt-online rules 29–33, pt-casino-2007 rules
//! 17–18): straight flush, four of a kind, full house, flush, straight, three of a kind, two pair,
//! one pair, high card; suits never break ties; the ace plays high or low in a straight (A-2-3-4-5
//! is the lowest straight, 10-J-Q-K-A the highest, and there is no wrap-around). Those rules are
//! written out once, as bit logic, in `eval_rules.rs`; this module answers from tables that
//! `build.rs` computes from that logic, because showdowns and equity runs evaluate millions of
//! hands and the look-up is several times faster than the logic (about six times on
//! `benches/evaluator.rs`).
//!
//! How a hand of up to seven cards is evaluated:
//! 1. Each card contributes one `u64` from `CARD_KEYS`: its rank's key in the low 32 bits
//!    (keys whose sums tell every multiset of up to seven ranks apart) and a 1 in its suit's
//!    4-bit counter in bits 48..64. The counters start at 3, so bit 3 of a counter is set exactly
//!    when that suit holds five or more cards. Summing is the whole per-card cost.
//! 2. If a counter's bit 3 is set the hand is a flush (with at most seven cards only one suit can
//!    have five, and a flush then rules out four of a kind and a full house), and the value is
//!    `FLUSH_TABLE[ranks held in that suit]`.
//! 3. Otherwise only the ranks matter, and the rank sum is looked up in `RANK_TABLE` through a
//!    perfect hash (`ROW_OFFSETS`): about 200 KiB in all, small enough to stay in the L2 cache.
//!
//! The tables are `static`, generated deterministically at build time and never written: the
//! engine keeps no mutable global state and does no I/O to evaluate a hand. More than seven cards
//! (no game here deals that many to one hand, but nothing forbids asking) go straight to the bit
//! logic, whose answer is mapped to the same values.

use super::eval_rules::{rule_key, RANK_KEYS};
use super::Card;

// ROW_SHIFT, ROW_OFFSETS, RANK_TABLE, FLUSH_TABLE, MASK_RANK_KEYS, CLASS_KEYS, CLASS_VALUES.
include!(concat!(env!("OUT_DIR"), "/eval_tables.rs"));

/// The nine hand categories, weakest first, so that `Ord` ranks them as the texts do.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum Category {
    /// No pair: five unrelated cards.
    HighCard,
    /// Two cards of one rank.
    OnePair,
    /// Two pairs of different ranks.
    TwoPair,
    /// Three cards of one rank.
    ThreeOfAKind,
    /// Five consecutive ranks, ace high or low.
    Straight,
    /// Five cards of one suit.
    Flush,
    /// Three of one rank and two of another.
    FullHouse,
    /// Four cards of one rank.
    FourOfAKind,
    /// A straight in one suit (the royal flush is its highest).
    StraightFlush,
}

impl Category {
    /// All categories, weakest first.
    pub const ALL: [Category; 9] = [
        Category::HighCard,
        Category::OnePair,
        Category::TwoPair,
        Category::ThreeOfAKind,
        Category::Straight,
        Category::Flush,
        Category::FullHouse,
        Category::FourOfAKind,
        Category::StraightFlush,
    ];
}

/// The strength of the best five-card hand: a greater value wins, equal values split the pot.
///
/// Layout: the category in bits 12..16 and, in bits 0..12, the hand's place within its category,
/// counting from 0 for the weakest. Every pair of hands that the rules tell apart gets different
/// values and every pair they call equal (suits never break ties) gets the same value, so the
/// 2,598,960 five-card hands take exactly 7,462 distinct values. Hands of fewer than five cards
/// are ranked on what is there: the missing cards count below every real kicker.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct HandValue(u32);

const CATEGORY_SHIFT: u32 = 12;

impl HandValue {
    /// The hand's category.
    pub fn category(self) -> Category {
        Category::ALL[((self.0 >> CATEGORY_SHIFT) as usize).min(Category::ALL.len() - 1)]
    }

    /// The raw ordering key (useful for compact storage and hashing): below 2^16, and ordered
    /// exactly as the values are.
    pub fn raw(self) -> u32 {
        self.0
    }

    /// The value whose [`HandValue::raw`] is `raw`: for values kept raw and read back.
    pub(crate) fn from_raw(raw: u32) -> HandValue {
        HandValue(raw)
    }
}

/// Where the per-suit card counters sit in a hand key.
const SUIT_SHIFT: u32 = 48;
/// An empty hand's key: every suit counter starts at 3, so that five cards of a suit set bit 3.
const EMPTY_KEY: u64 = 0x3333 << SUIT_SHIFT;
/// Bit 3 of each suit counter: set when that suit holds five or more cards.
const FLUSH_BITS: u64 = 0x8888 << SUIT_SHIFT;
/// The most cards the keys and the tables handle; more go to the bit logic.
const MAX_TABLE_CARDS: usize = 7;

/// Each card's contribution to a hand key, by card index (`rank * 4 + suit`). It has an entry
/// for every `u8` (zero past 51) so that indexing by a card's byte needs no bounds check or mask.
static CARD_KEYS: [u64; 256] = {
    let mut keys = [0u64; 256];
    let mut i = 0;
    while i < 52 {
        let (rank, suit) = (i / 4, i % 4);
        keys[i] = RANK_KEYS[rank] as u64 | 1 << (SUIT_SHIFT + 4 * suit as u32);
        i += 1;
    }
    keys
};

/// The key of one card: see the module documentation.
#[inline(always)]
fn card_key(card: Card) -> u64 {
    CARD_KEYS[usize::from(card.index())]
}

/// The suit (0..4) whose counter has its flush bit set; the caller checked that one has.
#[inline(always)]
fn flush_suit(key: u64) -> u32 {
    ((key & FLUSH_BITS).trailing_zeros() - SUIT_SHIFT - 3) / 4
}

/// The value of a hand without a flush, from the sum of its rank keys.
#[inline(always)]
fn unsuited_value(rank_key: u32) -> HandValue {
    let offset = ROW_OFFSETS[(rank_key >> ROW_SHIFT) as usize & (ROW_OFFSETS.len() - 1)];
    // Only a malformed hand (a card given twice) can miss the table; it then ranks as nothing.
    let slot = rank_key.wrapping_add(offset) as usize;
    HandValue(u32::from(RANK_TABLE.get(slot).copied().unwrap_or(0)))
}

/// The value of a flush, from the 13-bit mask of the ranks held in the flush suit.
#[inline(always)]
fn flush_value(ranks: u32) -> HandValue {
    HandValue(u32::from(FLUSH_TABLE[ranks as usize & 0x1fff]))
}

/// Evaluates through the bit logic, for hands the tables do not cover (more than seven cards).
/// The rule key is mapped to the value of the greatest class not above it, which is exact for
/// every key the rules can produce.
fn evaluate_by_rules(suits: [u32; 4]) -> HandValue {
    let key = rule_key(suits);
    let at = CLASS_KEYS.partition_point(|&k| k <= key);
    HandValue(u32::from(
        CLASS_VALUES.get(at.wrapping_sub(1)).copied().unwrap_or(0),
    ))
}

fn suit_masks(cards: &[Card]) -> [u32; 4] {
    let mut suits = [0u32; 4];
    for card in cards {
        suits[usize::from(card.suit())] |= 1 << card.rank();
    }
    suits
}

/// Evaluates the best five-card hand among the cards (normally 5 to 7; fewer are ranked on what
/// is there, more are allowed).
///
/// This is the hot path of every showdown and equity run, hence the table design described in
/// the module documentation. The caller guarantees the cards are distinct, as the hand state
/// machine does; a repeated card gives an unspecified value (but never a panic).
#[inline]
pub fn evaluate(cards: &[Card]) -> HandValue {
    if cards.len() > MAX_TABLE_CARDS {
        return evaluate_by_rules(suit_masks(cards));
    }
    let mut key = EMPTY_KEY;
    for &card in cards {
        key = key.wrapping_add(card_key(card));
    }
    if key & FLUSH_BITS != 0 {
        // Rare (about 3% of seven-card hands), so the flush suit's ranks are gathered only now.
        let suit = flush_suit(key);
        let mut ranks = 0u32;
        for &card in cards {
            if u32::from(card.suit()) == suit {
                ranks |= 1 << card.rank();
            }
        }
        return flush_value(ranks);
    }
    unsuited_value(key as u32)
}

/// A five-card board keyed once, for valuing every hold'em hand shown on it: each hand then
/// adds its two hole cards' keys and looks the sum up, rather than summing all seven cards
/// again. It gives exactly the value [`evaluate`] gives for the seven cards.
#[derive(Clone, Copy)]
pub(crate) struct BoardKey {
    key: u64,
    cards: [Card; 5],
}

impl BoardKey {
    /// The board's five cards keyed.
    pub(crate) fn new(cards: [Card; 5]) -> BoardKey {
        let mut key = EMPTY_KEY;
        for card in cards {
            key = key.wrapping_add(card_key(card));
        }
        BoardKey { key, cards }
    }

    /// The value of the board with the two hole cards `a` and `b`: [`evaluate`] of the seven.
    #[inline(always)]
    pub(crate) fn value_with(&self, a: Card, b: Card) -> HandValue {
        let key = self.key.wrapping_add(card_key(a)).wrapping_add(card_key(b));
        if key & FLUSH_BITS != 0 {
            return self.flush_with(a, b);
        }
        unsuited_value(key as u32)
    }

    /// A flush (rare): the seven cards evaluated afresh, out of the common path.
    #[cold]
    #[inline(never)]
    fn flush_with(&self, a: Card, b: Card) -> HandValue {
        let [c0, c1, c2, c3, c4] = self.cards;
        evaluate(&[c0, c1, c2, c3, c4, a, b])
    }
}

/// Evaluates from the four per-suit rank masks (bit `r` of `suits[s]` = the card of rank `r`,
/// suit `s`; bits above 12 are ignored).
///
/// For callers that already keep a hand as masks, such as enumerations that add one card at a
/// time; it gives exactly the value [`evaluate`] gives for the same cards.
#[inline]
pub fn evaluate_masks(suits: [u32; 4]) -> HandValue {
    let suits = suits.map(|m| m & 0x1fff);
    let cards: u32 = suits.iter().map(|m| m.count_ones()).sum();
    if cards as usize > MAX_TABLE_CARDS {
        return evaluate_by_rules(suits);
    }
    let mut rank_key = 0u32;
    for mask in suits {
        if mask.count_ones() >= 5 {
            return flush_value(mask);
        }
        rank_key = rank_key.wrapping_add(MASK_RANK_KEYS[mask as usize & 0x1fff]);
    }
    unsuited_value(rank_key)
}

/// Omaha: the best hand using exactly two of the four hole cards and exactly three board cards
/// (the board has three to five cards; with fewer there is no hand and the lowest value returns).
///
/// The two-card and three-card parts are keyed once each and then combined by addition, so the
/// 60 candidate hands of a full board cost one addition and one look-up apiece.
pub fn evaluate_omaha(hole: &[Card; 4], board: &[Card]) -> HandValue {
    /// A partial hand: its key and its cards as a 64-bit mask (bit `16 * suit + rank`).
    #[derive(Clone, Copy)]
    struct Part {
        key: u64,
        mask: u64,
    }
    let part = |cards: &[Card]| Part {
        key: cards
            .iter()
            .map(|&c| card_key(c))
            .fold(0, u64::wrapping_add),
        mask: cards.iter().fold(0, |m, c| {
            m | 1 << (16 * u32::from(c.suit()) + u32::from(c.rank()))
        }),
    };
    let pairs =
        [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)].map(|(i, j)| part(&[hole[i], hole[j]]));
    let mut best = HandValue(0);
    for a in 0..board.len() {
        for b in a + 1..board.len() {
            for c in b + 1..board.len() {
                let triple = part(&[board[a], board[b], board[c]]);
                for pair in &pairs {
                    let key = EMPTY_KEY.wrapping_add(pair.key).wrapping_add(triple.key);
                    let value = if key & FLUSH_BITS != 0 {
                        let ranks = (pair.mask | triple.mask) >> (16 * flush_suit(key));
                        flush_value(ranks as u32)
                    } else {
                        unsuited_value(key as u32)
                    };
                    best = best.max(value);
                }
            }
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::parse_cards;

    fn value(text: &str) -> HandValue {
        evaluate(&parse_cards(text).unwrap())
    }

    #[test]
    fn ace_plays_low_in_the_wheel_and_high_in_broadway() {
        assert_eq!(value("Ah2c3d4s5h").category(), Category::Straight);
        assert_eq!(value("TcJdQsKhAh").category(), Category::Straight);
        assert!(value("2c3d4s5h6h") > value("Ah2c3d4s5h"));
        assert_eq!(
            value("QcKdAs2h3h").category(),
            Category::HighCard,
            "no wrap-around"
        );
    }

    #[test]
    fn categories_rank_in_the_texts_order() {
        let ladder = [
            "2c4d6h8sTc",
            "2c2d6h8sTc",
            "2c2d6h6sTc",
            "2c2d2h8sTc",
            "2c3d4h5s6c",
            "2c4c6c8cTc",
            "2c2d2h6s6c",
            "2c2d2h2s6c",
            "2c3c4c5c6c",
        ];
        for (i, text) in ladder.iter().enumerate() {
            assert_eq!(value(text).category(), Category::ALL[i], "{text}");
        }
        for pair in ladder.windows(2) {
            assert!(value(pair[1]) > value(pair[0]));
        }
    }

    #[test]
    fn kickers_break_ties_and_suits_never_do() {
        assert!(value("AcAd9h7s5c") > value("AhAs9c7d4c"));
        assert_eq!(value("AcAd9h7s5c"), value("AhAs9c7d5d"));
        assert!(value("KcKd5h5s9c") < value("KhKsQcQd2c"));
        assert_eq!(value("AcKdQhJs9c8d2h"), value("AcKdQhJs9h7d2c"));
        // Seven cards: the best five play; the sixth and seventh never count.
        assert_eq!(value("AcAdKhKsQcJd2h"), value("AcAdKhKsQd3c4h"));
    }

    #[test]
    fn full_house_takes_the_higher_trips_and_best_pair() {
        let two_trips = value("9c9d9hKcKdKh2s");
        assert_eq!(two_trips.category(), Category::FullHouse);
        assert_eq!(two_trips, value("KcKdKh9c9d2h3s"));
    }

    /// Random hands of every size the tables serve, against the bit logic they were built from.
    #[test]
    fn tables_agree_with_the_rules() {
        use rand::seq::SliceRandom;
        use rand::SeedableRng;
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
        let mut deck: Vec<Card> = Card::all().collect();
        for n in 0..=MAX_TABLE_CARDS {
            for _ in 0..20_000 {
                let (hand, _) = deck.partial_shuffle(&mut rng, n);
                let by_rules = evaluate_by_rules(suit_masks(hand));
                assert_eq!(evaluate(hand), by_rules, "{hand:?}");
                assert_eq!(evaluate_masks(suit_masks(hand)), by_rules, "{hand:?}");
            }
        }
    }

    /// A board keyed once values every pair of hole cards exactly as the seven cards do.
    #[test]
    fn a_keyed_board_values_hands_as_seven_cards_do() {
        use rand::seq::SliceRandom;
        use rand::SeedableRng;
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
        let mut deck: Vec<Card> = Card::all().collect();
        for _ in 0..50_000 {
            let (hand, _) = deck.partial_shuffle(&mut rng, 7);
            let board = BoardKey::new([hand[0], hand[1], hand[2], hand[3], hand[4]]);
            assert_eq!(
                board.value_with(hand[5], hand[6]),
                evaluate(hand),
                "{hand:?}"
            );
        }
        // Flushes on the board, in the hand, and both.
        for text in [
            "2h5h8h9hTcAhKh",
            "2h5h8h9hThAcKd",
            "2c5h8h9hTd3h4h",
            "2c5c8c9cTcJcQc",
        ] {
            let hand = parse_cards(text).unwrap();
            let board = BoardKey::new([hand[0], hand[1], hand[2], hand[3], hand[4]]);
            assert_eq!(
                board.value_with(hand[5], hand[6]),
                evaluate(&hand),
                "{text}"
            );
        }
    }

    #[test]
    fn more_than_seven_cards_play_their_best_five() {
        use rand::seq::SliceRandom;
        use rand::SeedableRng;
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(2);
        let mut deck: Vec<Card> = Card::all().collect();
        for _ in 0..2_000 {
            let (hand, _) = deck.partial_shuffle(&mut rng, 8);
            // The best of the eight seven-card hands that leave one card out.
            let best = (0..8)
                .map(|skip| {
                    let seven: Vec<Card> = (0..8).filter(|&i| i != skip).map(|i| hand[i]).collect();
                    evaluate(&seven)
                })
                .max();
            assert_eq!(Some(evaluate(hand)), best, "{hand:?}");
            assert_eq!(Some(evaluate_masks(suit_masks(hand))), best, "{hand:?}");
        }
        // With enough cards two suits can both hold flushes, and a full house beats a flush.
        assert_eq!(value("2c4c6c8cTcAh3h5h7h9h").category(), Category::Flush);
        assert_eq!(value("2c4c6c8cTcAh3h5h7h9h"), value("Ah9h7h5h3h"));
        assert_eq!(value("2c4c6c8cTc2d2h4d").category(), Category::FullHouse);
        assert_eq!(
            value("2c3c4c5c6c2d2h2s").category(),
            Category::StraightFlush
        );
        // Thirteen hearts: the royal flush.
        let hearts: Vec<Card> = Card::all().filter(|c| c.suit() == 2).collect();
        assert_eq!(evaluate(&hearts), value("AhKhQhJhTh"));
        assert_eq!(
            evaluate(&Card::all().collect::<Vec<_>>()),
            value("AhKhQhJhTh")
        );
    }

    #[test]
    fn fewer_than_five_cards_rank_on_what_is_there() {
        let ladder = [
            "", "2c", "Ac", "AcKd", "2c2d", "2c2d3h", "AcAd", "AcAdKh", "2c2d3h3s", "2c2d2h",
            "2c2d2h2s",
        ];
        for pair in ladder.windows(2) {
            assert!(value(pair[0]) < value(pair[1]), "{} < {}", pair[0], pair[1]);
        }
        // Missing cards rank below every real kicker, and suits still never count.
        assert!(value("AcAdKh") > value("AcAdQh5s4s"));
        assert!(value("AcAdKh") < value("AcAdKh2s"));
        assert_eq!(value("AcAdKh"), value("AhAsKc"));
        assert_eq!(value("").raw(), 0);
    }

    #[test]
    fn malformed_input_never_panics() {
        let ace = Card::all().last().unwrap_or_else(|| unreachable!());
        for n in 0..=10 {
            let _ = evaluate(&vec![ace; n]);
        }
        let _ = evaluate_masks([u32::MAX; 4]);
        let _ = evaluate_masks([0xffff_e000, 0, 0, 0]);
        assert_eq!(evaluate_masks([0xffff_e000, 0, 0, 0]), value(""));
    }

    #[test]
    fn values_fit_in_sixteen_bits_and_keep_their_category() {
        let royal = value("AhKhQhJhTh");
        assert!(royal.raw() < 1 << 16);
        assert_eq!(royal.category(), Category::StraightFlush);
        assert_eq!(value("").category(), Category::HighCard);
    }

    #[test]
    fn omaha_uses_exactly_two_hole_cards() {
        // Four hearts on board and one in hand is no flush in Omaha.
        let hole = parse_cards("AhKcQdJs").unwrap();
        let board = parse_cards("2h5h8h9hTc").unwrap();
        let v = evaluate_omaha(&[hole[0], hole[1], hole[2], hole[3]], &board);
        assert_ne!(v.category(), Category::Flush);
        assert_eq!(v.category(), Category::Straight); // Q-J from hand, 8-9-T from the board
    }
}
