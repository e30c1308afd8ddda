//! Bounds on what a scenario file may ask, checked when it is read: every count and duration
//! has a limit, so that no file can make `floor scenario` or `floor test` run without end or
//! allocate without limit. A value out of bounds is an error at the field's line and column.

use super::cash::CashStep;
use super::format::{Scenario, ScenarioError};
use super::tournament::TournamentStep;

/// Steps of one scenario (a hand's, a cash session's or a tournament's).
pub const MAX_STEPS: usize = 10_000;
/// Entries of a tournament scenario.
pub const MAX_ENTRIES: usize = 10_000;
/// Seats of a tournament table: a hand deals 2 to 23 players.
pub const SEATS_PER_TABLE: std::ops::RangeInclusive<usize> = 2..=23;
/// Levels of a tournament structure.
pub const MAX_LEVELS: usize = 1_000;
/// Rounds one `Play` step may play.
pub const MAX_ROUNDS: u32 = 100_000;
/// Players one elimination step may name or eliminate.
pub const MAX_ELIMINATED: usize = MAX_ENTRIES;

/// An out-of-bounds value: the field it is in, what was asked and the limit.
fn out_of_bounds(file: &str, text: &str, field: &str, what: String) -> Result<(), ScenarioError> {
    let (line, col) = field_position(text, field).unwrap_or((1, 1));
    Err(ScenarioError {
        file: file.to_string(),
        line,
        col,
        message: what,
    })
}

/// Checks every bounded value of `scenario`, read from `text`.
pub fn check(file: &str, text: &str, scenario: &Scenario) -> Result<(), ScenarioError> {
    let steps = scenario.steps.len()
        + scenario.cash.as_ref().map_or(0, |c| c.steps.len())
        + scenario.tournament.as_ref().map_or(0, |t| t.steps.len());
    if steps > MAX_STEPS {
        return out_of_bounds(
            file,
            text,
            "steps",
            format!("{steps} steps: a scenario has at most {MAX_STEPS}"),
        );
    }
    if let Some(cash) = &scenario.cash {
        for step in &cash.steps {
            if let CashStep::Advance { minutes, .. } = step {
                // The clock is a count of minutes; a year is more than any session.
                if *minutes > 525_600 {
                    return out_of_bounds(
                        file,
                        text,
                        "Advance",
                        format!("{minutes} minutes at once: at most a year (525,600)"),
                    );
                }
            }
        }
    }
    let Some(t) = &scenario.tournament else {
        return Ok(());
    };
    if !(1..=MAX_ENTRIES).contains(&t.entries) {
        return out_of_bounds(
            file,
            text,
            "entries",
            format!("{} entries: from 1 to {MAX_ENTRIES}", t.entries),
        );
    }
    if !SEATS_PER_TABLE.contains(&t.seats_per_table) {
        return out_of_bounds(
            file,
            text,
            "seats_per_table",
            format!(
                "{} seats per table: from {} to {}",
                t.seats_per_table,
                SEATS_PER_TABLE.start(),
                SEATS_PER_TABLE.end()
            ),
        );
    }
    if t.levels.len() > MAX_LEVELS {
        return out_of_bounds(
            file,
            text,
            "levels",
            format!("{} levels: at most {MAX_LEVELS}", t.levels.len()),
        );
    }
    for step in &t.steps {
        match step {
            TournamentStep::Play { rounds, .. } if *rounds > MAX_ROUNDS => {
                return out_of_bounds(
                    file,
                    text,
                    "rounds",
                    format!("{rounds} rounds in one step: at most {MAX_ROUNDS}"),
                );
            }
            TournamentStep::EliminateAt { count, .. } if *count > MAX_ELIMINATED => {
                return out_of_bounds(
                    file,
                    text,
                    "count",
                    format!("{count} players out in one step: at most {MAX_ELIMINATED}"),
                );
            }
            TournamentStep::Eliminate { players, .. } if players.len() > MAX_ELIMINATED => {
                return out_of_bounds(
                    file,
                    text,
                    "players",
                    format!(
                        "{} players out in one step: at most {MAX_ELIMINATED}",
                        players.len()
                    ),
                );
            }
            TournamentStep::Result {
                chop: Some(chop), ..
            } if chop.amounts.len() > MAX_ENTRIES => {
                return out_of_bounds(
                    file,
                    text,
                    "amounts",
                    format!(
                        "a chop among {} players: at most {MAX_ENTRIES}",
                        chop.amounts.len()
                    ),
                );
            }
            _ => {}
        }
    }
    Ok(())
}

/// Where `field` (a field name followed by `:` or a step name followed by `(`) first appears
/// in `text` as a word, 1-based; `None` if it does not.
fn field_position(text: &str, field: &str) -> Option<(usize, usize)> {
    for (i, line) in text.lines().enumerate() {
        let code = line.split("//").next().unwrap_or("");
        let mut from = 0;
        while let Some(at) = code[from..].find(field) {
            let start = from + at;
            let before = code[..start].chars().next_back();
            let after = code[start + field.len()..].trim_start().chars().next();
            let word = before.is_none_or(|c| !c.is_alphanumeric() && c != '_');
            if word && matches!(after, Some(':' | '(')) {
                return Some((i + 1, code[..start].chars().count() + 1));
            }
            from = start + field.len();
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::super::parse;

    fn tournament(fields: &str, steps: &str) -> String {
        format!(
            "Scenario(\n    name: \"x\",\n    tournament: (\n        {fields},\n        starting_stack: 100,\n        levels: [(small_blind: 1, big_blind: 2, minutes: 1)],\n        steps: [{steps}],\n    ),\n)\n"
        )
    }

    #[test]
    fn a_tournament_out_of_bounds_is_refused_at_the_field() {
        let e = parse("t.ron", &tournament("entries: 10, seats_per_table: 0", ""))
            .expect_err("no seats");
        assert_eq!(e.to_string(), "t.ron:4:22: 0 seats per table: from 2 to 23");
        let e = parse("t.ron", &tournament("entries: 100000000", "")).expect_err("entries");
        assert_eq!(
            e.to_string(),
            "t.ron:4:9: 100000000 entries: from 1 to 10000"
        );
        let e = parse(
            "t.ron",
            &tournament("entries: 10", "Play(rounds: 4000000000)"),
        )
        .expect_err("rounds");
        assert_eq!(
            e.to_string(),
            "t.ron:7:22: 4000000000 rounds in one step: at most 100000"
        );
        assert!(parse("t.ron", &tournament("entries: 10", "Play(rounds: 100000)")).is_ok());
    }

    #[test]
    fn a_cash_clock_jump_beyond_a_year_is_refused() {
        let text = "Scenario(name: \"x\", cash: (table: (table_minimum: 10, initial_buy_in: 1000), steps: [\n  Advance(minutes: 18446744073709551615),\n]))\n";
        let e = parse("c.ron", text).expect_err("a year");
        assert_eq!(
            e.to_string(),
            "c.ron:2:3: 18446744073709551615 minutes at once: at most a year (525,600)"
        );
    }
}
