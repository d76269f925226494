//! VCT (victory by continuous threats): proof-number search over threat space.
//!
//! The attacker's moves are threats: fours, and moves after which the attacker would have a
//! VCF if the defender passed (the VCF is the threat's certificate). The defender's reply to a
//! four is forced (under caro, every stone that stops it is a reply: a caro five also fails when
//! both its ends are the opponent's). To any other threat the defender may reply anywhere, and
//! the search considers every reply that could stop the certificate:
//!
//! - every move inside the certificate's *zone*: the points within reach of every point whose
//!   surroundings the rules code read while replaying the certificate (its moves, forced
//!   replies, five points, and every point a forbidden-move test looked at, recursively);
//! - every move that makes a four for the defender (a counter-four, which must be answered).
//!
//! A reply outside the zone that makes no four cannot change any answer the replay depended on,
//! so the certificate still wins after it: such replies are skipped on that argument. Under the
//! rules with five-point pattern tables the zone narrows to the certificate's *sensitive points*
//! (see [`super::zone::sensitive_points`]): a defender stone changes an attacker's four only by
//! standing on a five point, and a counter-four only where a line through a forced reply
//! already holds two defender stones. Inside, a reply is skipped only when the certificate,
//! replayed with that stone on the board, still wins. The remaining replies are searched.
//!
//! The search is depth-first proof-number search (df-pn) with the 1+ε threshold trick and a
//! transposition table keyed by Zobrist hashes (and by the remaining depth, when it is bounded).
//! A position where the attacker has a VCF is proved at once, and a threat after which the
//! defender has a VCF of its own fails. `win` is a proof; `no-win` means the threat space
//! (within the depth limit) holds no win; a stop gives `unknown`, and so does a failure under
//! caro, whose VCF sub-searches are not exhaustive.

mod expand;
mod read_out;
mod search;
mod table;
#[cfg(test)]
mod tests;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use crate::dfpn::INF;
use crate::rules::{Board, Color, Point, Rule};

use super::vcf::{UNLIMITED, VcfTable};
use super::{Limits, Outcome, Report, mebibytes};

use super::tree::ProofTree;
use table::EntryTable;
/// Options of a VCT search.
#[derive(Clone, Debug, Default)]
pub struct VctOptions {
    /// At most this many attacker moves before the final five (threats and fours).
    pub max_depth: Option<u32>,
    /// A move counts as a threat only if its certificate VCF has at most this many fours.
    pub threat_fours: Option<u32>,
    /// When to stop.
    pub limits: Limits,
    /// Entries the transposition table keeps before it makes room (see [`make_room`]), per
    /// thread; when given, it overrides `memory_mb` for this table.
    pub table_entries: Option<usize>,
    /// Bound on the search tables, in MiB, shared equally by the searches of all threads:
    /// three quarters for each search's VCT table, a quarter for its VCF table. By default
    /// each search keeps up to 4M VCT entries and 8M VCF entries (about 1 GB at most).
    pub memory_mb: Option<u64>,
    /// Threads (default 1). One thread is deterministic: the same nodes and line on every
    /// run. More threads run narrower searches beside the asked one (see [`vct`]): the result
    /// is the same (a win, no win, or unknown at a limit), the line and node count may differ.
    /// Each thread's search has the whole node budget of `limits` and its own tables.
    pub threads: Option<usize>,
    /// The ε of the search's 1+ε trick, as 1/ε (default 4, a quarter). A smaller ε turns to
    /// a sibling sooner: broader, which pays within the small budgets of the VCTs `solve`
    /// tries below its root, and costs on long searches (`BENCHMARKS.md`). It changes only
    /// the order of the search, never a result.
    pub one_over_epsilon: Option<u32>,
    /// A counter each search adds its nodes to as it goes (every few thousand, and the rest at
    /// its end), for a progress display: at the end it holds the report's node count.
    pub progress: Option<Arc<AtomicU64>>,
    /// Rebuild a win's proof tree from the table and return it in the proof format
    /// ([`Report::proof`]), for the independent checker. A proof the table lost is searched
    /// again within the same limits; if that is cut short, the answer is `unknown`. The
    /// rebuild costs a few thousand nodes, counted in the report.
    pub proof: bool,
}

/// Nodes a search counts before it adds them to [`VctOptions::progress`].
const PROGRESS_EVERY: u64 = 4096;

/// With more threads, the narrower searches beside the asked one bound their certificates at
/// 1 to this many fours.
const NARROWEST: u32 = 4;
/// Entries kept by default before the table makes room.
const TABLE_CAP: usize = 4 << 20;
/// Estimated bytes a VCT table entry takes at most: its slot (32 bytes, in a table at most half
/// full, so 64), the slots of a table just doubled, and its move list. Set when a general hash
/// map held the entries, which took more (4M entries, about 650 MB on `bench_vct_unstable`).
const ENTRY_BYTES: usize = 192;
/// The defender's own VCFs are looked for up to this many fours. They only prune (a threat
/// the defender can answer with a VCF fails; an attack that leaves a defender VCF standing is
/// not tried), so any bound is sound; short ones are cheap and catch most.
const DEFENDER_FOURS: u32 = 2;

impl VctOptions {
    /// The entries one search's VCT table keeps before it makes room.
    fn table_cap(&self) -> usize {
        self.table_entries.unwrap_or_else(|| {
            self.memory_mb.map_or(TABLE_CAP, |mb| {
                (mebibytes(mb) / 4 * 3 / ENTRY_BYTES).max(1024)
            })
        })
    }

    /// A VCF table for one search.
    fn vcf_table(&self) -> VcfTable {
        self.memory_mb.map_or_else(VcfTable::default, |mb| {
            VcfTable::within_bytes(mebibytes(mb) / 4)
        })
    }
}

/// A move of a node with the proof number its child starts with, before it is searched: an
/// estimate of how hard it is to prove (see [`attack_estimate`]). Every child starts with
/// disproof number 1. Nodes keep their moves in the table, so a move is kept small.
#[derive(Clone, Copy, Debug)]
struct Move {
    point: Point,
    pn: u8,
}

/// A node's moves as the table keeps them: one shared allocation behind a thin pointer, so that
/// a table entry stays small (see [`table`]).
#[derive(Clone, Debug)]
struct Moves(triomphe::ThinArc<(), Move>);

impl From<Vec<Move>> for Moves {
    fn from(moves: Vec<Move>) -> Moves {
        Moves(triomphe::ThinArc::from_header_and_slice((), &moves))
    }
}

impl std::ops::Deref for Moves {
    type Target = [Move];

    fn deref(&self) -> &[Move] {
        &self.0.slice
    }
}

/// A table entry. Both numbers 0, which no node has, is the table's empty slot.
#[derive(Clone, Debug, Default)]
struct Entry {
    pn: u32,
    dn: u32,
    /// For a proved node: attacker moves (before the five) it takes to win from here against
    /// the longest defence the proof covers.
    len: u32,
    /// For a threat's AND node: the length of its certificate, which covers every reply not
    /// searched explicitly.
    certificate_len: u32,
    /// The node's moves, once generated.
    moves: Option<Moves>,
}

impl Entry {
    /// A node proved on evaluation, in `len` attacker moves.
    fn proved(len: u32) -> Entry {
        Entry {
            pn: 0,
            dn: INF,
            len,
            certificate_len: 0,
            moves: None,
        }
    }
}

/// What generating a node's moves found.
enum Expansion {
    /// Won, in this many attacker moves (before the five).
    Proved(u32),
    Disproved,
    /// Children to search; for a threat, with the length of its certificate.
    Moves(Vec<Move>, u32),
}

struct Search<'a> {
    board: Board,
    attacker: Color,
    defender: Color,
    options: &'a VctOptions,
    table: EntryTable,
    /// Entries `table` keeps before it makes room.
    table_cap: usize,
    vcf_table: &'a mut VcfTable,
    /// The children's keys and (pn, dn, len) of the nodes on the path, each node's above its
    /// parent's (see [`Search::mid`]).
    children: Vec<(u64, (u32, u32, u32))>,
    nodes: u64,
    /// The part of `nodes` added to the options' progress counter.
    published: u64,
    stopped: bool,
}

/// Searches for a VCT for `attacker` in `board`. If `attacker` is not the side to move, the
/// defender is taken to pass first.
///
/// With [`VctOptions::threads`] above 1, the other threads search the same position with
/// narrower threats: `--threat-fours` 1, then 2, and so on up to 4 and below the asked bound
/// (dealt out among them; more threads than that are not used), each within the same depth. Any win they find is a win of the asked search
/// too: a threat whose certificate has at most k fours has at most the asked number, and the
/// defender replies each skips are refuted by its own certificate. Their failures prove
/// nothing for the asked search, so only its own exhaustion is `no-win`. The first win, or
/// the asked search's end, calls the others off. Most VCTs need only short certificates, and
/// the narrow searches are much smaller where they succeed (`BENCHMARKS.md` has the numbers).
#[must_use]
pub fn vct(board: &Board, attacker: Color, options: &VctOptions) -> Report {
    let mut board = board.clone();
    board.set_to_move(attacker);
    if let Some(report) = super::decided(&board, attacker) {
        return report;
    }
    let threads = options.threads.unwrap_or(1).max(1);
    let asked = options.threat_fours.unwrap_or(UNLIMITED);
    // Certificates longer than the depth left are never asked for, so bounds from the depth
    // up are all the asked search; and bounds above NARROWEST are nearly the asked search.
    let widest = asked
        .min(options.max_depth.unwrap_or(UNLIMITED))
        .min(NARROWEST + 1);
    let narrow = (threads - 1).min(widest.saturating_sub(1) as usize) as u32;
    if narrow == 0 {
        return search_one(&board, attacker, options);
    }
    let over = Arc::new(AtomicBool::new(false));
    let with_stop = |threat_fours: u32| {
        let mut options = options.clone();
        options.threat_fours = (threat_fours != UNLIMITED).then_some(threat_fours);
        options.threads = Some(1);
        options.memory_mb = options
            .memory_mb
            .map(|mb| super::memory_share(mb, narrow as usize + 1));
        options.limits.called_off = Some(over.clone());
        options
    };
    let reports: Vec<Report> = std::thread::scope(|scope| {
        let helpers: Vec<_> = (1..=narrow)
            .map(|first| {
                let (board, over) = (&board, &over);
                scope.spawn(move || {
                    let mut nodes = 0;
                    let mut won = None;
                    let mut tf = first;
                    while tf < widest && !over.load(Ordering::Relaxed) {
                        let report = search_one(board, attacker, &with_stop(tf));
                        nodes += report.nodes;
                        if matches!(report.outcome, Outcome::Win(_)) {
                            over.store(true, Ordering::Relaxed);
                            won = Some(report);
                            break;
                        }
                        tf += narrow;
                    }
                    let won = won.unwrap_or(Report {
                        outcome: Outcome::Unknown,
                        nodes: 0,
                        proof: None,
                    });
                    Report { nodes, ..won }
                })
            })
            .collect();
        let main = search_one(&board, attacker, &with_stop(asked));
        let settled = !matches!(main.outcome, Outcome::Unknown);
        over.store(true, Ordering::Relaxed);
        let mut reports = vec![main];
        reports.extend(helpers.into_iter().map(|h| h.join().expect("a VCT thread")));
        // The asked search answers when it settled first; else the first helper's win.
        if !settled {
            let win = reports
                .iter()
                .position(|r| matches!(r.outcome, Outcome::Win(_)));
            if let Some(i) = win {
                reports.swap(0, i);
            }
        }
        reports
    });
    let nodes = reports.iter().map(|r| r.nodes).sum();
    let first = reports
        .into_iter()
        .next()
        .expect("the asked search's report");
    Report { nodes, ..first }
}

/// One search on one thread.
fn search_one(board: &Board, attacker: Color, options: &VctOptions) -> Report {
    let mut vcf_table = options.vcf_table();
    let mut search = Search::new(board.clone(), attacker, options, &mut vcf_table);
    let depth = options.max_depth;
    let (pn, dn) = search.mid(depth, INF - 1, INF - 1);
    let mut proof = None;
    let outcome = if search.stopped {
        Outcome::Unknown
    } else if pn == 0 {
        let tree = if options.proof {
            let (mut nodes, mut ids) = (Vec::new(), std::collections::HashMap::new());
            search
                .tree_node(depth, &mut nodes, &mut ids)
                .map(|root| Some(ProofTree { root, nodes }))
        } else {
            Ok(None)
        };
        match (tree, search.principal_line(depth)) {
            (Ok(tree), Ok(line)) => {
                proof = tree.map(|t| t.written(board, attacker));
                Outcome::Win(line)
            }
            _ => Outcome::Unknown,
        }
    } else if dn == 0 && search.board.rules().rule() != Rule::Caro {
        Outcome::NoWin
    } else {
        // Caro threat search answers fours in fewer ways than caro allows (see the VCF
        // search), so its failures prove nothing.
        Outcome::Unknown
    };
    search.publish();
    Report {
        outcome,
        nodes: search.nodes,
        proof,
    }
}

/// What [`prove`] found.
pub(crate) struct Proved {
    /// The attacker has a VCT (within the options' limits).
    pub(crate) won: bool,
    /// Its proof tree, when one was asked for and could be rebuilt within the limits.
    pub(crate) tree: Option<ProofTree>,
    /// The threat space was searched to the end and holds no win.
    pub(crate) exhausted: bool,
    /// Nodes searched, VCF nodes included.
    pub(crate) nodes: u64,
}

/// The table of a VCT search that a caller keeps between calls of [`prove`] on one position,
/// so that a call with a larger budget goes on from where the last one stopped.
#[derive(Default)]
pub(crate) struct VctTable(EntryTable);

impl VctTable {
    /// The numbers the table holds for the position after the attacker (to move on `board`)
    /// plays `p`, in a search with no depth bound: the defender's node there.
    pub(crate) fn numbers_after(&self, board: &Board, p: Point) -> Option<(u32, u32)> {
        let key = board.hash_after(p) ^ depth_key(None);
        self.0.get(key).map(|e| (e.pn, e.dn))
    }
}

#[cfg(test)]
impl VctTable {
    /// Keeps only the entry of `board`'s position (its side to move the attacker, no depth
    /// bound): a proved root whose entries below were dropped.
    pub(crate) fn keep_only(&mut self, board: &Board) {
        let key = board.hash() ^ depth_key(None);
        self.0.retain(|k, _| k == key);
    }

    /// The number of entries.
    pub(crate) fn len(&self) -> usize {
        self.0.len()
    }
}

/// A VCT search for `attacker`, to move on `board` with no five on it, as a leaf evaluator for
/// another search: VCF failures go to (and come from) the caller's `vcf_table`, and with `tree`
/// the proof is rebuilt from the search's table. The search starts from `table` and leaves its
/// table there: a fresh one searches from scratch; the one a stopped search on the same
/// `board` left resumes it (its proved and disproved entries stay true, the others are
/// estimates).
pub(crate) fn prove(
    board: &Board,
    attacker: Color,
    options: &VctOptions,
    vcf_table: &mut VcfTable,
    table: &mut VctTable,
    tree: bool,
) -> Proved {
    let mut board = board.clone();
    board.set_to_move(attacker);
    let mut search = Search::new(board, attacker, options, vcf_table);
    search.table = std::mem::take(&mut table.0);
    search.table.set_cap(search.table_cap);
    let depth = options.max_depth;
    let (pn, dn) = search.mid(depth, INF - 1, INF - 1);
    let won = pn == 0 && !search.stopped;
    let exhausted = dn == 0 && !search.stopped;
    let tree = if won && tree {
        let mut nodes = Vec::new();
        let mut ids = std::collections::HashMap::new();
        search
            .tree_node(depth, &mut nodes, &mut ids)
            .ok()
            .map(|root| ProofTree { root, nodes })
    } else {
        None
    };
    table.0 = std::mem::take(&mut search.table);
    search.publish();
    Proved {
        won,
        tree,
        exhausted,
        nodes: search.nodes,
    }
}

/// Makes room in a full table (`cap` entries): drops the open entries, whose numbers are only
/// estimates a later visit recomputes, and keeps the proved and disproved ones, which are
/// facts. If the facts alone fill more than half the table, it is cleared.
fn make_room(table: &mut EntryTable, cap: usize) {
    table.retain(|_, e| e.pn == 0 || e.dn == 0);
    if table.len() > cap / 2 {
        table.clear();
    }
}

/// A key for the remaining depth, mixed into the table key when the depth is bounded.
fn depth_key(depth: Option<u32>) -> u64 {
    depth.map_or(0, |d| {
        (u64::from(d) + 1)
            .wrapping_mul(0x9E37_79B9_7F4A_7C15)
            .rotate_left(17)
    })
}
