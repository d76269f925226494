//! Threat-sequence search: forced wins by consecutive fours (VCF) and by consecutive threats,
//! fours and threes (VCT).
//!
//! The attacker may be either colour. When it is not the side to move, the search answers "if
//! the defender passed now". Renju is handled exactly: Black never plays a forbidden point, a
//! white four whose only block is forbidden for Black wins, a defender's four must be answered
//! at once (by a five, or by a four that also blocks), and a defender's five ends the line.
//!
//! Results are honest: [`Outcome::Win`] carries a line that was found, [`Outcome::NoWin`] is
//! given only when the search was complete, and anything cut short by a limit is
//! [`Outcome::Unknown`].

mod key_table;
mod proof_zone;
#[cfg(test)]
mod testing;
mod tree;
mod vcf;
mod vct;
mod zone;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use serde::Serialize;

use crate::proof::Proof;
use crate::rules::{Board, Color, Point};

pub(crate) use key_table::KeyTable;
pub(crate) use vcf::{Stopped, UNLIMITED, VcfSearch, VcfTable};
pub use vcf::{VcfOptions, vcf};
pub(crate) use zone::breaking_replies;

/// `mb` MiB in bytes (saturating).
pub(crate) fn mebibytes(mb: u64) -> usize {
    usize::try_from(mb.saturating_mul(1 << 20)).unwrap_or(usize::MAX)
}

/// One search's part of a table bound of `total` MiB shared by `parts` searches running at
/// once (threads, or a batch's positions): an equal part, and at least 16 MiB.
#[must_use]
pub fn memory_share(total: u64, parts: usize) -> u64 {
    (total / parts.max(1) as u64).max(16)
}

pub(crate) use tree::{Certificate, ProofTree, TreeNode};
pub use vct::{VctOptions, vct};
pub(crate) use vct::{VctTable, prove as prove_vct};

/// How a winning line ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Ending {
    /// The attacker's last move is a five.
    Five,
    /// The attacker's last move is a white four whose only block is forbidden for Black.
    ForbiddenBlock,
    /// The attacker already had a five on the board: the line is empty.
    AlreadyWon,
}

/// A principal line: attacker and defender moves alternating, attacker first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// The moves.
    pub moves: Vec<Point>,
    /// How it ends.
    pub ending: Ending,
}

impl Line {
    /// The five `color` has to play on `board`, as a line of that one move, if it has one.
    #[must_use]
    pub(crate) fn five_to_play(board: &Board, color: Color) -> Option<Line> {
        board.five_points(color).first().map(|&five| Line {
            moves: vec![five],
            ending: Ending::Five,
        })
    }

    /// Number of attacker moves in the line (the final five included).
    #[must_use]
    pub fn attacker_moves(&self) -> usize {
        self.moves.len().div_ceil(2)
    }

    /// Number of attacker fours: attacker moves other than the final five.
    #[must_use]
    pub fn fours(&self) -> usize {
        match self.ending {
            Ending::Five => self.attacker_moves().saturating_sub(1),
            Ending::ForbiddenBlock | Ending::AlreadyWon => self.attacker_moves(),
        }
    }
}

/// The answer of a search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// A forced win, with its line.
    Win(Line),
    /// Proved: no forced win of the kind searched (within the length limit, if one was set).
    NoWin,
    /// The search was stopped by a time or node limit, or from outside.
    Unknown,
}

impl Outcome {
    /// `win`, `no-win` or `unknown`.
    #[must_use]
    pub fn name(&self) -> &'static str {
        match self {
            Outcome::Win(_) => "win",
            Outcome::NoWin => "no-win",
            Outcome::Unknown => "unknown",
        }
    }
}

/// A search's answer and what it cost.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    /// The answer.
    pub outcome: Outcome,
    /// Positions searched.
    pub nodes: u64,
    /// A win's proof in the proof format ([`crate::proof`]), for the independent checker:
    /// from the searched board with the attacker to move. Always there for a win of
    /// [`vcf`] (the line is the proof); for a win of [`vct`] when [`VctOptions::proof`] asks
    /// for it. `None` for anything but a win.
    pub proof: Option<Proof>,
}

/// The proof that `attacker`, to move on `board`, wins by the VCF `line` (an empty line: the
/// attacker's five is on the board already).
fn line_proof(board: &Board, attacker: Color, line: &Line) -> Proof {
    let mut board = board.clone();
    board.set_to_move(attacker);
    if line.moves.is_empty() {
        return Proof::decided(&board, attacker);
    }
    let mut proof = Proof::header(&board, attacker);
    proof.nodes.push(crate::proof::ProofNode::Vcf {
        line: crate::proof::names(&line.moves),
    });
    proof
}

/// The answer when the game is already over on `board`: a five for the attacker is a win with
/// an empty line, a five for the defender a loss.
fn decided(board: &crate::rules::Board, attacker: crate::rules::Color) -> Option<Report> {
    let fives = board.fives();
    if fives.iter().any(|f| f.color == attacker) {
        let line = Line {
            moves: Vec::new(),
            ending: Ending::AlreadyWon,
        };
        return Some(Report {
            proof: Some(line_proof(board, attacker, &line)),
            outcome: Outcome::Win(line),
            nodes: 0,
        });
    }
    (!fives.is_empty()).then_some(Report {
        outcome: Outcome::NoWin,
        nodes: 0,
        proof: None,
    })
}

/// When a search must stop: a deadline, a node budget, and a flag another thread (a signal
/// handler, a batch driver) may raise.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Stop at this instant.
    pub deadline: Option<Instant>,
    /// Stop after this many nodes.
    pub nodes: Option<u64>,
    /// Stop when this becomes true.
    pub stop: Option<Arc<AtomicBool>>,
    /// Stop when this becomes true too: raised when searches racing on one position (see
    /// [`vct`]) have an answer, while `stop` stays the caller's.
    pub called_off: Option<Arc<AtomicBool>>,
}

impl Limits {
    /// Limits with a time budget from now. A budget too large to represent is no limit.
    #[must_use]
    pub fn with_time(seconds: Option<f64>) -> Limits {
        let deadline = seconds
            .and_then(|s| Duration::try_from_secs_f64(s.max(0.0)).ok())
            .and_then(|d| Instant::now().checked_add(d));
        Limits {
            deadline,
            ..Limits::default()
        }
    }

    /// The limits for reading out a proof found within these, taken `now`: a quarter more of
    /// the time still left and of the node budget, so that a proof found near the end is not
    /// lost to its read-out. A stop flag stays as it is.
    #[must_use]
    pub fn with_read_out_grace(&self, now: Instant) -> Limits {
        Limits {
            deadline: self.deadline.map(|d| {
                d.checked_add(d.saturating_duration_since(now) / 4)
                    .unwrap_or(d)
            }),
            nodes: self.nodes.map(|n| n.saturating_add(n / 4)),
            ..self.clone()
        }
    }

    /// Whether the search must stop, after `nodes` nodes, for a search that asks at every
    /// node: the node budget is read every time, and stays exact; the clock and the flags
    /// only every [`Limits::CLOCK_EVERY`] nodes, since reading the clock costs more than a
    /// node's table probe.
    #[must_use]
    pub fn reached_at_node(&self, nodes: u64) -> bool {
        self.nodes.is_some_and(|n| nodes >= n)
            || (nodes.is_multiple_of(Self::CLOCK_EVERY) && self.reached(nodes))
    }

    /// How often [`Limits::reached_at_node`] reads the clock and the flags, in nodes.
    pub const CLOCK_EVERY: u64 = 256;

    /// Whether the search must stop, after `nodes` nodes.
    #[must_use]
    pub fn reached(&self, nodes: u64) -> bool {
        self.nodes.is_some_and(|n| nodes >= n)
            || self.deadline.is_some_and(|d| Instant::now() >= d)
            || [&self.stop, &self.called_off]
                .into_iter()
                .flatten()
                .any(|s| s.load(Ordering::Relaxed))
    }
}

/// quintet's cases (`tests/data/threats/quintet.jsonl`), each with its board as a diagram.
#[cfg(test)]
pub(crate) fn quintet_cases() -> impl Iterator<Item = (serde_json::Value, String)> {
    include_str!("../../tests/data/threats/quintet.jsonl")
        .lines()
        .map(|line| {
            let case: serde_json::Value = serde_json::from_str(line).unwrap();
            let rows: Vec<&str> = case["board"]
                .as_array()
                .unwrap()
                .iter()
                .map(|r| r.as_str().unwrap())
                .collect();
            let diagram = rows.join("\n");
            (case, diagram)
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_batch_shares_the_memory_bound_among_its_threads() {
        assert_eq!(memory_share(1024, 1), 1024);
        assert_eq!(memory_share(1024, 4), 256);
        assert_eq!(memory_share(100, 3), 33);
        assert_eq!(memory_share(64, 16), 16, "at least 16 MiB");
        assert_eq!(memory_share(16, 0), 16);
    }

    #[test]
    fn the_read_out_grace_is_a_quarter_of_what_is_left() {
        let now = Instant::now();
        let limits = Limits {
            deadline: Some(now + Duration::from_secs(8)),
            nodes: Some(1000),
            ..Limits::default()
        };
        let grace = limits.with_read_out_grace(now);
        assert_eq!(grace.deadline, Some(now + Duration::from_secs(10)));
        assert_eq!(grace.nodes, Some(1250));
        // A deadline already passed gets no more time; no limit stays none.
        let late = limits.with_read_out_grace(now + Duration::from_secs(9));
        assert_eq!(late.deadline, limits.deadline);
        let none = Limits::default().with_read_out_grace(now);
        assert_eq!((none.deadline, none.nodes), (None, None));
    }

    #[test]
    fn a_node_budget_is_exact_and_the_clock_is_read_every_so_often() {
        let budget = Limits {
            nodes: Some(1000),
            ..Limits::default()
        };
        assert!(!budget.reached_at_node(999));
        assert!(budget.reached_at_node(1000));
        let past = Limits {
            deadline: Some(Instant::now()),
            ..Limits::default()
        };
        assert!(past.reached(1));
        assert!(!past.reached_at_node(1));
        assert!(past.reached_at_node(Limits::CLOCK_EVERY));
        let flag = Arc::new(AtomicBool::new(true));
        let stopped = Limits {
            stop: Some(flag),
            ..Limits::default()
        };
        assert!(stopped.reached_at_node(3 * Limits::CLOCK_EVERY));
    }
}
