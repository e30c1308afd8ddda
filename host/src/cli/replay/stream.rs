//! Reading PHH files in chunks on several threads, each hand handed to a worker as it is
//! read, the workers' findings taken back in file order.
//!
//! The files are read in order, a chunk at a time (up to about a megabyte, sized by
//! [`Buffers::next_size`], cut before a hand's header: `floor_engine::phh::next_cut`), and
//! the chunks are numbered. Each of the `jobs` workers (each with its own replayer and its
//! own reused hand) reads the next chunk itself, in turn ([`Reading`], behind a lock), then
//! replays it; the calling thread takes their findings back in chunk order, judges each
//! file's chunks as reading it whole would ([`FileReading`]) and hands each chunk's tally to
//! the caller. At most a few chunks per worker are in memory at once, whatever the size of
//! the files: memory is bounded by the chunk size (and by the largest single hand).
//!
//! Why the workers read, not a thread of their own: a worker then replays the bytes it has
//! just copied from the file, on its own processor, and no thread waits to be handed a
//! chunk or woken to read one. A reading thread handing chunks to the workers made the whole
//! command about 1% slower (docs/BENCHMARKS.md).
//!
//! A chunk's buffer goes back to the reading side once its findings are taken, to be filled
//! again ([`Buffers`]): after the first few chunks, reading a file allocates nothing and
//! touches no fresh page, and the bytes are read straight into the buffer (never zeroed
//! first).

use super::super::CliError;
use super::buffers::Buffers;
use floor_engine::phh::{
    duplicate_hand, next_cut, read_chunk, read_chunk_bytes, ChunkRead, FileError, FileReading,
    PhhHand,
};
use std::collections::BTreeMap;
use std::io::Read;
use std::sync::mpsc;

/// One input: a file, or text built into the binary.
pub(super) struct Input {
    /// The name reports give it (the path as given).
    pub name: String,
    /// The built-in text, or `None` to read the file `name`.
    pub text: Option<&'static str>,
}

impl Input {
    /// Its size in bytes: the built-in text's, or the file's when reading begins; `None`
    /// for what is not a plain file (a pipe has no size to tell) or cannot be looked at.
    pub(super) fn bytes(&self) -> Option<u64> {
        match self.text {
            Some(text) => Some(text.len() as u64),
            None => std::fs::metadata(&self.name)
                .ok()
                .filter(std::fs::Metadata::is_file)
                .map(|meta| meta.len()),
        }
    }

    /// Its bytes to read: the built-in text, or the file opened.
    fn open(&self) -> std::io::Result<Box<dyn Read + Send>> {
        Ok(match self.text {
            Some(text) => Box::new(text.as_bytes()),
            None => Box::new(std::fs::File::open(&self.name)?),
        })
    }
}

/// What a worker makes of a chunk's hands: a tally the caller merges in file order.
pub(super) trait Tally: Send + Default + 'static {}
impl<T: Send + Default + 'static> Tally for T {}

/// What a worker does with the chunks and hands it reads (each worker has its own).
pub(super) trait Worker<T> {
    /// One hand read, into the chunk's tally.
    fn hand(&mut self, phh: &PhhHand, tally: &mut T);

    /// A chunk's bytes, which start on line `first_line` (and start their file when
    /// `file_start`): read as [`read_chunk_bytes`] reads them, each hand to
    /// [`Worker::hand`], unless the worker reads them its own way.
    fn chunk(
        &mut self,
        bytes: &[u8],
        (first_line, file_start): (usize, bool),
        hand: &mut PhhHand,
        tally: &mut T,
    ) -> Result<ChunkRead, std::str::Utf8Error> {
        read_chunk_bytes(bytes, first_line, file_start, hand, |h| self.hand(h, tally))
    }
}

/// A worker that hands every hand to a function.
pub(super) struct EachHand<F>(pub F);

impl<T, F: FnMut(&PhhHand, &mut T)> Worker<T> for EachHand<F> {
    fn hand(&mut self, phh: &PhhHand, tally: &mut T) {
        (self.0)(phh, tally);
    }
}

/// A chunk to read.
struct Work {
    file: usize,
    seq: usize,
    text: Vec<u8>,
    first_line: usize,
    file_start: bool,
}

/// What came of a chunk, or of a file that could not be read. A chunk is by far the
/// commonest message, so it is not boxed to make the rare ones smaller.
#[allow(clippy::large_enum_variant)]
enum Done<T> {
    Chunk {
        file: usize,
        seq: usize,
        text: Vec<u8>,
        first_line: usize,
        file_start: bool,
        read: Result<ChunkRead, std::io::Error>,
        tally: T,
    },
    /// A file could not be opened or read: nothing more comes of it.
    Failed {
        file: usize,
        seq: usize,
        error: std::io::Error,
    },
    /// Every chunk of `file` has been sent, the last numbered `seq - 1`.
    End { file: usize, seq: usize },
}

impl<T> Done<T> {
    fn seq(&self) -> usize {
        match self {
            Done::Chunk { seq, .. } | Done::Failed { seq, .. } | Done::End { seq, .. } => *seq,
        }
    }
}

/// Reads and replays every input; `work(hand, tally)` runs on a worker for every hand read
/// (each worker makes its own with `worker()`), and `take(file, tally, bytes)` on this
/// thread for every chunk, in file order, with the chunk's size (for a progress report).
/// Returns the first error in file order: a file that cannot be read before any that
/// cannot be parsed, as reading every file first and then parsing each would report.
pub(super) fn replay_files<T, W>(
    inputs: &[Input],
    jobs: usize,
    worker: &(dyn Fn() -> W + Sync),
    take: &mut dyn FnMut(usize, T, u64),
) -> Result<(), CliError>
where
    T: Tally,
    W: Worker<T>,
{
    let jobs = jobs.max(1);
    let (done_tx, done_rx) = mpsc::channel::<Done<T>>();
    let (spare_tx, spare_rx) = mpsc::channel::<Vec<u8>>();
    // A chunk at each worker, one being read and its rest, the merging side's pending
    // chunks and the one it holds.
    let limit = jobs * 3 + 3;
    let buffers = Buffers::new(spare_rx, limit, input_bytes(inputs), jobs);
    let reading = std::sync::Mutex::new(Reading::new(inputs, buffers));
    std::thread::scope(|scope| {
        for _ in 0..jobs {
            let (reading, tx) = (&reading, done_tx.clone());
            scope.spawn(move || {
                let mut replay = worker();
                let mut hand = PhhHand::default();
                loop {
                    // Each worker reads its own next chunk, in turn (the module's
                    // documentation says why).
                    let next = match reading.lock() {
                        Ok(mut reading) => reading.next_work(&tx),
                        Err(_) => return,
                    };
                    let Some(work) = next else { return };
                    let mut tally = T::default();
                    // The bytes are checked to be UTF-8 as they are read (see
                    // `read_chunk_bytes`): a chunk that is not is refused with its tally.
                    let read = replay
                        .chunk(
                            &work.text,
                            (work.first_line, work.file_start),
                            &mut hand,
                            &mut tally,
                        )
                        .map_err(|_| invalid_utf8());
                    let done = Done::Chunk {
                        file: work.file,
                        seq: work.seq,
                        text: work.text,
                        first_line: work.first_line,
                        file_start: work.file_start,
                        read,
                        tally,
                    };
                    if tx.send(done).is_err() {
                        return;
                    }
                }
            });
        }
        drop(done_tx);
        let mut merge = Merge::new(inputs, spare_tx);
        let mut pending: BTreeMap<usize, Done<T>> = BTreeMap::new();
        let mut next = 0;
        for done in done_rx {
            pending.insert(done.seq(), done);
            while let Some(done) = pending.remove(&next) {
                next += 1;
                merge.take(done, worker, take);
            }
        }
        merge.finish()
    })
}

/// The bytes of every input, for sizing the last chunks; an input of no known size (a
/// pipe) counts as endless.
fn input_bytes(inputs: &[Input]) -> u64 {
    let size = |input: &Input| input.bytes().unwrap_or(u64::MAX);
    inputs.iter().map(size).fold(0, u64::saturating_add)
}

/// The error std gives when a file is not UTF-8 (`read_to_string`'s).
fn invalid_utf8() -> std::io::Error {
    std::io::Error::new(
        std::io::ErrorKind::InvalidData,
        "stream did not contain valid UTF-8",
    )
}

/// The inputs read in order, a chunk at a time, by whichever worker asks next.
struct Reading<'a> {
    inputs: &'a [Input],
    /// The next input to open.
    next_file: usize,
    /// The input being read, and its chunker.
    current: Option<(usize, Chunker)>,
    /// The number of the next chunk or message.
    seq: usize,
    buffers: Buffers,
}

impl<'a> Reading<'a> {
    fn new(inputs: &'a [Input], buffers: Buffers) -> Reading<'a> {
        Reading {
            inputs,
            next_file: 0,
            current: None,
            seq: 0,
            buffers,
        }
    }

    /// The next chunk in input order; each input's end, or failure, is sent to `done` on
    /// the way. `None` once every input is read.
    fn next_work<T>(&mut self, done: &mpsc::Sender<Done<T>>) -> Option<Work> {
        loop {
            let Some((file, chunker)) = self.current.as_mut() else {
                let file = self.next_file;
                let input = self.inputs.get(file)?;
                self.next_file += 1;
                match input.open() {
                    Ok(source) => {
                        let chunker = Chunker::new(source, &mut self.buffers);
                        self.current = Some((file, chunker));
                    }
                    Err(error) => self.send(done, |seq| Done::Failed { file, seq, error }),
                }
                continue;
            };
            let file = *file;
            match chunker.next_chunk(&mut self.buffers) {
                Ok(Some((text, first_line, file_start))) => {
                    return Some(Work {
                        file,
                        seq: self.number(),
                        text,
                        first_line,
                        file_start,
                    });
                }
                Ok(None) => {
                    if let Some((_, chunker)) = self.current.take() {
                        chunker.finish(&mut self.buffers);
                    }
                    self.send(done, |seq| Done::End { file, seq });
                }
                Err(error) => {
                    self.current = None;
                    self.send(done, |seq| Done::Failed { file, seq, error });
                }
            }
        }
    }

    /// A message numbered in turn with the chunks.
    fn send<T>(&mut self, done: &mpsc::Sender<Done<T>>, message: impl FnOnce(usize) -> Done<T>) {
        let _ = done.send(message(self.number()));
    }

    /// The number of the next chunk or message, taken.
    fn number(&mut self) -> usize {
        self.seq += 1;
        self.seq - 1
    }
}

/// A source cut into chunks of the size [`Buffers::next_size`] gives, each ending before a
/// hand's header (or at the end), with the line each starts on.
struct Chunker {
    source: Box<dyn Read + Send>,
    buf: Vec<u8>,
    first_line: usize,
    file_start: bool,
    eof: bool,
}

impl Chunker {
    fn new(source: Box<dyn Read + Send>, buffers: &mut Buffers) -> Chunker {
        let buf = buffers.take();
        Chunker {
            source,
            buf,
            first_line: 1,
            file_start: true,
            eof: false,
        }
    }

    /// Reads until the buffer holds `want` bytes or the source ends. The bytes go straight
    /// into the buffer's spare room (`read_to_end` reads into it without zeroing it).
    fn fill(&mut self, want: usize) -> std::io::Result<()> {
        if self.eof || self.buf.len() >= want {
            return Ok(());
        }
        let missing = want - self.buf.len();
        self.buf.reserve(missing);
        let read = (&mut *self.source)
            .take(missing as u64)
            .read_to_end(&mut self.buf)?;
        // Fewer bytes than asked for: the source has ended.
        self.eof = read < missing;
        Ok(())
    }

    /// The buffer left at the end of the source, kept for the next file.
    fn finish(self, buffers: &mut Buffers) {
        buffers.keep(self.buf);
    }

    /// The next chunk: its bytes, its first line, and whether it starts the file; `None` at
    /// the end. An empty source is one empty chunk (it is a file to judge too).
    fn next_chunk(
        &mut self,
        buffers: &mut Buffers,
    ) -> std::io::Result<Option<(Vec<u8>, usize, bool)>> {
        let mut want = buffers.next_size();
        let cut = loop {
            self.fill(want)?;
            if self.eof {
                break self.buf.len();
            }
            match next_cut(&self.buf, 0).filter(|&c| c > 0) {
                Some(cut) => break cut,
                // One hand larger than a chunk: read on.
                None => want = self.buf.len() * 2,
            }
        };
        if cut == 0 && !self.file_start {
            return Ok(None);
        }
        buffers.cut(cut);
        let mut rest = buffers.take();
        rest.extend_from_slice(&self.buf[cut..]);
        self.buf.truncate(cut);
        let text = std::mem::replace(&mut self.buf, rest);
        let first_line = self.first_line;
        let file_start = self.file_start;
        self.first_line += count_newlines(&text);
        self.file_start = false;
        Ok(Some((text, first_line, file_start)))
    }
}

/// How many `\n` bytes `bytes` holds: the reading side counts every byte of every file
/// (to number each chunk's lines), so it is counted with `memchr`'s vectorised count, not a
/// byte at a time (which was a tenth of the whole command's work).
fn count_newlines(bytes: &[u8]) -> usize {
    memchr::memchr_iter(b'\n', bytes).count()
}

/// The merging side: judges each file from its chunks, in order.
struct Merge<'a> {
    inputs: &'a [Input],
    /// Where the buffers of chunks taken go back to the reading side.
    spare: mpsc::Sender<Vec<u8>>,
    judge: Option<FileReading>,
    /// A chunk that ended inside an array, kept to be read again with the next.
    joined: Option<(Vec<u8>, usize, bool)>,
    read_error: Option<CliError>,
    parse_error: Option<CliError>,
}

impl<'a> Merge<'a> {
    fn new(inputs: &'a [Input], spare: mpsc::Sender<Vec<u8>>) -> Merge<'a> {
        Merge {
            inputs,
            spare,
            judge: None,
            joined: None,
            read_error: None,
            parse_error: None,
        }
    }

    fn take<T: Tally, W: Worker<T>>(
        &mut self,
        done: Done<T>,
        worker: &(dyn Fn() -> W + Sync),
        take: &mut dyn FnMut(usize, T, u64),
    ) {
        match done {
            Done::Chunk {
                file,
                text,
                first_line,
                file_start,
                read,
                tally,
                ..
            } => {
                let bytes = text.len() as u64;
                let judge = self.judge.get_or_insert_with(FileReading::either);
                let read = match read {
                    Ok(read) => read,
                    Err(error) => {
                        self.give_back(text);
                        self.note_read_error(file, error);
                        return;
                    }
                };
                if let Some((mut before, line, start)) = self.joined.take() {
                    // Read again, joined to the chunk that ended inside an array.
                    before.extend_from_slice(&text);
                    self.give_back(text);
                    self.read_joined(file, (before, line, start), false, worker, take);
                    return;
                }
                if read.ends_in_array() {
                    self.joined = Some((text, first_line, file_start));
                    return;
                }
                if !judge.decided() {
                    judge.add(&read);
                }
                take(file, tally, bytes);
                self.give_back(text);
            }
            Done::Failed { file, error, .. } => self.note_read_error(file, error),
            Done::End { file, .. } => {
                if let Some(joined) = self.joined.take() {
                    // The last chunk ended inside an array: its error stands.
                    self.read_joined(file, joined, true, worker, take);
                }
                if let Some(judge) = self.judge.take() {
                    if let Err(error) = judge.outcome() {
                        self.note_parse_error(file, error);
                    }
                }
            }
        }
    }

    /// Reads text made of chunks joined (serially: a rare case), then judges it; unless
    /// it still ends inside an array and more of the file is to come (`last` is false).
    fn read_joined<T: Tally, W: Worker<T>>(
        &mut self,
        file: usize,
        (text, first_line, file_start): (Vec<u8>, usize, bool),
        last: bool,
        worker: &(dyn Fn() -> W + Sync),
        take: &mut dyn FnMut(usize, T, u64),
    ) {
        let bytes = text.len() as u64;
        let Ok(text_str) = std::str::from_utf8(&text) else {
            self.give_back(text);
            self.note_read_error(file, invalid_utf8());
            return;
        };
        let mut replay = worker();
        let mut tally = T::default();
        let mut hand = PhhHand::default();
        let read = read_chunk(text_str, first_line, file_start, &mut hand, |h| {
            replay.hand(h, &mut tally)
        });
        if read.ends_in_array() && !last {
            self.joined = Some((text, first_line, file_start));
            return;
        }
        let judge = self.judge.get_or_insert_with(FileReading::either);
        if !judge.decided() {
            judge.add(&read);
        }
        take(file, tally, bytes);
        self.give_back(text);
    }

    /// A chunk's buffer, back to the reading side to be filled again (every buffer the
    /// merging side takes goes back: the reading side waits for them). Ignored when the
    /// reading has finished: the buffer is then freed.
    fn give_back(&self, text: Vec<u8>) {
        let _ = self.spare.send(text);
    }

    fn note_read_error(&mut self, file: usize, source: std::io::Error) {
        self.judge = None;
        self.joined = None;
        if self.read_error.is_none() {
            self.read_error = Some(CliError::Read {
                path: self.inputs[file].name.clone(),
                source,
            });
        }
    }

    fn note_parse_error(&mut self, file: usize, error: FileError) {
        if self.parse_error.is_some() {
            return;
        }
        let input = &self.inputs[file];
        let error = match error {
            FileError::Phh(e) => e,
            FileError::Duplicate { number, line } => duplicate_hand(
                number,
                line,
                first_header_line(input, number).unwrap_or(line),
            ),
        };
        // `file:line:col: message`, as every other input file's error reads (a problem that
        // belongs to a whole hand has no column: `file:line: message`).
        let at = match error.col {
            Some(col) => format!("{}:{col}", error.line),
            None => error.line.to_string(),
        };
        self.parse_error = Some(CliError::Parse {
            path: input.name.clone(),
            error: format!("{at}: {}", error.message),
        });
    }

    fn finish(self) -> Result<(), CliError> {
        match (self.read_error, self.parse_error) {
            (Some(e), _) | (None, Some(e)) => Err(e),
            (None, None) => Ok(()),
        }
    }
}

/// The line of hand `number`'s first header in `input`, found by reading it again chunk by
/// chunk (only when a hand number repeats: a file read in chunks keeps no line per number).
fn first_header_line(input: &Input, number: usize) -> Option<usize> {
    let mut buffers = Buffers::unbounded();
    let mut chunks = Chunker::new(input.open().ok()?, &mut buffers);
    let mut hand = PhhHand::default();
    while let Some((bytes, first_line, file_start)) = chunks.next_chunk(&mut buffers).ok()? {
        let text = std::str::from_utf8(&bytes).ok()?;
        let read = read_chunk(text, first_line, file_start, &mut hand, |_| {});
        if let Some(&(_, line)) = read.headers.iter().find(|&&(n, _)| n == number) {
            return Some(line);
        }
    }
    None
}
