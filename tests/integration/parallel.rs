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

/// `vct` on 1, 2 and 4 threads (the narrower searches run beside the asked one) gives the
/// same result on every quick quintet VCT case, within and below its expected length, and
/// every win's line is a legal game that ends as it says.
#[test]
fn vct_results_do_not_depend_on_the_thread_count() {
    use crate::threats::{QUICK_VCT, cases, position};
    use renju::threat::{Outcome, VctOptions, vct};
    let quick: Vec<&str> = QUICK_VCT.into_iter().chain(["bench_vct_white"]).collect();
    let mut checked = 0;
    for case in cases()
        .iter()
        .filter(|c| quick.iter().any(|q| c.id.ends_with(q)))
    {
        let (board, attacker) = position(case);
        let depths = [case.expect_win_within, case.expect_no_win_within];
        for (depth, want) in depths.into_iter().zip(["win", "no-win"]) {
            let Some(depth) = depth else { continue };
            for threads in [1, 2, 4] {
                let options = VctOptions {
                    max_depth: Some(depth),
                    threat_fours: case.threat_limit.or(Some(3)),
                    threads: Some(threads),
                    ..VctOptions::default()
                };
                let id = format!("{} within {depth} on {threads} threads", case.id);
                let outcome = vct(&board, attacker, &options).outcome;
                assert_eq!(outcome.name(), want, "{id}");
                if let Outcome::Win(line) = outcome {
                    check_vct_line(&board, attacker, &line, depth)
                        .unwrap_or_else(|e| panic!("{id}: {e}"));
                }
                checked += 1;
            }
        }
    }
    assert_eq!(
        checked,
        3 * 13,
        "every case and length on every thread count"
    );
}

/// A small VCT 20 times on 4 threads: a race shows as a wrong result, a bad line or a hang.
#[test]
fn a_small_vct_on_four_threads_twenty_times() {
    use crate::threats::{case, position};
    use renju::threat::{Outcome, VctOptions, vct};
    let case = case("test_vct_fukumi_move");
    let (board, attacker) = position(&case);
    let options = VctOptions {
        max_depth: case.expect_win_within,
        threat_fours: Some(3),
        threads: Some(4),
        ..VctOptions::default()
    };
    for i in 0..20 {
        match vct(&board, attacker, &options).outcome {
            Outcome::Win(line) => check_vct_line(&board, attacker, &line, 7)
                .unwrap_or_else(|e| panic!("run {i}: {e}")),
            other => panic!("run {i}: {other:?}"),
        }
    }
}

/// A VCT principal line is a legal game from `board`, attacker first, with at most `depth`
/// attacker moves before the five, ending as its `ending` says.
fn check_vct_line(
    board: &Board,
    attacker: Color,
    line: &renju::threat::Line,
    depth: u32,
) -> Result<(), String> {
    use renju::threat::Ending;
    let mut board = board.clone();
    board.set_to_move(attacker);
    for &p in &line.moves {
        board
            .play(p)
            .map_err(|e| format!("{p} is not legal: {e}"))?;
    }
    if line.fours() > depth as usize {
        return Err(format!("{} fours, more than {depth}", line.fours()));
    }
    let won = match line.ending {
        Ending::Five => board.fives().iter().any(|f| f.color == attacker),
        Ending::ForbiddenBlock => {
            let blocks = board.five_points(attacker);
            attacker == Color::White
                && !blocks.is_empty()
                && blocks.iter().all(|&b| !board.is_legal_for(b, Color::Black))
        }
        Ending::AlreadyWon => false,
    };
    if won {
        Ok(())
    } else {
        Err(format!("the line does not end in a win: {:?}", line.ending))
    }
}

/// A time limit stops every thread of a `vct` race: the answer is `unknown`, and it comes soon.
#[test]
fn a_vct_race_stops_at_its_time_limit() {
    use crate::threats::{case, position};
    use renju::threat::{Limits, Outcome, VctOptions, vct};
    let case = case("bench_vct_unstable");
    let (board, attacker) = position(&case);
    let started = std::time::Instant::now();
    let options = VctOptions {
        max_depth: case.expect_win_within,
        threat_fours: Some(3),
        threads: Some(3),
        limits: Limits::with_time(Some(0.3)),
        ..VctOptions::default()
    };
    assert_eq!(vct(&board, attacker, &options).outcome, Outcome::Unknown);
    let spent = started.elapsed().as_secs_f64();
    assert!(spent < 10.0, "stopped after {spent} s");
}
