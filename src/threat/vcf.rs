//! VCF (victory by continuous fours): the attacker plays a four at every move, the defender's
//! reply is forced, and the line ends in a five.
//!
//! A depth-first search over the attacker's fours with a transposition table keyed by Zobrist
//! hashes. Each entry records that no VCF exists within some number of fours (or at all).
//! Without a length limit the search explores until no four is left, so a failure is a proof.
//! With `shortest`, it deepens the limit one four at a time, so the first line found has the
//! fewest fours.

use std::collections::HashMap;

use crate::rules::{Board, Color, Point, Rule};

use super::{Ending, Limits, Line, Outcome, Report};

/// Options of a VCF search.
#[derive(Clone, Debug, Default)]
pub struct VcfOptions {
    /// Look only for lines with at most this many attacker fours.
    pub max_fours: Option<u32>,
    /// Return a line with the fewest attacker fours (iterative deepening).
    pub shortest: bool,
    /// When to stop.
    pub limits: Limits,
}

/// "No VCF at any length" in the transposition table.
const PROVED_NONE: u32 = u32::MAX;
/// Entries kept before the table is cleared (about 200 MB at most).
const TABLE_CAP: usize = 8 << 20;

/// The result of one attacker node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Node {
    Win,
    /// No VCF here; `bounded` if that may be only because of the length limit (or a stop).
    Fail {
        bounded: bool,
    },
}

struct Search<'a> {
    board: Board,
    attacker: Color,
    defender: Color,
    limits: &'a Limits,
    nodes: u64,
    stopped: bool,
    table: HashMap<u64, u32>,
    /// The winning line, built backwards as the recursion unwinds.
    line: Vec<Point>,
    ending: Ending,
}

/// Searches for a VCF for `attacker` in `board`. If `attacker` is not the side to move, the
/// defender is taken to pass first.
#[must_use]
pub fn vcf(board: &Board, attacker: Color, options: &VcfOptions) -> Report {
    let mut board = board.clone();
    board.set_to_move(attacker);
    let defender = attacker.opponent();
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
    if fives.iter().any(|f| f.color == defender) {
        return Report {
            outcome: Outcome::NoWin,
            nodes: 0,
        };
    }
    if let Some(&five) = board.five_points(attacker).first() {
        let line = Line {
            moves: vec![five],
            ending: Ending::Five,
        };
        return Report {
            outcome: Outcome::Win(line),
            nodes: 1,
        };
    }
    let threats = board.five_points(defender);
    let mut search = Search {
        board,
        attacker,
        defender,
        limits: &options.limits,
        nodes: 0,
        stopped: false,
        table: HashMap::new(),
        line: Vec::new(),
        ending: Ending::Five,
    };
    if threats.len() >= 2 {
        // The defender has two fives waiting and the attacker none: nothing stops one of them.
        return Report {
            outcome: Outcome::NoWin,
            nodes: 0,
        };
    }
    let threat = threats.first().copied();
    let depths: Box<dyn Iterator<Item = u32>> = match (options.shortest, options.max_fours) {
        (true, max) => Box::new(1..=max.unwrap_or(PROVED_NONE - 1)),
        (false, Some(max)) => Box::new(std::iter::once(max)),
        (false, None) => Box::new(std::iter::once(PROVED_NONE - 1)),
    };
    let mut outcome = Outcome::NoWin;
    for depth in depths {
        match search.attack(depth, threat) {
            Node::Win => {
                search.line.reverse();
                let line = Line {
                    moves: std::mem::take(&mut search.line),
                    ending: search.ending,
                };
                outcome = Outcome::Win(line);
                break;
            }
            _ if search.stopped => {
                outcome = Outcome::Unknown;
                break;
            }
            Node::Fail { bounded: false } => break,
            Node::Fail { bounded: true } => {}
        }
    }
    Report {
        outcome,
        nodes: search.nodes,
    }
}

impl Search<'_> {
    /// Whether the attacker may play `p` (an empty point): Black never plays a forbidden point.
    fn legal(&self, p: Point) -> bool {
        !(self.attacker == Color::Black && self.board.forbidden(p).is_some())
    }

    /// The attacker's fours: empty points where a stone makes at least one five point.
    fn fours(&self) -> Vec<(Point, crate::rules::Four)> {
        self.board
            .points()
            .filter(|&p| self.board.is_empty(p))
            .filter_map(|p| {
                let four = self.board.four_at(p, self.attacker);
                (four.count > 0).then_some((p, four))
            })
            .collect()
    }

    /// Whether a defender (Black, under renju) may not block at `f`.
    fn block_forbidden(&self, f: Point) -> bool {
        self.defender == Color::Black
            && self.board.rules().rule() == Rule::Renju
            && self.board.forbidden(f).is_some()
    }

    /// The attacker to move with `depth` fours left; `threat` is the defender's five point the
    /// attacker must take, if the defender has one.
    fn attack(&mut self, depth: u32, threat: Option<Point>) -> Node {
        self.nodes += 1;
        if self.nodes % 1024 == 0 && self.limits.reached(self.nodes) {
            self.stopped = true;
        }
        if self.stopped || depth == 0 {
            return Node::Fail { bounded: true };
        }
        let key = self.board.hash();
        if let Some(&proved) = self.table.get(&key)
            && proved >= depth
        {
            return Node::Fail {
                bounded: proved != PROVED_NONE,
            };
        }
        let mut candidates = self.fours();
        if let Some(g) = threat {
            // A defender's four must be answered at once; the answer must itself be a four.
            candidates.retain(|&(p, _)| p == g);
        }
        candidates.retain(|&(p, _)| self.legal(p));
        // A four with two five points cannot be blocked.
        if let Some(&(p, four)) = candidates.iter().find(|(_, four)| four.count >= 2) {
            let [Some(a), Some(b)] = four.points else {
                unreachable!("two five points")
            };
            self.line.extend([b, a, p]);
            self.ending = Ending::Five;
            return Node::Win;
        }
        let mut bounded = false;
        for (p, four) in candidates {
            let f = four.single().expect("a four with one five point");
            self.board.play_unchecked(p);
            if self.block_forbidden(f) {
                self.board.undo();
                self.line.push(p);
                self.ending = Ending::ForbiddenBlock;
                return Node::Win;
            }
            self.board.play_unchecked(f);
            let counter = self.board.four_at(f, self.defender);
            let result = if counter.five || counter.count >= 2 {
                // The block makes a five, or a four the attacker cannot stop in one move.
                Node::Fail { bounded: false }
            } else {
                self.attack(depth - 1, counter.single())
            };
            self.board.undo();
            self.board.undo();
            match result {
                Node::Win => {
                    self.line.extend([f, p]);
                    return Node::Win;
                }
                Node::Fail { bounded: b } => bounded |= b,
            }
        }
        if !self.stopped {
            if self.table.len() >= TABLE_CAP {
                self.table.clear();
            }
            let proved = if bounded { depth } else { PROVED_NONE };
            let entry = self.table.entry(key).or_insert(0);
            *entry = (*entry).max(proved);
        }
        Node::Fail { bounded }
    }
}
