//! A VCT proof as data ([`VctTree`]): mapping it by a symmetry, checking that it still holds on
//! a similar board (simulation), and writing it out as played there.

use crate::rules::{Board, Color, Point};

use super::super::Line;
use super::super::vcf::{as_played, replay};
use super::super::zone::breaking_replies;

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
