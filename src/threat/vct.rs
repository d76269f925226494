//! VCT (victory by continuous threats): proof-number search over threat space.
//!
//! The attacker's moves are threats: fours, and moves after which the attacker would have a
//! VCF if the defender passed (the VCF is the threat's certificate). The defender's replies to
//! a four are forced. To any other threat the defender may reply anywhere, and the search
//! considers every reply that could stop the certificate:
//!
//! - every move inside the certificate's *zone*: the points within reach of every point whose
//!   surroundings the rules code read while replaying the certificate (its moves, forced
//!   replies, five points, and every point a forbidden-move test looked at, recursively);
//! - every move that makes a four for the defender (a counter-four, which must be answered).
//!
//! A reply outside the zone that makes no four cannot change any answer the replay depended on,
//! so the certificate still wins after it: such replies are skipped on that argument. Inside
//! the zone, a reply is skipped only when the certificate, replayed with that stone on the
//! board, still wins. The remaining replies are searched.
//!
//! The search is depth-first proof-number search (df-pn) with the 1+ε threshold trick and a
//! transposition table keyed by Zobrist hashes (and by the remaining depth, when it is bounded).
//! A position where the attacker has a VCF is proved at once, and a threat after which the
//! defender has a VCF of its own fails. `win` is a proof; `no-win` means the threat space
//! (within the depth limit) holds no win; a stop gives `unknown`.

use std::collections::HashMap;

use crate::rules::{Board, Color, Point, Rule};

use super::vcf::{Stopped, UNLIMITED, VcfSearch, VcfTable, replay};
use super::zone::zone;
use super::{Ending, Limits, Line, Outcome, Report};

/// Options of a VCT search.
#[derive(Clone, Debug, Default)]
pub struct VctOptions {
    /// At most this many attacker moves before the final five (threats and fours).
    pub max_depth: Option<u32>,
    /// A move counts as a threat only if its certificate VCF has at most this many fours.
    pub threat_fours: Option<u32>,
    /// When to stop.
    pub limits: Limits,
}

const INF: u32 = u32::MAX;
/// Entries kept before the table is cleared.
const TABLE_CAP: usize = 4 << 20;

#[derive(Clone, Debug)]
struct Entry {
    pn: u32,
    dn: u32,
    /// The node's moves, once generated.
    moves: Option<std::rc::Rc<[Point]>>,
}

/// What generating a node's moves found.
enum Expansion {
    Proved,
    Disproved,
    Moves(Vec<Point>),
}

struct Search<'a> {
    board: Board,
    attacker: Color,
    defender: Color,
    options: &'a VctOptions,
    table: HashMap<u64, Entry>,
    vcf_table: VcfTable,
    nodes: u64,
    stopped: bool,
}

/// Searches for a VCT for `attacker` in `board`. If `attacker` is not the side to move, the
/// defender is taken to pass first.
#[must_use]
pub fn vct(board: &Board, attacker: Color, options: &VctOptions) -> Report {
    let mut board = board.clone();
    board.set_to_move(attacker);
    let fives = board.fives();
    if fives.iter().any(|f| f.color == attacker) {
        let line = Line {
            moves: Vec::new(),
            ending: Ending::AlreadyWon,
        };
        return Report {
            outcome: Outcome::Win(line),
            nodes: 0,
        };
    }
    if fives.iter().any(|f| f.color != attacker) {
        return Report {
            outcome: Outcome::NoWin,
            nodes: 0,
        };
    }
    let mut search = Search {
        board,
        attacker,
        defender: attacker.opponent(),
        options,
        table: HashMap::new(),
        vcf_table: VcfTable::default(),
        nodes: 0,
        stopped: false,
    };
    let depth = options.max_depth;
    let (pn, dn) = search.mid(depth, INF - 1, INF - 1);
    let outcome = if search.stopped {
        Outcome::Unknown
    } else if pn == 0 {
        match search.principal_line(depth) {
            Ok(line) => Outcome::Win(line),
            Err(Stopped) => Outcome::Unknown,
        }
    } else if dn == 0 {
        Outcome::NoWin
    } else {
        Outcome::Unknown
    };
    Report {
        outcome,
        nodes: search.nodes,
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

impl Search<'_> {
    fn is_or(&self) -> bool {
        self.board.to_move() == self.attacker
    }

    fn legal_for(&self, p: Point, color: Color) -> bool {
        self.board.is_empty(p) && !(color == Color::Black && self.board.forbidden(p).is_some())
    }

    fn block_forbidden(&self, f: Point) -> bool {
        self.defender == Color::Black
            && self.board.rules().rule() == Rule::Renju
            && self.board.forbidden(f).is_some()
    }

    /// A VCF for `color` (the side to move is set for the search and restored).
    fn find_vcf(&mut self, color: Color, max_fours: u32) -> Result<Option<Line>, Stopped> {
        let limits = &self.options.limits;
        let mut search = VcfSearch::new(&mut self.board, color, limits, &mut self.vcf_table);
        let result = search.run(max_fours);
        self.nodes += search.nodes;
        result.map(|(line, _)| line)
    }

    /// The zone a VCF `line` for `color` depends on, on the current board (`color` to move).
    fn zone_of(&mut self, color: Color, line: &Line) -> super::zone::PointSet {
        let mut centres = Vec::new();
        let to_move = self.board.to_move();
        self.board.set_to_move(color);
        replay(&mut self.board, color, line, None, &mut |p| centres.push(p));
        self.board.set_to_move(to_move);
        zone(&centres, self.board.reach(), self.board.size())
    }

    /// Generates the moves of an OR node (attacker to move) with `depth` attacker moves left.
    fn expand_or(&mut self, depth: Option<u32>) -> Result<Expansion, Stopped> {
        if !self.board.five_points(self.attacker).is_empty() {
            return Ok(Expansion::Proved);
        }
        let threats = self.board.five_points(self.defender);
        if threats.len() >= 2 || depth == Some(0) {
            return Ok(Expansion::Disproved);
        }
        if self
            .find_vcf(self.attacker, depth.unwrap_or(UNLIMITED))?
            .is_some()
        {
            return Ok(Expansion::Proved);
        }
        if depth == Some(1) {
            // One move left and no VCF of one four: a threat would need another move to win.
            return Ok(Expansion::Disproved);
        }
        if let Some(&g) = threats.first() {
            // The defender's four must be answered at once.
            let ok = self.legal_for(g, self.attacker);
            return Ok(if ok {
                Expansion::Moves(vec![g])
            } else {
                Expansion::Disproved
            });
        }
        // Threat candidates: moves with two or more own stones in one clear five-point stretch,
        // or in stretches of two lines. Whether each is a threat is decided at its AND node.
        let mut moves: Vec<(Point, u32)> = self
            .board
            .points()
            .filter(|&p| self.board.is_empty(p))
            .filter_map(|p| {
                let potentials = self.board.potentials(p, self.attacker);
                let max = potentials.into_iter().max().unwrap_or(0);
                let sum: u32 = potentials.iter().sum();
                (max >= 2 || sum >= 2).then_some((p, max * 4 + sum))
            })
            .filter(|&(p, _)| self.legal_for(p, self.attacker))
            .collect();
        // If the defender could win by VCF were it to move, only fours and moves that can
        // break that VCF are worth trying: any other move lets it run.
        self.board.set_to_move(self.defender);
        let defender_vcf = self.find_vcf(self.defender, UNLIMITED);
        self.board.set_to_move(self.attacker);
        if let Some(line) = defender_vcf? {
            let zone = self.zone_of(self.defender, &line);
            moves.retain(|&(p, _)| {
                zone.contains(p) || self.board.four_at(p, self.attacker).count > 0
            });
        }
        moves.sort_by_key(|&(p, potential)| (std::cmp::Reverse(potential), p));
        Ok(Expansion::Moves(
            moves.into_iter().map(|(p, _)| p).collect(),
        ))
    }

    /// Generates the moves of an AND node (defender to move) with `depth` attacker moves left.
    fn expand_and(&mut self, depth: Option<u32>) -> Result<Expansion, Stopped> {
        let last = *self
            .board
            .moves()
            .last()
            .expect("an AND node follows an attacker move");
        let four = self.board.four_at(last, self.attacker);
        if four.count >= 2 {
            return Ok(Expansion::Proved);
        }
        if let Some(f) = four.single() {
            if self.block_forbidden(f) {
                return Ok(Expansion::Proved);
            }
            return Ok(Expansion::Moves(vec![f]));
        }
        let Some(certificate) = self.certificate(depth)? else {
            return Ok(Expansion::Disproved);
        };
        if self.find_vcf(self.defender, UNLIMITED)?.is_some() {
            return Ok(Expansion::Disproved);
        }
        let zone = self.zone_of(self.attacker, &certificate);
        let mut replies = Vec::new();
        for r in self.board.points() {
            if !self.legal_for(r, self.defender) {
                continue;
            }
            let counter = self.board.four_at(r, self.defender);
            if !zone.contains(r) && counter.count == 0 {
                continue; // Outside the zone: the certificate stands.
            }
            if counter.count < 2 && self.refuted_by(&certificate, r, counter.single()) {
                continue;
            }
            replies.push((r, counter.count > 0));
        }
        if replies.is_empty() {
            return Ok(Expansion::Proved);
        }
        replies.sort_by_key(|&(p, counter)| (!counter, p));
        Ok(Expansion::Moves(
            replies.into_iter().map(|(p, _)| p).collect(),
        ))
    }

    /// The attacker's VCF if the defender passed here, within the threat and depth limits.
    fn certificate(&mut self, depth: Option<u32>) -> Result<Option<Line>, Stopped> {
        let max = self
            .options
            .threat_fours
            .unwrap_or(UNLIMITED)
            .min(depth.unwrap_or(UNLIMITED));
        if max == 0 {
            return Ok(None);
        }
        self.board.set_to_move(self.attacker);
        let line = self.find_vcf(self.attacker, max);
        self.board.set_to_move(self.defender);
        line
    }

    /// Whether the certificate still wins after the defender's reply `r`.
    fn refuted_by(&mut self, certificate: &Line, r: Point, threat: Option<Point>) -> bool {
        self.board.play_unchecked(r);
        let wins = replay(
            &mut self.board,
            self.attacker,
            certificate,
            threat,
            &mut |_| {},
        );
        self.board.undo();
        wins
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
        if self.table.len() >= TABLE_CAP {
            self.table.clear();
        }
        self.table.insert(key, entry);
    }

    /// df-pn's multiple iterative deepening: searches the current node until its proof or
    /// disproof number reaches the thresholds. Returns the node's (pn, dn).
    fn mid(&mut self, depth: Option<u32>, th_pn: u32, th_dn: u32) -> (u32, u32) {
        self.nodes += 1;
        if self.options.limits.reached(self.nodes) {
            self.stopped = true;
        }
        let key = self.key(depth);
        let moves = match self.table.get(&key) {
            Some(e) if e.pn == 0 || e.dn == 0 || e.pn >= th_pn || e.dn >= th_dn || self.stopped => {
                return (e.pn, e.dn);
            }
            Some(Entry {
                moves: Some(moves), ..
            }) => moves.clone(),
            _ if self.stopped => return (1, 1),
            _ => match self.expand(depth) {
                Err(Stopped) => {
                    self.stopped = true;
                    return (1, 1);
                }
                Ok(Expansion::Proved) => {
                    self.store(
                        key,
                        Entry {
                            pn: 0,
                            dn: INF,
                            moves: None,
                        },
                    );
                    return (0, INF);
                }
                Ok(Expansion::Disproved) => {
                    self.store(
                        key,
                        Entry {
                            pn: INF,
                            dn: 0,
                            moves: None,
                        },
                    );
                    return (INF, 0);
                }
                Ok(Expansion::Moves(moves)) => {
                    let moves: std::rc::Rc<[Point]> = moves.into();
                    self.store(
                        key,
                        Entry {
                            pn: 1,
                            dn: 1,
                            moves: Some(moves.clone()),
                        },
                    );
                    moves
                }
            },
        };
        let is_or = self.is_or();
        let child_depth = self.child_depth(depth);
        let child_depth_key = depth_key(child_depth);
        loop {
            // Gather the children's numbers: (pn, dn) seen from this node's side.
            let (mut best, mut best_value, mut second) = (0usize, INF, INF);
            let (mut sum, mut infinite) = (0u32, false);
            let mut best_child = (1, 1);
            for (i, &m) in moves.iter().enumerate() {
                let ckey = self.board.hash_after(m) ^ child_depth_key;
                let (cpn, cdn) = self.table.get(&ckey).map_or((1, 1), |e| (e.pn, e.dn));
                // For an OR node we minimise pn and add dn; for an AND node the reverse.
                let (select, add) = if is_or { (cpn, cdn) } else { (cdn, cpn) };
                infinite |= add == INF;
                sum = sum.saturating_add(add).min(INF - 1);
                if select < best_value {
                    second = best_value;
                    best_value = select;
                    best = i;
                    best_child = (cpn, cdn);
                } else if select < second {
                    second = select;
                }
            }
            if infinite {
                sum = INF;
            }
            let (pn, dn) = if is_or {
                (best_value, sum)
            } else {
                (sum, best_value)
            };
            let entry = Entry {
                pn,
                dn,
                moves: Some(moves.clone()),
            };
            self.store(key, entry);
            if pn == 0 || dn == 0 || pn >= th_pn || dn >= th_dn || self.stopped {
                return (pn, dn);
            }
            // Thresholds for the best child, with the 1+ε trick on the sibling bound.
            let grow = |v: u32| v.saturating_add(v / 4).saturating_add(1);
            let (c_th_pn, c_th_dn) = if is_or {
                (
                    th_pn.min(grow(second)),
                    th_dn.saturating_sub(dn).saturating_add(best_child.1),
                )
            } else {
                (
                    th_pn.saturating_sub(pn).saturating_add(best_child.0),
                    th_dn.min(grow(second)),
                )
            };
            let m = moves[best];
            self.board.play_unchecked(m);
            self.mid(child_depth, c_th_pn.min(INF - 1), c_th_dn.min(INF - 1));
            self.board.undo();
        }
    }

    /// The winning line from a proved root: the attacker's proved moves, the defender's
    /// replies that the search had to answer explicitly (else one the certificate refutes),
    /// and the VCF that finishes it.
    fn principal_line(&mut self, depth: Option<u32>) -> Result<Line, Stopped> {
        let start = self.board.moves().len();
        let mut depth = depth;
        let mut line = Vec::new();
        let ending = loop {
            if self.is_or() {
                if let Some(finish) = self.find_vcf(self.attacker, depth.unwrap_or(UNLIMITED))? {
                    line.extend(&finish.moves);
                    break finish.ending;
                }
                let m = self
                    .proved_child(depth)?
                    .expect("a proved OR node has a proved child");
                depth = self.child_depth(depth);
                line.push(m);
                self.board.play_unchecked(m);
            } else {
                let last = *self.board.moves().last().expect("an attacker move");
                let four = self.board.four_at(last, self.attacker);
                if four.count >= 2 {
                    let [Some(a), Some(b)] = four.points else {
                        unreachable!("two five points")
                    };
                    line.extend([a, b]);
                    break Ending::Five;
                }
                if let Some(f) = four.single()
                    && self.block_forbidden(f)
                {
                    break Ending::ForbiddenBlock;
                }
                let reply = match self.proved_child(depth)? {
                    Some(r) => r,
                    None => self.refuted_reply(depth)?,
                };
                line.push(reply);
                self.board.play_unchecked(reply);
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

    /// A child of this proved node that is proved (for an AND node, its first explicit reply;
    /// `None` if it has none). Children the table has lost are searched again.
    fn proved_child(&mut self, depth: Option<u32>) -> Result<Option<Point>, Stopped> {
        let key = self.key(depth);
        let moves = match self.table.get(&key).and_then(|e| e.moves.clone()) {
            Some(moves) => moves,
            None => match self.expand(depth)? {
                Expansion::Moves(moves) => moves.into(),
                Expansion::Proved | Expansion::Disproved => return Ok(None),
            },
        };
        let child_depth = self.child_depth(depth);
        for &m in moves.iter() {
            self.board.play_unchecked(m);
            let (pn, _) = self.mid(child_depth, INF - 1, INF - 1);
            self.board.undo();
            if self.stopped {
                return Err(Stopped);
            }
            if pn == 0 {
                return Ok(Some(m));
            }
        }
        Ok(None)
    }

    /// A defender reply that the certificate refutes, for the principal line.
    fn refuted_reply(&mut self, depth: Option<u32>) -> Result<Point, Stopped> {
        let certificate = self
            .certificate(depth)?
            .expect("a proved threat has a certificate");
        let zone = self.zone_of(self.attacker, &certificate);
        let mut fallback = None;
        for r in self.board.points() {
            if !self.legal_for(r, self.defender) {
                continue;
            }
            let counter = self.board.four_at(r, self.defender);
            if counter.count == 0 && self.refuted_by(&certificate, r, None) {
                if zone.contains(r) {
                    return Ok(r);
                }
                fallback.get_or_insert(r);
            }
        }
        Ok(fallback.expect("a proved threat leaves the defender a losing reply"))
    }
}
