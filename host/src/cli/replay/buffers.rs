//! The buffers the workers read chunks into, and the size of the chunks.
//!
//! A chunk's buffer comes back from the merging side once its findings are taken, and is
//! filled again. Once a few buffers are made, the reading side waits for one to come back
//! rather than make another: a new buffer costs more than its bytes, because the kernel
//! zeroes its pages on first touch (with the allocator's huge pages, 2 MB at a time), and a
//! reader that ran ahead of a merging side not yet scheduled made twice the buffers the
//! queue needs. `perf` put the kernel's zeroing of fresh pages at 4.5% of a replay's samples
//! with buffers made whenever none was back, and 0.8% with these.

use std::sync::mpsc;
use std::time::Duration;

/// The size of a chunk: large enough that the hand-off costs nothing beside the reading,
/// small enough that a few per worker stay in the processor's larger caches.
pub(super) const CHUNK: usize = 1 << 20;

/// The smallest chunk read, at the start and at the end of the inputs.
const SMALLEST: usize = CHUNK >> 4;

/// How long the reading side waits for a buffer before it makes one anyway. A buffer is
/// back as soon as the chunks before it are replayed; this bounds the wait when a chunk
/// takes longer than that, or a worker has stopped.
const SPARE_WAIT: Duration = Duration::from_millis(100);

/// The buffers chunks are read into, and the size of the next chunk.
pub(super) struct Buffers {
    /// Buffers the merging side gives back.
    spare: mpsc::Receiver<Vec<u8>>,
    /// Buffers left at the end of a file.
    kept: Vec<Vec<u8>>,
    /// Buffers made so far, and how many may be made before waiting for one.
    made: usize,
    limit: usize,
    /// Chunks sized so far; the bytes of the inputs not yet cut into chunks (an estimate:
    /// the files' sizes when reading began); the workers sharing the chunks.
    sized: u32,
    left: u64,
    jobs: u64,
}

impl Buffers {
    /// Buffers given back through `spare`, of which `limit` are made before the reading
    /// side waits for one; `bytes` to read in all, by `jobs` workers.
    pub(super) fn new(
        spare: mpsc::Receiver<Vec<u8>>,
        limit: usize,
        bytes: u64,
        jobs: usize,
    ) -> Buffers {
        Buffers {
            spare,
            kept: Vec::new(),
            made: 0,
            limit,
            sized: 0,
            left: bytes,
            jobs: jobs.max(1) as u64,
        }
    }

    /// Buffers that are never given back, read in whole chunks (for reading one file
    /// again on the calling thread).
    pub(super) fn unbounded() -> Buffers {
        let mut buffers = Buffers::new(mpsc::channel().1, usize::MAX, u64::MAX, 1);
        buffers.sized = u32::MAX;
        buffers
    }

    /// An empty buffer with room for a chunk: one kept or given back, or a new one.
    pub(super) fn take(&mut self) -> Vec<u8> {
        let back = match self.kept.pop() {
            Some(buf) => Some(buf),
            None if self.made < self.limit => self.spare.try_recv().ok(),
            None => self.spare.recv_timeout(SPARE_WAIT).ok(),
        };
        let mut buf = back.unwrap_or_else(|| {
            self.made += 1;
            Vec::new()
        });
        buf.clear();
        buf.reserve(CHUNK + CHUNK / 4);
        buf
    }

    /// A buffer finished with at the end of a file.
    pub(super) fn keep(&mut self, buf: Vec<u8>) {
        if buf.capacity() > 0 {
            self.kept.push(buf);
        }
    }

    /// How many bytes to read for the next chunk. The first chunks are small, from a
    /// sixteenth of [`CHUNK`], doubling: every worker waits for its first chunk, and a small
    /// one is read and cut at once. The last are small too, a share of what is left: a
    /// worker that has finished while another replays a whole chunk waits idle.
    pub(super) fn next_size(&mut self) -> usize {
        let first = SMALLEST << self.sized.min(4);
        self.sized = self.sized.saturating_add(1);
        let last = usize::try_from(self.left / (self.jobs * 4)).unwrap_or(CHUNK);
        first.min(last).max(SMALLEST)
    }

    /// `bytes` of the inputs were cut into a chunk.
    pub(super) fn cut(&mut self, bytes: usize) {
        self.left = self.left.saturating_sub(bytes as u64);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chunks_grow_from_a_sixteenth_and_shrink_to_a_share_of_what_is_left() {
        let mut buffers = Buffers::new(mpsc::channel().1, 4, 100 * CHUNK as u64, 2);
        let mut sizes = Vec::new();
        let mut left = 100 * CHUNK;
        while left > 0 {
            // The last chunk is what the file has left.
            let size = buffers.next_size().min(left);
            sizes.push(size);
            buffers.cut(size);
            left -= size;
        }
        let first: Vec<usize> = sizes.iter().take(6).map(|s| s / SMALLEST).collect();
        assert_eq!(first, [1, 2, 4, 8, 16, 16], "{sizes:?}");
        // Two workers: an eighth of what is left once that is under eight chunks.
        let last: Vec<usize> = sizes.iter().rev().take(12).rev().copied().collect();
        assert!(last.windows(2).all(|w| w[0] >= w[1]), "{last:?}");
        assert!(
            last.iter().rev().take(4).all(|&s| s <= SMALLEST),
            "{last:?}"
        );
        let whole = &sizes[..sizes.len() - 1];
        assert!(whole.iter().all(|&s| (SMALLEST..=CHUNK).contains(&s)));
        assert_eq!(buffers.left, 0);
    }

    #[test]
    fn reading_again_reads_whole_chunks() {
        let mut buffers = Buffers::unbounded();
        assert_eq!(buffers.next_size(), CHUNK);
        buffers.cut(CHUNK);
        assert_eq!(buffers.next_size(), CHUNK);
    }

    #[test]
    fn a_buffer_given_back_is_filled_again_and_none_is_made_past_the_limit() {
        let (give, spare) = mpsc::channel();
        let mut buffers = Buffers::new(spare, 2, u64::MAX, 1);
        let a = buffers.take();
        let b = buffers.take();
        assert!(a.capacity() >= CHUNK + CHUNK / 4);
        assert_eq!(buffers.made, 2);
        let at = a.as_ptr();
        give.send(a).expect("the reading side listens");
        let again = buffers.take();
        assert_eq!(again.as_ptr(), at, "the buffer given back, not a new one");
        assert_eq!(buffers.made, 2);
        // One kept at a file's end is taken first.
        let kept_at = b.as_ptr();
        buffers.keep(b);
        let kept = buffers.take();
        assert_eq!(kept.as_ptr(), kept_at);
        assert_eq!(buffers.made, 2);
    }

    #[test]
    fn at_the_limit_with_nothing_given_back_a_buffer_is_made_after_the_wait() {
        let (_give, spare) = mpsc::channel();
        let mut buffers = Buffers::new(spare, 1, u64::MAX, 1);
        let _held = buffers.take();
        let started = std::time::Instant::now();
        let _another = buffers.take();
        assert!(started.elapsed() >= SPARE_WAIT);
        assert_eq!(buffers.made, 2);
    }
}
