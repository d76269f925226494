//! `solve`: depth-first proof-number search (df-pn) over the whole game, with proofs that carry
//! their own evidence.
//!
//! The *attacker* is the side trying to win; the search proves or disproves that it wins. At an
//! OR node (attacker to move) one winning move suffices; at an AND node (defender to move) every
//! legal reply must lose. What the search may skip, and why:
//!
//! - an OR node where the attacker has a five to play, or a VCF, is proved at once (a leaf);
//! - a defender's four must be answered on its five point, and two of them cannot be;
//! - at an AND node, if the attacker would have a VCF were the defender to pass, that VCF is the
//!   node's *certificate*: the replies searched are only those after which a replay of it fails
//!   (see [`crate::threat`]); every other reply provably loses to the same line;
//! - a node where the side not proving has a VCF of its own is lost for the attacker (an AND node
//!   with no certificate, or an attacker move that leaves the defender's VCF standing).
//! - at an AND node without a certificate, after an attacker move that builds on its lines, the
//!   attacker's VCT were the defender to pass (within the leaf budget) is replayed on every
//!   reply, and proves each reply where it holds (null-move simulation); the proof written out
//!   for such a reply is that VCT as played there, which the checker replays like any other.
//!
//! Outside `full_width` mode the attacker's moves are narrowed to points within two steps of a
//! stone. Narrowing makes a proof harder, never wrong, but then a failed search proves nothing:
//! only `win` and `loss` are reported. With `full_width` both sides consider every legal move,
//! so a disproof is exact, and a draw is shown by disproving a win for each side in turn.
//!
//! The transposition table is keyed by canonical (symmetry-reduced) Zobrist keys, and stores the
//! moves of expanded nodes in the canonical frame. Its estimated size is bounded by `memory`:
//! when it is full, unresolved entries are dropped first; proved and disproved ones are kept.
//!
//! Two searches answer the question: a win for the side to move, and a win for the other
//! side. On one thread they take turns, in rounds that double in length, and the node counts
//! are deterministic. With more threads ([`SolveOptions::threads`]) they run at once, each on
//! half of the threads (when one is disproved first, its threads join the other; when one is
//! proved, the other is called off); the threads of one search share its table ([`table`]) and all search
//! from the root, spread over different subtrees by virtual proof and disproof numbers (a child
//! another thread is inside looks worse, as in Kaneko's parallel df-pn). A settled entry is
//! never replaced by an estimate, and a VCT that proved a node on one thread is kept where the
//! others can borrow it, so whichever thread settles a node, the proof can be read out. The
//! verdict does not depend on the thread count; the proof may.
//!
//! A proved root's proof is read out of the table in the [`crate::proof`] format.

mod extract;
mod table;

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::mpsc::RecvTimeoutError;
use std::time::{Duration, Instant};

use serde::Serialize;

use crate::dfpn::{BIG, INF, Sum, child_thresholds, combine};
use crate::rules::{Board, Color, Point, Symmetry};
use crate::threat::{
    Limits, Line, Stopped, UNLIMITED, VcfSearch, VcfTable, VctOptions, VctTable, VctTree, prove_vct,
};
use table::{Stored, Table};

pub use crate::proof::{Proof, ProofNode};

/// Options of a proof search.
#[derive(Clone, Debug, Default)]
pub struct SolveOptions {
    /// When to stop.
    pub limits: Limits,
    /// Bound on the tables, in MiB (default [`DEFAULT_MEMORY_MB`]).
    pub memory_mb: Option<u64>,
    /// Both sides consider every legal move: exact values, draws included.
    pub full_width: bool,
    /// Node budget of the VCT search tried at each new attacker node below the root (default
    /// [`DEFAULT_VCT_NODES`]; 0 turns the VCT leaf evaluator off). At the root, one VCT search
    /// runs alongside the proof search, each round going on from the last with a budget that
    /// doubles.
    pub vct_nodes: Option<u64>,
    /// Threads searching this one proof, sharing the transposition table (default 1: the
    /// search and its node counts are then deterministic). The verdict never depends on it.
    pub threads: Option<usize>,
}

/// The VCT budget per attacker node when none is given.
pub const DEFAULT_VCT_NODES: u64 = 1000;
/// Each round, the root's VCT gets this many times the proof search's slice of nodes: on a
/// position won by threats alone most of the work is then the VCT itself.
const ROOT_VCT_SHARE: u64 = 4;
/// A VCT leaf counts a move as a threat only if its certificate has at most this many fours.
const VCT_THREAT_FOURS: u32 = 3;

/// A proof or disproof number at or above this is infinite: the node is settled.
pub const INFINITE: u32 = INF;

/// The longest round, in nodes of the main thread.
const MAX_SLICE: u64 = 1 << 22;
/// How often the two searches running side by side report progress.
const PROGRESS_EVERY: Duration = Duration::from_millis(100);

/// The table bound when none is given, in MiB.
pub const DEFAULT_MEMORY_MB: u64 = 1024;

/// The answer, from the side to move's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Verdict {
    /// The side to move wins (proved).
    Win,
    /// The side to move loses (proved).
    Loss,
    /// Neither side can force a win (proved; full-width mode only).
    Draw,
    /// Not proved either way: a limit was reached, or a narrowed search failed.
    Unknown,
}

impl Verdict {
    /// `win`, `loss`, `draw` or `unknown`.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Verdict::Win => "win",
            Verdict::Loss => "loss",
            Verdict::Draw => "draw",
            Verdict::Unknown => "unknown",
        }
    }
}

/// How a search is going, for a progress display.
#[derive(Clone, Debug)]
pub struct Progress {
    /// Nodes searched so far.
    pub nodes: u64,
    /// The root's proof and disproof numbers (of the search running now).
    pub pn: u32,
    /// See `pn`.
    pub dn: u32,
    /// Entries in the transposition tables.
    pub tt_entries: usize,
    /// Estimated table bytes, and the bound.
    pub tt_bytes: usize,
    /// See `tt_bytes`.
    pub tt_bound: usize,
}

/// A solved (or not) position.
#[derive(Clone, Debug)]
pub struct Solution {
    /// The verdict.
    pub verdict: Verdict,
    /// For a win, the winning move; for a loss, the reply that the proof had to search
    /// explicitly (a "best try"), if there is one.
    pub best_move: Option<Point>,
    /// A principal line of the proof, from the root.
    pub pv: Vec<Point>,
    /// Nodes searched (df-pn nodes and VCF nodes).
    pub nodes: u64,
    /// Entries left in the transposition tables.
    pub tt_entries: usize,
    /// The proof, for a win or a loss.
    pub proof: Option<Proof>,
    /// Why the answer is `unknown`, when it is.
    pub note: Option<&'static str>,
}

/// The defender's own VCFs are looked for up to this many fours; a VCF found is a real win, so
/// any bound is sound.
const COUNTER_FOURS: u32 = 3;
/// Estimated bytes of an entry of a VCT leaf search's table, its moves included (measured:
/// about 1M entries in about 130 MB on `bench_vct_small_but_long`).
const VCT_ENTRY_BYTES: usize = 128;
/// Estimated bytes of a borrowed proof's entry (the tree itself is shared).
const BORROWED_BYTES: usize = 48;
/// Estimated bytes of a node of a lent proof tree.
const TREE_NODE_BYTES: usize = 64;
/// At each visit of an AND node, the proofs of at most this many replies proved by a VCT are
/// tried on the other replies.
const SIMULATIONS: u32 = 2;
/// The attacker's move before an AND node without a certificate is tried as a threat (a VCT
/// after a pass) only if the lines through it held at least this many attacker stones, each
/// line counted up to 2 (the most in a five-point stretch free of defender stones).
const PASS_VCT_LEVEL: u32 = 2;

#[derive(Clone, Debug)]
struct Entry {
    pn: u32,
    dn: u32,
    /// The node's moves in the canonical frame, once generated.
    moves: Option<Arc<[Move]>>,
}

impl Entry {
    /// Whether the entry is a result (proved or disproved), not an estimate.
    fn settled(&self) -> bool {
        self.pn == 0 || self.dn == 0
    }

    /// A node proved without moves to keep.
    const PROVED: Entry = Entry {
        pn: 0,
        dn: INF,
        moves: None,
    };
    /// A node disproved without moves to keep.
    const DISPROVED: Entry = Entry {
        pn: INF,
        dn: 0,
        moves: None,
    };
}

#[derive(Clone, Copy, Debug)]
struct Move {
    point: Point,
    pn: u32,
    dn: u32,
}

enum Expansion {
    Proved,
    Disproved,
    Moves(Vec<Move>),
}

/// One df-pn search: does `attacker` win from the position? With more than one thread, the
/// prover is the main thread's worker and keeps the others in `helpers`; all of them search
/// from the root, sharing one [`Table`].
struct Prover<'a> {
    board: Board,
    attacker: Color,
    full_width: bool,
    limits: &'a Limits,
    /// Stones on the board at the root, to tell the root from other attacker nodes.
    root_stones: usize,
    vct_nodes: u64,
    /// The root is an attacker node whose VCT may still be found with a larger budget.
    root_vct_open: bool,
    /// The root's VCT search, kept between its rounds so each goes on from the last.
    root_vct: VctTable,
    /// The root's VCT proof, once a round found one.
    root_vct_tree: Option<VctTree>,
    /// The transposition table, shared with the helpers.
    table: Arc<Table>,
    /// Entries a VCT leaf search's table may keep.
    vct_entries: usize,
    vcf_table: VcfTable,
    /// Nodes this worker searched.
    nodes: u64,
    /// Stop when `nodes` reaches this (a slice of a longer search).
    budget: u64,
    stopped: bool,
    /// How children's numbers add up: weak proof numbers in full width, where every move
    /// order transposes and the plain sum counts shared positions many times over (5x5 k=4:
    /// 8.5M nodes instead of 16.7M); the plain sum otherwise, where it did as well or better
    /// on the ladder (`BENCHMARKS.md`).
    sum: Sum,
    /// The other threads' workers (on the main worker only).
    helpers: Vec<Prover<'a>>,
    /// Nodes searched by both searches, all threads: what `--nodes` bounds.
    searched: Arc<AtomicU64>,
    /// Bytes of each thread's VCF table.
    vcf_bytes: usize,
    /// Entries of a helper's VCT leaf searches.
    helper_vct: usize,
    /// Threads the other search, running side by side, is done with (main worker only).
    spare: Option<Arc<AtomicUsize>>,
}

impl<'a> Prover<'a> {
    /// The main worker of a search for `attacker`, with `threads - 1` helpers, in `1 / share`
    /// of the memory bound. The VCF and VCT shares are split as if all of `most` threads (the
    /// solve's) worked on this search, since threads the other search is done with join it.
    fn new(
        board: &Board,
        attacker: Color,
        options: &'a SolveOptions,
        share: usize,
        (threads, most): (usize, usize),
        searched: &Arc<AtomicU64>,
    ) -> Self {
        let bound =
            crate::threat::mebibytes(options.memory_mb.unwrap_or(DEFAULT_MEMORY_MB)) / share;
        let vct_nodes = options.vct_nodes.unwrap_or(DEFAULT_VCT_NODES);
        // Half the share for the shared proof table; a quarter for the VCF tables, one per
        // thread; a quarter for the VCT searches: a helper's are leaf searches of a bounded
        // number of nodes, and the main thread's root VCT rounds take the rest (they need
        // about a million entries on the larger quintet positions).
        let vct_share = (bound / 4 / VCT_ENTRY_BYTES).max(1024);
        let helper_vct = usize::try_from(vct_nodes.saturating_mul(4))
            .unwrap_or(usize::MAX)
            .clamp(1024, (vct_share / most).max(1024));
        let mut main = Prover {
            board: board.clone(),
            attacker,
            full_width: options.full_width,
            limits: &options.limits,
            root_stones: board.moves().len(),
            vct_nodes,
            root_vct_open: board.to_move() == attacker && vct_nodes > 0,
            root_vct: VctTable::default(),
            root_vct_tree: None,
            table: Arc::new(Table::new(bound - bound / 4 - bound / 4, threads > 1)),
            vct_entries: vct_share.saturating_sub((most - 1) * helper_vct).max(1024),
            vcf_bytes: bound / 4 / most,
            vcf_table: VcfTable::within_bytes(bound / 4 / most),
            helper_vct,
            nodes: 0,
            budget: u64::MAX,
            stopped: false,
            sum: if options.full_width {
                Sum::Weak
            } else {
                Sum::Plain
            },
            helpers: Vec::new(),
            searched: searched.clone(),
            spare: None,
        };
        main.helpers = (1..threads).map(|_| main.helper()).collect();
        main
    }

    /// A helper for this (main) worker's search, at the root.
    fn helper(&self) -> Prover<'a> {
        Prover {
            board: self.board.clone(),
            attacker: self.attacker,
            full_width: self.full_width,
            limits: self.limits,
            root_stones: self.root_stones,
            vct_nodes: self.vct_nodes,
            root_vct_open: false,
            root_vct: VctTable::default(),
            root_vct_tree: None,
            table: self.table.clone(),
            vct_entries: self.helper_vct,
            vcf_bytes: self.vcf_bytes,
            vcf_table: VcfTable::within_bytes(self.vcf_bytes),
            helper_vct: self.helper_vct,
            nodes: 0,
            budget: u64::MAX,
            stopped: false,
            sum: self.sum,
            helpers: Vec::new(),
            searched: self.searched.clone(),
            spare: None,
        }
    }

    /// Takes the threads the other search is done with, if any, as helpers.
    fn take_spare_threads(&mut self) {
        let Some(spare) = &self.spare else { return };
        let n = spare.swap(0, Ordering::Relaxed);
        if n > 0 {
            self.table.set_parallel();
            for _ in 0..n {
                let helper = self.helper();
                self.helpers.push(helper);
            }
        }
    }

    /// Counts `n` nodes searched by this worker; the limits see every thread's, of both
    /// searches.
    fn count(&mut self, n: u64) {
        self.nodes += n;
        self.searched.fetch_add(n, Ordering::Relaxed);
    }

    /// Nodes searched by every thread of both searches.
    fn searched(&self) -> u64 {
        self.searched.load(Ordering::Relaxed)
    }

    /// Whether a limit is reached, counting every thread's nodes in both searches.
    fn limit_reached(&self) -> bool {
        self.limits.reached(self.searched())
    }

    /// Whether the board is at the search's root (where the root's VCT rounds stand in for the
    /// leaf budget).
    fn at_root(&self) -> bool {
        self.board.moves().len() == self.root_stones
    }

    fn defender(&self) -> Color {
        self.attacker.opponent()
    }

    fn is_or(&self) -> bool {
        self.board.to_move() == self.attacker
    }

    fn legal_moves(&self, color: Color) -> Vec<Point> {
        self.board
            .points()
            .filter(|&p| self.board.is_legal_for(p, color))
            .collect()
    }

    /// A VCF for `color`, as if it were to move (the side to move is restored).
    fn find_vcf(&mut self, color: Color, max_fours: u32) -> Result<Option<Line>, Stopped> {
        let to_move = self.board.to_move();
        self.board.set_to_move(color);
        let mut search = VcfSearch::new(&mut self.board, color, self.limits, &mut self.vcf_table);
        let result = search.run(max_fours);
        let searched = search.nodes;
        self.count(searched);
        self.board.set_to_move(to_move);
        result.map(|(line, _)| line)
    }

    /// The attacker's VCT (the attacker to move): whether it wins, and with `tree`, its
    /// proof. Below the root it is searched within the per-node budget, which depends only on
    /// the position, so a proof can be rebuilt the way it was found. At the root it is the
    /// proof [`Prover::root_vct_round`] found, if any.
    fn find_vct(&mut self, tree: bool) -> Result<(bool, Option<VctTree>), Stopped> {
        if self.at_root() {
            let found = self.root_vct_tree.as_ref();
            return Ok((found.is_some(), found.filter(|_| tree).cloned()));
        }
        self.vct_within(self.vct_nodes, false, tree)
            .map(|(won, tree, _)| (won, tree))
    }

    /// One round of the root's VCT search, `budget` more nodes from where the last round
    /// stopped; a win proves the root, and its proof tree is kept for the proof.
    fn root_vct_round(&mut self, budget: u64) {
        if !self.root_vct_open {
            return;
        }
        match self.vct_within(budget, true, true) {
            Ok((true, Some(tree), _)) => {
                self.root_vct_open = false;
                self.root_vct_tree = Some(tree);
                self.root_vct = VctTable::default();
                let key = self.board.canonical().key;
                self.store(key, Entry::PROVED);
            }
            // No VCT at all: a larger budget would not find one.
            Ok((false, _, true)) => {
                self.root_vct_open = false;
                self.root_vct = VctTable::default();
            }
            // Not yet, or won but the tree not rebuilt within the budget: the next round goes
            // on.
            Ok(_) => {}
            Err(Stopped) => self.stopped = true,
        }
    }

    /// The attacker's VCT within `budget` nodes: whether it wins, its proof (with `tree`),
    /// and whether the threat space was searched to the end without a win. With `resume`, the
    /// root's search goes on from its last round; otherwise a fresh search starts.
    fn vct_within(
        &mut self,
        mut budget: u64,
        resume: bool,
        tree: bool,
    ) -> Result<(bool, Option<VctTree>, bool), Stopped> {
        if let Some(n) = self.limits.nodes {
            budget = budget.min(n.saturating_sub(self.searched()));
        }
        if budget == 0 {
            return Ok((false, None, false));
        }
        let options = VctOptions {
            max_depth: None,
            threat_fours: Some(VCT_THREAT_FOURS),
            limits: Limits {
                nodes: Some(budget),
                ..self.limits.clone()
            },
            table_entries: Some(self.vct_entries),
            // Bounded by `table_entries` and the VCF table passed in.
            memory_mb: None,
            threads: None,
            progress: None,
        };
        let mut fresh = VctTable::default();
        let table = if resume {
            &mut self.root_vct
        } else {
            &mut fresh
        };
        let found = prove_vct(
            &self.board,
            self.attacker,
            &options,
            &mut self.vcf_table,
            table,
            tree,
        );
        self.count(found.nodes);
        if self.limit_reached() {
            return Err(Stopped);
        }
        Ok((found.won, found.tree, found.exhausted))
    }

    /// The attacker's certificate at an AND node: its VCF if the defender passed.
    fn certificate(&mut self) -> Result<Option<Line>, Stopped> {
        self.find_vcf(self.attacker, UNLIMITED)
    }

    /// The moves of the side to move that break `color`'s VCF `line` (sorted).
    fn breaking(&mut self, color: Color, line: &Line) -> Vec<Point> {
        let mut points: Vec<Point> = crate::threat::breaking_replies(&mut self.board, color, line)
            .into_iter()
            .map(|(p, _)| p)
            .collect();
        points.sort_unstable();
        points
    }

    /// The replies an AND node must search: those that break the certificate, or every legal
    /// reply when there is none.
    fn replies(&mut self, certificate: Option<&Line>) -> Vec<Point> {
        match certificate {
            Some(line) => self.breaking(self.attacker, line),
            None => self.legal_moves(self.defender()),
        }
    }

    /// A leaf verdict for an OR node: a five to play, a VCF or a VCT proves it, two defender
    /// fives (with no five of its own) disprove it.
    fn or_leaf(&mut self) -> Result<Option<Expansion>, Stopped> {
        if !self.board.five_points(self.attacker).is_empty() {
            return Ok(Some(Expansion::Proved));
        }
        if self.board.five_points(self.defender()).len() >= 2 {
            return Ok(Some(Expansion::Disproved));
        }
        if self.find_vcf(self.attacker, UNLIMITED)?.is_some() {
            return Ok(Some(Expansion::Proved));
        }
        // With other threads, a VCT found within this thread's budget might not be found
        // again by the thread that reads the proof out (their VCF tables differ, and with
        // them what fits in the budget): keep its tree where every thread can borrow it.
        let parallel = self.table.parallel();
        match self.find_vct(parallel)? {
            (true, Some(tree)) if parallel => {
                let canonical = self.board.canonical();
                let bytes = BORROWED_BYTES + tree.nodes.len() * TREE_NODE_BYTES;
                let tree = Arc::new(tree);
                self.table
                    .lend(canonical.key, tree, canonical.symmetry, bytes);
                Ok(Some(Expansion::Proved))
            }
            (true, _) => Ok(Some(Expansion::Proved)),
            (false, _) => Ok(None),
        }
    }

    fn expand_or(&mut self) -> Result<Expansion, Stopped> {
        if let Some(leaf) = self.or_leaf()? {
            return Ok(leaf);
        }
        self.or_moves()
    }

    /// The attacker's moves at an OR node that is not a leaf.
    fn or_moves(&mut self) -> Result<Expansion, Stopped> {
        if let Some(&g) = self.board.five_points(self.defender()).first() {
            // The defender's four must be blocked at once.
            if !self.board.is_legal_for(g, self.attacker) {
                return Ok(Expansion::Disproved);
            }
            return Ok(Expansion::Moves(vec![Move {
                point: g,
                pn: 1,
                dn: 1,
            }]));
        }
        let mut points = if self.full_width {
            self.legal_moves(self.attacker)
        } else {
            self.nearby_moves()
        };
        // If the defender would have a VCF were the attacker to pass, a move that leaves it
        // working loses: keep only the moves that break it (fours among them).
        let defender = self.defender();
        if let Some(line) = self.find_vcf(defender, COUNTER_FOURS)? {
            let breaking = self.breaking(defender, &line);
            points.retain(|p| breaking.binary_search(p).is_ok());
        }
        if points.is_empty() {
            // Every move loses, or there is none: a full board is a draw, and Black with only
            // forbidden points must play one and lose (rules.md).
            return Ok(Expansion::Disproved);
        }
        let mut moves: Vec<Move> = points
            .into_iter()
            .map(|point| Move {
                point,
                pn: self.attack_estimate(point),
                dn: 1,
            })
            .collect();
        moves.sort_by_key(|m| (m.pn, m.point));
        Ok(Expansion::Moves(moves))
    }

    /// Starting proof number of an attacker move: fours and threes first.
    fn attack_estimate(&self, p: Point) -> u32 {
        if self.board.four_at(p, self.attacker).count > 0 {
            1
        } else if self.board.threes_at(p, self.attacker) > 0 {
            2
        } else {
            let potential: u32 = self.board.potentials(p, self.attacker).iter().sum();
            4u32.saturating_sub(potential.min(2)) + 2
        }
    }

    /// Legal attacker moves within two steps (in any direction) of a stone; the centre on an
    /// empty board.
    fn nearby_moves(&self) -> Vec<Point> {
        let size = self.board.size();
        let moves: Vec<Point> = self
            .board
            .points()
            .filter(|&p| {
                self.board.is_legal_for(p, self.attacker) && self.board.has_stone_near(p, 2)
            })
            .collect();
        if moves.is_empty() && self.board.stones().next().is_none() {
            let centre = Point::new(size.cols() / 2, size.rows() / 2);
            return vec![centre];
        }
        moves
    }

    fn expand_and(&mut self) -> Result<Expansion, Stopped> {
        if !self.board.five_points(self.defender()).is_empty() {
            // The defender completes a five.
            return Ok(Expansion::Disproved);
        }
        let certificate = self.certificate()?;
        if certificate.is_none() && self.find_vcf(self.defender(), COUNTER_FOURS)?.is_some() {
            return Ok(Expansion::Disproved);
        }
        let replies: Vec<Move> = self
            .replies(certificate.as_ref())
            .into_iter()
            .map(|point| Move {
                point,
                pn: 1,
                dn: 1,
            })
            .collect();
        if replies.is_empty() {
            // With a certificate every reply loses to it. Without one there is no legal reply:
            // a full board is a draw; otherwise the defender is Black with only forbidden
            // points, which must play one and lose (rules.md).
            return Ok(if certificate.is_some() || !self.board.is_full() {
                Expansion::Proved
            } else {
                Expansion::Disproved
            });
        }
        if certificate.is_none() && !self.full_width && replies.len() > 1 && self.builds() {
            self.pass_vct(&replies)?;
        }
        Ok(Expansion::Moves(replies))
    }

    /// Whether the attacker's last move built on its lines enough to be worth trying as a
    /// threat ([`PASS_VCT_LEVEL`]); true when there is no such move to judge (a position given
    /// with its side to move). The stone itself is not counted, so this is what the lines
    /// held before it.
    fn builds(&self) -> bool {
        match self.board.moves().last() {
            Some(&last) if self.board.stone(last) == Some(self.attacker) => {
                let level: u32 = self
                    .board
                    .potentials(last, self.attacker)
                    .iter()
                    .map(|&l| l.min(2))
                    .sum();
                level >= PASS_VCT_LEVEL
            }
            _ => true,
        }
    }

    /// Null-move simulation at an AND node without a certificate: if the attacker has a VCT
    /// (within the leaf budget) were the defender to pass, its tree is tried on every reply,
    /// and each reply where it holds is proved by it (the tree lent to that child, as in
    /// [`Self::simulate`]). The attacker's quiet move is then a threat in the VCT sense, and
    /// only the replies that stop that VCT are left to search.
    fn pass_vct(&mut self, replies: &[Move]) -> Result<(), Stopped> {
        let (true, Some(tree), _) = self.vct_within(self.vct_nodes, false, true)? else {
            return Ok(());
        };
        let keys: Vec<u64> = replies.iter().map(|m| self.key_after(m.point)).collect();
        self.simulate(&Arc::new(tree), replies, &keys);
        Ok(())
    }

    fn expand(&mut self) -> Result<Expansion, Stopped> {
        if self.full_width && self.out_of_reach() {
            return Ok(Expansion::Disproved);
        }
        if self.is_or() {
            self.expand_or()
        } else {
            self.expand_and()
        }
    }

    /// Whether the attacker can no longer win: every stretch of `k` points on a line holds a
    /// defender stone, or the closest one needs more stones than the attacker has moves left
    /// before the board is full. Not under renju with White attacking: White also wins when
    /// Black has only forbidden moves.
    fn out_of_reach(&self) -> bool {
        if self.board.rules().has_forbidden() && self.attacker == Color::White {
            return false;
        }
        let empty = self.board.empty_count();
        let moves_left = if self.is_or() {
            empty.div_ceil(2)
        } else {
            empty / 2
        };
        self.board
            .fewest_stones_to_five(self.attacker)
            .is_none_or(|missing| missing as usize > moves_left)
    }

    /// The canonical key of the position after `m`.
    fn key_after(&mut self, m: Point) -> u64 {
        self.board.play_unchecked(m);
        let key = self.board.canonical().key;
        self.board.undo();
        key
    }

    fn store(&mut self, key: u64, entry: Entry) {
        if self.table.store(key, entry) == Stored::Full {
            self.stopped = true;
        }
    }

    /// Drops the current node's entry, so that it is searched again.
    fn forget(&mut self) {
        let key = self.board.canonical().key;
        self.table.remove(key);
    }

    /// Searches the current node until its numbers reach the thresholds.
    fn mid(&mut self, th_pn: u32, th_dn: u32) -> (u32, u32) {
        self.count(1);
        if self.nodes >= self.budget
            || self.limit_reached()
            || self.table.halt.load(Ordering::Relaxed)
            || self.table.cancelled()
            || self.table.is_full()
        {
            self.stopped = true;
        }
        let canonical = self.board.canonical();
        let key = canonical.key;
        let frame = canonical.symmetry;
        let size = self.board.size();
        let map = |moves: &[Move], to: Symmetry| -> Arc<[Move]> {
            moves
                .iter()
                .map(|m| Move {
                    point: to.apply(m.point, size),
                    ..*m
                })
                .collect()
        };
        // The moves in the board's frame, and in the canonical frame the table keeps.
        let (moves, canonical_moves) = match self.table.get(key) {
            Some(e) if e.settled() || e.pn >= th_pn || e.dn >= th_dn || self.stopped => {
                return (e.pn, e.dn);
            }
            Some(Entry { moves: Some(m), .. }) => (map(&m, frame.inverse()), m),
            _ if self.stopped => return (1, 1),
            _ => match self.expand() {
                Err(Stopped) => {
                    self.stopped = true;
                    return (1, 1);
                }
                Ok(Expansion::Proved) => {
                    self.store(key, Entry::PROVED);
                    return (0, INF);
                }
                Ok(Expansion::Disproved) => {
                    self.store(key, Entry::DISPROVED);
                    return (INF, 0);
                }
                Ok(Expansion::Moves(moves)) => {
                    let canonical = map(&moves, frame);
                    (moves.into(), canonical)
                }
            },
        };
        if !self.table.parallel() {
            return self.search_children(key, &moves, &canonical_moves, th_pn, th_dn);
        }
        self.table.enter(key);
        let numbers = self.search_children(key, &moves, &canonical_moves, th_pn, th_dn);
        self.table.leave(key);
        numbers
    }

    /// The children's numbers as this thread sees them: with other threads searching, a
    /// child one of them is inside looks worse (Kaneko's virtual proof and disproof numbers:
    /// the number that selects it is multiplied by one plus the threads there), so threads
    /// spread over different subtrees. Only the choice of child and its thresholds use them.
    fn virtual_numbers(&self, is_or: bool, key: u64, (pn, dn): (u32, u32)) -> (u32, u32) {
        if pn == 0 || dn == 0 {
            return (pn, dn);
        }
        let v = self.table.visitors(key);
        if v == 0 {
            return (pn, dn);
        }
        let worse = |n: u32| n.saturating_mul(v + 1).saturating_add(v).min(BIG);
        if is_or {
            (worse(pn), dn)
        } else {
            (pn, worse(dn))
        }
    }

    /// The df-pn loop at an expanded node: combine the children, search the best, until the
    /// numbers reach the thresholds.
    fn search_children(
        &mut self,
        key: u64,
        moves: &[Move],
        canonical_moves: &Arc<[Move]>,
        th_pn: u32,
        th_dn: u32,
    ) -> (u32, u32) {
        let is_or = self.is_or();
        let child_keys: Vec<u64> = moves.iter().map(|m| self.key_after(m.point)).collect();
        // Proved replies whose proof is tried on their siblings, per visit.
        let mut simulations = SIMULATIONS;
        loop {
            let numbers: Vec<(u32, u32)> = moves
                .iter()
                .zip(&child_keys)
                .map(|(m, &k)| self.table.numbers(k).unwrap_or((m.pn, m.dn)))
                .collect();
            let combined = combine(is_or, self.sum, numbers.iter().copied());
            let (pn, dn) = (combined.pn, combined.dn);
            let resolved = pn == 0 || dn == 0;
            self.store(
                key,
                Entry {
                    pn,
                    dn,
                    moves: (!resolved).then(|| canonical_moves.clone()),
                },
            );
            if resolved || pn >= th_pn || dn >= th_dn || self.stopped {
                return (pn, dn);
            }
            let choice = if self.table.parallel() {
                let seen = numbers
                    .iter()
                    .zip(&child_keys)
                    .map(|(&n, &k)| self.virtual_numbers(is_or, k, n));
                combine(is_or, self.sum, seen)
            } else {
                combined
            };
            let (c_th_pn, c_th_dn) = child_thresholds(is_or, th_pn, th_dn, &choice);
            let m = moves[choice.best].point;
            self.board.play_unchecked(m);
            let (child_pn, _) = self.mid(c_th_pn, c_th_dn);
            let tree = (!is_or && child_pn == 0 && simulations > 0 && moves.len() > 1)
                .then(|| self.proof_to_lend())
                .flatten();
            self.board.undo();
            if let Some(tree) = tree {
                simulations -= 1;
                self.simulate(&tree, moves, &child_keys);
            }
        }
    }

    /// A proof of the current (proved) attacker node that its siblings may borrow: one
    /// borrowed itself, or the VCT within the node's budget. `None` if the node was proved
    /// some other way, or the search was stopped.
    fn proof_to_lend(&mut self) -> Option<Arc<VctTree>> {
        if let Some(tree) = self.borrowed_here() {
            return Some(tree);
        }
        match self.find_vct(true) {
            Ok((true, Some(tree))) => Some(Arc::new(tree)),
            Ok(_) => None,
            Err(Stopped) => {
                self.stopped = true;
                None
            }
        }
    }

    /// The borrowed proof of the current position, mapped into the board's frame, if there is
    /// one and it holds.
    fn borrowed_here(&mut self) -> Option<Arc<VctTree>> {
        let canonical = self.board.canonical();
        let (tree, frame) = self.table.borrowed(canonical.key)?;
        let tree = if frame == canonical.symmetry {
            tree
        } else {
            // Found in `frame`; this board is in `canonical.symmetry`. Through the canonical
            // frame: p -> frame(p) -> canonical.symmetry⁻¹(frame(p)).
            let size = self.board.size();
            let back = canonical.symmetry.inverse();
            Arc::new(tree.map(|p| back.apply(frame.apply(p, size), size)))
        };
        let attacker = self.attacker;
        tree.holds(&mut self.board, attacker).then_some(tree)
    }

    /// Simulation: tries a sibling's proof `tree` on the other replies of the current AND
    /// node, and marks proved every child where it holds on the board as it is.
    fn simulate(&mut self, tree: &Arc<VctTree>, moves: &[Move], child_keys: &[u64]) {
        let attacker = self.attacker;
        // A tree no entry shares yet is counted once, when it is first lent.
        let mut tree_bytes = if Arc::strong_count(tree) == 1 {
            tree.nodes.len() * TREE_NODE_BYTES
        } else {
            0
        };
        for (m, &key) in moves.iter().zip(child_keys) {
            if self.table.settled(key) {
                continue;
            }
            self.board.play_unchecked(m.point);
            if tree.holds(&mut self.board, attacker) {
                let frame = self.board.canonical().symmetry;
                let bytes = BORROWED_BYTES + tree_bytes;
                if self.table.lend(key, tree.clone(), frame, bytes) {
                    tree_bytes = 0;
                }
                self.store(key, Entry::PROVED);
            }
            self.board.undo();
        }
    }

    /// One round of the search: the root's VCT for `4 * slice` more nodes, then the proof
    /// search from the root for `slice` more nodes of this thread. The helper threads search
    /// from the root meanwhile, from the start of the round to its end. Returns the root's
    /// numbers.
    fn round(&mut self, slice: u64) -> (u32, u32) {
        self.take_spare_threads();
        if self.helpers.is_empty() {
            self.root_vct_round(slice.saturating_mul(ROOT_VCT_SHARE));
            return self.run(slice);
        }
        let mut helpers = std::mem::take(&mut self.helpers);
        let table = self.table.clone();
        table.halt.store(false, Ordering::Relaxed);
        let numbers = std::thread::scope(|scope| {
            for helper in &mut helpers {
                scope.spawn(|| helper.help());
            }
            self.root_vct_round(slice.saturating_mul(ROOT_VCT_SHARE));
            let numbers = self.run(slice);
            table.halt.store(true, Ordering::Relaxed);
            numbers
        });
        table.halt.store(false, Ordering::Relaxed);
        self.helpers = helpers;
        // A helper may have settled the root after the main thread returned.
        let key = self.board.canonical().key;
        match self.table.numbers(key) {
            Some((pn, dn)) if settled(pn, dn).is_some() => (pn, dn),
            _ => numbers,
        }
    }

    /// A helper thread's work: search from the root until the root is settled, a limit is
    /// reached, or the main thread calls the round off.
    fn help(&mut self) {
        self.stopped = false;
        while !self.table.halt.load(Ordering::Relaxed) && !self.table.cancelled() {
            let (pn, dn) = self.mid(INF - 1, INF - 1);
            if self.stopped || settled(pn, dn).is_some() {
                break;
            }
        }
    }

    /// Rounds, each twice as long as the last, until the root is settled (`Some`), or a limit
    /// is reached or the search is called off (`None`).
    fn settle(&mut self) -> Option<bool> {
        let mut slice = 4096u64;
        loop {
            let (pn, dn) = self.round(slice);
            if let Some(settled) = settled(pn, dn) {
                return Some(settled);
            }
            if self.exhausted() || self.table.cancelled() {
                return None;
            }
            slice = slice.saturating_mul(2).min(MAX_SLICE);
        }
    }

    /// Runs the search from the root for at most `slice` more nodes. Returns the root's
    /// numbers.
    fn run(&mut self, slice: u64) -> (u32, u32) {
        self.budget = self.nodes.saturating_add(slice);
        self.stopped = false;
        let numbers = self.mid(INF - 1, INF - 1);
        self.budget = u64::MAX;
        numbers
    }

    /// Whether the search must stop for good (limits, or a full table), rather than for the
    /// end of a slice.
    fn exhausted(&self) -> bool {
        self.table.is_full() || self.limit_reached()
    }

    /// Whether the current node is proved, searching it again if the table lost it.
    fn ensure_proved(&mut self) -> Result<(), Stopped> {
        let key = self.board.canonical().key;
        if self.table.proved(key) {
            return Ok(());
        }
        let (pn, _) = self.mid(INF - 1, INF - 1);
        if pn == 0 { Ok(()) } else { Err(Stopped) }
    }
}

/// Whether a node's numbers settle it: `Some(true)` proved, `Some(false)` disproved.
fn settled(pn: u32, dn: u32) -> Option<bool> {
    match (pn, dn) {
        (0, _) => Some(true),
        (_, 0) => Some(false),
        _ => None,
    }
}

/// How the search over `tables` is going: `nodes` in all, the root's numbers.
fn progress_of(tables: &[&Table], nodes: u64, (pn, dn): (u32, u32)) -> Progress {
    Progress {
        nodes,
        pn,
        dn,
        tt_entries: tables.iter().map(|t| t.len()).sum(),
        tt_bytes: tables.iter().map(|t| t.total_bytes()).sum(),
        tt_bound: tables.iter().map(|t| t.bound()).sum(),
    }
}

/// Proves the position won, lost (or, with `full_width`, drawn) for the side to move.
/// `progress` is called now and then while the search runs.
#[must_use]
pub fn solve(
    board: &Board,
    options: &SolveOptions,
    progress: &mut dyn FnMut(&Progress),
) -> Solution {
    let to_move = board.to_move();
    if let Some(solution) = decided(board) {
        return solution;
    }
    let threads = options.threads.unwrap_or(1).max(1);
    let searched = Arc::new(AtomicU64::new(0));
    // A proof found within the limits is read out within a quarter more (see `proved`).
    let read_out = options.limits.with_read_out_grace(Instant::now());
    let mut win = Prover::new(
        board,
        to_move,
        options,
        2,
        (threads.div_ceil(2), threads),
        &searched,
    );
    let loss_threads = ((threads / 2).max(1), threads);
    let mut loss = Prover::new(
        board,
        to_move.opponent(),
        options,
        2,
        loss_threads,
        &searched,
    );
    let outcome = if threads == 1 {
        take_turns(&mut win, &mut loss, progress)
    } else {
        side_by_side(&mut win, &mut loss, progress)
    };
    match outcome {
        Err(Stopped) => unknown(&win, &loss, "stopped by a limit before a proof"),
        Ok(Some(true)) => proved(win, Verdict::Win, &loss, board, &read_out),
        Ok(Some(false)) => proved(loss, Verdict::Loss, &win, board, &read_out),
        Ok(None) if options.full_width => without_proof(Verdict::Draw, &win, &loss, None),
        Ok(None) => unknown(
            &win,
            &loss,
            "neither side's win was found; without --full-width the attacker's moves are narrowed, so that proves nothing",
        ),
    }
}

/// What the two searches settled: `Some(true)` the side to move wins, `Some(false)` it loses,
/// `None` both wins are disproved.
type Outcome = Result<Option<bool>, Stopped>;

/// What the two searches' results mean. `None` for a search not settled (yet).
fn outcome(win: Option<bool>, loss: Option<bool>) -> Option<Option<bool>> {
    match (win, loss) {
        (Some(true), _) => Some(Some(true)),
        (_, Some(true)) => Some(Some(false)),
        (Some(false), Some(false)) => Some(None),
        // Full width: a disproved win for the side to move is exact, so the other search
        // decides between a loss and a draw; keep going.
        _ => None,
    }
}

/// One thread: the two searches take turns, each round twice as long as the last, so the
/// node counts are deterministic.
fn take_turns<'a>(
    win: &mut Prover<'a>,
    loss: &mut Prover<'a>,
    progress: &mut dyn FnMut(&Progress),
) -> Outcome {
    let mut results = [None, None];
    let mut slice = 4096u64;
    loop {
        for (prover, done) in [&mut *win, &mut *loss].into_iter().zip(&mut results) {
            if done.is_some() {
                continue;
            }
            let (pn, dn) = prover.round(slice);
            progress(&progress_of(&[&prover.table], prover.searched(), (pn, dn)));
            *done = settled(pn, dn);
        }
        if let Some(decided) = outcome(results[0], results[1]) {
            return Ok(decided);
        }
        if win.exhausted() || loss.exhausted() {
            return Err(Stopped);
        }
        slice = slice.saturating_mul(2).min(MAX_SLICE);
    }
}

/// More threads: the two searches run at once, each on its share of the threads; the first
/// proof calls the other off. This thread reports progress meanwhile.
fn side_by_side<'a>(
    win: &mut Prover<'a>,
    loss: &mut Prover<'a>,
    progress: &mut dyn FnMut(&Progress),
) -> Outcome {
    let tables = [win.table.clone(), loss.table.clone()];
    let key = win.board.canonical().key;
    let searched = win.searched.clone();
    let (tx, rx) = std::sync::mpsc::channel();
    let mut results = [None, None];
    let spare = Arc::new(AtomicUsize::new(0));
    win.spare = Some(spare.clone());
    loss.spare = Some(spare.clone());
    std::thread::scope(|scope| {
        for (i, prover) in [&mut *win, &mut *loss].into_iter().enumerate() {
            let (tx, other, spare) = (tx.clone(), tables[1 - i].clone(), spare.clone());
            scope.spawn(move || {
                let result = prover.settle();
                if result == Some(true) {
                    other.cancel();
                } else {
                    // Disproved (or stopped): the other search may take these threads.
                    spare.fetch_add(1 + prover.helpers.len(), Ordering::Relaxed);
                }
                // The receiver outlives the scope's threads.
                let _ = tx.send((i, result));
            });
        }
        drop(tx);
        loop {
            match rx.recv_timeout(PROGRESS_EVERY) {
                Ok((i, result)) => results[i] = result,
                Err(RecvTimeoutError::Timeout) => {
                    let root = tables[0].numbers(key).unwrap_or((1, 1));
                    let nodes = searched.load(Ordering::Relaxed);
                    progress(&progress_of(&[&tables[0], &tables[1]], nodes, root));
                }
                Err(RecvTimeoutError::Disconnected) => break,
            }
        }
    });
    outcome(results[0], results[1]).ok_or(Stopped)
}

fn decided(board: &Board) -> Option<Solution> {
    let fives = board.fives();
    let five = fives.first()?;
    let verdict = if five.color == board.to_move() {
        Verdict::Win
    } else {
        Verdict::Loss
    };
    Some(Solution {
        verdict,
        best_move: None,
        pv: Vec::new(),
        nodes: 0,
        tt_entries: 0,
        proof: Some(Proof::decided(board, five.color)),
        note: None,
    })
}

fn unknown(win: &Prover<'_>, loss: &Prover<'_>, why: &'static str) -> Solution {
    let note = if win.table.is_full() || loss.table.is_full() {
        "the table bound (--memory) was reached"
    } else {
        why
    };
    without_proof(Verdict::Unknown, win, loss, Some(note))
}

/// An answer with no proof tree (a draw, or unknown), with both searches' statistics.
fn without_proof(
    verdict: Verdict,
    win: &Prover<'_>,
    loss: &Prover<'_>,
    note: Option<&'static str>,
) -> Solution {
    Solution {
        verdict,
        best_move: None,
        pv: Vec::new(),
        nodes: win.searched(),
        tt_entries: win.table.len() + loss.table.len(),
        proof: None,
        note,
    }
}

/// The solution for a root `prover` proved. Reading its proof out of the table may search
/// again what the table lost; it runs within `read_out` (the solve's limits with a grace), so
/// that a proof found just before the limit is not lost to its read-out.
fn proved<'a>(
    mut prover: Prover<'a>,
    verdict: Verdict,
    other: &Prover<'_>,
    root: &Board,
    read_out: &'a Limits,
) -> Solution {
    // Every search step takes back what it plays, so the prover is at the root again; a proof
    // read out of any other position (another side to move) would answer another question.
    let back = prover.board.hash() == root.hash() && prover.board.moves() == root.moves();
    debug_assert!(back, "the search left the root");
    if !back {
        return unknown(
            &prover,
            other,
            "internal error: the search did not come back to the position asked (please report)",
        );
    }
    prover.limits = read_out;
    prover.stopped = false;
    let proof = match extract::extract(&mut prover) {
        Ok(proof) => proof,
        Err(Stopped) => {
            return unknown(
                &prover,
                other,
                "the proof was found but could not be rebuilt within the limits",
            );
        }
    };
    let pv = proof.principal_line();
    let best_move = proof.root_move();
    Solution {
        verdict,
        best_move,
        pv,
        nodes: prover.searched(),
        tt_entries: prover.table.len() + other.table.len(),
        proof: Some(proof),
        note: None,
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::notation::{PositionOptions, parse_position};

    /// A position from its text, with `to_move`.
    pub(in crate::solve) fn position(text: &str, to_move: Color) -> Board {
        let options = PositionOptions {
            to_move: Some(to_move),
            ..PositionOptions::default()
        };
        parse_position(text, &options).unwrap()
    }

    /// quintet's `test_vct_black` (`data/examples/vct.txt`): Black's VCT of about 5,000 nodes,
    /// starting at f10, and no Black VCF.
    pub(in crate::solve) fn vct_example(to_move: Color) -> Board {
        position(include_str!("../../data/examples/vct.txt"), to_move)
    }

    /// The main prover of a search for `attacker`, on one thread.
    pub(in crate::solve) fn prover<'a>(
        board: &Board,
        attacker: Color,
        options: &'a SolveOptions,
    ) -> Prover<'a> {
        Prover::new(
            board,
            attacker,
            options,
            2,
            (1, 1),
            &Arc::new(AtomicU64::new(0)),
        )
    }

    /// Options whose leaf budget (200 nodes) misses [`vct_example`]'s VCT (about 5,000 nodes),
    /// within `limits`.
    pub(in crate::solve) fn small_leaf_budget(limits: Limits) -> SolveOptions {
        SolveOptions {
            vct_nodes: Some(200),
            limits,
            ..SolveOptions::default()
        }
    }

    /// [`prover`], as if its position stood below the root, where the leaf budget applies
    /// (at the root the root's VCT rounds stand in for it).
    pub(in crate::solve) fn prover_below_root<'a>(
        board: &Board,
        attacker: Color,
        options: &'a SolveOptions,
    ) -> Prover<'a> {
        let mut p = prover(board, attacker, options);
        p.root_stones = usize::MAX;
        p
    }

    /// A proof found just as the node budget runs out is still read out, within the grace of
    /// a quarter more: here the read-out must find a VCT again (about 5,000 nodes), and the
    /// search has used all of its 40,000.
    #[test]
    fn a_proof_found_at_the_limit_is_read_out_within_the_grace() {
        let board = vct_example(Color::Black);
        let options = small_leaf_budget(Limits {
            nodes: Some(40_000),
            ..Limits::default()
        });
        let read_out = |grace: bool| {
            // The read-out must search for the VCT again, and the search has used up the
            // budget proving it.
            let mut p = prover_below_root(&board, Color::Black, &options);
            let other = prover(&board, Color::White, &options);
            let key = p.board.canonical().key;
            p.store(key, Entry::PROVED);
            p.count(40_000);
            assert!(p.limit_reached());
            let limits = if grace {
                options.limits.with_read_out_grace(Instant::now())
            } else {
                options.limits.clone()
            };
            proved(p, Verdict::Win, &other, &board, &limits)
        };
        let without = read_out(false);
        assert_eq!(without.verdict, Verdict::Unknown);
        assert!(
            without
                .note
                .is_some_and(|n| n.contains("could not be rebuilt"))
        );
        let with = read_out(true);
        assert_eq!(with.verdict, Verdict::Win);
        assert!(with.proof.is_some());
    }

    /// A position whose side to move is given against the moves (the last stone is the side
    /// to move's own): judging the attacker's last move at the AND root must not touch the
    /// board. An earlier version took that stone back and played it again for the side to
    /// move then, handing the move to Black, and `solve` claimed White lost.
    #[test]
    fn expanding_a_root_given_its_side_to_move_leaves_the_board_as_it_was() {
        let board = position("h8 a1 j8 a15", Color::White);
        let options = SolveOptions::default();
        let mut p = prover(&board, Color::Black, &options);
        assert!(!p.is_or());
        assert!(matches!(p.expand(), Ok(Expansion::Moves(_))));
        assert_eq!(p.board.to_move(), Color::White);
        assert_eq!(p.board.hash(), board.hash());
        assert_eq!(p.board.moves(), board.moves());
    }

    /// An AND node whose attacker has a VCT were the defender to pass: expanding it proves
    /// every reply where that VCT still holds (each with the tree lent to it, as the proof
    /// read out will show), and leaves the replies that stop it to the search.
    #[test]
    fn a_threatened_vct_proves_the_replies_that_do_not_stop_it() {
        // White to move: Black's VCT were White to pass starts at f10.
        let board = vct_example(Color::White);
        let options = SolveOptions {
            vct_nodes: Some(20_000),
            ..SolveOptions::default()
        };
        let mut p = prover(&board, Color::Black, &options);
        assert!(p.certificate().unwrap().is_none());
        let Ok(Expansion::Moves(replies)) = p.expand() else {
            panic!("White has replies to search");
        };
        let proved: Vec<Point> = replies
            .iter()
            .map(|m| m.point)
            .filter(|&r| {
                let key = p.key_after(r);
                p.table.proved(key)
            })
            .collect();
        assert!(
            proved.len() > replies.len() / 2,
            "{} of {}",
            proved.len(),
            replies.len()
        );
        assert!(proved.len() < replies.len());
        let f10: Point = "f10".parse().unwrap();
        assert!(!proved.contains(&f10), "the VCT's first point stops it");
        for &r in &proved {
            p.board.play_unchecked(r);
            assert!(
                p.borrowed_here().is_some(),
                "{r}: its proof is lent and holds"
            );
            p.board.undo();
        }
    }
}
