//! Why a library could not be read or written: [`RenlibError`], and [`Damage`], what is wrong
//! at a byte of a damaged library.

use std::path::PathBuf;

use super::{HEADER_LEN, MAX_FILE_BYTES, VERSION, Version};
use crate::rules::{Point, Size};

/// What is wrong at a byte of a damaged library.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Damage {
    /// The file ends in the middle of a record.
    #[error("a record needs 2 bytes but the file has 1 left (truncated file?)")]
    TruncatedRecord,
    /// The file ends before a record's extension bytes.
    #[error("the record's 2 extension bytes are missing (truncated file?)")]
    TruncatedExtension,
    /// A text runs to the end of the file.
    #[error("the {what} has no terminating byte before the end of the file (truncated file?)")]
    UnterminatedText {
        /// `comment`, `old-style comment` or `board text`.
        what: &'static str,
    },
    /// A move byte that names no point of the 15x15 board.
    #[error("the move byte {pos:#04x} is off the 15x15 board")]
    OffBoard {
        /// The byte.
        pos: u8,
    },
    /// The root record announces a sibling.
    #[error("the root record announces a sibling, but the root can have none")]
    RootSibling,
    /// A record after the last line ended with no sibling announced.
    #[error(
        "a record follows the end of the tree (the line that ended at byte {end} had no sibling announced)"
    )]
    AfterEnd {
        /// The offset of the record that ended the tree.
        end: usize,
    },
    /// The file ends in the middle of a line: its last record is not a line's end.
    #[error(
        "the file ends inside a line: the last record, at byte {last}, does not end it (truncated file?)"
    )]
    UnfinishedLine {
        /// The offset of the last record.
        last: usize,
    },
    /// The file ends while siblings announced are missing.
    #[error(
        "the file ends with {missing} announced sibling line(s) missing, the earliest announced at byte {first} (truncated file?)"
    )]
    MissingSiblings {
        /// How many siblings are missing.
        missing: usize,
        /// The offset of the earliest record that announced one.
        first: usize,
    },
}

/// Why a library could not be read or written.
#[derive(Debug, thiserror::Error)]
pub enum RenlibError {
    /// Neither the RenLib header nor the centre move of an old headerless file.
    #[error(
        "not a RenLib library: it starts with neither the RenLib header nor the centre move (byte 0x78)"
    )]
    NotALibrary,
    /// A header cut short.
    #[error("truncated header: the file has {len} bytes, a RenLib header has {HEADER_LEN}")]
    TruncatedHeader {
        /// The file's length.
        len: usize,
    },
    /// A version newer than this module reads.
    #[error("unsupported RenLib library version {found}: versions up to {VERSION} are read")]
    Version {
        /// The version in the header.
        found: Version,
    },
    /// A damaged body.
    #[error("damaged library at byte {offset}: {damage}")]
    Damaged {
        /// Where the damage is, from the start of the file.
        offset: usize,
        /// What is wrong.
        damage: Damage,
    },
    /// A file with more records than a library in memory can index.
    #[error("the file has {len} bytes; a library is read only up to {MAX_FILE_BYTES} bytes")]
    TooLarge {
        /// The file's length.
        len: usize,
    },
    /// A point a library cannot hold.
    #[error("cannot write {point}: a RenLib library holds the 15x15 board only")]
    OffBoard {
        /// The point.
        point: Point,
    },
    /// A board of another size.
    #[error("a RenLib library holds the 15x15 board only, not {size}")]
    Size {
        /// The size offered.
        size: Size,
    },
    /// Reading the file.
    #[error("cannot read `{}`: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
}

/// The error for `damage` at byte `offset`.
pub(super) fn damaged(offset: usize, damage: Damage) -> RenlibError {
    RenlibError::Damaged { offset, damage }
}
