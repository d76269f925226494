//! The proofs a search keeps to lend ([`super::super::table::Table::lend`]) on disk: each
//! distinct tree once, then the positions it is lent to with their frames. Without them a
//! search that goes on from a state reads the proof of a node proved by a lent tree out by
//! searching the node again (Kagetsu's `h8 h9 i9 g6`: 21M nodes of read-out instead of 2.5M).
//!
//! A tree read back is checked for shape only (indexes in range, no cycle, points on the
//! board): whether it proves anything is decided where it is used, by the rules replaying it
//! on the board, as for a tree lent in the same run.

use std::collections::HashMap;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::rules::{Point, Symmetry};
use crate::threat::{Certificate, Ending, Line, ProofTree, TreeNode};

/// A point on disk: file and rank from zero.
type Spot = (u8, u8);

fn spot(p: Point) -> Spot {
    (p.x(), p.y())
}

/// A line on disk: its moves and how it ends (0 a five, 1 a forbidden block, 2 already won).
#[derive(Serialize, Deserialize)]
struct LineRecord(Vec<Spot>, u8);

#[derive(Serialize, Deserialize)]
enum CertificateRecord {
    None,
    Line(LineRecord),
    Proof(u32),
}

#[derive(Serialize, Deserialize)]
enum NodeRecord {
    Move(Spot, u32),
    Vcf(LineRecord),
    Replies(CertificateRecord, Vec<(Spot, u32)>),
}

/// A tree on disk: its root's index and its nodes.
#[derive(Serialize, Deserialize)]
pub(super) struct TreeRecord(u32, Vec<NodeRecord>);

/// A lent proof on disk: the key of the position, the tree's place in the file's list, and
/// the frame ([`Symmetry::index`]).
pub(super) type LentRecord = (u64, u32, u8);

fn index(i: usize) -> u32 {
    u32::try_from(i).expect("a tree of over 4G nodes")
}

fn line_record(line: &Line) -> LineRecord {
    let ending = match line.ending {
        Ending::Five => 0,
        Ending::ForbiddenBlock => 1,
        Ending::AlreadyWon => 2,
    };
    LineRecord(line.moves.iter().map(|&p| spot(p)).collect(), ending)
}

/// `tree` on disk.
pub(super) fn tree_record(tree: &ProofTree) -> TreeRecord {
    let nodes = tree
        .nodes
        .iter()
        .map(|n| match n {
            TreeNode::Move { play, child } => NodeRecord::Move(spot(*play), index(*child)),
            TreeNode::Vcf(line) => NodeRecord::Vcf(line_record(line)),
            TreeNode::Replies {
                certificate,
                replies,
            } => NodeRecord::Replies(
                match certificate {
                    Certificate::None => CertificateRecord::None,
                    Certificate::Line(line) => CertificateRecord::Line(line_record(line)),
                    Certificate::Proof(c) => CertificateRecord::Proof(index(*c)),
                },
                replies.iter().map(|&(r, c)| (spot(r), index(c))).collect(),
            ),
        })
        .collect();
    TreeRecord(index(tree.root), nodes)
}

/// The distinct trees of `lent` (by their allocation), and each lent proof pointing at its
/// tree's place among them.
pub(super) fn records(
    lent: &[(u64, Arc<ProofTree>, Symmetry)],
) -> (Vec<Arc<ProofTree>>, Vec<LentRecord>) {
    let mut trees = Vec::new();
    let mut places: HashMap<*const ProofTree, u32> = HashMap::new();
    let records = lent
        .iter()
        .map(|(key, tree, frame)| {
            let place = *places.entry(Arc::as_ptr(tree)).or_insert_with(|| {
                trees.push(tree.clone());
                index(trees.len() - 1)
            });
            let frame = u8::try_from(frame.index()).expect("8 symmetries");
            (*key, place, frame)
        })
        .collect();
    (trees, records)
}

/// The tree `record` holds, if it is well formed: every index in range, no node its own
/// descendant, every point one `on_board` accepts.
pub(super) fn tree(record: TreeRecord, on_board: impl Fn(u8, u8) -> bool) -> Option<ProofTree> {
    let TreeRecord(root, nodes) = record;
    let len = nodes.len();
    let at = |i: u32| usize::try_from(i).ok().filter(|&i| i < len);
    let point = |(x, y): Spot| on_board(x, y).then(|| Point::new(x, y));
    let line = |LineRecord(moves, ending): LineRecord| {
        let ending = match ending {
            0 => Ending::Five,
            1 => Ending::ForbiddenBlock,
            2 => Ending::AlreadyWon,
            _ => return None,
        };
        let moves = moves.into_iter().map(point).collect::<Option<Vec<_>>>()?;
        Some(Line { moves, ending })
    };
    let mut tree = ProofTree {
        root: at(root)?,
        nodes: Vec::with_capacity(len),
    };
    for node in nodes {
        tree.nodes.push(match node {
            NodeRecord::Move(play, child) => TreeNode::Move {
                play: point(play)?,
                child: at(child)?,
            },
            NodeRecord::Vcf(l) => TreeNode::Vcf(line(l)?),
            NodeRecord::Replies(certificate, replies) => TreeNode::Replies {
                certificate: match certificate {
                    CertificateRecord::None => Certificate::None,
                    CertificateRecord::Line(l) => Certificate::Line(line(l)?),
                    CertificateRecord::Proof(c) => Certificate::Proof(at(c)?),
                },
                replies: replies
                    .into_iter()
                    .map(|(r, c)| Some((point(r)?, at(c)?)))
                    .collect::<Option<Vec<_>>>()?,
            },
        });
    }
    acyclic(&tree).then_some(tree)
}

/// The nodes `node` refers to.
fn children(node: &TreeNode) -> Vec<usize> {
    match node {
        TreeNode::Move { child, .. } => vec![*child],
        TreeNode::Vcf(_) => Vec::new(),
        TreeNode::Replies {
            certificate,
            replies,
        } => {
            let mut children: Vec<usize> = replies.iter().map(|&(_, c)| c).collect();
            if let Certificate::Proof(c) = certificate {
                children.push(*c);
            }
            children
        }
    }
}

/// Whether no node of `tree` is its own descendant (Kahn's algorithm: every node can be
/// taken off once all the nodes pointing at it are).
fn acyclic(tree: &ProofTree) -> bool {
    let mut pointing = vec![0usize; tree.nodes.len()];
    for node in &tree.nodes {
        for c in children(node) {
            pointing[c] += 1;
        }
    }
    let mut free: Vec<usize> = (0..tree.nodes.len())
        .filter(|&i| pointing[i] == 0)
        .collect();
    let mut taken = 0;
    while let Some(i) = free.pop() {
        taken += 1;
        for c in children(&tree.nodes[i]) {
            pointing[c] -= 1;
            if pointing[c] == 0 {
                free.push(c);
            }
        }
    }
    taken == tree.nodes.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn on_board(x: u8, y: u8) -> bool {
        x < 15 && y < 15
    }

    fn five() -> LineRecord {
        LineRecord(vec![(7, 7)], 0)
    }

    #[test]
    fn a_tree_reads_back_as_it_was() {
        let record = TreeRecord(
            0,
            vec![
                NodeRecord::Move((7, 7), 1),
                NodeRecord::Replies(CertificateRecord::Line(five()), vec![((8, 8), 2)]),
                NodeRecord::Vcf(LineRecord(vec![(1, 1), (2, 2), (3, 3)], 1)),
            ],
        );
        let tree = tree(record, on_board).unwrap();
        let again = super::tree(tree_record(&tree), on_board).unwrap();
        assert_eq!(format!("{tree:?}"), format!("{again:?}"));
        assert_eq!(tree.root, 0);
        assert_eq!(tree.nodes.len(), 3);
    }

    #[test]
    fn a_malformed_tree_is_refused() {
        // A child out of range.
        assert!(tree(TreeRecord(0, vec![NodeRecord::Move((7, 7), 1)]), on_board).is_none());
        // The root out of range.
        assert!(tree(TreeRecord(1, vec![NodeRecord::Vcf(five())]), on_board).is_none());
        // A cycle through a certificate.
        let cycle = vec![
            NodeRecord::Move((7, 7), 1),
            NodeRecord::Replies(CertificateRecord::Proof(0), Vec::new()),
        ];
        assert!(tree(TreeRecord(0, cycle), on_board).is_none());
        // A point off the board, and an ending that does not exist.
        assert!(
            tree(
                TreeRecord(0, vec![NodeRecord::Vcf(LineRecord(vec![(15, 0)], 0))]),
                on_board
            )
            .is_none()
        );
        assert!(
            tree(
                TreeRecord(0, vec![NodeRecord::Vcf(LineRecord(vec![(1, 0)], 3))]),
                on_board
            )
            .is_none()
        );
    }
}
