//! Reading and writing PHH (Poker Hand History) files, the open format of the University of
//! Toronto Computer Poker Research Group (<https://github.com/uoftcprg/phh-std>) that
//! PokerKit and the phh-dataset corpus use.
//!
//! A `.phh` file is one hand: `key = value` lines in a subset of TOML. A `.phhs` file holds
//! many, each under a `[N]` header. Reading gives [`PhhHand`]s whose amounts are integer
//! chips (decimal amounts are scaled exactly, never through floating point) and whose
//! `actions` are typed [`Action`]s with their source lines, ready for [`crate::replay`].
//! Writing gives the text back in the file's own units and layout; fields the model does not
//! type are kept verbatim.
//!
//! ```
//! use floor_engine::phh::{parse_phh, write_phh, Action, Stack};
//!
//! let hand = parse_phh(
//!     "variant = 'NT'\nantes = [0, 0]\nblinds_or_straddles = [0.5, 1]\nmin_bet = 1\n\
//!      starting_stacks = [100, inf]\nactions = ['d dh p1 AhKd', 'd dh p2 ????', 'p2 cbr 2.25', 'p1 f']\n",
//! )?;
//! assert_eq!(hand.scale.factor(), 100);
//! assert_eq!(hand.blinds_or_straddles, vec![50, 100]);
//! assert_eq!(hand.starting_stacks, vec![Stack::Chips(10000), Stack::Unknown]);
//! assert_eq!(hand.actions[2].action, Action::CompleteBetRaiseTo { player: 1, amount: 225 });
//! assert_eq!(parse_phh(&write_phh(&hand))?, hand);
//! # Ok::<(), floor_engine::phh::PhhError>(())
//! ```
//!
//! The engine does no I/O: these functions take and return text; callers read the files.
//! A large corpus is read in chunks ([`read_chunk`], [`FileReading`]), in bounded memory and
//! with the result reading it whole gives.

mod amount;
mod cards;
mod chunk;
#[cfg(test)]
mod chunk_tests;
mod error;
mod fast;
mod hand;
mod notation;
mod reader;
mod toml;
mod value;
mod write;

pub use amount::{Decimal, Scale, MAX_DECIMALS};
pub use cards::{CardList, INLINE_CARDS};
pub(crate) use chunk::read_chunk_to;
pub use chunk::{
    duplicate_hand, next_cut, read_chunk, read_chunk_bytes, ChunkRead, FileError, FileReading,
};
pub use error::{PhhError, PhhErrorKind};
pub(crate) use fast::HandSink;
pub use hand::{PhhHand, Stack};
pub use notation::{format_hole, Action, ActionLine};
pub use value::{quote, Value};

use reader::Expect;

/// Reads a `.phh` file: one hand, no `[N]` header.
///
/// A text with headers is refused with a pointer to [`parse_phhs`], since silently taking
/// one hand of many would lose data; use [`parse_file`] when either may come.
pub fn parse_phh(text: &str) -> Result<PhhHand, PhhError> {
    let mut hands = reader::read(text, Expect::Phh)?;
    hands
        .pop()
        .ok_or_else(|| PhhError::on_line(PhhErrorKind::Syntax, 1, "no hand in the text"))
}

/// Reads a `.phhs` file: hands under `[1]`, `[2]`, … headers. Each hand remembers its number
/// and header line. An empty text is an empty list.
pub fn parse_phhs(text: &str) -> Result<Vec<PhhHand>, PhhError> {
    reader::read(text, Expect::Phhs)
}

/// Reads either kind of file, deciding by content rather than by file name: a text with
/// `[N]` headers is a `.phhs`, any other a single `.phh` hand (returned as a list of one).
pub fn parse_file(text: &str) -> Result<Vec<PhhHand>, PhhError> {
    reader::read(text, Expect::Either)
}

/// Writes a hand as a `.phh` file, amounts in the hand's units (`126.30` for 12630 chips at
/// scale 100, integers without a decimal point).
pub fn write_phh(hand: &PhhHand) -> String {
    let mut out = String::new();
    write::write_hand(hand, &mut out);
    out
}

/// Writes hands as a `.phhs` file, numbered `[1]`, `[2]`, … in order (as the format wants,
/// whatever their [`PhhHand::number`]), separated by blank lines.
pub fn write_phhs(hands: &[PhhHand]) -> String {
    let mut out = String::new();
    for (i, hand) in hands.iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        out.push_str(&format!("[{}]\n", i + 1));
        write::write_hand(hand, &mut out);
    }
    out
}
