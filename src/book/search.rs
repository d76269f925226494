//! Searching and expanding leaves: one round of `book build` searches its picked leaves with
//! `solve` at once, stores the proofs, and expands a leaf searched without a result: the
//! replies that break the other side's certificate, or the attacker's moves in order, a batch
//! at a time.

use std::collections::HashSet;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use rayon::prelude::*;

use super::{Book, BookError, Certificate, MAX_DOUBLINGS, Status};
use crate::db::Builder;
use crate::rules::{Board, Color, Point};
use crate::solve::{SolveOptions, Verdict, solve};
use crate::threat::{Limits, Outcome, VcfOptions, breaking_replies, vcf};

/// Node budget of the VCF that looks for a node's certificate.
const CERTIFICATE_NODES: u64 = 200_000;

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
}

/// What a round did.
#[derive(Clone, Debug, Default)]
pub struct Round {
    /// Leaves searched by `solve`.
    pub searched: usize,
    /// Leaves found in the database.
    pub looked_up: usize,
    /// Solver nodes.
    pub nodes: u64,
}

/// A leaf to search, and what came of it.
struct Job {
    node: u32,
    attempts: u32,
    board: Board,
    result: Option<crate::solve::Solution>,
    cut_short: bool,
    seconds: f64,
}

impl Book {
    /// One round: picks up to `options.threads` leaves, searches them at once on `pool`,
    /// and folds the results into the book and the database.
    ///
    /// # Errors
    /// A proof the database refuses (a contradiction is a bug somewhere), or a damaged
    /// journal.
    pub fn round(
        &mut self,
        db: &mut Builder,
        options: &RoundOptions,
        pool: &rayon::ThreadPool,
    ) -> Result<Round, BookError> {
        let leaves = self.pick(options.threads.max(1));
        let mut round = Round::default();
        let mut jobs = Vec::new();
        for &leaf in &leaves {
            let board = self.board(leaf)?;
            if let Some(w) = db.stored_winner(&board) {
                round.looked_up += 1;
                self.nodes[leaf as usize].status = Status::Won(w);
            } else {
                jobs.push(Job {
                    node: leaf,
                    attempts: self.nodes[leaf as usize].attempts,
                    board,
                    result: None,
                    cut_short: false,
                    seconds: 0.0,
                });
            }
        }
        pool.install(|| {
            jobs.par_iter_mut().for_each(|job| {
                let started = Instant::now();
                let (solution, cut_short) = search(&job.board, job.attempts, options);
                job.seconds = started.elapsed().as_secs_f64();
                job.result = Some(solution);
                job.cut_short = cut_short;
            });
        });
        for job in jobs {
            let solution = job.result.expect("every job ran");
            round.searched += 1;
            round.nodes += solution.nodes;
            self.totals.searches += 1;
            self.totals.nodes += solution.nodes;
            let leaf = job.node;
            let root = self.nodes[leaf as usize].root as usize;
            self.roots[root].seconds += job.seconds;
            let to_move = job.board.to_move();
            match (solution.verdict, &solution.proof) {
                (Verdict::Win | Verdict::Loss, Some(proof)) => {
                    db.add_proof(proof)?;
                    let winner = if solution.verdict == Verdict::Win {
                        to_move
                    } else {
                        to_move.opponent()
                    };
                    self.nodes[leaf as usize].status = Status::Won(winner);
                }
                _ if job.cut_short => {}
                _ => self.tried(leaf, &job.board, db)?,
            }
        }
        for &leaf in &leaves {
            self.nodes[leaf as usize].busy = false;
            self.settle_upwards(leaf, db)?;
        }
        Ok(round)
    }

    /// A leaf searched without a result: counted, and expanded below the ply limit.
    pub(super) fn tried(
        &mut self,
        leaf: u32,
        board: &Board,
        db: &mut Builder,
    ) -> Result<(), BookError> {
        let max_ply = self.settings.max_ply;
        let n = &mut self.nodes[leaf as usize];
        n.status = Status::Tried;
        n.attempts += 1;
        if max_ply.is_none_or(|m| n.ply < m) && !n.expanded {
            self.expand(leaf, board, db)?;
        }
        Ok(())
    }

    /// Opens `leaf`'s children: the replies that break the other side's certificate, or
    /// every legal move (the attacker's a batch at a time).
    fn expand(&mut self, leaf: u32, board: &Board, db: &mut Builder) -> Result<(), BookError> {
        let side = board.to_move();
        let other = side.opponent();
        let certificate = certificate(board, other);
        let mut moves = ordered_moves(board, side);
        if let Some(line) = &certificate {
            let mut scratch = board.clone();
            let breaking: HashSet<Point> = breaking_replies(&mut scratch, other, line)
                .into_iter()
                .map(|(p, _)| p)
                .collect();
            moves.retain(|p| breaking.contains(p));
        }
        let opened = if certificate.is_none() && side == self.attacker(leaf) {
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
        self.open(leaf, &moves[..opened]);
        if moves.is_empty() {
            // Nothing to reply: the certificate wins against everything, or there is no legal
            // move (a full board is a draw; Black with only forbidden points loses).
            self.settle_node(leaf, board, db)?;
        }
        Ok(())
    }
}

/// Searches a leaf within its budget (doubled for each earlier attempt); also says whether a
/// result-less search was cut short by the run's end or a stop, rather than by its budget.
pub(crate) fn search(
    board: &Board,
    attempts: u32,
    options: &RoundOptions,
) -> (crate::solve::Solution, bool) {
    let factor = 1u64 << attempts.min(MAX_DOUBLINGS);
    let started = Instant::now();
    let own = options
        .position_time
        .and_then(|t| std::time::Duration::try_from_secs_f64(t * factor as f64).ok())
        .and_then(|d| started.checked_add(d));
    let deadline = match (own, options.deadline) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    };
    let limits = Limits {
        deadline,
        nodes: options.position_nodes.map(|n| n.saturating_mul(factor)),
        stop: options.stop.clone(),
        called_off: None,
    };
    let solve_options = SolveOptions {
        limits,
        memory_mb: options.memory_mb,
        full_width: false,
        vct_nodes: None,
        threads: Some(1),
    };
    let solution = solve(board, &solve_options, &mut |_| {});
    let stopped = options
        .stop
        .as_ref()
        .is_some_and(|s| s.load(Ordering::Relaxed));
    // Cut short by the run's end: the run's deadline came before the search's own, and passed.
    let run_over = options
        .deadline
        .is_some_and(|d| own.is_none_or(|o| d < o) && Instant::now() >= d);
    (solution, stopped || run_over)
}

/// `color`'s VCF were the side to move to pass, within a fixed node budget: its moves and
/// the forced replies, ending in the five.
fn certificate(board: &Board, color: Color) -> Option<crate::threat::Line> {
    let options = VcfOptions {
        limits: Limits {
            nodes: Some(CERTIFICATE_NODES),
            ..Limits::default()
        },
        ..VcfOptions::default()
    };
    let mut passed = board.clone();
    passed.set_to_move(color);
    match vcf(&passed, color, &options).outcome {
        Outcome::Win(line) => Some(line),
        _ => None,
    }
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
    use crate::book::tests::{VCT_BLACK, board};
    use crate::db::Index;
    use crate::rules::{Rules, Size};

    /// Grows `book` on one thread with `nodes` per search until it is finished.
    fn grow(book: &mut Book, db: &mut Builder, nodes: u64) -> usize {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .unwrap();
        let options = RoundOptions {
            position_nodes: Some(nodes),
            threads: 1,
            ..RoundOptions::default()
        };
        let mut rounds = 0;
        while !book.finished() {
            let round = book.round(db, &options, &pool).unwrap();
            assert!(round.searched + round.looked_up > 0, "a round did nothing");
            rounds += 1;
        }
        rounds
    }

    #[test]
    fn a_book_proves_a_vct_position_from_the_top_and_the_database_checks() {
        let mut book = Book::new(Rules::renju(), Size::STANDARD);
        book.add_root("vct", &board(VCT_BLACK), Color::Black)
            .unwrap();
        let mut db = Builder::new(Rules::renju(), Size::STANDARD);
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
        let mut book = Book::new(Rules::renju(), Size::STANDARD);
        book.add_root("vct", &board(VCT_BLACK), Color::Black)
            .unwrap();
        book.settings.max_ply = Some(0);
        let mut db = Builder::new(Rules::renju(), Size::STANDARD);
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
}
