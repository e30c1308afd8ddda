//! A reader for the subset of TOML that PHH files are written in, keeping line and column of
//! every value.
//!
//! Hand-written rather than the `toml` crate for two reasons: amounts must be read exactly
//! (the crate hands out `f64`), and errors about actions deep inside an array must point at
//! the action's own line and column. The subset: `key = value` lines, `#` comments, `[N]`
//! headers (one per hand in `.phhs` files), strings in `'…'` or `"…"`, integers, floats,
//! `inf`, booleans, dates and times, and arrays (which may span lines and end with a comma).
//! Multi-line strings, inline tables, dotted keys and `[[…]]` are refused with a clear error.

use super::amount::Decimal;
use super::error::{PhhError, PhhErrorKind as Kind, Pos};
use super::value::Value;

/// Arrays nested deeper than this are refused, so garbage like `[[[[…` cannot exhaust the
/// stack. PHH needs depth 1.
const MAX_DEPTH: usize = 16;

/// A value with the place it was written.
#[derive(Debug, Clone)]
pub(crate) struct Item {
    /// Where the value starts (the opening quote or bracket).
    pub pos: Pos,
    /// The value, arrays with their own positioned elements.
    pub kind: ItemKind,
    /// For a string whose characters map one to one onto source columns (no escapes): the
    /// column of its first character, so notation errors can point inside it.
    pub content_col: Option<usize>,
}

#[derive(Debug, Clone)]
pub(crate) enum ItemKind {
    /// Any value but an array.
    Scalar(Value),
    /// An array.
    Array(Vec<Item>),
}

impl Item {
    /// The value without positions.
    pub fn to_value(&self) -> Value {
        match &self.kind {
            ItemKind::Scalar(v) => v.clone(),
            ItemKind::Array(items) => Value::Array(items.iter().map(Item::to_value).collect()),
        }
    }
}

/// One `key = value` line.
#[derive(Debug, Clone)]
pub(crate) struct Entry {
    pub key: String,
    pub pos: Pos,
    pub value: Item,
}

/// The entries under one `[N]` header, or before any header.
#[derive(Debug, Clone, Default)]
pub(crate) struct Section {
    /// The hand number and the header's line; `None` for the entries before any header.
    pub header: Option<(usize, usize)>,
    pub entries: Vec<Entry>,
}

/// Reads the whole text into sections: first the entries before any header (all of a `.phh`
/// file), then one section per `[N]` header.
pub(crate) fn parse_document(text: &str) -> Result<Vec<Section>, PhhError> {
    let mut cursor = Cursor::new(text);
    let mut done = Vec::new();
    let mut current = Section::default();
    let mut header_lines = std::collections::HashMap::new();
    loop {
        cursor.skip_spaces();
        match cursor.peek() {
            None => break,
            Some('[') => {
                let (number, line) = cursor.header()?;
                if let Some(first) = header_lines.insert(number, line) {
                    return Err(PhhError::on_line(
                        Kind::Duplicate,
                        line,
                        format!("hand [{number}] appears twice (first on line {first})"),
                    ));
                }
                let next = Section {
                    header: Some((number, line)),
                    entries: Vec::new(),
                };
                done.push(std::mem::replace(&mut current, next));
            }
            Some(c) if c != '#' && c != '\n' && c != '\r' => {
                let entry = cursor.entry()?;
                if let Some(first) = current.entries.iter().find(|e| e.key == entry.key) {
                    return Err(PhhError::at(
                        Kind::Duplicate,
                        entry.pos,
                        format!(
                            "`{}` is given twice in this hand (first on line {})",
                            entry.key, first.pos.line
                        ),
                    ));
                }
                current.entries.push(entry);
            }
            Some(_) => {}
        }
        cursor.end_of_line()?;
    }
    done.push(current);
    Ok(done)
}

/// A position in the text that tracks line and character column.
struct Cursor<'a> {
    text: &'a str,
    at: usize,
    line: usize,
    col: usize,
}

impl<'a> Cursor<'a> {
    fn new(text: &'a str) -> Cursor<'a> {
        Cursor {
            text: text.strip_prefix('\u{feff}').unwrap_or(text),
            at: 0,
            line: 1,
            col: 1,
        }
    }

    fn pos(&self) -> Pos {
        Pos {
            line: self.line,
            col: self.col,
        }
    }

    fn rest(&self) -> &'a str {
        &self.text[self.at..]
    }

    fn peek(&self) -> Option<char> {
        // ASCII (all of a PHH file but its strings' contents) without decoding UTF-8.
        match self.text.as_bytes().get(self.at) {
            Some(&b) if b.is_ascii() => Some(b as char),
            Some(_) => self.rest().chars().next(),
            None => None,
        }
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.at += c.len_utf8();
        if c == '\n' {
            self.line += 1;
            self.col = 1;
        } else {
            self.col += 1;
        }
        Some(c)
    }

    fn skip_spaces(&mut self) {
        while matches!(self.peek(), Some(' ' | '\t')) {
            self.bump();
        }
    }

    fn skip_comment(&mut self) {
        if self.peek() == Some('#') {
            while !matches!(self.peek(), None | Some('\n')) && !self.rest().starts_with("\r\n") {
                self.bump();
            }
        }
    }

    /// Spaces, newlines and comments, as allowed between array elements.
    fn skip_blank(&mut self) {
        loop {
            self.skip_spaces();
            self.skip_comment();
            if self.rest().starts_with("\r\n") {
                self.bump();
            }
            if self.peek() != Some('\n') {
                return;
            }
            self.bump();
        }
    }

    /// After a header or value: optional spaces and comment, then a newline or the end.
    fn end_of_line(&mut self) -> Result<(), PhhError> {
        self.skip_spaces();
        self.skip_comment();
        if self.rest().starts_with("\r\n") {
            self.bump();
        }
        match self.peek() {
            None => Ok(()),
            Some('\n') => {
                self.bump();
                Ok(())
            }
            Some(c) => Err(PhhError::at(
                Kind::Syntax,
                self.pos(),
                format!("unexpected `{c}`: a line holds one `key = value` (or a `[N]` header), then at most a `# comment`"),
            )),
        }
    }

    fn unexpected(&self, expected: &str) -> PhhError {
        let found = match self.peek() {
            None => "the end of the file".to_string(),
            Some('\n' | '\r') => "the end of the line".to_string(),
            Some(c) => format!("`{c}`"),
        };
        PhhError::at(
            Kind::Syntax,
            self.pos(),
            format!("expected {expected}, found {found}"),
        )
    }

    /// `[N]`: returns the hand number and the header's line.
    fn header(&mut self) -> Result<(usize, usize), PhhError> {
        let start = self.pos();
        self.bump();
        if self.peek() == Some('[') {
            return Err(PhhError::at(
                Kind::Unsupported,
                start,
                "arrays of tables (`[[…]]`) are not part of PHH; a hand header looks like `[1]`",
            ));
        }
        self.skip_spaces();
        let key_pos = self.pos();
        let key = self.key()?;
        self.skip_spaces();
        if self.peek() != Some(']') {
            return Err(self.unexpected("`]` to close the hand header"));
        }
        self.bump();
        match key.parse::<usize>() {
            Ok(n) if n > 0 && key.bytes().all(|b| b.is_ascii_digit()) => Ok((n, start.line)),
            _ => Err(PhhError::at(
                Kind::Syntax,
                key_pos,
                format!("`[{key}]` is not a hand header: hands in a .phhs file are numbered `[1]`, `[2]`, …"),
            )),
        }
    }

    /// A bare key (`starting_stacks`) or a quoted one.
    fn key(&mut self) -> Result<String, PhhError> {
        match self.peek() {
            Some('\'' | '"') => match self.value(MAX_DEPTH)?.kind {
                ItemKind::Scalar(Value::String(s)) => Ok(s),
                _ => Err(self.unexpected("a field name")),
            },
            _ => {
                let start = self.at;
                while matches!(self.peek(), Some(c) if c.is_ascii_alphanumeric() || c == '_' || c == '-')
                {
                    self.bump();
                }
                if self.at == start {
                    return Err(self.unexpected("a field name such as `antes`"));
                }
                Ok(self.text[start..self.at].to_string())
            }
        }
    }

    /// `key = value`.
    fn entry(&mut self) -> Result<Entry, PhhError> {
        let pos = self.pos();
        let key = self.key()?;
        self.skip_spaces();
        if self.peek() == Some('.') {
            return Err(PhhError::at(
                Kind::Unsupported,
                self.pos(),
                format!("dotted keys (`{key}.…`) are not part of PHH"),
            ));
        }
        if self.peek() != Some('=') {
            return Err(self.unexpected(&format!("`=` after `{key}`")));
        }
        self.bump();
        self.skip_spaces();
        let value = self.value(0)?;
        Ok(Entry { key, pos, value })
    }

    fn value(&mut self, depth: usize) -> Result<Item, PhhError> {
        let pos = self.pos();
        match self.peek() {
            Some('\'') => self.literal_string(),
            Some('"') => self.basic_string(),
            Some('[') if depth >= MAX_DEPTH => Err(PhhError::at(
                Kind::Unsupported,
                pos,
                "arrays nested too deeply",
            )),
            Some('[') => self.array(depth),
            Some('{') => Err(PhhError::at(
                Kind::Unsupported,
                pos,
                "inline tables (`{…}`) are not part of PHH",
            )),
            _ => self.bare(),
        }
    }

    fn unterminated(pos: Pos, quote: char) -> PhhError {
        PhhError::at(
            Kind::Syntax,
            pos,
            format!(
                "unterminated string: the `{quote}` opened here is not closed on the same line"
            ),
        )
    }

    fn literal_string(&mut self) -> Result<Item, PhhError> {
        let pos = self.pos();
        if self.rest().starts_with("'''") {
            return Err(PhhError::at(
                Kind::Unsupported,
                pos,
                "multi-line strings (`'''`) are not part of PHH",
            ));
        }
        self.bump();
        let start = self.at;
        // The closing quote, found bytewise (neither `'` nor a newline occurs inside a UTF-8
        // sequence); the column moves by the characters passed over.
        let Some(len) = self.text.as_bytes()[start..]
            .iter()
            .position(|&b| b == b'\'' || b == b'\n')
            .filter(|&len| self.text.as_bytes()[start + len] == b'\'')
        else {
            return Err(Self::unterminated(pos, '\''));
        };
        let content = &self.text[start..start + len];
        self.col += if content.is_ascii() {
            len
        } else {
            content.chars().count()
        };
        self.at = start + len;
        let text = content.to_string();
        self.bump();
        Ok(Item {
            pos,
            kind: ItemKind::Scalar(Value::String(text)),
            content_col: Some(pos.col + 1),
        })
    }

    fn basic_string(&mut self) -> Result<Item, PhhError> {
        let pos = self.pos();
        if self.rest().starts_with("\"\"\"") {
            return Err(PhhError::at(
                Kind::Unsupported,
                pos,
                "multi-line strings (`\"\"\"`) are not part of PHH",
            ));
        }
        self.bump();
        let mut text = String::new();
        let mut exact = true;
        loop {
            match self.peek() {
                None | Some('\n') => return Err(Self::unterminated(pos, '"')),
                Some('"') => break,
                Some('\\') => {
                    exact = false;
                    let escape_pos = self.pos();
                    self.bump();
                    let c = self.bump().ok_or_else(|| Self::unterminated(pos, '"'))?;
                    let decoded = match c {
                        'b' => '\u{8}',
                        't' => '\t',
                        'n' => '\n',
                        'f' => '\u{c}',
                        'r' => '\r',
                        '"' => '"',
                        '\\' => '\\',
                        'u' | 'U' => {
                            let len = if c == 'u' { 4 } else { 8 };
                            let hex: String = self.rest().chars().take(len).collect();
                            let code = (hex.len() == len
                                && hex.bytes().all(|b| b.is_ascii_hexdigit()))
                            .then(|| u32::from_str_radix(&hex, 16).ok())
                            .flatten()
                            .and_then(char::from_u32);
                            let Some(decoded) = code else {
                                return Err(PhhError::at(
                                    Kind::Syntax,
                                    escape_pos,
                                    format!("`\\{c}` must be followed by {len} hex digits naming a Unicode character"),
                                ));
                            };
                            for _ in 0..len {
                                self.bump();
                            }
                            decoded
                        }
                        other => {
                            return Err(PhhError::at(
                                Kind::Syntax,
                                escape_pos,
                                format!(
                                    "unknown escape `\\{other}` (write `\\\\` for a backslash)"
                                ),
                            ))
                        }
                    };
                    text.push(decoded);
                }
                Some(c) => {
                    text.push(c);
                    self.bump();
                }
            }
        }
        self.bump();
        Ok(Item {
            pos,
            kind: ItemKind::Scalar(Value::String(text)),
            content_col: exact.then_some(pos.col + 1),
        })
    }

    fn array(&mut self, depth: usize) -> Result<Item, PhhError> {
        let pos = self.pos();
        self.bump();
        let mut items = Vec::new();
        loop {
            self.skip_blank();
            match self.peek() {
                Some(']') => break,
                None => return Err(unclosed_array(pos)),
                _ => {}
            }
            items.push(self.value(depth + 1)?);
            self.skip_blank();
            match self.peek() {
                Some(',') => {
                    self.bump();
                }
                Some(']') => break,
                None => return Err(unclosed_array(pos)),
                _ => return Err(self.unexpected("`,` or `]` after an array element")),
            }
        }
        self.bump();
        Ok(Item {
            pos,
            kind: ItemKind::Array(items),
            content_col: None,
        })
    }

    /// An unquoted value: number, `inf`, boolean, or date/time.
    fn bare(&mut self) -> Result<Item, PhhError> {
        let pos = self.pos();
        let start = self.at;
        let is_bare = |c: char| !c.is_whitespace() && !",[]{}#=\"'".contains(c);
        while self.peek().is_some_and(is_bare) {
            self.bump();
        }
        // A date-time may separate its date and time with a space: `2009-07-19 16:46:03`.
        let rest = self.rest().as_bytes();
        if is_date(&self.text[start..self.at])
            && rest.len() > 3
            && rest[0] == b' '
            && rest[1].is_ascii_digit()
            && rest[2].is_ascii_digit()
            && rest[3] == b':'
        {
            self.bump();
            while self.peek().is_some_and(is_bare) {
                self.bump();
            }
        }
        let token = &self.text[start..self.at];
        if token.is_empty() {
            return Err(self.unexpected("a value"));
        }
        let value =
            classify(token).map_err(|message| PhhError::at(kind_of(token), pos, message))?;
        Ok(Item {
            pos,
            kind: ItemKind::Scalar(value),
            content_col: None,
        })
    }
}

fn unclosed_array(pos: Pos) -> PhhError {
    PhhError::at(
        Kind::Syntax,
        pos,
        "unterminated array: the `[` opened here is never closed with `]`",
    )
}

fn kind_of(token: &str) -> Kind {
    let lower = token.to_ascii_lowercase();
    if lower.trim_start_matches(['+', '-']) == "nan"
        || lower.trim_start_matches(['+', '-']).starts_with("0x")
    {
        Kind::Unsupported
    } else {
        Kind::Syntax
    }
}

/// Works out what an unquoted token is.
fn classify(token: &str) -> Result<Value, String> {
    match token {
        "true" => return Ok(Value::Bool(true)),
        "false" => return Ok(Value::Bool(false)),
        "inf" | "+inf" => return Ok(Value::Inf { negative: false }),
        "-inf" => return Ok(Value::Inf { negative: true }),
        "nan" | "+nan" | "-nan" => {
            return Err("`nan` is not an amount a hand history can use".into())
        }
        _ => {}
    }
    let first = token.bytes().next().unwrap_or(b' ');
    if !(first.is_ascii_digit() || first == b'+' || first == b'-') {
        return Err(format!(
            "`{token}` is not a value: strings need quotes ('like this'), numbers look like `12` or `0.50`"
        ));
    }
    if token.contains(':') || is_date(token.get(..10).unwrap_or(token)) {
        return if is_datetime(token) {
            Ok(Value::DateTime(token.to_string()))
        } else {
            Err(format!(
                "`{token}` is not a valid TOML date or time (like `16:46:03` or `2009-07-19`)"
            ))
        };
    }
    let digits = token.trim_start_matches(['+', '-']);
    if digits.len() > 1
        && digits.starts_with('0')
        && matches!(digits.as_bytes()[1], b'x' | b'o' | b'b')
    {
        return Err(format!(
            "`{token}`: hexadecimal, octal and binary integers are not part of PHH"
        ));
    }
    let decimal =
        Decimal::parse_toml(token).map_err(|why| format!("`{token}` is not a number: {why}"))?;
    if token.contains(['.', 'e', 'E']) {
        return Ok(Value::Float(decimal));
    }
    i64::try_from(decimal.mantissa())
        .map(Value::Integer)
        .map_err(|_| format!("`{token}` is too large for a TOML integer"))
}

fn two_digits(s: &str, max: u32) -> bool {
    s.len() == 2
        && s.bytes().all(|b| b.is_ascii_digit())
        && s.parse::<u32>().is_ok_and(|v| v <= max)
}

/// `YYYY-MM-DD`.
fn is_date(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() == 10
        && b[4] == b'-'
        && b[7] == b'-'
        && s[..4].bytes().all(|c| c.is_ascii_digit())
        && two_digits(&s[5..7], 12)
        && two_digits(&s[8..10], 31)
}

/// `HH:MM[:SS[.fraction]]`.
fn is_time(s: &str) -> bool {
    let (main, frac) = s.split_once('.').unwrap_or((s, "0"));
    let parts: Vec<&str> = main.split(':').collect();
    !frac.is_empty()
        && frac.bytes().all(|b| b.is_ascii_digit())
        && matches!(parts.len(), 2 | 3)
        && two_digits(parts[0], 23)
        && two_digits(parts[1], 59)
        && parts.get(2).is_none_or(|s| two_digits(s, 60))
}

/// A TOML local time, local date, local date-time or offset date-time.
fn is_datetime(s: &str) -> bool {
    if is_date(s) || is_time(s) {
        return true;
    }
    let starts_with_date = s.get(..10).is_some_and(is_date);
    let separator = s
        .as_bytes()
        .get(10)
        .is_some_and(|b| matches!(b, b'T' | b't' | b' '));
    let Some(rest) = s.get(11..).filter(|_| starts_with_date && separator) else {
        return false;
    };
    let time = if let Some(t) = rest.strip_suffix(['Z', 'z']) {
        t
    } else if let Some(i) = rest.rfind(['+', '-']) {
        if !is_time(&rest[i + 1..]) || rest[i + 1..].len() != 5 {
            return false;
        }
        &rest[..i]
    } else {
        rest
    };
    is_time(time)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classifies_bare_values() {
        assert_eq!(classify("16:46:03"), Ok(Value::DateTime("16:46:03".into())));
        assert_eq!(
            classify("1979-05-27T07:32:00-08:00"),
            Ok(Value::DateTime("1979-05-27T07:32:00-08:00".into()))
        );
        assert_eq!(classify("-6"), Ok(Value::Integer(-6)));
        assert!(matches!(classify("0.50"), Ok(Value::Float(_))));
        assert!(classify("25:00:00").is_err());
        assert!(classify("abc").is_err());
        assert!(classify("0x1F").is_err());
    }

    #[test]
    fn reads_multi_line_arrays_with_comments() {
        let doc = parse_document("a = [\n  1, # one\n  2,\n]\nb = 'x' # c\r\n").unwrap();
        assert_eq!(doc[0].entries.len(), 2);
        assert_eq!(doc[0].entries[1].pos.line, 5);
        assert_eq!(
            doc[0].entries[0].value.to_value(),
            Value::Array(vec![Value::Integer(1), Value::Integer(2)])
        );
    }
}
