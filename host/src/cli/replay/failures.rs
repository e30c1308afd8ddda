//! A list of remarks on hands (failures, notes) that stays small in memory however long it
//! grows: past [`IN_MEMORY`] entries, the rest are written to an unnamed temporary file (the
//! system removes it when the command ends) and read back, in order, when the report is
//! printed.

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::io::{BufRead, BufReader, BufWriter, Seek, Write};

/// How many remarks are kept in memory before the list moves on to a file.
const IN_MEMORY: usize = 20_000;

/// One hand that failed a check (or, in `notes`, one remark on a hand).
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
pub(super) struct Failure {
    pub file: String,
    /// The hand's `[N]` number in a .phhs file (1 for a .phh file).
    pub hand: usize,
    /// The source line of the offending action, or of the hand's header.
    pub line: usize,
    pub kind: String,
    pub message: String,
}

/// The remarks on hands, in the order they were made.
pub(super) type Failures = Spilled<Failure>;

/// A list kept in memory up to [`IN_MEMORY`] entries, and in a temporary file past that.
pub(super) struct Spilled<T> {
    first: Vec<T>,
    rest: Option<BufWriter<std::fs::File>>,
    len: usize,
    /// The first problem writing the file: the report cannot be complete.
    error: Option<String>,
}

impl<T> Default for Spilled<T> {
    fn default() -> Self {
        Spilled {
            first: Vec::new(),
            rest: None,
            len: 0,
            error: None,
        }
    }
}

impl<T: Serialize + DeserializeOwned> Spilled<T> {
    pub fn push(&mut self, failure: T) {
        self.len += 1;
        if self.first.len() < IN_MEMORY {
            self.first.push(failure);
            return;
        }
        if self.rest.is_none() && self.error.is_none() {
            match tempfile::tempfile() {
                Ok(file) => self.rest = Some(BufWriter::new(file)),
                Err(e) => self.error = Some(e.to_string()),
            }
        }
        if let Some(out) = &mut self.rest {
            let written = serde_json::to_writer(&mut *out, &failure)
                .map_err(|e| e.to_string())
                .and_then(|()| out.write_all(b"\n").map_err(|e| e.to_string()));
            if let Err(e) = written {
                self.error.get_or_insert(e);
            }
        }
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Calls `each` with every entry, in order; `each`'s errors keep their kind (a reader
    /// that closed the pipe is told apart).
    pub fn for_each(
        &mut self,
        mut each: impl FnMut(&T) -> std::io::Result<()>,
    ) -> std::io::Result<()> {
        let other = |e: String| std::io::Error::other(e);
        if let Some(e) = &self.error {
            return Err(other(format!("the list could not be kept: {e}")));
        }
        for failure in &self.first {
            each(failure)?;
        }
        let Some(out) = self.rest.take() else {
            return Ok(());
        };
        let mut file = out.into_inner().map_err(|e| other(e.to_string()))?;
        file.rewind()?;
        for line in BufReader::new(file).lines() {
            let failure: T = serde_json::from_str(&line?).map_err(|e| other(e.to_string()))?;
            each(&failure)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Past what memory holds, the list goes on in a file and reads back whole, in order.
    #[test]
    fn a_long_list_reads_back_in_order() {
        let mut list = Failures::default();
        let remark = |i: usize| Failure {
            file: "f.phhs".into(),
            hand: i,
            line: i * 10,
            kind: "illegal_action".into(),
            message: format!("action {i}: refused"),
        };
        for i in 0..IN_MEMORY + 100 {
            list.push(remark(i));
        }
        assert_eq!(list.len(), IN_MEMORY + 100);
        let mut back = Vec::new();
        list.for_each(|f| {
            back.push(f.clone());
            Ok(())
        })
        .expect("the list reads back");
        assert_eq!(back.len(), IN_MEMORY + 100);
        assert!(back.iter().enumerate().all(|(i, f)| *f == remark(i)));
    }
}
