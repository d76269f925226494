//! Opening books: a proof tree grown best-first over named root positions, with `solve` as the
//! evaluator at its frontier, and every result stored in a solution database.
//!
//! The book is a tree per root. Its leaves are positions not searched yet, or searched without
//! a result; its settled nodes are positions proved won for one side (the database holds the
//! proof) or, on a full board, drawn. Each round picks the most-proving leaves, as proof-number
//! search does at its top: from a root, the child with the smallest proof number where the
//! root's attacker is to move, the smallest disproof number where the defender is. A leaf first
//! is looked up in the database, then gets a `solve` within the per-position budget. A proof goes
//! into the database; a leaf searched without a result is expanded one ply:
//!
//! - the side to move's replies are complete where it matters: if the other side has a VCF
//!   were the side to move to pass, that VCF is the node's *certificate* and only the replies
//!   that break it become children (every other reply loses to the same line, which the
//!   checker replays); otherwise every legal move is a child;
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

pub mod openings;
pub mod unit;

use std::collections::HashSet;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use crate::db::{Builder, Combined, Database, DbError, Index};
use crate::rules::{Board, Color, Point, Rules, Size};
use crate::solve::{SolveOptions, Verdict, solve};
use crate::threat::{Limits, Outcome, VcfOptions, breaking_replies, vcf};

/// The first 8 bytes of every book journal.
pub const MAGIC: [u8; 8] = *b"RENJU-BK";
/// The journal format version this build writes and reads.
pub const VERSION: u32 = 1;
/// The parent of a root node.
const NO_PARENT: u32 = u32::MAX;
/// An infinite proof or disproof number.
const INF: u64 = u64::MAX / 4;
/// The numbers of a leaf being searched this round, so that the next pick goes elsewhere.
const BUSY: u64 = 1 << 40;
/// Node budget of the VCF that looks for a node's certificate.
const CERTIFICATE_NODES: u64 = 200_000;
/// A leaf tried again gets its budget doubled, up to this many times.
const MAX_DOUBLINGS: u32 = 12;

/// What went wrong in a book.
#[derive(Debug, thiserror::Error)]
pub enum BookError {
    /// The journal does not decode.
    #[error("the book journal is damaged: {0}")]
    Damaged(String),
    /// The journal is of another version.
    #[error("the book journal is version {0}; this build reads version {VERSION}")]
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
}

/// How one round searches its leaves.
#[derive(Clone, Debug, Default)]
pub struct RoundOptions {
    /// Time per leaf search, in seconds (doubled for each earlier attempt).
    pub position_time: Option<f64>,
    /// Node budget per leaf search (doubled likewise).
    pub position_nodes: Option<u64>,
    /// The table bound of each leaf search, in MiB.
    pub memory_mb: Option<u64>,
    /// Leaves searched at once.
    pub threads: usize,
    /// The end of the whole run: a leaf search cut short by it is not counted.
    pub deadline: Option<Instant>,
    /// Raised to stop (Ctrl-C): a leaf search cut short by it is not counted.
    pub stop: Option<Arc<AtomicBool>>,
}

/// What a round did.
#[derive(Clone, Debug, Default)]
pub struct Round {
    /// Leaves searched by `solve`.
    pub searched: usize,
    /// Leaves found in the database.
    pub looked_up: usize,
    /// Solver nodes.
    pub nodes: u64,
}

/// A leaf to search, and what came of it.
struct Job {
    node: u32,
    attempts: u32,
    board: Board,
    result: Option<crate::solve::Solution>,
    cut_short: bool,
    seconds: f64,
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

    /// The journal's bytes: [`MAGIC`], the version (u32, little-endian), a CRC-32 of the
    /// body, then the book as one bincode value (standard configuration).
    ///
    /// # Panics
    /// Never: every field serialises.
    #[must_use]
    pub fn encode(&self) -> Vec<u8> {
        let body = bincode::serde::encode_to_vec(self, bincode::config::standard())
            .expect("a book serialises");
        let mut bytes = Vec::with_capacity(body.len() + 16);
        bytes.extend_from_slice(&MAGIC);
        bytes.extend_from_slice(&VERSION.to_le_bytes());
        bytes.extend_from_slice(&crc32fast::hash(&body).to_le_bytes());
        bytes.extend_from_slice(&body);
        bytes
    }

    /// Reads a journal written by [`Book::encode`], and sets up the search numbers.
    ///
    /// # Errors
    /// [`BookError::Damaged`] or [`BookError::Version`].
    pub fn decode(bytes: &[u8]) -> Result<Book, BookError> {
        if bytes.len() < 16 || bytes[..8] != MAGIC {
            return Err(BookError::Damaged(
                "it does not start like a book journal".to_string(),
            ));
        }
        let version = u32::from_le_bytes(bytes[8..12].try_into().expect("4 bytes"));
        if version != VERSION {
            return Err(BookError::Version(version));
        }
        let crc = u32::from_le_bytes(bytes[12..16].try_into().expect("4 bytes"));
        let body = &bytes[16..];
        if crc32fast::hash(body) != crc {
            return Err(BookError::Damaged(
                "its checksum does not match (a truncated or changed file)".to_string(),
            ));
        }
        let (mut book, used): (Book, usize) =
            bincode::serde::decode_from_slice(body, bincode::config::standard())
                .map_err(|e| BookError::Damaged(e.to_string()))?;
        if used != body.len() {
            return Err(BookError::Damaged("bytes after the book".to_string()));
        }
        book.validate()?;
        book.recompute();
        Ok(book)
    }

    /// Checks the references of a decoded book, so that no later step can index out of range.
    fn validate(&self) -> Result<(), BookError> {
        let n = self.nodes.len() as u32;
        let bad = |what: String| Err(BookError::Damaged(what));
        for (i, root) in self.roots.iter().enumerate() {
            if root.node >= n || self.nodes[root.node as usize].root != i as u32 {
                return bad(format!("root {i} names no node of its own"));
            }
        }
        for (i, node) in self.nodes.iter().enumerate() {
            if node.root as usize >= self.roots.len() {
                return bad(format!("position {i} is under no root"));
            }
            if node.parent != NO_PARENT && node.parent >= i as u32 {
                return bad(format!("position {i} has a later parent"));
            }
            if node.children.iter().any(|&c| c <= i as u32 || c >= n) {
                return bad(format!("position {i} has a child out of order"));
            }
            if node.play.is_some_and(|p| !self.size.contains(p)) {
                return bad(format!("position {i} plays off the board"));
            }
        }
        Ok(())
    }

    /// Sets every node's proof and disproof numbers from its status and children (children
    /// come after their parents, so one backward pass does it).
    fn recompute(&mut self) {
        for i in (0..self.nodes.len()).rev() {
            self.numbers(i as u32);
        }
    }

    /// Sets `node`'s numbers from its status or children, from its attacker's view.
    fn numbers(&mut self, node: u32) {
        let attacker = self.attacker(node);
        let or = self.attacker_to_move(node);
        let n = &self.nodes[node as usize];
        let (pn, dn) = match n.status {
            Status::Won(w) if w == attacker => (0, INF),
            Status::Won(_) | Status::Draw => (INF, 0),
            _ if n.busy || n.status == Status::Planned => (BUSY, BUSY),
            _ if n.children.is_empty() => {
                let x = 1u64 << n.attempts.min(MAX_DOUBLINGS);
                (x, x)
            }
            _ => {
                let kids = n.children.iter().map(|&c| {
                    let c = &self.nodes[c as usize];
                    (c.pn, c.dn)
                });
                let (mut pn, mut dn) = if or { (INF, 0) } else { (0, INF) };
                for (cp, cd) in kids {
                    if or {
                        pn = pn.min(cp);
                        dn = dn.saturating_add(cd).min(INF);
                    } else {
                        pn = pn.saturating_add(cp).min(INF);
                        dn = dn.min(cd);
                    }
                }
                // Each move not opened yet counts as one more to disprove.
                if or {
                    dn = dn.saturating_add(u64::from(n.unopened)).min(INF);
                }
                (pn, dn)
            }
        };
        // A disproved position (the attacker's win is ruled out by settled positions below
        // it) has nothing left to search for the proof.
        let free = match n.status {
            Status::Won(_) | Status::Draw | Status::Planned => false,
            _ if pn >= INF => false,
            _ if n.children.is_empty() => !n.busy,
            _ => n.children.iter().any(|&c| self.nodes[c as usize].free),
        };
        let n = &mut self.nodes[node as usize];
        n.pn = pn;
        n.dn = dn;
        n.free = free;
    }

    /// Whether the attacker's win at `node` is ruled out by the settled positions below it
    /// (its proof number is infinite), whether or not its exact value is known.
    fn disproved(&self, node: u32) -> bool {
        self.nodes[node as usize].pn >= INF
    }

    /// Roots neither settled nor disproved.
    fn open_roots(&self) -> Vec<u32> {
        self.roots
            .iter()
            .map(|r| r.node)
            .filter(|&n| !self.nodes[n as usize].status.settled() && !self.disproved(n))
            .collect()
    }

    /// Whether every root is settled.
    #[must_use]
    pub fn finished(&self) -> bool {
        self.open_roots().is_empty()
    }

    /// The most-proving leaf under `node` not being searched, if the descent finds one.
    fn most_proving(&self, mut node: u32) -> Option<u32> {
        loop {
            let n = &self.nodes[node as usize];
            if !n.free {
                return None;
            }
            if n.children.is_empty() {
                return Some(node);
            }
            let or = self.attacker_to_move(node);
            node = n
                .children
                .iter()
                .copied()
                .filter(|&c| self.nodes[c as usize].free)
                .min_by_key(|&c| {
                    let c = &self.nodes[c as usize];
                    if or { (c.pn, c.dn) } else { (c.dn, c.pn) }
                })?;
        }
    }

    /// Marks a leaf as being searched, and updates the numbers above it.
    fn set_busy(&mut self, node: u32, busy: bool) {
        self.nodes[node as usize].busy = busy;
        self.refresh_path(node);
    }

    fn refresh_path(&mut self, mut node: u32) {
        loop {
            self.numbers(node);
            let parent = self.nodes[node as usize].parent;
            if parent == NO_PARENT {
                break;
            }
            node = parent;
        }
    }

    /// Picks up to `count` most-proving leaves, taking the unsettled roots in turn, and
    /// marks them busy.
    fn pick(&mut self, count: usize) -> Vec<u32> {
        let roots = self.open_roots();
        let mut picked = Vec::new();
        let mut dry = 0;
        let mut turn = 0;
        while picked.len() < count && !roots.is_empty() && dry < roots.len() {
            let root = roots[turn % roots.len()];
            turn += 1;
            match self.most_proving(root) {
                Some(leaf) => {
                    self.set_busy(leaf, true);
                    picked.push(leaf);
                    dry = 0;
                }
                None => dry += 1,
            }
        }
        picked
    }

    /// One round: picks up to `options.threads` leaves, searches them at once on `pool`,
    /// and folds the results into the book and the database.
    ///
    /// # Errors
    /// A proof the database refuses (a contradiction is a bug somewhere), or a damaged
    /// journal.
    pub fn round(
        &mut self,
        db: &mut Builder,
        options: &RoundOptions,
        pool: &rayon::ThreadPool,
    ) -> Result<Round, BookError> {
        let leaves = self.pick(options.threads.max(1));
        let mut round = Round::default();
        let mut jobs = Vec::new();
        for &leaf in &leaves {
            let board = self.board(leaf)?;
            if let Some(w) = db.stored_winner(&board) {
                round.looked_up += 1;
                self.nodes[leaf as usize].status = Status::Won(w);
            } else {
                jobs.push(Job {
                    node: leaf,
                    attempts: self.nodes[leaf as usize].attempts,
                    board,
                    result: None,
                    cut_short: false,
                    seconds: 0.0,
                });
            }
        }
        pool.install(|| {
            jobs.par_iter_mut().for_each(|job| {
                let started = Instant::now();
                let (solution, cut_short) = search(&job.board, job.attempts, options);
                job.seconds = started.elapsed().as_secs_f64();
                job.result = Some(solution);
                job.cut_short = cut_short;
            });
        });
        for job in jobs {
            let solution = job.result.expect("every job ran");
            round.searched += 1;
            round.nodes += solution.nodes;
            self.totals.searches += 1;
            self.totals.nodes += solution.nodes;
            let leaf = job.node;
            let root = self.nodes[leaf as usize].root as usize;
            self.roots[root].seconds += job.seconds;
            let to_move = job.board.to_move();
            match (solution.verdict, &solution.proof) {
                (Verdict::Win | Verdict::Loss, Some(proof)) => {
                    db.add_proof(proof)?;
                    let winner = if solution.verdict == Verdict::Win {
                        to_move
                    } else {
                        to_move.opponent()
                    };
                    self.nodes[leaf as usize].status = Status::Won(winner);
                }
                _ if job.cut_short => {}
                _ => self.tried(leaf, &job.board, db)?,
            }
        }
        for &leaf in &leaves {
            self.nodes[leaf as usize].busy = false;
            self.settle_upwards(leaf, db)?;
        }
        Ok(round)
    }

    /// A leaf searched without a result: counted, and expanded below the ply limit.
    fn tried(&mut self, leaf: u32, board: &Board, db: &mut Builder) -> Result<(), BookError> {
        let max_ply = self.settings.max_ply;
        let n = &mut self.nodes[leaf as usize];
        n.status = Status::Tried;
        n.attempts += 1;
        if max_ply.is_none_or(|m| n.ply < m) && !n.expanded {
            self.expand(leaf, board, db)?;
        }
        Ok(())
    }

    /// Opens `leaf`'s children: the replies that break the other side's certificate, or
    /// every legal move (the attacker's a batch at a time).
    fn expand(&mut self, leaf: u32, board: &Board, db: &mut Builder) -> Result<(), BookError> {
        let side = board.to_move();
        let other = side.opponent();
        let certificate = certificate(board, other);
        let mut moves = ordered_moves(board, side);
        if let Some(line) = &certificate {
            let mut scratch = board.clone();
            let breaking: HashSet<Point> = breaking_replies(&mut scratch, other, line)
                .into_iter()
                .map(|(p, _)| p)
                .collect();
            moves.retain(|p| breaking.contains(p));
        }
        let opened = if certificate.is_none() && side == self.attacker(leaf) {
            moves.len().min(self.settings.width.max(1) as usize)
        } else {
            moves.len()
        };
        let n = &mut self.nodes[leaf as usize];
        n.expanded = true;
        n.unopened = (moves.len() - opened) as u32;
        n.certificate = certificate.map(|line| Certificate {
            winner: other,
            line: line.moves,
        });
        self.open(leaf, &moves[..opened]);
        if moves.is_empty() {
            // Nothing to reply: the certificate wins against everything, or there is no legal
            // move (a full board is a draw; Black with only forbidden points loses).
            self.settle_node(leaf, board, db)?;
        }
        Ok(())
    }

    fn open(&mut self, parent: u32, moves: &[Point]) {
        let (root, ply) = {
            let p = &self.nodes[parent as usize];
            (p.root, p.ply + 1)
        };
        for &m in moves {
            let id = self.nodes.len() as u32;
            self.nodes.push(BookNode::new(parent, root, ply, Some(m)));
            self.nodes[parent as usize].children.push(id);
        }
    }

    /// Settles `node` from its children if they decide it (adding it to the database), or
    /// opens the attacker's next batch when every opened move failed; then its numbers, and
    /// the same for every node above it.
    fn settle_upwards(&mut self, mut node: u32, db: &mut Builder) -> Result<(), BookError> {
        loop {
            if self.decidable(node) {
                let board = self.board(node)?;
                self.settle_node(node, &board, db)?;
            }
            self.numbers(node);
            let parent = self.nodes[node as usize].parent;
            if parent == NO_PARENT {
                return Ok(());
            }
            node = parent;
        }
    }

    /// Whether an expanded, unsettled node's children may decide it: one is won for the side
    /// to move, or all are settled (then it is settled, or its next batch opens), or, where
    /// the attacker is to move with moves not opened yet, all are settled or disproved (then
    /// the next batch opens). Only then is its position played out.
    fn decidable(&self, node: u32) -> bool {
        let n = &self.nodes[node as usize];
        if n.status.settled() || !n.expanded {
            return false;
        }
        let side = self.to_move(node);
        n.children
            .iter()
            .all(|&c| self.nodes[c as usize].status.settled())
            || n.children
                .iter()
                .any(|&c| self.nodes[c as usize].status == Status::Won(side))
            || self.next_batch_due(node)
    }

    /// Whether the attacker, to move at `node`, has moves not opened yet and every opened one
    /// is settled or disproved: then the next batch is to be opened.
    fn next_batch_due(&self, node: u32) -> bool {
        let n = &self.nodes[node as usize];
        self.attacker_to_move(node)
            && n.unopened > 0
            && n.children
                .iter()
                .all(|&c| self.nodes[c as usize].status.settled() || self.disproved(c))
    }

    /// Settles an expanded node whose children decide it.
    fn settle_node(&mut self, node: u32, board: &Board, db: &mut Builder) -> Result<(), BookError> {
        let side = board.to_move();
        let other = side.opponent();
        let children: Vec<(Point, Status)> = self.nodes[node as usize]
            .children
            .iter()
            .map(|&c| {
                let c = &self.nodes[c as usize];
                (c.play.expect("a child has a move"), c.status)
            })
            .collect();
        if let Some(&(play, _)) = children.iter().find(|(_, s)| *s == Status::Won(side)) {
            db.add_combined(board, side, Combined::Move(play))?;
            self.nodes[node as usize].status = Status::Won(side);
            return Ok(());
        }
        let all_settled = children.iter().all(|(_, s)| s.settled());
        if !all_settled && !self.next_batch_due(node) {
            return Ok(());
        }
        if self.nodes[node as usize].unopened > 0 {
            // Every opened move failed: open the next batch.
            let opened: HashSet<Point> = children.iter().map(|&(p, _)| p).collect();
            let width = self.settings.width.max(1) as usize;
            let next: Vec<Point> = ordered_moves(board, side)
                .into_iter()
                .filter(|p| !opened.contains(p))
                .take(width)
                .collect();
            let n = &mut self.nodes[node as usize];
            if !next.is_empty() {
                n.unopened = n.unopened.saturating_sub(next.len() as u32);
                let first = self.nodes.len() as u32;
                self.open(node, &next);
                for c in first..self.nodes.len() as u32 {
                    self.numbers(c);
                }
                return Ok(());
            }
            n.unopened = 0;
        }
        if !all_settled {
            // Disproved children whose values are not known: so is this node's.
            return Ok(());
        }
        let all_lost = children.iter().all(|(_, s)| *s == Status::Won(other));
        let full = children.is_empty() && board.is_full();
        if all_lost && !full {
            let certificate = self.nodes[node as usize]
                .certificate
                .as_ref()
                .filter(|c| c.winner == other)
                .map(|c| c.line.clone());
            let replies = children.iter().map(|&(p, _)| p).collect();
            db.add_combined(
                board,
                other,
                Combined::Replies {
                    certificate,
                    replies,
                },
            )?;
            self.nodes[node as usize].status = Status::Won(other);
        } else {
            self.nodes[node as usize].status = Status::Draw;
        }
        Ok(())
    }

    /// Every unsettled leaf that has been handed to a work unit is settled from the database
    /// (after the parts were merged into it), or else counted as tried.
    ///
    /// # Errors
    /// As [`Book::round`].
    pub fn reconcile(&mut self, db: &mut Builder) -> Result<usize, BookError> {
        let planned: Vec<u32> = (0..self.nodes.len() as u32)
            .filter(|&n| self.nodes[n as usize].status == Status::Planned)
            .collect();
        for &leaf in &planned {
            let board = self.board(leaf)?;
            match db.stored_winner(&board) {
                Some(w) => self.nodes[leaf as usize].status = Status::Won(w),
                None => self.tried(leaf, &board, db)?,
            }
        }
        for &leaf in &planned {
            self.settle_upwards(leaf, db)?;
        }
        Ok(planned.len())
    }

    /// Picks up to `count` most-proving leaves for work units and marks them planned; the
    /// next [`Book::reconcile`] settles them from the database.
    ///
    /// # Errors
    /// [`BookError::Position`] for a damaged journal.
    pub fn plan(&mut self, count: usize) -> Result<Vec<(u32, Board)>, BookError> {
        let leaves = self.pick(count);
        let mut planned = Vec::with_capacity(leaves.len());
        for leaf in leaves {
            let n = &mut self.nodes[leaf as usize];
            n.busy = false;
            n.status = Status::Planned;
            self.refresh_path(leaf);
            planned.push((leaf, self.board(leaf)?));
        }
        Ok(planned)
    }

    /// Unsettled leaves under `node`, not counting those under settled positions.
    #[must_use]
    pub fn frontier(&self, node: u32) -> usize {
        let mut count = 0;
        let mut stack = vec![node];
        while let Some(n) = stack.pop() {
            let x = &self.nodes[n as usize];
            if x.status.settled() {
                continue;
            }
            if x.children.is_empty() {
                count += 1;
            }
            stack.extend(&x.children);
        }
        count
    }

    /// The longest line of unsettled positions from `node`.
    #[must_use]
    pub fn deepest_unsettled(&self, node: u32) -> Vec<Point> {
        // Children come after their parents: one backward pass finds each node's depth.
        let mut best: Vec<(u32, u32)> = vec![(0, NO_PARENT); self.nodes.len()];
        for i in (node as usize..self.nodes.len()).rev() {
            let x = &self.nodes[i];
            if x.status.settled() {
                continue;
            }
            let deepest = x
                .children
                .iter()
                .filter(|&&c| !self.nodes[c as usize].status.settled())
                .map(|&c| (best[c as usize].0 + 1, c))
                .max_by_key(|&(d, c)| (d, std::cmp::Reverse(c)));
            best[i] = deepest.unwrap_or((0, NO_PARENT));
        }
        let mut line = Vec::new();
        let mut at = node;
        if self.nodes[at as usize].status.settled() {
            return line;
        }
        while best[at as usize].1 != NO_PARENT {
            at = best[at as usize].1;
            line.extend(self.nodes[at as usize].play);
        }
        line
    }

    /// The book's figures now, as a history sample.
    #[must_use]
    pub fn sample(&self) -> Sample {
        let mut proved = 0;
        let mut disproved = 0;
        for r in &self.roots {
            match self.nodes[r.node as usize].status {
                Status::Won(w) if w == r.attacker => proved += 1,
                Status::Won(_) | Status::Draw => disproved += 1,
                _ => {}
            }
        }
        Sample {
            unix_time: std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_secs()),
            seconds: self.totals.seconds,
            roots: self.roots.len(),
            proved,
            disproved,
            frontier: self.roots.iter().map(|r| self.frontier(r.node)).sum(),
            positions: self.nodes.len(),
            searches: self.totals.searches,
            nodes: self.totals.nodes,
        }
    }

    /// The unsettled roots' proof numbers added up: at the least, how many more leaves must
    /// be proved, were every search to succeed.
    #[must_use]
    pub fn work_left(&self) -> u64 {
        self.open_roots()
            .iter()
            .map(|&r| self.nodes[r as usize].pn.min(BUSY))
            .sum()
    }

    /// The roots this book holds as won whose proof `db` lacks (all of them when there is
    /// no database): the journal does not belong with the database, as when one of the two
    /// was deleted or restored from elsewhere.
    #[must_use]
    pub fn unbacked_roots(&self, db: Option<&Database>) -> Vec<&str> {
        let index = db.map(Index::build);
        self.roots
            .iter()
            .filter(|r| matches!(self.nodes[r.node as usize].status, Status::Won(_)))
            .filter(|r| {
                let stored = index.as_ref().and_then(|index| {
                    self.root_board(r)
                        .ok()
                        .and_then(|b| index.get(&b).map(|_| ()))
                });
                stored.is_none()
            })
            .map(|r| r.name.as_str())
            .collect()
    }

    /// Where each root stands, with the database's proof figures.
    #[must_use]
    pub fn report(&self, db: &Database) -> Vec<RootReport> {
        let index = Index::build(db);
        let depths = db.depths();
        self.roots
            .iter()
            .map(|r| {
                let n = &self.nodes[r.node as usize];
                let stored = self
                    .root_board(r)
                    .ok()
                    .and_then(|b| index.get(&b))
                    .map(|(node, _)| node);
                let result = match n.status {
                    Status::Won(w) if w == r.attacker => "proved",
                    Status::Won(_) => "disproved",
                    Status::Draw => "draw",
                    _ if n.pn >= INF => "disproved",
                    _ => "unknown",
                };
                let names = |ps: &[Point]| ps.iter().map(ToString::to_string).collect();
                let positions = {
                    let mut count = 0;
                    let mut stack = vec![r.node];
                    while let Some(x) = stack.pop() {
                        count += 1;
                        stack.extend(&self.nodes[x as usize].children);
                    }
                    count
                };
                RootReport {
                    name: r.name.clone(),
                    moves: names(&r.moves),
                    attacker: r.attacker,
                    to_move: r.to_move,
                    result,
                    winner: match n.status {
                        Status::Won(w) => Some(w),
                        _ => None,
                    },
                    proof_nodes: stored.map(|s| db.reachable(s)),
                    proof_depth: stored.and_then(|s| depths.get(s as usize).copied()),
                    seconds: r.seconds,
                    positions,
                    frontier: self.frontier(r.node),
                    children: n.children.len(),
                    children_settled: n
                        .children
                        .iter()
                        .filter(|&&c| self.nodes[c as usize].status.settled())
                        .count(),
                    proof_number: (n.pn < BUSY).then_some(n.pn),
                    disproof_number: (n.dn < BUSY).then_some(n.dn),
                    deepest_unproved: names(&self.deepest_unsettled(r.node)),
                }
            })
            .collect()
    }
}

/// One root's standing, for `book status` and `book build`.
#[derive(Clone, Debug, Serialize)]
pub struct RootReport {
    /// The root's name.
    pub name: String,
    /// The moves that reach it, when known.
    pub moves: Vec<String>,
    /// The side the book tries to prove a win for.
    pub attacker: Color,
    /// The side to move at the root.
    pub to_move: Color,
    /// `proved` (won for the attacker), `disproved` (won for the other side), `draw`, or
    /// `unknown`.
    pub result: &'static str,
    /// The side proved to win, if any.
    pub winner: Option<Color>,
    /// Nodes of the root's proof in the database.
    pub proof_nodes: Option<usize>,
    /// The most attacker moves the stored proof needs to reach a five.
    pub proof_depth: Option<u32>,
    /// Seconds of leaf searches under it (see [`BookRoot::seconds`]).
    pub seconds: f64,
    /// Book positions under the root, itself included.
    pub positions: usize,
    /// Unsettled leaves under it.
    pub frontier: usize,
    /// Its children in the book (the moves opened at the root).
    pub children: usize,
    /// Of those, the ones settled (won for either side, or drawn).
    pub children_settled: usize,
    /// Its proof number (unsettled leaves that must at least be proved).
    pub proof_number: Option<u64>,
    /// Its disproof number.
    pub disproof_number: Option<u64>,
    /// The longest line of unsettled positions from it.
    pub deepest_unproved: Vec<String>,
}

/// Searches a leaf within its budget (doubled for each earlier attempt); also says whether a
/// result-less search was cut short by the run's end or a stop, rather than by its budget.
pub(crate) fn search(
    board: &Board,
    attempts: u32,
    options: &RoundOptions,
) -> (crate::solve::Solution, bool) {
    let factor = 1u64 << attempts.min(MAX_DOUBLINGS);
    let started = Instant::now();
    let own = options
        .position_time
        .and_then(|t| std::time::Duration::try_from_secs_f64(t * factor as f64).ok())
        .and_then(|d| started.checked_add(d));
    let deadline = match (own, options.deadline) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    };
    let limits = Limits {
        deadline,
        nodes: options.position_nodes.map(|n| n.saturating_mul(factor)),
        stop: options.stop.clone(),
        called_off: None,
    };
    let solve_options = SolveOptions {
        limits,
        memory_mb: options.memory_mb,
        full_width: false,
        vct_nodes: None,
        threads: Some(1),
    };
    let solution = solve(board, &solve_options, &mut |_| {});
    let stopped = options
        .stop
        .as_ref()
        .is_some_and(|s| s.load(Ordering::Relaxed));
    // Cut short by the run's end: the run's deadline came before the search's own, and passed.
    let run_over = options
        .deadline
        .is_some_and(|d| own.is_none_or(|o| d < o) && Instant::now() >= d);
    (solution, stopped || run_over)
}

/// `color`'s VCF were the side to move to pass, within a fixed node budget: its moves and
/// the forced replies, ending in the five.
fn certificate(board: &Board, color: Color) -> Option<crate::threat::Line> {
    let options = VcfOptions {
        limits: Limits {
            nodes: Some(CERTIFICATE_NODES),
            ..Limits::default()
        },
        ..VcfOptions::default()
    };
    let mut passed = board.clone();
    passed.set_to_move(color);
    match vcf(&passed, color, &options).outcome {
        Outcome::Win(line) => Some(line),
        _ => None,
    }
}

/// The legal moves of `side`, the most forcing first: fours, threes, blocks of the other
/// side's threes, moves near the stones (by how many lines they build, for either side),
/// then the rest.
#[must_use]
pub fn ordered_moves(board: &Board, side: Color) -> Vec<Point> {
    let other = side.opponent();
    let mut scored: Vec<(u32, u32, Point)> = board
        .points()
        .filter(|&p| board.is_legal_for(p, side))
        .map(|p| {
            let class = if board.four_at(p, side).count > 0 {
                0
            } else if board.threes_at(p, side) > 0 {
                1
            } else if board.threes_at(p, other) > 0 {
                2
            } else if board.has_stone_near(p, 2) {
                3
            } else {
                4
            };
            let lines: u32 = board.potentials(p, side).iter().sum::<u32>()
                + board.potentials(p, other).iter().sum::<u32>();
            (class, u32::MAX - lines, p)
        })
        .collect();
    scored.sort_unstable();
    scored.into_iter().map(|(_, _, p)| p).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::{PositionOptions, parse_position};

    const VCT_BLACK: &str = include_str!("../../data/examples/vct.txt");

    fn board(text: &str) -> Board {
        parse_position(text, &PositionOptions::default()).unwrap()
    }

    /// Grows `book` on one thread with `nodes` per search until it is finished.
    fn grow(book: &mut Book, db: &mut Builder, nodes: u64) -> usize {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .unwrap();
        let options = RoundOptions {
            position_nodes: Some(nodes),
            threads: 1,
            ..RoundOptions::default()
        };
        let mut rounds = 0;
        while !book.finished() {
            let round = book.round(db, &options, &pool).unwrap();
            assert!(round.searched + round.looked_up > 0, "a round did nothing");
            rounds += 1;
        }
        rounds
    }

    /// A position whose attacker's win is ruled out by a settled child (a draw under a
    /// defender node) is disproved at once: nothing under it is searched again, a root so
    /// disproved is done, and an attacker node whose opened moves are all disproved opens its
    /// next batch.
    #[test]
    fn a_disproved_position_is_not_searched_further() {
        let p = |s: &str| s.parse::<Point>().unwrap();
        let rules = Rules::new(crate::rules::Rule::Freestyle, Some(4)).unwrap();
        let size = Size::square(4).unwrap();
        let options = PositionOptions {
            size,
            rules,
            to_move: None,
        };
        // Black (the attacker) has moved: White, the defender, is to move at the root.
        let root_board = parse_position("a1", &options).unwrap();
        let mut book = Book::new(rules, size);
        assert!(book.add_root("r", &root_board, Color::Black).unwrap());
        let root = book.roots[0].node;
        book.nodes[root as usize].expanded = true;
        book.open(root, &[p("b2"), p("c3")]);
        book.recompute();
        assert!(!book.finished());
        let mut db = Builder::new(rules, size);
        let (b2, c3) = (
            book.nodes[root as usize].children[0],
            book.nodes[root as usize].children[1],
        );
        book.nodes[b2 as usize].status = Status::Draw;
        book.numbers(b2);
        book.settle_upwards(b2, &mut db).unwrap();
        assert!(book.disproved(root));
        assert_eq!(
            book.nodes[root as usize].status,
            Status::Open,
            "its value is not known"
        );
        assert!(book.finished());
        assert_eq!(book.most_proving(root), None);
        assert!(book.pick(1).is_empty());
        let report = book.report(&db.finish());
        assert_eq!(report[0].result, "disproved");
        assert_eq!(report[0].winner, None);

        // Below c3 Black is to move, with one move opened and more to come: when that move is
        // disproved, the next batch opens.
        book.nodes[c3 as usize].expanded = true;
        book.nodes[c3 as usize].unopened = 5;
        book.open(c3, &[p("d4")]);
        let d4 = book.nodes[c3 as usize].children[0];
        book.nodes[d4 as usize].expanded = true;
        book.open(d4, &[p("a2")]);
        let a2 = book.nodes[d4 as usize].children[0];
        book.nodes[a2 as usize].status = Status::Draw;
        book.recompute();
        assert!(book.disproved(d4) && book.disproved(c3));
        let mut db = Builder::new(rules, size);
        book.settle_upwards(a2, &mut db).unwrap();
        let c3_node = &book.nodes[c3 as usize];
        assert!(c3_node.children.len() > 1, "the next batch is open");
        assert!(!book.disproved(c3));
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

    #[test]
    fn a_book_proves_a_vct_position_from_the_top_and_the_database_checks() {
        let mut book = Book::new(Rules::renju(), Size::STANDARD);
        book.add_root("vct", &board(VCT_BLACK), Color::Black)
            .unwrap();
        let mut db = Builder::new(Rules::renju(), Size::STANDARD);
        // 2000 nodes do not prove the root at once: the book must expand it.
        let rounds = grow(&mut book, &mut db, 2000);
        assert!(rounds > 10, "{rounds} rounds");
        assert_eq!(book.nodes[0].status, Status::Won(Color::Black));
        assert!(book.nodes[0].expanded);
        let db = db.finish();
        let report = crate::check::verify::check(&db, &|_| {});
        assert!(report.ok, "{:?}", report.errors);
        // The root itself is stored, as a combined node over its children.
        let index = Index::build(&db);
        assert!(index.get(&board(VCT_BLACK)).is_some());
        let standing = book.report(&db);
        assert_eq!(standing[0].result, "proved");
        assert_eq!(standing[0].frontier, 0);
        assert!(standing[0].proof_nodes.is_some_and(|n| n > 1));
    }

    #[test]
    fn at_the_ply_limit_a_leaf_is_searched_again_with_a_doubled_budget() {
        let mut book = Book::new(Rules::renju(), Size::STANDARD);
        book.add_root("vct", &board(VCT_BLACK), Color::Black)
            .unwrap();
        book.settings.max_ply = Some(0);
        let mut db = Builder::new(Rules::renju(), Size::STANDARD);
        let rounds = grow(&mut book, &mut db, 500);
        let root = &book.nodes[0];
        assert_eq!(root.status, Status::Won(Color::Black));
        assert!(!root.expanded && root.children.is_empty());
        assert_eq!(root.attempts as usize, rounds - 1);
        assert!(rounds > 1, "500 nodes proved it at once");
        assert_eq!(book.nodes.len(), 1);
    }

    #[test]
    fn growth_is_deterministic_on_one_thread_with_node_budgets() {
        let run = || {
            let mut book = Book::new(Rules::renju(), Size::STANDARD);
            book.add_root("vct", &board(VCT_BLACK), Color::Black)
                .unwrap();
            let mut db = Builder::new(Rules::renju(), Size::STANDARD);
            grow(&mut book, &mut db, 2000);
            (book.totals.searches, book.totals.nodes, book.nodes.len())
        };
        assert_eq!(run(), run());
    }

    #[test]
    fn the_journal_round_trips_and_damage_is_an_error() {
        let mut book = Book::new(Rules::renju(), Size::STANDARD);
        book.add_root("vct", &board(VCT_BLACK), Color::Black)
            .unwrap();
        let mut db = Builder::new(Rules::renju(), Size::STANDARD);
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .unwrap();
        let options = RoundOptions {
            position_nodes: Some(500),
            threads: 1,
            ..RoundOptions::default()
        };
        for _ in 0..5 {
            book.round(&mut db, &options, &pool).unwrap();
        }
        let bytes = book.encode();
        let back = Book::decode(&bytes).unwrap();
        assert_eq!(back.encode(), bytes);
        assert_eq!(back.nodes.len(), book.nodes.len());
        // The numbers are rebuilt on reading.
        assert_eq!(
            (back.nodes[0].pn, back.nodes[0].dn),
            (book.nodes[0].pn, book.nodes[0].dn)
        );

        let mut flipped = bytes.clone();
        let last = flipped.len() - 1;
        flipped[last] ^= 1;
        assert!(matches!(Book::decode(&flipped), Err(BookError::Damaged(_))));
        assert!(matches!(
            Book::decode(&bytes[..bytes.len() / 2]),
            Err(BookError::Damaged(_))
        ));
        let mut newer = bytes.clone();
        newer[8] = 9;
        assert!(matches!(Book::decode(&newer), Err(BookError::Version(9))));
        assert!(Book::decode(b"RENJU-DB and more bytes").is_err());
        for cut in 0..bytes.len().min(64) {
            assert!(Book::decode(&bytes[..cut]).is_err());
        }
    }

    #[test]
    fn planned_leaves_are_settled_from_the_database_or_counted_as_tried() {
        let mut book = Book::new(Rules::renju(), Size::STANDARD);
        book.add_root("vct", &board(VCT_BLACK), Color::Black)
            .unwrap();
        let mut db = Builder::new(Rules::renju(), Size::STANDARD);
        let planned = book.plan(4).unwrap();
        assert_eq!(planned.len(), 1, "only the root is a leaf");
        assert_eq!(book.nodes[0].status, Status::Planned);
        assert!(
            book.plan(4).unwrap().is_empty(),
            "a planned leaf is not planned twice"
        );
        // Nothing merged: the root counts as tried and is expanded.
        assert_eq!(book.reconcile(&mut db).unwrap(), 1);
        assert_eq!(book.nodes[0].status, Status::Tried);
        assert!(book.nodes[0].expanded && !book.nodes[0].children.is_empty());
        // Plan the children, prove them in a unit of their own, merge, reconcile.
        let planned = book.plan(1000).unwrap();
        assert_eq!(planned.len(), book.nodes[0].children.len());
        let mut unit = unit::Unit::new(
            book.rules,
            book.size,
            &RoundOptions {
                position_time: Some(2.0),
                ..RoundOptions::default()
            },
        );
        for (node, b) in &planned {
            unit.push(*node, b, &book.path(*node), 0);
        }
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .unwrap();
        let mut part = Builder::new(Rules::renju(), Size::STANDARD);
        let results = unit
            .work(&mut part, &RoundOptions::default(), &pool)
            .unwrap();
        // White is to move in each: a proof is a loss for it.
        assert!(results.iter().any(|r| r.result == "loss"), "{results:?}");
        db.add_database(&part.finish()).unwrap();
        book.reconcile(&mut db).unwrap();
        assert_eq!(book.nodes[0].status, Status::Won(Color::Black));
        let report = crate::check::verify::check(&db.finish(), &|_| {});
        assert!(report.ok, "{:?}", report.errors);
    }

    #[test]
    fn attacker_moves_are_ordered_fours_first() {
        let b = board(VCT_BLACK);
        let moves = ordered_moves(&b, Color::Black);
        let legal = b
            .points()
            .filter(|&p| b.is_legal_for(p, Color::Black))
            .count();
        assert_eq!(moves.len(), legal);
        let first = moves[0];
        let fours = b.four_at(first, Color::Black).count;
        let threes = b.threes_at(first, Color::Black);
        assert!(fours > 0 || threes > 0, "{first} makes no threat");
    }
}
