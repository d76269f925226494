//! The proof format, `renju-proof`: what `solve --proof` writes and the checker reads. A proof
//! is a list of nodes that refer to each other by index (a position reached in two ways is one
//! node):
//!
//! - `move` (OR node, attacker to move): the attacker plays `play`, leading to `child`;
//! - `vcf` (OR leaf): the attacker's VCF `line`, attacker and defender alternating, ending in a
//!   five (or, under renju, a white four whose only block is forbidden for Black);
//! - `replies` (AND node, defender to move): `certificate` answers every legal reply not in
//!   `replies`. It is the attacker's VCF were the defender to pass (a list of moves), or the
//!   index of a node that proves the attacker's win were the defender to pass (a `move` or
//!   `vcf` node on the same stones, the attacker to move). With no certificate, `replies` lists
//!   every legal reply (none at all only for Black under renju with every empty point
//!   forbidden: Black must play one and loses);
//! - `five` (root only): the attacker already has a five on the board.
//!
//! This module is the data and nothing else: the search builds proofs (`solve`), and the
//! checker reads them without the search.

use serde::{Deserialize, Serialize};

use crate::rules::{Board, Color, Point};

/// The format name in every proof file.
pub const FORMAT: &str = "renju-proof";
/// The format version; any change to the format bumps it.
pub const VERSION: u32 = 2;

/// A proof that `attacker` wins from the position.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Proof {
    /// Always [`FORMAT`].
    pub format: String,
    /// Always [`VERSION`] for files this build writes.
    pub version: u32,
    /// The rule set (`renju`, `gomoku`, `freestyle`, `caro`).
    pub rule: String,
    /// The win length.
    pub k: u32,
    /// The board size, `15` or `COLSxROWS`.
    pub size: String,
    /// Black's stones at the root.
    pub black: Vec<String>,
    /// White's stones at the root.
    pub white: Vec<String>,
    /// The side to move at the root.
    pub to_move: Color,
    /// The side the proof shows winning.
    pub attacker: Color,
    /// Index of the root node.
    pub root: usize,
    /// The nodes.
    pub nodes: Vec<ProofNode>,
}

/// One node of a proof.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum ProofNode {
    /// The attacker plays `play`; the defender is then to move at `child`.
    Move {
        /// The attacker's move.
        play: String,
        /// The node after it.
        child: usize,
    },
    /// The attacker wins by this VCF line.
    Vcf {
        /// Attacker and defender moves alternating, attacker first.
        line: Vec<String>,
    },
    /// The defender is to move; every reply loses.
    Replies {
        /// What answers every reply not listed; `None` when every legal reply is listed.
        certificate: Option<Certificate>,
        /// The replies searched, each with the node after it.
        replies: Vec<(String, usize)>,
    },
    /// The attacker has a five on the board already.
    Five,
}

/// What answers a defender node's replies that it does not list.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Certificate {
    /// The attacker's VCF were the defender to pass: attacker and defender moves alternating.
    Line(Vec<String>),
    /// The index of the node that proves the attacker's win were the defender to pass: a
    /// position on the defender node's stones, with the attacker to move.
    Proof(usize),
}

/// The names of `points`, in order.
pub fn names(points: &[Point]) -> Vec<String> {
    points.iter().map(ToString::to_string).collect()
}

impl Proof {
    /// A proof of `attacker` winning on `board`, with no nodes yet.
    pub(crate) fn header(board: &Board, attacker: Color) -> Proof {
        let stones = |c: Color| {
            let mut v: Vec<Point> = board
                .stones()
                .filter(|&(_, s)| s == c)
                .map(|(p, _)| p)
                .collect();
            v.sort_unstable();
            names(&v)
        };
        Proof {
            format: FORMAT.to_string(),
            version: VERSION,
            rule: board.rules().rule().to_string(),
            k: u32::from(board.rules().k()),
            size: board.size().to_string(),
            black: stones(Color::Black),
            white: stones(Color::White),
            to_move: board.to_move(),
            attacker,
            root: 0,
            nodes: Vec::new(),
        }
    }

    /// The proof for a board where `winner` already has a five.
    pub(crate) fn decided(board: &Board, winner: Color) -> Proof {
        let mut proof = Proof::header(board, winner);
        proof.nodes.push(ProofNode::Five);
        proof
    }

    /// A principal line: the attacker's moves, the first listed reply at each AND node (or the
    /// certificate, when none is listed), and the final VCF.
    #[must_use]
    pub fn principal_line(&self) -> Vec<Point> {
        let mut line = Vec::new();
        let mut at = self.root;
        let parse = |s: &String| s.parse::<Point>().ok();
        for _ in 0..self.nodes.len() {
            match &self.nodes[at] {
                ProofNode::Move { play, child } => {
                    line.extend(parse(play));
                    at = *child;
                }
                ProofNode::Vcf { line: vcf } => {
                    line.extend(vcf.iter().filter_map(parse));
                    break;
                }
                ProofNode::Replies {
                    certificate,
                    replies,
                } => match replies.first() {
                    Some((r, child)) => {
                        line.extend(parse(r));
                        at = *child;
                    }
                    None => match certificate {
                        Some(Certificate::Line(moves)) => {
                            line.extend(moves.iter().filter_map(parse));
                            break;
                        }
                        Some(Certificate::Proof(pass)) => at = *pass,
                        None => break,
                    },
                },
                ProofNode::Five => break,
            }
        }
        line
    }

    /// The root's move: the winning move of a root OR node, or the first reply a root AND
    /// node lists.
    #[must_use]
    pub fn root_move(&self) -> Option<Point> {
        match self.nodes.get(self.root)? {
            ProofNode::Move { play, .. } => play.parse().ok(),
            ProofNode::Vcf { line } => line.first()?.parse().ok(),
            ProofNode::Replies { replies, .. } => replies.first()?.0.parse().ok(),
            ProofNode::Five => None,
        }
    }
}
