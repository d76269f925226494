//! The proof and disproof numbers of the book's positions, from the root's attacker's view:
//! a position's numbers come from its status, or its children's, as in proof-number search;
//! a position disproved (its proof number infinite) has nothing left to search.

use super::{Book, MAX_DOUBLINGS, NO_PARENT, Status};

/// An infinite proof or disproof number.
pub(super) const INF: u64 = u64::MAX / 4;
/// The numbers of a leaf being searched this round, so that the next pick goes elsewhere.
pub(super) const BUSY: u64 = 1 << 40;
/// The proof number of an exhausted leaf ([`Status::Exhausted`]): as far from a proof as a
/// leaf can be without being disproved, so that the best-first choice goes elsewhere while
/// the book stays honest (an infinite number would read as a disproof).
pub(super) const EXHAUSTED: u64 = BUSY;

impl Book {
    /// Sets every node's proof and disproof numbers from its status and children (children
    /// come after their parents, so one backward pass does it).
    pub(super) fn recompute(&mut self) {
        for i in (0..self.nodes.len()).rev() {
            self.numbers(i as u32);
        }
    }

    /// Sets `node`'s numbers from its status or children, from its attacker's view.
    pub(super) fn numbers(&mut self, node: u32) {
        let attacker = self.attacker(node);
        let or = self.attacker_to_move(node);
        let n = &self.nodes[node as usize];
        let (pn, dn) = match n.status {
            Status::Won(w) if w == attacker => (0, INF),
            Status::Won(_) | Status::Draw => (INF, 0),
            _ if n.busy || n.status == Status::Planned => (BUSY, BUSY),
            Status::Exhausted => (EXHAUSTED, 1),
            _ if n.children.is_empty() => {
                let x = 1u64 << n.attempts.min(MAX_DOUBLINGS);
                (x, x)
            }
            _ => {
                let kids = n.children.iter().map(|&c| {
                    let c = &self.nodes[c as usize];
                    (c.pn, c.dn)
                });
                let (mut pn, mut dn) = if or { (INF, 0) } else { (0, INF) };
                for (cp, cd) in kids {
                    if or {
                        pn = pn.min(cp);
                        dn = dn.saturating_add(cd).min(INF);
                    } else {
                        pn = pn.saturating_add(cp).min(INF);
                        dn = dn.min(cd);
                    }
                }
                // Each move not opened yet counts as one more to disprove.
                if or {
                    dn = dn.saturating_add(u64::from(n.unopened)).min(INF);
                }
                (pn, dn)
            }
        };
        // A disproved position (the attacker's win is ruled out by settled positions below
        // it) has nothing left to search for the proof.
        let free = match n.status {
            Status::Won(_) | Status::Draw | Status::Planned | Status::Exhausted => false,
            _ if pn >= INF => false,
            _ if n.children.is_empty() => !n.busy,
            _ => n.children.iter().any(|&c| self.nodes[c as usize].free),
        };
        let n = &mut self.nodes[node as usize];
        n.pn = pn;
        n.dn = dn;
        n.free = free;
    }

    /// Whether the attacker's win at `node` is ruled out by the settled positions below it
    /// (its proof number is infinite), whether or not its exact value is known.
    pub(super) fn disproved(&self, node: u32) -> bool {
        self.nodes[node as usize].pn >= INF
    }

    /// Whether a position above `node` is disproved: nothing below it is needed for a proof.
    pub(super) fn under_disproved(&self, node: u32) -> bool {
        self.any_above(node, Book::disproved)
    }

    /// Whether `test` holds for a position above `node` (its parent, or one above that).
    pub(super) fn any_above(&self, node: u32, test: impl Fn(&Book, u32) -> bool) -> bool {
        let mut n = self.nodes[node as usize].parent;
        while n != NO_PARENT {
            if test(self, n) {
                return true;
            }
            n = self.nodes[n as usize].parent;
        }
        false
    }

    /// Roots neither settled nor disproved.
    pub(super) fn open_roots(&self) -> Vec<u32> {
        self.roots
            .iter()
            .map(|r| r.node)
            .filter(|&n| !self.nodes[n as usize].status.settled() && !self.disproved(n))
            .collect()
    }

    /// Whether nothing below `node` is needed any more: it is settled, its attacker's win is
    /// ruled out, or a position above it is settled or disproved.
    #[must_use]
    pub fn done_with(&self, node: u32) -> bool {
        self.nodes[node as usize].status.settled()
            || self.disproved(node)
            || self.under_settled(node)
            || self.under_disproved(node)
    }

    /// Whether nothing below any of `nodes` is needed any more ([`Book::done_with`]): a
    /// build kept below them is over (`book build --under`).
    #[must_use]
    pub fn all_done_with(&self, nodes: &[u32]) -> bool {
        nodes.iter().all(|&n| self.done_with(n))
    }

    /// Whether every root is settled.
    #[must_use]
    pub fn finished(&self) -> bool {
        self.open_roots().is_empty()
    }

    pub(super) fn refresh_path(&mut self, mut node: u32) {
        loop {
            self.numbers(node);
            let parent = self.nodes[node as usize].parent;
            if parent == NO_PARENT {
                break;
            }
            node = parent;
        }
    }
}
