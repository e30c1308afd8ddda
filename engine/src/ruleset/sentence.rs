//! A PARAMETER's value as a phrase a regulator reads (`allowed: pt; exceptional: en`) rather
//! than the JSON a script reads (`{"allowed": ["pt"], "exceptional": ["en"]}`): text and HTML
//! comparisons print this, `--format json` keeps the value itself.

use super::compare::render;

/// The value as a phrase: map keys in words, lists joined, `true`/`false` as yes/no, an empty
/// list as "none".
pub fn sentence(value: &ron::Value) -> String {
    match value {
        ron::Value::Map(map) => map
            .iter()
            .map(|(k, v)| format!("{}: {}", words(k), inner(v)))
            .collect::<Vec<_>>()
            .join("; "),
        other => inner(other),
    }
}

fn words(key: &ron::Value) -> String {
    match key {
        ron::Value::String(s) => s.replace('_', " "),
        other => inner(other),
    }
}

fn inner(value: &ron::Value) -> String {
    match value {
        ron::Value::Bool(true) => "yes".into(),
        ron::Value::Bool(false) => "no".into(),
        ron::Value::String(s) => s.clone(),
        ron::Value::Option(None) | ron::Value::Unit => "none".into(),
        ron::Value::Option(Some(v)) => inner(v),
        ron::Value::Seq(items) if items.is_empty() => "none".into(),
        ron::Value::Seq(items) => items.iter().map(inner).collect::<Vec<_>>().join(", "),
        ron::Value::Map(map) => map
            .iter()
            .map(|(k, v)| format!("{} {}", words(k), inner(v)))
            .collect::<Vec<_>>()
            .join(", "),
        other => render(other),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> ron::Value {
        ron::from_str(text).expect("a RON value")
    }

    #[test]
    fn a_language_parameter_reads_as_words() {
        let v = parse(r#"{"allowed": ["pt"], "exceptional": ["en"]}"#);
        assert_eq!(sentence(&v), "allowed: pt; exceptional: en");
        let v = parse(r#"{"allowed": ["pt", "en"], "exceptional": []}"#);
        assert_eq!(sentence(&v), "allowed: pt, en; exceptional: none");
    }

    #[test]
    fn nested_maps_numbers_and_flags_read_as_words() {
        let v =
            parse(r#"{"one_seat_per_player": true, "per_variant": {"holdem": 10, "omaha": 10}}"#);
        assert_eq!(
            sentence(&v),
            "one seat per player: yes; per variant: holdem 10, omaha 10"
        );
        assert_eq!(sentence(&parse("5")), "5");
    }
}
