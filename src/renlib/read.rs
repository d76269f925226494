//! Reading a library: the header, the records in pre-order with their texts (old-style
//! comments included), and the checks that name the byte where a damaged file goes wrong.

use std::path::Path;

use super::encoding::{RawTexts, decode_texts};
use super::error::damaged;
use super::{CENTRE, Damage, Encoding, HEADER_LEN, Library, MAGIC, MoveNode, RenlibError};
use super::{VERSION, Version, flag, point_of};

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
