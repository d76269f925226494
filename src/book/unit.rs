//! Work units: a share of a book's frontier written by `book plan`, proved on another machine
//! (a Slurm array task) by `book work`, whose partial database is merged back with `db merge`.
//!
//! A unit is one JSON object (format `renju-book-unit`, version 1): the rules, the per-position
//! budget, and the positions, each as its stones and side to move, with the book position it
//! stands for and how often it was searched before (its budget doubles with each attempt).

use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use super::RoundOptions;
use super::leaf_search::{LeafSearch, node_budget, search};
use crate::db::Builder;
use crate::rules::{Board, Color, Point, Rules, Size};
use crate::solve::{Progress, Verdict};

/// The format name in every unit file.
pub const FORMAT: &str = "renju-book-unit";
/// The unit format version.
pub const VERSION: u32 = 1;

/// A work unit.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Unit {
    /// Always [`FORMAT`].
    pub format: String,
    /// Always [`VERSION`].
    pub version: u32,
    /// The rule set.
    pub rule: String,
    /// The win length.
    pub k: u32,
    /// The board size.
    pub size: String,
    /// Seconds per position (doubled for each earlier attempt).
    pub position_time: Option<f64>,
    /// Nodes per position (doubled likewise).
    pub position_nodes: Option<u64>,
    /// Memory for the searches `book work` runs at once, in MiB, shared among them.
    pub memory_mb: Option<u64>,
    /// The positions.
    pub positions: Vec<UnitPosition>,
}

/// One position of a unit.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct UnitPosition {
    /// The book position it stands for.
    pub book_node: u32,
    /// The moves from the book's root, for people reading the unit (the position is the
    /// stones).
    pub line: Vec<String>,
    /// Black's stones.
    pub black: Vec<String>,
    /// White's stones.
    pub white: Vec<String>,
    /// The side to move.
    pub to_move: Color,
    /// Searches without a result before.
    pub attempts: u32,
    /// With `book plan --attacker-wins-only`, the side whose win alone is searched for
    /// ([`crate::solve::SolveOptions::attacker`]); absent, both sides' wins are.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub attacker: Option<Color>,
}

/// What `book work` found for one position.
#[derive(Clone, Debug, Serialize)]
pub struct WorkResult {
    /// The book position.
    pub book_node: u32,
    /// The moves from the book's root to it, as in the unit.
    pub line: Vec<String>,
    /// `win` or `loss` for the side to move; `unknown` when its budget ran out; `stopped`
    /// when a stop (Ctrl-C, SIGTERM) cut the search short.
    pub result: &'static str,
    /// Solver nodes.
    pub nodes: u64,
    /// Seconds.
    pub seconds: f64,
    /// For an unknown result, the search's most-proving line when its budget ran out, from
    /// the position ([`crate::solve::Solution::most_proving`]); empty otherwise.
    pub most_proving: Vec<String>,
    /// For an unknown result, why the search ended without one
    /// ([`crate::solve::Solution::note`]): its node or time budget ran out, its table bound
    /// (`memory_mb`) was reached, so that a larger budget alone would stop at the same place, or
    /// the attacker's narrowed search ended without a win (under `attacker`), so that a larger
    /// budget would end the same way.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub why: Option<&'static str>,
    /// Whether an unknown result came before the budget ran out, the search's narrowed moves
    /// holding no win ([`crate::solve::Solution::narrowed_out`]): `book release --results`
    /// marks such a position exhausted, so that it is not searched again. Absent when false.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub narrowed_out: bool,
    /// With `book work --states`, what became of the position's state file: gone on from,
    /// kept, removed, or not used (`no state: …`). Absent when there is nothing to say
    /// (always without `--states`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub state: Option<String>,
}

/// How one position's search is going while it runs, for the progress lines of `book work`
/// and `book build` ([`Book::underway`](crate::book::Book::underway)).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Running {
    /// Solver nodes so far, those of the earlier runs of a kept state included.
    pub nodes: u64,
    /// Of them, the earlier runs' (`book work --states`); 0 for a fresh search.
    pub before: u64,
    /// The search's node budget (`position_nodes`, doubled for each earlier attempt), if
    /// the searches are bounded by nodes.
    pub budget: Option<u64>,
    /// Time since the search began.
    pub elapsed: Duration,
    /// The position's proof number in the search running (the attacker's, under
    /// `attacker`).
    pub proof_number: u32,
}

/// Reports on the searches under way: `report` is called for a position at most once per
/// `every`, between two rounds of its search.
pub struct Heartbeat<'a> {
    /// The least time between two reports on one position.
    pub every: Duration,
    /// Called with the position and how its search is going.
    pub report: &'a (dyn Fn(&UnitPosition, &Running) + Sync),
}

/// A unit position's line as people read it: its moves from the book's root, or `the root`.
#[must_use]
pub fn line_name(line: &[String]) -> String {
    if line.is_empty() {
        "the root".to_string()
    } else {
        line.join(" ")
    }
}

impl Unit {
    /// A unit for positions of a book with `rules` on `size`.
    #[must_use]
    pub fn new(rules: Rules, size: Size, options: &RoundOptions) -> Unit {
        Unit {
            format: FORMAT.to_string(),
            version: VERSION,
            rule: rules.rule().to_string(),
            k: u32::from(rules.k()),
            size: size.to_string(),
            position_time: options.position_time,
            position_nodes: options.position_nodes,
            memory_mb: options.memory_mb,
            positions: Vec::new(),
        }
    }

    /// Adds the position on `board`, book position `book_node`, reached by `line` from its
    /// root, its search looking for `attacker`'s win alone if given.
    pub fn push(
        &mut self,
        book_node: u32,
        board: &Board,
        line: &[Point],
        attempts: u32,
        attacker: Option<Color>,
    ) {
        let names = |ps: Vec<Point>| ps.iter().map(ToString::to_string).collect();
        self.positions.push(UnitPosition {
            book_node,
            line: names(line.to_vec()),
            black: names(super::points_of(board, Color::Black)),
            white: names(super::points_of(board, Color::White)),
            to_move: board.to_move(),
            attempts,
            attacker,
        });
    }

    /// The rule set and board size, once the unit's header is checked.
    ///
    /// # Errors
    /// A message naming the field that does not parse, or a budget that does not bound the
    /// searches (no time and no nodes, a time that is not a positive number, zero nodes).
    pub fn rules(&self) -> Result<(Rules, Size), String> {
        if self.format != FORMAT {
            return Err(format!("not a work unit (format `{}`)", self.format));
        }
        if self.version != VERSION {
            return Err(format!(
                "work unit version {}; this build reads version {VERSION}",
                self.version
            ));
        }
        match (self.position_time, self.position_nodes) {
            (None, None) => {
                return Err("the unit gives neither `position_time` nor `position_nodes`".into());
            }
            (Some(t), _) if !(t.is_finite() && t > 0.0 && t <= 1e9) => {
                return Err(format!(
                    "`position_time` must be a positive number of seconds, not {t}"
                ));
            }
            (_, Some(0)) => return Err("`position_nodes` must be at least 1".into()),
            _ => {}
        }
        crate::db::rules_named(&self.rule, self.k, &self.size)
    }

    /// Every position as a board.
    ///
    /// # Errors
    /// A message naming the position and its problem.
    pub fn boards(&self) -> Result<Vec<Board>, String> {
        let (rules, size) = self.rules()?;
        self.positions
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let bad = |e: String| format!("position {}: {e}", i + 1);
                let point = |s: &String| {
                    crate::notation::parse_point(s, size).map_err(|e| bad(e.to_string()))
                };
                let mut board = Board::new(size, rules);
                for (stones, color) in [(&p.black, Color::Black), (&p.white, Color::White)] {
                    for s in stones {
                        board
                            .put(point(s)?, color)
                            .map_err(|e| bad(e.to_string()))?;
                    }
                }
                if let Some(five) = board.fives().first() {
                    // A book settles such positions itself: it never plans one.
                    return Err(bad(format!(
                        "{} already has a five on the board: not a position to search",
                        five.color
                    )));
                }
                board.set_to_move(p.to_move);
                Ok(board)
            })
            .collect()
    }

    /// Searches every position on `pool` (the unit's memory shared among its threads) and
    /// adds each proof to `db`; the results come back in the unit's order. `done` is called
    /// with each position and its result as its search ends, in the order they end (for
    /// progress on a long unit), and `heartbeat`, if given, while each search runs.
    ///
    /// # Errors
    /// A position that does not set up, or a proof the database refuses.
    pub fn work(
        &self,
        db: &mut Builder,
        options: &RoundOptions,
        pool: &rayon::ThreadPool,
        done: &(dyn Fn(&UnitPosition, &WorkResult) + Sync),
        heartbeat: Option<&Heartbeat>,
    ) -> Result<Vec<WorkResult>, String> {
        use rayon::prelude::*;
        let boards = self.boards()?;
        let options = RoundOptions {
            position_time: self.position_time,
            position_nodes: self.position_nodes,
            memory_mb: self
                .memory_mb
                .or(options.memory_mb)
                .map(|m| crate::threat::memory_share(m, pool.current_num_threads())),
            ..options.clone()
        };
        let solutions: Vec<_> = pool.install(|| {
            boards
                .par_iter()
                .zip(&self.positions)
                .map(|(board, p)| {
                    let started = Instant::now();
                    let budget = node_budget(p.attempts, &options);
                    let mut last = started;
                    let mut beat = |progress: &Progress, before: u64| {
                        let Some(heartbeat) = heartbeat else { return };
                        if last.elapsed() < heartbeat.every {
                            return;
                        }
                        last = Instant::now();
                        let running = Running {
                            nodes: progress.nodes + before,
                            before,
                            budget,
                            elapsed: started.elapsed(),
                            proof_number: progress.pn,
                        };
                        (heartbeat.report)(p, &running);
                    };
                    let LeafSearch {
                        solution,
                        cut_short: stopped,
                        state,
                        ..
                    } = search(board, p.attempts, p.attacker, &options, &mut beat);
                    let result = match (solution.verdict, &solution.proof) {
                        (Verdict::Win, Some(_)) => "win",
                        (Verdict::Loss, Some(_)) => "loss",
                        _ if stopped => "stopped",
                        _ => "unknown",
                    };
                    let result = WorkResult {
                        book_node: p.book_node,
                        line: p.line.clone(),
                        result,
                        why: (result == "unknown").then_some(solution.note).flatten(),
                        narrowed_out: result == "unknown" && solution.narrowed_out(),
                        nodes: solution.nodes,
                        seconds: started.elapsed().as_secs_f64(),
                        most_proving: crate::proof::names(&solution.most_proving),
                        state,
                    };
                    done(p, &result);
                    (solution.proof, result)
                })
                .collect()
        });
        let mut results = Vec::with_capacity(solutions.len());
        for ((proof, result), p) in solutions.into_iter().zip(&self.positions) {
            if let Some(proof) = &proof {
                db.add_proof(proof)
                    .map_err(|e| format!("position {}: {e}", p.book_node))?;
            }
            results.push(result);
        }
        Ok(results)
    }
}
