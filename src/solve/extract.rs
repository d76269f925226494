//! Reading a proof (the [`crate::proof`] format) out of the search's table, once the root is
//! proved: the winning move at each attacker node, and at each defender node the certificate
//! and the replies that break it, with VCF and VCT leaves grafted in. The proof is built as a
//! [`ProofTree`] (points) and written out at the end.

use std::collections::HashMap;

use crate::proof::Proof;
use crate::rules::Point;
use crate::threat::{Certificate, Line, ProofTree, Stopped, TreeNode, UNLIMITED};

use super::{Expansion, Known, Prover};

/// At a node the table holds as proved, a VCT not found again within the leaf budget is
/// looked for with this many times the budget.
const EXTRACTION_VCT_SHARE: u64 = 64;

/// What a reading is for.
#[derive(Clone, Copy)]
enum Reading<'g> {
    /// The proof of a proved root: every node is read, searching again where the table lost
    /// one. Where the guide stood in for a search, its own proof of the position is taken in
    /// if it holds on the board.
    Proof(Option<&'g Known>),
    /// A proof to lend to a proved node's siblings in the middle of the search: read only from
    /// what the table holds, with the leaf budget, and given up past this many nodes.
    Lend(usize),
}

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

/// Appends `tree` to `nodes`, its root taking the place of node `id`; returns the root.
fn graft(tree: &ProofTree, id: usize, nodes: &mut Vec<TreeNode>) -> TreeNode {
    let base = nodes.len();
    // Tree index to proof index: the root becomes `id`, the others follow in order.
    let index = |i: usize| match i.cmp(&tree.root) {
        std::cmp::Ordering::Equal => id,
        std::cmp::Ordering::Less => base + i,
        std::cmp::Ordering::Greater => base + i - 1,
    };
    let convert = |n: &TreeNode| match n {
        TreeNode::Move { play, child } => TreeNode::Move {
            play: *play,
            child: index(*child),
        },
        TreeNode::Vcf(line) => TreeNode::Vcf(line.clone()),
        TreeNode::Replies {
            certificate,
            replies,
        } => TreeNode::Replies {
            certificate: match certificate {
                Certificate::Proof(c) => Certificate::Proof(index(*c)),
                other => other.clone(),
            },
            replies: replies
                .iter()
                .map(|&(r, child)| (r, index(child)))
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
/// proved by a VCT found in another orientation (a symmetric image), with another VCF table,
/// or from leaf-table entries since dropped, which this search misses within the same
/// budget: a larger one is tried before the node is searched again (narrowed, a new search
/// may not find a win a VCT found). Where the leaf table holds the VCT as won but cannot
/// rebuild its tree (the entries below it dropped to make room, and not found again within
/// the budget), a VCT search from an empty table, with a larger budget still, rebuilds it:
/// searching the node again would only meet the same won entry.
fn leaf_vct(p: &mut Prover<'_>) -> Result<Option<ProofTree>, Stopped> {
    let (won, tree) = p.find_vct(true)?;
    if let (true, Some(tree)) = (won, tree) {
        return Ok(Some(tree));
    }
    if p.at_root() || p.vct_nodes == 0 {
        return Ok(None);
    }
    let budget = p.vct_nodes.saturating_mul(EXTRACTION_VCT_SHARE);
    let (won_again, tree, _) = p.vct_within(budget, super::leaves::VctRun::Leaf, true)?;
    if tree.is_some() || !(won || won_again) {
        return Ok(tree);
    }
    p.fresh_vct(budget.saturating_mul(EXTRACTION_VCT_SHARE))
}

/// The guide's own proof of the current position, where the guide stood in for a search of
/// it, as a tree, if it proves the attacker's win here: replayed by the rules on the board, as
/// a lent proof is, so a wrong guide proves nothing.
fn guide_tree(p: &mut Prover<'_>, guide: Option<&Known>) -> Option<ProofTree> {
    let proof = guide?.proof(&p.board)?;
    if proof.attacker != p.attacker || proof.to_move != p.board.to_move() {
        return None;
    }
    let tree = ProofTree::read(&proof)?;
    let attacker = p.attacker;
    tree.holds(&mut p.board, attacker).then_some(tree)
}

/// Reads the proof of a proved root out of `prover`'s table; `guide` is the guide the search
/// took settled positions from, whose proofs stand in where it did.
pub(super) fn extract(prover: &mut Prover<'_>, guide: Option<&Known>) -> Result<Proof, Stopped> {
    let mut nodes = Vec::new();
    let root = node(
        prover,
        Reading::Proof(guide),
        &mut nodes,
        &mut HashMap::new(),
    )?;
    Ok(ProofTree { root, nodes }.written(&prover.board, prover.attacker))
}

/// The proof of the current position, an attacker node the table holds as proved, read from
/// the table as it is, for simulation on its siblings; `None` if it is not all there (or not
/// within the leaf budget), or larger than `most` nodes.
pub(super) fn lendable(p: &mut Prover<'_>, most: usize) -> Option<ProofTree> {
    let mut nodes = Vec::new();
    let root = node(p, Reading::Lend(most), &mut nodes, &mut HashMap::new()).ok()?;
    // A VCT grafted in whole may take it past `most`.
    (nodes.len() <= most).then_some(ProofTree { root, nodes })
}

/// Reads the current position's proof into `nodes` (once per position: `ids` maps the
/// positions read, by Zobrist key with the side to move, to their nodes); returns its index.
fn node(
    p: &mut Prover<'_>,
    how: Reading,
    nodes: &mut Vec<TreeNode>,
    ids: &mut HashMap<u64, usize>,
) -> Result<usize, Stopped> {
    let key = p.board.hash();
    if let Some(&id) = ids.get(&key) {
        return Ok(id);
    }
    if !p.board.fives().is_empty() || (!p.is_or() && !p.board.five_points(p.defender()).is_empty())
    {
        // The game is over, or the defender makes five now: the search never holds such a
        // position as proved (it is decided, or lost), so a table that does (a damaged or
        // hostile state) is wrong, and nothing is read out of it.
        return Err(Stopped);
    }
    match how {
        Reading::Proof(_) => p.ensure_proved()?,
        Reading::Lend(most) => {
            let canonical = p.board.canonical().key;
            if nodes.len() >= most || !p.table.proved(canonical) {
                return Err(Stopped);
            }
        }
    }
    let id = nodes.len();
    nodes.push(TreeNode::Vcf(Line {
        moves: Vec::new(),
        ending: crate::threat::Ending::Five,
    }));
    ids.insert(key, id);
    let made = if p.is_or() {
        attacker_node(p, how, id, nodes, ids)?
    } else {
        defender_node(p, how, id, nodes, ids)?
    };
    nodes[id] = made;
    Ok(id)
}

/// The proof of the current attacker node, which takes the place of node `id`.
fn attacker_node(
    p: &mut Prover<'_>,
    how: Reading,
    id: usize,
    nodes: &mut Vec<TreeNode>,
    ids: &mut HashMap<u64, usize>,
) -> Result<TreeNode, Stopped> {
    if let Some(five) = Line::five_to_play(&p.board, p.attacker) {
        return Ok(TreeNode::Vcf(five));
    }
    if let Some(line) = p.find_vcf(p.attacker, UNLIMITED)? {
        return Ok(TreeNode::Vcf(line));
    }
    if let Some(tree) = p.borrowed_here().and_then(|tree| {
        // Lent by a sibling: its lines may list the sibling's forced replies, and its
        // defender nodes replies that only broke the certificate there.
        let attacker = p.attacker;
        tree.as_played(&mut p.board, attacker)
    }) {
        return Ok(graft(&tree, id, nodes));
    }
    let vct = match how {
        Reading::Proof(_) => leaf_vct(p)?,
        Reading::Lend(_) => p.find_vct(true)?.1,
    };
    if let Some(tree) = vct {
        return Ok(graft(&tree, id, nodes));
    }
    let play = match proved_move(p)? {
        Some(play) => play,
        None => {
            let Reading::Proof(guide) = how else {
                return Err(Stopped);
            };
            // The table holds this node as proved, but not by a move it can show: the guide
            // stood in for its search, or a symmetric image was proved by a VCT this
            // orientation misses within its budget. The guide's proof, if it holds here, else
            // a search again.
            if let Some(tree) = guide_tree(p, guide) {
                return Ok(graft(&tree, id, nodes));
            }
            p.forget();
            p.ensure_proved()?;
            match proved_move(p)? {
                Some(play) => play,
                // Proved again by its own expansion, by a VCT the leaf table holds as won:
                // its tree.
                None => {
                    let tree = leaf_vct(p)?.ok_or(Stopped)?;
                    return Ok(graft(&tree, id, nodes));
                }
            }
        }
    };
    p.board.play_unchecked(play);
    let child = node(p, how, nodes, ids);
    p.board.undo();
    Ok(TreeNode::Move {
        play,
        child: child?,
    })
}

/// The proof of the current defender node: its certificate, and a proof of every reply the
/// certificate does not answer.
fn defender_node(
    p: &mut Prover<'_>,
    how: Reading,
    id: usize,
    nodes: &mut Vec<TreeNode>,
    ids: &mut HashMap<u64, usize>,
) -> Result<TreeNode, Stopped> {
    if let Reading::Proof(guide @ Some(_)) = how {
        // Proved without replies to show: the guide stood in for its search (or the node's
        // expansion proved it). The guide's proof, if it holds here, rather than its replies
        // searched again without the guide.
        let key = p.board.canonical().key;
        if p.table.get(key).is_some_and(|e| e.moves.is_none())
            && let Some(tree) = guide_tree(p, guide)
        {
            return Ok(graft(&tree, id, nodes));
        }
    }
    let (certificate, breaking) = if let Some(line) = p.certificate()? {
        let breaking = p.replies(Some(&line));
        (Certificate::Line(line), breaking)
    } else if let Some((tree, breaking)) = pass_certificate(p) {
        // The pass position's proof, grafted as a node of its own.
        let pass = nodes.len();
        nodes.push(TreeNode::Vcf(Line {
            moves: Vec::new(),
            ending: crate::threat::Ending::Five,
        }));
        nodes[pass] = graft(&tree, pass, nodes);
        (Certificate::Proof(pass), breaking)
    } else {
        let replies = p.replies(None);
        if replies.is_empty() && p.board.is_full() {
            // A full board with no winner is a draw, never proved. (No legal reply on a board
            // with room: Black has only forbidden points, must play one and loses.)
            return Err(Stopped);
        }
        (Certificate::None, replies)
    };
    debug_assert!(id < nodes.len());
    let mut replies = Vec::new();
    for r in breaking {
        p.board.play_unchecked(r);
        let child = node(p, how, nodes, ids);
        p.board.undo();
        replies.push((r, child?));
    }
    Ok(TreeNode::Replies {
        certificate,
        replies,
    })
}

/// The proof lent to the current defender node's pass position, as played there, and the
/// replies it does not answer; `None` if there is none that holds.
fn pass_certificate(p: &mut Prover<'_>) -> Option<(ProofTree, Vec<Point>)> {
    let tree = p.lent_to_pass()?;
    let (attacker, defender) = (p.attacker, p.defender());
    let breaking = tree.replies_not_answered(&mut p.board, attacker)?;
    p.board.set_to_move(attacker);
    let played = tree.as_played(&mut p.board, attacker);
    p.board.set_to_move(defender);
    Some((played?, breaking))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::proof::ProofNode;
    use crate::rules::{Board, Color};
    use crate::solve::tests::{prover_below_root, small_leaf_budget, vct_example};
    use crate::solve::{Entry, Known, SolveOptions};
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
        let proof = extract(&mut p, None).unwrap();
        // The VCT's tree, grafted whole in place of the root.
        assert!(matches!(proof.nodes[proof.root], ProofNode::Move { .. }));
        assert_eq!(proof.nodes.len(), tree.nodes.len());
    }

    /// A node whose VCT the leaf table holds as won, with the entries below it dropped (as a
    /// table that made room drops them), is read out by a VCT search from an empty table: the
    /// table alone would say won and give no tree, however large the budget.
    #[test]
    fn a_vct_the_leaf_table_holds_as_won_without_its_tree_is_searched_afresh() {
        let board = vct_example(Color::Black);
        // A leaf budget of 20 nodes: 1,280 with the read-out's share, 81,920 afresh.
        let options = SolveOptions {
            vct_nodes: Some(20),
            ..SolveOptions::default()
        };
        let mut p = prover_below_root(&board, Color::Black, &options);
        let (won, tree, _) = p
            .vct_within(100_000, super::super::leaves::VctRun::Leaf, true)
            .unwrap();
        assert!(won && tree.is_some());
        let at = p.board.clone();
        p.leaf_vct.keep_only(&at);
        assert_eq!(p.leaf_vct.len(), 1);
        assert!(
            matches!(p.find_vct(true), Ok((true, None))),
            "the table says won and gives no tree"
        );
        // Nor does the larger budget the read-out gives first rebuild it.
        p.leaf_vct.keep_only(&at);
        let budget = 20 * EXTRACTION_VCT_SHARE;
        assert!(matches!(
            p.vct_within(budget, super::super::leaves::VctRun::Leaf, true),
            Ok((true, None, _))
        ));
        p.leaf_vct.keep_only(&at);
        let tree = leaf_vct(&mut p).unwrap().expect("found afresh");
        assert!(tree.holds(&mut p.board, Color::Black));
        // And read out as the proof of a node the table holds as proved.
        let key = p.board.canonical().key;
        p.store(key, Entry::PROVED);
        let proof = extract(&mut p, None).unwrap();
        assert!(
            ProofTree::read(&proof)
                .unwrap()
                .holds(&mut p.board, Color::Black)
        );
    }

    /// A guide that knows every position as won for Black, with `proof` as its proof.
    fn guide_with(proof: Proof) -> Known {
        Known::new(|_| Some(Color::Black)).with_proofs(move |_| Some(proof.clone()))
    }

    /// The proof of `board`'s position, for Black, read out where the table holds it proved
    /// with no move to show (as where the guide stood in), with `guide`'s proofs.
    fn read_out_as_guided(
        board: &Board,
        options: &SolveOptions,
        guide: Option<&Known>,
    ) -> Result<Proof, Stopped> {
        let mut p = prover_below_root(board, Color::Black, options);
        let key = p.board.canonical().key;
        p.store(key, Entry::PROVED);
        extract(&mut p, guide)
    }

    /// Where the guide stood in for a search (the table holds the node proved, with no move
    /// to show), the read-out takes the guide's own proof, once it holds on the board, rather
    /// than search again; a guide proof that does not hold there proves nothing, and the node
    /// is searched again (here with no nodes left to do it).
    #[test]
    fn where_the_guide_stood_in_its_proof_is_taken_if_it_holds() {
        let board = vct_example(Color::Black);
        // The guide's proof of the position: the one a plain search reads out.
        let stored = crate::solve::solve(&board, &SolveOptions::default(), &mut |_| {})
            .proof
            .expect("a win");
        // No VCT leaves, and one node: the read-out cannot prove the position itself.
        let options = SolveOptions {
            vct_nodes: Some(0),
            limits: Limits {
                nodes: Some(1),
                ..Limits::default()
            },
            ..SolveOptions::default()
        };
        let read_out = |guide: Option<&Known>| read_out_as_guided(&board, &options, guide);
        assert!(read_out(None).is_err(), "proved with no nodes and no guide");

        let honest = guide_with(stored.clone());
        let proof = read_out(Some(&honest)).expect("the guide's proof");
        assert_eq!(proof.nodes.len(), stored.nodes.len());
        let tree = ProofTree::read(&proof).unwrap();
        assert!(tree.holds(&mut board.clone(), Color::Black));

        // A guide whose proof does not hold on the board: a "five" on an empty corner.
        let mut wrong = stored.clone();
        wrong.nodes = vec![ProofNode::Vcf {
            line: vec!["a1".to_string()],
        }];
        wrong.root = 0;
        assert!(
            read_out(Some(&guide_with(wrong))).is_err(),
            "a wrong proof was taken"
        );
        // Nor is a proof for the other side taken.
        let mut white = stored.clone();
        white.attacker = Color::White;
        assert!(
            read_out(Some(&guide_with(white))).is_err(),
            "White's proof was taken"
        );

        // A defender node the guide stood in for: White to move after Black's f10, the VCT's
        // first move.
        let mut after = board.clone();
        after.play("f10".parse().unwrap()).unwrap();
        let stored = crate::solve::solve(&after, &SolveOptions::default(), &mut |_| {})
            .proof
            .expect("a loss");
        assert_eq!(stored.attacker, Color::Black);
        let read_out = |guide: Option<&Known>| read_out_as_guided(&after, &options, guide);
        assert!(read_out(None).is_err(), "proved with no nodes and no guide");
        let proof = read_out(Some(&guide_with(stored.clone()))).expect("the guide's proof");
        assert!(matches!(proof.nodes[proof.root], ProofNode::Replies { .. }));
        assert_eq!(proof.nodes.len(), stored.nodes.len());
    }

    /// A proved node's proof is read from the table, to lend to its siblings, only if all of
    /// it is there and within the size given; the tree read holds on the board.
    #[test]
    fn a_proof_to_lend_is_read_from_the_table_within_its_size() {
        let board = vct_example(Color::Black);
        let options = small_leaf_budget(Limits::default());
        let mut p = prover_below_root(&board, Color::Black, &options);
        assert!(lendable(&mut p, usize::MAX).is_none(), "nothing proved yet");
        // Not found by one leaf VCT, and no VCT rounds at the root: df-pn proves it move by
        // move.
        assert!(matches!(p.find_vct(false), Ok((false, None))));
        p.root_vct_open = false;
        assert_eq!(p.settle(&mut |_, _| {}), Some(true));
        // The leaf table, warm from the searches below, now finds the root's VCT within the
        // leaf budget: the tree is that VCT, and the size bound holds for it too.
        let vct = lendable(&mut p, usize::MAX).expect("the VCT");
        assert!(vct.holds(&mut p.board, Color::Black));
        assert!(lendable(&mut p, vct.nodes.len() - 1).is_none());
        // Taken as the root, where no VCT round found one, the proof is read move by move.
        p.root_stones = p.board.moves().len();
        let tree = lendable(&mut p, usize::MAX).expect("the table holds the proof");
        assert!(tree.holds(&mut p.board, Color::Black));
        assert!(tree.nodes.len() > 1);
        assert!(lendable(&mut p, tree.nodes.len() / 2).is_none());
    }
}
