use super::*;
use crate::rules::registry::{self, Kind};

#[test]
fn every_decision_point_has_a_signature_and_every_signature_is_a_decision_point() {
    let decisions: Vec<&str> = registry::all()
        .iter()
        .filter(|p| p.kind == Kind::Decision)
        .map(|p| p.id)
        .collect();
    let mut signed: Vec<&str> = all().map(|s| s.point).collect();
    for id in &decisions {
        assert!(signature(id).is_some(), "`{id}` has no signature");
    }
    for id in &signed {
        assert!(
            decisions.contains(id),
            "`{id}` is signed but not a registered DECISION"
        );
    }
    let n = signed.len();
    signed.sort_unstable();
    signed.dedup();
    assert_eq!(signed.len(), n, "a point is signed twice");
    assert_eq!(n, decisions.len());
    for point in registry::all().iter().filter(|p| p.kind == Kind::Decision) {
        assert_eq!(point.signature().map(|s| s.point), Some(point.id));
    }
}

#[test]
fn every_point_has_a_bounded_number_of_samples_each_a_map() {
    let mut total = 0;
    for s in all() {
        let samples = s.samples();
        assert!(
            (2..=400).contains(&samples.len()),
            "{}: {} samples",
            s.point,
            samples.len()
        );
        assert!(samples.iter().all(|m| m.is_map()), "{}", s.point);
        total += samples.len();
    }
    assert!(total < 12_000, "{total} samples in all");
}

/// A generated context, as the facts a caller would give.
fn as_facts(sample: &Dynamic) -> Facts {
    match rhai::serde::from_dynamic::<ron::Value>(sample) {
        Ok(ron::Value::Map(map)) => map
            .into_iter()
            .filter_map(|(k, v)| match k {
                ron::Value::String(k) => Some((k, v)),
                _ => None,
            })
            .collect(),
        other => panic!("a sample is a map: {other:?}"),
    }
}

#[test]
fn every_generated_context_of_a_table_event_fits_its_own_type() {
    for s in all().filter(|s| !hand::SIGNATURES.iter().any(|h| h.point == s.point)) {
        for sample in s.samples() {
            let facts = as_facts(&sample);
            assert_eq!(s.fits(&facts), Ok(()), "{}: {facts:?}", s.point);
        }
    }
}

#[test]
fn facts_outside_a_context_are_refused_with_the_reason() {
    let s = signature("table.min_players").expect("signed");
    let mut facts = Facts::new();
    facts.insert("players".into(), ron::Value::Number(ron::Number::U64(3)));
    assert_eq!(s.fits(&facts), Ok(()));
    facts.insert(
        "players".into(),
        ron::Value::Number(ron::Number::U64(1_000_000)),
    );
    assert!(s
        .fits(&facts)
        .unwrap_err()
        .contains("1000000 is outside 0 to 23"));
    facts.remove("players");
    facts.insert("seated".into(), ron::Value::Bool(true));
    assert!(s.fits(&facts).unwrap_err().contains("seated"));
    let s = signature("conduct.electronic_devices").expect("signed");
    let mut facts = Facts::new();
    facts.insert("device".into(), ron::Value::String("telegraph".into()));
    assert!(s
        .fits(&facts)
        .unwrap_err()
        .contains("`telegraph` is not one of"));
}

#[test]
fn an_answer_of_the_wrong_type_is_refused_with_what_was_expected() {
    let ctx = Dynamic::from_map(rhai::Map::new());
    let s = signature("table.min_players").expect("signed");
    assert_eq!(s.check(&ctx, &Dynamic::from("game_runs")), Ok(()));
    assert!(s
        .check(&ctx, &Dynamic::from(3_i64))
        .unwrap_err()
        .contains("must be a map"));
    let mut map = rhai::Map::new();
    map.insert("text".into(), Dynamic::from("x"));
    assert_eq!(
        s.check(&ctx, &Dynamic::from_map(map.clone())),
        Err("its answer has no `outcome`".into())
    );
    map.insert("outcome".into(), Dynamic::from(1_i64));
    assert!(s
        .check(&ctx, &Dynamic::from_map(map.clone()))
        .unwrap_err()
        .starts_with("its answer's `outcome` must be a string"));
    // A raise must say what it raises to, as an amount.
    let s = signature("action.multiple_chips").expect("signed");
    map.insert("outcome".into(), Dynamic::from("raise"));
    assert!(s
        .check(&ctx, &Dynamic::from_map(map.clone()))
        .unwrap_err()
        .contains("`to`"));
    map.insert("to".into(), Dynamic::from(-5_i64));
    assert!(s.check(&ctx, &Dynamic::from_map(map.clone())).is_err());
    map.insert("to".into(), Dynamic::from(1200_i64));
    assert_eq!(s.check(&ctx, &Dynamic::from_map(map)), Ok(()));
    // The state machine's points: an amount, a flag, a position among those given.
    let min_raise = signature("betting.min_raise").expect("signed");
    assert!(min_raise.check(&ctx, &Dynamic::from("big")).is_err());
    assert!(min_raise.check(&ctx, &Dynamic::from(-1_i64)).is_err());
    assert_eq!(min_raise.check(&ctx, &Dynamic::from(200_i64)), Ok(()));
    let odd_chip = signature("showdown.odd_chip").expect("signed");
    let ctx = odd_chip.samples().remove(0);
    assert_eq!(odd_chip.check(&ctx, &Dynamic::from(0_i64)), Ok(()));
    assert!(odd_chip
        .check(&ctx, &Dynamic::from(5_i64))
        .unwrap_err()
        .contains("winners"));
}

/// A plugin author reads a point's context from its schema: every field of every context the
/// engine generates for the point must be one the schema lists, and every field the schema
/// requires must be in each; the answer's schema says what kind of value comes back.
#[test]
fn every_points_schema_lists_the_fields_of_its_generated_contexts() {
    for signature in all() {
        let (context, answer) = signature.schemas();
        let point = signature.point;
        assert_eq!(context["type"], "object", "{point}: {context}");
        let properties = context["properties"]
            .as_object()
            .unwrap_or_else(|| panic!("{point}: no properties in {context}"));
        let required: Vec<&str> = context["required"]
            .as_array()
            .map(|r| r.iter().filter_map(|f| f.as_str()).collect())
            .unwrap_or_default();
        for sample in signature.json_samples() {
            let fields = sample.as_object().expect("a context is a map");
            for field in fields.keys() {
                assert!(
                    properties.contains_key(field),
                    "{point}: `{field}` is not in the schema"
                );
            }
            for field in &required {
                assert!(fields.contains_key(*field), "{point}: `{field}` missing");
            }
        }
        assert!(
            answer.get("type").is_some() || answer.get("anyOf").is_some(),
            "{point}: the answer's schema says no kind: {answer}"
        );
    }
}

/// A signature that declares its check does not read the context is checked without it (a
/// plugin's answer at the points asked most): the verdict must not depend on the context.
#[test]
fn a_check_declared_not_to_read_the_context_gives_the_same_verdict_without_it() {
    let answers = [
        Dynamic::from_int(0),
        Dynamic::from_int(1),
        Dynamic::from_int(-5),
        Dynamic::from_bool(true),
        Dynamic::from("word"),
        Dynamic::UNIT,
    ];
    let unread: Vec<_> = all().filter(|s| !s.reads_context()).collect();
    assert!(unread.iter().any(|s| s.point == "betting.min_raise"));
    for signature in unread {
        for ctx in signature.samples() {
            for answer in &answers {
                assert_eq!(
                    signature.check(&ctx, answer),
                    signature.check(&Dynamic::UNIT, answer),
                    "{} with {answer:?}",
                    signature.point
                );
            }
        }
    }
}
