//! Settling positions upwards: a position whose children decide it is won (and added to the
//! database as a [`Combined`] step over them) or drawn, and an attacker position whose opened
//! moves all failed opens its next batch; planned leaves are settled from the merged database.

use std::collections::HashSet;

use super::search::ordered_moves;
use super::{Book, BookError, NO_PARENT, Status};
use crate::db::{Builder, Combined, PassCertificate};
use crate::rules::{Board, Point};

impl Book {
    /// Settles `node` from its children if they decide it (adding it to the database), or
    /// opens the attacker's next batch when every opened move failed; then its numbers, and
    /// the same for every node above it.
    pub(super) fn settle_upwards(
        &mut self,
        mut node: u32,
        db: &mut Builder,
    ) -> Result<(), BookError> {
        loop {
            if self.decidable(node) {
                let board = self.board(node)?;
                self.settle_node(node, &board, db)?;
            }
            self.numbers(node);
            let parent = self.nodes[node as usize].parent;
            if parent == NO_PARENT {
                return Ok(());
            }
            node = parent;
        }
    }

    /// Whether an expanded, unsettled node's children may decide it: one is won for the side
    /// to move, or all are settled (then it is settled, or its next batch opens), or, where
    /// the attacker is to move with moves not opened yet, all are settled or disproved (then
    /// the next batch opens). Only then is its position played out.
    fn decidable(&self, node: u32) -> bool {
        let n = &self.nodes[node as usize];
        if n.status.settled() || !n.expanded {
            return false;
        }
        let side = self.to_move(node);
        n.children
            .iter()
            .all(|&c| self.nodes[c as usize].status.settled())
            || n.children
                .iter()
                .any(|&c| self.nodes[c as usize].status == Status::Won(side))
            || self.next_batch_due(node)
    }

    /// Whether the attacker, to move at `node`, has moves not opened yet and every opened one
    /// is settled or disproved: then the next batch is to be opened.
    fn next_batch_due(&self, node: u32) -> bool {
        let n = &self.nodes[node as usize];
        self.attacker_to_move(node)
            && n.unopened > 0
            && n.children
                .iter()
                .all(|&c| self.nodes[c as usize].status.settled() || self.disproved(c))
    }

    /// Settles an expanded node whose children decide it.
    pub(super) fn settle_node(
        &mut self,
        node: u32,
        board: &Board,
        db: &mut Builder,
    ) -> Result<(), BookError> {
        let side = board.to_move();
        let other = side.opponent();
        let children: Vec<(Point, Status)> = self.nodes[node as usize]
            .children
            .iter()
            .map(|&c| {
                let c = &self.nodes[c as usize];
                (c.play.expect("a child has a move"), c.status)
            })
            .collect();
        if let Some(&(play, _)) = children.iter().find(|(_, s)| *s == Status::Won(side)) {
            db.add_combined(board, side, Combined::Move(play))?;
            self.nodes[node as usize].status = Status::Won(side);
            return Ok(());
        }
        let all_settled = children.iter().all(|(_, s)| s.settled());
        if !all_settled && !self.next_batch_due(node) {
            return Ok(());
        }
        if self.nodes[node as usize].unopened > 0 {
            // Every opened move failed: open the next batch.
            let opened: HashSet<Point> = children.iter().map(|&(p, _)| p).collect();
            let width = self.settings.width.max(1) as usize;
            let next: Vec<Point> = ordered_moves(board, side)
                .into_iter()
                .filter(|p| !opened.contains(p))
                .take(width)
                .collect();
            let n = &mut self.nodes[node as usize];
            if !next.is_empty() {
                n.unopened = n.unopened.saturating_sub(next.len() as u32);
                let first = self.nodes.len() as u32;
                self.open(node, &next);
                for c in first..self.nodes.len() as u32 {
                    self.numbers(c);
                }
                return Ok(());
            }
            n.unopened = 0;
        }
        if !all_settled {
            // Disproved children whose values are not known: so is this node's.
            return Ok(());
        }
        let all_lost = children.iter().all(|(_, s)| *s == Status::Won(other));
        let full = children.is_empty() && board.is_full();
        if all_lost && !full {
            let n = &self.nodes[node as usize];
            let certificate = match (&n.certificate, &n.pass_proof) {
                (Some(c), _) if c.winner == other => Some(PassCertificate::Line(c.line.clone())),
                (_, Some(proof)) if proof.attacker == other => {
                    Some(PassCertificate::Proof(proof.clone()))
                }
                _ => None,
            };
            let replies = children.iter().map(|&(p, _)| p).collect();
            db.add_combined(
                board,
                other,
                Combined::Replies {
                    certificate,
                    replies,
                },
            )?;
            self.nodes[node as usize].status = Status::Won(other);
        } else {
            self.nodes[node as usize].status = Status::Draw;
        }
        Ok(())
    }

    /// Every unsettled leaf that has been handed to a work unit is settled from the database
    /// (after the parts were merged into it), or else counted as tried.
    ///
    /// # Errors
    /// As [`Book::round`].
    pub fn reconcile(&mut self, db: &mut Builder) -> Result<usize, BookError> {
        let planned: Vec<u32> = (0..self.nodes.len() as u32)
            .filter(|&n| self.nodes[n as usize].status == Status::Planned)
            .collect();
        for &leaf in &planned {
            let board = self.board(leaf)?;
            match db.stored_winner(&board) {
                Some(w) => self.nodes[leaf as usize].status = Status::Won(w),
                None => {
                    let spent = self.average_search();
                    self.tried(leaf, &board, db, spent)?;
                }
            }
        }
        for &leaf in &planned {
            self.settle_upwards(leaf, db)?;
        }
        Ok(planned.len())
    }

    /// Every open leaf (not expanded, not settled, not planned) whose position the database
    /// holds is settled from it, so that a proof merged in by hand (`db merge` of a `book work`
    /// part or of a `solve --db` file) counts at once, not only once its leaf comes up for a
    /// search. Returns how many were settled.
    ///
    /// # Errors
    /// As [`Book::round`].
    pub fn take_back_known(&mut self, db: &mut Builder) -> Result<usize, BookError> {
        let leaves: Vec<u32> = (0..self.nodes.len() as u32)
            .filter(|&n| {
                let node = &self.nodes[n as usize];
                !node.expanded
                    && matches!(
                        node.status,
                        Status::Open | Status::Tried | Status::Exhausted
                    )
            })
            .collect();
        let mut known = Vec::new();
        for leaf in leaves {
            let board = self.board(leaf)?;
            if let Some(w) = db.stored_winner(&board) {
                self.nodes[leaf as usize].status = Status::Won(w);
                known.push(leaf);
            }
        }
        for &leaf in &known {
            self.settle_upwards(leaf, db)?;
        }
        Ok(known.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::book::RoundOptions;
    use crate::book::tests::vct_book;
    use crate::book::unit;
    use crate::notation::{PositionOptions, parse_position};
    use crate::rules::{Color, Rules, Size};

    /// A freestyle k = 4 book on 4x4 whose one root is `stones`, Black attacking.
    fn small_book(stones: &str) -> Book {
        let rules = Rules::new(crate::rules::Rule::Freestyle, Some(4)).unwrap();
        let size = Size::square(4).unwrap();
        let options = PositionOptions {
            size,
            rules,
            to_move: None,
        };
        let root_board = parse_position(stones, &options).unwrap();
        let mut book = Book::new(rules, size);
        assert!(book.add_root("r", &root_board, Color::Black).unwrap());
        book
    }

    /// A position whose attacker's win is ruled out by a settled child (a draw under a
    /// defender node) is disproved at once: nothing under it is searched again, a root so
    /// disproved is done, and an attacker node whose opened moves are all disproved opens its
    /// next batch.
    #[test]
    fn a_disproved_position_is_not_searched_further() {
        let p = |s: &str| s.parse::<Point>().unwrap();
        // Black (the attacker) has moved: White, the defender, is to move at the root.
        let mut book = small_book("a1");
        let (rules, size) = (book.rules, book.size);
        let root = book.roots[0].node;
        book.nodes[root as usize].expanded = true;
        book.open(root, &[p("b2"), p("c3")]);
        book.recompute();
        assert!(!book.finished());
        let mut db = Builder::new(rules, size);
        let (b2, c3) = (
            book.nodes[root as usize].children[0],
            book.nodes[root as usize].children[1],
        );
        book.nodes[b2 as usize].status = Status::Draw;
        book.numbers(b2);
        book.settle_upwards(b2, &mut db).unwrap();
        assert!(book.disproved(root));
        assert_eq!(
            book.nodes[root as usize].status,
            Status::Open,
            "its value is not known"
        );
        assert!(book.finished());
        assert_eq!(book.most_proving(root), None);
        assert!(book.plan(1).unwrap().is_empty());
        let report = book.report(&db.finish());
        assert_eq!(report[0].result, "disproved");
        assert_eq!(report[0].winner, None);

        // Below c3 Black is to move, with one move opened and more to come: when that move is
        // disproved, the next batch opens.
        book.nodes[c3 as usize].expanded = true;
        book.nodes[c3 as usize].unopened = 5;
        book.open(c3, &[p("d4")]);
        let d4 = book.nodes[c3 as usize].children[0];
        book.nodes[d4 as usize].expanded = true;
        book.open(d4, &[p("a2")]);
        let a2 = book.nodes[d4 as usize].children[0];
        book.nodes[a2 as usize].status = Status::Draw;
        book.recompute();
        assert!(book.disproved(d4) && book.disproved(c3));
        let mut db = Builder::new(rules, size);
        book.settle_upwards(a2, &mut db).unwrap();
        let c3_node = &book.nodes[c3 as usize];
        assert!(c3_node.children.len() > 1, "the next batch is open");
        assert!(!book.disproved(c3));
    }

    /// `leaves` of `book` searched on one thread as a work unit of their own, with `budget`'s
    /// per-position budget: the results and the partial database (not merged).
    fn work_apart(
        book: &Book,
        leaves: &[u32],
        budget: &RoundOptions,
    ) -> (Vec<unit::WorkResult>, crate::db::Database) {
        let mut unit = unit::Unit::new(book.rules, book.size, budget);
        for &leaf in leaves {
            unit.push(leaf, &book.board(leaf).unwrap(), &book.path(leaf), 0, None);
        }
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .unwrap();
        let mut part = Builder::new(Rules::renju(), Size::STANDARD);
        let reported = std::sync::Mutex::new(Vec::new());
        let beats = std::sync::Mutex::new(Vec::new());
        let heartbeat = unit::Heartbeat {
            every: std::time::Duration::ZERO,
            report: &|p, r| beats.lock().unwrap().push((p.book_node, r.clone())),
        };
        let results = unit
            .work(
                &mut part,
                &RoundOptions::default(),
                &pool,
                &|p, r| {
                    assert_eq!(p.book_node, r.book_node);
                    reported
                        .lock()
                        .unwrap()
                        .push((r.book_node, r.result, r.nodes));
                },
                Some(&heartbeat),
            )
            .unwrap();
        // Each search's end was reported once, with the result it returns.
        let mut reported = reported.into_inner().unwrap();
        let mut returned: Vec<_> = results
            .iter()
            .map(|r| (r.book_node, r.result, r.nodes))
            .collect();
        reported.sort_unstable();
        returned.sort_unstable();
        assert_eq!(reported, returned);
        // Every search (at least one round each, with no least time between reports) was
        // reported on while it ran: its nodes growing up to those it ended with, against the
        // unit's budget.
        let beats = beats.into_inner().unwrap();
        for r in &results {
            let mine: Vec<_> = beats
                .iter()
                .filter(|(node, _)| *node == r.book_node)
                .map(|(_, running)| running)
                .collect();
            assert!(!mine.is_empty(), "no report on {:?}", r.line);
            assert!(
                mine.windows(2)
                    .all(|w| w[0].nodes <= w[1].nodes && w[0].elapsed <= w[1].elapsed)
            );
            assert!(
                mine.iter()
                    .all(|running| running.nodes <= r.nodes
                        && running.budget == budget.position_nodes)
            );
        }
        (results, part.finish())
    }

    #[test]
    fn planned_leaves_are_settled_from_the_database_or_counted_as_tried() {
        let (mut book, mut db) = vct_book();
        let planned = book.plan(4).unwrap();
        assert_eq!(planned.len(), 1, "only the root is a leaf");
        assert_eq!(book.nodes[0].status, Status::Planned);
        assert!(
            book.plan(4).unwrap().is_empty(),
            "a planned leaf is not planned twice"
        );
        // Nothing merged: the root counts as tried and is expanded.
        assert_eq!(book.reconcile(&mut db).unwrap(), 1);
        assert_eq!(book.nodes[0].status, Status::Tried);
        assert!(book.nodes[0].expanded && !book.nodes[0].children.is_empty());
        // Plan the children, prove them in a unit of their own, merge, reconcile.
        let planned = book.plan(1000).unwrap();
        assert_eq!(planned.len(), book.nodes[0].children.len());
        let leaves: Vec<u32> = planned.iter().map(|&(node, _)| node).collect();
        let budget = RoundOptions {
            position_time: Some(2.0),
            ..RoundOptions::default()
        };
        let (results, part) = work_apart(&book, &leaves, &budget);
        // White is to move in each: a proof is a loss for it.
        assert!(results.iter().any(|r| r.result == "loss"), "{results:?}");
        db.add_database(&part).unwrap();
        book.reconcile(&mut db).unwrap();
        assert_eq!(book.nodes[0].status, Status::Won(Color::Black));
        let report = crate::check::verify::check(&db.finish(), &|_| {});
        assert!(report.ok, "{:?}", report.errors);
    }

    /// `book status --under` counts, for each expanded move, its open replies never searched,
    /// those planned, and the most searches any of them had.
    #[test]
    fn the_report_under_a_position_counts_how_often_the_open_replies_were_searched() {
        let (mut book, mut db) = vct_book();
        book.plan(1).unwrap();
        book.reconcile(&mut db).unwrap();
        // Every move of the root counted as tried and expanded; the one of most replies.
        book.plan(1000).unwrap();
        book.reconcile(&mut db).unwrap();
        let child = *book.nodes[0]
            .children
            .iter()
            .max_by_key(|&&c| book.nodes[c as usize].children.len())
            .unwrap();
        let replies = book.nodes[child as usize].children.len();
        assert!(replies > 2, "{replies}");
        let play = book.nodes[child as usize].play.unwrap().to_string();
        let move_of = |book: &Book| {
            book.report_under(0)
                .moves
                .into_iter()
                .find(|m| m.play == play)
                .unwrap()
        };
        let m = move_of(&book);
        assert_eq!(
            (m.open_replies, m.never_searched, m.planned, m.most_searches),
            (replies, replies, 0, 0)
        );
        book.plan_under(2, &[child]).unwrap();
        let m = move_of(&book);
        assert_eq!(
            (m.never_searched, m.planned, m.most_searches),
            (replies - 2, 2, 0)
        );
        // Counted as tried, once: no longer never searched.
        book.reconcile(&mut db).unwrap();
        let m = move_of(&book);
        assert_eq!(
            (m.never_searched, m.planned, m.most_searches),
            (replies - 2, 0, 1)
        );
    }

    /// A planned leaf given back to the frontier is picked again as it was, open or tried as
    /// often as before, with no search counted; a position not planned, out of the book, or
    /// named by another line is refused and left as it is.
    #[test]
    fn a_released_leaf_goes_back_to_the_frontier_without_a_search_counted() {
        let (mut book, mut db) = vct_book();
        assert_eq!(book.plan(4).unwrap().len(), 1);
        let root = book.board(0).unwrap();
        let wrong = book.release(0, &["h8".to_string()], &root).unwrap_err();
        assert!(
            wrong.to_string().contains("is `` in the book, not `h8`"),
            "{wrong}"
        );
        assert_eq!(
            book.nodes[0].status,
            Status::Planned,
            "a refusal changes nothing"
        );
        let mut other = root.clone();
        other.play_unchecked(other.points().find(|&p| other.stone(p).is_none()).unwrap());
        let stones = book.release(0, &[], &other).unwrap_err();
        assert!(
            stones.to_string().contains("holds other stones"),
            "{stones}"
        );
        book.release(0, &[], &root).unwrap();
        assert_eq!(book.nodes[0].status, Status::Open);
        assert_eq!((book.nodes[0].attempts, book.nodes[0].pn), (0, 1));
        assert!(book.nodes[0].free);
        let again = book.release(0, &[], &root).unwrap_err();
        assert!(again.to_string().contains("is not planned"), "{again}");
        let beyond = book.release(9999, &[], &root).unwrap_err();
        assert!(beyond.to_string().contains("the book has only"), "{beyond}");
        // Nothing was planned when the parts came back: nothing is counted.
        assert_eq!(book.reconcile(&mut db).unwrap(), 0);
        assert_eq!(book.nodes[0].status, Status::Open);
        // Planned again, and this time counted as tried: expanded, its children leaves.
        assert_eq!(book.plan(4).unwrap().len(), 1);
        assert_eq!(book.reconcile(&mut db).unwrap(), 1);
        let child = book.nodes[0].children[0];
        // A leaf searched twice before (as at a ply limit) goes back tried, at the budget of
        // its third search.
        book.nodes[child as usize].status = Status::Tried;
        book.nodes[child as usize].attempts = 2;
        book.recompute();
        let picked = book.plan(1000).unwrap();
        assert!(picked.iter().any(|&(n, _)| n == child));
        let line = crate::proof::names(&book.path(child));
        assert_eq!(line.len(), 1);
        let board = book.board(child).unwrap();
        book.release(child, &line, &board).unwrap();
        let c = &book.nodes[child as usize];
        assert_eq!(
            (c.status, c.attempts, c.pn, c.free),
            (Status::Tried, 2, 4, true)
        );
        // Its parent counts it as a leaf to search again, not one under way.
        assert!(book.nodes[0].pn < super::super::numbers::BUSY);
    }

    /// A plan under a line takes the leaves below the position the line reaches and no
    /// others; a line the book does not hold reaches nothing.
    #[test]
    fn a_plan_under_a_line_takes_only_the_leaves_below_it() {
        let (mut book, mut db) = vct_book();
        assert_eq!(book.reached_by(&[]), vec![0], "the empty line is the root");
        // Expand the root: plan it, and count it as tried with nothing merged.
        book.plan(1).unwrap();
        book.reconcile(&mut db).unwrap();
        let children = book.nodes[0].children.clone();
        assert!(children.len() > 1);
        let chosen = children[children.len() - 1];
        let line = book.path(chosen);
        assert_eq!(line.len(), 1);
        assert_eq!(book.reached_by(&line), vec![chosen]);
        assert!(
            book.reached_by(&[line[0], line[0]]).is_empty(),
            "no move is played twice"
        );
        let planned: Vec<u32> = book
            .plan_under(1000, &[chosen])
            .unwrap()
            .iter()
            .map(|&(node, _)| node)
            .collect();
        assert_eq!(planned, vec![chosen]);
        for &c in &children {
            let expected = if c == chosen {
                Status::Planned
            } else {
                Status::Open
            };
            assert_eq!(book.nodes[c as usize].status, expected);
        }
        assert!(
            book.plan_under(1000, &[chosen]).unwrap().is_empty(),
            "a planned leaf is not planned twice"
        );
        assert_eq!(book.plan(1000).unwrap().len(), children.len() - 1);
    }

    /// The example VCT's book with its root expanded (planned, then counted as tried with
    /// nothing merged), its database, and the root's children.
    fn expanded_vct_book() -> (Book, Builder, Vec<u32>) {
        let (mut book, mut db) = vct_book();
        book.plan(1).unwrap();
        book.reconcile(&mut db).unwrap();
        let children = book.nodes[0].children.clone();
        (book, db, children)
    }

    /// A plan under several positions takes their leaves in turn, each once.
    #[test]
    fn a_plan_under_several_lines_takes_their_leaves_in_turn() {
        let (mut book, _, children) = expanded_vct_book();
        assert!(children.len() > 2);
        let (a, b) = (children[children.len() - 1], children[0]);
        let planned: Vec<u32> = book
            .plan_under(1000, &[a, b])
            .unwrap()
            .iter()
            .map(|&(node, _)| node)
            .collect();
        assert_eq!(planned, vec![a, b]);
        let planned_later = book.plan(1000).unwrap();
        assert_eq!(planned_later.len(), children.len() - 2);
        assert!(planned_later.iter().all(|&(n, _)| n != a && n != b));
    }

    /// Proofs merged into the database by hand settle the open leaves they prove at once, and
    /// nothing else: the other leaves stay open.
    #[test]
    fn open_leaves_the_database_holds_are_settled_from_it() {
        let (mut book, mut db) = vct_book();
        assert_eq!(
            book.take_back_known(&mut db).unwrap(),
            0,
            "an empty database"
        );
        // Expand the root: plan it, and count it as tried with nothing merged.
        book.plan(1).unwrap();
        book.reconcile(&mut db).unwrap();
        let children = book.nodes[0].children.clone();
        assert!(children.len() > 1);
        assert_eq!(book.take_back_known(&mut db).unwrap(), 0);
        // Search the children outside the book (a unit of their own, never planned), with a
        // budget that proves some and not others, and merge what was proved.
        let budget = RoundOptions {
            position_nodes: Some(20_000),
            ..RoundOptions::default()
        };
        let (results, part) = work_apart(&book, &children, &budget);
        let proved: Vec<u32> = results
            .iter()
            .filter(|r| r.result == "loss")
            .map(|r| r.book_node)
            .collect();
        assert!(
            !proved.is_empty() && proved.len() < children.len(),
            "{results:?}"
        );
        assert!(
            children
                .iter()
                .all(|&c| book.nodes[c as usize].status == Status::Open)
        );
        db.add_database(&part).unwrap();
        assert_eq!(book.take_back_known(&mut db).unwrap(), proved.len());
        for &c in &children {
            let expected = if proved.contains(&c) {
                Status::Won(Color::Black)
            } else {
                Status::Open
            };
            assert_eq!(book.nodes[c as usize].status, expected);
        }
        assert_eq!(book.take_back_known(&mut db).unwrap(), 0, "settled once");
    }

    /// Planned leaves that their unit reports narrowed out (`book release --results`) are
    /// exhausted: counted once, never planned again, far from a proof but not disproved; a
    /// proof from the database still settles one.
    #[test]
    fn exhausted_leaves_are_not_planned_again_and_a_proof_still_settles_one() {
        let (mut book, mut db, children) = expanded_vct_book();
        let budget = RoundOptions {
            position_nodes: Some(20_000),
            ..RoundOptions::default()
        };
        let (results, part) = work_apart(&book, &children, &budget);
        let pick = |proved: bool| {
            let r = results.iter().find(|r| (r.result == "loss") == proved);
            r.unwrap().book_node
        };
        let (proved, open) = (pick(true), pick(false));
        assert_eq!(book.plan_under(1000, &[proved, open]).unwrap().len(), 2);
        for n in [proved, open] {
            let line = crate::proof::names(&book.path(n));
            let board = book.board(n).unwrap();
            assert!(book.exhaust_searched(n, &line, &board).unwrap());
            assert!(book.exhaust_searched(n, &line, &board).unwrap());
            let n = &book.nodes[n as usize];
            assert_eq!(
                (n.status, n.attempts, n.free),
                (Status::Exhausted, 1, false),
                "counted once"
            );
        }
        assert_eq!(
            book.reconcile(&mut db).unwrap(),
            0,
            "nothing planned is left"
        );
        let later = book.plan(1000).unwrap();
        assert_eq!(later.len(), children.len() - 2);
        assert!(later.iter().all(|&(n, _)| n != proved && n != open));
        assert!(!book.disproved(open) && !book.disproved(0));
        assert_eq!(
            book.nodes[open as usize].pn,
            super::super::numbers::EXHAUSTED
        );
        db.add_database(&part).unwrap();
        assert_eq!(book.take_back_known(&mut db).unwrap(), 1);
        assert_eq!(
            book.nodes[proved as usize].status,
            Status::Won(Color::Black)
        );
        assert_eq!(book.nodes[open as usize].status, Status::Exhausted);
    }

    /// An open move at a root that is disproved (its proof number infinite) is reported as
    /// disproved, not as planned or being searched.
    #[test]
    fn a_disproved_open_move_is_reported_as_disproved() {
        let p = |s: &str| s.parse::<Point>().unwrap();
        // Black (the attacker) to move at the root.
        let mut book = small_book("a1 d4");
        let (rules, size) = (book.rules, book.size);
        book.nodes[0].expanded = true;
        book.open(0, &[p("b2"), p("c3")]);
        let b2 = book.nodes[0].children[0];
        book.nodes[b2 as usize].expanded = true;
        book.open(b2, &[p("a2")]);
        let a2 = book.nodes[b2 as usize].children[0];
        book.nodes[a2 as usize].status = Status::Draw;
        book.recompute();
        assert!(book.disproved(b2) && !book.nodes[b2 as usize].status.settled());
        let db = Builder::new(rules, size).finish();
        let report = &book.report(&db)[0];
        let open = report
            .open_children
            .iter()
            .find(|c| c.play == "b2")
            .expect("b2 is open");
        assert!(open.disproved && open.proof_number.is_none(), "{open:?}");
        let c3 = report
            .open_children
            .iter()
            .find(|c| c.play == "c3")
            .unwrap();
        assert!(!c3.disproved && c3.proof_number == Some(1), "{c3:?}");
    }
}
