//! The answer: the two searches (a win for the side to move, and for the other side) taking
//! turns on one thread or running side by side, and their results turned into a [`Solution`]
//! with its proof read out.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::mpsc::RecvTimeoutError;
use std::time::Instant;

use crate::proof::Proof;
use crate::rules::Board;
use crate::threat::{Limits, Stopped};

/// On one thread, the search further from its proof (the larger root proof number) gets this
/// fraction of a round. Chosen by measurement (`BENCHMARKS.md`): 1 (equal turns), 4, 8, 16
/// and 64 were tried.
const LAGGING_SHARE: u64 = 16;

use super::table::Table;
use super::{
    MAX_SLICE, PROGRESS_EVERY, Progress, Prover, SearchState, Solution, SolveOptions, Verdict,
    extract, settled,
};

/// How the search over `tables` is going: `nodes` in all, the root's numbers.
fn progress_of(tables: &[&Table], nodes: u64, (pn, dn): (u32, u32)) -> Progress {
    Progress {
        nodes,
        pn,
        dn,
        tt_entries: tables.iter().map(|t| t.len()).sum(),
        tt_bytes: tables.iter().map(|t| t.total_bytes()).sum(),
        tt_bound: tables.iter().map(|t| t.bound()).sum(),
    }
}

/// Proves the position won, lost (or, with `full_width`, drawn) for the side to move.
/// `progress` is called now and then while the search runs.
#[must_use]
pub fn solve(
    board: &Board,
    options: &SolveOptions,
    progress: &mut dyn FnMut(&Progress),
) -> Solution {
    let to_move = board.to_move();
    if let Some(solution) = decided(board) {
        return solution;
    }
    let threads = options.threads.unwrap_or(1).max(1);
    let searched = Arc::new(AtomicU64::new(0));
    // A proof found within the limits is read out within a quarter more (see `proved`).
    let read_out = options.limits.with_read_out_grace(Instant::now());
    if let Some(attacker) = options.attacker.filter(|_| !options.full_width) {
        // One search, on every thread, with the memory it has beside the other search (half
        // of the bound): with all of it, the replies measured took no fewer nodes, and one of
        // them was lost (`BENCHMARKS.md`).
        let mut prover = Prover::new(board, attacker, options, 2, (threads, threads), &searched);
        let resumed = options
            .resume
            .as_deref()
            .filter(|state| state.fits(board, options).is_ok());
        if let Some(state) = resumed {
            state.load_into(&mut prover);
        }
        let verdict = if attacker == to_move {
            Verdict::Win
        } else {
            Verdict::Loss
        };
        let result = prover.settle(&mut |p, numbers| {
            progress(&progress_of(&[&p.table], p.searched(), numbers));
        });
        return match result {
            None => Solution {
                state: options
                    .keep_state
                    .then(|| SearchState::of(&prover, resumed.map(SearchState::header))),
                ..unknown(&prover, None, "stopped by a limit before a proof")
            },
            Some(true) => proved(prover, verdict, None, board, &read_out),
            Some(false) => unknown(&prover, None, NARROWED_OUT),
        };
    }
    let mut win = Prover::new(
        board,
        to_move,
        options,
        2,
        (threads.div_ceil(2), threads),
        &searched,
    );
    let loss_threads = ((threads / 2).max(1), threads);
    let mut loss = Prover::new(
        board,
        to_move.opponent(),
        options,
        2,
        loss_threads,
        &searched,
    );
    let outcome = if threads == 1 {
        take_turns(&mut win, &mut loss, progress)
    } else {
        side_by_side(&mut win, &mut loss, progress)
    };
    match outcome {
        Err(Stopped) => unknown(&win, Some(&loss), "stopped by a limit before a proof"),
        Ok(Some(true)) => proved(win, Verdict::Win, Some(&loss), board, &read_out),
        Ok(Some(false)) => proved(loss, Verdict::Loss, Some(&win), board, &read_out),
        Ok(None) if options.full_width => without_proof(Verdict::Draw, &win, Some(&loss), None),
        Ok(None) => unknown(&win, Some(&loss), NEITHER_FOUND),
    }
}

/// Why an attacker-only search ended without a result before its limits: it searched every
/// attacker move it allows (those within two points of a stone, the forced blocks) to the end.
/// The other side's win was not looked for, so this proves nothing; but a larger budget alone
/// would end the same way.
pub(crate) const NARROWED_OUT: &str = "the attacker's narrowed search ended without a win (its moves within two points of a stone hold none, so a larger budget alone would not find one), and the other side's win was not looked for (--attacker)";

/// Why a search for both sides' wins ended without a result before its limits: each side's
/// narrowed search ended without a win. That proves nothing (the narrowing is not exact), but
/// a larger budget alone would end the same way.
pub(crate) const NEITHER_FOUND: &str = "neither side's win was found; without --full-width the attacker's moves are narrowed, so that proves nothing (and a larger budget alone would not find one)";

/// What the two searches settled: `Some(true)` the side to move wins, `Some(false)` it loses,
/// `None` both wins are disproved.
type Outcome = Result<Option<bool>, Stopped>;

/// What the two searches' results mean. `None` for a search not settled (yet).
fn outcome(win: Option<bool>, loss: Option<bool>) -> Option<Option<bool>> {
    match (win, loss) {
        (Some(true), _) => Some(Some(true)),
        (_, Some(true)) => Some(Some(false)),
        (Some(false), Some(false)) => Some(None),
        // Full width: a disproved win for the side to move is exact, so the other search
        // decides between a loss and a draw; keep going.
        _ => None,
    }
}

/// One thread: the two searches take turns, each round twice as long as the last, so the
/// node counts are deterministic. The search whose root proof number was the larger after
/// the last round gets [`LAGGING_SHARE`]th of the round: on an opening that the side to move
/// wins, the other side's win looks far off from the first rounds, and an equal share would
/// cost as many nodes again. A proof ends the round at once.
fn take_turns<'a>(
    win: &mut Prover<'a>,
    loss: &mut Prover<'a>,
    progress: &mut dyn FnMut(&Progress),
) -> Outcome {
    let mut results = [None, None];
    let mut slice = 4096u64;
    let mut pns = [1u32, 1];
    loop {
        let lagging = match pns[0].cmp(&pns[1]) {
            std::cmp::Ordering::Less => Some(1),
            std::cmp::Ordering::Greater => Some(0),
            std::cmp::Ordering::Equal => None,
        };
        let provers = [&mut *win, &mut *loss];
        for (i, (prover, done)) in provers.into_iter().zip(&mut results).enumerate() {
            if done.is_some() {
                continue;
            }
            let share = if lagging == Some(i) {
                slice / LAGGING_SHARE
            } else {
                slice
            };
            let (pn, dn) = prover.round(share);
            pns[i] = pn;
            progress(&progress_of(&[&prover.table], prover.searched(), (pn, dn)));
            *done = settled(pn, dn);
            if *done == Some(true) {
                break;
            }
        }
        if let Some(decided) = outcome(results[0], results[1]) {
            return Ok(decided);
        }
        if win.exhausted() || loss.exhausted() {
            return Err(Stopped);
        }
        slice = slice.saturating_mul(2).min(MAX_SLICE);
    }
}

/// More threads: the two searches run at once, each on its share of the threads; the first
/// proof calls the other off. This thread reports progress meanwhile.
fn side_by_side<'a>(
    win: &mut Prover<'a>,
    loss: &mut Prover<'a>,
    progress: &mut dyn FnMut(&Progress),
) -> Outcome {
    let tables = [win.table.clone(), loss.table.clone()];
    let key = win.board.canonical().key;
    let searched = win.searched.clone();
    let (tx, rx) = std::sync::mpsc::channel();
    let mut results = [None, None];
    let spare = Arc::new(AtomicUsize::new(0));
    win.spare = Some(spare.clone());
    loss.spare = Some(spare.clone());
    std::thread::scope(|scope| {
        for (i, prover) in [&mut *win, &mut *loss].into_iter().enumerate() {
            let (tx, other, spare) = (tx.clone(), tables[1 - i].clone(), spare.clone());
            scope.spawn(move || {
                let result = prover.settle(&mut |_, _| {});
                if result == Some(true) {
                    other.cancel();
                } else {
                    // Disproved (or stopped): the other search may take these threads.
                    spare.fetch_add(1 + prover.helpers.len(), Ordering::Relaxed);
                }
                // The receiver outlives the scope's threads.
                let _ = tx.send((i, result));
            });
        }
        drop(tx);
        loop {
            match rx.recv_timeout(PROGRESS_EVERY) {
                Ok((i, result)) => results[i] = result,
                Err(RecvTimeoutError::Timeout) => {
                    let root = tables[0].numbers(key).unwrap_or((1, 1));
                    let nodes = searched.load(Ordering::Relaxed);
                    progress(&progress_of(&[&tables[0], &tables[1]], nodes, root));
                }
                Err(RecvTimeoutError::Disconnected) => break,
            }
        }
    });
    outcome(results[0], results[1]).ok_or(Stopped)
}

fn decided(board: &Board) -> Option<Solution> {
    let fives = board.fives();
    let five = fives.first()?;
    let verdict = if five.color == board.to_move() {
        Verdict::Win
    } else {
        Verdict::Loss
    };
    Some(Solution {
        verdict,
        best_move: None,
        pv: Vec::new(),
        most_proving: Vec::new(),
        nodes: 0,
        tt_entries: 0,
        proof: Some(Proof::decided(board, five.color)),
        note: None,
        state: None,
    })
}

/// An unknown answer, with the statistics of the search `win` and of `loss`, the other one
/// where it ran, and the most-proving line of the one whose root is nearer its proof.
fn unknown(win: &Prover<'_>, loss: Option<&Prover<'_>>, why: &'static str) -> Solution {
    let note = if win.table.is_full() || loss.is_some_and(|l| l.table.is_full()) {
        "the table bound (--memory) was reached"
    } else {
        why
    };
    let root_pn = |p: &Prover<'_>| {
        p.table
            .numbers(p.board.canonical().key)
            .map_or(1, |(pn, _)| pn)
    };
    let nearer = match loss {
        Some(l) if root_pn(l) < root_pn(win) => l,
        _ => win,
    };
    Solution {
        most_proving: nearer.most_proving_line(),
        ..without_proof(Verdict::Unknown, win, loss, Some(note))
    }
}

/// An answer with no proof tree (a draw, or unknown), with the searches' statistics.
fn without_proof(
    verdict: Verdict,
    win: &Prover<'_>,
    loss: Option<&Prover<'_>>,
    note: Option<&'static str>,
) -> Solution {
    Solution {
        verdict,
        best_move: None,
        pv: Vec::new(),
        most_proving: Vec::new(),
        nodes: win.searched(),
        tt_entries: win.table.len() + loss.map_or(0, |l| l.table.len()),
        proof: None,
        note,
        state: None,
    }
}

/// The solution for a root `prover` proved. Reading its proof out of the table may search
/// again what the table lost; it runs within `read_out` (the solve's limits with a grace), so
/// that a proof found just before the limit is not lost to its read-out.
pub(super) fn proved<'a>(
    mut prover: Prover<'a>,
    verdict: Verdict,
    other: Option<&Prover<'_>>,
    root: &Board,
    read_out: &'a Limits,
) -> Solution {
    // Every search step takes back what it plays, so the prover is at the root again; a proof
    // read out of any other position (another side to move) would answer another question.
    let back = prover.board.hash() == root.hash() && prover.board.moves() == root.moves();
    debug_assert!(back, "the search left the root");
    if !back {
        return unknown(
            &prover,
            other,
            "internal error: the search did not come back to the position asked (please report)",
        );
    }
    prover.limits = read_out;
    prover.stopped = false;
    if prover.table.is_full() {
        // Proved as the table filled up: the read-out would stop at its first new entry.
        prover.table.keep_only_proved();
    }
    // The proof stands on its own: where the guide stood in for a search, the read-out takes
    // the guide's proof once the rules replay it on the board, or searches (or finds a VCT)
    // without the guide.
    let guide = prover.known.take();
    let proof = match extract::extract(&mut prover, guide) {
        Ok(proof) => proof,
        Err(Stopped) => {
            let why = if prover.table.is_full() {
                "the proof was found, but the table bound (--memory) was reached while it was read out"
            } else if prover.limit_reached() {
                "the proof was found but could not be rebuilt within the limits"
            } else {
                // Not stopped: a position searched again (where the guide stood in, without
                // it) was not proved.
                "the proof was found, but a position in it could not be proved again as it was read out (where the guide stood in and its own proof did not hold, a search without it)"
            };
            return without_proof(Verdict::Unknown, &prover, other, Some(why));
        }
    };
    let pv = proof.principal_line();
    let best_move = proof.root_move();
    Solution {
        verdict,
        best_move,
        pv,
        most_proving: Vec::new(),
        nodes: prover.searched(),
        tt_entries: prover.table.len() + other.map_or(0, |o| o.table.len()),
        proof: Some(proof),
        note: None,
        state: None,
    }
}
