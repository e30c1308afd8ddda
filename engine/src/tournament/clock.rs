//! The level clock (rule points `tournament.levels.change_timing` and `tournament.breaks`).
//!
//! The engine has no clock of its own: the caller passes the time that has elapsed, and the
//! clock says where in the structure the tournament is. A new level the clock reaches while
//! hands are being played applies **from the next hand** (pt-tournament Art. 23º, br-adtp-2012
//! rule 19): [`LevelClock::level_for_new_hand`] is what a table asks before it deals, and a
//! hand keeps the level it started with.

use super::structure::{Level, Structure};

/// Where the clock stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClockPosition {
    /// Playing a level (index from 0), with the seconds left in it (`None` on the last level,
    /// which never ends).
    Level {
        /// The level's index, from 0.
        index: usize,
        /// Seconds left in it.
        seconds_left: Option<u64>,
    },
    /// On a break after the level `after` (index from 0), with the seconds left.
    Break {
        /// The level the break follows (index from 0).
        after: usize,
        /// Seconds left in the break.
        seconds_left: u64,
    },
}

/// A level clock over a structure, driven by the elapsed seconds the caller passes in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LevelClock {
    structure: Structure,
    elapsed: u64,
}

impl LevelClock {
    /// A clock at the start of the first level.
    pub fn new(structure: Structure) -> LevelClock {
        LevelClock {
            structure,
            elapsed: 0,
        }
    }

    /// The structure.
    pub fn structure(&self) -> &Structure {
        &self.structure
    }

    /// Seconds since the start.
    pub fn elapsed(&self) -> u64 {
        self.elapsed
    }

    /// Lets `seconds` pass.
    pub fn advance(&mut self, seconds: u64) {
        self.elapsed = self.elapsed.saturating_add(seconds);
    }

    /// Sets the seconds left in the current level (the hand-for-hand clock: each hand counts a
    /// fixed time, pt-tournament Art. 79º(B)); zero moves to the next level.
    pub fn set_seconds_left(&mut self, seconds_left: u64) {
        if let ClockPosition::Level {
            seconds_left: Some(now),
            ..
        } = self.position()
        {
            self.elapsed = self.elapsed + now - seconds_left.min(now);
        }
    }

    /// Where the clock stands now.
    pub fn position(&self) -> ClockPosition {
        let mut t = self.elapsed;
        let last = self.structure.levels.len().saturating_sub(1);
        for (i, level) in self.structure.levels.iter().enumerate() {
            let len = u64::from(level.minutes) * 60;
            if i == last {
                return ClockPosition::Level {
                    index: i,
                    seconds_left: None,
                };
            }
            if t < len {
                return ClockPosition::Level {
                    index: i,
                    seconds_left: Some(len - t),
                };
            }
            t -= len;
            let pause: u64 = self
                .structure
                .breaks
                .iter()
                .filter(|b| b.after_level == i + 1)
                .map(|b| u64::from(b.minutes) * 60)
                .sum();
            if t < pause {
                return ClockPosition::Break {
                    after: i,
                    seconds_left: pause - t,
                };
            }
            t -= pause;
        }
        ClockPosition::Level {
            index: 0,
            seconds_left: None,
        }
    }

    /// The level a hand dealt now is played at, with its index; `None` during a break, when
    /// no hand is dealt.
    pub fn level_for_new_hand(&self) -> Option<(usize, &Level)> {
        match self.position() {
            ClockPosition::Level { index, .. } => Some((index, &self.structure.levels[index])),
            ClockPosition::Break { .. } => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tournament::structure::Break;

    fn structure() -> Structure {
        let level = |sb, bb, minutes| Level {
            small_blind: sb,
            big_blind: bb,
            ante: 0,
            big_blind_ante: false,
            minutes,
        };
        Structure {
            levels: vec![level(50, 100, 20), level(100, 200, 20), level(200, 400, 20)],
            breaks: vec![Break {
                after_level: 2,
                minutes: 10,
            }],
        }
    }

    #[test]
    fn art_23_the_clock_walks_levels_and_breaks() {
        let mut clock = LevelClock::new(structure());
        assert_eq!(clock.level_for_new_hand().map(|l| l.0), Some(0));
        clock.advance(20 * 60 - 1);
        assert_eq!(
            clock.position(),
            ClockPosition::Level {
                index: 0,
                seconds_left: Some(1)
            }
        );
        clock.advance(1);
        assert_eq!(clock.level_for_new_hand().map(|l| l.0), Some(1));
        clock.advance(20 * 60);
        assert!(matches!(
            clock.position(),
            ClockPosition::Break { after: 1, .. }
        ));
        assert!(clock.level_for_new_hand().is_none());
        clock.advance(10 * 60);
        assert_eq!(clock.level_for_new_hand().map(|l| l.0), Some(2));
        clock.advance(100_000);
        assert_eq!(clock.level_for_new_hand().map(|l| l.0), Some(2));
    }

    #[test]
    fn art_79_b_hand_for_hand_sets_the_seconds_left() {
        let mut clock = LevelClock::new(structure());
        clock.advance(5 * 60);
        clock.set_seconds_left(13 * 60);
        assert_eq!(
            clock.position(),
            ClockPosition::Level {
                index: 0,
                seconds_left: Some(13 * 60)
            }
        );
        clock.set_seconds_left(0);
        assert_eq!(clock.level_for_new_hand().map(|l| l.0), Some(1));
    }
}
