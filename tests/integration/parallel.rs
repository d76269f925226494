//! `solve` on several threads: the verdict does not depend on the thread count, and every
//! proof found with more threads passes the replay check and the independent database checker.
//! A small proof is solved 20 times on 4 threads, so that a race shows as a wrong verdict, a
//! proof that fails its check, or a hang.

use renju::check::verify::check;
use renju::db::Builder;
use renju::rules::{Board, Color, Rule, Rules, Size};
use renju::solve::{SolveOptions, Verdict, solve};

use crate::ladder::rungs;
use crate::proof_replay::check_proof;
use crate::solve::{board_of, quick_vct_cases};

/// A position, its verdict, and whether it is solved in full width.
struct Case {
    id: String,
    board: Board,
    want: Verdict,
    full_width: bool,
}

fn cases() -> Vec<Case> {
    let mut cases = Vec::new();
    for case in quick_vct_cases() {
        let attacker: Color = case.attacker.parse().unwrap();
        let board = board_of(&case, attacker);
        let mut after = board.clone();
        after
            .play(case.expect_solution[0].to_lowercase().parse().unwrap())
            .unwrap();
        for (board, want) in [(board, Verdict::Win), (after, Verdict::Loss)] {
            cases.push(Case {
                id: format!("{} {want:?}", case.id),
                board,
                want,
                full_width: false,
            });
        }
    }
    for rung in rungs().iter().filter(|r| !r.heavy) {
        cases.push(Case {
            id: rung.id.clone(),
            board: rung.board(),
            want: rung.verdict(),
            full_width: false,
        });
    }
    // 4x4 k=4 is a draw whose two disproofs differ in size: on more threads, the threads of the
    // search done first join the other.
    for (cols, rows, k, want) in [
        (3, 3, 3, Verdict::Draw),
        (4, 3, 3, Verdict::Win),
        (4, 4, 3, Verdict::Win),
        (4, 4, 4, Verdict::Draw),
    ] {
        cases.push(Case {
            id: format!("{cols}x{rows} k={k}"),
            board: Board::new(
                Size::new(cols, rows).unwrap(),
                Rules::new(Rule::Freestyle, Some(k)).unwrap(),
            ),
            want,
            full_width: true,
        });
    }
    cases
}

/// Solves `case` on `threads` threads and checks the answer: the verdict, and for a win or a
/// loss the proof, by the replay check and by `renju check` on a database holding it.
fn solve_and_check(case: &Case, threads: usize) {
    let options = SolveOptions {
        full_width: case.full_width,
        threads: Some(threads),
        ..SolveOptions::default()
    };
    let solution = solve(&case.board, &options, &mut |_| {});
    let id = format!("{} on {threads} threads", case.id);
    assert_eq!(solution.verdict, case.want, "{id}: {:?}", solution.note);
    let Some(proof) = solution.proof else {
        assert_eq!(case.want, Verdict::Draw, "{id}: no proof");
        return;
    };
    check_proof(&proof).unwrap_or_else(|e| panic!("{id}: {e}"));
    let (rules, size) = renju::db::proof_rules(&proof).unwrap();
    let mut builder = Builder::new(rules, size);
    builder.add_proof(&proof).unwrap();
    let report = check(&builder.finish(), &|_| {});
    assert!(report.ok, "{id}: {:?}", report.errors);
}

#[test]
fn the_verdict_does_not_depend_on_the_thread_count() {
    let cases = cases();
    assert_eq!(cases.len(), 22);
    for case in &cases {
        for threads in [1, 2, 4] {
            solve_and_check(case, threads);
        }
    }
}

/// The same small proofs, 20 times each on 4 threads: a renju loss proved through a few
/// thousand nodes, and a full-width win.
#[test]
fn small_proofs_on_four_threads_twenty_times() {
    let rung = rungs()
        .into_iter()
        .find(|r| r.id == "ladder/test_vct_counter-h9-i9")
        .unwrap();
    let renju = Case {
        id: rung.id.clone(),
        board: rung.board(),
        want: rung.verdict(),
        full_width: false,
    };
    let freestyle = Case {
        id: "4x4 k=3".into(),
        board: Board::new(
            Size::new(4, 4).unwrap(),
            Rules::new(Rule::Freestyle, Some(3)).unwrap(),
        ),
        want: Verdict::Win,
        full_width: true,
    };
    for _ in 0..20 {
        solve_and_check(&renju, 4);
        solve_and_check(&freestyle, 4);
    }
}
