//! Simulation between book positions: a proof found for one position is tried on others
//! that are likely to fall to the same attack (its siblings, and its cousins), and proves each
//! where it still holds, without a search of its own.

use super::{Book, BookError, Status};
use crate::db::Builder;
use crate::proof::Proof;
use crate::threat::ProofTree;

/// A proof of a leaf is tried on the leaf's siblings only if it has at most this many nodes.
const LENT_PROOF_NODES: usize = 20_000;
/// A proof of a leaf is tried on the leaf's cousins (see [`Book::lend`]), of which there are
/// few, only if it has at most this many nodes.
const COUSIN_PROOF_NODES: usize = 200_000;

impl Book {
    /// Tries `proof`, which proves `leaf` won for the side to move there, on other unsettled
    /// positions: `leaf`'s siblings (the other replies at its parent), and its cousins (the
    /// positions reached by the same last two moves below another move of the same ply, as
    /// the same defence of the same 5th move after another White 4th). Where the proof,
    /// replayed by the rules on such a board, still holds, it proves that position too,
    /// without a search of its own (simulation, as `solve` does between the replies of a
    /// defender node). The proof as played there goes into the database, and `check` verifies
    /// it like any other; a proof that does not hold proves nothing. Proofs of more than
    /// [`LENT_PROOF_NODES`] nodes are tried on siblings only up to that size, and on cousins
    /// up to [`COUSIN_PROOF_NODES`]. Returns the positions proved.
    ///
    /// # Errors
    /// A proof the database refuses.
    pub(super) fn lend(
        &mut self,
        leaf: u32,
        proof: &Proof,
        db: &mut Builder,
    ) -> Result<Vec<u32>, BookError> {
        let parent = self.nodes[leaf as usize].parent;
        if parent == super::NO_PARENT || proof.nodes.len() > COUSIN_PROOF_NODES {
            return Ok(Vec::new());
        }
        let Some(tree) = ProofTree::read(proof) else {
            return Ok(Vec::new());
        };
        let open = |n: &super::BookNode| {
            matches!(n.status, Status::Open | Status::Tried | Status::Exhausted)
        };
        let mut candidates: Vec<u32> = if proof.nodes.len() <= LENT_PROOF_NODES {
            self.nodes[parent as usize]
                .children
                .iter()
                .copied()
                .filter(|&c| c != leaf && open(&self.nodes[c as usize]))
                .collect()
        } else {
            Vec::new()
        };
        candidates.extend(
            self.cousins(leaf)
                .into_iter()
                .filter(|&c| open(&self.nodes[c as usize]) && !self.under_settled(c)),
        );
        let winner = proof.attacker;
        let mut proved = Vec::new();
        for c in candidates {
            let mut board = self.board(c)?;
            if board.to_move() != winner || !tree.holds(&mut board, winner) {
                continue;
            }
            // Written as played on this board, and judged again in that form.
            let Some(played) = tree.as_played(&mut board, winner) else {
                continue;
            };
            if !played.holds(&mut board, winner) {
                continue;
            }
            db.add_proof(&played.written(&board, winner))?;
            self.nodes[c as usize].status = Status::Won(winner);
            proved.push(c);
        }
        Ok(proved)
    }

    /// The positions reached by `node`'s last two moves below another position of the same
    /// ply as `node`'s grandparent (none for a node less than two plies from its root).
    fn cousins(&self, node: u32) -> Vec<u32> {
        let n = &self.nodes[node as usize];
        if n.ply < 2 {
            return Vec::new();
        }
        let parent = &self.nodes[n.parent as usize];
        (0..self.nodes.len() as u32)
            .filter(|&c| {
                let x = &self.nodes[c as usize];
                x.ply == n.ply
                    && x.play == n.play
                    && x.parent != n.parent
                    && self
                        .nodes
                        .get(x.parent as usize)
                        .is_some_and(|xp| xp.play == parent.play)
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::book::tests::{one_thread, square_book};
    use crate::rules::Color;

    /// A reply's proof is tried on its siblings: those where it holds are proved without a
    /// search, and the database of the whole book checks.
    #[test]
    fn a_proof_found_for_one_reply_proves_the_siblings_where_it_holds() {
        let (mut book, mut db) = square_book();
        let (pool, options) = one_thread(40_000);
        let (mut lent, mut looked_up, mut twins) = (0, 0, 0);
        while !book.finished() {
            let round = book.round(&mut db, &options, &pool).unwrap();
            lent += round.lent;
            looked_up += round.looked_up;
            twins += round.twins;
        }
        assert_eq!(book.nodes[0].status, Status::Won(Color::Black));
        let replies = book.nodes[0].children.len() as u64;
        assert!(lent > replies as usize / 4, "{lent} of {replies}");
        // The root's search, and one for each reply neither proved by a sibling's proof nor
        // found in the database nor settled by a twin's search: the budget is enough for each
        // reply's first search.
        let retried: Vec<u32> = book.nodes[0]
            .children
            .iter()
            .copied()
            .filter(|&c| book.nodes[c as usize].attempts > 0)
            .collect();
        assert!(retried.is_empty(), "replies searched again: {retried:?}");
        assert_eq!(
            book.totals.searches + (lent + looked_up + twins) as u64,
            1 + replies,
            "{lent} lent, {looked_up} looked up, {twins} twins"
        );
        let report = crate::check::verify::check(&db.finish(), &|_| {});
        assert!(report.ok, "{:?}", report.errors);
    }

    /// A proof of the same defence of the same move below another first move proves its
    /// cousin where it holds, and the database checks.
    #[test]
    fn a_proof_proves_its_cousin_below_another_first_move() {
        let p = |s: &str| s.parse::<crate::rules::Point>().unwrap();
        let (mut book, mut db) = square_book();
        // White o15 or b15, Black h12, White n14: the same last two moves below each.
        book.open(0, &[p("o15"), p("b15")]);
        let mut leaves = Vec::new();
        for first in [book.nodes[0].children[0], book.nodes[0].children[1]] {
            book.open(first, &[p("h12")]);
            let second = book.nodes[first as usize].children[0];
            book.open(second, &[p("n14")]);
            leaves.push(book.nodes[second as usize].children[0]);
            book.nodes[first as usize].expanded = true;
            book.nodes[second as usize].expanded = true;
        }
        book.nodes[0].expanded = true;
        book.recompute();
        let (l1, l2) = (leaves[0], leaves[1]);
        assert_eq!(book.cousins(l1), vec![l2]);
        assert_eq!(book.cousins(l2), vec![l1]);
        assert!(book.cousins(book.nodes[l1 as usize].parent).is_empty());
        let board = book.board(l1).unwrap();
        let solution =
            crate::solve::solve(&board, &crate::solve::SolveOptions::default(), &mut |_| {});
        let proof = solution.proof.expect("Black wins");
        db.add_proof(&proof).unwrap();
        book.nodes[l1 as usize].status = Status::Won(Color::Black);
        assert_eq!(book.lend(l1, &proof, &mut db).unwrap(), vec![l2]);
        assert_eq!(book.nodes[l2 as usize].status, Status::Won(Color::Black));
        assert_eq!(
            db.stored_winner(&book.board(l2).unwrap()),
            Some(Color::Black)
        );
        let report = crate::check::verify::check(&db.finish(), &|_| {});
        assert!(report.ok, "{:?}", report.errors);
    }
}
