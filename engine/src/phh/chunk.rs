//! Reading a `.phhs` file in chunks, so that a corpus of any size is read in bounded memory
//! and on several threads, with exactly the result reading it whole gives.
//!
//! A caller (the `floor replay` command) cuts the file's bytes at hand headers
//! ([`next_cut`]), reads each chunk on its own ([`read_chunk`], which hands every hand to a
//! callback as it is read, through one reused [`PhhHand`]), and judges the chunks' findings
//! in file order with a [`FileReading`]: the first syntax error or repeated hand number in
//! the file, then a field before the first header, then the first hand that could not be
//! built — the order [`super::parse_file`] reports them in, which judges a whole text as one
//! chunk through the same [`FileReading`].
//!
//! A cut is made before a line that starts with `[` and a digit. Such a line inside a
//! multi-line array (a nested array, which PHH never writes but TOML allows) is not a header:
//! the chunk before it then ends inside the array ([`ChunkRead::ends_in_array`]), and the
//! caller reads it again joined to the next.

use super::error::{PhhError, PhhErrorKind as Kind, Pos};
use super::fast::{FastReader, HandSink, NoSink, Step};
use super::hand::PhhHand;
use super::reader::{outside_any_hand, scan, Expect};
use std::collections::BTreeMap;

/// What reading one chunk found, for [`FileReading`] to judge.
#[derive(Clone, Debug, Default)]
pub struct ChunkRead {
    /// Every hand header read, `(number, line)`, in order (up to a syntax error).
    pub headers: Vec<(usize, usize)>,
    /// Whether the chunk starts its file.
    pub file_start: bool,
    /// The first field written before the chunk's first header (only a file's first chunk
    /// can have one), and where.
    pub(crate) prefix: Option<(String, Pos)>,
    /// The first syntax error (the chunk was read no further).
    pub syntax_error: Option<PhhError>,
    /// The first hand that could not be built.
    pub content_error: Option<PhhError>,
    /// For a chunk with no header at all (a whole `.phh` file): why its hand could not be
    /// built, if it could not.
    pub single_error: Option<PhhError>,
    /// How many hands were handed to the callback.
    pub hands: usize,
}

impl ChunkRead {
    /// Whether the chunk ended inside an array left open (see the module's doc): it must be
    /// read again together with the next chunk.
    pub fn ends_in_array(&self) -> bool {
        self.syntax_error
            .as_ref()
            .is_some_and(|e| e.message.starts_with("unterminated array"))
    }
}

/// Where the first chunk of `bytes` should end: before the last line in it that starts
/// with `[` and a digit (a hand's header), past `min` bytes; `None` when there is no such
/// line (the chunk must grow, or it is the file's last).
pub fn next_cut(bytes: &[u8], min: usize) -> Option<usize> {
    let mut end = bytes.len();
    while end > min {
        let at = bytes[min..end].iter().rposition(|&b| b == b'\n')? + min;
        if bytes.get(at + 1) == Some(&b'[') && bytes.get(at + 2).is_some_and(u8::is_ascii_digit) {
            return Some(at + 1);
        }
        end = at;
    }
    None
}

/// Reads one chunk of a `.phhs` file (or a whole file) that starts on line `first_line`,
/// calling `each` with every hand, in order, as it is read. `hand` is the hand the fast
/// reader reuses from call to call (its lists keep their buffers); hands of a chunk the fast
/// reader gives up on are read by the general reader and passed as it builds them. Once the
/// chunk is found to hold an error no more hands are passed (the file is refused).
pub fn read_chunk(
    text: &str,
    first_line: usize,
    file_start: bool,
    hand: &mut PhhHand,
    each: impl FnMut(&PhhHand),
) -> ChunkRead {
    // A `str` is UTF-8: the check cannot fail, and an error could not come of it.
    let mut each = each;
    read_chunk_with(
        text.as_bytes(),
        || Ok(text),
        (first_line, file_start),
        hand,
        &mut NoSink,
        |hand, _, _| each(hand),
    )
    .unwrap_or_default()
}

/// [`read_chunk`] on bytes not yet known to be UTF-8: the error when they are not, as
/// checking the whole chunk first would give, but without that pass over every byte when
/// the fast reader reads the chunk to its end (it checks what it reads: every byte it takes
/// is ASCII or in a string it checked). Hands passed to `each` before a chunk is found not
/// to be UTF-8 belong to a chunk that is refused: the caller drops what it made of them.
pub fn read_chunk_bytes(
    bytes: &[u8],
    first_line: usize,
    file_start: bool,
    hand: &mut PhhHand,
    each: impl FnMut(&PhhHand),
) -> Result<ChunkRead, std::str::Utf8Error> {
    let mut each = each;
    let text = || std::str::from_utf8(bytes);
    read_chunk_with(
        bytes,
        text,
        (first_line, file_start),
        hand,
        &mut NoSink,
        |hand, _, _| each(hand),
    )
}

/// [`read_chunk_bytes`], the actions of the hands the fast reader reads handed to `sink` as
/// they are read where it takes them: `each` then gets the hand with `true` (its `actions`
/// empty, the sink holding what they did), and otherwise with `false`, its actions listed.
pub(crate) fn read_chunk_to<S: HandSink>(
    bytes: &[u8],
    (first_line, file_start): (usize, bool),
    hand: &mut PhhHand,
    sink: &mut S,
    each: impl FnMut(&PhhHand, &mut S, bool),
) -> Result<ChunkRead, std::str::Utf8Error> {
    let text = || std::str::from_utf8(bytes);
    read_chunk_with(bytes, text, (first_line, file_start), hand, sink, each)
}

/// Reads `bytes` with the fast reader, and with the general reader (on `text()`, the same
/// bytes as a `str`) where the fast one gives up.
fn read_chunk_with<'t, S: HandSink>(
    bytes: &'t [u8],
    text: impl FnOnce() -> Result<&'t str, std::str::Utf8Error>,
    (first_line, file_start): (usize, bool),
    hand: &mut PhhHand,
    sink: &mut S,
    mut each: impl FnMut(&PhhHand, &mut S, bool),
) -> Result<ChunkRead, std::str::Utf8Error> {
    let mut fast = FastReader::new(bytes, first_line);
    let mut passed = 0;
    loop {
        match fast.next_hand_to(hand, sink) {
            Step::Hand => {
                each(hand, sink, false);
                passed += 1;
            }
            Step::Streamed => {
                each(hand, sink, true);
                passed += 1;
            }
            // A text without a header (a `.phh` file, an empty one) is the general reader's.
            Step::End if fast.headers.is_empty() => break,
            Step::End => {
                return Ok(ChunkRead {
                    headers: std::mem::take(&mut fast.headers),
                    file_start,
                    hands: passed,
                    ..ChunkRead::default()
                })
            }
            Step::Bail => break,
        }
    }
    let found = scan(text()?, first_line, file_start);
    let read = found.outcome(file_start);
    if read.syntax_error.is_none() && read.content_error.is_none() {
        for hand in found.hands.iter().skip(passed) {
            each(hand, sink, false);
        }
        if let Some(Ok(single)) = &found.single {
            each(single, sink, false);
        }
    }
    Ok(read)
}

/// Why a file cannot be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FileError {
    /// The error to report.
    Phh(PhhError),
    /// Hand `number` is given a second time on `line`; the caller finds its first line
    /// (see [`duplicate_hand`]): a file read in chunks keeps no line per hand number.
    Duplicate {
        /// The hand number.
        number: usize,
        /// The line of its second header.
        line: usize,
    },
}

/// The error for hand `number` given again on `line`, first on line `first`.
pub fn duplicate_hand(number: usize, line: usize, first: usize) -> PhhError {
    PhhError::on_line(
        Kind::Duplicate,
        line,
        format!("hand [{number}] appears twice (first on line {first})"),
    )
}

/// Judges a file from its chunks' findings, taken in file order: the file's outcome is what
/// reading it whole gives.
#[derive(Debug)]
pub struct FileReading {
    expect: Expect,
    /// The hand numbers seen, as runs `start → end` (a file numbers its hands in order:
    /// one run, however many hands).
    seen: BTreeMap<usize, usize>,
    first_header: Option<(usize, usize)>,
    prefix: Option<(String, Pos)>,
    syntax: Option<PhhError>,
    duplicate: Option<(usize, usize)>,
    content: Option<PhhError>,
    single: Option<PhhError>,
}

impl FileReading {
    /// A judge for a file read as `expect` says (`floor replay` reads either kind).
    pub(crate) fn new(expect: Expect) -> FileReading {
        FileReading {
            expect,
            seen: BTreeMap::new(),
            first_header: None,
            prefix: None,
            syntax: None,
            duplicate: None,
            content: None,
            single: None,
        }
    }

    /// A judge for a file that may be either kind, decided by whether it has headers (as
    /// [`super::parse_file`] reads it).
    pub fn either() -> FileReading {
        FileReading::new(Expect::Either)
    }

    /// Whether the file is already known to be refused (the chunks after need not be read
    /// for their hands, only for an earlier-placed error: none can come after a syntax
    /// error).
    pub fn decided(&self) -> bool {
        self.syntax.is_some() || self.duplicate.is_some()
    }

    /// Takes the next chunk's findings.
    pub fn add(&mut self, chunk: &ChunkRead) {
        if self.decided() {
            return;
        }
        let mut headers = chunk.headers.as_slice();
        while let Some(&(first, line)) = headers.first() {
            // The run of consecutive numbers that starts here (a whole chunk, in a file that
            // numbers its hands in order): noted at once when none of it was seen, where
            // noting each number was a search of the map per hand.
            let run = 1 + headers
                .windows(2)
                .take_while(|pair| pair[0].0.checked_add(1) == Some(pair[1].0))
                .count();
            let last = first + (run - 1);
            if self.run_is_new(first, last) {
                self.insert_run(first, last);
                self.first_header.get_or_insert((first, line));
            } else {
                for &(number, line) in &headers[..run] {
                    if !self.insert(number) {
                        self.duplicate = Some((number, line));
                        return;
                    }
                    self.first_header.get_or_insert((number, line));
                }
            }
            headers = &headers[run..];
        }
        if let Some(e) = &chunk.syntax_error {
            self.syntax = Some(e.clone());
            return;
        }
        if chunk.file_start {
            self.prefix.clone_from(&chunk.prefix);
            self.single.clone_from(&chunk.single_error);
        }
        if self.content.is_none() {
            self.content.clone_from(&chunk.content_error);
        }
    }

    /// Whether no number of `first..=last` was seen: the runs are apart, so only the last
    /// one starting at or before `last` can hold one.
    fn run_is_new(&self, first: usize, last: usize) -> bool {
        self.seen
            .range(..=last)
            .next_back()
            .is_none_or(|(_, &end)| end < first)
    }

    /// Notes the numbers `first..=last`, none of them seen before, joined to the runs they
    /// touch: the runs noting them one by one ([`Self::insert`]) leaves.
    fn insert_run(&mut self, first: usize, last: usize) {
        let start = match self.seen.range(..first).next_back() {
            Some((&start, &end)) if end + 1 == first => start,
            _ => first,
        };
        let end = self.seen.remove(&(last + 1)).unwrap_or(last);
        self.seen.insert(start, end);
    }

    /// Notes hand `number`; false when it was seen before.
    fn insert(&mut self, number: usize) -> bool {
        let before = self
            .seen
            .range(..=number)
            .next_back()
            .map(|(&s, &e)| (s, e));
        if before.is_some_and(|(_, end)| number <= end) {
            return false;
        }
        let after = self.seen.get(&(number + 1)).copied();
        match (before, after) {
            (Some((start, end)), Some(last)) if end + 1 == number => {
                self.seen.remove(&(number + 1));
                self.seen.insert(start, last);
            }
            (Some((start, end)), None) if end + 1 == number => {
                self.seen.insert(start, number);
            }
            (_, Some(last)) => {
                self.seen.remove(&(number + 1));
                self.seen.insert(number, last);
            }
            _ => {
                self.seen.insert(number, number);
            }
        }
        true
    }

    /// The file's outcome, once every chunk has been added.
    pub fn outcome(&self) -> Result<(), FileError> {
        if let Some((number, line)) = self.duplicate {
            return Err(FileError::Duplicate { number, line });
        }
        if let Some(e) = &self.syntax {
            return Err(FileError::Phh(e.clone()));
        }
        let Some((number, line)) = self.first_header else {
            // No header: one hand (or, where a .phhs file is expected, nothing).
            return match (self.expect, &self.prefix) {
                (Expect::Phhs, Some((key, pos))) => {
                    Err(FileError::Phh(outside_any_hand(key, *pos)))
                }
                (Expect::Phhs, None) => Ok(()),
                _ => self
                    .single
                    .clone()
                    .map_or(Ok(()), |e| Err(FileError::Phh(e))),
            };
        };
        if self.expect == Expect::Phh {
            return Err(FileError::Phh(PhhError::on_line(
                Kind::Syntax,
                line,
                format!("`[{number}]` starts a hand of a .phhs file; a .phh file holds one hand without headers (read it with parse_phhs or parse_file)"),
            )));
        }
        if let Some((key, pos)) = &self.prefix {
            return Err(FileError::Phh(outside_any_hand(key, *pos)));
        }
        self.content
            .clone()
            .map_or(Ok(()), |e| Err(FileError::Phh(e)))
    }
}
