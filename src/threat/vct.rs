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

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use crate::dfpn::{INF, Sum, child_thresholds, combine};
use crate::rules::{Board, Color, Defence, MAX_SIDE, Point, Rule};

use super::vcf::{
    Stopped, UNLIMITED, VcfSearch, VcfTable, as_played, block_forbidden, finish, replay,
};
use super::zone::{PointSet, breaking_replies, still_wins, zone_of};
use super::{Ending, Limits, Line, Outcome, Report, mebibytes};

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
    /// A counter each search adds its nodes to as it goes (every few thousand, and the rest at
    /// its end), for a progress display: at the end it holds the report's node count.
    pub progress: Option<Arc<AtomicU64>>,
}

/// Nodes a search counts before it adds them to [`VctOptions::progress`].
const PROGRESS_EVERY: u64 = 4096;

/// With more threads, the narrower searches beside the asked one bound their certificates at
/// 1 to this many fours.
const NARROWEST: u32 = 4;
/// Entries kept by default before the table makes room.
const TABLE_CAP: usize = 4 << 20;
/// Estimated bytes a VCT table entry takes at most: its bucket (key, numbers, move-list handle
/// and control byte) in a table that has just doubled, and its move list. Measured: 4M entries
/// take about 650 MB on `bench_vct_unstable`.
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

type Moves = std::sync::Arc<[Move]>;

#[derive(Clone, Debug)]
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

/// Starting proof number of a four (see [`attack_estimate`]).
const FOUR_PN: u8 = 2;
/// Starting proof number of a three.
const THREE_PN: u8 = 3;
/// Starting proof number of any other attacker move.
const QUIET_PN: u8 = 20;

/// Starting proof number of an attacker move: a four leaves one reply but wins nothing by
/// itself, a three leaves a handful, and a quiet move that may hide a VCF is seldom a threat
/// at all. Tuned on the quintet benches (node counts in `BENCHMARKS.md`). `level` is the most
/// own stones in a clear five-point stretch through `p`: a four needs 3, a three 2.
fn attack_estimate(board: &Board, p: Point, attacker: Color, level: u32) -> u8 {
    if level < 2 {
        return QUIET_PN;
    }
    match board.four_and_three(p, attacker) {
        (true, _) if level >= 3 => FOUR_PN,
        (_, true) => THREE_PN,
        _ => QUIET_PN,
    }
}

/// An attacker's threat candidate: an empty point, its level (see [`attack_estimate`]), and
/// whether a black stone there could be forbidden at all.
#[derive(Clone, Copy, Debug)]
struct Candidate {
    point: Point,
    level: u32,
    /// A forbidden point needs a line of level 3 (an overline or a four holds three own stones
    /// in a clear five-point stretch with it) or two lines of level 2 or more (a double three:
    /// each three holds two). Points with neither are legal for Black without a test.
    may_be_forbidden: bool,
}

/// The attacker's threat candidates: empty points with two or more own stones in one clear
/// five-point stretch, or with own stones in clear stretches of two different lines. Every
/// move that makes a four or a three is one. In point order (file by file).
fn threat_candidates(board: &Board, attacker: Color) -> Vec<Candidate> {
    let support = board.lines().support(attacker);
    let [one, two, three] = &support.once;
    let mut list = Vec::with_capacity(64);
    for x in 0..MAX_SIDE as usize {
        let mut ranks = two[x] | support.twice[0][x];
        while ranks != 0 {
            let y = ranks.trailing_zeros();
            ranks &= ranks - 1;
            let has = |set: &[u32; MAX_SIDE as usize]| set[x] >> y & 1 != 0;
            debug_assert!(has(one));
            let level = 1 + u32::from(has(two)) + u32::from(has(three));
            list.push(Candidate {
                point: Point::new(x as u8, y as u8),
                level,
                may_be_forbidden: level >= 3 || has(&support.twice[1]),
            });
        }
    }
    list
}

struct Search<'a> {
    board: Board,
    attacker: Color,
    defender: Color,
    options: &'a VctOptions,
    table: super::ZobristMap<Entry>,
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
                            won = Some(report.outcome);
                            break;
                        }
                        tf += narrow;
                    }
                    Report {
                        outcome: won.unwrap_or(Outcome::Unknown),
                        nodes,
                    }
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
    Report {
        nodes: reports.iter().map(|r| r.nodes).sum(),
        outcome: reports
            .into_iter()
            .next()
            .map_or(Outcome::Unknown, |r| r.outcome),
    }
}

/// One search on one thread.
fn search_one(board: &Board, attacker: Color, options: &VctOptions) -> Report {
    let mut vcf_table = options.vcf_table();
    let mut search = Search::new(board.clone(), attacker, options, &mut vcf_table);
    let depth = options.max_depth;
    let (pn, dn) = search.mid(depth, INF - 1, INF - 1);
    let outcome = if search.stopped {
        Outcome::Unknown
    } else if pn == 0 {
        match search.principal_line(depth) {
            Ok(line) => Outcome::Win(line),
            Err(Stopped) => Outcome::Unknown,
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
    }
}

/// A VCT proof in the shape of `solve`'s proofs: a DAG of nodes that refer to each other by
/// index. Every attacker move is a threat or a four; at every defender node, the replies not
/// listed lose to the certificate (after a four, the certificate is the five).
#[derive(Clone, Debug)]
pub(crate) struct VctTree {
    /// Index of the root, an attacker node.
    pub(crate) root: usize,
    /// The nodes.
    pub(crate) nodes: Vec<VctNode>,
}

/// A node of a [`VctTree`].
#[derive(Clone, Debug)]
pub(crate) enum VctNode {
    /// The attacker plays `play`, leading to `child`.
    Move { play: Point, child: usize },
    /// The attacker wins by this VCF (a five to play is a VCF of no fours).
    Vcf(Line),
    /// The defender is to move: the certificate beats every reply not listed.
    Replies {
        certificate: Line,
        replies: Vec<(Point, usize)>,
    },
}

impl VctTree {
    /// The same tree with every point mapped by `f` (a symmetry of the board).
    pub(crate) fn map(&self, f: impl Fn(Point) -> Point) -> VctTree {
        let line = |l: &Line| Line {
            moves: l.moves.iter().map(|&p| f(p)).collect(),
            ending: l.ending,
        };
        let nodes = self
            .nodes
            .iter()
            .map(|n| match n {
                VctNode::Move { play, child } => VctNode::Move {
                    play: f(*play),
                    child: *child,
                },
                VctNode::Vcf(l) => VctNode::Vcf(line(l)),
                VctNode::Replies {
                    certificate,
                    replies,
                } => VctNode::Replies {
                    certificate: line(certificate),
                    replies: replies.iter().map(|&(r, c)| (f(r), c)).collect(),
                },
            })
            .collect();
        VctTree {
            root: self.root,
            nodes,
        }
    }

    /// The tree as played on `board` (attacker to move), where it [holds](Self::holds): every
    /// VCF and certificate line with the defender replies the rules force there, and at every
    /// defender node only the listed replies that break the certificate on this board. A tree
    /// that holds on a similar board (simulation) was found on another one: its lines may list
    /// that board's forced replies, and its defender nodes replies that broke the certificate
    /// there and do not here. `holds` rightly passes over those (the certificate beats them),
    /// so their subtrees are unchecked; a proof written out must show the moves played and
    /// nothing unchecked. Nodes no longer reached are dropped. `None` if a move of the tree is
    /// not on an empty point of `board` (the tree does not hold there).
    pub(crate) fn as_played(&self, board: &mut Board, attacker: Color) -> Option<VctTree> {
        let mut played = VctTree {
            root: 0,
            nodes: Vec::new(),
        };
        let mut index = vec![None; self.nodes.len()];
        played.root = self.as_played_at(self.root, board, attacker, &mut played, &mut index)?;
        Some(played)
    }

    /// Adds node `node` as played on `board` to `played`, after its children (once: every path
    /// to a node plays the same moves from the same board, so reaches one position); returns
    /// its index there.
    fn as_played_at(
        &self,
        node: usize,
        board: &mut Board,
        attacker: Color,
        played: &mut VctTree,
        index: &mut [Option<usize>],
    ) -> Option<usize> {
        if let Some(i) = index[node] {
            return Some(i);
        }
        let defender = attacker.opponent();
        let mut child_of = |p: Point, child: usize, board: &mut Board| {
            if !board.is_empty(p) {
                return None;
            }
            board.play_unchecked(p);
            let child = self.as_played_at(child, board, attacker, played, index);
            board.undo();
            child
        };
        let made = match &self.nodes[node] {
            VctNode::Vcf(line) => {
                let threat = board.five_points(defender).first().copied();
                VctNode::Vcf(as_played(board, attacker, line, threat))
            }
            VctNode::Move { play, child } => VctNode::Move {
                play: *play,
                child: child_of(*play, *child, board)?,
            },
            VctNode::Replies {
                certificate,
                replies,
            } => {
                board.set_to_move(attacker);
                let certificate = as_played(board, attacker, certificate, None);
                board.set_to_move(defender);
                let breaking = breaking_replies(board, attacker, &certificate);
                let mut kept = Vec::new();
                for &(r, child) in replies {
                    if breaking.iter().any(|&(b, _)| b == r) {
                        kept.push((r, child_of(r, child, board)?));
                    }
                }
                VctNode::Replies {
                    certificate,
                    replies: kept,
                }
            }
        };
        let i = played.nodes.len();
        played.nodes.push(made);
        index[node] = Some(i);
        Some(i)
    }

    /// Whether the tree proves a win for `attacker`, to move on `board`. Every attacker move is
    /// replayed, and at every defender node the certificate must win after a pass and every
    /// reply that breaks it (by the rules, on this board) must be listed and proved: a proof
    /// found for one position can so be tried on a similar one (simulation).
    pub(crate) fn holds(&self, board: &mut Board, attacker: Color) -> bool {
        let mut seen = std::collections::HashSet::new();
        self.holds_at(self.root, board, attacker, &mut seen)
    }

    fn holds_at(
        &self,
        node: usize,
        board: &mut Board,
        attacker: Color,
        seen: &mut std::collections::HashSet<(usize, u64)>,
    ) -> bool {
        if seen.contains(&(node, board.hash())) {
            return true;
        }
        let defender = attacker.opponent();
        let threats = board.five_points(defender);
        let five_at =
            |board: &Board, p: Point| board.is_empty(p) && board.four_at(p, attacker).five;
        let holds = match &self.nodes[node] {
            VctNode::Vcf(line) => match line.moves.first() {
                None => false,
                Some(&first) if threats.len() >= 2 => five_at(board, first),
                Some(_) => replay(board, attacker, line, threats.first().copied(), &mut |_| {}),
            },
            VctNode::Move { play, child } => {
                let p = *play;
                if !board.is_legal_for(p, attacker) {
                    false
                } else if five_at(board, p) {
                    true
                } else if threats.len() >= 2 || threats.first().is_some_and(|&g| g != p) {
                    false
                } else {
                    board.play_unchecked(p);
                    let holds = self.holds_at(*child, board, attacker, seen);
                    board.undo();
                    holds
                }
            }
            VctNode::Replies {
                certificate,
                replies,
            } => {
                if !threats.is_empty() {
                    return false;
                }
                board.set_to_move(attacker);
                let wins = replay(board, attacker, certificate, None, &mut |_| {});
                board.set_to_move(defender);
                wins && breaking_replies(board, attacker, certificate)
                    .into_iter()
                    .all(|(r, _)| {
                        replies
                            .iter()
                            .find(|&&(q, _)| q == r)
                            .is_some_and(|&(_, child)| {
                                board.play_unchecked(r);
                                let holds = self.holds_at(child, board, attacker, seen);
                                board.undo();
                                holds
                            })
                    })
            }
        };
        if holds {
            seen.insert((node, board.hash()));
        }
        holds
    }
}

/// What [`prove`] found.
pub(crate) struct Proved {
    /// The attacker has a VCT (within the options' limits).
    pub(crate) won: bool,
    /// Its proof tree, when one was asked for and could be rebuilt within the limits.
    pub(crate) tree: Option<VctTree>,
    /// The threat space was searched to the end and holds no win.
    pub(crate) exhausted: bool,
    /// Nodes searched, VCF nodes included.
    pub(crate) nodes: u64,
}

/// The table of a VCT search that a caller keeps between calls of [`prove`] on one position,
/// so that a call with a larger budget goes on from where the last one stopped.
#[derive(Default)]
pub(crate) struct VctTable(super::ZobristMap<Entry>);

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
            .map(|root| VctTree { root, nodes })
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
fn make_room(table: &mut super::ZobristMap<Entry>, cap: usize) {
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

impl<'a> Search<'a> {
    /// A search on its own copy of the board, which keeps only the Zobrist key it reads.
    fn new(
        mut board: Board,
        attacker: Color,
        options: &'a VctOptions,
        vcf_table: &'a mut VcfTable,
    ) -> Search<'a> {
        board.keep_symmetric_keys(false);
        Search {
            board,
            attacker,
            defender: attacker.opponent(),
            options,
            table: super::ZobristMap::default(),
            table_cap: options.table_cap(),
            vcf_table,
            children: Vec::new(),
            nodes: 0,
            published: 0,
            stopped: false,
        }
    }

    /// Adds the nodes not yet counted to the options' progress counter, if any.
    fn publish(&mut self) {
        if let Some(progress) = &self.options.progress {
            progress.fetch_add(self.nodes - self.published, Ordering::Relaxed);
        }
        self.published = self.nodes;
    }

    fn is_or(&self) -> bool {
        self.board.to_move() == self.attacker
    }

    fn block_forbidden(&mut self, f: Point) -> bool {
        block_forbidden(&mut self.board, self.defender, f, &mut |_| {})
    }

    /// A VCF for `color` (the side to move is set for the search and restored).
    fn find_vcf(&mut self, color: Color, max_fours: u32) -> Result<Option<Line>, Stopped> {
        self.find_vcf_from(color, max_fours, None)
    }

    /// [`Search::find_vcf`] where the five points are known (see [`VcfSearch::run_from`]).
    fn find_vcf_from(
        &mut self,
        color: Color,
        max_fours: u32,
        fives: Option<Option<Point>>,
    ) -> Result<Option<Line>, Stopped> {
        let limits = &self.options.limits;
        let mut search = VcfSearch::new(&mut self.board, color, limits, self.vcf_table);
        let result = search.run_from(max_fours, fives);
        self.nodes += search.nodes;
        result.map(|(line, _)| line)
    }

    /// The zone a VCF `line` for `color` depends on, on the current board.
    fn zone_of(&mut self, color: Color, line: &Line) -> PointSet {
        zone_of(&mut self.board, color, line)
    }

    /// Generates the moves of an OR node (attacker to move) with `depth` attacker moves left.
    fn expand_or(&mut self, depth: Option<u32>) -> Result<Expansion, Stopped> {
        let threat = match self.settle_or(depth)? {
            Ok(settled) => return Ok(settled),
            Err(threat) => threat,
        };
        if let Some(g) = threat {
            // The defender's four must be answered at once.
            if !self.board.is_legal_for(g, self.attacker) {
                return Ok(Expansion::Disproved);
            }
            return Ok(Expansion::Moves(vec![Move { point: g, pn: 1 }], 0));
        }
        // Threat candidates: moves with two or more own stones in one clear five-point stretch,
        // or in stretches of two lines. Whether each is a threat is decided at its AND node.
        let mut points = threat_candidates(&self.board, self.attacker);
        points.retain(|c| !c.may_be_forbidden || self.board.is_legal_for(c.point, self.attacker));
        // If the defender could win by VCF were it to move, only fours and moves that can
        // break that VCF are worth trying: any other move lets it run.
        self.board.set_to_move(self.defender);
        // Neither side has a five point here.
        let defender_vcf = self.find_vcf_from(self.defender, DEFENDER_FOURS, Some(None));
        self.board.set_to_move(self.attacker);
        if let Some(line) = defender_vcf? {
            let zone = self.zone_of(self.defender, &line);
            points.retain(|c| {
                zone.contains(c.point)
                    || (c.level >= 3 && self.board.four_at(c.point, self.attacker).count > 0)
            });
        }
        // Fours, then threes, then quiet moves, each in point order (the candidates' order).
        let mut moves = Vec::with_capacity(points.len());
        let mut rest = Vec::with_capacity(points.len());
        for c in points {
            let pn = attack_estimate(&self.board, c.point, self.attacker, c.level);
            let m = Move { point: c.point, pn };
            match pn {
                FOUR_PN => moves.push(m),
                _ => rest.push(m),
            }
        }
        moves.extend(rest.iter().filter(|m| m.pn == THREE_PN));
        moves.extend(rest.iter().filter(|m| m.pn == QUIET_PN));
        debug_assert!(moves.is_sorted_by_key(|m| (m.pn, m.point)));
        Ok(Expansion::Moves(moves, 0))
    }

    /// The quick verdicts on an OR node (attacker to move) with `depth` attacker moves left: a
    /// five to play, two defender fives, no moves left, or a VCF. Without one, the defender's
    /// five point (there is at most one), which the attacker must take.
    fn settle_or(
        &mut self,
        depth: Option<u32>,
    ) -> Result<Result<Expansion, Option<Point>>, Stopped> {
        if !self.board.five_points(self.attacker).is_empty() {
            return Ok(Ok(Expansion::Proved(0)));
        }
        let threats = self.board.five_points(self.defender);
        if threats.len() >= 2 || depth == Some(0) {
            return Ok(Ok(Expansion::Disproved));
        }
        let threat = threats.first().copied();
        let max_fours = depth.unwrap_or(UNLIMITED);
        if let Some(line) = self.find_vcf_from(self.attacker, max_fours, Some(threat))? {
            return Ok(Ok(Expansion::Proved(line.fours() as u32)));
        }
        if depth == Some(1) {
            // One move left and no VCF of one four: a threat would need another move to win.
            return Ok(Ok(Expansion::Disproved));
        }
        Ok(Err(threat))
    }

    /// Generates the moves of an AND node (defender to move) with `depth` attacker moves left.
    fn expand_and(&mut self, depth: Option<u32>) -> Result<Expansion, Stopped> {
        let last = *self
            .board
            .moves()
            .last()
            .expect("an AND node follows an attacker move");
        match self.board.defence(last, self.attacker) {
            Defence::Unstoppable => return Ok(Expansion::Proved(0)),
            Defence::Forced(f) if self.block_forbidden(f) => return Ok(Expansion::Proved(0)),
            Defence::Forced(f) => {
                return Ok(Expansion::Moves(vec![Move { point: f, pn: 1 }], 0));
            }
            Defence::Choice(stops) => {
                // Caro: every stone that stops the four is a reply to search.
                let replies = stops.into_iter().map(|point| Move { point, pn: 1 });
                return Ok(Expansion::Moves(replies.collect(), 0));
            }
            Defence::NoFour => {}
        }
        // The attacker's move made no four, and the defender's five point, if it had one,
        // was the attacker's move: neither side has a five point.
        let Some(certificate) = self.certificate_from(depth, Some(None))? else {
            return Ok(Expansion::Disproved);
        };
        if self
            .find_vcf_from(self.defender, DEFENDER_FOURS, Some(None))?
            .is_some()
        {
            return Ok(Expansion::Disproved);
        }
        let mut replies = breaking_replies(&mut self.board, self.attacker, &certificate);
        let certificate_len = certificate.fours() as u32;
        if replies.is_empty() {
            return Ok(Expansion::Proved(certificate_len));
        }
        // Every reply starts with the same numbers, so the order is the order df-pn tries them
        // in: the strongest defences first, to refute a weak threat soon. The certificate's
        // first four point (the most direct block), then counter-fours, then the points on the
        // certificate in its order, then the rest. Tuned on the quintet cases (BENCHMARKS.md).
        let rank = |p: Point| {
            certificate
                .moves
                .iter()
                .position(|&m| m == p)
                .unwrap_or(usize::MAX)
        };
        replies.sort_by_key(|&(p, counter)| {
            let rank = rank(p);
            (rank != 0, !counter, rank, p)
        });
        let replies = replies.into_iter().map(|(point, _)| Move { point, pn: 1 });
        Ok(Expansion::Moves(replies.collect(), certificate_len))
    }

    /// The attacker's VCF if the defender passed here, within the threat and depth limits.
    fn certificate(&mut self, depth: Option<u32>) -> Result<Option<Line>, Stopped> {
        self.certificate_from(depth, None)
    }

    /// [`Search::certificate`] where the five points are known (see [`VcfSearch::run_from`]).
    fn certificate_from(
        &mut self,
        depth: Option<u32>,
        fives: Option<Option<Point>>,
    ) -> Result<Option<Line>, Stopped> {
        let max = self
            .options
            .threat_fours
            .unwrap_or(UNLIMITED)
            .min(depth.unwrap_or(UNLIMITED));
        if max == 0 {
            return Ok(None);
        }
        self.board.set_to_move(self.attacker);
        let line = self.find_vcf_from(self.attacker, max, fives);
        self.board.set_to_move(self.defender);
        line
    }

    fn expand(&mut self, depth: Option<u32>) -> Result<Expansion, Stopped> {
        if self.is_or() {
            self.expand_or(depth)
        } else {
            self.expand_and(depth)
        }
    }

    fn key(&self, depth: Option<u32>) -> u64 {
        self.board.hash() ^ depth_key(depth)
    }

    fn child_depth(&self, depth: Option<u32>) -> Option<u32> {
        if self.is_or() {
            depth.map(|d| d - 1)
        } else {
            depth
        }
    }

    fn store(&mut self, key: u64, entry: Entry) {
        if self.table.len() >= self.table_cap && !self.table.contains_key(&key) {
            make_room(&mut self.table, self.table_cap);
        }
        self.table.insert(key, entry);
    }

    /// df-pn's multiple iterative deepening: searches the current node until its proof or
    /// disproof number reaches the thresholds. Returns the node's (pn, dn).
    fn mid(&mut self, depth: Option<u32>, th_pn: u32, th_dn: u32) -> (u32, u32) {
        self.nodes += 1;
        if self.nodes - self.published >= PROGRESS_EVERY {
            self.publish();
        }
        if self.options.limits.reached(self.nodes) {
            self.stopped = true;
        }
        let key = self.key(depth);
        let (moves, certificate_len) = match self.table.get(&key) {
            Some(e) if e.pn == 0 || e.dn == 0 || e.pn >= th_pn || e.dn >= th_dn || self.stopped => {
                return (e.pn, e.dn);
            }
            Some(Entry {
                moves: Some(moves),
                certificate_len,
                ..
            }) => (moves.clone(), *certificate_len),
            _ if self.stopped => return (1, 1),
            _ => match self.expand(depth) {
                Err(Stopped) => {
                    self.stopped = true;
                    return (1, 1);
                }
                Ok(Expansion::Proved(len)) => {
                    self.store(key, Entry::proved(len));
                    return (0, INF);
                }
                Ok(Expansion::Disproved) => {
                    let entry = Entry {
                        pn: INF,
                        dn: 0,
                        len: 0,
                        certificate_len: 0,
                        moves: None,
                    };
                    self.store(key, entry);
                    return (INF, 0);
                }
                Ok(Expansion::Moves(moves, certificate_len)) => (moves.into(), certificate_len),
            },
        };
        let is_or = self.is_or();
        let child_depth = self.child_depth(depth);
        let child_depth_key = depth_key(child_depth);
        let lookup = |table: &super::ZobristMap<Entry>, m: &Move, key: u64| {
            table
                .get(&key)
                .map_or((u32::from(m.pn), 1, 0), |e| (e.pn, e.dn, e.len))
        };
        // Each child's key and (pn, dn, len), read once; after that only the child just
        // searched is read again. A sibling's entry can change meanwhile only through a
        // transposition, and a stale copy is just a worse estimate: proved and disproved stay
        // true.
        // They are kept on the stack of children of the nodes on the path, this node's from
        // `base`.
        let base = self.children.len();
        for m in moves.iter() {
            let k = self.board.hash_after(m.point) ^ child_depth_key;
            let numbers = lookup(&self.table, m, k);
            self.children.push((k, numbers));
        }
        let end = self.children.len();
        let numbers = loop {
            let children = &self.children[base..end];
            // Proof length: the quickest proved child of an OR node, the longest of an AND node.
            let mut len = if is_or { INF } else { certificate_len };
            for &(_, (cpn, _, clen)) in children {
                if cpn == 0 {
                    len = if is_or {
                        len.min(clen + 1)
                    } else {
                        len.max(clen)
                    };
                }
            }
            let combined = combine(
                is_or,
                Sum::Plain,
                children.iter().map(|&(_, (cpn, cdn, _))| (cpn, cdn)),
            );
            let (pn, dn) = (combined.pn, combined.dn);
            match self.table.get_mut(&key) {
                // The entry the first pass stored (with these moves), unless it was dropped.
                Some(e) if e.moves.is_some() => (e.pn, e.dn, e.len) = (pn, dn, len),
                _ => {
                    let entry = Entry {
                        pn,
                        dn,
                        len,
                        certificate_len,
                        moves: Some(moves.clone()),
                    };
                    self.store(key, entry);
                }
            }
            if pn == 0 || dn == 0 || pn >= th_pn || dn >= th_dn || self.stopped {
                break (pn, dn);
            }
            let (c_th_pn, c_th_dn) = child_thresholds(is_or, th_pn, th_dn, &combined);
            let best = combined.best;
            self.board.play_unchecked(moves[best].point);
            self.mid(child_depth, c_th_pn, c_th_dn);
            self.board.undo();
            let child = &mut self.children[base + best];
            child.1 = lookup(&self.table, &moves[best], child.0);
        };
        self.children.truncate(base);
        numbers
    }

    /// The proof length of the child reached by `m`, if the table holds it as proved; with
    /// `search`, a child the table does not hold is searched first.
    fn proved_len(&mut self, m: Point, child_depth: Option<u32>, search: bool) -> Option<u32> {
        let key = self.board.hash_after(m) ^ depth_key(child_depth);
        if search && !self.table.contains_key(&key) {
            self.board.play_unchecked(m);
            self.mid(child_depth, INF - 1, INF - 1);
            self.board.undo();
        }
        self.table.get(&key).filter(|e| e.pn == 0).map(|e| e.len)
    }

    /// The proved children of the current (proved) node with their proof lengths. An OR node
    /// needs one: children are searched again only if the table lost them all. An AND node
    /// needs all of its explicit replies: any the table lost are searched again.
    fn proved_children(
        &mut self,
        moves: Option<&Moves>,
        child_depth: Option<u32>,
    ) -> Vec<(u32, Point)> {
        let Some(moves) = moves else {
            return Vec::new();
        };
        let is_or = self.is_or();
        let found: Vec<(u32, Point)> = moves
            .iter()
            .filter_map(|m| {
                self.proved_len(m.point, child_depth, !is_or)
                    .map(|l| (l, m.point))
            })
            .collect();
        if !found.is_empty() || !is_or {
            return found;
        }
        moves
            .iter()
            .find_map(|m| {
                self.proved_len(m.point, child_depth, true)
                    .map(|l| (l, m.point))
            })
            .into_iter()
            .collect()
    }

    /// The winning line from a proved root: at each attacker move the quickest proved move, at
    /// each defender move the reply with the longest proof (a reply the certificate refutes
    /// when that is the longest), and the VCF that finishes it.
    fn principal_line(&mut self, depth: Option<u32>) -> Result<Line, Stopped> {
        let start = self.board.moves().len();
        let mut depth = depth;
        let mut line = Vec::new();
        let ending = loop {
            let key = self.key(depth);
            if !self.table.contains_key(&key) {
                self.mid(depth, INF - 1, INF - 1);
            }
            let entry = self.table.get(&key).cloned();
            let moves = entry.as_ref().and_then(|e| e.moves.clone());
            let child_depth = self.child_depth(depth);
            if self.is_or() {
                let best = self
                    .proved_children(moves.as_ref(), child_depth)
                    .into_iter()
                    .min();
                let Some((_, m)) = best else {
                    // Proved on evaluation: a five or a VCF.
                    let Some(finish) = self.find_vcf(self.attacker, depth.unwrap_or(UNLIMITED))?
                    else {
                        // The table lost this proof and it could not be rebuilt: say unknown
                        // rather than print a line that is not shown to win.
                        return Err(Stopped);
                    };
                    line.extend(&finish.moves);
                    break finish.ending;
                };
                line.push(m);
                self.board.play_unchecked(m);
                depth = child_depth;
            } else {
                let last = *self.board.moves().last().expect("an attacker move");
                let defence = self.board.defence(last, self.attacker);
                match defence {
                    Defence::Unstoppable => {
                        self.board.undo();
                        let (a, b) = finish(&mut self.board, last, self.attacker);
                        self.board.play_unchecked(last);
                        line.extend([a, b]);
                        break Ending::Five;
                    }
                    Defence::Forced(f) if self.block_forbidden(f) => break Ending::ForbiddenBlock,
                    _ => {}
                }
                let forced = match defence {
                    Defence::Forced(f) => Some(f),
                    _ => None,
                };
                let explicit = self
                    .proved_children(moves.as_ref(), child_depth)
                    .into_iter()
                    .max_by_key(|&(l, p)| (l, std::cmp::Reverse(p)));
                let certificate_len = entry.map_or(0, |e| e.certificate_len);
                let four_reply = !matches!(defence, Defence::NoFour);
                let reply = match (explicit, forced) {
                    (Some((l, r)), _)
                        if moves.is_some() && (l >= certificate_len || four_reply) =>
                    {
                        r
                    }
                    (_, Some(f)) => f,
                    (explicit, None) => match (self.refuted_reply(depth)?, explicit) {
                        (Some(r), _) | (None, Some((_, r))) => r,
                        (None, None) => {
                            // The defender has no legal move at all (every empty point is
                            // forbidden for Black): the certificate wins as after a pass.
                            let certificate = self.certificate(depth)?;
                            let finish = certificate.expect("a proved threat has a certificate");
                            line.extend(&finish.moves);
                            break finish.ending;
                        }
                    },
                };
                line.push(reply);
                self.board.play_unchecked(reply);
            }
            if self.stopped {
                return Err(Stopped);
            }
        };
        while self.board.moves().len() > start {
            self.board.undo();
        }
        Ok(Line {
            moves: line,
            ending,
        })
    }

    /// Rebuilds the proof of the current (proved) node as [`VctTree`] nodes; a node the table
    /// lost is searched again. Positions met twice are one node.
    fn tree_node(
        &mut self,
        depth: Option<u32>,
        nodes: &mut Vec<VctNode>,
        ids: &mut std::collections::HashMap<u64, usize>,
    ) -> Result<usize, Stopped> {
        let key = self.key(depth);
        if let Some(&id) = ids.get(&key) {
            return Ok(id);
        }
        if self.table.get(&key).is_none_or(|e| e.pn != 0) {
            let (pn, _) = self.mid(depth, INF - 1, INF - 1);
            if pn != 0 || self.stopped {
                return Err(Stopped);
            }
        }
        let id = nodes.len();
        nodes.push(VctNode::Replies {
            certificate: Line {
                moves: Vec::new(),
                ending: Ending::Five,
            },
            replies: Vec::new(),
        });
        ids.insert(key, id);
        let child_depth = self.child_depth(depth);
        let five = |board: &Board, color: Color| {
            board.five_points(color).first().map(|&g| Line {
                moves: vec![g],
                ending: Ending::Five,
            })
        };
        let made = if self.is_or() {
            if let Some(line) = five(&self.board, self.attacker) {
                VctNode::Vcf(line)
            } else if let Some(line) = self.find_vcf(self.attacker, depth.unwrap_or(UNLIMITED))? {
                VctNode::Vcf(line)
            } else {
                let moves = self.table.get(&key).and_then(|e| e.moves.clone());
                let Some((_, play)) = self
                    .proved_children(moves.as_ref(), child_depth)
                    .into_iter()
                    .min()
                else {
                    return Err(Stopped);
                };
                self.board.play_unchecked(play);
                let child = self.tree_node(child_depth, nodes, ids);
                self.board.undo();
                VctNode::Move {
                    play,
                    child: child?,
                }
            }
        } else {
            let last = *self.board.moves().last().ok_or(Stopped)?;
            let certificate = match self.board.defence(last, self.attacker) {
                Defence::NoFour => self.certificate(depth)?,
                _ => five(&self.board, self.attacker),
            }
            .ok_or(Stopped)?;
            let mut replies = Vec::new();
            for (r, _) in breaking_replies(&mut self.board, self.attacker, &certificate) {
                self.board.play_unchecked(r);
                let child = self.tree_node(child_depth, nodes, ids);
                self.board.undo();
                replies.push((r, child?));
            }
            VctNode::Replies {
                certificate,
                replies,
            }
        };
        nodes[id] = made;
        Ok(id)
    }

    /// A defender reply that the certificate refutes, for the principal line: one inside the
    /// certificate's zone if there is one (a natural try that fails), else any; `None` if every
    /// legal reply was searched on its own (or there is none).
    fn refuted_reply(&mut self, depth: Option<u32>) -> Result<Option<Point>, Stopped> {
        let certificate = self
            .certificate(depth)?
            .expect("a proved threat has a certificate");
        let zone = self.zone_of(self.attacker, &certificate);
        let mut fallback = None;
        for r in self.board.points() {
            if !self.board.is_legal_for(r, self.defender) {
                continue;
            }
            let counter = self.board.four_at(r, self.defender);
            if counter.count == 0
                && still_wins(&mut self.board, self.attacker, &certificate, r, None)
            {
                if zone.contains(r) {
                    return Ok(Some(r));
                }
                fallback.get_or_insert(r);
            }
        }
        Ok(fallback)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::{PositionOptions, parse_position};
    use crate::rules::Symmetry;

    fn example() -> Board {
        let options = PositionOptions {
            to_move: Some(Color::Black),
            ..PositionOptions::default()
        };
        parse_position(include_str!("../../data/examples/vct.txt"), &options).unwrap()
    }

    fn tree_of(board: &Board) -> VctTree {
        let options = VctOptions {
            threat_fours: Some(3),
            ..VctOptions::default()
        };
        let found = prove(
            board,
            Color::Black,
            &options,
            &mut VcfTable::default(),
            &mut VctTable::default(),
            true,
        );
        assert!(found.won && !found.exhausted);
        found.tree.expect("a won search rebuilds its tree")
    }

    /// A full table drops its open entries and keeps the proved and disproved ones, unless
    /// those alone fill more than half of it.
    #[test]
    fn making_room_keeps_the_settled_entries() {
        let open = |pn| Entry {
            pn,
            dn: 3,
            len: 0,
            certificate_len: 0,
            moves: Some(
                vec![Move {
                    point: Point::new(7, 7),
                    pn: 2,
                }]
                .into(),
            ),
        };
        let disproved = Entry {
            pn: INF,
            dn: 0,
            ..open(1)
        };
        let mut table = super::super::ZobristMap::default();
        table.insert(1, open(2));
        table.insert(2, Entry::proved(3));
        table.insert(3, disproved.clone());
        table.insert(4, open(5));
        make_room(&mut table, 4);
        let mut kept: Vec<u64> = table.keys().copied().collect();
        kept.sort_unstable();
        assert_eq!(kept, [2, 3]);
        table.insert(5, Entry::proved(1));
        make_room(&mut table, 4);
        assert!(
            table.is_empty(),
            "three settled entries fill more than half of 4"
        );
    }

    /// A table far too small for the search still proves the win: proved and disproved
    /// positions survive each time it makes room, and the proof tree rebuilt from them holds.
    #[test]
    fn a_search_in_a_small_table_still_wins() {
        let board = example();
        let roomy = vct(&board, Color::Black, &VctOptions::default());
        let cramped = VctOptions {
            table_entries: Some(500),
            ..VctOptions::default()
        };
        let small = vct(&board, Color::Black, &cramped);
        assert!(matches!(roomy.outcome, Outcome::Win(_)));
        assert!(
            matches!(small.outcome, Outcome::Win(_)),
            "{:?}",
            small.outcome
        );
        assert!(small.nodes > roomy.nodes, "500 entries made no room");
        let mut table = VctTable::default();
        let found = prove(
            &board,
            Color::Black,
            &cramped,
            &mut VcfTable::default(),
            &mut table,
            true,
        );
        assert!(found.won && table.0.len() <= 2000);
        let tree = found.tree.expect("a won search rebuilds its tree");
        assert!(tree.holds(&mut board.clone(), Color::Black));
        // The memory bound leaves a quarter of it to the VCF table and the rest to this one.
        let bounded = VctOptions {
            memory_mb: Some(16),
            ..VctOptions::default()
        };
        assert_eq!(bounded.table_cap(), (16 << 20) / 4 * 3 / ENTRY_BYTES);
    }

    /// The progress counter ends at the report's node count, on one thread and on several.
    #[test]
    fn progress_counts_every_node() {
        let board = example();
        for threads in [1, 3] {
            let counter = Arc::new(AtomicU64::new(0));
            let report = vct(
                &board,
                Color::Black,
                &VctOptions {
                    threads: Some(threads),
                    progress: Some(counter.clone()),
                    ..VctOptions::default()
                },
            );
            assert!(report.nodes > PROGRESS_EVERY, "too small to count in steps");
            assert_eq!(
                counter.load(Ordering::Relaxed),
                report.nodes,
                "{threads} threads"
            );
        }
    }

    /// Simulation is sound only if `holds` fails where the proof does: a white stone on the
    /// first threat breaks it, a far one does not, and a mirrored tree holds on the mirrored
    /// board.
    #[test]
    fn a_proof_holds_only_where_it_still_wins() {
        let board = example();
        let tree = tree_of(&board);
        assert!(tree.holds(&mut board.clone(), Color::Black));
        let first = match &tree.nodes[tree.root] {
            VctNode::Move { play, .. } => *play,
            VctNode::Vcf(line) => line.moves[0],
            VctNode::Replies { .. } => panic!("the root is an attacker node"),
        };
        for (at, holds) in [(first, false), ("a1".parse().unwrap(), true)] {
            let mut other = board.clone();
            other.put(at, Color::White).unwrap();
            other.set_to_move(Color::Black);
            assert_eq!(tree.holds(&mut other, Color::Black), holds, "white at {at}");
        }
        let size = board.size();
        for s in Symmetry::ALL {
            let mut image = Board::new(size, board.rules());
            for (p, c) in board.stones() {
                image.put(s.apply(p, size), c).unwrap();
            }
            image.set_to_move(Color::Black);
            assert!(
                tree.map(|p| s.apply(p, size))
                    .holds(&mut image, Color::Black)
            );
            let wrong = s != Symmetry::Identity;
            assert!(!wrong || !tree.holds(&mut image, Color::Black), "{s:?}");
        }
    }

    /// A lent tree may list replies that do not break the certificate on the board where it is
    /// used (they broke it on the sibling's board). `holds` rightly ignores them, so their
    /// subtrees are unchecked: the tree as played leaves them out, and keeps no node it does not
    /// reach.
    #[test]
    fn a_tree_as_played_lists_only_the_replies_that_break_it() {
        let board = example();
        let mut tree = tree_of(&board);
        let VctNode::Move { play, child } = tree.nodes[tree.root] else {
            panic!("the example is won by a threat, not a VCF");
        };
        let mut after = board.clone();
        after.play_unchecked(play);
        let VctNode::Replies { certificate, .. } = &tree.nodes[child] else {
            panic!("a threat's child is a defender node");
        };
        let breaking = breaking_replies(&mut after, Color::Black, certificate);
        let stray: Point = "a1".parse().unwrap();
        assert!(after.is_empty(stray) && breaking.iter().all(|&(r, _)| r != stray));
        // A subtree no replay on this board would accept: its VCF starts on a taken point.
        let bogus = tree.nodes.len();
        tree.nodes.push(VctNode::Vcf(Line {
            moves: vec![play],
            ending: Ending::Five,
        }));
        if let VctNode::Replies { replies, .. } = &mut tree.nodes[child] {
            replies.push((stray, bogus));
        }
        assert!(tree.holds(&mut board.clone(), Color::Black));
        let played = tree.as_played(&mut board.clone(), Color::Black).unwrap();
        assert!(played.holds(&mut board.clone(), Color::Black));
        assert!(played.nodes.len() < tree.nodes.len());
        let mut listed = played.nodes.iter().flat_map(|n| match n {
            VctNode::Replies { replies, .. } => replies.clone(),
            _ => Vec::new(),
        });
        assert!(listed.all(|(r, _)| r != stray));
        // Every node but the root is some node's child.
        let children: std::collections::HashSet<usize> = played
            .nodes
            .iter()
            .flat_map(|n| match n {
                VctNode::Move { child, .. } => vec![*child],
                VctNode::Replies { replies, .. } => replies.iter().map(|&(_, c)| c).collect(),
                VctNode::Vcf(_) => Vec::new(),
            })
            .collect();
        assert_eq!(children.len() + 1, played.nodes.len());
        assert!(!children.contains(&played.root));
    }

    /// A search stopped by its node budget and given its table back goes on where it stopped:
    /// it wins within fewer nodes than a fresh search needs.
    #[test]
    fn a_kept_table_resumes_the_search() {
        let board = example();
        let options = |nodes| VctOptions {
            threat_fours: Some(3),
            limits: Limits {
                nodes: Some(nodes),
                ..Limits::default()
            },
            ..VctOptions::default()
        };
        let fresh = prove(
            &board,
            Color::Black,
            &options(u64::MAX),
            &mut VcfTable::default(),
            &mut VctTable::default(),
            false,
        );
        assert!(fresh.won);
        let mut table = VctTable::default();
        let first = prove(
            &board,
            Color::Black,
            &options(fresh.nodes * 3 / 4),
            &mut VcfTable::default(),
            &mut table,
            false,
        );
        assert!(!first.won && !first.exhausted, "stopped before the win");
        let rest = prove(
            &board,
            Color::Black,
            &options(u64::MAX),
            &mut VcfTable::default(),
            &mut table,
            true,
        );
        assert!(rest.won && rest.tree.is_some());
        assert!(
            rest.nodes < fresh.nodes / 2,
            "resumed in {} nodes, fresh takes {}",
            rest.nodes,
            fresh.nodes
        );
    }
}
