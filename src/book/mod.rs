//! Opening books: a proof tree grown best-first over named root positions, with `solve` as the
//! evaluator at its frontier, and every result stored in a solution database.
//!
//! The book is a tree per root. Its leaves are positions not searched yet, or searched without
//! a result; its settled nodes are positions proved won for one side (the database holds the
//! proof) or, on a full board, drawn. Each round picks the most-proving leaves, as proof-number
//! search does at its top: from a root, the child with the smallest proof number where the
//! root's attacker is to move, the smallest disproof number where the defender is. A leaf first
//! is looked up in the database, then gets a `solve` within the per-position budget. A proof goes
//! into the database, and is tried on the leaf's unsettled siblings, proving each where it
//! still holds (simulation); a leaf searched without a result is expanded one ply:
//!
//! - the side to move's replies are complete where it matters: if the other side has a VCF
//!   were the side to move to pass, that VCF is the node's *certificate* and only the replies
//!   that break it become children (every other reply loses to the same line, which the
//!   checker replays); where the book's defender is to move without one, the attacker's VCT
//!   were it to pass plays that part (a *certificate proof*, the replies after which it no
//!   longer holds the children); otherwise every legal move is a child;
//! - the attacker's own moves are ordered by a heuristic (fours, threes, blocks of the
//!   defender's threes, then nearness) and opened a batch at a time (`width`): the next batch
//!   only when every opened one has failed. A node is disproved only when every legal move
//!   has been.
//!
//! When a node's children settle it, the node itself is added to the database as a
//! [`Combined`] step over the children stored there (the winning move, or the replies with the
//! certificate), so the database holds a proof of every settled book position that `check`
//! verifies from the rules alone; the book's own tree is only a search aid. Nothing in the book
//! is trusted: a node is won only through a proof in the database.
//!
//! The book is kept in a journal beside the database (`BOOK.journal`, see [`Book::encode`]),
//! rewritten atomically after the database, so a builder killed at any moment resumes from its
//! last checkpoint: a position proved after it is found again in the database.
//!
//! The parts: the book's types and its tree (here), the proof and disproof numbers
//! (`numbers`), picking the most-proving leaves (`pick`), searching and expanding a leaf
//! (`search`), settling positions from their children (`settle`), the journal (`journal`),
//! and the figures for `book status` (`report`).
//!
//! [`Combined`]: crate::db::Combined

mod journal;
/// The first bytes of a book's journal.
pub use journal::MAGIC as JOURNAL_MAGIC;
mod leaf_search;
mod lend;
mod numbers;
pub mod openings;
mod pick;
mod report;
mod run;
mod search;
mod settle;
mod twins;
pub mod unit;

use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::db::DbError;
use crate::proof::Proof;
use crate::rules::{Board, Color, Point, Rules, Size};

pub use journal::{MAGIC, VERSION};
pub use leaf_search::state_path;
pub use report::{Figures, MoveReport, OpenChild, PlyReport, PositionReport, RootReport};
pub use run::{Outcome, Round, Searched, Searches};
pub use search::{RoundOptions, guide, ordered_moves};

/// The parent of a root node.
const NO_PARENT: u32 = u32::MAX;
/// A leaf tried again gets its budget doubled, up to this many times.
const MAX_DOUBLINGS: u32 = 12;

/// What went wrong in a book.
#[derive(Debug, thiserror::Error)]
pub enum BookError {
    /// The journal does not decode.
    #[error("the book journal is damaged: {0}")]
    Damaged(String),
    /// The journal is of another version.
    #[error("the book journal is version {0}; this build reads versions 1 to {VERSION}")]
    Version(u32),
    /// A root or position that cannot be played out.
    #[error("{0}")]
    Position(String),
    /// The database refused a proof.
    #[error("the database: {0}")]
    Db(#[from] DbError),
}

/// Where a book position stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Status {
    /// Not searched yet.
    Open,
    /// Handed to a work unit by `book plan`; settled from the database once the parts are
    /// merged, or else counted as tried.
    Planned,
    /// Searched without a result: expanded, or (at the ply limit) waiting to be searched
    /// again with a larger budget.
    Tried,
    /// Proved won for this side: the database holds the proof.
    Won(Color),
    /// A full board: drawn (not in the database, which holds wins only).
    Draw,
    /// Searched without a result to the end of the search's narrowed moves, before its
    /// budget ran out ([`crate::solve::Solution::narrowed_out`]): a larger budget would end
    /// the same way, so it is neither searched again nor expanded. Not settled: nothing is
    /// proved, and a proof from elsewhere (the database, a sibling's) still settles it.
    Exhausted,
}

impl Status {
    /// Whether the position's value is known.
    #[must_use]
    pub fn settled(self) -> bool {
        matches!(self, Status::Won(_) | Status::Draw)
    }
}

/// The line that limits a node's children: the winner's VCF were the side to move to pass.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Certificate {
    /// The side whose VCF it is.
    pub winner: Color,
    /// Its moves and the forced replies, alternating, ending in the five.
    pub line: Vec<Point>,
}

/// A position of the book.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct BookNode {
    /// The parent's index, or none for a root.
    pub parent: u32,
    /// The root this node is under.
    pub root: u32,
    /// Moves from the root.
    pub ply: u32,
    /// The move from the parent (none for a root).
    pub play: Option<Point>,
    /// Where it stands.
    pub status: Status,
    /// Searches without a result.
    pub attempts: u32,
    /// The children, in the order they were opened.
    pub children: Vec<u32>,
    /// Whether the node has been expanded.
    pub expanded: bool,
    /// Moves of the side to move not opened yet (the attacker's, a batch at a time).
    pub unopened: u32,
    /// The certificate that limits the children, if any.
    pub certificate: Option<Certificate>,
    /// Where the book's defender is to move and has no such VCF certificate: a proof of the
    /// attacker's win were the defender to pass (a VCT tree, on the same stones with the
    /// attacker to move). Only the replies after which it no longer holds are children. Kept
    /// in the journal after the book itself ([`Book::encode`]).
    #[serde(skip)]
    pub pass_proof: Option<Arc<Proof>>,
    #[serde(skip)]
    pn: u64,
    #[serde(skip)]
    dn: u64,
    #[serde(skip)]
    busy: bool,
    /// Whether some unsettled leaf below (or the node itself) is free to be picked.
    #[serde(skip)]
    free: bool,
}

impl BookNode {
    fn new(parent: u32, root: u32, ply: u32, play: Option<Point>) -> BookNode {
        BookNode {
            parent,
            root,
            ply,
            play,
            status: Status::Open,
            attempts: 0,
            children: Vec::new(),
            expanded: false,
            unopened: 0,
            certificate: None,
            pass_proof: None,
            pn: 1,
            dn: 1,
            busy: false,
            free: true,
        }
    }
}

/// A root position of the book.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct BookRoot {
    /// Its name: an opening's code and name, or the position as given.
    pub name: String,
    /// The moves that reach it, when known (an opening, a move list); empty for a diagram.
    pub moves: Vec<Point>,
    /// Black's stones.
    pub black: Vec<Point>,
    /// White's stones.
    pub white: Vec<Point>,
    /// The side to move.
    pub to_move: Color,
    /// The side the book tries to prove a win for.
    pub attacker: Color,
    /// Its node.
    pub node: u32,
    /// Seconds its leaves have been searched by `book build`, over every run (searches on
    /// several threads at once each count in full).
    pub seconds: f64,
}

/// How the book grows; kept in the journal, and changed by the flags of a later run.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Settings {
    /// Leaves at this many moves from their root are not expanded, only searched again with
    /// a doubled budget.
    pub max_ply: Option<u32>,
    /// The attacker's moves opened at a time.
    pub width: u32,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            max_ply: None,
            width: 10,
        }
    }
}

/// The book at one checkpoint, for plotting its growth.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Sample {
    /// When it was taken: seconds since 1970 (UTC).
    pub unix_time: u64,
    /// Seconds of `book build` so far, over every run.
    pub seconds: f64,
    /// Roots.
    pub roots: usize,
    /// Roots proved won for their attacker.
    pub proved: usize,
    /// Roots proved lost or drawn for their attacker.
    pub disproved: usize,
    /// Unsettled leaves.
    pub frontier: usize,
    /// Book positions.
    pub positions: usize,
    /// Leaf searches so far.
    pub searches: u64,
    /// Solver nodes so far.
    pub nodes: u64,
}

/// Running totals over every run.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct Totals {
    /// Seconds spent building.
    pub seconds: f64,
    /// Leaf searches.
    pub searches: u64,
    /// Solver nodes.
    pub nodes: u64,
}

/// An opening book: roots, the tree grown under them, and its history.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Book {
    /// The rule set and win length.
    pub rules: Rules,
    /// The board size.
    pub size: Size,
    /// How it grows.
    pub settings: Settings,
    /// The roots.
    pub roots: Vec<BookRoot>,
    /// The positions.
    pub nodes: Vec<BookNode>,
    /// One sample per checkpoint.
    pub history: Vec<Sample>,
    /// Totals.
    pub totals: Totals,
    /// The positions' keys to their nodes (see `twins.rs`), built on first use.
    #[serde(skip)]
    twins: Option<std::collections::HashMap<u64, Vec<u32>>>,
}

pub(crate) fn points_of(board: &Board, color: Color) -> Vec<Point> {
    let mut v: Vec<Point> = board
        .stones()
        .filter(|&(_, c)| c == color)
        .map(|(p, _)| p)
        .collect();
    v.sort_unstable();
    v
}

impl Book {
    /// An empty book.
    #[must_use]
    pub fn new(rules: Rules, size: Size) -> Book {
        Book {
            rules,
            size,
            settings: Settings::default(),
            roots: Vec::new(),
            nodes: Vec::new(),
            history: Vec::new(),
            totals: Totals::default(),
            twins: None,
        }
    }

    /// Adds a root, unless the book has it already (in any symmetric form); returns whether
    /// it was added.
    ///
    /// # Errors
    /// [`BookError::Position`] for a position of other rules or size, or with a five, or one the
    /// book has as a root with the other attacker.
    pub fn add_root(
        &mut self,
        name: &str,
        board: &Board,
        attacker: Color,
    ) -> Result<bool, BookError> {
        if board.rules() != self.rules || board.size() != self.size {
            return Err(BookError::Position(format!(
                "root `{name}` is for {} on {}, the book for {} on {}",
                board.rules(),
                board.size(),
                self.rules,
                self.size
            )));
        }
        if !board.fives().is_empty() {
            return Err(BookError::Position(format!(
                "root `{name}` already has a five on the board"
            )));
        }
        let key = crate::db::PositionKey::of(board).0;
        for root in &self.roots {
            if crate::db::PositionKey::of(&self.root_board(root)?).0 == key {
                if root.attacker != attacker {
                    return Err(BookError::Position(format!(
                        "root `{name}` is root `{}` of the book, which proves a win for {}, not \
                         {attacker}: a book proves one attacker per position (use another book)",
                        root.name, root.attacker
                    )));
                }
                return Ok(false);
            }
        }
        let node = self.nodes.len() as u32;
        let index = self.roots.len() as u32;
        self.nodes.push(BookNode::new(NO_PARENT, index, 0, None));
        // Built again, with the root, on next use.
        self.twins = None;
        self.roots.push(BookRoot {
            name: name.to_string(),
            moves: board.moves().to_vec(),
            black: points_of(board, Color::Black),
            white: points_of(board, Color::White),
            to_move: board.to_move(),
            attacker,
            node,
            seconds: 0.0,
        });
        Ok(true)
    }

    /// A root's position (played in order when its moves are known).
    ///
    /// # Errors
    /// [`BookError::Position`] if the stones do not fit the board.
    pub fn root_board(&self, root: &BookRoot) -> Result<Board, BookError> {
        let mut board = Board::new(self.size, self.rules);
        let bad = |e: crate::rules::PlayError| {
            BookError::Position(format!("root `{}` cannot be set up: {e}", root.name))
        };
        if root.moves.is_empty() {
            for (stones, color) in [(&root.black, Color::Black), (&root.white, Color::White)] {
                for &p in stones {
                    board.put(p, color).map_err(bad)?;
                }
            }
        } else {
            for &p in &root.moves {
                board.play(p).map_err(bad)?;
            }
        }
        board.set_to_move(root.to_move);
        if points_of(&board, Color::Black) != root.black
            || points_of(&board, Color::White) != root.white
        {
            return Err(BookError::Damaged(format!(
                "root `{}`: its moves do not give its stones",
                root.name
            )));
        }
        Ok(board)
    }

    /// The moves from the root to `node`.
    #[must_use]
    pub fn path(&self, mut node: u32) -> Vec<Point> {
        let mut moves = Vec::new();
        while let Some(n) = self.nodes.get(node as usize) {
            match n.play {
                Some(p) => moves.push(p),
                None => break,
            }
            node = n.parent;
        }
        moves.reverse();
        moves
    }

    /// The position at `node`.
    ///
    /// # Errors
    /// [`BookError::Position`] for a damaged journal whose moves do not play out.
    pub fn board(&self, node: u32) -> Result<Board, BookError> {
        let root = &self.roots[self.nodes[node as usize].root as usize];
        let mut board = self.root_board(root)?;
        for p in self.path(node) {
            if !board.is_empty(p) {
                return Err(BookError::Damaged(format!(
                    "position {node} plays {p} on a stone"
                )));
            }
            board.play_unchecked(p);
        }
        Ok(board)
    }

    fn attacker(&self, node: u32) -> Color {
        self.roots[self.nodes[node as usize].root as usize].attacker
    }

    /// The side whose win alone a search of `node` looks for: the book's attacker with
    /// [`RoundOptions::attacker_wins_only`], else none (both sides' wins).
    #[must_use]
    pub fn searched_attacker(&self, node: u32, options: &RoundOptions) -> Option<Color> {
        options.attacker_wins_only.then(|| self.attacker(node))
    }

    fn to_move(&self, node: u32) -> Color {
        let n = &self.nodes[node as usize];
        let root = &self.roots[n.root as usize];
        if n.ply.is_multiple_of(2) {
            root.to_move
        } else {
            root.to_move.opponent()
        }
    }

    /// Whether the root's attacker is to move at `node` (an OR node of the proof).
    fn attacker_to_move(&self, node: u32) -> bool {
        self.to_move(node) == self.attacker(node)
    }

    /// Adds a child of `parent` for each of `moves`, in order.
    fn open(&mut self, parent: u32, moves: &[Point]) {
        let (root, ply) = {
            let p = &self.nodes[parent as usize];
            (p.root, p.ply + 1)
        };
        let first = self.nodes[parent as usize].children.len() as u32;
        for &m in moves {
            let id = self.nodes.len() as u32;
            self.nodes.push(BookNode::new(parent, root, ply, Some(m)));
            self.nodes[parent as usize].children.push(id);
        }
        if self.note_opened(parent, first).is_err() {
            // A damaged journal: the keys are built again, and the damage named, on next use.
            self.twins = None;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::{PositionOptions, parse_position};

    pub(super) const VCT_BLACK: &str = include_str!("../../data/examples/vct.txt");

    /// Four black stones in a square, White to move: no VCF for Black were White to pass,
    /// but a VCT.
    pub(super) const SQUARE: &str = "h8 a1 j8 o1 h10 a15 j10";

    pub(super) fn board(text: &str) -> Board {
        parse_position(text, &PositionOptions::default()).unwrap()
    }

    /// A book whose one root is [`SQUARE`], Black attacking, and an empty database.
    pub(super) fn square_book() -> (Book, crate::db::Builder) {
        book_of("square", SQUARE)
    }

    /// A book of the one root `data/examples/vct.txt` (Black to move wins), and its database.
    pub(super) fn vct_book() -> (Book, crate::db::Builder) {
        book_of("vct", VCT_BLACK)
    }

    /// A book of the one root `position`, Black attacking, and an empty database.
    fn book_of(name: &str, position: &str) -> (Book, crate::db::Builder) {
        let mut book = Book::new(Rules::renju(), Size::STANDARD);
        book.add_root(name, &board(position), Color::Black).unwrap();
        (
            book,
            crate::db::Builder::new(Rules::renju(), Size::STANDARD),
        )
    }

    /// A pool of one thread, and rounds on it with `nodes` per search.
    pub(super) fn one_thread(nodes: u64) -> (rayon::ThreadPool, crate::book::RoundOptions) {
        on_threads(1, nodes)
    }

    /// A pool of `threads` threads, and searches on it with `nodes` each.
    pub(super) fn on_threads(
        threads: usize,
        nodes: u64,
    ) -> (rayon::ThreadPool, crate::book::RoundOptions) {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        let options = crate::book::RoundOptions {
            position_nodes: Some(nodes),
            threads,
            ..crate::book::RoundOptions::default()
        };
        (pool, options)
    }

    #[test]
    fn an_opening_root_is_replayed_as_its_moves() {
        let kagetsu = board("h8 h9 i9");
        let mut book = Book::new(Rules::renju(), Size::STANDARD);
        assert!(book.add_root("D4", &kagetsu, Color::Black).unwrap());
        let root = book.root_board(&book.roots[0]).unwrap();
        assert_eq!(root.stone("h9".parse().unwrap()), Some(Color::White));
        assert_eq!(root.hash(), kagetsu.hash());
        assert_eq!(root.to_move(), Color::White);
        // The same opening in another orientation is the same root.
        assert!(
            !book
                .add_root("D4 again", &board("h8 h7 g7"), Color::Black)
                .unwrap()
        );
    }

    #[test]
    fn a_root_whose_moves_do_not_give_its_stones_is_damage() {
        let mut book = Book::new(Rules::renju(), Size::STANDARD);
        book.add_root("D4", &board("h8 h9 i9"), Color::Black)
            .unwrap();
        book.roots[0].white = vec!["a1".parse().unwrap()];
        assert!(matches!(
            book.root_board(&book.roots[0]),
            Err(BookError::Damaged(_))
        ));
    }
}
