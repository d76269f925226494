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

use std::fmt;
use std::path::{Path, PathBuf};
use std::str::FromStr;

use crate::rules::{Board, Color, PlayError, Point, Rules, Size};

/// The length of the header: the magic bytes, the version and padding.
pub const HEADER_LEN: usize = 20;

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

/// The code page of a library's texts (comments and board texts). Files do not name theirs:
/// it is the one of the Windows system the author used.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Encoding {
    /// Reading: UTF-8 if every text is valid UTF-8 (as ASCII is), else GBK or Shift-JIS,
    /// whichever decodes with fewer errors; when both decode cleanly, the one whose reading has
    /// more everyday characters (GB2312's level-1 hanzi and symbols, JIS X 0208's level-1
    /// kanji, kana and symbols: text in one code page read in the other falls mostly outside);
    /// on a tie, Shift-JIS if its reading has kana and no half-width katakana, else GBK. The
    /// guess is for the whole file, and can go wrong when its texts are very few: a few GBK
    /// characters can be valid UTF-8 by chance (`斜` is `D0 B1`, UTF-8 for `б`).
    /// Cyrillic and Western European libraries need [`Encoding::Cp1251`] or
    /// [`Encoding::Cp1252`] named. Writing: the first of the
    /// library's own [`Library::encoding`] (the one it was read in), GBK, Shift-JIS, CP1252
    /// and CP1251 that holds every text, else UTF-8; ASCII texts are the same in all of them.
    #[default]
    Auto,
    /// UTF-8.
    Utf8,
    /// GBK (Windows code page 936, a superset of GB2312): Chinese libraries.
    Gbk,
    /// Shift-JIS (Windows code page 932): Japanese libraries.
    ShiftJis,
    /// Windows-1251: Russian and other Cyrillic libraries.
    Cp1251,
    /// Windows-1252: Western European libraries, RenLib's own (Swedish) ones among them.
    Cp1252,
}

impl Encoding {
    /// Every encoding, for help texts and tests.
    pub const ALL: [Encoding; 6] = [
        Encoding::Auto,
        Encoding::Utf8,
        Encoding::Gbk,
        Encoding::ShiftJis,
        Encoding::Cp1251,
        Encoding::Cp1252,
    ];

    /// The name [`Encoding::from_str`] reads.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Encoding::Auto => "auto",
            Encoding::Utf8 => "utf-8",
            Encoding::Gbk => "gbk",
            Encoding::ShiftJis => "shift-jis",
            Encoding::Cp1251 => "cp1251",
            Encoding::Cp1252 => "cp1252",
        }
    }

    /// The codec (`Auto` is resolved before one is needed).
    fn codec(self) -> &'static encoding_rs::Encoding {
        match self {
            Encoding::Utf8 => encoding_rs::UTF_8,
            Encoding::Auto | Encoding::Gbk => encoding_rs::GBK,
            Encoding::ShiftJis => encoding_rs::SHIFT_JIS,
            Encoding::Cp1251 => encoding_rs::WINDOWS_1251,
            Encoding::Cp1252 => encoding_rs::WINDOWS_1252,
        }
    }
}

impl fmt::Display for Encoding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Encoding {
    type Err = String;

    /// Reads `auto`, `utf-8`, `gbk`, `shift-jis` or `cp1251`, `cp1252`, and the usual other
    /// names of each (`utf8`, `gb2312`, `cp936`, `sjis`, `cp932`, `windows-1251`, ...).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.to_ascii_lowercase().replace('_', "-").as_str() {
            "auto" => Ok(Encoding::Auto),
            "utf-8" | "utf8" => Ok(Encoding::Utf8),
            "gbk" | "gb2312" | "gb18030" | "cp936" => Ok(Encoding::Gbk),
            "shift-jis" | "shiftjis" | "sjis" | "cp932" => Ok(Encoding::ShiftJis),
            "cp1251" | "windows-1251" => Ok(Encoding::Cp1251),
            "cp1252" | "windows-1252" | "latin1" => Ok(Encoding::Cp1252),
            _ => Err(format!(
                "unknown encoding `{s}`: expected auto, utf-8, gbk, shift-jis, cp1251 or cp1252"
            )),
        }
    }
}

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

fn damaged(offset: usize, damage: Damage) -> RenlibError {
    RenlibError::Damaged { offset, damage }
}

/// One node of a library: a move (or a pass, or a label that is no move) with its annotations.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveNode {
    /// The point; `None` for the root and for a pass.
    pub point: Option<Point>,
    /// `false` for a node that is no move, only a label on its point (RenLib's board texts on
    /// points not played); such nodes are not part of any line.
    pub is_move: bool,
    /// RenLib's mark (a highlighted move; export marks proved winning moves).
    pub mark: bool,
    /// RenLib's start position flag.
    pub start: bool,
    /// The one-line comment.
    pub comment: Option<String>,
    /// The multi-line comment (lines separated by `\r\n`, as RenLib writes them).
    pub multi_line_comment: Option<String>,
    /// The board text: a label (often one letter) drawn on the node's point.
    pub board_text: Option<String>,
    parent: Option<usize>,
    children: Vec<usize>,
}

impl MoveNode {
    fn new(point: Option<Point>, parent: Option<usize>) -> MoveNode {
        MoveNode {
            point,
            is_move: true,
            mark: false,
            start: false,
            comment: None,
            multi_line_comment: None,
            board_text: None,
            parent,
            children: Vec::new(),
        }
    }

    /// The node's children, in order.
    #[must_use]
    pub fn children(&self) -> &[usize] {
        &self.children
    }

    /// The node's parent; `None` for the root.
    #[must_use]
    pub fn parent(&self) -> Option<usize> {
        self.parent
    }
}

/// A library: a tree of moves from the empty board, kept as an arena of [`MoveNode`]s whose
/// first, [`Library::ROOT`], is the empty board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Library {
    /// The header's version; `None` for an old file without a header.
    pub version: Option<Version>,
    /// The code page the texts were decoded from; [`Encoding::Auto`] for a library built in
    /// memory.
    pub encoding: Encoding,
    nodes: Vec<MoveNode>,
}

impl Default for Library {
    fn default() -> Library {
        Library::new()
    }
}

impl Library {
    /// The root node: the empty board.
    pub const ROOT: usize = 0;

    /// An empty library, version [`VERSION`].
    #[must_use]
    pub fn new() -> Library {
        Library {
            version: Some(VERSION),
            encoding: Encoding::Auto,
            nodes: vec![MoveNode::new(None, None)],
        }
    }

    /// A library holding these lines (stones from the empty board, Black first).
    #[must_use]
    pub fn from_lines(lines: &[Vec<Point>]) -> Library {
        let mut library = Library::new();
        for line in lines {
            let moves: Vec<Option<Point>> = line.iter().copied().map(Some).collect();
            library.add_line(Library::ROOT, &moves);
        }
        library
    }

    /// The number of nodes, the root included.
    #[must_use]
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Whether the library holds nothing but the root.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.nodes.len() == 1
    }

    /// The nodes; index 0 is the root.
    #[must_use]
    pub fn nodes(&self) -> &[MoveNode] {
        &self.nodes
    }

    /// Node `id`.
    ///
    /// # Panics
    /// If there is no such node.
    #[must_use]
    pub fn node(&self, id: usize) -> &MoveNode {
        &self.nodes[id]
    }

    /// Node `id`, to annotate.
    ///
    /// # Panics
    /// If there is no such node.
    pub fn node_mut(&mut self, id: usize) -> &mut MoveNode {
        &mut self.nodes[id]
    }

    /// The child of `parent` on `point` (`None`: a pass), added as a move if there is none.
    /// A label already on the point becomes a move, as in RenLib.
    ///
    /// # Panics
    /// If there is no node `parent`.
    pub fn add_child(&mut self, parent: usize, point: Option<Point>) -> usize {
        let id = self.child_on(parent, point);
        self.nodes[id].is_move = true;
        id
    }

    /// The child of `parent` on `point`, added (as a move) if there is none.
    fn child_on(&mut self, parent: usize, point: Option<Point>) -> usize {
        if let Some(&id) = self.nodes[parent]
            .children
            .iter()
            .find(|&&c| self.nodes[c].point == point)
        {
            return id;
        }
        let id = self.nodes.len();
        self.nodes.push(MoveNode::new(point, Some(parent)));
        self.nodes[parent].children.push(id);
        id
    }

    /// Plays `moves` (`None`: a pass) from node `from`, adding the nodes missing; returns the
    /// last node (`from` itself for no moves).
    ///
    /// # Panics
    /// If there is no node `from`.
    pub fn add_line(&mut self, from: usize, moves: &[Option<Point>]) -> usize {
        moves
            .iter()
            .fold(from, |at, &point| self.add_child(at, point))
    }

    /// The moves from the root to node `id` (`None`: a pass).
    ///
    /// # Panics
    /// If there is no node `id`.
    #[must_use]
    pub fn path(&self, id: usize) -> Vec<Option<Point>> {
        let mut path = Vec::new();
        let mut at = id;
        while let Some(parent) = self.nodes[at].parent {
            path.push(self.nodes[at].point);
            at = parent;
        }
        path.reverse();
        path
    }

    /// Calls `visit` with every line of the library: the moves from the root to each node
    /// with no move below it (labels are not moves), in pre-order. `None` is a pass. An empty
    /// library has no line. Memory is linear in the depth, whatever the number of lines.
    pub fn for_each_line(&self, visit: &mut dyn FnMut(&[Option<Point>])) {
        let mut line: Vec<Option<Point>> = Vec::new();
        // (node, depth of its move in `line`); the root is at depth 0 and has no move.
        let mut stack: Vec<(usize, usize)> = self
            .moves_below(Library::ROOT)
            .rev()
            .map(|c| (c, 0))
            .collect();
        while let Some((id, depth)) = stack.pop() {
            line.truncate(depth);
            line.push(self.nodes[id].point);
            let before = stack.len();
            stack.extend(self.moves_below(id).rev().map(|c| (c, depth + 1)));
            if stack.len() == before {
                visit(&line);
            }
        }
    }

    /// The children of `id` that are moves, in order.
    fn moves_below(&self, id: usize) -> impl DoubleEndedIterator<Item = usize> + '_ {
        self.nodes[id]
            .children
            .iter()
            .copied()
            .filter(|&c| self.nodes[c].is_move)
    }

    /// Every line of the library (see [`Library::for_each_line`]): the positions a library
    /// names, as move sequences from the empty board, Black first. The total length can grow
    /// with the square of the library's size for a deep and bushy tree; use
    /// [`Library::for_each_line`] to visit them one at a time.
    #[must_use]
    pub fn lines(&self) -> Vec<Vec<Option<Point>>> {
        let mut lines = Vec::new();
        self.for_each_line(&mut |line| lines.push(line.to_vec()));
        lines
    }

    /// The lines without a pass, as stones (see [`Library::lines`]); a line with a pass is
    /// left out.
    #[must_use]
    pub fn stone_lines(&self) -> Vec<Vec<Point>> {
        let mut lines = Vec::new();
        self.for_each_line(&mut |line| {
            if let Some(stones) = line.iter().copied().collect::<Option<Vec<Point>>>() {
                lines.push(stones);
            }
        });
        lines
    }
}

/// The most plies a line of a library may have and still be played out: a stone on each of
/// the 225 points, and as many passes.
pub const MAX_PLIES: usize = 2 * (SIDE as usize) * (SIDE as usize);

/// Where a line of a library ends: the position, or why it does not play out.
pub type LineEnd<'a> = Result<&'a Board, &'a Unplayable>;

/// Why a line of a library does not play out.
#[derive(Debug, thiserror::Error, Clone, PartialEq, Eq)]
pub enum Unplayable {
    /// A move on a taken point.
    #[error("{0}")]
    Taken(PlayError),
    /// More than [`MAX_PLIES`] plies.
    #[error("more than {MAX_PLIES} plies")]
    TooLong,
}

impl Library {
    /// Calls `visit` with the position at the end of every line of the library (see
    /// [`Library::for_each_line`]) on the 15x15 board under `rules`: its stones put (not
    /// played: a forbidden move in a line is no error), the side of the next ply to move. A
    /// line that does not play out (a point taken twice, or more than [`MAX_PLIES`] plies)
    /// is cut where it fails: `visit` is told once, with that much of the line and why, and
    /// nothing below that move is visited. Time and memory are linear in the library's size,
    /// whatever its shape; each line `visit` gets has at most [`MAX_PLIES`] moves.
    pub fn for_each_position(
        &self,
        rules: Rules,
        visit: &mut dyn FnMut(&[Option<Point>], LineEnd<'_>),
    ) {
        let mut board = Board::new(Size::STANDARD, rules);
        let mut line: Vec<Option<Point>> = Vec::new();
        // (node, ply of its move); the root's moves are ply 0.
        let mut stack: Vec<(usize, usize)> = self
            .moves_below(Library::ROOT)
            .rev()
            .map(|c| (c, 0))
            .collect();
        while let Some((id, ply)) = stack.pop() {
            for point in line.drain(ply..).flatten() {
                board.remove_setup(point);
            }
            let point = self.nodes[id].point;
            line.push(point);
            let placed = if ply >= MAX_PLIES {
                Err(Unplayable::TooLong)
            } else {
                point.map_or(Ok(()), |p| {
                    board.put(p, ply_color(ply)).map_err(Unplayable::Taken)
                })
            };
            if let Err(why) = placed {
                // Nothing of this move is on the board: the next pop must not take it off.
                line.pop();
                let mut cut = line.clone();
                cut.push(point);
                visit(&cut, Err(&why));
                continue;
            }
            let before = stack.len();
            stack.extend(self.moves_below(id).rev().map(|c| (c, ply + 1)));
            if stack.len() == before {
                board.set_to_move(ply_color(line.len()));
                visit(&line, Ok(&board));
            }
        }
    }
}

/// The position a line reaches: its stones put on a `size` board under `rules`, Black on the
/// even plies from 0 and White on the odd ones (a pass keeps the count), and the side of the
/// next ply to move. The stones are put, not played: the board has no move history, and a
/// forbidden move in the line is no error.
///
/// # Errors
/// A move off the board or on a taken point.
pub fn line_board(line: &[Option<Point>], size: Size, rules: Rules) -> Result<Board, PlayError> {
    let mut board = Board::new(size, rules);
    for (ply, point) in line.iter().enumerate() {
        if let Some(p) = *point {
            board.put(p, ply_color(ply))?;
        }
    }
    board.set_to_move(ply_color(line.len()));
    Ok(board)
}

/// Who plays ply `ply` of a line (from 0): Black on the even plies, White on the odd ones (a
/// pass keeps the count).
fn ply_color(ply: usize) -> Color {
    if ply.is_multiple_of(2) {
        Color::Black
    } else {
        Color::White
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

/// The texts of one node as read, before decoding.
#[derive(Default)]
struct RawTexts {
    /// The comment's bytes (the one-line part, then byte 8 and the multi-line part).
    comment: Option<Vec<u8>>,
    /// An old-style comment, already decoded.
    old_comment: Option<String>,
    /// The board text's bytes.
    board_text: Option<Vec<u8>>,
}

/// A sibling announced and not yet reached.
struct Pending {
    /// The depth of the node that announced it (the root is at 0).
    depth: usize,
    /// The announcing record's offset.
    offset: usize,
    /// Whether it was announced before any line ended (RenLib's "save branch" writes the
    /// moves down to the branch with their sibling flags, but not the siblings).
    leading: bool,
}

/// Reads a library from its bytes, decoding texts with `encoding`.
///
/// Like RenLib, it reads versions up to 3.4 and old files without a header; a first record
/// with no point is the root's; a record on the point of a sibling read before is merged into
/// it (the first comment read is kept, flags add up); siblings announced but missing when the
/// file ends are accepted only if they were all announced before the first line ended, as
/// RenLib's "save branch" leaves them, and the file must end where a line does (RenLib ends
/// every line with the no-child flag), so a file cut at a record boundary is caught unless it
/// was cut exactly after a line that owed nothing. One odd byte after the tree's last line
/// is ignored, as RenLib ignores it. Texts that do not decode are read with replacement
/// characters.
///
/// # Errors
/// A header that is not RenLib's, a version newer than 3.4, or a damaged body: the error names
/// the byte offset and what is wrong there.
pub fn read(bytes: &[u8], encoding: Encoding) -> Result<Library, RenlibError> {
    let (version, body) = header(bytes)?;
    let mut library = Library {
        version,
        encoding,
        nodes: vec![MoveNode::new(None, None)],
    };
    let mut raw: Vec<RawTexts> = vec![RawTexts::default()];
    // path[d] is the node at depth d of the line being read.
    let mut path = vec![Library::ROOT];
    let mut pending: Vec<Pending> = Vec::new();
    let mut any_line_ended = false;
    let mut tree_ended: Option<usize> = None;
    // The last record, if it did not end its line; the sibling its line end was owed, if
    // the file must hold one.
    let (mut unfinished, mut owed_by_last) = (None, None);
    let mut at = body;
    while at < bytes.len() {
        let start = at;
        if bytes.len() - at == 1 && tree_ended.is_some() {
            // RenLib reads records in pairs and ignores an odd last byte.
            break;
        }
        let [pos, flags] =
            take2(bytes, &mut at).ok_or_else(|| damaged(start, Damage::TruncatedRecord))?;
        let mut board_text = false;
        if flags & flag::EXTENSION != 0 {
            let ext = at;
            let [_, info] =
                take2(bytes, &mut at).ok_or_else(|| damaged(ext, Damage::TruncatedExtension))?;
            board_text = info & flag::BOARD_TEXT != 0;
        }
        let point = point_of(pos).map_err(|d| damaged(start, d))?;
        let is_root = start == body && pos == 0;
        let id = if is_root {
            Library::ROOT
        } else {
            if let Some(end) = tree_ended {
                return Err(damaged(start, Damage::AfterEnd { end }));
            }
            let parent = *path.last().expect("the path holds the root");
            let id = library.child_on(parent, point);
            if id == raw.len() {
                raw.push(RawTexts::default());
                library.nodes[id].is_move = false;
            }
            path.push(id);
            id
        };
        let node = &mut library.nodes[id];
        node.is_move |= flags & flag::NO_MOVE == 0;
        node.mark |= flags & flag::MARK != 0;
        node.start |= flags & flag::START != 0;
        let texts = &mut raw[id];
        if flags & flag::OLD_COMMENT != 0 {
            let text = read_old_comment(bytes, &mut at)?;
            texts.old_comment.get_or_insert(text);
        } else if flags & flag::COMMENT != 0 {
            let text = read_text(bytes, &mut at, "comment")?;
            if texts.comment.is_none() && texts.old_comment.is_none() {
                texts.comment = Some(text);
            }
        }
        if board_text {
            let text = read_text(bytes, &mut at, "board text")?;
            texts.board_text.get_or_insert(text);
        }
        if flags & flag::SIBLING != 0 {
            if is_root {
                return Err(damaged(start, Damage::RootSibling));
            }
            pending.push(Pending {
                depth: path.len() - 1,
                offset: start,
                leading: !any_line_ended,
            });
        }
        // RenLib writes no line end on the root; one there is ignored, as RenLib does.
        if is_root {
            continue;
        }
        unfinished = Some(start);
        owed_by_last = None;
        if flags & flag::NO_CHILD != 0 {
            unfinished = None;
            any_line_ended = true;
            match pending.pop() {
                Some(sibling) => {
                    path.truncate(sibling.depth);
                    if !sibling.leading {
                        owed_by_last = Some(sibling.offset);
                    }
                }
                None => tree_ended = Some(start),
            }
        }
    }
    // The file may end only where a line ends, owing no sibling but those "save branch"
    // leaves out (announced before the first line ended).
    let mut owed: Vec<usize> = pending
        .iter()
        .filter(|p| !p.leading)
        .map(|p| p.offset)
        .chain(owed_by_last)
        .collect();
    owed.sort_unstable();
    if let Some(&first) = owed.first() {
        return Err(damaged(
            bytes.len(),
            Damage::MissingSiblings {
                missing: owed.len(),
                first,
            },
        ));
    }
    if let Some(last) = unfinished {
        return Err(damaged(bytes.len(), Damage::UnfinishedLine { last }));
    }
    library.encoding = decode_texts(&mut library, raw, encoding);
    Ok(library)
}

/// Reads the library file at `path` (see [`read`]).
///
/// # Errors
/// An I/O error naming the file, or [`read`]'s errors.
pub fn read_file(path: &Path, encoding: Encoding) -> Result<Library, RenlibError> {
    let bytes = crate::files::read(path).map_err(|source| RenlibError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    read(&bytes, encoding)
}

/// The version (`None` for a headerless file) and the offset of the first record.
fn header(bytes: &[u8]) -> Result<(Option<Version>, usize), RenlibError> {
    if bytes.first() == Some(&CENTRE) {
        return Ok((None, 0));
    }
    let known = bytes.len().min(MAGIC.len());
    if bytes.is_empty() || bytes[..known] != MAGIC[..known] {
        return Err(RenlibError::NotALibrary);
    }
    if bytes.len() < HEADER_LEN {
        return Err(RenlibError::TruncatedHeader { len: bytes.len() });
    }
    let found = Version {
        major: bytes[8],
        minor: bytes[9],
    };
    if found > VERSION {
        return Err(RenlibError::Version { found });
    }
    Ok((Some(found), HEADER_LEN))
}

/// The next two bytes, if there are two.
fn take2(bytes: &[u8], at: &mut usize) -> Option<[u8; 2]> {
    let pair = bytes.get(*at..*at + 2)?;
    *at += 2;
    Some([pair[0], pair[1]])
}

/// A comment or board text: bytes read two at a time up to a zero byte (the pair holding it
/// is used up).
fn read_text(bytes: &[u8], at: &mut usize, what: &'static str) -> Result<Vec<u8>, RenlibError> {
    let start = *at;
    let mut text = Vec::new();
    loop {
        let [a, b] =
            take2(bytes, at).ok_or_else(|| damaged(start, Damage::UnterminatedText { what }))?;
        if a == 0 {
            return Ok(text);
        }
        text.push(a);
        if b == 0 {
            return Ok(text);
        }
        text.push(b);
    }
}

/// An old-style comment: 7-bit characters read two at a time up to one with its top bit set
/// (which is part of the text), in the Swedish variant of ASCII RenLib's first versions used
/// (`{|}[\]` are `äöåÄÖÅ`).
fn read_old_comment(bytes: &[u8], at: &mut usize) -> Result<String, RenlibError> {
    let start = *at;
    let mut text = String::new();
    loop {
        let pair = take2(bytes, at).ok_or_else(|| {
            damaged(
                start,
                Damage::UnterminatedText {
                    what: "old-style comment",
                },
            )
        })?;
        for byte in pair {
            text.push(match byte & 0x7F {
                b'{' => 'ä',
                b'|' => 'ö',
                b'}' => 'å',
                b'[' => 'Ä',
                b'\\' => 'Ö',
                b']' => 'Å',
                c => char::from(c),
            });
            if byte & 0x80 != 0 {
                return Ok(text);
            }
        }
    }
}

/// Decodes every node's texts with `encoding` (resolved first if `Auto`), returning the one
/// used.
fn decode_texts(library: &mut Library, raw: Vec<RawTexts>, encoding: Encoding) -> Encoding {
    let all: Vec<&[u8]> = raw
        .iter()
        .flat_map(|t| [t.comment.as_deref(), t.board_text.as_deref()])
        .flatten()
        .collect();
    let encoding = resolve(encoding, &all);
    let decode = |bytes: &[u8]| -> Option<String> {
        let (text, _) = encoding.codec().decode_without_bom_handling(bytes);
        (!text.is_empty()).then(|| text.into_owned())
    };
    for (node, texts) in library.nodes.iter_mut().zip(raw) {
        let (one_line, multi_line) = match (texts.old_comment, texts.comment) {
            (Some(old), _) => match old.split_once('\u{8}') {
                Some((one, multi)) => (non_empty(one), non_empty(multi)),
                None => (non_empty(&old), None),
            },
            (None, Some(bytes)) => match bytes.iter().position(|&b| b == 8) {
                Some(i) => (decode(&bytes[..i]), decode(&bytes[i + 1..])),
                None => (decode(&bytes), None),
            },
            (None, None) => (None, None),
        };
        node.comment = one_line;
        node.multi_line_comment = multi_line;
        node.board_text = texts.board_text.as_deref().and_then(decode);
    }
    encoding
}

fn non_empty(s: &str) -> Option<String> {
    (!s.is_empty()).then(|| s.to_string())
}

/// The encoding [`Encoding::Auto`] picks for these texts (see there); others stay.
fn resolve(encoding: Encoding, texts: &[&[u8]]) -> Encoding {
    if encoding != Encoding::Auto {
        return encoding;
    }
    if texts.iter().all(|t| std::str::from_utf8(t).is_ok()) {
        return Encoding::Utf8;
    }
    let errors = |codec: &'static encoding_rs::Encoding| {
        texts
            .iter()
            .filter(|t| codec.decode_without_bom_handling(t).1)
            .count()
    };
    let (gbk, sjis) = (errors(encoding_rs::GBK), errors(encoding_rs::SHIFT_JIS));
    if gbk != sjis {
        return if gbk < sjis {
            Encoding::Gbk
        } else {
            Encoding::ShiftJis
        };
    }
    let (gbk, sjis) = (
        common_characters(texts, false),
        common_characters(texts, true),
    );
    if gbk != sjis {
        return if gbk > sjis {
            Encoding::Gbk
        } else {
            Encoding::ShiftJis
        };
    }
    let (mut kana, mut half_width) = (false, false);
    for t in texts {
        let (text, _) = encoding_rs::SHIFT_JIS.decode_without_bom_handling(t);
        kana |= text.chars().any(|c| ('\u{3040}'..='\u{30FF}').contains(&c));
        half_width |= text.chars().any(|c| ('\u{FF61}'..='\u{FF9F}').contains(&c));
    }
    if kana && !half_width {
        Encoding::ShiftJis
    } else {
        Encoding::Gbk
    }
}

/// The two-byte characters of `texts`, read as Shift-JIS (`shift_jis`) or GBK, that are in
/// the everyday part of that code page: in GBK the symbols, kana and level-1 hanzi of GB2312
/// (lead bytes `A1` to `A9` and `B0` to `D7`); in Shift-JIS the symbols, kana and level-1
/// kanji of JIS X 0208 (lead bytes `81` to `84` and `88` to `9F`). Text in the other code
/// page, read in this one, falls mostly outside.
fn common_characters(texts: &[&[u8]], shift_jis: bool) -> usize {
    let mut count = 0;
    for text in texts {
        let mut bytes = text.iter();
        while let Some(&lead) = bytes.next() {
            let double = if shift_jis {
                matches!(lead, 0x81..=0x9F | 0xE0..=0xFC)
            } else {
                lead >= 0x81
            };
            if !double {
                continue;
            }
            bytes.next();
            let common = if shift_jis {
                matches!(lead, 0x81..=0x84 | 0x88..=0x9F)
            } else {
                matches!(lead, 0xA1..=0xA9 | 0xB0..=0xD7)
            };
            count += usize::from(common);
        }
    }
    count
}

/// Writes a library, version [`VERSION`] (3.4): the header, a root record, then every node in
/// pre-order, children in their order. Texts are encoded with `encoding` (for `Auto`, see
/// [`Encoding::Auto`]); ASCII is the same in every code page. A character the code page lacks
/// is written as an HTML numeric reference (`&#12354;`), as `encoding_rs` does. A zero character, which would end
/// the text, is left out, and in a one-line comment a character 8, which would end it, becomes
/// a space. Empty texts are not written. The header's version is always 3.4, whatever
/// `library.version` says.
///
/// # Errors
/// [`RenlibError::OffBoard`] for a point off the 15x15 board.
pub fn write(library: &Library, encoding: Encoding) -> Result<Vec<u8>, RenlibError> {
    let encoding = writing_encoding(library, encoding);
    let mut out = Vec::with_capacity(HEADER_LEN + 2 * library.len());
    out.extend_from_slice(&MAGIC);
    out.extend_from_slice(&[VERSION.major, VERSION.minor]);
    out.extend_from_slice(&[0xFF; HEADER_LEN - 10]);
    let root = &library.nodes[Library::ROOT];
    write_node(&mut out, root, 0, encoding)?;
    // (node, whether a sibling follows it)
    let mut stack: Vec<(usize, bool)> = Vec::new();
    push_children(&mut stack, root);
    while let Some((id, sibling)) = stack.pop() {
        let node = &library.nodes[id];
        let mut flags = 0;
        if sibling {
            flags |= flag::SIBLING;
        }
        if node.children.is_empty() {
            flags |= flag::NO_CHILD;
        }
        write_node(&mut out, node, flags, encoding)?;
        push_children(&mut stack, node);
    }
    Ok(out)
}

/// The code page `encoding` stands for when writing `library` (see [`Encoding::Auto`]).
fn writing_encoding(library: &Library, encoding: Encoding) -> Encoding {
    if encoding != Encoding::Auto {
        return encoding;
    }
    let texts: Vec<&str> = library
        .nodes
        .iter()
        .flat_map(|n| [&n.comment, &n.multi_line_comment, &n.board_text])
        .filter_map(|t| t.as_deref())
        .collect();
    [
        library.encoding,
        Encoding::Gbk,
        Encoding::ShiftJis,
        Encoding::Cp1252,
        Encoding::Cp1251,
    ]
    .into_iter()
    .filter(|&e| e != Encoding::Auto && e != Encoding::Utf8)
    .find(|e| texts.iter().all(|t| !e.codec().encode(t).2))
    .unwrap_or(Encoding::Utf8)
}

fn push_children(stack: &mut Vec<(usize, bool)>, node: &MoveNode) {
    let last = node.children.len().saturating_sub(1);
    stack.extend(
        node.children
            .iter()
            .enumerate()
            .rev()
            .map(|(i, &c)| (c, i < last)),
    );
}

/// One record with its extension bytes and texts; `flags` holds the tree's bits.
fn write_node(
    out: &mut Vec<u8>,
    node: &MoveNode,
    mut flags: u8,
    encoding: Encoding,
) -> Result<(), RenlibError> {
    let pos = match node.point {
        None => 0,
        Some(point) => pos_of(point).ok_or(RenlibError::OffBoard { point })?,
    };
    let one_line = node.comment.as_deref().unwrap_or("").replace('\u{8}', " ");
    let multi_line = node.multi_line_comment.as_deref().unwrap_or("");
    let comment = if multi_line.is_empty() {
        one_line
    } else {
        format!("{one_line}\u{8}{multi_line}")
    };
    let comment = encode_text(&comment, encoding);
    let board_text = encode_text(node.board_text.as_deref().unwrap_or(""), encoding);
    if !node.is_move {
        flags |= flag::NO_MOVE;
    }
    if node.mark {
        flags |= flag::MARK;
    }
    if node.start {
        flags |= flag::START;
    }
    if !comment.is_empty() {
        flags |= flag::COMMENT;
    }
    if !board_text.is_empty() {
        flags |= flag::EXTENSION;
    }
    out.extend_from_slice(&[pos, flags]);
    if !board_text.is_empty() {
        out.extend_from_slice(&[0, flag::BOARD_TEXT]);
    }
    for text in [comment, board_text] {
        if !text.is_empty() {
            out.extend_from_slice(&text);
            // The terminating zero, and one more to keep records on even offsets.
            out.push(0);
            if text.len() % 2 == 0 {
                out.push(0);
            }
        }
    }
    Ok(())
}

/// A text's bytes, without zero bytes.
fn encode_text(text: &str, encoding: Encoding) -> Vec<u8> {
    let text = text.replace('\0', "");
    let (bytes, _, _) = encoding.codec().encode(&text);
    bytes.into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(s: &str) -> Point {
        s.parse().unwrap()
    }

    fn header(major: u8, minor: u8) -> Vec<u8> {
        let mut h = MAGIC.to_vec();
        h.extend_from_slice(&[major, minor]);
        h.extend_from_slice(&[0xFF; 10]);
        h
    }

    /// A 3.4 library: root, h8 with the replies h9 (then i9) and i9, comments on h9.
    fn small() -> Vec<u8> {
        let mut b = header(3, 4);
        b.extend_from_slice(&[0x00, 0x00]); // root
        b.extend_from_slice(&[0x78, 0x00]); // h8
        b.extend_from_slice(&[0x68, 0x80 | 0x08]); // h9, a sibling follows, comment
        b.extend_from_slice(b"hi\x08more\0");
        b.extend_from_slice(&[0x69, 0x40 | 0x10]); // i9 after h9, marked, line ends
        b.extend_from_slice(&[0x69, 0x40]); // i9 after h8, line ends
        b
    }

    /// [`small`] with a sibling after the second i9: j9, then j10 after it.
    fn wider() -> Vec<u8> {
        let mut b = small();
        let last = b.len() - 1;
        b[last] = 0x80; // the second i9 now announces a sibling and has a child
        b.extend_from_slice(&[0x5A, 0x40]); // j10 after i9
        b.extend_from_slice(&[0x6A, 0x40]); // j9 after h8
        b
    }

    #[test]
    fn coordinates() {
        assert_eq!(point_of(0x78), Ok(Some(p("h8"))));
        assert_eq!(point_of(0x68), Ok(Some(p("h9"))));
        assert_eq!(point_of(0x69), Ok(Some(p("i9"))));
        assert_eq!(point_of(0x01), Ok(Some(p("a15"))));
        assert_eq!(point_of(0xEF), Ok(Some(p("o1"))));
        assert_eq!(point_of(0), Ok(None));
        for bad in [0x10, 0xF1, 0xFF, 0x70] {
            assert_eq!(point_of(bad), Err(Damage::OffBoard { pos: bad }));
        }
        for pos in 1..=255u8 {
            if let Ok(Some(q)) = point_of(pos) {
                assert_eq!(pos_of(q), Some(pos));
            }
        }
        assert_eq!(pos_of(p("p1")), None);
    }

    #[test]
    fn reads_siblings_comments_and_marks() {
        let lib = read(&small(), Encoding::Auto).unwrap();
        assert_eq!(lib.version, Some(VERSION));
        assert_eq!(lib.encoding, Encoding::Utf8);
        assert_eq!(
            lib.stone_lines(),
            vec![vec![p("h8"), p("h9"), p("i9")], vec![p("h8"), p("i9")]]
        );
        let h9 = lib.node(lib.node(1).children()[0]);
        assert_eq!(h9.comment.as_deref(), Some("hi"));
        assert_eq!(h9.multi_line_comment.as_deref(), Some("more"));
        assert!(lib.node(h9.children()[0]).mark);
        assert_eq!(
            lib.path(h9.children()[0]),
            vec![Some(p("h8")), Some(p("h9")), Some(p("i9"))]
        );
    }

    #[test]
    fn writes_what_it_reads() {
        let lib = read(&small(), Encoding::Auto).unwrap();
        assert_eq!(write(&lib, Encoding::Auto).unwrap(), small());
    }

    /// Found by an adversarial review: a "comb" (a deep spine whose every node has a one-move
    /// sibling) made the book builder build and name every line in full, quadratic in the
    /// file. Positions are cut where a line stops playing out, and nothing below is visited.
    #[test]
    fn positions_are_cut_where_a_line_stops_playing_out() {
        let points: Vec<Point> = (0..225u8).map(|i| Point::new(i % 15, i / 15)).collect();
        let mut lib = Library::new();
        let mut at = Library::ROOT;
        for i in 0..5000 {
            lib.add_child(at, Some(points[(i + 1) % 225]));
            at = lib.add_child(at, Some(points[i % 225]));
        }
        let (mut played, mut cut, mut longest) = (0, Vec::new(), 0);
        lib.for_each_position(Rules::renju(), &mut |line, position| {
            longest = longest.max(line.len());
            match position {
                Ok(board) => {
                    played += 1;
                    assert_eq!(board.stones().count(), line.len());
                    let next = if line.len() % 2 == 0 {
                        Color::Black
                    } else {
                        Color::White
                    };
                    assert_eq!(board.to_move(), next);
                    let last = line.last().copied().flatten().unwrap();
                    let by = if line.len() % 2 == 1 {
                        Color::Black
                    } else {
                        Color::White
                    };
                    assert_eq!(board.stone(last), Some(by));
                }
                Err(why) => cut.push((line.len(), why.clone())),
            }
        });
        // The siblings at plies 0 to 223 play out; the siblings at plies 224 and 225 and the
        // spine's move at ply 225 repeat a point.
        assert_eq!(played, 224);
        assert_eq!(cut.len(), 3, "{cut:?}");
        assert!(
            cut.iter()
                .all(|(_, why)| matches!(why, Unplayable::Taken(_)))
        );
        assert_eq!(longest, 226);

        // Passes alone never take a point: a line is cut after MAX_PLIES plies.
        let mut lib = Library::new();
        let mut at = Library::ROOT;
        for _ in 0..MAX_PLIES + 10 {
            at = lib.add_child(at, None);
        }
        let mut seen = Vec::new();
        lib.for_each_position(Rules::renju(), &mut |line, position| {
            seen.push((line.len(), position.err().cloned()));
        });
        assert_eq!(seen, vec![(MAX_PLIES + 1, Some(Unplayable::TooLong))]);
    }

    #[test]
    fn headerless_and_old_headers() {
        // An old file: no header, h8 first, then h9.
        let old = [0x78, 0x00, 0x68, 0x40];
        let lib = read(&old, Encoding::Auto).unwrap();
        assert_eq!(lib.version, None);
        assert_eq!(lib.stone_lines(), vec![vec![p("h8"), p("h9")]]);
        // Version 3.0 as RenLib writes it: no root record.
        let mut v30 = header(3, 0);
        v30.extend_from_slice(&old);
        let lib = read(&v30, Encoding::Auto).unwrap();
        assert_eq!(lib.version, Some(Version { major: 3, minor: 0 }));
        assert_eq!(lib.stone_lines(), vec![vec![p("h8"), p("h9")]]);
        // A header and nothing else is an empty library.
        assert!(read(&header(3, 4), Encoding::Auto).unwrap().is_empty());
    }

    #[test]
    fn board_text_and_labels() {
        let mut b = header(3, 4);
        b.extend_from_slice(&[0x00, 0x00]);
        b.extend_from_slice(&[0x78, 0x00]); // h8
        // j10, no move: a label "a" (extension, board text), a sibling follows.
        b.extend_from_slice(&[0x5A, 0x80 | 0x40 | 0x02 | 0x01, 0x00, 0x01]);
        b.extend_from_slice(b"a\0");
        // h9 with a comment and a board text.
        b.extend_from_slice(&[0x68, 0x40 | 0x08 | 0x01, 0x00, 0x01]);
        b.extend_from_slice(b"c\0B\0");
        let lib = read(&b, Encoding::Auto).unwrap();
        let h8 = lib.node(1);
        let label = lib.node(h8.children()[0]);
        assert!(!label.is_move);
        assert_eq!(label.point, Some(p("j10")));
        assert_eq!(label.board_text.as_deref(), Some("a"));
        let h9 = lib.node(h8.children()[1]);
        assert_eq!(h9.comment.as_deref(), Some("c"));
        assert_eq!(h9.board_text.as_deref(), Some("B"));
        // The label is no move: the only line is h8 h9.
        assert_eq!(lib.stone_lines(), vec![vec![p("h8"), p("h9")]]);
        assert_eq!(write(&lib, Encoding::Auto).unwrap(), b);
    }

    #[test]
    fn old_style_comments() {
        let mut b = header(3, 0);
        // h8 with an old comment "Br{k" then 'a'|0x80: "Bräka", read in pairs.
        b.extend_from_slice(&[0x78, 0x40 | 0x20]);
        b.extend_from_slice(&[b'B', b'r', b'{', b'k', b'a' | 0x80, 0x00]);
        let lib = read(&b, Encoding::Auto).unwrap();
        assert_eq!(lib.node(1).comment.as_deref(), Some("Bräka"));
        // An old comment with a multi-line part.
        let mut b = header(3, 0);
        b.extend_from_slice(&[0x78, 0x40 | 0x20]);
        b.extend_from_slice(&[b'x', 8, b'y' | 0x80, 0x55]);
        let lib = read(&b, Encoding::Auto).unwrap();
        assert_eq!(lib.node(1).comment.as_deref(), Some("x"));
        assert_eq!(lib.node(1).multi_line_comment.as_deref(), Some("y"));
    }

    #[test]
    fn passes_and_merged_duplicates() {
        let mut b = header(3, 4);
        b.extend_from_slice(&[0x00, 0x00]);
        b.extend_from_slice(&[0x78, 0x80]); // h8, sibling follows
        b.extend_from_slice(&[0x00, 0x40]); // a pass after h8
        b.extend_from_slice(&[0x78, 0x10]); // h8 again: merged, now marked
        b.extend_from_slice(&[0x68, 0x40]); // h9 after it
        let lib = read(&b, Encoding::Auto).unwrap();
        assert_eq!(lib.node(Library::ROOT).children().len(), 1);
        assert!(lib.node(1).mark);
        assert_eq!(
            lib.lines(),
            vec![
                vec![Some(p("h8")), None],
                vec![Some(p("h8")), Some(p("h9"))]
            ]
        );
        let board = line_board(&lib.lines()[0], Size::default(), Rules::renju()).unwrap();
        assert_eq!(board.to_move(), Color::Black);
        assert_eq!(board.stone(p("h8")), Some(Color::Black));
    }

    #[test]
    fn encodings() {
        let chinese = "黑先胜";
        let japanese = "黒の勝ち、ひらがな";
        // Typical labels of Japanese libraries: kanji only, which GBK reads without error.
        let kanji = "黒必勝";
        let simplified = "必胜";
        for (text, encoding) in [
            (chinese, Encoding::Gbk),
            (japanese, Encoding::ShiftJis),
            (kanji, Encoding::ShiftJis),
            (simplified, Encoding::Gbk),
        ] {
            let mut lib = Library::from_lines(&[vec![p("h8")]]);
            lib.node_mut(1).comment = Some(text.to_string());
            let bytes = write(&lib, encoding).unwrap();
            let auto = read(&bytes, Encoding::Auto).unwrap();
            assert_eq!(auto.encoding, encoding, "{text}");
            assert_eq!(auto.node(1).comment.as_deref(), Some(text));
        }
        assert_eq!("windows-1251".parse::<Encoding>(), Ok(Encoding::Cp1251));
        for e in Encoding::ALL {
            assert_eq!(e.name().parse::<Encoding>(), Ok(e));
        }
        assert!("ebcdic".parse::<Encoding>().is_err());
    }

    #[test]
    fn damage_names_the_offset() {
        let good = small();
        let cases: Vec<(Vec<u8>, usize, Damage)> = vec![
            // Cut inside the last record.
            (
                good[..good.len() - 1].to_vec(),
                good.len() - 2,
                Damage::TruncatedRecord,
            ),
            // Cut inside the comment (which starts at byte 26).
            (
                good[..30].to_vec(),
                26,
                Damage::UnterminatedText { what: "comment" },
            ),
            // Cut after the second i9, which announced a sibling after a line had ended.
            (
                wider()[..wider().len() - 4].to_vec(),
                wider().len() - 4,
                Damage::MissingSiblings {
                    missing: 1,
                    first: wider().len() - 6,
                },
            ),
        ];
        for (bytes, offset, damage) in cases {
            match read(&bytes, Encoding::Auto) {
                Err(RenlibError::Damaged {
                    offset: o,
                    damage: d,
                }) => {
                    assert_eq!((o, &d), (offset, &damage));
                }
                other => panic!("{other:?}"),
            }
        }
        // Cut at a record boundary. A library whose root has the two replies h9 and i9 after
        // h8, h9 announcing its sibling before any line ended and the second reply j9's line
        // announcing one after it.
        let mut cut = header(3, 4);
        cut.extend_from_slice(&[0x00, 0x00, 0x78, 0x80, 0x68, 0x40, 0x87, 0x00, 0x77, 0x80]);
        cut.extend_from_slice(&[0x67, 0x40]);
        let owed = cut.len() - 4;
        cut.extend_from_slice(&[0x66, 0x40]);
        assert!(read(&cut, Encoding::Auto).is_ok());
        let unfinished = cut.len() - 2;
        for (bytes, offset, damage) in [
            // The sibling announced by the record at `owed` is missing.
            (
                &cut[..cut.len() - 2],
                cut.len() - 2,
                Damage::MissingSiblings {
                    missing: 1,
                    first: owed,
                },
            ),
            // The last line has no end.
            (
                &[&cut[..unfinished], &[0x66, 0x00][..]].concat()[..],
                cut.len(),
                Damage::UnfinishedLine { last: unfinished },
            ),
        ] {
            match read(bytes, Encoding::Auto) {
                Err(RenlibError::Damaged {
                    offset: o,
                    damage: d,
                }) => assert_eq!((o, &d), (offset, &damage)),
                other => panic!("{other:?}"),
            }
        }
        let mut off = header(3, 4);
        off.extend_from_slice(&[0x00, 0x00, 0xF8, 0x40]);
        assert!(matches!(
            read(&off, Encoding::Auto),
            Err(RenlibError::Damaged {
                offset: 22,
                damage: Damage::OffBoard { pos: 0xF8 }
            })
        ));
        let mut after = small();
        after.extend_from_slice(&[0x77, 0x40]);
        assert!(matches!(
            read(&after, Encoding::Auto),
            Err(RenlibError::Damaged {
                damage: Damage::AfterEnd { .. },
                ..
            })
        ));
        assert!(matches!(
            read(&header(3, 5), Encoding::Auto),
            Err(RenlibError::Version {
                found: Version { major: 3, minor: 5 }
            })
        ));
        assert!(matches!(
            read(&header(3, 4)[..12], Encoding::Auto),
            Err(RenlibError::TruncatedHeader { len: 12 })
        ));
        assert!(matches!(
            read(b"PK\x03\x04", Encoding::Auto),
            Err(RenlibError::NotALibrary)
        ));
        assert!(matches!(
            read(b"", Encoding::Auto),
            Err(RenlibError::NotALibrary)
        ));
    }

    /// RenLib reads in pairs and ignores an odd byte at the end; so does this reader, once
    /// the tree has ended.
    #[test]
    fn an_odd_last_byte_is_ignored() {
        let mut b = small();
        b.push(0x0A);
        assert_eq!(
            read(&b, Encoding::Auto).unwrap(),
            read(&small(), Encoding::Auto).unwrap()
        );
        let mut headerless = vec![0x78, 0x08];
        headerless.extend_from_slice(b"h8\0\0");
        headerless.extend_from_slice(&[0x87, 0x48]);
        headerless.extend_from_slice(b"g7!\0\x0A");
        let lib = read(&headerless, Encoding::Auto).unwrap();
        assert_eq!(lib.lines(), vec![vec![Some(p("h8")), Some(p("g7"))]]);
        assert_eq!(lib.node(2).comment.as_deref(), Some("g7!"));
    }

    #[test]
    fn branch_files_keep_their_leading_siblings() {
        // RenLib's "save branch" of h8 i9: h8's sibling flag is written, its sibling is not.
        let mut b = header(3, 4);
        b.extend_from_slice(&[0x00, 0x00, 0x78, 0x80, 0x69, 0x00, 0x5A, 0x40]);
        let lib = read(&b, Encoding::Auto).unwrap();
        assert_eq!(lib.stone_lines(), vec![vec![p("h8"), p("i9"), p("j10")]]);
    }

    #[test]
    fn write_rejects_points_off_the_board() {
        let lib = Library::from_lines(&[vec![Point::new(15, 0)]]);
        assert!(matches!(
            write(&lib, Encoding::Auto),
            Err(RenlibError::OffBoard { .. })
        ));
    }
}
