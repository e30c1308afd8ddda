//! Integration tests live in `tests/tests/`; this crate has no library code of its own.
