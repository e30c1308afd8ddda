//! The data directory's secrets stay the daemon's own. The directory holds the operator's and
//! auditor's tokens, the journal (every command and ruling) and the key that unseals the deck
//! seeds, so it is created 0700 and each of those files 0600, whatever the umask; a directory
//! or secret file that others may read is refused rather than used (a file already read by
//! someone else cannot be made secret again by the daemon).

use std::fs::{DirBuilder, OpenOptions, Permissions};
use std::io::Write as _;
use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};

/// The mode of the data directory.
pub const DIR_MODE: u32 = 0o700;
/// The mode of every secret file in it.
pub const FILE_MODE: u32 = 0o600;

/// The files of a data directory that hold secrets (besides the journal's own, see
/// [`journal_files`]).
pub const TOKENS_FILE: &str = "tokens.json";

/// Why the data directory or one of its secret files cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum PrivateError {
    /// Others (group or world) have access to it.
    #[error(
        "{path} has mode {mode:o}: others on this host may read it; the data directory must be 0700 and its files 0600 (`chmod {want:o} {path}`), and a secret others may already have read should be replaced"
    )]
    Open {
        /// The directory or file.
        path: String,
        /// Its permission bits.
        mode: u32,
        /// The mode it should have.
        want: u32,
    },
    /// The file system refused.
    #[error("{path}: {source}")]
    Io {
        /// The directory or file.
        path: String,
        /// Why.
        source: std::io::Error,
    },
}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> PrivateError + '_ {
    move |source| PrivateError::Io {
        path: path.display().to_string(),
        source,
    }
}

/// The journal's files in `data`: the database, its WAL and shared-memory index, the key that
/// seals deck seeds and the head record.
pub fn journal_files(data: &Path) -> [PathBuf; 5] {
    [
        data.join("journal.sqlite"),
        data.join("journal.sqlite-wal"),
        data.join("journal.sqlite-shm"),
        data.join(super::seal::KEY_FILE),
        data.join(super::head::HEAD_FILE),
    ]
}

/// Creates `dir` 0700 if it does not exist (its parents as usual); refuses one that exists
/// with access for others.
pub fn private_dir(dir: &Path) -> Result<(), PrivateError> {
    match std::fs::metadata(dir) {
        Ok(meta) => refuse_open(dir, meta.permissions().mode(), DIR_MODE),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            if let Some(parent) = dir.parent().filter(|p| !p.as_os_str().is_empty()) {
                std::fs::create_dir_all(parent).map_err(io(parent))?;
            }
            DirBuilder::new()
                .mode(DIR_MODE)
                .create(dir)
                .map_err(io(dir))?;
            // The umask may have taken bits away (never added any): set the mode exactly.
            std::fs::set_permissions(dir, Permissions::from_mode(DIR_MODE)).map_err(io(dir))
        }
        Err(e) => Err(io(dir)(e)),
    }
}

/// Refuses `path` if it exists with access for others; a missing file is fine.
pub fn private_file(path: &Path) -> Result<(), PrivateError> {
    match std::fs::metadata(path) {
        Ok(meta) => refuse_open(path, meta.permissions().mode(), FILE_MODE),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(io(path)(e)),
    }
}

fn refuse_open(path: &Path, mode: u32, want: u32) -> Result<(), PrivateError> {
    if mode & 0o077 == 0 {
        Ok(())
    } else {
        Err(PrivateError::Open {
            path: path.display().to_string(),
            mode: mode & 0o7777,
            want,
        })
    }
}

/// Creates an empty file 0600 if there is none (SQLite then creates the journal's WAL and
/// shared-memory files with the same mode as the database file).
pub fn touch_private(path: &Path) -> Result<(), PrivateError> {
    match OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(FILE_MODE)
        .open(path)
    {
        Ok(_) => {
            std::fs::set_permissions(path, Permissions::from_mode(FILE_MODE)).map_err(io(path))
        }
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Ok(()),
        Err(e) => Err(io(path)(e)),
    }
}

/// Writes `bytes` to `path` as a 0600 file, replacing it whole (a new file renamed over the
/// old one, so a reader never sees half of it).
pub fn write_private(path: &Path, bytes: &[u8]) -> Result<(), PrivateError> {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let temp = path.with_file_name(format!(".{name}.{}.new", std::process::id()));
    let _ = std::fs::remove_file(&temp);
    let mut file = OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(FILE_MODE)
        .open(&temp)
        .map_err(io(&temp))?;
    std::fs::set_permissions(&temp, Permissions::from_mode(FILE_MODE)).map_err(io(&temp))?;
    file.write_all(bytes).map_err(io(&temp))?;
    file.sync_all().map_err(io(&temp))?;
    drop(file);
    std::fs::rename(&temp, path).map_err(io(path))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("floor-files-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        dir
    }

    #[test]
    fn a_new_data_directory_is_0700_and_its_files_0600_whatever_the_umask() {
        let dir = scratch("modes");
        private_dir(&dir).expect("created");
        let mode = |p: &Path| std::fs::metadata(p).expect("exists").permissions().mode() & 0o777;
        assert_eq!(mode(&dir), 0o700);
        let file = dir.join("secret");
        write_private(&file, b"x").expect("written");
        assert_eq!(mode(&file), 0o600);
        touch_private(&dir.join("db")).expect("touched");
        assert_eq!(mode(&dir.join("db")), 0o600);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_directory_or_file_others_may_read_is_refused_naming_path_and_mode() {
        let dir = scratch("open");
        std::fs::create_dir_all(&dir).expect("mkdir");
        std::fs::set_permissions(&dir, Permissions::from_mode(0o755)).expect("chmod");
        let message = private_dir(&dir).expect_err("0755 refused").to_string();
        assert!(
            message.contains(&dir.display().to_string()) && message.contains("mode 755"),
            "{message}"
        );
        std::fs::set_permissions(&dir, Permissions::from_mode(0o700)).expect("chmod");
        let file = dir.join("tokens.json");
        std::fs::write(&file, "{}").expect("write");
        std::fs::set_permissions(&file, Permissions::from_mode(0o640)).expect("chmod");
        let message = private_file(&file).expect_err("0640 refused").to_string();
        assert!(message.contains("mode 640"), "{message}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
