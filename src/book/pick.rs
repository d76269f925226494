//! Picking the leaves to search: the most-proving descent from each unsettled root, the roots
//! taken in turn, for a round of `book build` or for the work units of `book plan`.

use super::{Book, BookError, Status};
use crate::rules::Board;

impl Book {
    /// The most-proving leaf under `node` not being searched, if the descent finds one.
    pub(super) fn most_proving(&self, mut node: u32) -> Option<u32> {
        loop {
            let n = &self.nodes[node as usize];
            if !n.free {
                return None;
            }
            if n.children.is_empty() {
                return Some(node);
            }
            let or = self.attacker_to_move(node);
            node = n
                .children
                .iter()
                .copied()
                .filter(|&c| self.nodes[c as usize].free)
                .min_by_key(|&c| {
                    let c = &self.nodes[c as usize];
                    if or { (c.pn, c.dn) } else { (c.dn, c.pn) }
                })?;
        }
    }

    /// Marks a leaf as being searched, and updates the numbers above it.
    fn set_busy(&mut self, node: u32, busy: bool) {
        self.nodes[node as usize].busy = busy;
        self.refresh_path(node);
    }

    /// Picks up to `count` most-proving leaves, taking the unsettled roots in turn, and
    /// marks them busy.
    pub(super) fn pick(&mut self, count: usize) -> Vec<u32> {
        let mut turn = 0;
        std::iter::from_fn(|| self.pick_next(&mut turn))
            .take(count)
            .collect()
    }

    /// Picks the most-proving leaf of the unsettled roots, trying them in turn from `turn`
    /// (which moves past the root it came from), and marks it busy.
    pub(super) fn pick_next(&mut self, turn: &mut usize) -> Option<u32> {
        let roots = self.open_roots();
        for _ in 0..roots.len() {
            let root = roots[*turn % roots.len()];
            *turn += 1;
            if let Some(leaf) = self.most_proving(root) {
                self.set_busy(leaf, true);
                return Some(leaf);
            }
        }
        None
    }

    /// Picks up to `count` most-proving leaves for work units and marks them planned; the
    /// next [`Book::reconcile`] settles them from the database.
    ///
    /// # Errors
    /// [`BookError::Position`] for a damaged journal.
    pub fn plan(&mut self, count: usize) -> Result<Vec<(u32, Board)>, BookError> {
        let leaves = self.pick(count);
        let mut planned = Vec::with_capacity(leaves.len());
        for leaf in leaves {
            let n = &mut self.nodes[leaf as usize];
            n.busy = false;
            n.status = Status::Planned;
            self.refresh_path(leaf);
            planned.push((leaf, self.board(leaf)?));
        }
        Ok(planned)
    }
}
