//! One leaf's search: its budget (the round's, doubled for each earlier attempt), its limits,
//! and, with `book work --states DIR` or `book build --states DIR`, its state kept between
//! attempts, and which of a book's leaves keep one.
//!
//! A kept state: the search of a leaf for the attacker's win alone writes its state
//! ([`crate::solve::SearchState`]) to a file of its own in DIR when its budget runs out or a
//! stop cuts it short, and the leaf's next search goes on from it. The budgets double with each
//! attempt as ever, but a budget counts the nodes of every run of the search: a search that goes
//! on from a state of `n` nodes has its budget less `n` to spend, so each doubling pays only for
//! its new half.
//!
//! A state only steers the search; the proof is read out by the rules, as with the guide
//! (`docs/search-state.md`). A file that cannot be read, does not fit the leaf's table (a
//! search kept at a larger `--memory`), or is held by another process is left as it is, and
//! the leaf is searched without a state.
//!
//! In a book only a leaf at the ply limit is searched again (below it, a leaf left unproved is
//! expanded), so only such a leaf keeps a state; a leaf that stops being one (settled,
//! expanded, exhausted, or under a settled or disproved position) has its file removed when
//! its search is folded in, and `book build` sweeps the files of the rest at the start and end
//! of a run.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use super::search::RoundOptions;
use super::{Book, BookError, MAX_DOUBLINGS, Status};
use crate::atomic::UpdateLock;
use crate::rules::{Board, Color};
use crate::solve::{SearchState, Solution, SolveOptions, solve};
use crate::threat::Limits;

/// The node budget of a leaf searched `attempts` times before: the round's, doubled for each
/// attempt; `None` if the round bounds its searches by time alone.
pub(super) fn node_budget(attempts: u32, options: &RoundOptions) -> Option<u64> {
    options
        .position_nodes
        .map(|n| n.saturating_mul(1u64 << attempts.min(MAX_DOUBLINGS)))
}

/// A leaf's search: its solution, whether a result-less search was cut short by the run's
/// end or a stop rather than by its budget, and, with [`RoundOptions::states`], what became
/// of its state file.
pub(super) struct LeafSearch {
    pub(super) solution: crate::solve::Solution,
    pub(super) cut_short: bool,
    pub(super) state: Option<String>,
    /// The state file written for the leaf's next search, if one was.
    pub(super) kept: Option<PathBuf>,
}

/// Searches a leaf within its budget (doubled for each earlier attempt; with a kept state,
/// the nodes of its earlier runs count against it). `progress` is called now and then while
/// the search runs (after each of its rounds), with this run's progress and the nodes of the
/// earlier runs.
pub(super) fn search(
    board: &Board,
    attempts: u32,
    attacker: Option<Color>,
    options: &RoundOptions,
    progress: &mut dyn FnMut(&crate::solve::Progress, u64),
) -> LeafSearch {
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
        nodes: node_budget(attempts, options),
        stop: options.stop.clone(),
        called_off: options.called_off.clone(),
    };
    let mut solve_options = SolveOptions {
        limits,
        memory_mb: options.memory_mb,
        full_width: false,
        vct_nodes: None,
        threads: Some(1),
        known: options.known.clone(),
        attacker,
        ..SolveOptions::default()
    };
    let mut leaf_state = None;
    let mut state = None;
    let mut kept = None;
    let mut before = 0;
    if let (Some(dir), Some(attacker)) = (&options.states, attacker) {
        match LeafState::open(dir, board, attacker, &solve_options) {
            Ok(leaf) => {
                before = leaf.nodes_before();
                solve_options.limits.nodes = solve_options
                    .limits
                    .nodes
                    .map(|n| n.saturating_sub(before).max(1));
                solve_options.resume = leaf.resumed.clone();
                solve_options.keep_state = true;
                leaf_state = Some(leaf);
            }
            Err(note) => state = Some(note),
        }
    }
    // Progress comes with the nodes of the earlier runs, which the budget counts too.
    let mut counted = |p: &crate::solve::Progress| progress(p, before);
    let solution = solve(board, &solve_options, &mut counted);
    if let Some(leaf) = leaf_state {
        let said;
        (said, kept) = leaf.close(&solution);
        state = Some(said).filter(|said| !said.is_empty());
    }
    let stopped = options.interrupted_or_called_off();
    // Cut short by the run's end: the run's deadline came before the search's own, and passed.
    let run_over = options
        .deadline
        .is_some_and(|d| own.is_none_or(|o| d < o) && Instant::now() >= d);
    LeafSearch {
        solution,
        cut_short: stopped || run_over,
        state,
        kept,
    }
}

/// The state file of a leaf's search, locked while the search runs.
pub(super) struct LeafState {
    path: PathBuf,
    lock: UpdateLock,
    /// The state the search goes on from, if there is one.
    pub(super) resumed: Option<Arc<SearchState>>,
}

/// The file in `dir` of the search of `board` for `attacker`'s win: the position's Zobrist key
/// (side to move included) and the attacker.
#[must_use]
pub fn state_path(dir: &Path, board: &Board, attacker: Color) -> PathBuf {
    dir.join(format!("{:016x}-{attacker}.state", board.hash()))
}

/// What removing a state file under its lock gave: `None` if there was none, else whether it
/// went. The lock file goes with it ([`UpdateLock::remove_locked`]).
fn remove_locked(lock: UpdateLock, path: &Path) -> Option<Result<(), String>> {
    match lock.remove_locked(path) {
        Ok(true) => Some(Ok(())),
        Ok(false) => None,
        Err(e) => Some(Err(format!("cannot remove `{}`: {e}", path.display()))),
    }
}

/// Removes the state file at `path` under its lock, as [`remove_locked`]; a file another
/// process holds is in use, and left as it is. A lock file left without its state (by a
/// version that kept them) goes too, uncounted.
pub(super) fn remove_state(path: &Path) -> Option<Result<(), String>> {
    if !path.exists() && !crate::atomic::lock_path(path).exists() {
        return None;
    }
    match crate::atomic::try_lock_for_update(path) {
        Ok(Some(lock)) => remove_locked(lock, path),
        Ok(None) if path.exists() => Some(Err(format!(
            "`{}` is in use: left as it is",
            path.display()
        ))),
        Ok(None) => None,
        Err(e) => Some(Err(format!("cannot lock `{}`: {e}", path.display()))),
    }
}

impl LeafState {
    /// Opens the state in `dir` of the search of `board` for `attacker`'s win with `options`,
    /// locked, with the state kept there if there is one. `Err` with a note when the
    /// file cannot be used (another process holds it, it cannot be locked or read, or it does
    /// not fit the search): the search runs without a state, and the file is left as it is.
    pub(super) fn open(
        dir: &Path,
        board: &Board,
        attacker: Color,
        options: &SolveOptions,
    ) -> Result<Self, String> {
        let path = state_path(dir, board, attacker);
        let lock = match crate::atomic::try_lock_for_update(&path) {
            Ok(Some(lock)) => lock,
            Ok(None) => return Err(format!("no state: `{}` is in use", path.display())),
            Err(e) => return Err(format!("no state: cannot lock `{}`: {e}", path.display())),
        };
        let resumed = if path.exists() {
            let state = SearchState::read(&path)
                .and_then(|s| s.fits(board, options).map(|()| s))
                .map_err(|e| {
                    format!(
                        "no state: `{}` left as it is, not gone on from: {e}",
                        path.display()
                    )
                })?;
            Some(Arc::new(state))
        } else {
            None
        };
        Ok(LeafState {
            path,
            lock,
            resumed,
        })
    }

    /// Nodes of the runs before this one.
    pub(super) fn nodes_before(&self) -> u64 {
        self.resumed.as_ref().map_or(0, |s| s.header().nodes)
    }

    /// Settles the file after the search: the new state written if a limit or a stop ended
    /// the search, the file removed if the search proved its result or found no win among its
    /// narrowed moves (it is not searched again), left as it was otherwise. Says what it did,
    /// and gives the file's path if the state was written.
    pub(super) fn close(self, solution: &Solution) -> (String, Option<PathBuf>) {
        let mut kept = None;
        let mut said = Vec::new();
        if let Some(state) = &self.resumed {
            let h = state.header();
            let runs = if h.runs == 1 { "run" } else { "runs" };
            said.push(format!(
                "went on from {} nodes in {} {runs}",
                h.nodes, h.runs
            ));
        }
        if let Some(state) = &solution.state {
            match state.write(&self.path) {
                Ok(()) => {
                    let h = state.header();
                    said.push(format!("kept {} nodes, {} entries", h.nodes, h.entries));
                    kept = Some(self.path.clone());
                }
                Err(e) => said.push(format!("cannot write `{}`: {e}", self.path.display())),
            }
        } else if solution.proof.is_some() || solution.narrowed_out() {
            // Proved, or its narrowed moves hold no win: it is not searched again.
            let why = if solution.proof.is_some() {
                "proved"
            } else {
                "no win among the narrowed moves"
            };
            // The file's lock is held: this search's own.
            match remove_locked(self.lock, &self.path) {
                Some(Ok(())) => said.push(format!("removed: {why}")),
                Some(Err(e)) => said.push(e),
                None => {}
            }
        }
        (said.join("; "), kept)
    }
}

/// Which leaves keep their states in a book (`book build --states`).
impl Book {
    /// Whether `leaf` is at the ply limit: left unproved, it is searched again with a doubled
    /// budget rather than expanded.
    pub(super) fn at_ply_limit(&self, leaf: u32) -> bool {
        let n = &self.nodes[leaf as usize];
        self.settings.max_ply.is_some_and(|m| n.ply >= m)
    }

    /// Whether `leaf` is to be searched again: at the ply limit, unsettled, not exhausted,
    /// without children, and under no settled or disproved position.
    pub(super) fn searched_again(&self, leaf: u32) -> bool {
        let n = &self.nodes[leaf as usize];
        self.at_ply_limit(leaf)
            && !n.status.settled()
            && n.status != Status::Exhausted
            && n.children.is_empty()
            && !self.under_settled(leaf)
            && !self.under_disproved(leaf)
    }

    /// Removes the state files in `dir` (`RoundOptions::states`) of the book's positions that
    /// are not searched again ([`Book::searched_again`]): leaves proved without a search of
    /// their own, expanded, exhausted, or under a settled or disproved position, and positions
    /// below the ply limit. Files of positions the book does not hold, and files another
    /// process holds, are left as they are. Returns how many went.
    ///
    /// # Errors
    /// A damaged journal (a node's moves cannot be played).
    pub fn sweep_states(&self, dir: &Path, options: &RoundOptions) -> Result<usize, BookError> {
        let mut kept: HashMap<PathBuf, bool> = HashMap::new();
        for node in 0..self.nodes.len() as u32 {
            let Some(attacker) = self.searched_attacker(node, options) else {
                continue;
            };
            let path = state_path(dir, &self.board(node)?, attacker);
            *kept.entry(path).or_default() |= self.searched_again(node);
        }
        Ok(kept
            .iter()
            .filter(|&(path, &again)| !again && matches!(remove_state(path), Some(Ok(()))))
            .count())
    }
}
