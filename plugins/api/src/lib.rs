//! The C ABI between floor's host and a native rule-point plugin, and safe helpers so that a
//! plugin author writes plain Rust.
//!
//! # The ABI in one screen
//!
//! A plugin is a shared library (`cdylib`) exporting one symbol, [`REGISTER_SYMBOL`]
//! (`floor_plugin_register`), an `extern "C" fn() -> *const PluginDescriptor`. The descriptor is
//! static (it lives as long as the library is loaded) and says:
//!
//! - [`PluginDescriptor::abi_version`], always the **first** field, a `u32`: the host reads it
//!   alone and refuses the plugin unless it equals its own [`ABI_VERSION`], before it touches any
//!   other field (whose layout may change from one ABI version to the next);
//! - the plugin's name and version (UTF-8, borrowed, static);
//! - the rule points it implements (dotted ids, as `floor explain --list` prints them);
//! - `call`: takes a rule-point id and the rule point's context as JSON bytes, returns a
//!   [`PluginResult`]: a status code and bytes the plugin allocated (JSON on success, a UTF-8
//!   message otherwise);
//! - `free`: gives those bytes back to the plugin, which frees them with its own allocator (the
//!   host and the plugin may not share one).
//!
//! # Why these choices
//!
//! - **C ABI, not Rust ABI**: Rust's own ABI (layouts of `String`, `Vec`, trait objects,
//!   `Result`) is not stable between compiler versions; `#[repr(C)]` structs of pointers,
//!   lengths and integers are. A plugin built with another rustc (or in C) still works.
//! - **JSON for contexts and results**: the same reason one level up — a serialized form does not
//!   depend on either side's struct layout, lets a rule point's context grow new fields without
//!   an ABI bump (readers ignore what they do not know), and is what the daemon's HTTP API and
//!   journal already speak, so a plugin's answer can be journaled as it came.
//! - **Status codes as `u32` constants, not a Rust `enum`**: an unexpected value in a `repr` enum
//!   is undefined behaviour; an unexpected `u32` is just an unknown status the host reports.
//! - **The plugin frees what it allocated**: the two sides may link different allocators.
//! - **No unwinding across the boundary**: a panic unwinding out of an `extern "C"` function is
//!   undefined behaviour (since Rust 1.81 it aborts the process). [`export_plugin!`] runs every
//!   plugin function under `catch_unwind` and returns a panic as [`STATUS_PANIC`] with its
//!   message; the host turns it into a ruling error and keeps running.
//!
//! # Writing a plugin
//!
//! ```ignore
//! use serde_json::{json, Value};
//!
//! fn chop(ctx: Value) -> Result<Value, String> {
//!     Ok(json!({ "echo": ctx }))
//! }
//!
//! floor_plugin_api::export_plugin! {
//!     name: "my-plugin",
//!     version: env!("CARGO_PKG_VERSION"),
//!     rule_points: {
//!         "prize.chop_deals" => chop,
//!     },
//! }
//! ```
//!
//! with `crate-type = ["cdylib"]` in the plugin's `Cargo.toml`. See `plugins/README.md`.

mod abi;
mod export;

pub use abi::{
    FloorStr, PluginDescriptor, PluginResult, ABI_VERSION, REGISTER_SYMBOL, STATUS_BAD_INPUT,
    STATUS_ERROR, STATUS_OK, STATUS_PANIC, STATUS_UNKNOWN_RULE_POINT,
};
pub use export::RulePointFn;

/// Re-exports and helpers the [`export_plugin!`] macro expands to. Not part of the stable
/// interface: plugin authors use the macro, never these.
#[doc(hidden)]
pub mod __private {
    pub use crate::export::{dispatch, free_result, typed, Handler};
    pub use serde_json;
}
