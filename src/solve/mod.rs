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
//!   with no certificate, or an attacker move that leaves the defender's VCF standing);
//! - at an AND node without a certificate, after an attacker move that builds on its lines, the
//!   attacker's VCT were the defender to pass (within sixteen times the leaf budget, and only
//!   within six plies of the root) is the node's certificate: only the replies after which it no
//!   longer holds are searched (null-move simulation). The proof stores it once, as the proof
//!   of the pass position, and the checker answers every reply outside its zone with it
//!   (`docs/certificates.md`);
//! - the VCT searches below the root share one table (per thread): a position one of them
//!   proved or disproved is not searched again by the next, whose budget goes further (a
//!   win found is a proof tree the rules replay, so the table's history changes only what is
//!   found, never whether it is right);
//! - when a defender reply is proved, its proof (the VCT that proved it, or the proof the
//!   table holds for it, up to `LENT_SUBTREE_NODES` nodes) is tried on the other replies, and
//!   proves every one where it holds, replayed by the rules on that board (simulation); a
//!   proof that does not hold there proves nothing, so this prunes nothing unchecked;
//! - a position below the root that the guide ([`SolveOptions::known`], a book's database)
//!   says is won is taken as settled, proved or disproved, during the search only: the proof
//!   is read out without the guide's word. Where it stood in, the guide's own proof of the
//!   position is taken in once the rules replay it on the board (as a lent proof is), and
//!   failing that the position is searched again, so what the guide says is never part of a
//!   proof unchecked.
//!
//! Outside `full_width` mode the attacker's moves are narrowed to points within two steps of a
//! stone. Narrowing makes a proof harder, never wrong, but then a failed search proves nothing:
//! only `win` and `loss` are reported. With `full_width` both sides consider every legal move,
//! so a disproof is exact, and a draw is shown by disproving a win for each side in turn.
//!
//! Two searches run, one for each side's win (in turns on one thread, side by side on more).
//! [`SolveOptions::attacker`] runs only the one for that side's win, with every thread and the
//! memory it has beside the other (half the bound): a proof it finds is the same proof, read out the same way, and the one
//! thing lost is the chance to prove the other side's win, which then stays `unknown`.
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
//!
//! An attacker-only search that a limit stops can keep its table and the proofs it keeps to
//! lend ([`SolveOptions::keep_state`], [`SearchState`]), and a later search of the same
//! position goes on from them ([`SolveOptions::resume`]). The state only steers, as the guide
//! does: the proof is read out by the rules (`docs/search-state.md`).

mod answer;
mod evaluate;
mod expand;
mod extract;
mod leaves;
mod prover;
mod search;
mod state;
mod table;
#[cfg(test)]
mod tests;

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, AtomicUsize};
use std::time::Duration;

use serde::Serialize;

use crate::dfpn::{INF, Sum};
use crate::rules::{Board, Color, Point};
use crate::threat::{Limits, ProofTree, VcfTable, VctTable};
use table::Table;

pub use crate::proof::{Proof, ProofNode};
pub use answer::solve;
pub use state::{SearchState, StateError, StateHeader};

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
    /// Positions proved elsewhere (a book's database), which the search takes as settled
    /// below the root: a guide, never a proof. The proof read out of a search is built
    /// without its word: where it stood in, the guide's own proof of the position
    /// ([`Known::with_proofs`]) is taken in once the rules replay it on the board, and failing
    /// that the position is searched again, so a wrong guide costs nodes and never makes a
    /// wrong result. Ignored with `full_width`, where a draw is concluded from two
    /// disproofs, which leave no proof to read out.
    pub known: Option<Known>,
    /// Search for this side's win only, not for the other's: for positions whose winner is
    /// expected (a book's leaves, an opening's replies), where the other search's nodes are
    /// spent for nothing. The answer is a win or a loss with its proof when this side's win
    /// is found; anything else is `unknown`, since a win of the other side is not looked for.
    /// Ignored with `full_width`, whose draws need both searches.
    pub attacker: Option<Color>,
    /// A search to go on with ([`SearchState`], read from a file): its table is loaded before
    /// the search starts. Only for the search it fits ([`SearchState::fits`]); otherwise
    /// ignored. Sound whatever the table holds: it steers the search, and the proof is read
    /// out by the rules.
    pub resume: Option<Arc<SearchState>>,
    /// Keep the search's table in [`Solution::state`] when an attacker-only search stops at a
    /// limit, to go on with later.
    pub keep_state: bool,
}

/// A guide for the search: the side a position is proved won for elsewhere, if it is known,
/// and, where it can give one, that proof (see [`SolveOptions::known`]).
#[derive(Clone)]
pub struct Known {
    winner: Arc<WinnerOf>,
    proof: Option<Arc<ProofOf>>,
}

/// What a [`Known`] guide asks of a position: the side it is proved won for, if known.
pub type WinnerOf = dyn Fn(&Board) -> Option<Color> + Send + Sync;

/// What a [`Known`] guide may also give: a position's proof, in the board's orientation.
pub type ProofOf = dyn Fn(&Board) -> Option<Proof> + Send + Sync;

impl Known {
    /// A guide that gives the winner of the positions it knows, and no proofs.
    pub fn new(winner: impl Fn(&Board) -> Option<Color> + Send + Sync + 'static) -> Known {
        Known {
            winner: Arc::new(winner),
            proof: None,
        }
    }

    /// The same guide, giving the proofs of the positions it knows too: where the guide stood
    /// in for a search, the proof read out takes the guide's proof of the position (once it
    /// is seen to hold on the board) instead of searching the position again.
    #[must_use]
    pub fn with_proofs(
        self,
        proof: impl Fn(&Board) -> Option<Proof> + Send + Sync + 'static,
    ) -> Known {
        Known {
            proof: Some(Arc::new(proof)),
            ..self
        }
    }

    /// The side `board`'s position is proved won for, if the guide knows.
    #[must_use]
    pub fn winner(&self, board: &Board) -> Option<Color> {
        (self.winner)(board)
    }

    /// The guide's proof of `board`'s position, in `board`'s orientation, if it gives one.
    #[must_use]
    pub fn proof(&self, board: &Board) -> Option<Proof> {
        self.proof.as_ref().and_then(|proof| proof(board))
    }
}

impl std::fmt::Debug for Known {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Known(..)")
    }
}

/// The VCT budget per attacker node when none is given.
pub const DEFAULT_VCT_NODES: u64 = 1000;
/// Each round, the root's VCT gets this many times the proof search's slice of nodes: on a
/// position won by threats alone most of the work is then the VCT itself.
const ROOT_VCT_SHARE: u64 = 4;
/// Defender nodes within this many plies of the root look for the attacker's VCT after a
/// pass, with [`PASS_SHARE_NEAR_ROOT`] times the leaf budget; deeper ones do not look for it
/// at all. Against eight plies with the leaf budget deeper down, Kagetsu's 14 ring-2 replies
/// both prove take 28% fewer nodes (`BENCHMARKS.md`).
const NEAR_ROOT_PLIES: usize = 6;
/// See [`NEAR_ROOT_PLIES`].
const PASS_SHARE_NEAR_ROOT: u64 = 16;
/// A proved reply whose proof is a subtree of the table, not one VCT, lends it to its
/// siblings only if it has at most this many nodes (on Kagetsu's White 4th moves three points
/// from the stones, 25 of 28 proved within 40M nodes against 24, in 22% fewer nodes on the 24;
/// `BENCHMARKS.md`).
const LENT_SUBTREE_NODES: usize = 1000;
/// A VCT leaf counts a move as a threat only if its certificate has at most this many fours.
const VCT_THREAT_FOURS: u32 = 3;
/// The ε of the 1+ε trick, as 1/ε, in the proof search and in the VCTs it tries below the
/// root (the leaves' and the pass VCTs, most of them within small budgets): an eighth, where
/// the threat search's own default is a quarter. Searches that turn to a sibling sooner take
/// less than half the nodes on Kagetsu's far replies, and about a quarter fewer on its replies
/// at distance 3 and 4. The root's VCT rounds keep a quarter, as `renju vct` does: long VCTs
/// do better with it (`BENCHMARKS.md`).
const SOLVE_ONE_OVER_EPSILON: u32 = 8;
/// Beside the root's VCT, a narrow one: a move counts as a threat only if its certificate
/// has this many fours at most, and the lines are bounded in depth, deepened in turn (see
/// [`NarrowVct`]).
const NARROW_THREAT_FOURS: u32 = 1;
/// The narrow VCT's first depth bound (attacker moves, the five included), its step, and its
/// last: past it, only the root's own VCT goes on.
const NARROW_DEPTHS: (u32, u32, u32) = (4, 2, 10);
/// Of each round of the root's VCT, the narrow one gets this fraction (one in so many
/// nodes), while it runs.
const NARROW_SHARE: u64 = 2;
/// The narrow VCT starts once the root's own VCT rounds have searched this many nodes: the
/// positions that VCT answers sooner pay nothing for it (`BENCHMARKS.md`).
const NARROW_AFTER: u64 = 4_000_000;

/// A proof or disproof number at or above this is infinite: the node is settled.
pub const INFINITE: u32 = INF;

/// The longest round, in nodes of the main thread.
const MAX_SLICE: u64 = 1 << 22;
/// How often the two searches running side by side report progress.
const PROGRESS_EVERY: Duration = Duration::from_millis(100);

/// The table bound when none is given, in MiB. A bound, not an allocation: the tables grow as
/// a search fills them, so a short search takes what it needs, and a long one forgets less of
/// its threat searches (`BENCHMARKS.md` has what 1024 and 4096 prove).
pub const DEFAULT_MEMORY_MB: u64 = 4096;

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

impl Solution {
    /// Whether the answer is `unknown` because the search ended before its limits: its
    /// narrowed moves (not [`SolveOptions::full_width`]) hold no win for the side or sides it
    /// looked for. Nothing is proved, but a search with a larger budget alone (and the same
    /// guide) would end the same way.
    #[must_use]
    pub fn narrowed_out(&self) -> bool {
        self.verdict == Verdict::Unknown
            && self
                .note
                .is_some_and(|n| n == answer::NARROWED_OUT || n == answer::NEITHER_FOUND)
    }
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
    /// For an `unknown` answer, where the search was working when it stopped: its
    /// most-proving line, from the root (at the attacker's nodes the move of least proof
    /// number, at the defender's the reply of least disproof number), as far as the table
    /// holds it. Of the side to move's search, or the other side's when that one's root
    /// proof number is smaller; under [`SolveOptions::attacker`], the attacker's. Empty
    /// otherwise.
    pub most_proving: Vec<Point>,
    /// Nodes searched (df-pn nodes and VCF nodes).
    pub nodes: u64,
    /// Entries left in the transposition tables.
    pub tt_entries: usize,
    /// The proof, for a win or a loss.
    pub proof: Option<Proof>,
    /// Why the answer is `unknown`, when it is.
    pub note: Option<&'static str>,
    /// With [`SolveOptions::keep_state`], the state of an attacker-only search that a limit
    /// stopped, to go on with later.
    pub state: Option<SearchState>,
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
/// The most-proving line an unknown answer gives is cut off after this many moves.
const MOST_PROVING_PLIES: usize = 60;
/// The attacker's move before an AND node without a certificate is tried as a threat (a VCT
/// after a pass) only if the lines through it held at least this many attacker stones, each
/// line counted up to 2 (the most in a five-point stretch free of defender stones).
const PASS_VCT_LEVEL: u32 = 2;

#[derive(Clone, Debug)]
struct Entry {
    pn: u32,
    dn: u32,
    /// Nodes searched below the node over all its visits (saturating; with helper threads, a
    /// lower bound): what dropping the entry would throw away. A full table drops the
    /// estimates of least work first.
    work: u32,
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
        work: 0,
        moves: None,
    };
    /// A node disproved without moves to keep.
    const DISPROVED: Entry = Entry {
        pn: INF,
        dn: 0,
        work: 0,
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
    root_vct_tree: Option<ProofTree>,
    /// The narrow VCT beside the root's, while it runs.
    root_narrow: Option<NarrowVct>,
    /// Nodes the root's own VCT rounds have searched.
    root_vct_nodes: u64,
    /// The table every VCT search below the root starts from and leaves its entries in: a
    /// proved or disproved entry is a fact about its position, whichever search stored it, so
    /// a leaf search reuses what earlier ones found on the positions their threats share.
    leaf_vct: VctTable,
    /// The transposition table, shared with the helpers.
    table: Arc<Table>,
    /// Entries the root's VCT table may keep.
    root_vct_entries: usize,
    /// Entries `leaf_vct` may keep (the same for every worker).
    leaf_vct_entries: usize,
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
    /// The guide the search takes settled positions from ([`SolveOptions::known`]); `None`
    /// while a proof is read out.
    known: Option<&'a Known>,
    /// Nodes searched by both searches, all threads: what `--nodes` bounds.
    searched: Arc<AtomicU64>,
    /// Bytes of each thread's VCF table.
    vcf_bytes: usize,
    /// Threads the other search, running side by side, is done with (main worker only).
    spare: Option<Arc<AtomicUsize>>,
}

/// The root's narrow VCT: threats whose certificates have at most [`NARROW_THREAT_FOURS`]
/// fours, lines of at most `depth` attacker moves. A win it finds is a VCT of the root's
/// own search too (its threats are among those, and a line within the bound is a line), so
/// it proves the root the same way; it costs a share of the root's VCT rounds and prunes
/// nothing. Where the threats that win are few and their lines short, the bounded search
/// finds them long before the unbounded one, which wanders down long lines first
/// (`bench_vct_unstable`: one four and 10 attacker moves, 12.3M nodes; the root's own search
/// is still open after 75M).
struct NarrowVct {
    /// The depth bound of the search under way.
    depth: u32,
    /// Its table: entries are keyed by the depth left, but say nothing for another
    /// threat bound, so the table is the narrow search's own.
    table: VctTable,
}

/// Whether a node's numbers settle it: `Some(true)` proved, `Some(false)` disproved.
fn settled(pn: u32, dn: u32) -> Option<bool> {
    match (pn, dn) {
        (0, _) => Some(true),
        (_, 0) => Some(false),
        _ => None,
    }
}
