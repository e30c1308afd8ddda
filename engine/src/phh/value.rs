//! TOML values as PHH uses them, for the fields the typed model does not interpret.
//!
//! Unknown and optional fields (`players`, `venue`, `time`, a site's own `rake = 0.50`, ...)
//! are kept as [`Value`]s so that writing a hand back loses nothing.

use super::amount::Decimal;
use std::fmt;

/// One TOML value as written in a PHH file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Value {
    /// A string, whichever quotes it was written with.
    String(String),
    /// A TOML integer.
    Integer(i64),
    /// A TOML float, kept exactly with its digits as written (`126.30`).
    Float(Decimal),
    /// `inf` / `+inf` (`negative: false`) or `-inf`: PHH writes unknown stacks and absent
    /// time limits as infinity.
    Inf {
        /// Whether it was `-inf`.
        negative: bool,
    },
    /// `true` or `false`.
    Bool(bool),
    /// A TOML date, time or date-time (`16:46:03`), kept as written: PHH only stores and
    /// shows these, it never computes with them.
    DateTime(String),
    /// An array; TOML allows mixed element types.
    Array(Vec<Value>),
}

impl Value {
    /// The string, if this is one.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::String(s) => Some(s),
            _ => None,
        }
    }

    /// The integer, if this is one.
    pub fn as_integer(&self) -> Option<i64> {
        match self {
            Value::Integer(i) => Some(*i),
            _ => None,
        }
    }

    /// The elements, if this is an array.
    pub fn as_array(&self) -> Option<&[Value]> {
        match self {
            Value::Array(items) => Some(items),
            _ => None,
        }
    }

    /// The exact number, if this is an integer or a float.
    pub fn as_decimal(&self) -> Option<Decimal> {
        match self {
            Value::Integer(i) => Decimal::new(i128::from(*i), 0),
            Value::Float(d) => Some(*d),
            _ => None,
        }
    }

    /// A short name of the value's type for error messages ("a string", "an array").
    pub fn type_name(&self) -> &'static str {
        match self {
            Value::String(_) => "a string",
            Value::Integer(_) => "an integer",
            Value::Float(_) => "a float",
            Value::Inf { .. } => "infinity",
            Value::Bool(_) => "a boolean",
            Value::DateTime(_) => "a date/time",
            Value::Array(_) => "an array",
        }
    }
}

impl fmt::Display for Value {
    /// Writes the value as TOML, the way PHH files write it: strings in single quotes when
    /// possible, arrays on one line.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::String(s) => f.write_str(&quote(s)),
            Value::Integer(i) => write!(f, "{i}"),
            // A float must stay a float when read back: `30.0`, not `30`.
            Value::Float(d) if d.frac_digits() == 0 => write!(f, "{d}.0"),
            Value::Float(d) => write!(f, "{d}"),
            Value::Inf { negative: false } => f.write_str("inf"),
            Value::Inf { negative: true } => f.write_str("-inf"),
            Value::Bool(b) => write!(f, "{b}"),
            Value::DateTime(t) => f.write_str(t),
            Value::Array(items) => {
                f.write_str("[")?;
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{item}")?;
                }
                f.write_str("]")
            }
        }
    }
}

/// Quotes a string as TOML: `'literal'` (no escapes, the style PHH files use) when the text
/// allows it, otherwise `"basic"` with escapes.
pub fn quote(text: &str) -> String {
    if !text.contains('\'') && !text.chars().any(|c| c.is_control() && c != '\t') {
        return format!("'{text}'");
    }
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            c if c.is_control() => out.push_str(&format!("\\u{:04X}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}
