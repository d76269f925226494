//! The searches under way: `book build` keeps one leaf search running on each thread of its
//! pool. When one ends, its result is folded into the book and the database and the thread
//! takes the next most-proving leaf at once, without waiting for the others (a round that
//! waited for all of its searches left a thread idle for as long as the longest one ran).
//! A search whose leaf is settled meanwhile, by a sibling's proof or above, is called off.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::sync::mpsc::{Receiver, Sender, channel};
use std::time::{Duration, Instant};

use super::leaf_search::{LeafSearch, node_budget, remove_state, search};
use super::search::RoundOptions;
use super::unit::Running;
use super::{Book, BookError, Status};
use crate::db::Builder;
use crate::rules::{Board, Color, Point};
use crate::solve::{Solution, Verdict};

/// What a round (or a step of a run) did.
#[derive(Clone, Debug, Default)]
pub struct Round {
    /// Leaves searched by `solve`.
    pub searched: usize,
    /// Leaves found in the database.
    pub looked_up: usize,
    /// Solver nodes.
    pub nodes: u64,
    /// Leaves proved by a sibling's proof, without a search ([`Book::lend`]).
    pub lent: usize,
    /// Leaves settled by the search of a twin (the same position reached another way), or
    /// counted as searched as often as a twin, without a search of their own.
    pub twins: usize,
    /// Every search folded in, in the order they were folded (`book build --log`).
    pub log: Vec<Searched>,
}

impl Round {
    /// Whether the round did nothing: no search folded in, nothing settled.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.searched == 0 && self.looked_up == 0 && self.lent == 0 && self.twins == 0
    }
}

/// One leaf search folded into the book: where it was, what it cost and what came of it.
#[derive(Clone, Debug, PartialEq)]
pub struct Searched {
    /// The leaf's root (its index in [`Book::roots`]).
    pub root: u32,
    /// The moves from the root to the leaf.
    pub line: Vec<Point>,
    /// Which search of the leaf this was (1 for the first).
    pub search: u32,
    /// Solver nodes.
    pub nodes: u64,
    /// Seconds it ran.
    pub seconds: f64,
    /// What came of it.
    pub outcome: Outcome,
    /// For an unknown outcome, the search's most-proving line when its budget ran out, from
    /// the leaf ([`crate::solve::Solution::most_proving`]).
    pub most_proving: Vec<Point>,
    /// For an unknown outcome, why the search ended without a result
    /// ([`crate::solve::Solution::note`]).
    pub why: Option<&'static str>,
    /// Leaves proved by its proof without a search of their own (siblings and cousins).
    pub lent: usize,
    /// The moves from the root to the highest position settled once it was folded in (the
    /// leaf or one above it), if the leaf is settled: the root itself when the line is empty.
    pub settled_to: Option<Vec<Point>>,
    /// With [`RoundOptions::states`](super::RoundOptions::states), what became of the leaf's
    /// state file: gone on from, kept, removed, or why there was none.
    pub state: Option<String>,
}

/// What came of a leaf search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// A proof: the position is won for this side.
    Proved(Color),
    /// The budget ran out without a result.
    Unknown,
    /// Cut short by the run's end, a stop, or called off: counts for nothing.
    CutShort,
    /// Its leaf was settled while it ran (by a sibling's proof, a twin, or a position above).
    SettledMeanwhile,
}

impl Round {
    /// Adds `other`'s figures to these.
    pub fn add(&mut self, other: &Round) {
        self.searched += other.searched;
        self.looked_up += other.looked_up;
        self.nodes += other.nodes;
        self.lent += other.lent;
        self.twins += other.twins;
        self.log.extend(other.log.iter().cloned());
    }
}

/// A leaf searched, and what came of it.
struct Job {
    node: u32,
    /// Its position's key (see [`Book::position_key`]).
    key: u64,
    board: Board,
    solution: Solution,
    cut_short: bool,
    seconds: f64,
    /// What became of its state file, with `RoundOptions::states`.
    state: Option<String>,
    /// The state file written for the leaf's next search, if one was.
    kept: Option<std::path::PathBuf>,
}

/// A leaf being searched: its position's key, the flag that calls its search off, and how
/// the search is going.
struct Underway {
    leaf: u32,
    key: u64,
    flag: Arc<AtomicBool>,
    live: Arc<Live>,
}

/// How a search under way is going, as it reports between its rounds.
#[derive(Debug)]
struct Live {
    started: Instant,
    budget: Option<u64>,
    /// Nodes so far, those of the earlier runs of a kept state included.
    nodes: AtomicU64,
    /// Of them, the earlier runs'.
    before: AtomicU64,
    proof_number: AtomicU32,
}

/// The leaf searches under way, from one [`Book::start`] to the next.
pub struct Searches {
    sender: Sender<Job>,
    receiver: Receiver<Job>,
    /// The leaves being searched.
    running: Vec<Underway>,
    /// Leaves picked while a twin (the same position) was being searched, with the key: they
    /// wait for that search.
    waiting: Vec<(u32, u64)>,
    /// The root the next pick starts from, so that the unsettled roots take turns.
    turn: usize,
    /// The positions the picks are kept below (`book build --under`), taken in turn as the
    /// roots are; every unsettled root when `None`.
    starts: Option<Vec<u32>>,
}

impl Default for Searches {
    fn default() -> Searches {
        let (sender, receiver) = channel();
        Searches {
            sender,
            receiver,
            running: Vec::new(),
            waiting: Vec::new(),
            turn: 0,
            starts: None,
        }
    }
}

impl Searches {
    /// Searches whose leaves are picked below `starts` alone (book positions, such as those
    /// a line reaches, [`Book::reached_by`]): the run's work spent where it is wanted.
    #[must_use]
    pub fn under(starts: Vec<u32>) -> Searches {
        Searches {
            starts: Some(starts),
            ..Searches::default()
        }
    }

    /// The positions the picks are kept below, if they are.
    #[must_use]
    pub fn starts(&self) -> Option<&[u32]> {
        self.starts.as_deref()
    }

    /// How many searches are under way.
    #[must_use]
    pub fn running(&self) -> usize {
        self.running.len()
    }

    /// Calls off every search under way; [`Book::fold`] still has to take them in.
    pub fn call_off(&self) {
        for r in &self.running {
            r.flag.store(true, Ordering::Relaxed);
        }
    }
}

impl Book {
    /// One round: starts searches on up to `options.threads` leaves on `pool`, and folds
    /// each result into the book and the database as it comes.
    ///
    /// # Errors
    /// As [`Book::fold`].
    pub fn round(
        &mut self,
        db: &mut Builder,
        options: &RoundOptions,
        pool: &rayon::ThreadPool,
    ) -> Result<Round, BookError> {
        let mut searches = Searches::default();
        let mut round = self.start(db, options, pool, &mut searches)?;
        while searches.running() > 0 {
            round.add(&self.fold(db, &mut searches)?);
        }
        Ok(round)
    }

    /// Starts searches on `pool` until `options.threads` run, on the most-proving leaves
    /// (the unsettled roots in turn). A leaf the database already holds is settled at once;
    /// one whose position is being searched already waits for that search.
    ///
    /// # Errors
    /// A proof the database refuses while settling, or a damaged journal.
    pub fn start(
        &mut self,
        db: &mut Builder,
        options: &RoundOptions,
        pool: &rayon::ThreadPool,
        searches: &mut Searches,
    ) -> Result<Round, BookError> {
        let mut round = Round::default();
        while searches.running.len() < options.threads.max(1) {
            let picked = match &searches.starts {
                Some(starts) => self.pick_under(starts, &mut searches.turn),
                None => self.pick_next(&mut searches.turn),
            };
            let Some(leaf) = picked else {
                break;
            };
            let board = self.board(leaf)?;
            if let Some(w) = db.stored_winner(&board) {
                round.looked_up += 1;
                let n = &mut self.nodes[leaf as usize];
                n.busy = false;
                n.status = Status::Won(w);
                self.settle_upwards(leaf, db)?;
                continue;
            }
            let key = board.canonical().key;
            if searches.running.iter().any(|r| r.key == key) {
                searches.waiting.push((leaf, key));
                continue;
            }
            let searched = self.twin_attempts(leaf, key)?;
            if searched > self.nodes[leaf as usize].attempts {
                // Its twin's searches count as its own: no search of the same again.
                round.twins += 1;
                self.nodes[leaf as usize].busy = false;
                let spent = self.average_search();
                while self.nodes[leaf as usize].attempts < searched
                    && self.nodes[leaf as usize].children.is_empty()
                    && !self.nodes[leaf as usize].status.settled()
                {
                    self.tried(leaf, &board, db, spent)?;
                }
                self.settle_upwards(leaf, db)?;
                continue;
            }
            let flag = Arc::new(AtomicBool::new(false));
            let attempts = self.nodes[leaf as usize].attempts;
            let live = Arc::new(Live {
                started: Instant::now(),
                budget: node_budget(attempts, options),
                nodes: AtomicU64::new(0),
                before: AtomicU64::new(0),
                proof_number: AtomicU32::new(1),
            });
            searches.running.push(Underway {
                leaf,
                key,
                flag: flag.clone(),
                live: live.clone(),
            });
            let mut options = RoundOptions {
                called_off: Some(flag),
                ..options.clone()
            };
            // A state is kept only for a leaf searched again: one at the ply limit (below it,
            // a leaf left unproved is expanded instead).
            if !self.at_ply_limit(leaf) {
                options.states = None;
            }
            let attacker = self.searched_attacker(leaf, &options);
            let sender = searches.sender.clone();
            pool.spawn(move || {
                let started = Instant::now();
                let LeafSearch {
                    solution,
                    cut_short,
                    state,
                    kept,
                } = search(&board, attempts, attacker, &options, &mut |p, before| {
                    live.nodes.store(p.nodes + before, Ordering::Relaxed);
                    live.before.store(before, Ordering::Relaxed);
                    live.proof_number.store(p.pn, Ordering::Relaxed);
                });
                // The receiver lives as long as the searches it waits for.
                let _ = sender.send(Job {
                    node: leaf,
                    key,
                    board,
                    solution,
                    cut_short,
                    seconds: started.elapsed().as_secs_f64(),
                    state,
                    kept,
                });
            });
        }
        // Look-ups and catch-ups above may have settled positions over searches under way.
        self.call_off_settled(db, searches)?;
        Ok(round)
    }

    /// Waits for a search under way to end, if one is, and folds in every search that has
    /// ended: a proof is stored and tried on the leaf's siblings, a search without a result
    /// is counted (and its leaf expanded below the ply limit), one cut short counts for
    /// nothing. Then calls off the searches whose leaves are settled now.
    ///
    /// # Errors
    /// A proof the database refuses (a contradiction is a bug somewhere), or a damaged
    /// journal.
    pub fn fold(&mut self, db: &mut Builder, searches: &mut Searches) -> Result<Round, BookError> {
        self.fold_within(db, searches, None)
    }

    /// [`Book::fold`], waiting at most `wait` for a search to end: an empty round if none
    /// did (the caller can say how the searches under way are going, [`Book::underway`]).
    ///
    /// # Errors
    /// As [`Book::fold`].
    pub fn fold_within(
        &mut self,
        db: &mut Builder,
        searches: &mut Searches,
        wait: Option<Duration>,
    ) -> Result<Round, BookError> {
        let mut round = Round::default();
        if searches.running.is_empty() {
            return Ok(round);
        }
        // Searches holds a sender, so this waits until a search reports (or the time is up).
        let first = match wait {
            None => searches.receiver.recv().ok(),
            Some(wait) => searches.receiver.recv_timeout(wait).ok(),
        };
        let Some(first) = first else {
            return Ok(round);
        };
        let ended: Vec<Job> = std::iter::once(first)
            .chain(searches.receiver.try_iter())
            .collect();
        for job in ended {
            searches.running.retain(|r| r.leaf != job.node);
            // Its twins that waited are free again; the search's result reaches them below.
            for &(t, _) in searches.waiting.iter().filter(|w| w.1 == job.key) {
                self.nodes[t as usize].busy = false;
                self.refresh_path(t);
            }
            searches.waiting.retain(|w| w.1 != job.key);
            self.fold_job(job, db, &mut round)?;
        }
        self.call_off_settled(db, searches)?;
        Ok(round)
    }

    /// Calls off the searches whose leaves need them no more: settled, under a settled or
    /// disproved position, or whose position the database holds by now.
    fn call_off_settled(&self, db: &Builder, searches: &Searches) -> Result<(), BookError> {
        for r in &searches.running {
            if self.nodes[r.leaf as usize].status.settled()
                || self.under_settled(r.leaf)
                || self.under_disproved(r.leaf)
                || db.stored_winner(&self.board(r.leaf)?).is_some()
            {
                r.flag.store(true, Ordering::Relaxed);
            }
        }
        Ok(())
    }

    /// The searches under way, in the order they started: each leaf's root (its index in
    /// [`Book::roots`]), its line from the root, and how its search is going (as of the end
    /// of its last round).
    #[must_use]
    pub fn underway(&self, searches: &Searches) -> Vec<(u32, Vec<Point>, Running)> {
        searches
            .running
            .iter()
            .map(|r| {
                let running = Running {
                    nodes: r.live.nodes.load(Ordering::Relaxed),
                    before: r.live.before.load(Ordering::Relaxed),
                    budget: r.live.budget,
                    elapsed: r.live.started.elapsed(),
                    proof_number: r.live.proof_number.load(Ordering::Relaxed),
                };
                (self.nodes[r.leaf as usize].root, self.path(r.leaf), running)
            })
            .collect()
    }

    fn fold_job(&mut self, job: Job, db: &mut Builder, round: &mut Round) -> Result<(), BookError> {
        let leaf = job.node;
        round.searched += 1;
        round.nodes += job.solution.nodes;
        self.totals.searches += 1;
        self.totals.nodes += job.solution.nodes;
        let root = self.nodes[leaf as usize].root as usize;
        self.roots[root].seconds += job.seconds;
        self.nodes[leaf as usize].busy = false;
        // Settled while it ran: by a sibling's proof, or a position above it.
        let settled = self.nodes[leaf as usize].status.settled() || self.under_settled(leaf);
        let to_move = job.board.to_move();
        let search = self.nodes[leaf as usize].attempts + 1;
        let mut proved = vec![leaf];
        let mut lent_by_it = 0;
        let narrowed_out = job.solution.narrowed_out();
        let outcome = match (job.solution.verdict, job.solution.proof) {
            (Verdict::Win | Verdict::Loss, Some(proof)) => {
                db.add_proof(&proof)?;
                let winner = if job.solution.verdict == Verdict::Win {
                    to_move
                } else {
                    to_move.opponent()
                };
                self.nodes[leaf as usize].status = Status::Won(winner);
                if winner == to_move && !settled {
                    let lent = self.lend(leaf, &proof, db)?;
                    lent_by_it = lent.len();
                    proved.extend(lent);
                }
                Outcome::Proved(winner)
            }
            _ if job.cut_short => Outcome::CutShort,
            _ if settled => Outcome::SettledMeanwhile,
            // Proved meanwhile elsewhere (a twin, by a sibling's proof or inside another
            // proof): settled from the database, not expanded.
            _ if let Some(w) = db.stored_winner(&job.board) => {
                self.nodes[leaf as usize].status = Status::Won(w);
                Outcome::SettledMeanwhile
            }
            // Its narrowed moves hold no win: a larger budget would end the same way.
            _ if narrowed_out => {
                self.exhaust(leaf, false);
                Outcome::Unknown
            }
            _ => {
                self.tried(leaf, &job.board, db, job.solution.nodes)?;
                Outcome::Unknown
            }
        };
        round.lent += lent_by_it;
        let twins = self.settle_twins(leaf, job.key, db)?;
        round.twins += twins.len();
        proved.extend(twins);
        for node in proved {
            self.settle_upwards(node, db)?;
        }
        let mut state = job.state;
        // A kept state is for the leaf's next search: a leaf settled, expanded, exhausted or
        // under a settled position has none.
        if let Some(path) = &job.kept
            && !self.searched_again(leaf)
            && let Some(removed) = remove_state(path)
        {
            let said = removed.map_or_else(|e| e, |()| "removed: not searched again".into());
            state = Some(match state {
                Some(s) => format!("{s}; {said}"),
                None => said,
            });
        }
        round.log.push(Searched {
            root: self.nodes[leaf as usize].root,
            line: self.path(leaf),
            search,
            nodes: job.solution.nodes,
            seconds: job.seconds,
            most_proving: if outcome == Outcome::Unknown {
                job.solution.most_proving.clone()
            } else {
                Vec::new()
            },
            why: if outcome == Outcome::Unknown {
                job.solution.note
            } else {
                None
            },
            outcome,
            lent: lent_by_it,
            settled_to: self.highest_settled(leaf).map(|n| self.path(n)),
            state,
        });
        Ok(())
    }

    /// The highest settled position on the way from `node` up to its root, if `node` is
    /// settled.
    fn highest_settled(&self, mut node: u32) -> Option<u32> {
        if !self.nodes[node as usize].status.settled() {
            return None;
        }
        while self.nodes[node as usize].play.is_some() {
            let parent = self.nodes[node as usize].parent;
            if !self.nodes[parent as usize].status.settled() {
                break;
            }
            node = parent;
        }
        Some(node)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::book::tests::{VCT_BLACK, board, on_threads};
    use crate::rules::{Color, Rules, Size};

    /// Kagetsu with White to move: no search here ends on its own.
    const KAGETSU: &str = "h8 h9 i9";
    /// Black to move makes an open four.
    const OPEN_THREE: &str = "h8 a1 i8 a2 j8 a3";

    fn book_of(roots: &[&str]) -> (Book, Builder) {
        let mut book = Book::new(Rules::renju(), Size::STANDARD);
        for (i, r) in roots.iter().enumerate() {
            book.add_root(&format!("r{i}"), &board(r), Color::Black)
                .unwrap();
        }
        (book, Builder::new(Rules::renju(), Size::STANDARD))
    }

    /// Regression: a build kept below a position under a disproved one (`book build
    /// --under`) picked its leaf, had the search called off at once, and picked it again,
    /// without end. Such a start is done with: nothing is picked below it, and the build
    /// ends. Kagetsu's root, then a1 o15 with one reply a15 a draw: o15 is disproved, b15
    /// below it still open.
    #[test]
    fn a_start_under_a_disproved_position_is_done_with_and_picks_nothing() {
        let pt = |s: &str| s.parse::<crate::rules::Point>().unwrap();
        let (mut book, mut db) = book_of(&[KAGETSU]);
        let (pool, options) = on_threads(1, 1 << 40);
        let root = book.roots[0].node;
        book.nodes[root as usize].expanded = true;
        book.open(root, &[pt("a1"), pt("a2")]);
        let a1 = book.nodes[root as usize].children[0];
        book.nodes[a1 as usize].expanded = true;
        book.open(a1, &[pt("o15"), pt("o14")]);
        let o15 = book.nodes[a1 as usize].children[0];
        book.nodes[o15 as usize].expanded = true;
        book.open(o15, &[pt("a15"), pt("b15")]);
        let (a15, b15) = (
            book.nodes[o15 as usize].children[0],
            book.nodes[o15 as usize].children[1],
        );
        book.nodes[a15 as usize].status = Status::Draw;
        book.recompute();
        assert!(book.disproved(o15) && !book.disproved(b15) && !book.finished());
        assert!(book.done_with(b15) && !book.done_with(a1));
        let mut searches = Searches::under(vec![b15]);
        assert!(book.all_done_with(searches.starts().unwrap()));
        book.start(&mut db, &options, &pool, &mut searches).unwrap();
        assert_eq!(searches.running(), 0, "nothing below it is searched");
        assert_eq!(book.totals.searches, 0);
        // Beside a start still wanted, only that one's leaves are picked.
        let mut searches = Searches::under(vec![b15, a1]);
        assert!(!book.all_done_with(searches.starts().unwrap()));
        book.start(&mut db, &options, &pool, &mut searches).unwrap();
        assert_eq!(searches.running(), 1);
        searches.call_off();
        let round = book.fold(&mut db, &mut searches).unwrap();
        assert_eq!(round.log[0].line[0], pt("a1"));
    }

    /// A thread whose search ends takes the next leaf while the other's search goes on; a
    /// search called off leaves its leaf as it was.
    #[test]
    fn a_thread_takes_the_next_leaf_without_waiting_for_the_other() {
        let (mut book, mut db) = book_of(&[VCT_BLACK, KAGETSU, OPEN_THREE]);
        let (pool, options) = on_threads(2, 1 << 40);
        let mut searches = Searches::default();
        let (vct, kagetsu, three) = (book.roots[0].node, book.roots[1].node, book.roots[2].node);
        book.start(&mut db, &options, &pool, &mut searches).unwrap();
        assert_eq!(searches.running(), 2);
        let round = book.fold(&mut db, &mut searches).unwrap();
        assert_eq!(round.searched, 1, "only the VCT's search has ended");
        assert_eq!(book.nodes[vct as usize].status, Status::Won(Color::Black));
        assert_eq!(round.log.len(), 1);
        let proved = &round.log[0];
        assert_eq!(
            (proved.root, proved.search, proved.outcome, proved.lent),
            (0, 1, Outcome::Proved(Color::Black), 0)
        );
        assert_eq!(proved.nodes, round.nodes);
        assert_eq!(
            (proved.line.as_slice(), proved.settled_to.as_deref()),
            (&[][..], Some(&[][..])),
            "the root's own search proved the root"
        );
        assert_eq!(searches.running(), 1);
        // The free thread takes the third root while Kagetsu's search still runs.
        book.start(&mut db, &options, &pool, &mut searches).unwrap();
        assert_eq!(searches.running(), 2);
        book.fold(&mut db, &mut searches).unwrap();
        assert_eq!(book.nodes[three as usize].status, Status::Won(Color::Black));
        assert_eq!(searches.running(), 1);
        searches.call_off();
        let round = book.fold(&mut db, &mut searches).unwrap();
        assert_eq!((round.searched, searches.running()), (1, 0));
        assert_eq!(round.log.len(), 1);
        assert_eq!(
            (
                round.log[0].root,
                round.log[0].outcome,
                &round.log[0].settled_to
            ),
            (1, Outcome::CutShort, &None)
        );
        let k = &book.nodes[kagetsu as usize];
        assert_eq!((k.status, k.attempts, k.expanded), (Status::Open, 0, false));
        assert_eq!(book.totals.searches, 3);
        let report = crate::check::verify::check(&db.finish(), &|_| {});
        assert!(report.ok, "{:?}", report.errors);
    }

    /// A leaf whose search fails after the database came to hold its position (here its twin
    /// was proved by a sibling's proof while it ran) is settled from the database, not
    /// expanded.
    #[test]
    fn a_failed_search_of_a_position_the_database_holds_by_now_settles_it() {
        let (mut book, mut db, l1, l2) = crate::book::twins::tests::transposed(None);
        // l1 is picked and its search starts.
        let mut turn = 0;
        assert_eq!(book.pick_next(&mut turn), Some(l1));
        let board = book.board(l1).unwrap();
        let key = board.canonical().key;
        // Meanwhile l2, the same position, is proved (as `lend` does: a proof in the database,
        // the leaf won).
        let solution = crate::solve::solve(
            &book.board(l2).unwrap(),
            &crate::solve::SolveOptions::default(),
            &mut |_| {},
        );
        db.add_proof(&solution.proof.expect("Black wins")).unwrap();
        book.nodes[l2 as usize].status = Status::Won(Color::Black);
        book.settle_upwards(l2, &mut db).unwrap();
        assert_eq!(db.stored_winner(&board), Some(Color::Black));
        // l1's search ends without a result.
        let (pool, options) = on_threads(1, 10);
        let _ = pool;
        let LeafSearch {
            solution: failed,
            cut_short,
            ..
        } = search(&board, 0, None, &options, &mut |_, _| {});
        assert!(failed.proof.is_none() && !cut_short);
        let mut round = Round::default();
        book.fold_job(
            Job {
                node: l1,
                key,
                board,
                solution: failed,
                cut_short,
                seconds: 0.0,
                state: None,
                kept: None,
            },
            &mut db,
            &mut round,
        )
        .unwrap();
        let n = &book.nodes[l1 as usize];
        assert_eq!(
            n.status,
            Status::Won(Color::Black),
            "the database holds l1's position, yet l1 is {:?} with {} children",
            n.status,
            n.children.len()
        );
    }

    /// While a search runs, `fold_within` comes back empty once its wait is up, and
    /// `underway` says how the search is going: its leaf's line, its budget, and its nodes as
    /// its rounds report them.
    #[test]
    fn a_search_under_way_says_how_it_is_going() {
        let (mut book, mut db) = book_of(&["h8 h9 i9 i8 g9 f10"]);
        let (pool, options) = on_threads(1, 1 << 40);
        let mut searches = Searches::default();
        book.start(&mut db, &options, &pool, &mut searches).unwrap();
        assert_eq!(searches.running(), 1);
        let started = Instant::now();
        let mut nodes = 0;
        while nodes == 0 && started.elapsed() < Duration::from_secs(60) {
            let wait = Some(Duration::from_millis(200));
            let round = book.fold_within(&mut db, &mut searches, wait).unwrap();
            assert!(round.is_empty(), "the search ended: {round:?}");
            let underway = book.underway(&searches);
            assert_eq!(underway.len(), 1);
            let (root, line, running) = &underway[0];
            assert_eq!(*root, 0);
            assert!(line.is_empty(), "the leaf is the root: {line:?}");
            assert_eq!(running.budget, Some(1 << 40));
            assert_eq!(running.before, 0);
            nodes = running.nodes;
        }
        assert!(nodes > 0, "no progress reported within a minute");
        searches.call_off();
        let round = book.fold(&mut db, &mut searches).unwrap();
        assert_eq!((round.searched, searches.running()), (1, 0));
        assert!(round.nodes >= nodes);
        assert!(book.underway(&searches).is_empty());
    }

    /// A search whose leaf `start` itself puts under a settled position (here a sibling found
    /// in the database settles the root) is called off at once, not left to run out its
    /// budget.
    #[test]
    fn a_search_under_a_position_start_settles_is_called_off() {
        let p = |s: &str| s.parse::<crate::rules::Point>().unwrap();
        let (mut book, mut db) = book_of(&[OPEN_THREE]);
        book.nodes[0].expanded = true;
        book.open(0, &[p("a15"), p("k8")]);
        book.recompute();
        let (m1, m2) = (book.nodes[0].children[0], book.nodes[0].children[1]);
        // The open four's position is in the database already.
        let four = book.board(m2).unwrap();
        let solution =
            crate::solve::solve(&four, &crate::solve::SolveOptions::default(), &mut |_| {});
        db.add_proof(&solution.proof.unwrap()).unwrap();
        let (pool, options) = on_threads(2, 1 << 40);
        let mut searches = Searches::default();
        let round = book.start(&mut db, &options, &pool, &mut searches).unwrap();
        assert_eq!(round.looked_up, 1);
        assert_eq!(book.nodes[0].status, Status::Won(Color::Black));
        assert_eq!(searches.running.len(), 1);
        assert_eq!(searches.running[0].leaf, m1);
        let called_off = searches.running[0].flag.load(Ordering::Relaxed);
        searches.call_off();
        book.fold(&mut db, &mut searches).unwrap();
        assert!(
            called_off,
            "the search of a15, under the settled root, runs on after start"
        );
    }
}
