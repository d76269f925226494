//! RenLib libraries (`.lib`), the opening and analysis trees of Frank Arkbo's RenLib, which
//! most renju players and viewers exchange: reading them (versions up to 3.4, and the old
//! headerless files), writing them (version 3.4), and their lines as move sequences.
//!
//! This module is format code only: no search and no rules beyond [`Point`]. The layout is
//! described in `docs/renlib.md` of the project; in short, a 20-byte header, then the tree in
//! pre-order as 2-byte records `[pos, flags]`, each perhaps followed by two extension bytes, a
//! comment and a board text:
//!
//! - `pos`: `0` for no point (the root record, or a pass), else column `pos & 0x0F` (1 to 15,
//!   `a` to `o`) and row `pos >> 4` counted from the top, so `0x78` is `h8`;
//! - flags: `0x80` a sibling follows this node's subtree, `0x40` the node has no child (the
//!   line ends), `0x20` an old-style comment follows, `0x10` mark, `0x08` a comment follows,
//!   `0x04` start position, `0x02` not a move (a board label only), `0x01` two extension
//!   bytes follow, whose second byte's bit `0x01` announces a board text.
//!
//! Texts are in the author's code page, which the file does not name: [`Encoding`] says which
//! to decode with, and [`Encoding::Auto`] guesses. Reading never panics: a damaged file gives
//! a [`RenlibError`] naming the byte offset and what is wrong there.
//!
//! ```
//! use renju::renlib::{self, Encoding, Library};
//!
//! let h8 = "h8".parse().unwrap();
//! let lines = vec![vec![h8, "h9".parse().unwrap()], vec![h8, "i9".parse().unwrap()]];
//! let library = Library::from_lines(&lines);
//! let bytes = renlib::write(&library, Encoding::Auto).unwrap();
//! let read = renlib::read(&bytes, Encoding::Auto).unwrap();
//! assert_eq!(read.stone_lines(), lines);
//! ```
//!
//! The module is split along the format's seams: [`Library`] and its nodes in memory
//! (`library`), the code pages of the texts (`encoding`), [`read()`] and [`write()`], and the
//! errors (`error`); this file holds the format's constants and its move bytes.

mod encoding;
mod error;
mod library;
mod read;
mod write;

#[cfg(test)]
mod tests;

pub use encoding::Encoding;
pub use error::{Damage, RenlibError};
pub use library::{Library, LineEnd, MAX_PLIES, MoveNode, Texts, Unplayable, line_board};
pub use read::{read, read_file};
pub use write::write;

use std::fmt;

use crate::rules::Point;

/// The length of the header: the magic bytes, the version and padding.
pub const HEADER_LEN: usize = 20;

/// The largest file [`read`] takes: 4 GiB. Each record (2 bytes at least) is one node at most,
/// so its nodes stay below the 2^32 that a library's 32-bit links can name.
pub const MAX_FILE_BYTES: usize = 4 << 30;

/// The first eight bytes of a library with a header.
pub const MAGIC: [u8; 8] = [0xFF, b'R', b'e', b'n', b'L', b'i', b'b', 0xFF];

/// The first byte of an old library without a header: its first record, the centre move.
pub const CENTRE: u8 = 0x78;

/// The version written, and the newest read (RenLib itself writes 3.4, and reads up to it).
pub const VERSION: Version = Version { major: 3, minor: 4 };

/// The side of the only board RenLib knows.
pub const SIDE: u8 = 15;

/// The flag bits of a record's second byte.
mod flag {
    /// A sibling follows this node's subtree (RenLib's `DOWN`).
    pub const SIBLING: u8 = 0x80;
    /// The node has no child: the line ends here (RenLib's `RIGHT`).
    pub const NO_CHILD: u8 = 0x40;
    /// An old-style comment follows.
    pub const OLD_COMMENT: u8 = 0x20;
    /// The node is marked.
    pub const MARK: u8 = 0x10;
    /// A comment follows.
    pub const COMMENT: u8 = 0x08;
    /// The node is the start position.
    pub const START: u8 = 0x04;
    /// The node is no move, only a label on its point.
    pub const NO_MOVE: u8 = 0x02;
    /// Two extension bytes follow.
    pub const EXTENSION: u8 = 0x01;
    /// In the second extension byte: a board text follows.
    pub const BOARD_TEXT: u8 = 0x01;
}

/// A library's format version, from its header.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Version {
    /// The major version (3 in every known file).
    pub major: u8,
    /// The minor version (0 or 4 in known files).
    pub minor: u8,
}

impl fmt::Display for Version {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}", self.major, self.minor)
    }
}

/// The point of a move byte: `None` for 0, an error for a byte off the board.
fn point_of(pos: u8) -> Result<Option<Point>, Damage> {
    if pos == 0 {
        return Ok(None);
    }
    let (column, row_from_top) = (pos & 0x0F, pos >> 4);
    if column == 0 || row_from_top >= SIDE {
        return Err(Damage::OffBoard { pos });
    }
    Ok(Some(Point::new(column - 1, SIDE - 1 - row_from_top)))
}

/// The move byte of a point, if it is on the 15x15 board.
fn pos_of(p: Point) -> Option<u8> {
    (p.x() < SIDE && p.y() < SIDE).then(|| ((SIDE - 1 - p.y()) << 4) | (p.x() + 1))
}
