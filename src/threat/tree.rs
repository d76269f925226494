//! A proof as data, with points ([`ProofTree`]): what the VCT search builds and what `solve`
//! reads out of its table and lends between positions. It can be mapped by a symmetry, checked
//! on a similar board (does it still hold there?), and written out as played there.
//!
//! A defender node's [`Certificate`] answers every reply the node does not list: the attacker's
//! VCF were the defender to pass, or a whole proof of the attacker's win were the defender to
//! pass (a node of the same tree, on the same stones with the attacker to move), or nothing, in
//! which case every legal reply is listed.

use std::collections::HashSet;

use crate::proof::{self, Proof, ProofNode, names};
use crate::rules::{Board, Color, Point};

use super::Line;
use super::vcf::{as_played, replay};
use super::zone::{PointSet, breaking_replies};

/// A proof that the attacker, to move at the root, wins: a DAG of nodes that refer to each
/// other by index.
#[derive(Clone, Debug)]
pub(crate) struct ProofTree {
    /// Index of the root, an attacker node.
    pub(crate) root: usize,
    /// The nodes.
    pub(crate) nodes: Vec<TreeNode>,
}

/// What answers a defender node's replies that it does not list.
#[derive(Clone, Debug)]
pub(crate) enum Certificate {
    /// Nothing: every legal reply is listed.
    None,
    /// The attacker's VCF were the defender to pass (after a four, the five).
    Line(Line),
    /// A proof of the attacker's win were the defender to pass: the index of an attacker node
    /// of the same tree, on the defender node's stones.
    Proof(usize),
}

/// A node of a [`ProofTree`].
#[derive(Clone, Debug)]
pub(crate) enum TreeNode {
    /// The attacker plays `play`, leading to `child`.
    Move { play: Point, child: usize },
    /// The attacker wins by this VCF (a five to play is a VCF of no fours).
    Vcf(Line),
    /// The defender is to move: the certificate beats every reply not listed.
    Replies {
        certificate: Certificate,
        replies: Vec<(Point, usize)>,
    },
}

/// Positions (node, Zobrist key with the side to move) a check has found to hold.
type Seen = HashSet<(usize, u64)>;

impl ProofTree {
    /// A proof in the proof format as a tree, to try on other boards; `None` if a point does
    /// not parse, a node refers to one that does not exist, or the root is the attacker's
    /// five already on the board (nothing to lend).
    pub(crate) fn read(proof: &Proof) -> Option<ProofTree> {
        let size: crate::rules::Size = proof.size.parse().ok()?;
        let point = |s: &str| s.parse::<Point>().ok().filter(|&p| size.contains(p));
        let points = |v: &[String]| v.iter().map(|s| point(s)).collect::<Option<Vec<_>>>();
        let line = |v: &[String]| {
            Some(Line {
                moves: points(v)?,
                ending: super::Ending::Five,
            })
        };
        let len = proof.nodes.len();
        let index = |i: usize| (i < len).then_some(i);
        let nodes = proof
            .nodes
            .iter()
            .map(|node| {
                Some(match node {
                    ProofNode::Move { play, child } => TreeNode::Move {
                        play: point(play)?,
                        child: index(*child)?,
                    },
                    ProofNode::Vcf { line: l } => TreeNode::Vcf(line(l)?),
                    ProofNode::Replies {
                        certificate,
                        replies,
                    } => TreeNode::Replies {
                        certificate: match certificate {
                            None => Certificate::None,
                            Some(proof::Certificate::Line(l)) => Certificate::Line(line(l)?),
                            Some(proof::Certificate::Proof(c)) => Certificate::Proof(index(*c)?),
                        },
                        replies: replies
                            .iter()
                            .map(|(r, c)| Some((point(r)?, index(*c)?)))
                            .collect::<Option<_>>()?,
                    },
                    ProofNode::Five => return None,
                })
            })
            .collect::<Option<Vec<_>>>()?;
        Some(ProofTree {
            root: index(proof.root)?,
            nodes,
        })
    }

    /// The tree in the proof format: a proof that `attacker` wins on `board` (the tree's
    /// root position, as it stands there).
    pub(crate) fn written(&self, board: &Board, attacker: Color) -> Proof {
        let mut proof = Proof::header(board, attacker);
        proof.root = self.root;
        proof.nodes = self.nodes.iter().map(written).collect();
        proof
    }

    /// The same tree with every point mapped by `f` (a symmetry of the board).
    pub(crate) fn map(&self, f: impl Fn(Point) -> Point) -> ProofTree {
        let line = |l: &Line| Line {
            moves: l.moves.iter().map(|&p| f(p)).collect(),
            ending: l.ending,
        };
        let nodes = self
            .nodes
            .iter()
            .map(|n| match n {
                TreeNode::Move { play, child } => TreeNode::Move {
                    play: f(*play),
                    child: *child,
                },
                TreeNode::Vcf(l) => TreeNode::Vcf(line(l)),
                TreeNode::Replies {
                    certificate,
                    replies,
                } => TreeNode::Replies {
                    certificate: match certificate {
                        Certificate::Line(l) => Certificate::Line(line(l)),
                        Certificate::Proof(c) => Certificate::Proof(*c),
                        Certificate::None => Certificate::None,
                    },
                    replies: replies.iter().map(|&(r, c)| (f(r), c)).collect(),
                },
            })
            .collect();
        ProofTree {
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
    /// nothing unchecked. Nodes no longer reached are dropped. `None` if the tree does not
    /// hold on `board` after all (a move on a taken point, a certificate that fails).
    pub(crate) fn as_played(&self, board: &mut Board, attacker: Color) -> Option<ProofTree> {
        let mut played = ProofTree {
            root: 0,
            nodes: Vec::new(),
        };
        let mut index = std::collections::HashMap::new();
        let mut seen = Seen::new();
        played.root = self.as_played_at(
            self.root,
            board,
            attacker,
            &mut played,
            &mut index,
            &mut seen,
        )?;
        Some(played)
    }

    /// Adds node `node` as played on `board` to `played`, after its children (once per
    /// position); returns its index there.
    fn as_played_at(
        &self,
        node: usize,
        board: &mut Board,
        attacker: Color,
        played: &mut ProofTree,
        index: &mut std::collections::HashMap<(usize, u64), usize>,
        seen: &mut Seen,
    ) -> Option<usize> {
        if let Some(&i) = index.get(&(node, board.hash())) {
            return Some(i);
        }
        let defender = attacker.opponent();
        let replies_node = matches!(self.nodes[node], TreeNode::Replies { .. });
        if replies_node != (board.to_move() == defender) {
            return None;
        }
        let made = match &self.nodes[node] {
            TreeNode::Replies {
                certificate,
                replies,
            } => {
                let breaking = self.breaking(certificate, board, attacker, seen)?;
                board.set_to_move(attacker);
                let certificate = match certificate {
                    Certificate::Line(line) => {
                        Some(Certificate::Line(as_played(board, attacker, line, None)))
                    }
                    Certificate::Proof(c) => self
                        .as_played_at(*c, board, attacker, played, index, seen)
                        .map(Certificate::Proof),
                    Certificate::None => Some(Certificate::None),
                };
                board.set_to_move(defender);
                let certificate = certificate?;
                let mut kept = Vec::new();
                for &(r, child) in replies {
                    if breaking.contains(&r) {
                        if !board.is_empty(r) {
                            return None;
                        }
                        board.play_unchecked(r);
                        let child = self.as_played_at(child, board, attacker, played, index, seen);
                        board.undo();
                        kept.push((r, child?));
                    }
                }
                TreeNode::Replies {
                    certificate,
                    replies: kept,
                }
            }
            // The attacker has a five to play here (on the board the tree was found on, a
            // defender stone stood there): the proof ends with it, as a search would end it.
            _ if let Some(five) = Line::five_to_play(board, attacker) => TreeNode::Vcf(five),
            TreeNode::Vcf(line) => {
                let threat = board.five_points(defender).first().copied();
                TreeNode::Vcf(as_played(board, attacker, line, threat))
            }
            TreeNode::Move { play, child } => {
                if !board.is_empty(*play) {
                    return None;
                }
                board.play_unchecked(*play);
                let child = self.as_played_at(*child, board, attacker, played, index, seen);
                board.undo();
                TreeNode::Move {
                    play: *play,
                    child: child?,
                }
            }
        };
        let i = played.nodes.len();
        played.nodes.push(made);
        index.insert((node, board.hash()), i);
        Some(i)
    }

    /// Whether the tree proves a win for `attacker`, to move on `board`. Every attacker move is
    /// replayed, and at every defender node the certificate must win after a pass and every
    /// reply that breaks it (by the rules, on this board) must be listed and proved: a proof
    /// found for one position can so be tried on a similar one (simulation).
    pub(crate) fn holds(&self, board: &mut Board, attacker: Color) -> bool {
        self.holds_at(self.root, board, attacker, &mut Seen::new())
    }

    /// The defender's legal replies (the defender to move on `board`) after which this tree, a
    /// proof of `attacker`'s win were the defender to pass, no longer holds, sorted; `None` if
    /// it does not hold after a pass either. Every other reply loses to the tree.
    pub(crate) fn replies_not_answered(
        &self,
        board: &mut Board,
        attacker: Color,
    ) -> Option<Vec<Point>> {
        self.breaking(
            &Certificate::Proof(self.root),
            board,
            attacker,
            &mut Seen::new(),
        )
    }

    /// Whether node `node` holds on `board`, where its side is to move.
    fn holds_at(&self, node: usize, board: &mut Board, attacker: Color, seen: &mut Seen) -> bool {
        if seen.contains(&(node, board.hash())) {
            return true;
        }
        let defender = attacker.opponent();
        // An attacker node (a move, a VCF) with the attacker to move, a defender node with the
        // defender to move: a tree read from a file need not keep to that, and a four played
        // at the defender's turn is no win.
        let replies_node = matches!(self.nodes[node], TreeNode::Replies { .. });
        if replies_node != (board.to_move() == defender) {
            return false;
        }
        let threats = board.five_points(defender);
        let five_at =
            |board: &Board, p: Point| board.is_empty(p) && board.four_at(p, attacker).five;
        let holds = match &self.nodes[node] {
            TreeNode::Vcf(line) => match line.moves.first() {
                None => false,
                Some(&first) if threats.len() >= 2 => five_at(board, first),
                Some(_) => replay(board, attacker, line, threats.first().copied(), &mut |_| {}),
            },
            TreeNode::Move { play, child } => {
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
            TreeNode::Replies {
                certificate,
                replies,
            } => {
                threats.is_empty()
                    && self
                        .breaking(certificate, board, attacker, seen)
                        .is_some_and(|breaking| {
                            breaking.into_iter().all(|r| {
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
                        })
            }
        };
        if holds {
            seen.insert((node, board.hash()));
        }
        holds
    }

    /// The legal replies of the defender (to move on `board`, with no five point) that
    /// `certificate` does not answer, sorted; `None` if the certificate does not win after a
    /// pass at all.
    fn breaking(
        &self,
        certificate: &Certificate,
        board: &mut Board,
        attacker: Color,
        seen: &mut Seen,
    ) -> Option<Vec<Point>> {
        let defender = attacker.opponent();
        let mut breaking: Vec<Point> = match certificate {
            Certificate::Line(line) => {
                board.set_to_move(attacker);
                let wins = replay(board, attacker, line, None, &mut |_| {});
                board.set_to_move(defender);
                if !wins {
                    return None;
                }
                breaking_replies(board, attacker, line)
                    .into_iter()
                    .map(|(r, _)| r)
                    .collect()
            }
            Certificate::Proof(c) => {
                board.set_to_move(attacker);
                let wins = self.holds_at(*c, board, attacker, seen);
                // Only the replies in the proof's zone can break it; where the zone is not
                // worked out, every legal reply is replayed.
                let zone = if wins {
                    self.zone(*c, board, attacker)
                } else {
                    None
                };
                board.set_to_move(defender);
                if !wins {
                    return None;
                }
                let breaking = self.breaking_among(*c, board, attacker, seen, zone.as_ref());
                #[cfg(debug_assertions)]
                if zone.is_some() {
                    debug_assert_eq!(
                        breaking,
                        self.breaking_among(*c, board, attacker, seen, None),
                        "the zone of a proof misses a reply that breaks it"
                    );
                }
                breaking
            }
            // A full board with no winner is a draw: no reply to list, and no win.
            Certificate::None if board.is_full() => return None,
            Certificate::None => board
                .points()
                .filter(|&r| board.is_legal_for(r, defender))
                .collect(),
        };
        breaking.sort_unstable();
        Some(breaking)
    }

    /// The defender's legal replies (to move on `board`) in `zone` (all, if `None`) that make
    /// a five or after which node `c`, an attacker node that holds here after a pass, no
    /// longer holds, in board order.
    fn breaking_among(
        &self,
        c: usize,
        board: &mut Board,
        attacker: Color,
        seen: &mut Seen,
        zone: Option<&PointSet>,
    ) -> Vec<Point> {
        let defender = attacker.opponent();
        let tries: Vec<Point> = board
            .points()
            .filter(|&r| zone.is_none_or(|z| z.contains(r)) && board.is_legal_for(r, defender))
            .collect();
        tries
            .into_iter()
            .filter(|&r| {
                if board.four_at(r, defender).five {
                    return true;
                }
                board.play_unchecked(r);
                let holds = self.holds_at(c, board, attacker, seen);
                board.undo();
                !holds
            })
            .collect()
    }
}

/// A node of a tree as the proof format writes it.
fn written(node: &TreeNode) -> ProofNode {
    match node {
        TreeNode::Move { play, child } => ProofNode::Move {
            play: play.to_string(),
            child: *child,
        },
        TreeNode::Vcf(line) => ProofNode::Vcf {
            line: names(&line.moves),
        },
        TreeNode::Replies {
            certificate,
            replies,
        } => ProofNode::Replies {
            certificate: match certificate {
                Certificate::None => None,
                Certificate::Line(line) => Some(proof::Certificate::Line(names(&line.moves))),
                Certificate::Proof(c) => Some(proof::Certificate::Proof(*c)),
            },
            replies: replies
                .iter()
                .map(|&(r, child)| (r.to_string(), child))
                .collect(),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::{PositionOptions, parse_position};
    use crate::threat::Ending;

    fn point(name: &str) -> Point {
        name.parse().unwrap()
    }

    /// Found by review: a tree from a file that plays the attacker's four and then, at the
    /// defender's turn, the attacker's five "held": the turn was not checked, so a plain four
    /// looked like a win. Black's h8 i8 j8, blocked at g8: k8 is a four, and White blocks l8.
    #[test]
    fn a_move_at_the_defenders_turn_does_not_hold() {
        let mut board = parse_position("h8 g8 i8 a1 j8 a2", &PositionOptions::default()).unwrap();
        assert_eq!(board.to_move(), Color::Black);
        let five = Line {
            moves: vec![point("l8")],
            ending: Ending::Five,
        };
        let lie = ProofTree {
            root: 0,
            nodes: vec![
                TreeNode::Move {
                    play: point("k8"),
                    child: 1,
                },
                TreeNode::Move {
                    play: point("l8"),
                    child: 2,
                },
                TreeNode::Vcf(five.clone()),
            ],
        };
        assert!(!lie.holds(&mut board, Color::Black));
        assert!(lie.as_played(&mut board, Color::Black).is_none());
        // The same four answered: White's block listed, then Black's... nothing wins, and a
        // defender node at the attacker's turn does not hold either.
        let pass = ProofTree {
            root: 0,
            nodes: vec![TreeNode::Replies {
                certificate: Certificate::Line(five),
                replies: Vec::new(),
            }],
        };
        assert!(!pass.holds(&mut board, Color::Black));
    }

    /// Found by review: a defender node with no certificate on a full board has no reply to
    /// list, and "held", so a draw passed for a win. Freestyle, k = 3, on 3x3: Black's c1
    /// fills the board with no three.
    #[test]
    fn a_full_board_is_no_win() {
        let options = PositionOptions {
            size: crate::rules::Size::new(3, 3).unwrap(),
            rules: crate::rules::Rules::new(crate::rules::Rule::Freestyle, Some(3)).unwrap(),
            to_move: None,
        };
        let mut board = parse_position("a3 b3 c3 b2 a2 c2 b1 a1", &options).unwrap();
        assert_eq!(board.to_move(), Color::Black);
        assert!(board.fives().is_empty());
        let draw = ProofTree {
            root: 0,
            nodes: vec![
                TreeNode::Move {
                    play: point("c1"),
                    child: 1,
                },
                TreeNode::Replies {
                    certificate: Certificate::None,
                    replies: Vec::new(),
                },
            ],
        };
        assert!(!draw.holds(&mut board, Color::Black));
        assert!(draw.as_played(&mut board, Color::Black).is_none());
    }
}
