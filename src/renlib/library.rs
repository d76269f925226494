//! A library in memory: a tree of [`MoveNode`]s from the empty board, its lines, and the
//! positions they reach.

use super::{Encoding, SIDE, VERSION, Version};
use crate::rules::{Board, Color, PlayError, Point, Rules, Size};

/// One node of a library: a move (or a pass, or a label that is no move) with its annotations.
///
/// Kept small, since a library exported from a large database holds millions of them: the
/// texts sit behind one box that nodes without any text leave out, and the tree is linked by
/// 32-bit indices (first child, next sibling) rather than a list of children per node.
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
    texts: Option<Box<Texts>>,
    parent: u32,
    first_child: u32,
    next_sibling: u32,
}

/// A node's texts.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Texts {
    /// The one-line comment.
    pub comment: Option<String>,
    /// The multi-line comment (lines separated by `\r\n`, as RenLib writes them).
    pub multi_line_comment: Option<String>,
    /// The board text: a label (often one letter) drawn on the node's point.
    pub board_text: Option<String>,
}

/// No node: the root's parent, a leaf's first child, a last sibling's next.
const NONE: u32 = u32::MAX;

/// The texts of a node that has none.
static NO_TEXTS: Texts = Texts {
    comment: None,
    multi_line_comment: None,
    board_text: None,
};

impl MoveNode {
    pub(super) fn new(point: Option<Point>, parent: Option<usize>) -> MoveNode {
        MoveNode {
            point,
            is_move: true,
            mark: false,
            start: false,
            texts: None,
            parent: parent.map_or(NONE, index),
            first_child: NONE,
            next_sibling: NONE,
        }
    }

    /// The node's texts.
    #[must_use]
    pub fn texts(&self) -> &Texts {
        self.texts.as_deref().unwrap_or(&NO_TEXTS)
    }

    /// The node's texts, to change.
    pub fn texts_mut(&mut self) -> &mut Texts {
        self.texts.get_or_insert_default()
    }

    /// The one-line comment.
    #[must_use]
    pub fn comment(&self) -> Option<&str> {
        self.texts().comment.as_deref()
    }

    /// The multi-line comment (lines separated by `\r\n`).
    #[must_use]
    pub fn multi_line_comment(&self) -> Option<&str> {
        self.texts().multi_line_comment.as_deref()
    }

    /// The board text.
    #[must_use]
    pub fn board_text(&self) -> Option<&str> {
        self.texts().board_text.as_deref()
    }

    /// Whether the node has children (moves or labels).
    #[must_use]
    pub fn has_children(&self) -> bool {
        self.first_child != NONE
    }

    /// The node's parent; `None` for the root.
    #[must_use]
    pub fn parent(&self) -> Option<usize> {
        (self.parent != NONE).then_some(self.parent as usize)
    }
}

/// A node's index as stored in the links.
///
/// # Panics
/// Past `u32::MAX - 1` nodes: 4 billion, far more than memory holds (a library file is read
/// only up to [`super::MAX_FILE_BYTES`]).
fn index(id: usize) -> u32 {
    u32::try_from(id)
        .ok()
        .filter(|&i| i != NONE)
        .expect("a library holds fewer than 2^32 - 1 nodes")
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
    pub(super) nodes: Vec<MoveNode>,
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
    /// If there is no node `parent`, or the library already holds 2^32 - 1 nodes.
    pub fn add_child(&mut self, parent: usize, point: Option<Point>) -> usize {
        let id = self.child_on(parent, point);
        self.nodes[id].is_move = true;
        id
    }

    /// The child of `parent` on `point`, added (as a move) if there is none. The search for
    /// it walks the children to the last, which the new one follows.
    pub(super) fn child_on(&mut self, parent: usize, point: Option<Point>) -> usize {
        let mut last = None;
        for c in self.children(parent) {
            if self.nodes[c].point == point {
                return c;
            }
            last = Some(c);
        }
        let id = self.nodes.len();
        let link = index(id);
        self.nodes.push(MoveNode::new(point, Some(parent)));
        match last {
            Some(last) => self.nodes[last].next_sibling = link,
            None => self.nodes[parent].first_child = link,
        }
        id
    }

    /// The children of `id` (moves and labels), in order.
    ///
    /// # Panics
    /// If there is no node `id`.
    pub fn children(&self, id: usize) -> impl Iterator<Item = usize> + '_ {
        let first = self.nodes[id].first_child;
        std::iter::successors((first != NONE).then_some(first as usize), |&c| {
            let next = self.nodes[c].next_sibling;
            (next != NONE).then_some(next as usize)
        })
    }

    /// The child of `parent` on `point` (`None`: a pass), move or label, if there is one.
    ///
    /// # Panics
    /// If there is no node `parent`.
    #[must_use]
    pub fn child(&self, parent: usize, point: Option<Point>) -> Option<usize> {
        self.children(parent)
            .find(|&c| self.nodes[c].point == point)
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
        while let Some(parent) = self.nodes[at].parent() {
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
        let mut stack: Vec<(usize, usize)> = Vec::new();
        self.push_moves_below(Library::ROOT, 0, &mut stack);
        while let Some((id, depth)) = stack.pop() {
            line.truncate(depth);
            line.push(self.nodes[id].point);
            if !self.push_moves_below(id, depth + 1, &mut stack) {
                visit(&line);
            }
        }
    }

    /// Pushes the children of `id` that are moves on `stack`, each with `depth`, the last
    /// first (so that they pop in order). Returns whether there were any.
    fn push_moves_below(&self, id: usize, depth: usize, stack: &mut Vec<(usize, usize)>) -> bool {
        let before = stack.len();
        stack.extend(
            self.children(id)
                .filter(|&c| self.nodes[c].is_move)
                .map(|c| (c, depth)),
        );
        stack[before..].reverse();
        stack.len() > before
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
        let mut stack: Vec<(usize, usize)> = Vec::new();
        self.push_moves_below(Library::ROOT, 0, &mut stack);
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
            if !self.push_moves_below(id, ply + 1, &mut stack) {
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A library exported from a large database holds millions of nodes: each stays within
    /// 32 bytes (its texts boxed apart, its links 32-bit), and children keep their order.
    #[test]
    fn nodes_are_small_and_children_keep_their_order() {
        assert!(size_of::<MoveNode>() <= 32, "{}", size_of::<MoveNode>());
        let mut lib = Library::new();
        let points: Vec<Point> = (0..5u8).map(|i| Point::new(i, 0)).collect();
        for &q in points.iter().rev() {
            lib.add_child(Library::ROOT, Some(q));
        }
        // Adding a point again finds its node.
        let again = lib.add_child(Library::ROOT, Some(points[2]));
        assert_eq!(lib.len(), 6);
        assert_eq!(lib.node(again).point, Some(points[2]));
        let order: Vec<Option<Point>> = lib
            .children(Library::ROOT)
            .map(|c| lib.node(c).point)
            .collect();
        let expected: Vec<Option<Point>> = points.iter().rev().copied().map(Some).collect();
        assert_eq!(order, expected);
        assert!(lib.node(Library::ROOT).has_children());
        assert!(!lib.node(again).has_children());
        assert_eq!(lib.node(again).parent(), Some(Library::ROOT));
        assert_eq!(lib.node(Library::ROOT).parent(), None);
        assert_eq!(lib.child(Library::ROOT, None), None);
        assert_eq!(lib.node(again).texts(), &Texts::default());
    }

    /// Regression: a "comb" (a deep spine whose every node has a one-move
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
}
