//! Searching and expanding leaves: a leaf is searched with `solve` (see `run.rs` for the
//! searches under way), a proof is stored and tried on the leaf's siblings, and a leaf searched
//! without a result is expanded: the replies that break the other side's certificate, or the
//! attacker's moves in order, a batch at a time.

use std::collections::HashSet;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use super::{Book, BookError, Certificate, Status};
use crate::db::{Builder, Settled};
use crate::proof::Proof;
use crate::rules::{Board, Color, Point};
use crate::solve::Known;
use crate::threat::{
    Limits, Outcome, VcfOptions, VcfTable, VctOptions, VctTable, breaking_replies, prove_vct, vcf,
};

/// Node budget of the VCF that looks for a node's certificate.
const CERTIFICATE_NODES: u64 = 200_000;
/// Most nodes of the VCT that looks for a defender node's certificate proof when it has no
/// VCF certificate (a quarter of the failed search's nodes, up to this).
const PASS_PROOF_NODES: u64 = 1_000_000;
/// That VCT counts a move as a threat only if its certificate has at most this many fours
/// (as `solve`'s own VCTs do).
const PASS_PROOF_FOURS: u32 = 3;

/// How one round searches its leaves.
#[derive(Clone, Debug, Default)]
pub struct RoundOptions {
    /// Time per leaf search, in seconds (doubled for each earlier attempt).
    pub position_time: Option<f64>,
    /// Node budget per leaf search (doubled likewise).
    pub position_nodes: Option<u64>,
    /// The table bound of each leaf search, in MiB.
    pub memory_mb: Option<u64>,
    /// Leaves searched at once.
    pub threads: usize,
    /// The end of the whole run: a leaf search cut short by it is not counted.
    pub deadline: Option<Instant>,
    /// Raised to stop (Ctrl-C): a leaf search cut short by it is not counted.
    pub stop: Option<Arc<AtomicBool>>,
    /// Raised to call off one search (its leaf was settled meanwhile): cut short by it, the
    /// search is not counted either.
    pub called_off: Option<Arc<AtomicBool>>,
    /// The positions the database held when the search started, as a guide for it
    /// ([`SolveOptions::known`](crate::solve::SolveOptions::known)).
    pub known: Option<Known>,
    /// Each leaf's search looks for the book attacker's win only
    /// ([`SolveOptions::attacker`](crate::solve::SolveOptions::attacker)): the defender's wins are not searched for, so no leaf is
    /// disproved, and a leaf the defender wins stays open.
    pub attacker_wins_only: bool,
    /// Keep each leaf's search for the attacker's win alone in a state file in this
    /// directory, and go on from it at the leaf's next search (`book work --states`,
    /// `src/book/leaf_search.rs`).
    pub states: Option<std::path::PathBuf>,
}

/// The guide a book's database gives its searches ([`SolveOptions::known`](crate::solve::SolveOptions::known)): every position
/// stored when the snapshot was taken, with the side that wins it and its stored proof. A
/// leaf's search may run into positions the book proved under another White move (the White
/// stones swapped, say): it takes them as settled and looks elsewhere, and its proof, read out
/// without the guide's word, takes in the stored proofs of those it needs, replayed on the
/// board, or proves them again (`docs/book.md`).
#[must_use]
pub fn guide(settled: Settled) -> Known {
    let settled = Arc::new(settled);
    let proofs = settled.clone();
    Known::new(move |board: &Board| settled.winner(board))
        .with_proofs(move |board: &Board| proofs.proof(board))
}

impl RoundOptions {
    /// Whether the stop was raised.
    #[must_use]
    pub fn interrupted(&self) -> bool {
        self.stop
            .as_ref()
            .is_some_and(|s| s.load(Ordering::Relaxed))
    }

    /// Whether the stop was raised, or this search called off.
    pub(super) fn interrupted_or_called_off(&self) -> bool {
        self.interrupted()
            || self
                .called_off
                .as_ref()
                .is_some_and(|s| s.load(Ordering::Relaxed))
    }

    /// Whether the stop was raised or the run's deadline has passed.
    #[must_use]
    pub fn stopped(&self) -> bool {
        self.interrupted() || self.deadline.is_some_and(|d| Instant::now() >= d)
    }
}

impl Book {
    /// A leaf searched without a result, by a search of `spent` nodes: counted, and expanded
    /// below the ply limit.
    pub(super) fn tried(
        &mut self,
        leaf: u32,
        board: &Board,
        db: &mut Builder,
        spent: u64,
    ) -> Result<(), BookError> {
        let max_ply = self.settings.max_ply;
        let n = &mut self.nodes[leaf as usize];
        n.status = Status::Tried;
        n.attempts += 1;
        if max_ply.is_none_or(|m| n.ply < m) && !n.expanded {
            self.expand(leaf, board, db, spent)?;
        }
        Ok(())
    }

    /// A leaf whose search ended before its budget without a result, its narrowed moves
    /// holding no win ([`Status::Exhausted`]): neither expanded nor searched again. The search
    /// is counted unless `counted` says it was already (a planned leaf taken back as tried).
    /// Returns whether it was marked: a settled leaf, or one with children, is left as it is.
    pub(super) fn exhaust(&mut self, leaf: u32, counted: bool) -> bool {
        let n = &mut self.nodes[leaf as usize];
        if n.status.settled() || !n.children.is_empty() {
            return false;
        }
        if n.status != Status::Exhausted && !counted {
            n.attempts += 1;
        }
        n.status = Status::Exhausted;
        n.busy = false;
        self.refresh_path(leaf);
        true
    }

    /// Expands every leaf searched without a result that the ply limit left unexpanded and now
    /// allows (a run with a higher `--max-ply`): it was searched already, so it opens its
    /// children at once instead of being searched again with a doubled budget (or is settled,
    /// if the database has its position by now). Leaves under a settled position are left as
    /// they are. A stop or the run's deadline in `options` ends the work between two leaves;
    /// the ones left are expanded by the next run. Returns how many were expanded or settled.
    ///
    /// # Errors
    /// As [`Book::round`].
    pub fn expand_tried(
        &mut self,
        db: &mut Builder,
        options: &RoundOptions,
    ) -> Result<usize, BookError> {
        let max_ply = self.settings.max_ply;
        let due: Vec<u32> = (0..self.nodes.len() as u32)
            .filter(|&i| {
                let n = &self.nodes[i as usize];
                n.status == Status::Tried
                    && !n.expanded
                    && max_ply.is_none_or(|m| n.ply < m)
                    && !self.under_settled(i)
            })
            .collect();
        let spent = self.average_search();
        let mut done = Vec::with_capacity(due.len());
        for &leaf in &due {
            if options.stopped() {
                break;
            }
            done.push(leaf);
            let board = self.board(leaf)?;
            match db.stored_winner(&board) {
                // Proved since, inside another proof.
                Some(w) => self.nodes[leaf as usize].status = Status::Won(w),
                None => self.expand(leaf, &board, db, spent)?,
            }
        }
        for &leaf in &done {
            self.settle_upwards(leaf, db)?;
        }
        Ok(done.len())
    }

    /// The nodes of the book's searches so far, on average: the size of the search a leaf
    /// is taken to have failed when its own is not known (a work unit's, or an earlier run's).
    pub(super) fn average_search(&self) -> u64 {
        self.totals.nodes / self.totals.searches.max(1)
    }

    /// Whether a position above `node` is settled.
    pub(super) fn under_settled(&self, node: u32) -> bool {
        self.any_above(node, |b, n| b.nodes[n as usize].status.settled())
    }

    /// Opens `leaf`'s children: the replies that break the other side's certificate (its VCF,
    /// or where the book's defender is to move, the attacker's VCT, were the side to move to
    /// pass), or every legal move (the attacker's a batch at a time). The VCT gets a quarter
    /// of the `spent` nodes of the failed search, at most [`PASS_PROOF_NODES`].
    fn expand(
        &mut self,
        leaf: u32,
        board: &Board,
        db: &mut Builder,
        spent: u64,
    ) -> Result<(), BookError> {
        let side = board.to_move();
        let other = side.opponent();
        let certificate = certificate(board, other);
        let mut moves = ordered_moves(board, side);
        let attacker_to_move = side == self.attacker(leaf);
        let mut pass_proof = None;
        if let Some(line) = &certificate {
            let mut scratch = board.clone();
            let breaking: HashSet<Point> = breaking_replies(&mut scratch, other, line)
                .into_iter()
                .map(|(p, _)| p)
                .collect();
            moves.retain(|p| breaking.contains(p));
        } else if !attacker_to_move
            && let Some((proof, breaking)) =
                pass_certificate(board, other, (spent / 4).min(PASS_PROOF_NODES))
        {
            moves.retain(|p| breaking.binary_search(p).is_ok());
            pass_proof = Some(Arc::new(proof));
        }
        let opened = if certificate.is_none() && pass_proof.is_none() && attacker_to_move {
            moves.len().min(self.settings.width.max(1) as usize)
        } else {
            moves.len()
        };
        let n = &mut self.nodes[leaf as usize];
        n.expanded = true;
        n.unopened = (moves.len() - opened) as u32;
        n.certificate = certificate.map(|line| Certificate {
            winner: other,
            line: line.moves,
        });
        n.pass_proof = pass_proof;
        self.open(leaf, &moves[..opened]);
        if moves.is_empty() {
            // Nothing to reply: the certificate wins against everything, or there is no legal
            // move (a full board is a draw; Black with only forbidden points loses).
            self.settle_node(leaf, board, db)?;
        }
        Ok(())
    }
}

/// A limit of `nodes` nodes.
fn within(nodes: u64) -> Limits {
    Limits {
        nodes: Some(nodes),
        ..Limits::default()
    }
}

/// `color`'s VCF were the side to move to pass, within a fixed node budget: its moves and
/// the forced replies, ending in the five.
fn certificate(board: &Board, color: Color) -> Option<crate::threat::Line> {
    let options = VcfOptions {
        limits: within(CERTIFICATE_NODES),
        ..VcfOptions::default()
    };
    let mut passed = board.clone();
    passed.set_to_move(color);
    match vcf(&passed, color, &options).outcome {
        Outcome::Win(line) => Some(line),
        _ => None,
    }
}

/// `attacker`'s VCT were the defender (to move on `board`) to pass, within `budget` nodes, as
/// played there: its proof (the pass position's, the attacker to move), and the defender's
/// legal replies after which that proof no longer holds (sorted). Every other reply loses to
/// the same proof, which the checker replays. The replies are judged on the proof as it is
/// written, so the checker replays exactly what was judged.
fn pass_certificate(board: &Board, attacker: Color, budget: u64) -> Option<(Proof, Vec<Point>)> {
    if budget == 0 {
        return None;
    }
    let options = VctOptions {
        threat_fours: Some(PASS_PROOF_FOURS),
        limits: within(budget),
        ..VctOptions::default()
    };
    let mut passed = board.clone();
    passed.set_to_move(attacker);
    let found = prove_vct(
        &passed,
        attacker,
        &options,
        &mut VcfTable::with_cap(1 << 20),
        &mut VctTable::default(),
        true,
    );
    let played = found.tree?.as_played(&mut passed, attacker)?;
    let mut scratch = board.clone();
    let breaking = played.replies_not_answered(&mut scratch, attacker)?;
    Some((played.written(&passed, attacker), breaking))
}

/// The legal moves of `side`, the most forcing first: fours, threes, blocks of the other
/// side's threes, moves near the stones (by how many lines they build, for either side),
/// then the rest.
#[must_use]
pub fn ordered_moves(board: &Board, side: Color) -> Vec<Point> {
    let other = side.opponent();
    let mut scored: Vec<(u32, u32, Point)> = board
        .points()
        .filter(|&p| board.is_legal_for(p, side))
        .map(|p| {
            let class = if board.four_at(p, side).count > 0 {
                0
            } else if board.threes_at(p, side) > 0 {
                1
            } else if board.threes_at(p, other) > 0 {
                2
            } else if board.has_stone_near(p, 2) {
                3
            } else {
                4
            };
            let lines: u32 = board.potentials(p, side).iter().sum::<u32>()
                + board.potentials(p, other).iter().sum::<u32>();
            (class, u32::MAX - lines, p)
        })
        .collect();
    scored.sort_unstable();
    scored.into_iter().map(|(_, _, p)| p).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::book::numbers::INF;
    use crate::book::tests::{SQUARE, VCT_BLACK, board, one_thread, square_book, vct_book};
    use crate::db::Index;
    use crate::rules::{Rules, Size};
    use crate::solve::{SolveOptions, Verdict, solve};
    use crate::threat::ProofTree;

    /// A book on the example VCT root with a ply limit of 0, and an empty database.
    fn vct_book_at_ply_limit_0() -> (Book, Builder) {
        let mut book = Book::new(Rules::renju(), Size::STANDARD);
        book.add_root("vct", &board(VCT_BLACK), Color::Black)
            .unwrap();
        book.settings.max_ply = Some(0);
        (book, Builder::new(Rules::renju(), Size::STANDARD))
    }

    /// Grows `book` on one thread with `nodes` per search until it is finished.
    fn grow(book: &mut Book, db: &mut Builder, nodes: u64) -> usize {
        let (pool, options) = one_thread(nodes);
        let mut rounds = 0;
        while !book.finished() {
            let round = book.round(db, &options, &pool).unwrap();
            assert!(round.searched + round.looked_up > 0, "a round did nothing");
            rounds += 1;
        }
        rounds
    }

    /// A root whose search ends before its budget without a win among its narrowed moves
    /// (White has an open four Black cannot stop, and only Black's win is looked for) is
    /// exhausted: counted once, not expanded, never searched or planned again, and neither
    /// proved nor disproved; the journal keeps it. Looking for both sides' wins proves White's.
    #[test]
    fn a_leaf_whose_narrowed_moves_hold_no_win_is_exhausted_and_not_searched_again() {
        for attacker_wins_only in [true, false] {
            let mut book = Book::new(Rules::renju(), Size::STANDARD);
            book.add_root("lost", &board("a1 h5 a3 h6 a5 h7 a7 h8"), Color::Black)
                .unwrap();
            let mut db = Builder::new(Rules::renju(), Size::STANDARD);
            let (pool, options) = one_thread(1_000_000);
            let options = RoundOptions {
                attacker_wins_only,
                ..options
            };
            let round = book.round(&mut db, &options, &pool).unwrap();
            assert_eq!(round.searched, 1);
            let root = &book.nodes[0];
            if !attacker_wins_only {
                assert_eq!(root.status, Status::Won(Color::White));
                continue;
            }
            assert_eq!(
                (root.status, root.attempts, root.expanded),
                (Status::Exhausted, 1, false)
            );
            assert!(round.log[0].why.is_some_and(|w| w.contains("narrowed")));
            assert!(!book.disproved(0) && !book.finished());
            assert_eq!(book.report_under(0).figures.state, "exhausted");
            let again = book.round(&mut db, &options, &pool).unwrap();
            assert_eq!(again.searched, 0, "searched again");
            assert!(book.plan(10).unwrap().is_empty(), "planned again");
            let read = Book::decode(&book.encode()).unwrap();
            assert_eq!(read.nodes[0].status, Status::Exhausted);
        }
    }

    #[test]
    fn a_book_proves_a_vct_position_from_the_top_and_the_database_checks() {
        let (mut book, mut db) = vct_book();
        // 2000 nodes do not prove the root at once: the book must expand it.
        let rounds = grow(&mut book, &mut db, 2000);
        assert!(rounds > 10, "{rounds} rounds");
        assert_eq!(book.nodes[0].status, Status::Won(Color::Black));
        assert!(book.nodes[0].expanded);
        let db = db.finish();
        let report = crate::check::verify::check(&db, &|_| {});
        assert!(report.ok, "{:?}", report.errors);
        // The root itself is stored, as a combined node over its children.
        let index = Index::build(&db);
        assert!(index.get(&board(VCT_BLACK)).is_some());
        let standing = book.report(&db);
        assert_eq!(standing[0].result, "proved");
        assert_eq!(standing[0].frontier, 0);
        assert!(standing[0].proof_nodes.is_some_and(|n| n > 1));
    }

    #[test]
    fn at_the_ply_limit_a_leaf_is_searched_again_with_a_doubled_budget() {
        let (mut book, mut db) = vct_book_at_ply_limit_0();
        let rounds = grow(&mut book, &mut db, 500);
        let root = &book.nodes[0];
        assert_eq!(root.status, Status::Won(Color::Black));
        assert!(!root.expanded && root.children.is_empty());
        assert_eq!(root.attempts as usize, rounds - 1);
        assert!(rounds > 1, "500 nodes proved it at once");
        assert_eq!(book.nodes.len(), 1);
    }

    #[test]
    fn growth_is_deterministic_on_one_thread_with_node_budgets() {
        let run = || {
            let mut book = Book::new(Rules::renju(), Size::STANDARD);
            book.add_root("vct", &board(VCT_BLACK), Color::Black)
                .unwrap();
            let mut db = Builder::new(Rules::renju(), Size::STANDARD);
            grow(&mut book, &mut db, 2000);
            (book.totals.searches, book.totals.nodes, book.nodes.len())
        };
        assert_eq!(run(), run());
    }

    #[test]
    fn attacker_moves_are_ordered_fours_first() {
        let b = board(VCT_BLACK);
        let moves = ordered_moves(&b, Color::Black);
        let legal = b
            .points()
            .filter(|&p| b.is_legal_for(p, Color::Black))
            .count();
        assert_eq!(moves.len(), legal);
        let first = moves[0];
        let fours = b.four_at(first, Color::Black).count;
        let threes = b.threes_at(first, Color::Black);
        assert!(fours > 0 || threes > 0, "{first} makes no threat");
    }

    #[test]
    fn a_defender_node_without_a_vcf_opens_only_the_replies_its_vct_certificate_misses() {
        let square = board(SQUARE);
        assert_eq!(square.to_move(), Color::White);
        assert!(certificate(&square, Color::Black).is_none());
        let (_, breaking) =
            pass_certificate(&square, Color::Black, 5000).expect("a VCT after a pass");
        let legal = square
            .points()
            .filter(|&p| square.is_legal_for(p, Color::White))
            .count();
        assert!(breaking.len() < legal / 3, "{} of {legal}", breaking.len());

        let (mut book, mut db) = square_book();
        grow(&mut book, &mut db, 20_000);
        let root = &book.nodes[0];
        assert_eq!(root.status, Status::Won(Color::Black));
        assert!(root.certificate.is_none() && root.pass_proof.is_some());
        let opened: Vec<Point> = root
            .children
            .iter()
            .map(|&c| book.nodes[c as usize].play.unwrap())
            .collect();
        let mut sorted = opened.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, breaking);

        // The root is stored with the proof as its certificate, and checks.
        let mut db = db.finish();
        let report = crate::check::verify::check(&db, &|_| {});
        assert!(report.ok, "{:?}", report.errors);
        let index = Index::build(&db);
        let (n, _) = index.get(&square).expect("the root is stored");
        let crate::db::Node::Replies {
            certificate: Some(crate::db::Certificate::Proof(_)),
            replies,
        } = &mut db.nodes[n as usize]
        else {
            panic!("the root is no defender node with a certificate proof");
        };
        assert_eq!(replies.len(), breaking.len());
        // A reply the certificate misses, left unlisted: the checker refuses it.
        replies.pop();
        let report = crate::check::verify::check(&db, &|_| {});
        assert!(!report.ok, "a missing reply went unnoticed");
    }

    #[test]
    fn a_raised_ply_limit_expands_the_leaves_searched_at_the_old_one_without_a_search() {
        let (mut book, mut db) = vct_book_at_ply_limit_0();
        let (pool, options) = one_thread(300);
        book.round(&mut db, &options, &pool).unwrap();
        assert_eq!(book.nodes[0].status, Status::Tried);
        assert_eq!(
            book.expand_tried(&mut db, &options).unwrap(),
            0,
            "the limit still holds"
        );
        book.settings.max_ply = Some(3);
        let searches = book.totals.searches;
        // A stop raised before the work leaves the leaf for the next run.
        let stop = RoundOptions {
            stop: Some(Arc::new(std::sync::atomic::AtomicBool::new(true))),
            ..options.clone()
        };
        assert_eq!(book.expand_tried(&mut db, &stop).unwrap(), 0);
        assert!(!book.nodes[0].expanded);
        assert_eq!(book.expand_tried(&mut db, &options).unwrap(), 1);
        assert_eq!(book.totals.searches, searches);
        assert!(book.nodes[0].expanded && !book.nodes[0].children.is_empty());
        assert_eq!(
            book.expand_tried(&mut db, &options).unwrap(),
            0,
            "expanded once"
        );
        // The book goes on from there to the proof.
        grow(&mut book, &mut db, 2000);
        assert_eq!(book.nodes[0].status, Status::Won(Color::Black));
    }

    /// A Black reply inside a certificate proof's zone can make one of Black's forced blocks
    /// in a VCF leaf forbidden: White's four then wins before the line's last move. The book
    /// (like `solve`) counts that reply answered, so it is no child; the checker replays the
    /// certificate after it and accepts the early win. White a3 d4 d5 d6, k10 l10 m10; Black
    /// to move; White's certificate d7 (d3 forced) n10; after Black f3, d3 would be an
    /// overline for Black.
    #[test]
    fn a_reply_that_makes_a_forced_block_forbidden_ends_a_replayed_line_early_and_checks() {
        use crate::db::{Combined, PassCertificate};
        use crate::threat::{Ending, Line, TreeNode};
        let p = |s: &str| s.parse::<Point>().unwrap();
        let mut b = Board::new(Size::STANDARD, Rules::renju());
        for s in [
            "a3", "d4", "d5", "d6", "k10", "l10", "m10", "h13", "i13", "j13",
        ] {
            b.put(p(s), Color::White).unwrap();
        }
        for s in [
            "b3", "c3", "e3", "g3", "d8", "a15", "o15", "o1", "a1", "a13", "o13",
        ] {
            b.put(p(s), Color::Black).unwrap();
        }
        b.set_to_move(Color::Black);
        let tree = ProofTree {
            root: 0,
            nodes: vec![TreeNode::Vcf(Line {
                moves: vec![p("d7"), p("d3"), p("n10")],
                ending: Ending::Five,
            })],
        };
        let mut passed = b.clone();
        passed.set_to_move(Color::White);
        let played = tree.as_played(&mut passed, Color::White).unwrap();
        let breaking = played
            .replies_not_answered(&mut b.clone(), Color::White)
            .unwrap();
        assert!(b.is_legal_for(p("f3"), Color::Black));
        assert!(!breaking.contains(&p("f3")), "{breaking:?}");
        let mut db = Builder::new(Rules::renju(), Size::STANDARD);
        for &r in &breaking {
            let mut child = b.clone();
            child.play(r).unwrap();
            let options = SolveOptions {
                limits: within(1_000_000),
                threads: Some(1),
                ..SolveOptions::default()
            };
            let solution = solve(&child, &options, &mut |_| {});
            assert_eq!(solution.verdict, Verdict::Win, "after {r}");
            db.add_proof(solution.proof.as_ref().unwrap()).unwrap();
        }
        let certificate = PassCertificate::Proof(Arc::new(played.written(&passed, Color::White)));
        db.add_combined(
            &b,
            Color::White,
            Combined::Replies {
                certificate: Some(certificate),
                replies: breaking,
            },
        )
        .unwrap();
        let report = crate::check::verify::check(&db.finish(), &|_| {});
        assert!(report.ok, "{:?}", report.errors);
    }

    /// A certificate proof whose pass node is a defender node certified by itself (as a
    /// damaged journal might hold) is refused, not walked round for ever.
    #[test]
    fn a_certificate_proof_that_certifies_itself_is_refused() {
        use crate::db::{Combined, PassCertificate};
        use crate::proof::{self, ProofNode};
        let mut b = Board::new(Size::STANDARD, Rules::renju());
        b.play("h8".parse().unwrap()).unwrap();
        let mut proof = Proof::header(&b, Color::Black);
        proof.nodes = vec![ProofNode::Replies {
            certificate: Some(proof::Certificate::Proof(0)),
            replies: vec![],
        }];
        let mut db = Builder::new(Rules::renju(), Size::STANDARD);
        let added = db.add_combined(
            &b,
            Color::Black,
            Combined::Replies {
                certificate: Some(PassCertificate::Proof(Arc::new(proof))),
                replies: vec![],
            },
        );
        assert!(
            matches!(added, Err(crate::db::DbError::Proof(_))),
            "{added:?}"
        );
    }

    /// `book status` figures of a root just expanded: its open moves, and its positions by ply.
    #[test]
    fn the_report_lists_the_open_moves_and_the_positions_by_ply() {
        let (mut book, mut db) = square_book();
        let (pool, options) = one_thread(20_000);
        book.round(&mut db, &options, &pool).unwrap();
        let replies = book.nodes[0].children.len();
        let report = &book.report(&db.finish())[0];
        assert_eq!(report.result, "unknown");
        assert_eq!(report.open_children.len(), replies);
        assert!(
            report
                .open_children
                .iter()
                .all(|c| c.searches == 0 && c.positions == 1)
        );
        let plies: Vec<_> = report
            .plies
            .iter()
            .map(|p| {
                (
                    p.ply,
                    p.positions,
                    p.settled,
                    p.frontier,
                    p.expanded,
                    p.vcf_certificates,
                    p.proof_certificates,
                )
            })
            .collect();
        assert_eq!(
            plies,
            [(0, 1, 0, 0, 1, 0, 1), (1, replies, 0, replies, 0, 0, 0)]
        );
        assert!(
            report
                .open_children
                .iter()
                .all(|c| c.proof_number == Some(1)
                    && c.closest.is_none()
                    && c.closest_replies == 0)
        );
    }

    /// An open move's closest move below is its unsettled child with the least proof number,
    /// with that child's replies counted.
    #[test]
    fn the_report_names_the_move_nearest_to_a_proof_below_each_open_move() {
        let (mut book, mut db) = vct_book();
        let (pool, options) = one_thread(2000);
        // The open moves' figures do not read the database.
        let empty = Builder::new(Rules::renju(), Size::STANDARD).finish();
        let mut seen = 0;
        for _ in 0..40 {
            if book.finished() {
                break;
            }
            book.round(&mut db, &options, &pool).unwrap();
            let report = &book.report(&empty)[0];
            for c in &report.open_children {
                let node = book.nodes[0]
                    .children
                    .iter()
                    .map(|&x| &book.nodes[x as usize])
                    .find(|x| x.play.map(|p| p.to_string()) == Some(c.play.clone()))
                    .unwrap();
                assert_eq!(c.proof_number, Some(node.pn));
                let open: Vec<_> = node
                    .children
                    .iter()
                    .map(|&x| &book.nodes[x as usize])
                    .filter(|x| !x.status.settled() && x.pn < INF)
                    .collect();
                let Some(m) = &c.closest else {
                    assert!(open.is_empty());
                    continue;
                };
                let closest = open
                    .iter()
                    .find(|x| x.play.map(|p| p.to_string()).as_ref() == Some(m))
                    .unwrap();
                assert!(open.iter().all(|x| x.pn >= closest.pn));
                assert_eq!(c.closest_replies, closest.children.len());
                let unsettled: Vec<(String, u32)> = closest
                    .children
                    .iter()
                    .map(|&y| &book.nodes[y as usize])
                    .filter(|y| !y.status.settled())
                    .map(|y| (y.play.unwrap().to_string(), y.attempts))
                    .collect();
                let reported: Vec<(String, u32)> = c
                    .closest_open
                    .iter()
                    .cloned()
                    .zip(c.closest_searches.iter().copied())
                    .collect();
                assert_eq!(c.closest_open.len(), c.closest_searches.len());
                assert_eq!(reported, unsettled);
                seen += usize::from(c.closest_replies > 0);
            }
        }
        assert!(seen > 0, "no open move had an expanded move below it");
    }
}
