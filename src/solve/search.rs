//! The df-pn loop: `mid` at a node, the children's numbers (virtual ones with other threads),
//! and the rounds from the root, on one thread or with helpers.

use std::sync::Arc;
use std::sync::atomic::Ordering;

use crate::dfpn::{BIG, INF, child_thresholds, combine};
use crate::rules::Symmetry;
use crate::threat::Stopped;

use super::table::Table;
use super::{
    Entry, Expansion, MAX_SLICE, Move, Prover, ROOT_VCT_SHARE, SIMULATIONS, SOLVE_ONE_OVER_EPSILON,
    settled,
};

/// A node's work ([`Entry::work`]): what its entry held when the visit began, and this
/// thread's node count then.
#[derive(Clone, Copy)]
pub(super) struct Work {
    before: u32,
    start: u64,
}

impl Work {
    /// The node's work with this thread's count at `nodes`.
    fn after(self, nodes: u64) -> u32 {
        let spent = u32::try_from(nodes.saturating_sub(self.start)).unwrap_or(u32::MAX);
        self.before.saturating_add(spent)
    }
}

impl<'a> Prover<'a> {
    /// Searches the current node until its numbers reach the thresholds.
    pub(super) fn mid(&mut self, th_pn: u32, th_dn: u32) -> (u32, u32) {
        let start = self.nodes;
        self.count(1);
        if self.nodes >= self.budget
            || self.limit_reached()
            || self.table.halt.load(Ordering::Relaxed)
            || self.table.cancelled()
            || self.table.is_full()
        {
            self.stopped = true;
        }
        let canonical = self.board.canonical();
        let key = canonical.key;
        let frame = canonical.symmetry;
        let size = self.board.size();
        let map = |moves: &[Move], to: Symmetry| -> Arc<[Move]> {
            moves
                .iter()
                .map(|m| Move {
                    point: to.apply(m.point, size),
                    ..*m
                })
                .collect()
        };
        // The moves in the board's frame, and in the canonical frame the table keeps.
        let found = self.table.get(key);
        let work = match &found {
            Some(e) if e.settled() || e.pn >= th_pn || e.dn >= th_dn || self.stopped => {
                return (e.pn, e.dn);
            }
            Some(e) => e.work,
            None => 0,
        };
        let kept = match found {
            // Kept moves are empty points of the position; moves read from a file that are not
            // (a damaged state) are generated again.
            Some(Entry { moves: Some(m), .. }) => {
                let moves = map(&m, frame.inverse());
                moves
                    .iter()
                    .all(|m| self.board.is_empty(m.point))
                    .then_some((moves, m))
            }
            _ => None,
        };
        let (moves, canonical_moves) = match kept {
            Some(kept) => kept,
            None if self.stopped => return (1, 1),
            None => {
                if let Some(known) = self.known_entry() {
                    let numbers = (known.pn, known.dn);
                    self.store(key, known);
                    return numbers;
                }
                match self.expand() {
                    Err(Stopped) => {
                        self.stopped = true;
                        return (1, 1);
                    }
                    Ok(Expansion::Proved) => {
                        self.store(key, Entry::PROVED);
                        return (0, INF);
                    }
                    Ok(Expansion::Disproved) => {
                        self.store(key, Entry::DISPROVED);
                        return (INF, 0);
                    }
                    Ok(Expansion::Moves(moves)) => {
                        let canonical = map(&moves, frame);
                        (moves.into(), canonical)
                    }
                }
            }
        };
        let work = Work {
            before: work,
            start,
        };
        if !self.table.parallel() {
            return self.search_children(key, &moves, &canonical_moves, (th_pn, th_dn), work);
        }
        self.table.enter(key);
        let numbers = self.search_children(key, &moves, &canonical_moves, (th_pn, th_dn), work);
        self.table.leave(key);
        numbers
    }

    /// The children's numbers as this thread sees them: with other threads searching, a
    /// child one of them is inside looks worse (Kaneko's virtual proof and disproof numbers:
    /// the number that selects it is multiplied by one plus the threads there), so threads
    /// spread over different subtrees. Only the choice of child and its thresholds use them.
    pub(super) fn virtual_numbers(
        &self,
        is_or: bool,
        key: u64,
        (pn, dn): (u32, u32),
    ) -> (u32, u32) {
        if pn == 0 || dn == 0 {
            return (pn, dn);
        }
        let v = self.table.visitors(key);
        if v == 0 {
            return (pn, dn);
        }
        let worse = |n: u32| n.saturating_mul(v + 1).saturating_add(v).min(BIG);
        if is_or {
            (worse(pn), dn)
        } else {
            (pn, worse(dn))
        }
    }

    /// The df-pn loop at an expanded node: combine the children, search the best, until the
    /// numbers reach the thresholds.
    pub(super) fn search_children(
        &mut self,
        key: u64,
        moves: &[Move],
        canonical_moves: &Arc<[Move]>,
        (th_pn, th_dn): (u32, u32),
        work: Work,
    ) -> (u32, u32) {
        let is_or = self.is_or();
        let child_keys: Vec<u64> = moves.iter().map(|m| self.key_after(m.point)).collect();
        let read = |t: &Table, i: usize| {
            t.numbers(child_keys[i])
                .unwrap_or((moves[i].pn, moves[i].dn))
        };
        let read_all =
            |t: &Table| -> Vec<(u32, u32)> { (0..moves.len()).map(|i| read(t, i)).collect() };
        // The children's numbers, read once. Searching one child changes no other child's
        // entry (each holds fewer stones than any position below the child searched), so after
        // that only the child just searched is read again (and its symmetric images), unless
        // proofs were lent to its siblings or other threads search the same table. An entry
        // the table drops to make room keeps its last numbers here: an estimate either way.
        let mut numbers = read_all(&self.table);
        // Proved replies whose proof is tried on their siblings, per visit.
        let mut simulations = SIMULATIONS;
        loop {
            let combined = combine(is_or, self.sum, numbers.iter().copied());
            let (pn, dn) = (combined.pn, combined.dn);
            let resolved = pn == 0 || dn == 0;
            self.store(
                key,
                Entry {
                    pn,
                    dn,
                    work: work.after(self.nodes),
                    moves: (!resolved).then(|| canonical_moves.clone()),
                },
            );
            if resolved || pn >= th_pn || dn >= th_dn || self.stopped {
                return (pn, dn);
            }
            let choice = if self.table.parallel() {
                let seen = numbers
                    .iter()
                    .zip(&child_keys)
                    .map(|(&n, &k)| self.virtual_numbers(is_or, k, n));
                combine(is_or, self.sum, seen)
            } else {
                combined
            };
            let (c_th_pn, c_th_dn) =
                child_thresholds(is_or, th_pn, th_dn, &choice, SOLVE_ONE_OVER_EPSILON);
            let m = moves[choice.best].point;
            self.board.play_unchecked(m);
            let (child_pn, _) = self.mid(c_th_pn, c_th_dn);
            // Lent only if a sibling is left to prove.
            let open = |t: &Table| {
                child_keys
                    .iter()
                    .enumerate()
                    .any(|(i, &k)| i != choice.best && !t.settled(k))
            };
            let tree = (!is_or && child_pn == 0 && simulations > 0 && open(&self.table))
                .then(|| self.proof_to_lend())
                .flatten();
            self.board.undo();
            if let Some(tree) = &tree {
                simulations -= 1;
                self.simulate(tree, moves, &child_keys);
            }
            if tree.is_some() || self.table.parallel() {
                numbers = read_all(&self.table);
            } else {
                // Moves the position's symmetry maps onto each other share their entry.
                let searched = child_keys[choice.best];
                let fresh = read(&self.table, choice.best);
                for (n, &k) in numbers.iter_mut().zip(&child_keys) {
                    if k == searched {
                        *n = fresh;
                    }
                }
            }
        }
    }

    /// One round of the search: the root's VCT for `4 * slice` more nodes, then the proof
    /// search from the root for `slice` more nodes of this thread. The helper threads search
    /// from the root meanwhile, from the start of the round to its end. Returns the root's
    /// numbers.
    pub(super) fn round(&mut self, slice: u64) -> (u32, u32) {
        self.take_spare_threads();
        if self.helpers.is_empty() {
            self.root_vct_round(slice.saturating_mul(ROOT_VCT_SHARE));
            return self.run(slice);
        }
        let mut helpers = std::mem::take(&mut self.helpers);
        let table = self.table.clone();
        table.halt.store(false, Ordering::Relaxed);
        let numbers = std::thread::scope(|scope| {
            for helper in &mut helpers {
                scope.spawn(|| helper.help());
            }
            self.root_vct_round(slice.saturating_mul(ROOT_VCT_SHARE));
            let numbers = self.run(slice);
            table.halt.store(true, Ordering::Relaxed);
            numbers
        });
        table.halt.store(false, Ordering::Relaxed);
        self.helpers = helpers;
        // A helper may have settled the root after the main thread returned.
        let key = self.board.canonical().key;
        match self.table.numbers(key) {
            Some((pn, dn)) if settled(pn, dn).is_some() => (pn, dn),
            _ => numbers,
        }
    }

    /// A helper thread's work: search from the root until the root is settled, a limit is
    /// reached, or the main thread calls the round off.
    pub(super) fn help(&mut self) {
        self.stopped = false;
        while !self.table.halt.load(Ordering::Relaxed) && !self.table.cancelled() {
            let (pn, dn) = self.mid(INF - 1, INF - 1);
            if self.stopped || settled(pn, dn).is_some() {
                break;
            }
        }
    }

    /// Rounds, each twice as long as the last, until the root is settled (`Some`), or a limit
    /// is reached or the search is called off (`None`). `after_round` is given the search and
    /// the root's numbers after each round.
    pub(super) fn settle(
        &mut self,
        after_round: &mut dyn FnMut(&Self, (u32, u32)),
    ) -> Option<bool> {
        let mut slice = 4096u64;
        loop {
            let (pn, dn) = self.round(slice);
            after_round(self, (pn, dn));
            if let Some(settled) = settled(pn, dn) {
                return Some(settled);
            }
            if self.exhausted() || self.table.cancelled() {
                return None;
            }
            slice = slice.saturating_mul(2).min(MAX_SLICE);
        }
    }

    /// Runs the search from the root for at most `slice` more nodes. Returns the root's
    /// numbers.
    pub(super) fn run(&mut self, slice: u64) -> (u32, u32) {
        self.budget = self.nodes.saturating_add(slice);
        self.stopped = false;
        let numbers = self.mid(INF - 1, INF - 1);
        self.budget = u64::MAX;
        numbers
    }

    /// Whether the search must stop for good (limits, or a full table), rather than for the
    /// end of a slice.
    pub(super) fn exhausted(&self) -> bool {
        self.table.is_full() || self.limit_reached()
    }

    /// Whether the current node is proved, searching it again if the table lost it.
    pub(super) fn ensure_proved(&mut self) -> Result<(), Stopped> {
        let key = self.board.canonical().key;
        if self.table.proved(key) {
            return Ok(());
        }
        let (pn, _) = self.mid(INF - 1, INF - 1);
        if pn == 0 { Ok(()) } else { Err(Stopped) }
    }
}
