//! The contexts of every table event, cash and tournament point, by catalogue area: the
//! facts each decision reads, as the rulebooks' scripts document them, typed and bounded.

mod betting;
mod conduct;
mod dealing;
mod governance_table;
mod operations;

pub use betting::*;
pub use conduct::*;
pub use dealing::*;
pub use governance_table::*;
pub use operations::*;

use super::Signature;

/// Every area's signatures, in catalogue order.
pub(super) const SIGNATURES: &[&[Signature]] = &[
    governance_table::SIGNATURES,
    dealing::SIGNATURES,
    betting::SIGNATURES,
    conduct::SIGNATURES,
    operations::SIGNATURES,
];
