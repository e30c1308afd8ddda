//! Checking that nothing acknowledged was lost: every action and deal the daemon answered 200
//! must be in its journal (read from the SQLite file), and each table's state must be the state
//! of the last answer the generator got for it.

use super::play::View;
use rusqlite::{params, Connection, OpenFlags};
use std::collections::BTreeMap;
use std::path::Path;

/// Journaled commands of one table: (`act`, `start_hand`).
pub type Counts = BTreeMap<String, (u64, u64)>;

/// Reads, from the journal in `data`, how many `act` and `start_hand` commands each table has,
/// and how many activations of ruleset `ruleset` happened at or after `since_ms`.
pub fn journal_counts(data: &Path, ruleset: &str, since_ms: i64) -> Result<(Counts, u64), String> {
    let path = crate::journal::Journal::path(data);
    let sql = |e: rusqlite::Error| format!("{}: {e}", path.display());
    let conn = Connection::open_with_flags(&path, OpenFlags::SQLITE_OPEN_READ_ONLY).map_err(sql)?;
    conn.busy_timeout(std::time::Duration::from_secs(10))
        .map_err(sql)?;
    let mut counts = Counts::new();
    {
        let mut stmt = conn
            .prepare(
                "SELECT table_id, json_extract(body, '$.command') AS c, count(*) FROM commands
                 WHERE c IN ('act', 'start_hand') GROUP BY table_id, c",
            )
            .map_err(sql)?;
        let rows = stmt
            .query_map([], |r| {
                Ok((
                    r.get::<_, String>(0)?,
                    r.get::<_, String>(1)?,
                    r.get::<_, i64>(2)?,
                ))
            })
            .map_err(sql)?;
        for row in rows {
            let (table, command, n) = row.map_err(sql)?;
            let entry = counts.entry(table).or_default();
            let n = u64::try_from(n).unwrap_or(0);
            if command == "act" {
                entry.0 = n;
            } else {
                entry.1 = n;
            }
        }
    }
    let activations: i64 = conn
        .query_row(
            "SELECT count(*) FROM activations WHERE ruleset_id = ?1 AND at_ms >= ?2",
            params![ruleset, since_ms],
            |r| r.get(0),
        )
        .map_err(sql)?;
    Ok((counts, u64::try_from(activations).unwrap_or(0)))
}

/// [`journal_counts`] of a PostgreSQL journal at `url`.
pub fn journal_counts_postgres(
    url: &str,
    ruleset: &str,
    since_ms: i64,
) -> Result<(Counts, u64), String> {
    let shown = crate::journal::postgres::redact(url);
    let sql = |e: postgres::Error| format!("{shown}: {e}");
    let config: postgres::Config = url.parse().map_err(sql)?;
    let mut c =
        crate::journal::postgres::worker::connect(&config).map_err(|e| format!("{shown}: {e}"))?;
    let mut counts = Counts::new();
    for row in c
        .query(
            "SELECT table_id, body::jsonb->>'command' AS c, count(*) FROM commands
             WHERE body::jsonb->>'command' IN ('act', 'start_hand') GROUP BY 1, 2",
            &[],
        )
        .map_err(sql)?
    {
        let table: String = row.try_get(0).map_err(sql)?;
        let command: String = row.try_get(1).map_err(sql)?;
        let n = u64::try_from(row.try_get::<_, i64>(2).map_err(sql)?).unwrap_or(0);
        let entry = counts.entry(table).or_default();
        if command == "act" {
            entry.0 = n;
        } else {
            entry.1 = n;
        }
    }
    let activations: i64 = c
        .query_one(
            "SELECT count(*) FROM activations WHERE ruleset_id = $1 AND at_ms >= $2",
            &[&ruleset, &since_ms],
        )
        .and_then(|r| r.try_get(0))
        .map_err(sql)?;
    Ok((counts, u64::try_from(activations).unwrap_or(0)))
}

/// Whether table view `now` (read after the run) is the state of the last acknowledged answer:
/// the hand number is the last one dealt and, when that answer was about the same hand, the
/// hand (phase, pot, board, turn, raise bounds) and every seat's chips are identical.
pub fn same_state(last: Option<&View>, now: &View, acked_hand: u64) -> Result<(), String> {
    let number = now.hand.as_ref().map_or(0, |h| h.number);
    if number != acked_hand {
        return Err(format!(
            "hand {number} at the table, but hand {acked_hand} was the last one acknowledged"
        ));
    }
    let Some(last) = last else { return Ok(()) };
    if last.hand.as_ref().map_or(0, |h| h.number) != acked_hand {
        return Ok(()); // dealt, not looked at since: only the number can be compared
    }
    if last.hand != now.hand {
        return Err(format!(
            "hand {number}: last acknowledged {:?} but now {:?}",
            last.hand, now.hand
        ));
    }
    if last.seats != now.seats {
        return Err(format!(
            "seats: last acknowledged {:?} but now {:?}",
            last.seats, now.seats
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn view(number: u64, pot: u64, stack: u64) -> View {
        serde_json::from_value(json!({"hand": {"number": number, "pot": pot},
            "seats": [{"seat": 1, "player": "a", "stack": stack, "bet": 0, "in_hand": true,
                       "folded": false, "cards": null}]}))
        .expect("a view")
    }

    #[test]
    fn the_state_after_the_run_must_be_the_last_acknowledged_one() {
        assert!(same_state(Some(&view(3, 10, 90)), &view(3, 10, 90), 3).is_ok());
        // The hole cards differ between viewers: not read, so not compared.
        let seen_by_operator: View =
            serde_json::from_value(json!({"hand": {"number": 3, "pot": 10},
            "seats": [{"seat": 1, "player": "a", "stack": 90, "bet": 0, "in_hand": true,
                       "folded": false, "cards": ["Ah", "Kd"]}]}))
            .expect("a view");
        assert!(same_state(Some(&view(3, 10, 90)), &seen_by_operator, 3).is_ok());
        // An acknowledged action missing from the state.
        assert!(same_state(Some(&view(3, 14, 86)), &view(3, 10, 90), 3).is_err());
        // An acknowledged deal missing.
        assert!(same_state(Some(&view(3, 10, 90)), &view(3, 10, 90), 4).is_err());
        // Dealt and never looked at: the number is what can be compared.
        assert!(same_state(Some(&view(3, 10, 90)), &view(4, 3, 99), 4).is_ok());
    }
}
