//! What a tournament clock on the wall shows beyond the level in play: the level that comes
//! next, the next break and how long until it, and the average stack. Computed here from the
//! announced structure and the clock, so that a screen only displays them.

use super::view::LevelView;
use crate::tournament::clock::ClockPosition;
use crate::tournament::structure::Structure;
use crate::Chips;
use serde::Serialize;

/// The next break of the structure.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct NextBreak {
    /// The level (from 1) it follows.
    pub after_level: usize,
    /// Its length in minutes.
    pub minutes: u32,
    /// Seconds of play until it starts (the rest of the level in play and the whole of the
    /// levels between).
    pub seconds_until: u64,
}

/// The level after the one in play (or after the break in progress), its `seconds_left` the
/// whole of its length; `None` on the last level.
pub fn next_level(structure: &Structure, position: ClockPosition) -> Option<LevelView> {
    let index = match position {
        ClockPosition::Level { index, .. } => index + 1,
        ClockPosition::Break { after, .. } => after + 1,
    };
    let l = structure.levels.get(index)?;
    Some(LevelView {
        number: index + 1,
        small_blind: l.small_blind,
        big_blind: l.big_blind,
        ante: l.ante,
        seconds_left: (index + 1 < structure.levels.len()).then_some(u64::from(l.minutes) * 60),
    })
}

/// The first break still to come while a level is played (`None` on a break, on the last
/// level, or when no break remains).
pub fn next_break(structure: &Structure, position: ClockPosition) -> Option<NextBreak> {
    let ClockPosition::Level {
        index,
        seconds_left: Some(left),
    } = position
    else {
        return None;
    };
    let number = index + 1;
    let b = structure
        .breaks
        .iter()
        .filter(|b| b.after_level >= number)
        .min_by_key(|b| b.after_level)?;
    let between: u64 = structure
        .levels
        .iter()
        .take(b.after_level)
        .skip(number)
        .map(|l| u64::from(l.minutes) * 60)
        .sum();
    Some(NextBreak {
        after_level: b.after_level,
        minutes: b.minutes,
        seconds_until: left + between,
    })
}

/// The average stack: the chips in play over the players still in, rounded down (`None`
/// with no one in).
pub fn average_stack(in_play: Chips, players_left: u32) -> Option<Chips> {
    (players_left > 0).then(|| in_play / Chips::from(players_left))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tournament::structure::{Break, Level};

    fn structure() -> Structure {
        let level = |bb: Chips, minutes| Level {
            small_blind: bb / 2,
            big_blind: bb,
            ante: 0,
            big_blind_ante: false,
            minutes,
        };
        Structure {
            levels: vec![
                level(50, 20),
                level(100, 20),
                level(200, 30),
                level(400, 30),
            ],
            breaks: vec![Break {
                after_level: 3,
                minutes: 15,
            }],
        }
    }

    #[test]
    fn the_next_break_counts_the_rest_of_this_level_and_the_whole_of_those_between() {
        let at = ClockPosition::Level {
            index: 0,
            seconds_left: Some(300),
        };
        let b = next_break(&structure(), at).expect("a break after level 3");
        assert_eq!(
            b,
            NextBreak {
                after_level: 3,
                minutes: 15,
                seconds_until: 300 + 20 * 60 + 30 * 60
            }
        );
        let on_it = ClockPosition::Level {
            index: 2,
            seconds_left: Some(60),
        };
        assert_eq!(
            next_break(&structure(), on_it).map(|b| b.seconds_until),
            Some(60)
        );
        let after = ClockPosition::Level {
            index: 3,
            seconds_left: None,
        };
        assert_eq!(next_break(&structure(), after), None, "no break remains");
    }

    #[test]
    fn the_next_level_follows_the_level_or_the_break_in_progress() {
        let at = ClockPosition::Level {
            index: 1,
            seconds_left: Some(10),
        };
        let next = next_level(&structure(), at).expect("level 3");
        assert_eq!(
            (next.number, next.big_blind, next.seconds_left),
            (3, 200, Some(1800))
        );
        let on_break = ClockPosition::Break {
            after: 2,
            seconds_left: 5,
        };
        let next = next_level(&structure(), on_break).expect("level 4");
        assert_eq!(
            (next.number, next.seconds_left),
            (4, None),
            "the last level never ends"
        );
        let last = ClockPosition::Level {
            index: 3,
            seconds_left: None,
        };
        assert!(next_level(&structure(), last).is_none());
    }

    #[test]
    fn the_average_stack_is_the_chips_in_play_over_the_players_left() {
        assert_eq!(average_stack(10_000, 3), Some(3333));
        assert_eq!(average_stack(10_000, 0), None);
    }
}
