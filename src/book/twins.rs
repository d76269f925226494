//! Transpositions: one position reached in the book by several move orders, in any symmetric
//! form (its twins). A leaf's search stands for all of them: a proof settles every twin from
//! the database; a leaf picked whose twin was searched more often without a result counts
//! those searches as its own, without another (and is expanded below the ply limit, as the
//! twin was); and a twin picked while its position is being searched waits for that search
//! instead of running its own. Nothing here proves anything: a twin is settled only from the
//! database, whose proofs `check` verifies.

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

    /// The other unsettled leaves with `node`'s position (key `key`), not being searched nor
    /// under a settled position.
    fn free_twins(&mut self, node: u32, key: u64) -> Result<Vec<u32>, BookError> {
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

    /// After `leaf`'s search (its position's key `key`): settles its twins whose position the
    /// database now holds. Returns them.
    pub(super) fn settle_twins(
        &mut self,
        leaf: u32,
        key: u64,
        db: &Builder,
    ) -> Result<Vec<u32>, BookError> {
        let mut settled = Vec::new();
        for t in self.free_twins(leaf, key)? {
            if let Some(w) = db.stored_winner(&self.board(t)?) {
                self.nodes[t as usize].status = super::Status::Won(w);
                settled.push(t);
            }
        }
        Ok(settled)
    }

    /// The most searches without a result that a twin of `leaf`, with position `key`, has had
    /// (0 if none has).
    pub(super) fn twin_attempts(&mut self, leaf: u32, key: u64) -> Result<u32, BookError> {
        let same = self.keys()?.get(&key).cloned().unwrap_or_default();
        Ok(same
            .into_iter()
            .filter(|&t| t != leaf)
            .map(|t| self.nodes[t as usize].attempts)
            .max()
            .unwrap_or(0))
    }
}

#[cfg(test)]
pub(super) mod tests {
    use crate::book::tests::{SQUARE, board, on_threads};
    use crate::book::{Book, Searches, Status};
    use crate::db::Builder;
    use crate::rules::{Color, Point, Rules, Size};

    fn p(s: &str) -> Point {
        s.parse().unwrap()
    }

    /// The square, White to move, grown by hand to two move orders of one position: White
    /// o15, Black h12, White b15, and White b15, Black h12, White o15, with `max_ply`.
    /// Returns the book and the two leaves.
    pub(in crate::book) fn transposed(max_ply: Option<u32>) -> (Book, Builder, u32, u32) {
        let mut book = Book::new(Rules::renju(), Size::STANDARD);
        book.add_root("square", &board(SQUARE), Color::Black)
            .unwrap();
        book.settings.max_ply = max_ply;
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

    /// A leaf picked whose twin was searched more often counts those searches as its own,
    /// without a search; a proof at one leaf settles its twin from the database.
    #[test]
    fn a_twins_searches_count_for_the_leaf_and_its_proof_settles_it() {
        let (mut book, mut db, l1, l2) = transposed(Some(3));
        let key = book.position_key(l1).unwrap();
        assert_eq!(book.position_key(l2).unwrap(), key);
        let board = book.board(l1).unwrap();
        book.tried(l1, &board, &mut db, 1000).unwrap();
        book.tried(l1, &board, &mut db, 1000).unwrap();
        book.recompute();
        assert_eq!(book.twin_attempts(l2, key).unwrap(), 2);
        assert_eq!(book.twin_attempts(l1, key).unwrap(), 0);
        let (pool, options) = on_threads(1, 2000);
        let mut searches = Searches::default();
        // l2, the most-proving leaf, catches up without a search; then one leaf is searched.
        let round = book.start(&mut db, &options, &pool, &mut searches).unwrap();
        assert_eq!((round.twins, searches.running()), (1, 1));
        let twin = &book.nodes[l2 as usize];
        assert_eq!(
            (twin.status, twin.attempts, twin.expanded),
            (Status::Tried, 2, false)
        );
        searches.call_off();
        book.fold(&mut db, &mut searches).unwrap();
        assert_eq!(book.totals.searches, 1);
        // Proved at the first leaf: the twin is settled from the database.
        let solution =
            crate::solve::solve(&board, &crate::solve::SolveOptions::default(), &mut |_| {});
        db.add_proof(&solution.proof.expect("the square wins for Black"))
            .unwrap();
        book.nodes[l1 as usize].status = Status::Won(Color::Black);
        assert_eq!(book.settle_twins(l1, key, &db).unwrap(), vec![l2]);
        assert_eq!(book.nodes[l2 as usize].status, Status::Won(Color::Black));
    }

    /// A twin picked while its position is being searched waits for that search, and takes
    /// its result.
    #[test]
    fn a_twin_picked_while_its_position_is_searched_waits_for_that_search() {
        let (mut book, mut db, l1, l2) = transposed(Some(3));
        let (pool, options) = on_threads(2, 2000);
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
