//! The book's figures: unsettled leaves, the deepest unsettled line, the history samples,
//! the work left, each root's standing for `book status` and `book build`, and one
//! position's moves for `book status --under`.

use serde::Serialize;

use super::numbers::{BUSY, INF};
use super::{Book, NO_PARENT, Sample, Status};
use crate::db::{Database, Index};
use crate::rules::{Color, Point};

impl Book {
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
                let plies = self.plies(r.node);
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
                    positions: plies.iter().map(|p| p.positions).sum(),
                    frontier: plies.iter().map(|p| p.frontier).sum(),
                    children: n.children.len(),
                    children_settled: n
                        .children
                        .iter()
                        .filter(|&&c| self.nodes[c as usize].status.settled())
                        .count(),
                    proof_number: (n.pn < BUSY).then_some(n.pn),
                    disproof_number: (n.dn < BUSY).then_some(n.dn),
                    deepest_unproved: names(&self.deepest_unsettled(r.node)),
                    open_children: n
                        .children
                        .iter()
                        .map(|&c| &self.nodes[c as usize])
                        .filter(|c| !c.status.settled())
                        .map(|c| self.open_child(c))
                        .collect(),
                    plies,
                }
            })
            .collect()
    }

    /// Where a book position stands, with each of its moves: for `book status --under`, to
    /// see what is left below a line and how often each leaf was searched.
    #[must_use]
    pub fn report_under(&self, node: u32) -> PositionReport {
        let n = &self.nodes[node as usize];
        let root = &self.roots[n.root as usize];
        let mut moves: Vec<MoveReport> = n
            .children
            .iter()
            .map(|&c| {
                let x = &self.nodes[c as usize];
                let open: Vec<&super::BookNode> = x
                    .children
                    .iter()
                    .map(|&y| &self.nodes[y as usize])
                    .filter(|y| !y.status.settled())
                    .collect();
                MoveReport {
                    play: x.play.map(|p| p.to_string()).unwrap_or_default(),
                    figures: self.figures(c),
                    replies: x.children.len(),
                    open_replies: open.len(),
                    never_searched: open
                        .iter()
                        .filter(|y| y.children.is_empty() && y.status == Status::Open)
                        .count(),
                    planned: open.iter().filter(|y| y.status == Status::Planned).count(),
                    most_searches: open.iter().map(|y| y.attempts).max().unwrap_or(0),
                }
            })
            .collect();
        // Open moves first, the nearest to a proof first; the settled after them.
        moves.sort_by_key(|m| {
            (
                m.figures.settled(),
                m.figures.proof_number.unwrap_or(u64::MAX),
            )
        });
        PositionReport {
            root: root.name.clone(),
            line: self.path(node).iter().map(ToString::to_string).collect(),
            to_move: self.to_move(node),
            attacker: root.attacker,
            figures: self.figures(node),
            frontier: self.frontier(node),
            moves,
        }
    }

    /// Where `node` stands: its state in a word, its searches, numbers and positions.
    fn figures(&self, node: u32) -> Figures {
        let n = &self.nodes[node as usize];
        let state = match n.status {
            Status::Won(w) if w == self.attacker(node) => "proved",
            Status::Won(_) => "disproved",
            Status::Draw => "draw",
            Status::Planned => "planned",
            Status::Exhausted => "exhausted",
            _ if n.pn >= INF => "disproved",
            _ if !n.children.is_empty() => "expanded",
            Status::Tried => "searched",
            Status::Open => "open",
        };
        Figures {
            state,
            searches: n.attempts,
            proof_number: (n.pn < BUSY).then_some(n.pn),
            disproof_number: (n.dn < BUSY).then_some(n.dn),
            positions: self.positions(n),
        }
    }

    /// An unsettled move at a root, with the move below it nearest to a proof.
    fn open_child(&self, c: &super::BookNode) -> OpenChild {
        let closest = c
            .children
            .iter()
            .map(|&x| &self.nodes[x as usize])
            .filter(|x| !x.status.settled() && x.pn < INF)
            .min_by_key(|x| x.pn);
        // The replies to `closest` not settled yet, with their searches without a result.
        let (closest_open, closest_searches): (Vec<String>, Vec<u32>) = closest
            .into_iter()
            .flat_map(|x| &x.children)
            .map(|&y| &self.nodes[y as usize])
            .filter(|y| !y.status.settled())
            .filter_map(|y| y.play.map(|p| (p.to_string(), y.attempts)))
            .unzip();
        OpenChild {
            play: c.play.map(|p| p.to_string()).unwrap_or_default(),
            searches: c.attempts,
            positions: self.positions(c),
            proof_number: (c.pn < BUSY).then_some(c.pn),
            disproved: c.pn >= INF,
            closest: closest.and_then(|x| x.play).map(|p| p.to_string()),
            closest_open,
            closest_searches,
            closest_replies: closest.map_or(0, |x| x.children.len()),
        }
    }

    /// Positions in the subtree of `node`, itself included.
    fn positions(&self, node: &super::BookNode) -> usize {
        let mut count = 1;
        let mut stack = node.children.clone();
        while let Some(x) = stack.pop() {
            count += 1;
            stack.extend(&self.nodes[x as usize].children);
        }
        count
    }

    /// The positions under `root` (itself included) by their distance from it; their sums are
    /// its positions and its frontier.
    fn plies(&self, root: u32) -> Vec<PlyReport> {
        let mut plies: Vec<PlyReport> = Vec::new();
        // With each position, whether every position above it is unsettled.
        let mut stack = vec![(root, 0usize, true)];
        while let Some((x, ply, live)) = stack.pop() {
            let n = &self.nodes[x as usize];
            while plies.len() <= ply {
                plies.push(PlyReport {
                    ply: plies.len(),
                    ..PlyReport::default()
                });
            }
            let p = &mut plies[ply];
            p.positions += 1;
            if n.status.settled() {
                p.settled += 1;
            } else if n.children.is_empty() && live {
                p.frontier += 1;
            }
            if n.expanded {
                p.expanded += 1;
                if n.certificate.is_some() {
                    p.vcf_certificates += 1;
                } else if n.pass_proof.is_some() {
                    p.proof_certificates += 1;
                }
            }
            let live = live && !n.status.settled();
            stack.extend(n.children.iter().map(|&c| (c, ply + 1, live)));
        }
        plies
    }
}

/// A move at a root that is not settled yet.
#[derive(Clone, Debug, Serialize)]
pub struct OpenChild {
    /// The move.
    pub play: String,
    /// Searches of its position without a result (the last with `2^(searches-1)` times the
    /// per-position budget).
    pub searches: u32,
    /// Book positions under it, itself included.
    pub positions: usize,
    /// Its proof number (unsettled leaves that must at least be proved), unless it is
    /// disproved or what is left below it is planned for work units (or being searched).
    pub proof_number: Option<u64>,
    /// Whether the attacker's win is ruled out below it, though its value is not known.
    pub disproved: bool,
    /// The move below it with the least proof number (the nearest to a proof), if it is
    /// expanded and one is not disproved.
    pub closest: Option<String>,
    /// The replies to `closest` in the book not settled yet.
    pub closest_open: Vec<String>,
    /// Searches without a result of each of `closest_open`, in its order.
    pub closest_searches: Vec<u32>,
    /// The replies to `closest` in the book.
    pub closest_replies: usize,
}

/// Where a book position stands, for [`PositionReport`] and [`MoveReport`] (its fields
/// stand in their JSON objects).
#[derive(Clone, Debug, Serialize)]
pub struct Figures {
    /// `proved` (won for the attacker), `disproved` (won for the other side, or the
    /// attacker's win ruled out below), `draw`, `expanded` (its moves are in the book),
    /// `planned` (handed to a work unit), `searched` (a leaf searched without a result, to be
    /// searched again with twice the budget) or `open` (a leaf not searched yet).
    pub state: &'static str,
    /// Searches of the position itself without a result: the next search of a leaf gets
    /// `2^searches` times the per-position budget.
    pub searches: u32,
    /// Its proof number, unless settled, disproved, or planned below.
    pub proof_number: Option<u64>,
    /// Its disproof number, likewise.
    pub disproof_number: Option<u64>,
    /// Book positions under it, itself included.
    pub positions: usize,
}

impl Figures {
    /// Whether the position is settled (or, `disproved`, the attacker's win ruled out).
    #[must_use]
    pub fn settled(&self) -> bool {
        matches!(self.state, "proved" | "disproved" | "draw")
    }
}

/// A book position and its moves, for `book status --under`.
#[derive(Clone, Debug, Serialize)]
pub struct PositionReport {
    /// The root it is under.
    pub root: String,
    /// The moves from that root.
    pub line: Vec<String>,
    /// The side to move there.
    pub to_move: Color,
    /// The side the book tries to prove a win for.
    pub attacker: Color,
    /// Where it stands.
    #[serde(flatten)]
    pub figures: Figures,
    /// Unsettled leaves under it.
    pub frontier: usize,
    /// Its moves in the book: the unsettled ones first, nearest to a proof first.
    pub moves: Vec<MoveReport>,
}

/// One move of a [`PositionReport`].
#[derive(Clone, Debug, Serialize)]
pub struct MoveReport {
    /// The move.
    pub play: String,
    /// Where its position stands.
    #[serde(flatten)]
    pub figures: Figures,
    /// Its own moves in the book.
    pub replies: usize,
    /// Of those, the ones not settled.
    pub open_replies: usize,
    /// Of the open ones, the leaves never searched (nor planned): a sweep of them at the
    /// first budget is cheap, and shows which of them resist.
    pub never_searched: usize,
    /// Of the open ones, those handed to a work unit.
    pub planned: usize,
    /// The most searches without a result of any open one.
    pub most_searches: u32,
}

/// The book positions at one distance from a root.
#[derive(Clone, Debug, Default, Serialize)]
pub struct PlyReport {
    /// Moves from the root.
    pub ply: usize,
    /// Positions.
    pub positions: usize,
    /// Of those, settled (won for either side, or drawn).
    pub settled: usize,
    /// Unsettled leaves, not counting those under settled positions.
    pub frontier: usize,
    /// Expanded positions.
    pub expanded: usize,
    /// Of those, whose children are the replies that break the other side's VCF after a pass.
    pub vcf_certificates: usize,
    /// Of those, whose children are the replies after which the attacker's VCT proof after a
    /// pass no longer holds.
    pub proof_certificates: usize,
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
    /// Seconds of leaf searches under it (see [`BookRoot::seconds`](super::BookRoot::seconds)).
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
    /// Its moves not settled yet.
    pub open_children: Vec<OpenChild>,
    /// Its positions by distance from it.
    pub plies: Vec<PlyReport>,
}
