//! A plugin built against another ABI version, for the host's tests: its descriptor starts with
//! `ABI_VERSION + 1` and continues with a layout the host does not know. The host must read the
//! version alone and refuse it without touching the rest.

/// What a future ABI's descriptor might look like: only the first field is fixed forever.
#[repr(C)]
pub struct FutureDescriptor {
    /// The ABI version, first as every version requires.
    pub abi_version: u32,
    /// A field the host of ABI 1 does not know.
    pub flags: u64,
}

static DESCRIPTOR: FutureDescriptor = FutureDescriptor {
    abi_version: floor_plugin_api::ABI_VERSION + 1,
    flags: u64::MAX,
};

/// The registration entry point, returning the future descriptor.
#[unsafe(no_mangle)]
pub extern "C" fn floor_plugin_register() -> *const FutureDescriptor {
    &DESCRIPTOR
}
