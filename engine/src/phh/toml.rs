//! The lexical layer of the PHH reader: a cursor over the subset of TOML that PHH files are
//! written in, tracking line and column, with one method per token.
//!
//! Hand-written rather than the `toml` crate for three reasons: amounts must be read exactly
//! (the crate hands out `f64`), errors about actions deep inside an array must point at the
//! action's own line and column, and [`super::reader`] reads each value straight into the
//! typed hand, borrowing strings from the text instead of building a tree of owned values.
//! The subset: `key = value` lines, `#` comments, `[N]` headers (one per hand in `.phhs`
//! files), strings in `'…'` or `"…"`, integers, floats, `inf`, booleans, dates and times, and
//! arrays (which may span lines and end with a comma). Multi-line strings, inline tables,
//! dotted keys and `[[…]]` are refused with a clear error.

use super::amount::Decimal;
use super::error::{PhhError, PhhErrorKind as Kind, Pos};
use super::value::Value;
use std::borrow::Cow;

/// Arrays nested deeper than this are refused, so garbage like `[[[[…` cannot exhaust the
/// stack. PHH needs depth 1.
pub(crate) const MAX_DEPTH: usize = 16;

/// A string value as read: borrowed from the text unless it had escapes.
pub(crate) struct Str<'a> {
    /// The decoded text.
    pub text: Cow<'a, str>,
    /// Where the opening quote is.
    pub pos: Pos,
    /// For a string whose characters map one to one onto source columns (no escapes): the
    /// column of its first character, so notation errors can point inside it.
    pub content_col: Option<usize>,
}

/// A position in the text that tracks line and character column.
///
/// Cheap to copy: [`super::reader`] keeps one to read a value again later.
#[derive(Clone, Copy)]
pub(crate) struct Cursor<'a> {
    text: &'a str,
    at: usize,
    line: usize,
    col: usize,
}

/// Whether an ASCII byte ends an unquoted token (whitespace as `char::is_whitespace` has it,
/// or TOML punctuation).
fn ends_bare(b: u8) -> bool {
    matches!(
        b,
        b'\t'
            | b'\n'
            | 0x0b
            | 0x0c
            | b'\r'
            | b' '
            | b','
            | b'['
            | b']'
            | b'{'
            | b'}'
            | b'#'
            | b'='
            | b'"'
            | b'\''
    )
}

impl<'a> Cursor<'a> {
    /// A cursor at the start of `text`, past a byte-order mark if there is one.
    pub fn new(text: &'a str) -> Cursor<'a> {
        Cursor {
            text: text.strip_prefix('\u{feff}').unwrap_or(text),
            at: 0,
            line: 1,
            col: 1,
        }
    }

    /// A cursor at the start of `text`, a part of a file that starts on line `line` (a
    /// chunk of a `.phhs` file read on its own: no byte-order mark is looked for).
    pub fn at_line(text: &'a str, line: usize) -> Cursor<'a> {
        Cursor {
            text,
            at: 0,
            line,
            col: 1,
        }
    }

    /// Where the cursor is.
    #[inline]
    pub fn pos(&self) -> Pos {
        Pos {
            line: self.line,
            col: self.col,
        }
    }

    #[inline]
    fn rest(&self) -> &'a str {
        &self.text[self.at..]
    }

    /// The next byte, undecoded.
    #[inline]
    pub fn peek_byte(&self) -> Option<u8> {
        self.text.as_bytes().get(self.at).copied()
    }

    #[inline]
    fn peek(&self) -> Option<char> {
        // ASCII (all of a PHH file but its strings' contents) without decoding UTF-8.
        match self.text.as_bytes().get(self.at) {
            Some(&b) if b.is_ascii() => Some(b as char),
            Some(_) => self.rest().chars().next(),
            None => None,
        }
    }

    #[inline]
    fn bump(&mut self) -> Option<char> {
        if let Some(&b) = self.text.as_bytes().get(self.at) {
            if b.is_ascii() {
                self.at += 1;
                if b == b'\n' {
                    self.line += 1;
                    self.col = 1;
                } else {
                    self.col += 1;
                }
                return Some(b as char);
            }
        }
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

    /// Skips spaces and tabs.
    #[inline]
    pub fn skip_spaces(&mut self) {
        let bytes = self.text.as_bytes();
        while matches!(bytes.get(self.at), Some(b' ' | b'\t')) {
            self.at += 1;
            self.col += 1;
        }
    }

    fn skip_comment(&mut self) {
        if self.peek_byte() == Some(b'#') {
            while !matches!(self.peek(), None | Some('\n')) && !self.rest().starts_with("\r\n") {
                self.bump();
            }
        }
    }

    /// Spaces, newlines and comments, as allowed between array elements.
    #[inline]
    fn skip_blank(&mut self) {
        if !matches!(self.peek_byte(), Some(b' ' | b'\t' | b'#' | b'\r' | b'\n')) {
            return;
        }
        loop {
            self.skip_spaces();
            self.skip_comment();
            if self.rest().starts_with("\r\n") {
                self.bump();
            }
            if self.peek_byte() != Some(b'\n') {
                return;
            }
            self.bump();
        }
    }

    /// After a header or value: optional spaces and comment, then a newline or the end.
    pub fn end_of_line(&mut self) -> Result<(), PhhError> {
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
    pub fn header(&mut self) -> Result<(usize, usize), PhhError> {
        let start = self.pos();
        self.bump();
        if self.peek_byte() == Some(b'[') {
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
        if self.peek_byte() != Some(b']') {
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
    fn key(&mut self) -> Result<Cow<'a, str>, PhhError> {
        match self.peek_byte() {
            Some(b'\'' | b'"') => Ok(self.string()?.text),
            _ => {
                let start = self.at;
                let len = self.text.as_bytes()[start..]
                    .iter()
                    .position(|&b| !(b.is_ascii_alphanumeric() || b == b'_' || b == b'-'))
                    .unwrap_or(self.text.len() - start);
                self.at += len;
                self.col += len;
                if self.at == start {
                    return Err(self.unexpected("a field name such as `antes`"));
                }
                Ok(Cow::Borrowed(&self.text[start..self.at]))
            }
        }
    }

    /// The start of a `key = value` line, up to the value: returns the key and where the line
    /// starts, and leaves the cursor on the value.
    pub fn entry_key(&mut self) -> Result<(Cow<'a, str>, Pos), PhhError> {
        let pos = self.pos();
        let key = self.key()?;
        self.skip_spaces();
        if self.peek_byte() == Some(b'.') {
            return Err(PhhError::at(
                Kind::Unsupported,
                self.pos(),
                format!("dotted keys (`{key}.…`) are not part of PHH"),
            ));
        }
        if self.peek_byte() != Some(b'=') {
            return Err(self.unexpected(&format!("`=` after `{key}`")));
        }
        self.bump();
        self.skip_spaces();
        Ok((key, pos))
    }

    /// Any value, as an owned [`Value`] (for the fields the typed hand does not interpret and
    /// for saying what type a misplaced value has). `depth` is how deep in arrays it sits.
    pub fn value(&mut self, depth: usize) -> Result<Value, PhhError> {
        let pos = self.pos();
        match self.peek_byte() {
            Some(b'\'' | b'"') => Ok(Value::String(self.string()?.text.into_owned())),
            Some(b'[') => {
                let mut items = Vec::new();
                self.array(depth, |cursor, depth| {
                    items.push(cursor.value(depth)?);
                    Ok(())
                })?;
                Ok(Value::Array(items))
            }
            Some(b'{') => Err(PhhError::at(
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

    /// A string in `'…'` or `"…"`; the cursor must be on the quote.
    pub fn string(&mut self) -> Result<Str<'a>, PhhError> {
        if self.peek_byte() == Some(b'\'') {
            self.literal_string()
        } else {
            self.basic_string()
        }
    }

    /// Moves past `len` bytes that hold no newline, counting their characters as columns.
    #[inline]
    fn advance_inline(&mut self, len: usize) {
        let content = &self.text[self.at..self.at + len];
        self.col += if content.is_ascii() {
            len
        } else {
            content.chars().count()
        };
        self.at += len;
    }

    fn literal_string(&mut self) -> Result<Str<'a>, PhhError> {
        let pos = self.pos();
        let bytes = self.text.as_bytes();
        let start = self.at + 1;
        if bytes.get(start..start + 2) == Some(b"''") {
            return Err(PhhError::at(
                Kind::Unsupported,
                pos,
                "multi-line strings (`'''`) are not part of PHH",
            ));
        }
        // The closing quote, found bytewise (neither `'` nor a newline occurs inside a UTF-8
        // sequence); the column moves by the characters passed over.
        let mut end = start;
        let mut ascii = true;
        loop {
            match bytes.get(end) {
                Some(b'\'') => break,
                Some(b'\n') | None => return Err(Self::unterminated(pos, '\'')),
                Some(&b) => ascii &= b.is_ascii(),
            }
            end += 1;
        }
        let content = &self.text[start..end];
        self.col += 2 + if ascii {
            end - start
        } else {
            content.chars().count()
        };
        self.at = end + 1;
        Ok(Str {
            text: Cow::Borrowed(content),
            pos,
            content_col: Some(pos.col + 1),
        })
    }

    fn basic_string(&mut self) -> Result<Str<'a>, PhhError> {
        let pos = self.pos();
        if self.rest().starts_with("\"\"\"") {
            return Err(PhhError::at(
                Kind::Unsupported,
                pos,
                "multi-line strings (`\"\"\"`) are not part of PHH",
            ));
        }
        self.bump();
        // Without escapes the string is a slice of the text, as a literal string is.
        let start = self.at;
        let stop = self.text.as_bytes()[start..]
            .iter()
            .position(|&b| matches!(b, b'"' | b'\\' | b'\n'));
        match stop.map(|len| (len, self.text.as_bytes()[start + len])) {
            Some((len, b'"')) => {
                self.advance_inline(len);
                self.bump();
                return Ok(Str {
                    text: Cow::Borrowed(&self.text[start..start + len]),
                    pos,
                    content_col: Some(pos.col + 1),
                });
            }
            Some((_, b'\\')) => {}
            _ => return Err(Self::unterminated(pos, '"')),
        }
        let mut text = String::new();
        loop {
            match self.peek() {
                None | Some('\n') => return Err(Self::unterminated(pos, '"')),
                Some('"') => break,
                Some('\\') => {
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
        Ok(Str {
            text: Cow::Owned(text),
            pos,
            content_col: None,
        })
    }

    /// An array: `[`, elements separated by commas (a trailing one allowed), `]`, with
    /// newlines and comments anywhere between them. `each` reads one element (the cursor on
    /// its first character) at the depth given. Returns where the array starts.
    pub fn array(
        &mut self,
        depth: usize,
        mut each: impl FnMut(&mut Cursor<'a>, usize) -> Result<(), PhhError>,
    ) -> Result<Pos, PhhError> {
        let pos = self.pos();
        if depth >= MAX_DEPTH {
            return Err(PhhError::at(
                Kind::Unsupported,
                pos,
                "arrays nested too deeply",
            ));
        }
        self.bump();
        loop {
            self.skip_blank();
            match self.peek_byte() {
                Some(b']') => break,
                None => return Err(unclosed_array(pos)),
                _ => {}
            }
            each(self, depth + 1)?;
            self.skip_blank();
            match self.peek_byte() {
                Some(b',') => {
                    self.bump();
                }
                Some(b']') => break,
                None => return Err(unclosed_array(pos)),
                _ => return Err(self.unexpected("`,` or `]` after an array element")),
            }
        }
        self.bump();
        Ok(pos)
    }

    /// An unquoted value: number, `inf`, boolean, or date/time.
    fn bare(&mut self) -> Result<Value, PhhError> {
        let pos = self.pos();
        let start = self.at;
        self.skip_bare();
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
            self.skip_bare();
        }
        let token = &self.text[start..self.at];
        if token.is_empty() {
            return Err(self.unexpected("a value"));
        }
        if let Some(value) = plain_number(token) {
            return Ok(value);
        }
        classify(token).map_err(|message| PhhError::at(kind_of(token), pos, message))
    }

    /// Moves past the characters of an unquoted token.
    fn skip_bare(&mut self) {
        let bytes = self.text.as_bytes();
        while let Some(&b) = bytes.get(self.at) {
            if b.is_ascii() {
                if ends_bare(b) {
                    return;
                }
                self.at += 1;
            } else {
                match self.rest().chars().next() {
                    Some(c) if !c.is_whitespace() => self.at += c.len_utf8(),
                    _ => return,
                }
            }
            self.col += 1;
        }
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

/// The common case of [`classify`] without its general machinery: `[+-]digits[.digits]` with
/// at most 18 digits, which always fits. `None` for anything else, which `classify` reads.
fn plain_number(token: &str) -> Option<Value> {
    let bytes = token.as_bytes();
    let (negative, body) = match bytes.first()? {
        b'-' => (true, &bytes[1..]),
        b'+' => (false, &bytes[1..]),
        _ => (false, bytes),
    };
    if body.is_empty() || body.len() > 19 {
        return None;
    }
    let mut mantissa: i64 = 0;
    let mut frac_digits: Option<u32> = None;
    let mut digits = 0;
    for (i, &b) in body.iter().enumerate() {
        match b {
            b'0'..=b'9' if digits < 18 => {
                mantissa = mantissa * 10 + i64::from(b - b'0');
                digits += 1;
                if let Some(f) = &mut frac_digits {
                    *f += 1;
                }
            }
            // A point needs digits on both sides.
            b'.' if frac_digits.is_none() && i > 0 && i + 1 < body.len() => frac_digits = Some(0),
            _ => return None,
        }
    }
    if negative {
        mantissa = -mantissa;
    }
    match frac_digits {
        None => Some(Value::Integer(mantissa)),
        Some(f) => Decimal::new(i128::from(mantissa), f).map(Value::Float),
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
pub(crate) fn is_datetime(s: &str) -> bool {
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

    /// The shortcut for plain numbers reads exactly what the general path reads, and leaves
    /// everything else to it.
    #[test]
    fn plain_numbers_read_as_the_general_path_reads_them() {
        for token in [
            "0",
            "-0",
            "+7",
            "007",
            "126.30",
            "-0.50",
            "0.0",
            "999999999999999999",
            "-999999999999999999",
            "123456789.123456789",
            "5",
            "1.5",
        ] {
            assert_eq!(
                plain_number(token).map(Ok),
                Some(classify(token)),
                "{token}"
            );
        }
        for token in [
            "",
            "-",
            "+",
            ".5",
            "5.",
            "1.2.3",
            "1_000",
            "1e3",
            "9999999999999999999",
            "99999999999999999999",
            "0x1F",
            "12:00",
            "2009-07-19",
            "inf",
            "1-2",
            "--1",
        ] {
            assert_eq!(plain_number(token), None, "{token}");
        }
    }

    #[test]
    fn reads_multi_line_arrays_with_comments() {
        let mut cursor = Cursor::new("[\n  1, # one\n  2,\n] # c\r\nb");
        assert_eq!(
            cursor.value(0).unwrap(),
            Value::Array(vec![Value::Integer(1), Value::Integer(2)])
        );
        cursor.end_of_line().unwrap();
        assert_eq!(cursor.pos(), Pos { line: 5, col: 1 });
    }
}
