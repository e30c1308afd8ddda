//! Choosing a random LEGAL action from what the daemon says about the hand in progress: the
//! table view's `hand` carries `to_act` (the seat whose turn it is), `to_call`, and, when
//! raising is open, `min_raise_to` and `max_raise_to` (see docs/API.md). Folding is always
//! legal; check-or-call (`cc`) always is; a raise between the two bounds is.

use rand::Rng;
use serde_json::Value;

/// How often (per thousand) each kind of action is chosen when it is legal. Raises are kept
/// small and all-ins rare so that hands run several streets and stacks last.
const FOLD: u32 = 120;
const RAISE: u32 = 130;
const ALL_IN: u32 = 2;
/// A raise goes to at most this many chips above the minimum, so that raise wars grow slowly.
const RAISE_SPREAD: u64 = 10;

/// Where a table stands, read from a view's `hand`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Turn {
    /// No hand yet, or the last one is complete or voided: deal the next.
    Deal,
    /// `seat` is to act.
    Act {
        /// The seat to act, from 1.
        seat: usize,
        /// Chips it must add to call (0: it may check).
        to_call: u64,
        /// The raise-to bounds, when raising is open.
        raise: Option<(u64, u64)>,
    },
}

/// Reads the turn from a table view (the JSON of `GET /api/tables/{id}` or of an action's
/// answer). `None` when the view does not say (a hand in progress with nobody to act).
pub fn turn(view: &Value) -> Option<Turn> {
    let hand = &view["hand"];
    if hand.is_null() || hand["voided"] == true || hand["phase"] == "Complete" {
        return Some(Turn::Deal);
    }
    let seat = usize::try_from(hand["to_act"].as_u64()?).ok()?;
    let to_call = hand["to_call"].as_u64().unwrap_or(0);
    let raise = match (hand["min_raise_to"].as_u64(), hand["max_raise_to"].as_u64()) {
        (Some(min), Some(max)) if min <= max => Some((min, max)),
        _ => None,
    };
    Some(Turn::Act {
        seat,
        to_call,
        raise,
    })
}

/// A random legal action for the seat to act, as the `action` of `POST .../actions`: `"f"`
/// (only when facing a bet), `"cc"`, `{"raise_to": N}` (N between the bounds, at most ten
/// chips above the minimum) or `"all_in"`.
pub fn choose(to_call: u64, raise: Option<(u64, u64)>, rng: &mut impl Rng) -> Value {
    let roll = rng.random_range(0..1000u32);
    if to_call > 0 && roll < FOLD {
        return Value::from("f");
    }
    if let Some((min, max)) = raise {
        if roll < FOLD + RAISE {
            let top = max.min(min.saturating_add(RAISE_SPREAD));
            let to = rng.random_range(min..=top.max(min));
            return serde_json::json!({ "raise_to": to });
        }
    }
    if roll >= 1000 - ALL_IN {
        return Value::from("all_in");
    }
    Value::from("cc")
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use serde_json::json;

    #[test]
    fn a_complete_or_voided_hand_or_none_means_deal() {
        assert_eq!(turn(&json!({"hand": null})), Some(Turn::Deal));
        assert_eq!(
            turn(&json!({"hand": {"phase": "Complete", "voided": false}})),
            Some(Turn::Deal)
        );
        assert_eq!(
            turn(&json!({"hand": {"phase": "Betting", "voided": true}})),
            Some(Turn::Deal)
        );
    }

    #[test]
    fn the_turn_is_read_from_to_act_to_call_and_the_raise_bounds() {
        let view = json!({"hand": {"phase": "Betting", "voided": false, "to_act": 3,
            "to_call": 2, "min_raise_to": 4, "max_raise_to": 200}});
        assert_eq!(
            turn(&view),
            Some(Turn::Act {
                seat: 3,
                to_call: 2,
                raise: Some((4, 200))
            })
        );
        let closed = json!({"hand": {"phase": "Betting", "to_act": 1, "to_call": 5,
            "min_raise_to": null, "max_raise_to": null}});
        assert_eq!(
            turn(&closed),
            Some(Turn::Act {
                seat: 1,
                to_call: 5,
                raise: None
            })
        );
        assert_eq!(turn(&json!({"hand": {"phase": "Betting"}})), None);
    }

    #[test]
    fn chosen_actions_stay_within_what_the_hand_allows() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        let mut kinds = std::collections::BTreeSet::new();
        for _ in 0..5000 {
            let a = choose(0, Some((4, 10)), &mut rng);
            assert_ne!(a, json!("f"), "no fold when checking is free");
            if let Some(to) = a["raise_to"].as_u64() {
                assert!((4..=10).contains(&to), "{a}");
            }
            kinds.insert(a.to_string().chars().take(4).collect::<String>());
            let b = choose(6, None, &mut rng);
            assert!(
                b["raise_to"].is_null(),
                "no raise when raising is closed: {b}"
            );
        }
        assert!(
            kinds.len() >= 3,
            "checks, raises and all-ins all occur: {kinds:?}"
        );
    }
}
