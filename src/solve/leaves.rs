//! VCT leaves and simulation: the attacker's VCT within a budget (at the root, in rounds that
//! go on from each other), null-move simulation at AND nodes, and proofs one reply lends to its
//! siblings.

use std::sync::Arc;

use crate::rules::Point;
use crate::threat::{Limits, ProofTree, Stopped, VctOptions, VctTable, prove_vct};

use super::{
    BORROWED_BYTES, Entry, LENT_SUBTREE_NODES, Move, NARROW_AFTER, NARROW_DEPTHS, NARROW_SHARE,
    NARROW_THREAT_FOURS, NEAR_ROOT_PLIES, NarrowVct, PASS_SHARE_NEAR_ROOT, Prover,
    SOLVE_ONE_OVER_EPSILON, TREE_NODE_BYTES, VCT_THREAT_FOURS,
};

/// Which VCT search [`Prover::vct_within`] runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum VctRun {
    /// A leaf's, from the leaf table.
    Leaf,
    /// The root's, going on from its last round.
    Root,
    /// The narrow one beside the root's, going on from its last round at its depth bound.
    Narrow,
}

impl<'a> Prover<'a> {
    /// The attacker's VCT (the attacker to move): whether it wins, and with `tree`, its
    /// proof. Below the root it is searched within the per-node budget, starting from the
    /// leaf table that earlier leaf searches filled, so a second search of the same position
    /// may find a VCT the first missed (or, after the table made room, miss one it found):
    /// the read-out looks again with a larger budget where it must. At the root it is the
    /// proof [`Prover::root_vct_round`] found, if any.
    pub(super) fn find_vct(&mut self, tree: bool) -> Result<(bool, Option<ProofTree>), Stopped> {
        if self.at_root() {
            let found = self.root_vct_tree.as_ref();
            return Ok((found.is_some(), found.filter(|_| tree).cloned()));
        }
        self.vct_within(self.vct_nodes, VctRun::Leaf, tree)
            .map(|(won, tree, _)| (won, tree))
    }

    /// One round of the root's VCT search, `budget` more nodes from where the last round
    /// stopped; once its own rounds have searched [`NARROW_AFTER`] nodes without an answer,
    /// a [`NARROW_SHARE`] part of each round goes to the narrow VCT beside it, while that
    /// runs. A win proves the root, and its proof tree is kept for the proof.
    pub(super) fn root_vct_round(&mut self, budget: u64) {
        if !self.root_vct_open {
            return;
        }
        let narrow = if self.root_narrow.is_some() && self.root_vct_nodes >= NARROW_AFTER {
            budget / NARROW_SHARE
        } else {
            0
        };
        let before = self.nodes;
        let wide = self.vct_within(budget - narrow, VctRun::Root, true);
        self.root_vct_nodes += self.nodes - before;
        match wide {
            Ok((true, Some(tree), _)) => return self.root_vct_found(tree),
            // No VCT at all: a larger budget would not find one, nor would a narrower search.
            Ok((false, _, true)) => {
                self.root_vct_open = false;
                self.root_vct = VctTable::default();
                self.root_narrow = None;
                return;
            }
            // Not yet, or won but the tree not rebuilt within the budget: the next round goes
            // on.
            Ok(_) => {}
            Err(Stopped) => {
                self.stopped = true;
                return;
            }
        }
        if narrow > 0 {
            self.narrow_round(narrow);
        }
    }

    /// One round of the narrow VCT: `budget` more nodes at its depth bound; a bound searched
    /// to the end without a win gives way to the next (with what is left of the round), until
    /// the last.
    pub(super) fn narrow_round(&mut self, mut budget: u64) {
        while budget > 0 && self.root_vct_open {
            let Some(depth) = self.root_narrow.as_ref().map(|n| n.depth) else {
                return;
            };
            let before = self.nodes;
            match self.vct_within(budget, VctRun::Narrow, true) {
                Ok((true, Some(tree), _)) => self.root_vct_found(tree),
                Ok((false, _, true)) => {
                    let (_, step, last) = NARROW_DEPTHS;
                    self.root_narrow = (depth + step <= last).then(|| NarrowVct {
                        depth: depth + step,
                        table: VctTable::default(),
                    });
                    budget = budget.saturating_sub(self.nodes - before);
                }
                Ok(_) => return,
                Err(Stopped) => {
                    self.stopped = true;
                    return;
                }
            }
        }
    }

    /// The root's VCT, found by a round: it proves the root, and its tree is kept for the
    /// proof.
    fn root_vct_found(&mut self, tree: ProofTree) {
        self.root_vct_open = false;
        self.root_vct_tree = Some(tree);
        self.root_vct = VctTable::default();
        self.root_narrow = None;
        let key = self.board.canonical().key;
        self.store(key, Entry::PROVED);
    }

    /// The attacker's VCT within `budget` nodes: whether it wins, its proof (with `tree`),
    /// and whether the threat space was searched to the end without a win. The root's
    /// searches ([`VctRun::Root`], [`VctRun::Narrow`]) go on from their last rounds; a leaf's
    /// starts from the leaf table, whose proved and disproved entries are facts about their
    /// positions (threats only add stones, so the threat space below a position does not
    /// depend on the path to it), and whose open ones are estimates the search corrects.
    pub(super) fn vct_within(
        &mut self,
        mut budget: u64,
        run: VctRun,
        tree: bool,
    ) -> Result<(bool, Option<ProofTree>, bool), Stopped> {
        if let Some(n) = self.limits.nodes {
            budget = budget.min(n.saturating_sub(self.searched()));
        }
        if budget == 0 {
            return Ok((false, None, false));
        }
        let (table, entries, threat_fours, max_depth) = match run {
            VctRun::Leaf => (
                &mut self.leaf_vct,
                self.leaf_vct_entries,
                VCT_THREAT_FOURS,
                None,
            ),
            VctRun::Root => (
                &mut self.root_vct,
                self.root_vct_entries,
                VCT_THREAT_FOURS,
                None,
            ),
            VctRun::Narrow => match &mut self.root_narrow {
                Some(n) => (
                    &mut n.table,
                    self.root_vct_entries,
                    NARROW_THREAT_FOURS,
                    Some(n.depth),
                ),
                None => return Ok((false, None, false)),
            },
        };
        let options = VctOptions {
            max_depth,
            threat_fours: Some(threat_fours),
            // Small budgets below the root; the root's long rounds at the threat search's own.
            one_over_epsilon: (run == VctRun::Leaf).then_some(SOLVE_ONE_OVER_EPSILON),
            limits: Limits {
                nodes: Some(budget),
                ..self.limits.clone()
            },
            table_entries: Some(entries),
            // Bounded by `table_entries` and the VCF table passed in.
            memory_mb: None,
            threads: None,
            progress: None,
            // `prove` rebuilds the tree when its own `tree` asks.
            proof: false,
        };
        let found = prove_vct(
            &self.board,
            self.attacker,
            &options,
            &mut self.vcf_table,
            table,
            tree,
        );
        self.count(found.nodes);
        if self.limit_reached() {
            return Err(Stopped);
        }
        Ok((found.won, found.tree, found.exhausted))
    }

    /// The attacker's VCT within `budget` nodes, searched from an empty leaf table, and its
    /// proof: for the read-out, where the leaf table holds a VCT as won but cannot rebuild its
    /// tree. The leaf table is kept as it was.
    pub(super) fn fresh_vct(&mut self, budget: u64) -> Result<Option<ProofTree>, Stopped> {
        let kept = std::mem::take(&mut self.leaf_vct);
        let found = self.vct_within(budget, VctRun::Leaf, true);
        self.leaf_vct = kept;
        Ok(found?.1)
    }

    /// The null-move threat at an AND node without a VCF certificate: the attacker's proof were
    /// the defender to pass, and the defender's replies it does not answer (sorted). The proof
    /// is one lent to the pass position before (by an earlier visit, or a transposition), or
    /// the attacker's VCT there within [`Prover::pass_budget`], which is then lent to it: it is the
    /// node's certificate, which the proof read out shows once, and every reply outside the
    /// list loses to it. `None` if there is no such proof. The attacker's quiet move is then a
    /// threat in the VCT sense, and only the replies that stop it are left to search.
    pub(super) fn pass_proof(&mut self) -> Result<Option<Vec<Point>>, Stopped> {
        let Some(budget) = self.pass_budget() else {
            return Ok(None);
        };
        let tree = match self.lent_to_pass() {
            Some(tree) => tree,
            None => {
                let (true, Some(tree), _) = self.vct_within(budget, VctRun::Leaf, true)? else {
                    return Ok(None);
                };
                let tree = Arc::new(tree);
                self.lend_to_pass(&tree);
                tree
            }
        };
        let attacker = self.attacker;
        Ok(tree.replies_not_answered(&mut self.board, attacker))
    }

    /// The budget of the null-move VCT at the current defender node: within
    /// [`NEAR_ROOT_PLIES`] of the root, [`PASS_SHARE_NEAR_ROOT`] times the leaf budget, since
    /// defender nodes there are few and a certificate found saves searching about 200 replies;
    /// `None` deeper down, where none is looked for: there the few found did not pay for the
    /// searches that failed (`BENCHMARKS.md`). Without one, every reply is searched, so this
    /// prunes nothing. A certificate found is lent to the pass position, where the read-out
    /// finds it again.
    pub(super) fn pass_budget(&self) -> Option<u64> {
        let plies = self.board.moves().len().saturating_sub(self.root_stones);
        (plies <= NEAR_ROOT_PLIES).then(|| self.vct_nodes.saturating_mul(PASS_SHARE_NEAR_ROOT))
    }

    /// The proof lent to the pass position of the current AND node, in the board's frame, if
    /// there is one and it holds.
    pub(super) fn lent_to_pass(&mut self) -> Option<Arc<ProofTree>> {
        let defender = self.board.to_move();
        self.board.set_to_move(self.attacker);
        let tree = self.borrowed_here();
        self.board.set_to_move(defender);
        tree
    }

    /// Lends `tree`, the attacker's proof were the defender (to move) to pass, to the pass
    /// position.
    fn lend_to_pass(&mut self, tree: &Arc<ProofTree>) {
        let defender = self.board.to_move();
        self.board.set_to_move(self.attacker);
        let canonical = self.board.canonical();
        self.board.set_to_move(defender);
        let bytes = BORROWED_BYTES + tree.nodes.len() * TREE_NODE_BYTES;
        self.table
            .lend(canonical.key, tree.clone(), canonical.symmetry, bytes);
    }

    /// A proof of the current (proved) attacker node that its siblings may borrow: one
    /// borrowed itself, the VCT within the node's budget, or the proof the table holds (of at
    /// most [`LENT_SUBTREE_NODES`] nodes). `None` if there is none of these, or the search was
    /// stopped.
    pub(super) fn proof_to_lend(&mut self) -> Option<Arc<ProofTree>> {
        if let Some(tree) = self.borrowed_here() {
            return Some(tree);
        }
        match self.find_vct(true) {
            Ok((true, Some(tree))) => return Some(Arc::new(tree)),
            Ok(_) => {}
            Err(Stopped) => {
                self.stopped = true;
                return None;
            }
        }
        let tree = super::extract::lendable(self, LENT_SUBTREE_NODES);
        if self.limit_reached() {
            self.stopped = true;
        }
        tree.map(Arc::new)
    }

    /// The borrowed proof of the current position, mapped into the board's frame, if there is
    /// one and it holds.
    pub(super) fn borrowed_here(&mut self) -> Option<Arc<ProofTree>> {
        let canonical = self.board.canonical();
        let (tree, frame) = self.table.borrowed(canonical.key)?;
        let tree = if frame == canonical.symmetry {
            tree
        } else {
            // Found in `frame`; this board is in `canonical.symmetry`. Through the canonical
            // frame: p -> frame(p) -> canonical.symmetry⁻¹(frame(p)).
            let size = self.board.size();
            let back = canonical.symmetry.inverse();
            Arc::new(tree.map(|p| back.apply(frame.apply(p, size), size)))
        };
        let attacker = self.attacker;
        tree.holds(&mut self.board, attacker).then_some(tree)
    }

    /// Simulation: tries a sibling's proof `tree` on the other replies of the current AND
    /// node, and marks proved every child where it holds on the board as it is.
    pub(super) fn simulate(&mut self, tree: &Arc<ProofTree>, moves: &[Move], child_keys: &[u64]) {
        let attacker = self.attacker;
        // A tree no entry shares yet is counted once, when it is first lent.
        let mut tree_bytes = if Arc::strong_count(tree) == 1 {
            tree.nodes.len() * TREE_NODE_BYTES
        } else {
            0
        };
        for (m, &key) in moves.iter().zip(child_keys) {
            if self.table.settled(key) {
                continue;
            }
            self.board.play_unchecked(m.point);
            if tree.holds(&mut self.board, attacker) {
                let frame = self.board.canonical().symmetry;
                let bytes = BORROWED_BYTES + tree_bytes;
                if self.table.lend(key, tree.clone(), frame, bytes) {
                    tree_bytes = 0;
                }
                self.store(key, Entry::PROVED);
            }
            self.board.undo();
        }
    }
}
