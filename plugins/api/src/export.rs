//! The plugin side: the [`export_plugin!`](crate::export_plugin) macro and the safe dispatcher it
//! expands to, so that plugin authors write `fn(Context) -> Result<Answer, String>` and never a
//! raw pointer, and so that no panic ever unwinds out of the library.
//!
//! `Context` and `Answer` are any serde types: the point's own (as `floor plugin new` writes
//! them from `floor explain POINT --schema`), or `serde_json::Value` for a function that reads
//! the JSON itself. A typed function is read straight from the host's bytes, with no JSON tree
//! built in between: at a point asked at every decision of a hand that is most of a call's
//! cost.

use crate::abi::{
    FloorStr, PluginResult, STATUS_BAD_INPUT, STATUS_ERROR, STATUS_OK, STATUS_PANIC,
    STATUS_UNKNOWN_RULE_POINT,
};
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::Value;
use std::panic::{catch_unwind, AssertUnwindSafe};

/// A rule point's implementation reading the JSON itself: the context as JSON in, the answer
/// as JSON out, or a message saying why there is no answer (it becomes the ruling error the
/// host reports). Any `fn(C) -> Result<A, String>` with serde types `C` and `A` may be
/// exported as well.
pub type RulePointFn = fn(Value) -> Result<Value, String>;

/// What [`export_plugin!`](crate::export_plugin) makes of each exported function: the
/// context's bytes in, a status and the answer's (or the message's) bytes out.
pub type Handler = fn(&[u8]) -> (u32, Vec<u8>);

/// Reads `context` as `C`, runs `function` and writes its answer: the body of every
/// [`Handler`] the macro generates.
pub fn typed<C, A, F>(context: &[u8], function: F) -> (u32, Vec<u8>)
where
    C: DeserializeOwned,
    A: Serialize,
    F: FnOnce(C) -> Result<A, String>,
{
    let context: C = match serde_json::from_slice(context) {
        Ok(context) => context,
        Err(error) if error.is_syntax() || error.is_eof() => {
            return (
                STATUS_BAD_INPUT,
                format!("the context is not JSON: {error}").into_bytes(),
            )
        }
        Err(error) => {
            return (
                STATUS_BAD_INPUT,
                format!("the context cannot be read as this point's: {error}").into_bytes(),
            )
        }
    };
    match function(context) {
        Ok(answer) => match serde_json::to_vec(&answer) {
            Ok(bytes) => (STATUS_OK, bytes),
            Err(error) => (
                STATUS_ERROR,
                format!("the answer cannot be written as JSON: {error}").into_bytes(),
            ),
        },
        Err(message) => (STATUS_ERROR, message.into_bytes()),
    }
}

/// Answers one `call`: decodes the inputs, finds the rule point's function, runs it under
/// `catch_unwind` and encodes the outcome. Never unwinds.
///
/// # Safety
/// `rule_point` and `context` must be valid for reads of their lengths during the call (the
/// host's contract for `call`).
pub unsafe fn dispatch(
    points: &[(&str, Handler)],
    rule_point: FloorStr,
    context: FloorStr,
) -> PluginResult {
    // SAFETY: the host guarantees both views are valid for the duration of the call.
    let (point_bytes, context_bytes) = unsafe { (rule_point.as_bytes(), context.as_bytes()) };
    let outcome = catch_unwind(AssertUnwindSafe(|| {
        answer(points, point_bytes, context_bytes)
    }));
    match outcome {
        Ok((status, bytes)) => result(status, bytes),
        Err(payload) => result(STATUS_PANIC, panic_message(payload.as_ref()).into_bytes()),
    }
}

/// The part of [`dispatch`] that may panic (it runs the author's function).
fn answer(points: &[(&str, Handler)], point: &[u8], context: &[u8]) -> (u32, Vec<u8>) {
    let Ok(point) = std::str::from_utf8(point) else {
        return (STATUS_BAD_INPUT, b"the rule-point id is not UTF-8".to_vec());
    };
    let Some((_, handler)) = points.iter().find(|(id, _)| *id == point) else {
        return (
            STATUS_UNKNOWN_RULE_POINT,
            format!("this plugin does not implement `{point}`").into_bytes(),
        );
    };
    handler(context)
}

/// The text of a panic's payload (`panic!("...")` gives a `&str` or a `String`).
fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    let text = payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic with a non-text payload".to_string());
    format!("the plugin panicked: {text}")
}

/// Hands `bytes` to the host as a boxed slice (length = allocation size, so `free_result` can
/// rebuild it exactly).
fn result(status: u32, bytes: Vec<u8>) -> PluginResult {
    if bytes.is_empty() {
        return PluginResult {
            status,
            ptr: std::ptr::null_mut(),
            len: 0,
        };
    }
    let len = bytes.len();
    let ptr = Box::into_raw(bytes.into_boxed_slice()) as *mut u8;
    PluginResult { status, ptr, len }
}

/// The descriptor's `free`: drops a result's bytes with the allocator that made them.
///
/// # Safety
/// `result` must come from this library's `call` and be freed only once.
pub unsafe extern "C" fn free_result(result: PluginResult) {
    if result.ptr.is_null() || result.len == 0 {
        return;
    }
    let slice = std::ptr::slice_from_raw_parts_mut(result.ptr, result.len);
    // SAFETY: `ptr`/`len` were produced by `Box::into_raw` of a boxed slice of exactly `len`
    // bytes in `result`, and the host frees each result once.
    drop(unsafe { Box::from_raw(slice) });
}

/// Exports a plugin: its name, version and the plain Rust function answering each rule point
/// (`fn(C) -> Result<A, String>`, `C` and `A` any serde types, e.g. the point's context and
/// answer types, or `serde_json::Value`).
///
/// ```ignore
/// floor_plugin_api::export_plugin! {
///     name: "icm-chop",
///     version: env!("CARGO_PKG_VERSION"),
///     rule_points: {
///         "prize.chop_deals" => crate::chop_deals,
///     },
/// }
/// ```
///
/// Expands to a static [`PluginDescriptor`](crate::PluginDescriptor) carrying
/// [`ABI_VERSION`](crate::ABI_VERSION) and the exported `floor_plugin_register` symbol. Each
/// function runs under `catch_unwind`: a panic comes back to the host as
/// [`STATUS_PANIC`](crate::STATUS_PANIC) with its message. Use it once per library.
#[macro_export]
macro_rules! export_plugin {
    (
        name: $name:expr,
        version: $version:expr,
        rule_points: { $($point:literal => $function:path),+ $(,)? } $(,)?
    ) => {
        const _: () = {
            const POINTS: &[(&str, $crate::__private::Handler)] = &[$((
                $point,
                {
                    fn handler(context: &[u8]) -> (u32, ::std::vec::Vec<u8>) {
                        $crate::__private::typed(context, $function)
                    }
                    handler
                } as $crate::__private::Handler,
            )),+];
            const IDS: &[$crate::FloorStr] = &[$($crate::FloorStr::from_static($point)),+];

            unsafe extern "C" fn call(
                rule_point: $crate::FloorStr,
                context: $crate::FloorStr,
            ) -> $crate::PluginResult {
                // SAFETY: the host passes views valid for the duration of the call.
                unsafe { $crate::__private::dispatch(POINTS, rule_point, context) }
            }

            static DESCRIPTOR: $crate::PluginDescriptor = $crate::PluginDescriptor {
                abi_version: $crate::ABI_VERSION,
                name: $crate::FloorStr::from_static($name),
                version: $crate::FloorStr::from_static($version),
                rule_points: IDS.as_ptr(),
                rule_points_len: IDS.len(),
                call,
                free: $crate::__private::free_result,
            };

            /// The plugin's registration entry point (floor's plugin ABI).
            #[unsafe(no_mangle)]
            pub extern "C" fn floor_plugin_register() -> *const $crate::PluginDescriptor {
                &DESCRIPTOR
            }
        };
    };
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn echo(ctx: Value) -> Result<Value, String> {
        Ok(json!({ "got": ctx }))
    }

    fn refuse(_: Value) -> Result<Value, String> {
        Err("no deal".to_string())
    }

    fn boom(_: Value) -> Result<Value, String> {
        panic!("boom")
    }

    fn echo_handler(context: &[u8]) -> (u32, Vec<u8>) {
        typed(context, echo)
    }

    fn refuse_handler(context: &[u8]) -> (u32, Vec<u8>) {
        typed(context, refuse)
    }

    fn boom_handler(context: &[u8]) -> (u32, Vec<u8>) {
        typed(context, boom)
    }

    /// A typed point: the context read into a struct, the answer a plain number.
    #[derive(serde::Deserialize)]
    struct Bet {
        current_bet: u64,
    }

    fn doubled(bet: Bet) -> Result<u64, String> {
        Ok(bet.current_bet * 2)
    }

    fn doubled_handler(context: &[u8]) -> (u32, Vec<u8>) {
        typed(context, doubled)
    }

    const POINTS: &[(&str, Handler)] = &[
        ("a.echo", echo_handler as Handler),
        ("a.refuse", refuse_handler as Handler),
        ("a.boom", boom_handler as Handler),
        ("a.doubled", doubled_handler as Handler),
    ];

    fn run(point: &str, context: &str) -> (u32, String) {
        // SAFETY: both views borrow live strings for the call.
        let result = unsafe {
            dispatch(
                POINTS,
                FloorStr::borrow(point.as_bytes()),
                FloorStr::borrow(context.as_bytes()),
            )
        };
        // SAFETY: the result is valid until freed, below.
        let text = String::from_utf8_lossy(unsafe {
            FloorStr {
                ptr: result.ptr,
                len: result.len,
            }
            .as_bytes()
        })
        .into_owned();
        let status = result.status;
        // SAFETY: freed once, by the same library that allocated it.
        unsafe { free_result(result) };
        (status, text)
    }

    #[test]
    fn an_answer_comes_back_as_json() {
        assert_eq!(
            run("a.echo", "[1,2]"),
            (STATUS_OK, r#"{"got":[1,2]}"#.into())
        );
    }

    #[test]
    fn a_refusal_comes_back_as_an_error_message() {
        assert_eq!(run("a.refuse", "{}"), (STATUS_ERROR, "no deal".into()));
    }

    #[test]
    fn a_panic_is_caught_and_comes_back_as_a_message() {
        assert_eq!(
            run("a.boom", "{}"),
            (STATUS_PANIC, "the plugin panicked: boom".into())
        );
    }

    #[test]
    fn an_unknown_point_and_bad_json_are_refused() {
        assert_eq!(run("a.other", "{}").0, STATUS_UNKNOWN_RULE_POINT);
        let (status, message) = run("a.echo", "{not json");
        assert_eq!(status, STATUS_BAD_INPUT);
        assert!(message.starts_with("the context is not JSON"), "{message}");
    }

    #[test]
    fn a_typed_point_reads_its_context_and_writes_its_answer() {
        assert_eq!(
            run("a.doubled", r#"{"street":"Flop","current_bet":150}"#),
            (STATUS_OK, "300".into())
        );
        let (status, message) = run("a.doubled", r#"{"current_bet":"a lot"}"#);
        assert_eq!(status, STATUS_BAD_INPUT);
        assert!(
            message.starts_with("the context cannot be read as this point's"),
            "{message}"
        );
    }
}
