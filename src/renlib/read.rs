//! Reading a library: the header, the records in pre-order with their texts (old-style
//! comments included), and the checks that name the byte where a damaged file goes wrong.

use std::path::Path;

use super::encoding::{RawTexts, decode_texts};
use super::error::damaged;
use super::{
    CENTRE, Damage, Encoding, HEADER_LEN, Library, MAGIC, MAX_FILE_BYTES, MoveNode, RenlibError,
};
use super::{VERSION, Version, flag, point_of};
use crate::rules::Point;

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
/// the byte offset and what is wrong there. A file over [`MAX_FILE_BYTES`].
pub fn read(bytes: &[u8], encoding: Encoding) -> Result<Library, RenlibError> {
    if bytes.len() > MAX_FILE_BYTES {
        return Err(RenlibError::TooLarge { len: bytes.len() });
    }
    let (version, body) = header(bytes)?;
    let mut reader = Reader::new(bytes, body, version, encoding);
    while reader.has_record() {
        reader.record()?;
    }
    reader.check_end()?;
    let Reader {
        mut library, raw, ..
    } = reader;
    library.encoding = decode_texts(&mut library, raw, encoding);
    Ok(library)
}

/// The state of [`read`] between two records: the tree so far, and where the records are in
/// it.
struct Reader<'a> {
    /// The whole file.
    bytes: &'a [u8],
    /// The offset of the first record.
    body: usize,
    /// The offset of the next record.
    at: usize,
    /// The nodes read, their texts not yet decoded.
    library: Library,
    /// Each node's texts as read, by node.
    raw: Vec<RawTexts>,
    /// `path[d]` is the node at depth d of the line being read.
    path: Vec<usize>,
    /// The siblings announced and not yet reached, the latest last.
    pending: Vec<Pending>,
    /// Whether a line has ended.
    any_line_ended: bool,
    /// The offset of the record that ended the tree, if one did.
    tree_ended: Option<usize>,
    /// The last record, if it did not end its line.
    unfinished: Option<usize>,
    /// The sibling the last line end was owed, if the file must hold one.
    owed_by_last: Option<usize>,
}

impl<'a> Reader<'a> {
    /// A reader at the first record, `body`, with only the root read.
    fn new(
        bytes: &'a [u8],
        body: usize,
        version: Option<Version>,
        encoding: Encoding,
    ) -> Reader<'a> {
        Reader {
            bytes,
            body,
            at: body,
            library: Library {
                version,
                encoding,
                nodes: vec![MoveNode::new(None, None)],
            },
            raw: vec![RawTexts::default()],
            path: vec![Library::ROOT],
            pending: Vec::new(),
            any_line_ended: false,
            tree_ended: None,
            unfinished: None,
            owed_by_last: None,
        }
    }

    /// Whether a record is left to read.
    fn has_record(&self) -> bool {
        let left = self.bytes.len() - self.at;
        // RenLib reads records in pairs and ignores an odd last byte.
        left > 1 || (left == 1 && self.tree_ended.is_none())
    }

    /// Reads the record at `at` with its texts, puts its node in the tree, and follows the
    /// sibling it announces and the line it ends.
    fn record(&mut self) -> Result<(), RenlibError> {
        let start = self.at;
        let (pos, flags, board_text) = self.take_record()?;
        let point = point_of(pos).map_err(|d| damaged(start, d))?;
        let is_root = start == self.body && pos == 0;
        let id = if is_root {
            Library::ROOT
        } else {
            self.node_on(start, point)?
        };
        self.add_flags(id, flags);
        self.read_texts(id, flags, board_text)?;
        if flags & flag::SIBLING != 0 {
            if is_root {
                return Err(damaged(start, Damage::RootSibling));
            }
            self.pending.push(Pending {
                depth: self.path.len() - 1,
                offset: start,
                leading: !self.any_line_ended,
            });
        }
        // RenLib writes no line end on the root; one there is ignored, as RenLib does.
        if !is_root {
            self.follow_line(start, flags);
        }
        Ok(())
    }

    /// The record's move byte and flags, and whether its extension bytes announce a board
    /// text.
    fn take_record(&mut self) -> Result<(u8, u8, bool), RenlibError> {
        let start = self.at;
        let [pos, flags] = take2(self.bytes, &mut self.at)
            .ok_or_else(|| damaged(start, Damage::TruncatedRecord))?;
        let mut board_text = false;
        if flags & flag::EXTENSION != 0 {
            let ext = self.at;
            let [_, info] = take2(self.bytes, &mut self.at)
                .ok_or_else(|| damaged(ext, Damage::TruncatedExtension))?;
            board_text = info & flag::BOARD_TEXT != 0;
        }
        Ok((pos, flags, board_text))
    }

    /// The node of the record at `start` on `point`, below the line read so far: a child
    /// read before on the same point, or a new one (no move until its flags say so).
    fn node_on(&mut self, start: usize, point: Option<Point>) -> Result<usize, RenlibError> {
        if let Some(end) = self.tree_ended {
            return Err(damaged(start, Damage::AfterEnd { end }));
        }
        let parent = *self.path.last().expect("the path holds the root");
        let id = self.library.child_on(parent, point);
        if id == self.raw.len() {
            self.raw.push(RawTexts::default());
            self.library.nodes[id].is_move = false;
        }
        self.path.push(id);
        Ok(id)
    }

    /// Adds the record's move, mark and start flags to node `id`'s.
    fn add_flags(&mut self, id: usize, flags: u8) {
        let node = &mut self.library.nodes[id];
        node.is_move |= flags & flag::NO_MOVE == 0;
        node.mark |= flags & flag::MARK != 0;
        node.start |= flags & flag::START != 0;
    }

    /// Reads the record's comment (old-style or not) and board text; node `id` keeps the
    /// first of each it was given.
    fn read_texts(&mut self, id: usize, flags: u8, board_text: bool) -> Result<(), RenlibError> {
        let texts = &mut self.raw[id];
        if flags & flag::OLD_COMMENT != 0 {
            let text = read_old_comment(self.bytes, &mut self.at)?;
            texts.old_comment.get_or_insert(text);
        } else if flags & flag::COMMENT != 0 {
            let text = read_text(self.bytes, &mut self.at, "comment")?;
            if texts.comment.is_none() && texts.old_comment.is_none() {
                texts.comment = Some(text);
            }
        }
        if board_text {
            let text = read_text(self.bytes, &mut self.at, "board text")?;
            texts.board_text.get_or_insert(text);
        }
        Ok(())
    }

    /// After the record at `start`, not the root's: its line goes on, or it ends and the
    /// next record is the latest sibling announced (or, with none, the tree has ended).
    fn follow_line(&mut self, start: usize, flags: u8) {
        self.unfinished = Some(start);
        self.owed_by_last = None;
        if flags & flag::NO_CHILD != 0 {
            self.unfinished = None;
            self.any_line_ended = true;
            match self.pending.pop() {
                Some(sibling) => {
                    self.path.truncate(sibling.depth);
                    if !sibling.leading {
                        self.owed_by_last = Some(sibling.offset);
                    }
                }
                None => self.tree_ended = Some(start),
            }
        }
    }

    /// The file may end only where a line ends, owing no sibling but those "save branch"
    /// leaves out (announced before the first line ended).
    fn check_end(&self) -> Result<(), RenlibError> {
        let end = self.bytes.len();
        let mut owed: Vec<usize> = self
            .pending
            .iter()
            .filter(|p| !p.leading)
            .map(|p| p.offset)
            .chain(self.owed_by_last)
            .collect();
        owed.sort_unstable();
        if let Some(&first) = owed.first() {
            return Err(damaged(
                end,
                Damage::MissingSiblings {
                    missing: owed.len(),
                    first,
                },
            ));
        }
        if let Some(last) = self.unfinished {
            return Err(damaged(end, Damage::UnfinishedLine { last }));
        }
        Ok(())
    }
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
