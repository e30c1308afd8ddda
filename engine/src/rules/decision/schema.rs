//! The JSON Schema of a point's context and answer (`floor explain POINT --schema`), generated
//! from the very types the engine asks with and checks answers against, so that what a plugin
//! author reads cannot drift from what the engine does. The bounded kinds of value say their
//! bounds (`minimum`, `maximum`, `maxItems`, `maxLength`), as the engine enforces them.

use super::answers::Fields;
use super::values::{Bounded, CardName, ChipList, ClockTime, List, Text, MAX_TEXT};
use schemars::{json_schema, JsonSchema, Schema, SchemaGenerator};
use serde_json::Value;
use std::borrow::Cow;
use std::marker::PhantomData;

/// The schemas of a context type `C` and an answer type `A`, as JSON.
pub(super) fn schemas_of<C: JsonSchema, A: JsonSchema>() -> (Value, Value) {
    (
        schemars::schema_for!(C).to_value(),
        schemars::schema_for!(A).to_value(),
    )
}

impl<const MIN: u64, const MAX: u64> JsonSchema for Bounded<MIN, MAX> {
    fn inline_schema() -> bool {
        true
    }

    fn schema_name() -> Cow<'static, str> {
        format!("Bounded_{MIN}_{MAX}").into()
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({"type": "integer", "minimum": MIN, "maximum": MAX})
    }
}

impl<T: JsonSchema, const MAX: usize> JsonSchema for List<T, MAX> {
    fn inline_schema() -> bool {
        true
    }

    fn schema_name() -> Cow<'static, str> {
        format!("List_{}_{MAX}", T::schema_name()).into()
    }

    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        json_schema!({"type": "array", "items": generator.subschema_for::<T>(), "maxItems": MAX})
    }
}

impl JsonSchema for ChipList {
    fn inline_schema() -> bool {
        true
    }

    fn schema_name() -> Cow<'static, str> {
        "ChipList".into()
    }

    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "type": "array",
            "description": "chips pushed, one entry per chip; their total within a hand's bound",
            "items": generator.subschema_for::<super::values::HandAmount>(),
            "maxItems": crate::bounds::MAX_CHIPS_PUSHED,
        })
    }
}

impl JsonSchema for CardName {
    fn inline_schema() -> bool {
        true
    }

    fn schema_name() -> Cow<'static, str> {
        "CardName".into()
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        card_schema()
    }
}

/// A card as the engine writes it: rank then suit.
pub(crate) fn card_schema() -> Schema {
    json_schema!({
        "type": "string",
        "description": "a card: rank (2-9, T, J, Q, K, A) then suit (c, d, h, s), e.g. `As`",
        "pattern": "^[2-9TJQKA][cdhs]$",
    })
}

impl JsonSchema for ClockTime {
    fn inline_schema() -> bool {
        true
    }

    fn schema_name() -> Cow<'static, str> {
        "ClockTime".into()
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "type": "string",
            "description": "a time of day, HH:MM:SS",
            "pattern": "^([01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9]$",
        })
    }
}

impl JsonSchema for Text {
    fn inline_schema() -> bool {
        true
    }

    fn schema_name() -> Cow<'static, str> {
        "Text".into()
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({"type": "string", "maxLength": MAX_TEXT})
    }
}

/// The answer to a table event: its outcome as a bare word, or a map with the `outcome`, the
/// ruling's `text`, an optional `citation`, and the fields `F` the engine reads (any other
/// field is kept as the ruling's own).
pub(super) struct EventAnswer<F>(PhantomData<F>);

impl<F: JsonSchema + Fields> JsonSchema for EventAnswer<F> {
    fn schema_name() -> Cow<'static, str> {
        format!("EventAnswer_{}", F::schema_name()).into()
    }

    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        let mut map = F::json_schema(generator);
        let properties = map
            .ensure_object()
            .entry("properties")
            .or_insert_with(|| Value::Object(Default::default()));
        if let Value::Object(properties) = properties {
            properties.insert(
                "outcome".into(),
                serde_json::json!({"type": "string", "description": "the outcome in one word or phrase (`call`, `raise`, `misdeal`, `refer_to_floor`...)"}),
            );
            properties.insert(
                "text".into(),
                serde_json::json!({"type": "string", "description": "the ruling in plain words"}),
            );
            properties.insert(
                "citation".into(),
                serde_json::json!({"type": "string", "description": "overrides the binding's citation"}),
            );
        }
        map.insert("required".into(), serde_json::json!(["outcome"]));
        json_schema!({
            "description": "the outcome alone, or a ruling with its outcome and fields",
            "anyOf": [{"type": "string"}, map],
        })
    }
}

/// A position at the table, from 0 (the first seat left of the button); one of the
/// positions the context gives.
pub(super) struct Position;

impl JsonSchema for Position {
    fn schema_name() -> Cow<'static, str> {
        "Position".into()
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "type": "integer",
            "minimum": 0,
            "maximum": crate::hand::MAX_PLAYERS - 1,
            "description": "a position, from 0 (the first seat left of the button): one the context offers",
        })
    }
}
