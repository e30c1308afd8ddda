//! One loaded plugin: the only module that touches the C ABI's raw pointers.
//!
//! Loading: the file's bytes are read once, hashed, checked against the config, and the very
//! bytes that were checked are written to a private copy which is the one `dlopen`ed (then
//! unlinked) — so the file cannot be swapped between the check and the load, and a plugin
//! rebuilt in place is loaded anew rather than served from the loader's cache of the old path.
//! The descriptor's ABI version is read alone, before any other field; everything else is
//! copied out and validated (UTF-8, registered rule-point ids) at load.
//!
//! Calling: the host's memory is lent for the call; the answer is copied and handed back to the
//! plugin's `free`. The whole call runs under `catch_unwind` — a second guard behind the
//! plugin-side one of `export_plugin!`, for panics in the host's own decoding. (A plugin that
//! lets a panic reach the `extern "C"` boundary is aborted by Rust itself, since 1.81: that is
//! why the plugin side must catch, and `export_plugin!` does.)

use super::digest::sha256_hex;
use super::error::PluginError;
use super::PluginConfig;
use floor_plugin_api::{
    FloorStr, PluginDescriptor, PluginResult, ABI_VERSION, REGISTER_SYMBOL, STATUS_BAD_INPUT,
    STATUS_ERROR, STATUS_OK, STATUS_PANIC, STATUS_UNKNOWN_RULE_POINT,
};
use serde::Serialize;
use serde_json::Value;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// Who answered: stamped on every plugin ruling.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PluginRef {
    /// The plugin's name (its descriptor's).
    pub name: String,
    /// Its version (its descriptor's).
    pub version: String,
    /// The SHA-256 of the library file that was loaded.
    pub sha256: String,
}

impl std::fmt::Display for PluginRef {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} {} sha256:{}", self.name, self.version, self.sha256)
    }
}

type CallFn = unsafe extern "C" fn(FloorStr, FloorStr) -> PluginResult;
type FreeFn = unsafe extern "C" fn(PluginResult);
type RegisterFn = unsafe extern "C" fn() -> *const PluginDescriptor;

/// A plugin loaded and checked, ready to answer its rule points. `Send + Sync`: plugins must
/// accept concurrent calls (the ABI requires it), so the daemon may share one across threads.
#[derive(Debug)]
pub struct LoadedPlugin {
    identity: PluginRef,
    path: PathBuf,
    rule_points: Vec<String>,
    call: CallFn,
    free: FreeFn,
    /// Keeps the code mapped while `call` and `free` may be used.
    _library: libloading::Library,
}

impl LoadedPlugin {
    /// Loads the plugin at `path` if `config` allows it: listed, with these very bytes' SHA-256,
    /// built for this host's ABI version, and (when the config names it) with that name.
    pub fn open(path: &Path, config: &PluginConfig) -> Result<LoadedPlugin, PluginError> {
        let bytes = read(path)?;
        let sha256 = sha256_hex(&bytes);
        let entry = config.authorize(path, &sha256)?;
        let plugin = LoadedPlugin::from_bytes(path, &bytes, sha256)?;
        if let Some(name) = entry.name.as_deref().filter(|n| *n != plugin.identity.name) {
            return Err(PluginError::BadDescriptor {
                path: path.to_path_buf(),
                problem: format!(
                    "it calls itself `{}`, but {} lists it as `{name}`",
                    plugin.identity.name,
                    config.origin.display()
                ),
            });
        }
        Ok(plugin)
    }

    /// Loads a plugin without any config: for the plugin developer's own tools (`floor plugin
    /// check`, `floor plugin call` without `--config`). Loading runs the library's code: the
    /// daemon never uses this.
    pub fn open_unchecked(path: &Path) -> Result<LoadedPlugin, PluginError> {
        let bytes = read(path)?;
        let sha256 = sha256_hex(&bytes);
        LoadedPlugin::from_bytes(path, &bytes, sha256)
    }

    /// Loads the checked `bytes` through a private copy, then reads and validates the descriptor.
    fn from_bytes(path: &Path, bytes: &[u8], sha256: String) -> Result<LoadedPlugin, PluginError> {
        let open_error = |message: String| PluginError::Open {
            path: path.to_path_buf(),
            message,
        };
        let copy = PrivateCopy::write(bytes)
            .map_err(|e| open_error(format!("cannot write a private copy to load: {e}")))?;
        // SAFETY: loading a library runs its initialisers. The bytes are those the operator
        // allowed by hash (or, for `open_unchecked`, the file the developer named).
        let library = unsafe { libloading::Library::new(copy.file()) }
            .map_err(|e| open_error(e.to_string()))?;
        drop(copy);
        // SAFETY: the ABI fixes the symbol's type as `extern "C" fn() -> *const descriptor`.
        let register: RegisterFn = unsafe { library.get::<RegisterFn>(REGISTER_SYMBOL) }
            .map(|symbol| *symbol)
            .map_err(|e| {
                open_error(format!(
                    "no `floor_plugin_register` entry point ({e}): is it a floor plugin, built with `export_plugin!`?"
                ))
            })?;
        let bad = |problem: String| PluginError::BadDescriptor {
            path: path.to_path_buf(),
            problem,
        };
        // SAFETY: calling the entry point the ABI defines; it takes nothing and must not unwind.
        let raw = catch_unwind(|| unsafe { register() })
            .map_err(|_| bad("`floor_plugin_register` panicked".into()))?;
        if raw.is_null() || !raw.is_aligned() {
            return Err(bad(
                "`floor_plugin_register` returned a null or misaligned descriptor".into(),
            ));
        }
        // SAFETY: every ABI version starts its descriptor with the `u32` version; nothing else is
        // read before the version is known to be ours.
        let found = unsafe { raw.cast::<u32>().read() };
        if found != ABI_VERSION {
            return Err(PluginError::AbiMismatch {
                path: path.to_path_buf(),
                found,
                expected: ABI_VERSION,
            });
        }
        // SAFETY: an ABI-1 descriptor, static in the library, which stays loaded.
        let descriptor = unsafe { &*raw };
        // SAFETY: descriptor strings point at the library's static data.
        let text = |s: FloorStr, what: &str| {
            std::str::from_utf8(unsafe { s.as_bytes() })
                .map(str::to_string)
                .map_err(|_| bad(format!("its {what} is not UTF-8")))
        };
        let name = text(descriptor.name, "name")?;
        if name.is_empty() || name.chars().any(char::is_whitespace) {
            return Err(bad(format!("its name `{name}` is empty or has spaces")));
        }
        let version = text(descriptor.version, "version")?;
        let count = descriptor.rule_points_len;
        if count == 0 || count > 1024 || descriptor.rule_points.is_null() {
            return Err(bad(format!(
                "it declares {count} rule points (from 1 to 1024, through a non-null array)"
            )));
        }
        // SAFETY: a non-null array of `count` ids in the library's static data.
        let ids = unsafe { std::slice::from_raw_parts(descriptor.rule_points, count) };
        let mut rule_points = Vec::with_capacity(count);
        for &id in ids {
            let id = text(id, "rule-point id")?;
            if floor_engine::rules::registry::get(&id).is_none() {
                return Err(bad(format!(
                    "it declares `{id}`, which is not a registered rule point (`floor explain --list`)"
                )));
            }
            rule_points.push(id);
        }
        Ok(LoadedPlugin {
            identity: PluginRef {
                name,
                version,
                sha256,
            },
            path: path.to_path_buf(),
            rule_points,
            call: descriptor.call,
            free: descriptor.free,
            _library: library,
        })
    }

    /// Name, version and SHA-256.
    pub fn identity(&self) -> &PluginRef {
        &self.identity
    }

    /// The file it was loaded from.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The rule points it declares.
    pub fn rule_points(&self) -> &[String] {
        &self.rule_points
    }

    /// The ABI version it speaks (always the host's: others are refused at load).
    pub fn abi_version(&self) -> u32 {
        ABI_VERSION
    }

    /// Asks the plugin for `rule_point` with `context`; its JSON answer, or why there is none.
    /// A panic inside the plugin is an `Err`, and the plugin stays usable.
    pub fn call(&self, rule_point: &str, context: &Value) -> Result<Value, PluginError> {
        self.call_json(rule_point, &context.to_string())
    }

    /// [`LoadedPlugin::call`] with the context already written as JSON text.
    pub fn call_json(&self, rule_point: &str, context: &str) -> Result<Value, PluginError> {
        if !self.rule_points.iter().any(|p| p == rule_point) {
            return Err(PluginError::NotImplemented {
                plugin: self.identity.name.clone(),
                point: rule_point.to_string(),
                implemented: self.rule_points.join(", "),
            });
        }
        let input = context.as_bytes();
        catch_unwind(AssertUnwindSafe(|| self.call_raw(rule_point, input))).unwrap_or_else(
            |payload| {
                let message = payload
                    .downcast_ref::<&str>()
                    .map(|s| s.to_string())
                    .or_else(|| payload.downcast_ref::<String>().cloned())
                    .unwrap_or_default();
                Err(
                    self.error(rule_point, |plugin, version, point| PluginError::Panicked {
                        plugin,
                        version,
                        point,
                        message: format!("caught in the host: {message}"),
                    }),
                )
            },
        )
    }

    fn call_raw(&self, rule_point: &str, input: &[u8]) -> Result<Value, PluginError> {
        // SAFETY: both views borrow live memory for the duration of the call, as the ABI says.
        let result = unsafe {
            (self.call)(
                FloorStr::borrow(rule_point.as_bytes()),
                FloorStr::borrow(input),
            )
        };
        let status = result.status;
        let bytes = if result.ptr.is_null() {
            (result.len == 0).then(Vec::new)
        } else if result.len > isize::MAX as usize {
            None
        } else {
            // SAFETY: the plugin lends `len` bytes at `ptr` until we call its `free`, below.
            Some(unsafe { std::slice::from_raw_parts(result.ptr, result.len) }.to_vec())
        };
        // SAFETY: a result of this plugin's `call`, freed once.
        unsafe { (self.free)(result) };
        let bad = |problem: String| {
            self.error(rule_point, |plugin, version, point| {
                PluginError::BadAnswer {
                    plugin,
                    version,
                    point,
                    problem,
                }
            })
        };
        let bytes = bytes.ok_or_else(|| bad("a null or oversized buffer".into()))?;
        let message = String::from_utf8_lossy(&bytes).into_owned();
        match status {
            STATUS_OK => serde_json::from_slice(&bytes)
                .map_err(|e| bad(format!("the answer is not JSON: {e}"))),
            STATUS_ERROR | STATUS_BAD_INPUT => Err(self.error(
                rule_point,
                |plugin, version, point| PluginError::Refused {
                    plugin,
                    version,
                    point,
                    message,
                },
            )),
            STATUS_PANIC => {
                Err(
                    self.error(rule_point, |plugin, version, point| PluginError::Panicked {
                        plugin,
                        version,
                        point,
                        message,
                    }),
                )
            }
            STATUS_UNKNOWN_RULE_POINT => Err(PluginError::NotImplemented {
                plugin: self.identity.name.clone(),
                point: rule_point.to_string(),
                implemented: self.rule_points.join(", "),
            }),
            other => Err(bad(format!("unknown status {other} ({message})"))),
        }
    }

    fn error(
        &self,
        point: &str,
        make: impl FnOnce(String, String, String) -> PluginError,
    ) -> PluginError {
        make(
            self.identity.name.clone(),
            self.identity.version.clone(),
            point.to_string(),
        )
    }
}

fn read(path: &Path) -> Result<Vec<u8>, PluginError> {
    std::fs::read(path).map_err(|source| PluginError::Read {
        path: path.to_path_buf(),
        source,
    })
}

/// The checked bytes in a fresh directory only this process created (mode 0700 on Unix),
/// removed on drop — right after `dlopen`, which keeps its own mapping.
struct PrivateCopy {
    dir: PathBuf,
    file: PathBuf,
}

impl PrivateCopy {
    fn write(bytes: &[u8]) -> std::io::Result<PrivateCopy> {
        static COUNTER: AtomicU64 = AtomicU64::new(0);
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.subsec_nanos());
        let dir = std::env::temp_dir().join(format!(
            "floor-plugin-{}-{}-{nanos}",
            std::process::id(),
            COUNTER.fetch_add(1, Ordering::Relaxed)
        ));
        // `create` fails if the path exists: nobody can have prepared it for us; on Unix it is
        // created 0700, so nobody else can put anything in it either.
        let mut builder = std::fs::DirBuilder::new();
        #[cfg(unix)]
        std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
        builder.create(&dir)?;
        let copy = PrivateCopy {
            file: dir.join(format!("plugin{}", std::env::consts::DLL_SUFFIX)),
            dir,
        };
        let mut file = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&copy.file)?;
        std::io::Write::write_all(&mut file, bytes)?;
        Ok(copy)
    }

    fn file(&self) -> &Path {
        &self.file
    }
}

impl Drop for PrivateCopy {
    fn drop(&mut self) {
        // On Windows a loaded DLL cannot be removed; the copy then stays in the temp directory.
        let _ = std::fs::remove_file(&self.file);
        let _ = std::fs::remove_dir(&self.dir);
    }
}
