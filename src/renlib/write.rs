//! Writing a library, version 3.4: the header, then every node's record in pre-order.

use super::encoding::{encode_text, writing_encoding};
use super::{Encoding, HEADER_LEN, Library, MAGIC, MoveNode, RenlibError, VERSION, flag, pos_of};

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
    push_children(library, Library::ROOT, &mut stack);
    while let Some((id, sibling)) = stack.pop() {
        let node = &library.nodes[id];
        let mut flags = 0;
        if sibling {
            flags |= flag::SIBLING;
        }
        if !node.has_children() {
            flags |= flag::NO_CHILD;
        }
        write_node(&mut out, node, flags, encoding)?;
        push_children(library, id, &mut stack);
    }
    Ok(out)
}

/// Pushes the children of `id` on `stack`, the last first (so that they pop in order), each
/// with whether a sibling follows it.
fn push_children(library: &Library, id: usize, stack: &mut Vec<(usize, bool)>) {
    let before = stack.len();
    stack.extend(library.children(id).map(|c| (c, true)));
    if let Some(last) = stack[before..].last_mut() {
        last.1 = false;
    }
    stack[before..].reverse();
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
    let one_line = node.comment().unwrap_or("").replace('\u{8}', " ");
    let multi_line = node.multi_line_comment().unwrap_or("");
    let comment = if multi_line.is_empty() {
        one_line
    } else {
        format!("{one_line}\u{8}{multi_line}")
    };
    let comment = encode_text(&comment, encoding);
    let board_text = encode_text(node.board_text().unwrap_or(""), encoding);
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
