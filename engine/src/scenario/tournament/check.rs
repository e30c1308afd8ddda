//! A tournament scenario's `Check` step: the state compared, field by field, with what the
//! scenario expects.

use super::TournamentStep;
use crate::tournament::runtime::Tournament;
use std::collections::BTreeMap;

/// A step's failure, in the words of the step.
type Fail<'a> = &'a dyn Fn(String) -> String;

/// A `Check` step: every field given must match the state.
pub(super) fn check_state(
    t: &Tournament,
    step: &TournamentStep,
    fail: Fail,
    failures: &mut Vec<String>,
) {
    let TournamentStep::Check {
        blinds,
        next_button,
        tables,
        players_left,
        level,
        hand_for_hand,
        chips,
        finished,
        on_break,
        hands,
        clock,
    } = step
    else {
        return;
    };
    let mut differs = |what: String| failures.push(fail(what));
    let sizes: Vec<usize> = t.table_sizes().into_iter().map(|x| x.1).collect();
    if let Some(want) = tables.as_ref().filter(|w| **w != sizes) {
        differs(format!("tables seat {sizes:?}, expected {want:?}"));
    }
    if let Some(want) = players_left.filter(|w| *w != t.players_left()) {
        differs(format!(
            "{} players left, expected {want}",
            t.players_left()
        ));
    }
    let got = t.clock().level_for_new_hand().map(|l| l.0 + 1);
    if let Some(want) = level.filter(|w| got != Some(*w)) {
        differs(format!("level {got:?}, expected {want}"));
    }
    if let Some(want) = hand_for_hand.filter(|w| *w != t.hand_for_hand()) {
        differs(format!(
            "hand-for-hand is {}, expected {want}",
            t.hand_for_hand()
        ));
    }
    if let Some(want) = chips.filter(|w| t.chips_in_play() != *w || t.chips_at_tables() != *w) {
        differs(format!(
            "{} chips in play, {} at the tables, expected {want}",
            t.chips_in_play(),
            t.chips_at_tables()
        ));
    }
    let got = t.clock().level_for_new_hand().is_none();
    if let Some(want) = on_break.filter(|w| got != *w) {
        differs(format!("on a break: {got}, expected {want}"));
    }
    let got = t
        .clock()
        .level_for_new_hand()
        .map(|(_, l)| (l.small_blind, l.big_blind, l.ante));
    if let Some(want) = blinds.filter(|w| got != Some(*w)) {
        differs(format!("blinds and ante {got:?}, expected {want:?}"));
    }
    if let Some(want) = next_button {
        let got: BTreeMap<u32, usize> = t
            .tables
            .iter()
            .filter_map(|x| t.next_button(x.number).map(|s| (x.number, s + 1)))
            .collect();
        if got != *want {
            differs(format!("next buttons {got:?}, expected {want:?}"));
        }
    }
    if let Some(want) = hands.filter(|w| t.hands_played() != *w) {
        differs(format!("{} hands dealt, expected {want}", t.hands_played()));
    }
    if let Some(want) = clock {
        let got = clock_reading(t.clock().position());
        if got != *want {
            differs(format!("the clock shows {got}, expected {want}"));
        }
    }
    if finished.is_some_and(|w| (t.players_left() == 1) != w) {
        differs(format!("{} players left", t.players_left()));
    }
}

/// What the level clock shows: the minutes and seconds left in the level or break
/// (`"13:00"`), or `"last level"` on the last level, which never ends.
fn clock_reading(position: crate::tournament::clock::ClockPosition) -> String {
    use crate::tournament::clock::ClockPosition;
    let left = match position {
        ClockPosition::Level { seconds_left, .. } => seconds_left,
        ClockPosition::Break { seconds_left, .. } => Some(seconds_left),
    };
    match left {
        Some(s) => format!("{}:{:02}", s / 60, s % 60),
        None => "last level".into(),
    }
}
