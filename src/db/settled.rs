//! A database's positions as a guide for a search ([`Settled`]): the side each stored position
//! (a root, or any position inside a stored proof, in any symmetric form) is proved won for,
//! and its stored proof written out in the proof format ([`crate::proof`]) in the orientation
//! of the board that asks, for a search to take into its own proof where the guide stood in
//! for a search of its own.
//!
//! A stored VCF keeps the attacker's fours only; written out ([`played_vcf`], shared with the
//! RenLib export), it gets the defender's forced replies back from the rules, and its final
//! five.

use std::collections::HashMap;
use std::sync::Arc;

use super::{Cell, Certificate, Database, Index, Node};
use crate::proof::{self, Proof, ProofNode, names};
use crate::rules::{Board, Color, Defence, Point, Symmetry};

/// The positions of a database, each with the side that wins it and its proof
/// ([`super::Builder::settled`]): a snapshot, which the database may outgrow.
#[derive(Debug)]
pub struct Settled {
    pub(super) db: Arc<Database>,
    pub(super) index: Index,
}

impl Settled {
    /// The side `board`'s position is proved won for, if it is stored (in any symmetric
    /// form). A five on the board is not a position a search asks about: `None`.
    #[must_use]
    pub fn winner(&self, board: &Board) -> Option<Color> {
        self.stored(board).map(|(_, _, winner)| winner)
    }

    /// `board`'s node, the symmetry from its stored orientation onto `board`'s, and the side
    /// that wins it.
    fn stored(&self, board: &Board) -> Option<(u32, Symmetry, Color)> {
        let (n, frame) = self.index.get(board)?;
        let winner = self.db.nodes.get(n as usize)?.winner(board.to_move())?;
        Some((n, frame, winner))
    }

    /// The stored proof of `board`'s position, in `board`'s orientation, as a proof that the
    /// side [`Settled::winner`] names wins; `None` if the position is not stored, or its
    /// proof does not play out on the board (a damaged database: the checker reports those).
    #[must_use]
    pub fn proof(&self, board: &Board) -> Option<Proof> {
        let (n, frame, winner) = self.stored(board)?;
        let mut writer = Writer {
            db: &self.db,
            nodes: Vec::new(),
            ids: HashMap::new(),
        };
        let mut board = board.clone();
        let root = writer.node(n, frame, &mut board)?;
        let mut proof = Proof::header(&board, winner);
        proof.root = root;
        proof.nodes = writer.nodes;
        Some(proof)
    }

    /// Whether it holds none.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.index.is_empty()
    }
}

/// Writes stored nodes out as proof nodes.
struct Writer<'a> {
    db: &'a Database,
    nodes: Vec<ProofNode>,
    /// A stored node, in the orientation it was written in, to its proof node.
    ids: HashMap<(u32, Symmetry), usize>,
}

impl Writer<'_> {
    /// The point of stored cell `c` on `board`, where `frame` maps the stored orientation,
    /// if it is on the board and empty.
    fn point(&self, c: Cell, frame: Symmetry, board: &Board) -> Option<Point> {
        let p = frame.apply(self.db.point(c)?, self.db.size);
        board.is_empty(p).then_some(p)
    }

    /// Writes node `n`, the position on `board` whose stored orientation `frame` maps onto
    /// `board`'s; returns its index. The board is left as it was found.
    fn node(&mut self, n: u32, frame: Symmetry, board: &mut Board) -> Option<usize> {
        if let Some(&id) = self.ids.get(&(n, frame)) {
            return Some(id);
        }
        let db = self.db;
        let made = db.nodes.get(n as usize)?;
        let id = self.nodes.len();
        self.nodes.push(ProofNode::Five);
        self.ids.insert((n, frame), id);
        let written = match made {
            Node::Five => ProofNode::Five,
            Node::Vcf(cells) => ProofNode::Vcf {
                line: names(&won_line(db, cells, frame, board)?),
            },
            Node::Move { play, child } => {
                let p = self.point(*play, frame, board)?;
                board.play_unchecked(p);
                let child = self.node(child.node, frame.after(child.symmetry), board);
                board.undo();
                ProofNode::Move {
                    play: p.to_string(),
                    child: child?,
                }
            }
            Node::Replies {
                certificate,
                replies,
            } => {
                let to_move = board.to_move();
                // The certificate is played as if the side to move had passed.
                board.set_to_move(to_move.opponent());
                let certificate = match certificate {
                    None => Some(None),
                    Some(Certificate::Line(cells)) => won_line(db, cells, frame, board)
                        .map(|line| Some(proof::Certificate::Line(names(&line)))),
                    Some(Certificate::Proof(pass)) => self
                        .node(pass.node, frame.after(pass.symmetry), board)
                        .map(|c| Some(proof::Certificate::Proof(c))),
                };
                board.set_to_move(to_move);
                let mut written = Vec::new();
                for &(c, child) in replies {
                    let p = self.point(c, frame, board)?;
                    board.play_unchecked(p);
                    let child = self.node(child.node, frame.after(child.symmetry), board);
                    board.undo();
                    written.push((p.to_string(), child?));
                }
                ProofNode::Replies {
                    certificate: certificate?,
                    replies: written,
                }
            }
        };
        self.nodes[id] = written;
        Some(id)
    }
}

/// A stored VCF played out to its five on `board` (its side to move the attacker), as a proof
/// line; `None` if it does not play out.
fn won_line(
    db: &Database,
    cells: &[Cell],
    frame: Symmetry,
    board: &mut Board,
) -> Option<Vec<Point>> {
    let played = played_vcf(db, cells, frame, board);
    matches!(played.end, VcfEnd::Five | VcfEnd::Unstoppable(_)).then_some(played.moves)
}

/// A stored VCF as played on a board ([`played_vcf`]).
pub(super) struct PlayedVcf {
    /// Attacker and defender moves alternating, the attacker first: each four and the
    /// defender's forced reply, as far as the line plays out, and the final five if it
    /// reaches one.
    pub(super) moves: Vec<Point>,
    /// How it ends.
    pub(super) end: VcfEnd,
}

/// How a stored VCF played on a board ends.
pub(super) enum VcfEnd {
    /// In a five, the last of the moves.
    Five,
    /// In a four the defender cannot stop: its only stops are forbidden (why, in words).
    Unstoppable(String),
    /// Cut short: a stored move cannot be played (a damaged database; the stored cell).
    Unplayable(Cell),
    /// Cut short by a four that is no four, or one the defender may stop in more than one
    /// way (why, in words).
    Broken(String),
    /// The moves ran out with no five to play.
    Open,
}

/// Plays the stored VCF `cells` (the side to move's fours, in the stored orientation that
/// `frame` maps onto `board`'s, the final five left out) on `board`: each four, the defender's
/// forced reply from the rules, and the final five. The board is left as it was found.
pub(super) fn played_vcf(
    db: &Database,
    cells: &[Cell],
    frame: Symmetry,
    board: &mut Board,
) -> PlayedVcf {
    let attacker = board.to_move();
    let defender = attacker.opponent();
    let mut moves = Vec::new();
    let mut end = VcfEnd::Open;
    for &c in cells {
        let Some(p) = db
            .point(c)
            .map(|p| frame.apply(p, db.size))
            .filter(|&p| board.is_empty(p))
        else {
            end = VcfEnd::Unplayable(c);
            break;
        };
        board.play_unchecked(p);
        moves.push(p);
        if board.makes_five(p, attacker) {
            // A line that keeps its final five.
            end = VcfEnd::Five;
            break;
        }
        // The defender's reply, or why the line ends here.
        let reply = match board.defence(p, attacker) {
            Defence::Forced(q) if board.is_legal(q) => Ok(q),
            Defence::Forced(q) => Err(VcfEnd::Unstoppable(format!(
                "{defender} cannot stop the four at {q}: it is forbidden"
            ))),
            Defence::Unstoppable => {
                // Two fives: the defender stops one, the attacker plays another.
                board
                    .five_points(attacker)
                    .into_iter()
                    .find(|&q| board.is_legal(q))
                    .ok_or(VcfEnd::Unstoppable(format!(
                        "{defender} cannot stop either five: both are forbidden"
                    )))
            }
            Defence::Choice(points) => Err(VcfEnd::Broken(format!(
                "{defender} may stop the four at any of {}",
                points
                    .iter()
                    .map(Point::to_string)
                    .collect::<Vec<_>>()
                    .join(" ")
            ))),
            Defence::NoFour => Err(VcfEnd::Broken(format!("{p} is no four: damaged database"))),
        };
        match reply {
            Ok(q) => {
                board.play_unchecked(q);
                moves.push(q);
            }
            Err(why) => {
                end = why;
                break;
            }
        }
    }
    if matches!(end, VcfEnd::Open)
        && board.to_move() == attacker
        && board.fives().is_empty()
        && let Some(&five) = board.five_points(attacker).first()
    {
        board.play_unchecked(five);
        moves.push(five);
        end = VcfEnd::Five;
    }
    for _ in 0..moves.len() {
        board.undo();
    }
    PlayedVcf { moves, end }
}
