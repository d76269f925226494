//! Atomic file writing: a temporary file beside the target, flushed to disk, then renamed over
//! it, so a reader sees the old file or the new one and never half of either, even if the
//! process is killed midway. And a lock for read-modify-write updates, so that two processes
//! adding to one file do not lose each other's additions.

use std::borrow::Cow;
use std::io::{self, Write};
use std::path::Path;

/// The file `path` names: symbolic links are followed to their target (which need not exist
/// yet), so that writing through a link updates the target (and does not replace the link
/// with a copy), and that a lock taken through a link is the target's lock.
#[must_use]
pub fn target(path: &Path) -> Cow<'_, Path> {
    let mut at = Cow::Borrowed(path);
    // As many links as the system itself follows before it gives up on a loop.
    for _ in 0..40 {
        let is_link = std::fs::symlink_metadata(&at).is_ok_and(|m| m.file_type().is_symlink());
        let Some(next) = is_link.then(|| std::fs::read_link(&at).ok()).flatten() else {
            break;
        };
        at = Cow::Owned(match at.parent() {
            Some(dir) if next.is_relative() => dir.join(next),
            _ => next,
        });
    }
    at
}

/// The directory a file `path` is (or would be) in: its parent, or `.` for a bare name.
#[must_use]
pub fn directory_of(path: &Path) -> &Path {
    match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    }
}

/// Writes `bytes` to `path` atomically (to the file a symbolic link `path` points to).
///
/// # Errors
/// Any I/O error from creating, writing, syncing or renaming the file.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> io::Result<()> {
    write_atomic_with(path, |out| out.write_all(bytes))
}

/// Writes to `path` atomically what `write` writes to the writer it is given (buffered), for
/// a file too large to build in memory first. If `write` fails, `path` is left as it was.
///
/// # Errors
/// The error of `write`, or any I/O error from creating, writing, syncing or renaming the
/// file.
pub fn write_atomic_with(
    path: &Path,
    write: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> io::Result<()> {
    let path = &*target(path);
    let dir = directory_of(path);
    let mut tmp = temporary_for(path)?;
    {
        let mut out = io::BufWriter::with_capacity(1 << 20, tmp.as_file_mut());
        write(&mut out)?;
        out.flush()?;
    }
    // The temporary file is private (0600); the file written gets the permissions of the one
    // it replaces, or those of an ordinary new file.
    if let Some(permissions) = std::fs::metadata(path)
        .ok()
        .map(|m| m.permissions())
        .or_else(default_permissions)
    {
        tmp.as_file().set_permissions(permissions)?;
    }
    tmp.as_file().sync_all()?;
    tmp.persist(path).map_err(|e| e.error)?;
    // Make the rename itself durable where the platform allows opening a directory.
    if let Ok(d) = std::fs::File::open(dir) {
        let _ = d.sync_all();
    }
    Ok(())
}

/// Random characters in a temporary file's name.
const TEMPORARY_RANDOM: usize = 6;

/// The start of the names of the temporary files written for `path`: `.renju-NAME.`, then
/// [`TEMPORARY_RANDOM`] random characters and `.tmp`.
fn temporary_prefix(path: &Path) -> std::ffi::OsString {
    let mut prefix = std::ffi::OsString::from(".renju-");
    prefix.push(path.file_name().unwrap_or_default());
    prefix.push(".");
    prefix
}

/// A new temporary file beside `path` (the target, links followed), for writing it.
fn temporary_for(path: &Path) -> io::Result<tempfile::NamedTempFile> {
    tempfile::Builder::new()
        .prefix(&temporary_prefix(path))
        .rand_bytes(TEMPORARY_RANDOM)
        .suffix(".tmp")
        .tempfile_in(directory_of(path))
}

/// Removes the temporary files a write to `path` left behind when its process was killed
/// between creating and renaming them. Only for a caller holding `path`'s update lock (see
/// [`lock_for_update`]): every writer of such a file holds it, so no write of `path` is under
/// way. Temporary files of other files are left alone, even those whose names start with
/// `path`'s. Errors are ignored: a leftover that stays is only a stray file.
pub fn remove_leftovers(path: &Path) {
    let path = &*target(path);
    let prefix = temporary_prefix(path);
    let Ok(entries) = std::fs::read_dir(directory_of(path)) else {
        return;
    };
    let prefix = prefix.as_encoded_bytes();
    for entry in entries.flatten() {
        let name = entry.file_name();
        let name = name.as_encoded_bytes();
        let ours = name
            .strip_prefix(prefix)
            .and_then(|rest| rest.strip_suffix(b".tmp"))
            .is_some_and(|random| {
                random.len() == TEMPORARY_RANDOM && random.iter().all(u8::is_ascii_alphanumeric)
            });
        if ours && entry.file_type().is_ok_and(|t| t.is_file()) {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

/// The permissions of an ordinary new file (read and write for the owner, read for others).
#[cfg(unix)]
fn default_permissions() -> Option<std::fs::Permissions> {
    use std::os::unix::fs::PermissionsExt;
    Some(std::fs::Permissions::from_mode(0o644))
}

#[cfg(not(unix))]
fn default_permissions() -> Option<std::fs::Permissions> {
    None
}

/// An exclusive lock on updating a file, held until dropped.
#[derive(Debug)]
pub struct UpdateLock {
    _file: std::fs::File,
    /// The lock file's path.
    path: std::path::PathBuf,
}

impl UpdateLock {
    /// Removes the locked file `path` (the one this lock was taken for), and then, on Unix, the
    /// lock file too, before the lock is let go: a file that is gone for good leaves nothing
    /// behind. A process waiting on the removed lock file sees, once it gets it, that the file
    /// is no longer the one its path names, and takes the lock again on the path (see
    /// [`lock_for_update`]), so no two processes ever hold the lock of one path. `Ok(false)`
    /// if there was no file at `path`; the lock file goes either way.
    ///
    /// # Errors
    /// Any I/O error from removing `path` other than its not being there; the lock file then
    /// stays.
    pub fn remove_locked(self, path: &Path) -> io::Result<bool> {
        let removed = match std::fs::remove_file(target(path)) {
            Ok(()) => true,
            Err(e) if e.kind() == io::ErrorKind::NotFound => false,
            Err(e) => return Err(e),
        };
        if cfg!(unix) {
            // A stray lock file is harmless: an error here is not the caller's.
            let _ = std::fs::remove_file(&self.path);
        }
        Ok(removed)
    }
}

/// Waits for, then takes, the exclusive lock on updating `path`: an advisory lock on the file
/// `PATH.lock` beside it, or beside the target of a symbolic link `path` (created if needed;
/// the operating system releases the lock when the process ends, however it ends). Every
/// `renju` command that reads a file, changes it and writes it back holds this lock from the
/// read to the write. Temporary files that killed writes of `path` left behind are removed
/// once the lock is taken ([`remove_leftovers`]). The lock file stays in place, unless the
/// holder removes the file for good with [`UpdateLock::remove_locked`]; a lock taken on a lock
/// file that was removed meanwhile is let go and taken again on the path's new one.
///
/// # Errors
/// Any I/O error from creating or locking the lock file.
pub fn lock_for_update(path: &Path) -> io::Result<UpdateLock> {
    take_lock(path, |file| file.lock().map(|()| true))?
        .ok_or_else(|| io::Error::other("a waited-for lock was not taken"))
}

/// Takes the lock on `path` with `lock` (which says whether it took it: `false` when another
/// process holds it), again on the path's new lock file whenever the one locked was removed
/// meanwhile ([`held_if_same`]), at most [`LOCK_TRIES`] times.
fn take_lock(
    path: &Path,
    lock: impl Fn(&std::fs::File) -> io::Result<bool>,
) -> io::Result<Option<UpdateLock>> {
    for _ in 0..LOCK_TRIES {
        let (file, lock_path) = lock_file(path)?;
        if !lock(&file)? {
            return Ok(None);
        }
        if let Some(held) = held_if_same(file, lock_path, path) {
            return Ok(Some(held));
        }
    }
    Err(lock_file_keeps_changing(path))
}

/// How many times a lock is taken again when its lock file was removed meanwhile: each retry
/// means another holder removed the file for good, so a few are plenty; a file system on which
/// an open file and its path never look the same gets an error, not an endless loop.
const LOCK_TRIES: usize = 64;

fn lock_file_keeps_changing(path: &Path) -> io::Error {
    io::Error::other(format!(
        "the lock file of `{}` changed under every lock taken on it ({LOCK_TRIES} times)",
        path.display()
    ))
}

/// Takes the exclusive lock on updating `path` if no other process holds it (see
/// [`lock_for_update`]); `None` if one does.
///
/// # Errors
/// Any I/O error from creating or locking the lock file.
pub fn try_lock_for_update(path: &Path) -> io::Result<Option<UpdateLock>> {
    take_lock(path, |file| match file.try_lock() {
        Ok(()) => Ok(true),
        Err(std::fs::TryLockError::WouldBlock) => Ok(false),
        Err(std::fs::TryLockError::Error(e)) => Err(e),
    })
}

/// The lock on `path` just taken through `file`, if `file` is still the lock file its path
/// names (its holder did not remove it meanwhile, [`UpdateLock::remove_locked`]): the
/// leftovers of killed writes go first. `None` if it is not: the caller takes the lock again.
fn held_if_same(
    file: std::fs::File,
    lock_path: std::path::PathBuf,
    path: &Path,
) -> Option<UpdateLock> {
    if !same_file(&file, &lock_path) {
        return None;
    }
    remove_leftovers(path);
    Some(UpdateLock {
        _file: file,
        path: lock_path,
    })
}

/// Whether the open `file` is the one `path` names now.
#[cfg(unix)]
fn same_file(file: &std::fs::File, path: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    match (file.metadata(), std::fs::metadata(path)) {
        (Ok(a), Ok(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
        _ => false,
    }
}

/// Lock files are never removed off Unix ([`UpdateLock::remove_locked`]), so the one opened
/// is the one the path names.
#[cfg(not(unix))]
fn same_file(_file: &std::fs::File, _path: &Path) -> bool {
    true
}

/// The path of the lock file of `path`: `PATH.lock` beside the target of a link `path`.
#[must_use]
pub fn lock_path(path: &Path) -> std::path::PathBuf {
    let mut name = target(path).as_os_str().to_owned();
    name.push(".lock");
    std::path::PathBuf::from(name)
}

/// The lock file of `path`, opened (created if needed), and its path.
fn lock_file(path: &Path) -> io::Result<(std::fs::File, std::path::PathBuf)> {
    let name = lock_path(path);
    let file = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&name)?;
    Ok((file, name))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Regression: writing through a symbolic link replaced the link with
    /// a copy, and the lock taken through it was not the target's.
    #[cfg(unix)]
    #[test]
    fn a_symbolic_link_is_written_through_and_locked_as_its_target() {
        let dir = tempfile::tempdir().unwrap();
        let real = dir.path().join("real.db");
        let link = dir.path().join("link.db");
        let is_link = |p: &Path| {
            std::fs::symlink_metadata(p)
                .unwrap()
                .file_type()
                .is_symlink()
        };
        write_atomic(&real, b"old").unwrap();
        std::os::unix::fs::symlink(&real, &link).unwrap();
        write_atomic(&link, b"new").unwrap();
        assert!(is_link(&link));
        assert_eq!(std::fs::read(&real).unwrap(), b"new");
        // A link to a file not written yet: the file is created where the link points.
        let dangling = dir.path().join("dangling.db");
        std::os::unix::fs::symlink("later.db", &dangling).unwrap();
        write_atomic(&dangling, b"first").unwrap();
        assert!(is_link(&dangling));
        assert_eq!(
            std::fs::read(dir.path().join("later.db")).unwrap(),
            b"first"
        );
        let held = try_lock_for_update(&real).unwrap().unwrap();
        assert!(try_lock_for_update(&link).unwrap().is_none());
        drop(held);
        assert!(try_lock_for_update(&link).unwrap().is_some());
    }

    /// A file removed for good under its lock takes its lock file with it; a process that
    /// opened the old lock file before, and gets its lock after, does not take that for the
    /// path's lock, and a new lock on the path is taken on a new lock file.
    #[cfg(unix)]
    #[test]
    fn a_file_removed_under_its_lock_takes_its_lock_file_with_it() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("leaf.state");
        write_atomic(&path, b"state").unwrap();
        let held = try_lock_for_update(&path).unwrap().unwrap();
        // Another holder-to-be opened the lock file and waits for it.
        let (waiting, waiting_path) = lock_file(&path).unwrap();
        assert!(held.remove_locked(&path).unwrap());
        assert!(!path.exists());
        assert!(!lock_path(&path).exists());
        waiting.try_lock().unwrap();
        assert!(
            held_if_same(waiting, waiting_path, &path).is_none(),
            "a lock on a removed lock file is not the path's lock"
        );
        let again = try_lock_for_update(&path).unwrap().unwrap();
        assert!(lock_path(&path).exists());
        assert!(try_lock_for_update(&path).unwrap().is_none());
        // Nothing at the path: said so, and the lock file goes all the same.
        assert!(!again.remove_locked(&path).unwrap());
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    }

    #[test]
    fn replaces_the_whole_file_and_leaves_no_temporary() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("board.svg");
        write_atomic(&path, b"old contents, longer than the new").unwrap();
        write_atomic(&path, b"new").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"new");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    #[cfg(unix)]
    #[test]
    fn a_new_file_is_readable_by_others_and_a_replaced_one_keeps_its_mode() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("book.db");
        write_atomic(&path, b"one").unwrap();
        let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode(&path), 0o644);
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o640)).unwrap();
        write_atomic(&path, b"two").unwrap();
        assert_eq!(mode(&path), 0o640);
    }

    /// Regression: a write killed between creating its temporary file and renaming it left
    /// `.renju-*.tmp` behind for good.
    #[test]
    fn leftovers_of_a_killed_write_are_removed_and_no_other_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("book.db");
        write_atomic(&path, b"book").unwrap();
        let leftover = dir.path().join(".renju-book.db.a1B2c3.tmp");
        let others = [
            // Another file's, whose name starts with this one's.
            ".renju-book.db.journal.x9Y8z7.tmp",
            // Not a temporary's name.
            ".renju-book.db.a1B2c3.tmp.keep",
            "book.db.lock",
        ];
        std::fs::write(&leftover, b"half").unwrap();
        // One made the way a write makes it, and kept as a killed write keeps it.
        let (_, made) = temporary_for(&path).unwrap().keep().unwrap();
        for o in others {
            std::fs::write(dir.path().join(o), b"other").unwrap();
        }
        remove_leftovers(&path);
        assert!(!leftover.exists());
        assert!(!made.exists(), "{} was left", made.display());
        for o in others {
            assert!(dir.path().join(o).exists(), "{o} was removed");
        }
        assert_eq!(std::fs::read(&path).unwrap(), b"book");
    }

    #[test]
    fn missing_directory_is_an_error() {
        let dir = tempfile::tempdir().unwrap();
        assert!(write_atomic(&dir.path().join("no/such/dir/x.svg"), b"x").is_err());
    }

    #[test]
    fn the_update_lock_is_exclusive_and_released_on_drop() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("book.db");
        let held = lock_for_update(&path).unwrap();
        let other = std::fs::File::options()
            .write(true)
            .open(dir.path().join("book.db.lock"))
            .unwrap();
        assert!(
            other.try_lock().is_err(),
            "a second lock while the first is held"
        );
        drop(held);
        assert!(other.try_lock().is_ok(), "the lock is free once dropped");
    }
}
