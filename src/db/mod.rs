//! The solution database (`docs/db-format.md`): proved positions kept on disk as one DAG of
//! proof nodes.
//!
//! Every node is stored in the canonical orientation of its position (the symmetric image with
//! the smallest Zobrist key, [`Board::canonical`]), so the 8 symmetric forms of a position share
//! one node, and a position reached from two roots or by two move orders is stored once (but a
//! certificate proof is stored as found, sharing nothing: [`Builder`]). An
//! edge to a child carries the symmetry that maps the child's stored orientation onto the
//! parent's; a root carries the symmetry that maps the position as it was submitted onto the
//! stored one, so that moves can be shown the way the user entered them.
//!
//! The node kinds are those of a [`crate::proof::Proof`], with VCF lines reduced to the
//! attacker's moves (the defender's replies are forced, and the checker derives them itself):
//!
//! - [`Node::Move`] (OR): the side to move wins by this move;
//! - [`Node::Vcf`] (OR leaf): the side to move wins by these fours;
//! - [`Node::Replies`] (AND): the side to move loses: the certificate answers every reply not
//!   listed, and the listed ones have nodes. The certificate is the attacker's VCF were the side
//!   to move to pass, or a node that proves the attacker's win were the side to move to pass
//!   (the *pass position*: the same stones, the attacker to move);
//! - [`Node::Five`] (root only): the attacker has a five on the board.
//!
//! Positions inside a proof are found again by walking the DAG from the roots with the rules
//! core ([`Index`]); the file stores no keys. Nothing here verifies a proof: that is
//! [`crate::check`]'s job, and a hash collision or a bad proof in a database shows up there.

mod build;
mod export;
mod format;
mod settled;

use std::collections::{HashMap, HashSet};
use std::path::Path;

use serde::Serialize;

pub use build::{Added, Builder, Combined, PassCertificate, proof_rules, rules_named};
pub use export::{export_lib, export_text};
pub use format::{HEADER_LEN, MAGIC, OLDEST_READ, VERSION, decode, encode};
pub use settled::Settled;

use crate::rules::{Board, Color, Point, Rules, Size, Symmetry};

/// A point as stored: its index `y * cols + x` on the database's board.
pub type Cell = u16;

/// Why a database could not be read, written or extended.
#[derive(Debug, thiserror::Error)]
pub enum DbError {
    /// The file is shorter than its header or body says.
    #[error("truncated file: {0}")]
    Truncated(String),
    /// The file does not start with [`MAGIC`].
    #[error("not a renju database: the file does not start with the magic bytes `RENJU-DB`")]
    Magic,
    /// A format version this build does not read.
    #[error(
        "unsupported database format version {found}: this build reads versions {OLDEST_READ} to {VERSION}"
    )]
    Version {
        /// The version in the file.
        found: u32,
    },
    /// A header field out of range.
    #[error("corrupt header: {0}")]
    Header(String),
    /// The body's checksum does not match the header's.
    #[error(
        "checksum mismatch: the body's CRC-32 is {computed:08x} but the header says {stored:08x}; the file is corrupted"
    )]
    Checksum {
        /// The checksum in the header.
        stored: u32,
        /// The checksum of the body as read.
        computed: u32,
    },
    /// A record of the body that does not decode.
    #[error("corrupt body: {0}")]
    Body(String),
    /// A proof or database for another rule set or board size.
    #[error("the database is for {db}, but the {what} is for {other}")]
    Mismatch {
        /// The database's rules and size.
        db: String,
        /// What was offered: `proof` or `input` (a database merged in).
        what: &'static str,
        /// Its rules and size.
        other: String,
    },
    /// Two proofs claim opposite results for one position.
    #[error(
        "contradictory verdicts: `{first}` ({first_claim}) and `{second}` ({second_claim}) are the same position"
    )]
    Contradiction {
        /// The position already stored.
        first: String,
        /// What the stored proof says.
        first_claim: String,
        /// The position being added.
        second: String,
        /// What the new proof says.
        second_claim: String,
    },
    /// A proof that cannot be stored (a move off the board or on a stone, a missing node).
    #[error("cannot store the proof: {0}")]
    Proof(String),
    /// A database too large for the format's 32-bit node numbers.
    #[error("the database is too large: {0}")]
    TooLarge(String),
    /// Reading or writing the file.
    #[error(transparent)]
    Io(#[from] std::io::Error),
}

/// A child reference: the node, and the symmetry that maps the child's stored orientation
/// onto its parent's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Edge {
    /// The child's index in [`Database::nodes`].
    pub node: u32,
    /// Child orientation to parent orientation.
    pub symmetry: Symmetry,
}

/// One node, in the canonical orientation of its position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Node {
    /// Root only: the attacker already has a five.
    Five,
    /// The side to move wins by these fours (its own moves only: the replies are forced, and
    /// the final five is left out; an empty line means a five to play).
    Vcf(Vec<Cell>),
    /// The side to move wins by `play`.
    Move {
        /// The winning move.
        play: Cell,
        /// The position after it.
        child: Edge,
    },
    /// The side to move loses.
    Replies {
        /// What answers every reply not listed; `None` when every legal reply is listed.
        certificate: Option<Certificate>,
        /// The replies that need their own proof.
        replies: Vec<(Cell, Edge)>,
    },
}

/// What answers a defender node's replies that it does not list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Certificate {
    /// The attacker's VCF (its moves only, the final five left out) were the side to move to
    /// pass. An empty line means the attacker has a five to play.
    Line(Vec<Cell>),
    /// The node of the pass position (the same stones, the attacker to move), which proves the
    /// attacker's win.
    Proof(Edge),
}

impl Node {
    /// The edge to the pass position's node, for a defender node whose certificate is a proof.
    #[must_use]
    pub fn pass(&self) -> Option<Edge> {
        match self {
            Node::Replies {
                certificate: Some(Certificate::Proof(e)),
                ..
            } => Some(*e),
            _ => None,
        }
    }

    /// The node's moves that lead to other nodes, each with its child (the pass position of a
    /// certificate is no move: see [`Node::pass`]).
    pub fn moves(&self) -> impl Iterator<Item = (Cell, Edge)> + '_ {
        let one = match self {
            Node::Move { play, child } => Some((*play, *child)),
            _ => None,
        };
        let many: &[(Cell, Edge)] = match self {
            Node::Replies { replies, .. } => replies,
            _ => &[],
        };
        one.into_iter().chain(many.iter().copied())
    }

    /// The node's children: the pass position's node first, if any, then the moves'.
    pub fn children(&self) -> impl Iterator<Item = Edge> + '_ {
        self.pass().into_iter().chain(self.moves().map(|(_, e)| e))
    }

    /// The winner this node claims when `to_move` is to move (`None` for a five, which
    /// names no side to move).
    #[must_use]
    pub fn winner(&self, to_move: Color) -> Option<Color> {
        match self {
            Node::Move { .. } | Node::Vcf(_) => Some(to_move),
            Node::Replies { .. } => Some(to_move.opponent()),
            Node::Five => None,
        }
    }
}

/// A proved root position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Root {
    /// Black's stones, in the stored orientation, sorted.
    pub black: Vec<Cell>,
    /// White's stones, likewise.
    pub white: Vec<Cell>,
    /// The side to move.
    pub to_move: Color,
    /// The side the proof shows winning.
    pub attacker: Color,
    /// The root's node.
    pub node: u32,
    /// Maps the position as submitted onto the stored orientation.
    pub symmetry: Symmetry,
}

/// A solution database in memory.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Database {
    /// The rule set and win length.
    pub rules: Rules,
    /// The board size.
    pub size: Size,
    /// The proved positions.
    pub roots: Vec<Root>,
    /// The nodes; after reading or [`Database::compacted`], in the file's order.
    pub nodes: Vec<Node>,
}

impl Database {
    /// An empty database.
    #[must_use]
    pub fn new(rules: Rules, size: Size) -> Database {
        Database {
            rules,
            size,
            roots: Vec::new(),
            nodes: Vec::new(),
        }
    }

    /// Reads and decodes a database file.
    ///
    /// # Errors
    /// [`DbError::Io`] if the file cannot be read, or a decoding error naming what is wrong.
    pub fn read(path: &Path) -> Result<Database, DbError> {
        decode(&crate::files::read(path)?)
    }

    /// The rule set and board size of a database file, from its header alone: a quick test
    /// that a file is a database of the right kind, which leaves its body unread (and
    /// unchecked).
    ///
    /// # Errors
    /// [`DbError::Io`] if the file cannot be read, or a header error.
    pub fn read_rules(path: &Path) -> Result<(Rules, Size), DbError> {
        use std::io::Read;
        let mut head = Vec::with_capacity(HEADER_LEN);
        std::fs::File::open(path)?
            .take(HEADER_LEN as u64)
            .read_to_end(&mut head)?;
        let header = format::decode_header(&head)?;
        Ok((header.rules, header.size))
    }

    /// Encodes and writes the database atomically (a temporary file, fsync, rename).
    ///
    /// # Errors
    /// An encoding or I/O error.
    pub fn write(&self, path: &Path) -> Result<usize, DbError> {
        let bytes = encode(self)?;
        crate::atomic::write_atomic(path, &bytes)?;
        Ok(bytes.len())
    }

    /// `rules size`, like `renju 15` or `gomoku k=4 5x5`, for messages.
    #[must_use]
    pub fn describe(&self) -> String {
        describe(self.rules, self.size)
    }

    /// The stored cell of `p`.
    #[must_use]
    pub fn cell(&self, p: Point) -> Cell {
        cell_of(self.size, p)
    }

    /// The point of a stored cell, if it is on the board.
    #[must_use]
    pub fn point(&self, c: Cell) -> Option<Point> {
        let cols = Cell::from(self.size.cols());
        let rows = Cell::from(self.size.rows());
        (c < cols * rows).then(|| Point::new((c % cols) as u8, (c / cols) as u8))
    }

    /// The root position in its stored orientation.
    ///
    /// # Errors
    /// A message if the stones are off the board or overlap.
    pub fn root_board(&self, root: &Root) -> Result<Board, String> {
        let mut board = Board::new(self.size, self.rules);
        for (stones, color) in [(&root.black, Color::Black), (&root.white, Color::White)] {
            for &c in stones {
                let p = self
                    .point(c)
                    .ok_or(format!("root stone {c} is off the board"))?;
                board.put(p, color).map_err(|e| e.to_string())?;
            }
        }
        board.set_to_move(root.to_move);
        Ok(board)
    }

    /// The number of distinct nodes reachable from `node` (itself included); references to
    /// missing nodes are not counted.
    #[must_use]
    pub fn reachable(&self, node: u32) -> usize {
        let mut seen = HashSet::new();
        let mut stack = vec![node];
        while let Some(n) = stack.pop() {
            let Some(made) = self.nodes.get(n as usize) else {
                continue;
            };
            if seen.insert(n) {
                stack.extend(made.children().map(|e| e.node));
            }
        }
        seen.len()
    }

    /// For every node, the most attacker moves its proof needs to reach a five: 0 for a five,
    /// the line's length for a VCF (with the final five, which lines may leave out), one more
    /// than the child for a move, and the longest of the certificate and the listed replies
    /// for a defender node. A missing child, or one that leads back round a cycle (a damaged
    /// database), counts as 0.
    #[must_use]
    pub fn depths(&self) -> Vec<u32> {
        const UNSEEN: u32 = u32::MAX;
        const OPEN: u32 = u32::MAX - 1;
        let mut depth = vec![UNSEEN; self.nodes.len()];
        let line = |cells: &[Cell]| cells.len() as u32 + 1;
        for start in 0..self.nodes.len() {
            if depth[start] != UNSEEN {
                continue;
            }
            // Post-order without recursion: a node is finished once its children are.
            let mut stack = vec![start];
            while let Some(&n) = stack.last() {
                let node = &self.nodes[n];
                if depth[n] == UNSEEN {
                    depth[n] = OPEN;
                    for e in node.children() {
                        if depth.get(e.node as usize) == Some(&UNSEEN) {
                            stack.push(e.node as usize);
                        }
                    }
                    continue;
                }
                stack.pop();
                if depth[n] != OPEN {
                    continue;
                }
                let of = |e: Edge| match depth.get(e.node as usize) {
                    Some(&d) if d < OPEN => d,
                    _ => 0,
                };
                depth[n] = match node {
                    Node::Five => 0,
                    Node::Vcf(cells) => line(cells),
                    Node::Move { child, .. } => of(*child).saturating_add(1),
                    Node::Replies {
                        certificate,
                        replies,
                    } => replies.iter().map(|&(_, e)| of(e)).max().unwrap_or(0).max(
                        match certificate {
                            Some(Certificate::Line(cells)) => line(cells),
                            Some(Certificate::Proof(e)) => of(*e),
                            None => 0,
                        },
                    ),
                };
            }
        }
        depth
    }

    /// The same database with only the nodes its roots reach, numbered in the file's order.
    #[must_use]
    pub fn compacted(&self) -> Database {
        let (order, _) = format::layout(self);
        let mut number = vec![None; self.nodes.len()];
        for (i, &n) in order.iter().enumerate() {
            number[n as usize] = Some(i as u32);
        }
        // A missing node stays missing, past the end.
        let renumber = |e: Edge| Edge {
            node: number
                .get(e.node as usize)
                .copied()
                .flatten()
                .unwrap_or_else(|| {
                    (order.len() as u32)
                        .saturating_add(e.node.saturating_sub(self.nodes.len() as u32))
                }),
            symmetry: e.symmetry,
        };
        let nodes = order
            .iter()
            .map(|&n| match &self.nodes[n as usize] {
                Node::Move { play, child } => Node::Move {
                    play: *play,
                    child: renumber(*child),
                },
                Node::Replies {
                    certificate,
                    replies,
                } => Node::Replies {
                    certificate: certificate.as_ref().map(|c| match c {
                        Certificate::Proof(e) => Certificate::Proof(renumber(*e)),
                        line => line.clone(),
                    }),
                    replies: replies.iter().map(|&(r, e)| (r, renumber(e))).collect(),
                },
                other => other.clone(),
            })
            .collect();
        let roots = self
            .roots
            .iter()
            .map(|r| Root {
                node: renumber(Edge {
                    node: r.node,
                    symmetry: Symmetry::Identity,
                })
                .node,
                ..r.clone()
            })
            .collect();
        Database {
            rules: self.rules,
            size: self.size,
            roots,
            nodes,
        }
    }
}

/// The stored cell of `p` on a board of `size`.
#[must_use]
pub fn cell_of(size: Size, p: Point) -> Cell {
    Cell::from(p.y()) * Cell::from(size.cols()) + Cell::from(p.x())
}

/// `rules size`, like `renju 15x15`, for messages.
#[must_use]
pub fn describe(rules: Rules, size: Size) -> String {
    format!("{rules} on {size}")
}

/// A position's identity in a database's maps: its canonical Zobrist key (the same for its 8
/// symmetric forms) and a second, independent hash of the canonical image, its stones and side
/// to move. Zobrist keys combine by XOR, so two positions with one key can be built on purpose
/// by solving a linear system; the second hash is not linear, so a match means the same
/// position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct PositionKey {
    zobrist: u64,
    image: u64,
}

impl PositionKey {
    /// The key of `board`'s position, and the symmetry that maps `board` onto its canonical
    /// image.
    pub(crate) fn of(board: &Board) -> (PositionKey, Symmetry) {
        use std::hash::{Hash, Hasher};
        let canonical = board.canonical();
        let size = board.size();
        let mut stones: Vec<(Cell, bool)> = board
            .stones()
            .map(|(p, c)| {
                let cell = cell_of(size, canonical.symmetry.apply(p, size));
                (cell, c == Color::Black)
            })
            .collect();
        stones.sort_unstable();
        // Kept in memory only, so it needs to agree within a process, not across versions.
        let mut hasher = std::collections::hash_map::DefaultHasher::new();
        stones.hash(&mut hasher);
        (board.to_move() == Color::Black).hash(&mut hasher);
        let key = PositionKey {
            zobrist: canonical.key,
            image: hasher.finish(),
        };
        (key, canonical.symmetry)
    }
}

/// Every explicit position of a database, found by walking the DAG from the roots: the
/// position's key to the node and the symmetry that maps the node's stored orientation onto
/// the canonical image.
#[derive(Debug, Default)]
pub struct Index {
    pub(crate) nodes: HashMap<PositionKey, (u32, Symmetry)>,
}

impl Index {
    /// Walks every root of `db` with the rules core.
    #[must_use]
    pub fn build(db: &Database) -> Index {
        let mut index = Index::default();
        for root in &db.roots {
            walk(db, root, &mut |board, node, frame| {
                let (key, symmetry) = PositionKey::of(board);
                if index.nodes.contains_key(&key) {
                    return Visit::Skip;
                }
                index.nodes.insert(key, (node, symmetry.after(frame)));
                Visit::Descend
            });
        }
        index
    }

    /// The number of distinct positions indexed.
    #[must_use]
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Whether no position is indexed.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// The node of `board`'s position, if stored, and the symmetry that maps the node's
    /// stored orientation onto `board`'s.
    #[must_use]
    pub fn get(&self, board: &Board) -> Option<(u32, Symmetry)> {
        let (key, symmetry) = PositionKey::of(board);
        let &(node, to_canonical) = self.nodes.get(&key)?;
        Some((node, symmetry.inverse().after(to_canonical)))
    }
}

/// What a [`walk`] does after visiting a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Visit {
    /// Go on into the node's children.
    Descend,
    /// Leave the node's children out.
    Skip,
    /// End the walk.
    Stop,
}

/// Walks `root`'s proof depth first with the rules core, calling `visit(board, node, frame)`
/// at every explicit position: `board` holds it (its moves since the root are
/// `board.moves()`; a certificate's pass position has the same moves, with the other side to
/// move), and `frame` maps the node's stored orientation onto the board's. A missing
/// node or a move that cannot be played (a damaged database; the checker reports those) is
/// not followed. Returns whether `visit` stopped the walk.
pub fn walk(
    db: &Database,
    root: &Root,
    visit: &mut dyn FnMut(&Board, u32, Symmetry) -> Visit,
) -> bool {
    fn go(
        db: &Database,
        node: u32,
        frame: Symmetry,
        board: &mut Board,
        visit: &mut dyn FnMut(&Board, u32, Symmetry) -> Visit,
    ) -> bool {
        let Some(made) = db.nodes.get(node as usize) else {
            return false;
        };
        match visit(board, node, frame) {
            Visit::Stop => return true,
            Visit::Skip => return false,
            Visit::Descend => {}
        }
        if let Some(pass) = made.pass() {
            let to_move = board.to_move();
            board.set_to_move(to_move.opponent());
            let stopped = go(db, pass.node, frame.after(pass.symmetry), board, visit);
            board.set_to_move(to_move);
            if stopped {
                return true;
            }
        }
        for (play, child) in made.moves() {
            let Some(p) = db.point(play).map(|p| frame.apply(p, db.size)) else {
                continue;
            };
            if !board.is_empty(p) {
                continue;
            }
            board.play_unchecked(p);
            let stopped = go(db, child.node, frame.after(child.symmetry), board, visit);
            board.undo();
            if stopped {
                return true;
            }
        }
        false
    }
    match db.root_board(root) {
        Ok(mut board) => go(db, root.node, Symmetry::Identity, &mut board, visit),
        Err(_) => false,
    }
}

/// What the database says about a position.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Answer {
    /// `win` or `loss` for the side to move, or `unknown` when not stored.
    pub result: &'static str,
    /// The side to move.
    pub to_move: Color,
    /// The winning move, in the position's own orientation (for a win that is not yet a five).
    pub best_move: Option<String>,
    /// The most attacker moves the stored proof needs to reach a five.
    pub depth: Option<u32>,
}

/// Looks `board` up: any symmetric form of a root or of a position inside a stored proof.
#[must_use]
pub fn query(db: &Database, index: &Index, depths: &[u32], board: &Board) -> Answer {
    let unknown = Answer {
        result: "unknown",
        to_move: board.to_move(),
        best_move: None,
        depth: None,
    };
    let Some((n, back)) = index.get(board) else {
        return unknown;
    };
    let Some(node) = db.nodes.get(n as usize) else {
        return unknown;
    };
    let shown = |c: Cell| db.point(c).map(|p| back.apply(p, db.size).to_string());
    let (result, best_move) = match node {
        Node::Move { play, .. } => ("win", shown(*play)),
        Node::Vcf(line) => ("win", line.first().and_then(|&c| shown(c))),
        Node::Replies { .. } => ("loss", None),
        Node::Five => {
            let winner = board.fives().first().map_or(board.to_move(), |f| f.color);
            (
                if winner == board.to_move() {
                    "win"
                } else {
                    "loss"
                },
                None,
            )
        }
    };
    Answer {
        result,
        to_move: board.to_move(),
        best_move,
        depth: depths.get(n as usize).copied(),
    }
}

/// A position's name for messages: the root's stones as a move list (Black and White
/// alternating, when the counts allow it), then the moves played since the root.
#[must_use]
pub fn position_name(black: &[Point], white: &[Point], path: &[Point]) -> String {
    let mut words: Vec<String> = Vec::new();
    if black.len() == white.len() || black.len() == white.len() + 1 {
        for (i, b) in black.iter().enumerate() {
            words.push(b.to_string());
            if let Some(w) = white.get(i) {
                words.push(w.to_string());
            }
        }
    } else {
        words.push(format!(
            "[black {}; white {}]",
            join(black.iter()),
            join(white.iter())
        ));
    }
    words.extend(path.iter().map(Point::to_string));
    words.join(" ")
}

fn join<'a>(points: impl Iterator<Item = &'a Point>) -> String {
    points.map(Point::to_string).collect::<Vec<_>>().join(" ")
}

/// The root's stones in the orientation the position was submitted in.
#[must_use]
pub fn submitted_stones(db: &Database, root: &Root) -> (Vec<Point>, Vec<Point>) {
    let back = root.symmetry.inverse();
    let map = |cells: &[Cell]| {
        let mut v: Vec<Point> = cells
            .iter()
            .filter_map(|&c| db.point(c))
            .map(|p| back.apply(p, db.size))
            .collect();
        v.sort_unstable();
        v
    };
    (map(&root.black), map(&root.white))
}
