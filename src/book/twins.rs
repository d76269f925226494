//! Transpositions: one position reached in the book by several move orders, in any symmetric
//! form (its twins). A leaf's search stands for all of them: a proof settles every twin from
//! the database, a search without a result counts for every twin not searched as often, and a
//! twin picked while its position is being searched waits for that search instead of running
//! its own. Nothing here proves anything: a twin is settled only from the database, whose
//! proofs `check` verifies.

use std::collections::HashMap;

use super::{Book, BookError};
use crate::db::Builder;

impl Book {
    /// The key of `node`'s position: the same for every symmetric form, side to move included.
    ///
    /// # Errors
    /// [`BookError::Damaged`] for a damaged journal.
    pub(super) fn position_key(&self, node: u32) -> Result<u64, BookError> {
        Ok(self.board(node)?.canonical().key)
    }

    /// The positions' keys to their nodes, built on first use.
    fn keys(&mut self) -> Result<&mut HashMap<u64, Vec<u32>>, BookError> {
        if self.twins.is_none() {
            let mut keys: HashMap<u64, Vec<u32>> = HashMap::new();
            for node in 0..self.nodes.len() as u32 {
                keys.entry(self.position_key(node)?).or_default().push(node);
            }
            self.twins = Some(keys);
        }
        Ok(self.twins.as_mut().expect("built above"))
    }

    /// Records the keys of `parent`'s children from `first` on, just opened (if the keys are
    /// built; otherwise they are found when they are).
    pub(super) fn note_opened(&mut self, parent: u32, first: u32) -> Result<(), BookError> {
        if self.twins.is_none() {
            return Ok(());
        }
        let mut board = self.board(parent)?;
        let children: Vec<u32> = self.nodes[parent as usize].children[first as usize..].to_vec();
        let mut keyed = Vec::with_capacity(children.len());
        for c in children {
            let p = self.nodes[c as usize].play.expect("a child has a move");
            board.play_unchecked(p);
            keyed.push((board.canonical().key, c));
            board.undo();
        }
        let keys = self.keys()?;
        for (key, c) in keyed {
            keys.entry(key).or_default().push(c);
        }
        Ok(())
    }

    /// The other unsettled leaves with `node`'s position, not being searched nor under a
    /// settled position.
    fn free_twins(&mut self, node: u32) -> Result<Vec<u32>, BookError> {
        let key = self.position_key(node)?;
        let same = self.keys()?.get(&key).cloned().unwrap_or_default();
        Ok(same
            .into_iter()
            .filter(|&t| {
                let n = &self.nodes[t as usize];
                t != node
                    && n.children.is_empty()
                    && !n.status.settled()
                    && !n.busy
                    && !self.under_settled(t)
            })
            .collect())
    }

    /// After `leaf`'s search: settles its twins whose position the database now holds, and
    /// counts a search without a result (of `spent` nodes) for each twin searched fewer times,
    /// expanding it below the ply limit as the leaf was. Returns the twins changed.
    ///
    /// # Errors
    /// As [`Book::tried`].
    pub(super) fn share_search(
        &mut self,
        leaf: u32,
        db: &mut Builder,
        spent: u64,
    ) -> Result<Vec<u32>, BookError> {
        let twins = self.free_twins(leaf)?;
        let (status, attempts) = {
            let n = &self.nodes[leaf as usize];
            (n.status, n.attempts)
        };
        let mut changed = Vec::new();
        for t in twins {
            let board = self.board(t)?;
            if let Some(w) = db.stored_winner(&board) {
                self.nodes[t as usize].status = super::Status::Won(w);
                changed.push(t);
            } else if status == super::Status::Tried {
                while self.nodes[t as usize].attempts < attempts
                    && self.nodes[t as usize].children.is_empty()
                {
                    self.tried(t, &board, db, spent)?;
                }
                changed.push(t);
            }
        }
        Ok(changed)
    }
}

#[cfg(test)]
mod tests {
    use crate::book::tests::{SQUARE, board};
    use crate::book::{Book, RoundOptions, Searches, Status};
    use crate::db::Builder;
    use crate::rules::{Color, Point, Rules, Size};

    fn p(s: &str) -> Point {
        s.parse().unwrap()
    }

    /// The square, White to move, grown by hand to two move orders of one position: White
    /// o15, Black h12, White b15, and White b15, Black h12, White o15. Returns the book and
    /// the two leaves.
    fn transposed() -> (Book, Builder, u32, u32) {
        let mut book = Book::new(Rules::renju(), Size::STANDARD);
        book.add_root("square", &board(SQUARE), Color::Black)
            .unwrap();
        book.settings.max_ply = Some(3);
        book.open(0, &[p("o15"), p("b15")]);
        let (a, b) = (book.nodes[0].children[0], book.nodes[0].children[1]);
        for n in [a, b] {
            book.nodes[n as usize].expanded = true;
            book.open(n, &[p("h12")]);
        }
        let (ax, bx) = (
            book.nodes[a as usize].children[0],
            book.nodes[b as usize].children[0],
        );
        book.nodes[0].expanded = true;
        book.nodes[ax as usize].expanded = true;
        book.nodes[bx as usize].expanded = true;
        book.open(ax, &[p("b15")]);
        book.open(bx, &[p("o15")]);
        let (l1, l2) = (
            book.nodes[ax as usize].children[0],
            book.nodes[bx as usize].children[0],
        );
        book.recompute();
        let db = Builder::new(Rules::renju(), Size::STANDARD);
        (book, db, l1, l2)
    }

    #[test]
    fn a_search_without_a_result_counts_for_the_twin_and_a_proof_settles_it() {
        let (mut book, mut db, l1, l2) = transposed();
        assert_eq!(
            book.position_key(l1).unwrap(),
            book.position_key(l2).unwrap()
        );
        let board = book.board(l1).unwrap();
        book.tried(l1, &board, &mut db, 1000).unwrap();
        book.tried(l1, &board, &mut db, 1000).unwrap();
        assert_eq!(book.share_search(l1, &mut db, 1000).unwrap(), vec![l2]);
        let twin = &book.nodes[l2 as usize];
        assert_eq!(
            (twin.status, twin.attempts, twin.expanded),
            (Status::Tried, 2, false)
        );
        // Proved at the first leaf: the twin is settled from the database.
        let solution =
            crate::solve::solve(&board, &crate::solve::SolveOptions::default(), &mut |_| {});
        db.add_proof(&solution.proof.expect("the square wins for Black"))
            .unwrap();
        book.nodes[l1 as usize].status = Status::Won(Color::Black);
        assert_eq!(book.share_search(l1, &mut db, 1000).unwrap(), vec![l2]);
        assert_eq!(book.nodes[l2 as usize].status, Status::Won(Color::Black));
    }

    /// A twin picked while its position is being searched waits for that search, and takes
    /// its result.
    #[test]
    fn a_twin_picked_while_its_position_is_searched_waits_for_that_search() {
        let (mut book, mut db, l1, l2) = transposed();
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .unwrap();
        let options = RoundOptions {
            position_nodes: Some(2000),
            threads: 2,
            ..RoundOptions::default()
        };
        let mut searches = Searches::default();
        book.start(&mut db, &options, &pool, &mut searches).unwrap();
        assert_eq!(searches.running(), 1, "one search for the two leaves");
        book.fold(&mut db, &mut searches).unwrap();
        assert_eq!(searches.running(), 0);
        assert_eq!(book.totals.searches, 1);
        let (n1, n2) = (&book.nodes[l1 as usize], &book.nodes[l2 as usize]);
        assert_eq!((n1.status, n1.attempts), (n2.status, n2.attempts));
        assert!(n1.status != Status::Open && !n2.busy);
    }
}
