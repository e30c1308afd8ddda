//! The fields a replay does not type (`players`, `venue`, `time`, unknown ones): checked as
//! the general reader checks them, so that a hand it would refuse is not replayed, and not
//! kept.

use super::FastReader;
use crate::phh::toml::is_datetime;

impl FastReader<'_> {
    /// A field the hand does not type: checked as the general reader checks it (its type,
    /// and for `seats`, `players` and `time_banks` its length), not kept.
    pub(super) fn other(&mut self, key: &[u8]) -> Option<()> {
        match key {
            b"author"
            | b"event"
            | b"url"
            | b"venue"
            | b"address"
            | b"city"
            | b"region"
            | b"postal_code"
            | b"country"
            | b"time_zone"
            | b"time_zone_abbreviation"
            | b"currency"
            | b"currency_symbol" => self.string().map(|_| ()),
            b"time" => {
                let token = self.bare();
                (token.contains(':') && !token.contains('-') && is_datetime(token)).then_some(())
            }
            b"day" | b"month" | b"year" | b"level" | b"seat_count" => {
                self.number().filter(|&(_, integer)| integer).map(|_| ())
            }
            b"hand" | b"table" => {
                if matches!(self.peek(), Some(b'\'' | b'"')) {
                    self.string().map(|_| ())
                } else {
                    self.number().filter(|&(_, integer)| integer).map(|_| ())
                }
            }
            b"seats" => {
                let n = self.array(|r| r.number().filter(|&(_, i)| i).map(|_| ()))?;
                self.lengths.push(n);
                Some(())
            }
            b"players" => {
                let n = self.array(|r| r.string().map(|_| ()))?;
                self.lengths.push(n);
                Some(())
            }
            b"time_banks" => {
                let n = self.array(|r| r.number().map(|_| ()))?;
                self.lengths.push(n);
                Some(())
            }
            b"ante_trimming_status" => matches!(self.bare(), "true" | "false").then_some(()),
            b"time_limit" => self.number().map(|_| ()),
            b"total_pot_amount" | b"rake" => self.number().map(|_| ()),
            // Any other field may hold any value: a plain scalar, or an array of them.
            _ => match self.peek()? {
                b'[' => self.array(|r| r.scalar()).map(|_| ()),
                _ => self.scalar(),
            },
        }
    }

    /// A string, a plain number or a boolean.
    fn scalar(&mut self) -> Option<()> {
        match self.peek()? {
            b'\'' | b'"' => self.string().map(|_| ()),
            b't' | b'f' => matches!(self.bare(), "true" | "false").then_some(()),
            _ => self.number().map(|_| ()),
        }
    }
}
