//! Picking the leaves to search: the most-proving descent from each unsettled root, the roots
//! taken in turn, for a round of `book build` or for the work units of `book plan`.

use super::{Book, BookError, Status};
use crate::rules::{Board, Point};

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

    /// Picks the most-proving leaf of the unsettled roots, trying them in turn from `turn`
    /// (which moves past the root it came from), and marks it busy.
    pub(super) fn pick_next(&mut self, turn: &mut usize) -> Option<u32> {
        let roots = self.open_roots();
        self.pick_under(&roots, turn)
    }

    /// Picks the most-proving leaf under `starts`, trying them in turn from `turn`, and marks
    /// it busy. A start below a settled or disproved position is passed over: its search
    /// would be called off at once ([`Book::done_with`]).
    pub(super) fn pick_under(&mut self, starts: &[u32], turn: &mut usize) -> Option<u32> {
        for _ in 0..starts.len() {
            let start = starts[*turn % starts.len()];
            *turn += 1;
            if self.done_with(start) {
                continue;
            }
            if let Some(leaf) = self.most_proving(start) {
                self.set_busy(leaf, true);
                return Some(leaf);
            }
        }
        None
    }

    /// The positions `line` (moves from a root) leads to, from each unsettled root whose
    /// tree holds every move of it: settled or not, in the order of the roots.
    #[must_use]
    pub fn reached_by(&self, line: &[Point]) -> Vec<u32> {
        self.open_roots()
            .into_iter()
            .filter_map(|root| {
                line.iter().try_fold(root, |node, &p| {
                    self.nodes[node as usize]
                        .children
                        .iter()
                        .copied()
                        .find(|&c| self.nodes[c as usize].play == Some(p))
                })
            })
            .collect()
    }

    /// Picks up to `count` most-proving leaves for work units and marks them planned; the
    /// next [`Book::reconcile`] settles them from the database.
    ///
    /// # Errors
    /// [`BookError::Position`] for a damaged journal.
    pub fn plan(&mut self, count: usize) -> Result<Vec<(u32, Board)>, BookError> {
        let roots = self.open_roots();
        self.plan_under(count, &roots)
    }

    /// [`Book::plan`] for the leaves below `starts` alone (book positions, taken in turn as
    /// the roots are), such as those [`Book::reached_by`] a line: the work of a unit spent
    /// where it is wanted, and counted in the journal as the book's own.
    ///
    /// # Errors
    /// [`BookError::Position`] for a damaged journal.
    pub fn plan_under(
        &mut self,
        count: usize,
        starts: &[u32],
    ) -> Result<Vec<(u32, Board)>, BookError> {
        let mut turn = 0;
        let leaves: Vec<u32> = std::iter::from_fn(|| self.pick_under(starts, &mut turn))
            .take(count)
            .collect();
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

    /// Gives a planned leaf back to the frontier without counting a search: its work unit
    /// did not search it to its budget (the task was killed, or stopped). It is a leaf to
    /// pick again as it was before it was planned: open, or tried as often as before (only
    /// unexpanded leaves are planned, so a tried one was searched at least once).
    ///
    /// # Errors
    /// [`BookError::Position`] when `node` is not a planned position of the book, or `line`
    /// (the moves from its root, as a unit names them) is not its line, or `board` (the
    /// unit's position) not its position.
    pub fn release(&mut self, node: u32, line: &[String], board: &Board) -> Result<(), BookError> {
        let named = self.unit_position(node, line, board)?;
        let n = &self.nodes[node as usize];
        if n.status != Status::Planned {
            return Err(BookError::Position(format!(
                "book position {node} ({named}) is not planned: a `book plan` or `book build` since has counted it, or it is settled"
            )));
        }
        let n = &mut self.nodes[node as usize];
        n.status = if n.attempts > 0 {
            Status::Tried
        } else {
            Status::Open
        };
        n.busy = false;
        self.refresh_path(node);
        Ok(())
    }

    /// Marks a work unit's position `node` (reached by `line`, on `board`) exhausted: its
    /// search ended before its budget without a result, its narrowed moves holding no win
    /// (`book work`'s `narrowed_out`), so it is neither searched again nor expanded. Its search
    /// is counted if it was still planned, and not again if a `book plan` or `book build`
    /// since has counted it. Returns false, changing nothing, for a position settled since
    /// (a proof merged) or expanded since.
    ///
    /// # Errors
    /// As [`Book::release`], for a position that is not the unit's.
    pub fn exhaust_searched(
        &mut self,
        node: u32,
        line: &[String],
        board: &Board,
    ) -> Result<bool, BookError> {
        self.unit_position(node, line, board)?;
        let counted = self.nodes[node as usize].status != Status::Planned;
        Ok(self.exhaust(node, counted))
    }

    /// Checks that book position `node` is the unit's position reached by `line` on `board`,
    /// and returns its line as people read it.
    fn unit_position(
        &self,
        node: u32,
        line: &[String],
        board: &Board,
    ) -> Result<String, BookError> {
        let named = super::unit::line_name(line);
        if self.nodes.get(node as usize).is_none() {
            return Err(BookError::Position(format!(
                "book position {node} ({named}): the book has only {} positions",
                self.nodes.len()
            )));
        }
        let path = crate::proof::names(&self.path(node));
        if path != line {
            return Err(BookError::Position(format!(
                "book position {node} is `{}` in the book, not `{named}`: the unit was planned from another book",
                path.join(" ")
            )));
        }
        let here = self.board(node)?;
        if here.to_move() != board.to_move() || !here.stones().eq(board.stones()) {
            return Err(BookError::Position(format!(
                "book position {node} ({named}) holds other stones in the book: the unit was planned from another book"
            )));
        }
        Ok(named)
    }
}
