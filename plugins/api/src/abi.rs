//! The `#[repr(C)]` types and constants both sides agree on. Changing any layout here, or the
//! meaning of a status code, requires bumping [`ABI_VERSION`].

/// The ABI version this crate speaks. The host refuses a plugin whose descriptor carries another.
///
/// Version 1: the descriptor, [`FloorStr`], [`PluginResult`] and status codes as defined here.
pub const ABI_VERSION: u32 = 1;

/// The symbol every plugin exports: `extern "C" fn() -> *const PluginDescriptor`.
/// NUL-terminated, as `libloading` looks symbols up by C string.
pub const REGISTER_SYMBOL: &[u8] = b"floor_plugin_register\0";

/// The call succeeded: the result bytes are the rule point's answer as JSON.
pub const STATUS_OK: u32 = 0;
/// The plugin refused the context (a rule it enforces, missing fields...): the bytes are a UTF-8
/// message for the ruling error.
pub const STATUS_ERROR: u32 = 1;
/// The plugin panicked; the panic was caught inside the plugin. The bytes are the panic message.
pub const STATUS_PANIC: u32 = 2;
/// The plugin does not implement the rule point it was called with. The bytes name it.
pub const STATUS_UNKNOWN_RULE_POINT: u32 = 3;
/// The inputs were not valid (rule point not UTF-8, context not JSON). The bytes say which.
pub const STATUS_BAD_INPUT: u32 = 4;

/// A borrowed byte string (UTF-8 text or JSON): pointer and length, no terminator.
///
/// In the descriptor it points at static data of the plugin; as a `call` argument it points at
/// the host's memory and is valid only during the call.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct FloorStr {
    /// First byte (may dangle when `len` is 0, but is never null).
    pub ptr: *const u8,
    /// Number of bytes.
    pub len: usize,
}

impl FloorStr {
    /// A `FloorStr` borrowing a static string (usable in `static` descriptors).
    pub const fn from_static(text: &'static str) -> FloorStr {
        FloorStr {
            ptr: text.as_ptr(),
            len: text.len(),
        }
    }

    /// A `FloorStr` borrowing `bytes` for the duration of a call.
    pub fn borrow(bytes: &[u8]) -> FloorStr {
        FloorStr {
            ptr: bytes.as_ptr(),
            len: bytes.len(),
        }
    }

    /// The bytes it points at.
    ///
    /// # Safety
    /// `ptr` must be valid for reads of `len` bytes for the lifetime `'a`, or `ptr` null (read as
    /// empty).
    pub unsafe fn as_bytes<'a>(self) -> &'a [u8] {
        if self.ptr.is_null() || self.len == 0 {
            &[]
        } else {
            // SAFETY: the caller guarantees `ptr` is valid for `len` bytes during `'a`.
            unsafe { std::slice::from_raw_parts(self.ptr, self.len) }
        }
    }
}

/// What a plugin's `call` returns: a status (one of the `STATUS_*` constants) and bytes the
/// plugin allocated, which the host copies and then hands back through the descriptor's `free`.
#[repr(C)]
#[derive(Debug)]
pub struct PluginResult {
    /// `STATUS_OK` (bytes = JSON answer) or an error status (bytes = UTF-8 message).
    pub status: u32,
    /// The bytes (null when `len` is 0).
    pub ptr: *mut u8,
    /// Number of bytes (the allocation is exactly this long: a boxed slice).
    pub len: usize,
}

/// What `floor_plugin_register` returns. Static: valid while the library stays loaded.
///
/// Only `abi_version` has a layout fixed forever; the rest is the layout of ABI version 1.
#[repr(C)]
#[derive(Debug)]
pub struct PluginDescriptor {
    /// Must be the first field: the ABI this plugin was built against ([`ABI_VERSION`]).
    pub abi_version: u32,
    /// The plugin's name, as rulesets name it in a binding's `plugin` (`icm-chop`).
    pub name: FloorStr,
    /// The plugin's version (semver text), stamped on every ruling it makes.
    pub version: FloorStr,
    /// The rule points it implements: an array of `rule_points_len` ids.
    pub rule_points: *const FloorStr,
    /// How many rule points.
    pub rule_points_len: usize,
    /// Answers a rule point: `(rule_point, context_json) -> result`. Must not unwind.
    pub call: unsafe extern "C" fn(rule_point: FloorStr, context: FloorStr) -> PluginResult,
    /// Frees a result `call` returned. Must be called exactly once per result.
    pub free: unsafe extern "C" fn(result: PluginResult),
}

// SAFETY: a descriptor only holds pointers to immutable static data and function pointers; it is
// never written after construction, so sharing it between threads is sound.
unsafe impl Sync for PluginDescriptor {}
// SAFETY: as above, for the static rule-point id arrays descriptors point at.
unsafe impl Sync for FloorStr {}
// SAFETY: a `FloorStr` is a read-only view; moving it between threads moves no ownership.
unsafe impl Send for FloorStr {}
