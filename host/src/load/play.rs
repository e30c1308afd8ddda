//! Choosing a random LEGAL action from what the daemon says about the hand in progress: the
//! table view's `hand` carries `to_act` (the seat whose turn it is), `to_call`, and, when
//! raising is open, `min_raise_to` and `max_raise_to` (see docs/API.md). Folding is always
//! legal; check-or-call (`cc`) always is; a raise between the two bounds is.

use rand::Rng;
use serde::Deserialize;
use serde_json::Value;

/// How often (per thousand) each kind of action is chosen when it is legal. Raises are kept
/// small and all-ins rare so that hands run several streets and stacks last.
const FOLD: u32 = 120;
const RAISE: u32 = 130;
const ALL_IN: u32 = 2;
/// A raise goes to at most this many chips above the minimum, so that raise wars grow slowly.
const RAISE_SPREAD: u64 = 10;

/// The parts of a table view (`GET /api/tables/{id}`, or an action's answer) the generator
/// reads. Typed rather than a JSON tree: parsing every answer is a good part of the
/// generator's own CPU, which it shares with the daemon. Other fields (the rulings' texts,
/// hole cards...) are skipped.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
pub struct View {
    /// The hand in progress or the last one.
    #[serde(default)]
    pub hand: Option<HandState>,
    /// Every seat.
    #[serde(default)]
    pub seats: Vec<SeatState>,
}

/// A hand as the view shows it (the same for every viewer).
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
pub struct HandState {
    /// Its number at the table.
    pub number: u64,
    /// The ruleset version it was dealt under.
    #[serde(default)]
    pub version: String,
    /// `Betting`, `Complete`...
    #[serde(default)]
    pub phase: String,
    /// Voided.
    #[serde(default)]
    pub voided: bool,
    /// The board.
    #[serde(default)]
    pub board: Vec<String>,
    /// The pot.
    #[serde(default)]
    pub pot: u64,
    /// The seat to act.
    pub to_act: Option<usize>,
    /// What it must add to call.
    pub to_call: Option<u64>,
    /// The smallest raise-to, if raising is open.
    pub min_raise_to: Option<u64>,
    /// The largest raise-to.
    pub max_raise_to: Option<u64>,
}

/// A seat as the view shows it (hole cards left out: they depend on who looks).
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
pub struct SeatState {
    /// The seat number, from 1.
    pub seat: usize,
    /// The player's name (`None`: empty).
    pub player: Option<String>,
    /// Chips behind.
    pub stack: u64,
    /// This round's bet.
    #[serde(default)]
    pub bet: u64,
    /// Dealt in.
    #[serde(default)]
    pub in_hand: bool,
    /// Folded.
    #[serde(default)]
    pub folded: bool,
}

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

/// Reads the turn from a table view. `None` when the view does not say (a hand in progress
/// with nobody to act).
pub fn turn(view: &View) -> Option<Turn> {
    let Some(hand) = &view.hand else {
        return Some(Turn::Deal);
    };
    if hand.voided || hand.phase == "Complete" {
        return Some(Turn::Deal);
    }
    let raise = match (hand.min_raise_to, hand.max_raise_to) {
        (Some(min), Some(max)) if min <= max => Some((min, max)),
        _ => None,
    };
    Some(Turn::Act {
        seat: hand.to_act?,
        to_call: hand.to_call.unwrap_or(0),
        raise,
    })
}

/// A random legal action for the seat to act, as the `action` of `POST .../actions`: `"f"`
/// (only when facing a bet), `"cc"`, `{"raise_to": N}` (N between the bounds, at most ten
/// chips above the minimum) or `"all_in"` (only while a raise is open).
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
    // All-in only when a raise is open: with the raise capped (pt-casino-2007 rule 87 caps
    // every game) or the betting not reopened, pushing more chips in is refused.
    if roll >= 1000 - ALL_IN && raise.is_some() {
        return Value::from("all_in");
    }
    Value::from("cc")
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use serde_json::json;

    fn view(v: Value) -> View {
        serde_json::from_value(v).expect("a view")
    }

    #[test]
    fn a_complete_or_voided_hand_or_none_means_deal() {
        assert_eq!(turn(&view(json!({"hand": null}))), Some(Turn::Deal));
        assert_eq!(
            turn(&view(
                json!({"hand": {"number": 1, "phase": "Complete", "voided": false}})
            )),
            Some(Turn::Deal)
        );
        assert_eq!(
            turn(&view(
                json!({"hand": {"number": 1, "phase": "Betting", "voided": true}})
            )),
            Some(Turn::Deal)
        );
    }

    #[test]
    fn the_turn_is_read_from_to_act_to_call_and_the_raise_bounds() {
        let v = view(
            json!({"id": "t1", "hand": {"number": 2, "phase": "Betting", "voided": false,
            "to_act": 3, "to_call": 2, "min_raise_to": 4, "max_raise_to": 200,
            "rulings": ["skipped"]}, "seats": [{"seat": 1, "player": "a", "stack": 5,
            "cards": ["Ah", "Kd"]}]}),
        );
        assert_eq!(v.seats[0].stack, 5);
        assert_eq!(
            turn(&v),
            Some(Turn::Act {
                seat: 3,
                to_call: 2,
                raise: Some((4, 200))
            })
        );
        let closed = view(
            json!({"hand": {"number": 2, "phase": "Betting", "to_act": 1,
            "to_call": 5, "min_raise_to": null, "max_raise_to": null}}),
        );
        assert_eq!(
            turn(&closed),
            Some(Turn::Act {
                seat: 1,
                to_call: 5,
                raise: None
            })
        );
        assert_eq!(
            turn(&view(json!({"hand": {"number": 2, "phase": "Betting"}}))),
            None
        );
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
