//! Reading a proof (the [`crate::proof`] format) out of the search's table, once the root is
//! proved: the winning move at each attacker node, and at each defender node the certificate
//! and the replies that break it, with VCF and VCT leaves grafted in.

use std::collections::HashMap;

use crate::proof::{Proof, ProofNode, names};
use crate::rules::Point;
use crate::threat::{Line, Stopped, UNLIMITED, VctNode, VctTree};

use super::{Expansion, Prover};

/// At a node the table holds as proved, a VCT not found again within the leaf budget is
/// looked for with this many times the budget.
const EXTRACTION_VCT_SHARE: u64 = 64;

/// The attacker's move at the current OR node whose child the table holds as proved.
fn proved_move(p: &mut Prover<'_>) -> Result<Option<Point>, Stopped> {
    let Expansion::Moves(moves) = p.or_moves()? else {
        return Ok(None);
    };
    Ok(moves.iter().map(|m| m.point).find(|&m| {
        let k = p.key_after(m);
        p.table.proved(k)
    }))
}

/// Appends a VCT proof to `nodes`, its root taking the place of node `id`; returns the root.
fn graft(tree: &VctTree, id: usize, nodes: &mut Vec<ProofNode>) -> ProofNode {
    let base = nodes.len();
    // Tree index to proof index: the root becomes `id`, the others follow in order.
    let index = |i: usize| match i.cmp(&tree.root) {
        std::cmp::Ordering::Equal => id,
        std::cmp::Ordering::Less => base + i,
        std::cmp::Ordering::Greater => base + i - 1,
    };
    let convert = |n: &VctNode| match n {
        VctNode::Move { play, child } => ProofNode::Move {
            play: play.to_string(),
            child: index(*child),
        },
        VctNode::Vcf(line) => ProofNode::Vcf {
            line: names(&line.moves),
        },
        VctNode::Replies {
            certificate,
            replies,
        } => ProofNode::Replies {
            certificate: Some(names(&certificate.moves)),
            replies: replies
                .iter()
                .map(|&(r, child)| (r.to_string(), index(child)))
                .collect(),
        },
    };
    for (i, n) in tree.nodes.iter().enumerate() {
        if i != tree.root {
            nodes.push(convert(n));
        }
    }
    convert(&tree.nodes[tree.root])
}

/// The VCT of the current OR node, if it has one within its budget. The node may have been
/// proved by a VCT found in another orientation (a symmetric image) or with another VCF table,
/// which this search misses within the same budget: a larger one is tried before the node is
/// searched again (narrowed, a new search may not find a win a VCT found).
fn leaf_vct(p: &mut Prover<'_>) -> Result<Option<VctTree>, Stopped> {
    if let (true, Some(tree)) = p.find_vct(true)? {
        return Ok(Some(tree));
    }
    if p.at_root() || p.vct_nodes == 0 {
        return Ok(None);
    }
    let budget = p.vct_nodes.saturating_mul(EXTRACTION_VCT_SHARE);
    Ok(p.vct_within(budget, false, true)?.1)
}

/// Reads the proof of a proved root out of `prover`'s table.
pub(super) fn extract(prover: &mut Prover<'_>) -> Result<Proof, Stopped> {
    let mut proof = Proof::header(&prover.board, prover.attacker);
    let mut ids = HashMap::new();
    proof.root = node(prover, &mut proof.nodes, &mut ids)?;
    Ok(proof)
}

fn node(
    p: &mut Prover<'_>,
    nodes: &mut Vec<ProofNode>,
    ids: &mut HashMap<u64, usize>,
) -> Result<usize, Stopped> {
    let key = p.board.hash();
    if let Some(&id) = ids.get(&key) {
        return Ok(id);
    }
    p.ensure_proved()?;
    let id = nodes.len();
    nodes.push(ProofNode::Five);
    ids.insert(key, id);
    let made = if p.is_or() {
        if let Some(&five) = p.board.five_points(p.attacker).first() {
            ProofNode::Vcf {
                line: names(&[five]),
            }
        } else if let Some(line) = p.find_vcf(p.attacker, UNLIMITED)? {
            ProofNode::Vcf {
                line: names(&line.moves),
            }
        } else if let Some(tree) = p.borrowed_here().and_then(|tree| {
            // Lent by a sibling: its lines may list the sibling's forced replies, and its
            // defender nodes replies that only broke the certificate there.
            let attacker = p.attacker;
            tree.as_played(&mut p.board, attacker)
        }) {
            graft(&tree, id, nodes)
        } else if let Some(tree) = leaf_vct(p)? {
            graft(&tree, id, nodes)
        } else {
            let play = match proved_move(p)? {
                Some(play) => play,
                None => {
                    // The table holds this node as proved, but not by a move it can show (a
                    // symmetric image proved by a VCT this orientation misses within its
                    // budget): prove it again here.
                    p.forget();
                    p.ensure_proved()?;
                    proved_move(p)?.ok_or(Stopped)?
                }
            };
            p.board.play_unchecked(play);
            let child = node(p, nodes, ids);
            p.board.undo();
            ProofNode::Move {
                play: play.to_string(),
                child: child?,
            }
        }
    } else {
        let certificate: Option<Line> = p.certificate()?;
        let mut replies = Vec::new();
        for r in p.replies(certificate.as_ref()) {
            p.board.play_unchecked(r);
            let child = node(p, nodes, ids);
            p.board.undo();
            replies.push((r.to_string(), child?));
        }
        ProofNode::Replies {
            certificate: certificate.map(|c| names(&c.moves)),
            replies,
        }
    };
    nodes[id] = made;
    Ok(id)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Color;
    use crate::solve::Entry;
    use crate::solve::tests::{prover_below_root, small_leaf_budget, vct_example};
    use crate::threat::Limits;

    /// A node the table holds as proved by a VCT that the leaf budget does not find again (in
    /// the search it was found in another frame, or with a warmer VCF table) is read out with
    /// a larger budget, not searched again narrowed.
    #[test]
    fn a_proved_node_whose_vct_the_leaf_budget_misses_is_read_out() {
        let board = vct_example(Color::Black);
        let options = small_leaf_budget(Limits::default());
        let mut p = prover_below_root(&board, Color::Black, &options);
        assert!(matches!(p.find_vct(true), Ok((false, None))));

        let tree = leaf_vct(&mut p)
            .unwrap()
            .expect("found with the larger budget");
        assert!(tree.holds(&mut p.board, Color::Black));

        let key = p.board.canonical().key;
        p.store(key, Entry::PROVED);
        let proof = extract(&mut p).unwrap();
        // The VCT's tree, grafted whole in place of the root.
        assert!(matches!(proof.nodes[proof.root], ProofNode::Move { .. }));
        assert_eq!(proof.nodes.len(), tree.nodes.len());
    }
}
