//! Reading the files the tool is given (databases, journals, libraries, work units, batches)
//! without trusting them to end: a regular file is read whole, its size known; a pipe or device
//! (`/dev/zero`, a process substitution) is read up to [`STREAM_BYTES`], and more is an error
//! rather than memory filled until the process is killed.

use std::io::{self, Read};
use std::path::Path;

/// The most bytes read from a pipe or device: more than any file this tool writes for one
/// piece of work would hold, and little enough to keep in memory on any machine it runs on.
pub const STREAM_BYTES: u64 = 256 << 20;

/// The bytes of the file at `path`.
///
/// # Errors
/// An I/O error from opening or reading it, or [`io::ErrorKind::FileTooLarge`] for a pipe or
/// device that gives more than [`STREAM_BYTES`].
pub fn read(path: &Path) -> io::Result<Vec<u8>> {
    let file = std::fs::File::open(path)?;
    let meta = file.metadata()?;
    if meta.is_file() {
        let mut bytes = Vec::with_capacity(usize::try_from(meta.len()).unwrap_or(0));
        (&file).read_to_end(&mut bytes)?;
        return Ok(bytes);
    }
    read_stream(file)
}

/// The bytes `source` gives, at most [`STREAM_BYTES`].
///
/// # Errors
/// An I/O error from reading, or [`io::ErrorKind::FileTooLarge`] past the bound.
pub fn read_stream(source: impl Read) -> io::Result<Vec<u8>> {
    read_up_to(source, STREAM_BYTES)?.ok_or_else(|| {
        io::Error::new(
            io::ErrorKind::FileTooLarge,
            format!(
                "a pipe or device that gives over {} MiB is not a file this tool reads",
                STREAM_BYTES >> 20
            ),
        )
    })
}

/// The bytes `source` gives if there are at most `limit` of them, `None` if there are more
/// (reading stops one byte past the limit).
///
/// # Errors
/// An I/O error from reading.
pub fn read_up_to(source: impl Read, limit: u64) -> io::Result<Option<Vec<u8>>> {
    let mut bytes = Vec::new();
    source
        .take(limit.saturating_add(1))
        .read_to_end(&mut bytes)?;
    Ok((bytes.len() as u64 <= limit).then_some(bytes))
}

/// The text of the file at `path` (see [`read`]).
///
/// # Errors
/// [`read`]'s errors, or [`io::ErrorKind::InvalidData`] for text that is not UTF-8.
pub fn read_text(path: &Path) -> io::Result<String> {
    utf8(read(path)?)
}

/// The text `source` gives (see [`read_stream`]).
///
/// # Errors
/// [`read_stream`]'s errors, or [`io::ErrorKind::InvalidData`] for text that is not UTF-8.
pub fn read_stream_text(source: impl Read) -> io::Result<String> {
    utf8(read_stream(source)?)
}

/// `bytes` as text, without the byte-order mark some editors put first.
///
/// # Errors
/// [`io::ErrorKind::InvalidData`] for bytes that are not UTF-8, saying so.
pub fn utf8(mut bytes: Vec<u8>) -> io::Result<String> {
    if bytes.starts_with(BOM) {
        bytes.drain(..BOM.len());
    }
    String::from_utf8(bytes).map_err(|e| {
        io::Error::new(
            io::ErrorKind::InvalidData,
            format!("it is not UTF-8 text ({e})"),
        )
    })
}

/// The UTF-8 byte-order mark.
pub const BOM: &[u8] = "\u{feff}".as_bytes();

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_regular_file_is_read_whole() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f");
        std::fs::write(&path, b"abc").unwrap();
        assert_eq!(read(&path).unwrap(), b"abc");
        assert_eq!(read_text(&path).unwrap(), "abc");
        std::fs::write(&path, [0xff, 0xfe]).unwrap();
        let e = read_text(&path).unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::InvalidData);
    }

    #[test]
    fn an_endless_stream_is_cut_off() {
        let e = read_stream(io::repeat(0)).unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::FileTooLarge);
        assert!(e.to_string().contains("256 MiB"), "{e}");
        assert_eq!(read_stream(&b"short"[..]).unwrap(), b"short");
    }
}
