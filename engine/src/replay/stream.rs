//! Replaying the hands of a chunk of a `.phhs` file as they are read: each action is played
//! as the reader reads it ([`HandSink`]), not written into the hand's list and read back,
//! which was a large part of replaying a corpus. The reader hands a hand's actions over only
//! where that gives what replaying the hand read whole gives (see the fast reader's
//! `stream` module); every other hand is replayed from its list, as [`Replayer::replay`]
//! replays it.

use super::SetupError;
use super::{finish_play, game_of, plain_seats, play_line, restart_plain, ReplayReport, Replayer};
use crate::phh::{read_chunk_to, Action, ChunkRead, HandSink, PhhHand};

impl HandSink for Replayer {
    const TAKES_ACTIONS: bool = true;

    /// Sets the hand up from a record whose set-up [`Replayer::replay`] takes without a
    /// configuration (the replayer's hand exists, the game is one floor plays, the seats
    /// are plain): what `replay` does before the first action. False for anything else,
    /// which `replay` then sets up itself (and reports the error of).
    fn start(&mut self, phh: &PhhHand) -> bool {
        let Some(hand) = &mut self.hand else {
            return false;
        };
        let Ok(game) = game_of(phh) else {
            return false;
        };
        if !plain_seats(phh, game) {
            return false;
        }
        restart_plain(hand, phh, game);
        self.report.reset();
        self.refused = false;
        true
    }

    #[inline]
    fn action(&mut self, index: usize, action: &Action, line: u32) {
        if self.refused {
            return;
        }
        if let Some(hand) = &mut self.hand {
            self.refused = !play_line(hand, &mut self.report, index, action, line);
        }
    }
}

impl Replayer {
    /// The end of the replay of a hand whose actions were played as they were read: what
    /// [`Replayer::replay`] does once every action is applied.
    fn finish_streamed(&mut self, phh: &PhhHand) -> &ReplayReport {
        if let (false, Some(hand)) = (self.refused, &mut self.hand) {
            finish_play(phh, hand, &mut self.report);
        }
        &self.report
    }
}

/// Reads a chunk of a `.phhs` file as [`crate::phh::read_chunk_bytes`] does, and replays
/// each hand with `replayer`: `each` gets the hand and what [`Replayer::replay`] gives for
/// it, in order. The hands the fast reader reads are played action by action as they are
/// read; their `actions` are then empty (the replay is the replayer's, as `replay` leaves
/// it), which is the one difference a caller sees.
pub fn replay_chunk(
    bytes: &[u8],
    (first_line, file_start): (usize, bool),
    hand: &mut PhhHand,
    replayer: &mut Replayer,
    mut each: impl FnMut(&PhhHand, Result<&ReplayReport, SetupError>),
) -> Result<ChunkRead, std::str::Utf8Error> {
    read_chunk_to(
        bytes,
        (first_line, file_start),
        hand,
        replayer,
        |phh, replayer, streamed| {
            if streamed {
                each(phh, Ok(replayer.finish_streamed(phh)));
            } else {
                each(phh, replayer.replay(phh));
            }
        },
    )
}
