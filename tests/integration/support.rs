//! Helpers shared by the integration tests: moving boards between the crate's [`Board`] and
//! the plain grid of the checker's own rules (`renju::check::rules`), the reference the fast
//! rules core is tested against.

use std::process::Output;
use std::time::Duration;

use assert_cmd::Command;
use renju::rules::{Board, Color, Forbidden, Point, Rules, Size};

use renju::check::rules::{Grid, Verdict};

/// The reference implementation's view of `board`.
pub fn to_reference(board: &Board) -> Grid {
    let size = board.size();
    let (w, h) = (usize::from(size.cols()), usize::from(size.rows()));
    let mut cells = vec![0u8; w * h];
    for (p, c) in board.stones() {
        cells[usize::from(p.y()) * w + usize::from(p.x())] = match c {
            Color::Black => 1,
            Color::White => 2,
        };
    }
    Grid {
        width: w,
        height: h,
        cells,
    }
}

/// The reference forbidden set in the crate's types, file by file like the crate's own.
pub fn reference_forbidden(board: &Board) -> Vec<(Point, Forbidden)> {
    let mut all: Vec<(Point, Forbidden)> = renju::check::rules::all_forbidden(&to_reference(board))
        .into_iter()
        .map(|((x, y), v)| {
            let kind = match v {
                Verdict::Overline => Forbidden::Overline,
                Verdict::DoubleFour => Forbidden::DoubleFour,
                Verdict::DoubleThree => Forbidden::DoubleThree,
                Verdict::Five | Verdict::Legal => {
                    unreachable!("all_forbidden lists forbidden points")
                }
            };
            (Point::new(x as u8, y as u8), kind)
        })
        .collect();
    all.sort();
    all
}

/// A renju board of `size` with the given stones; Black to move.
pub fn board_with(size: Size, stones: &[(Point, Color)]) -> Board {
    let mut b = Board::new(size, Rules::renju());
    for &(p, c) in stones {
        b.put(p, c).unwrap();
    }
    b
}

/// The `renju` binary built for the tests.
pub fn renju() -> Command {
    Command::cargo_bin("renju").unwrap()
}

/// `renju ARGS` run to completion (at most five minutes: a guard against a hang, not a speed
/// test; beside a 2-thread book build, the resumed build of
/// `a_killed_build_resumes_without_losing_proved_work_or_leaving_temporaries` took more than
/// a minute, against 6.5 s alone).
pub fn run<S: AsRef<std::ffi::OsStr>>(args: &[S]) -> Output {
    renju()
        .args(args)
        .timeout(Duration::from_secs(300))
        .output()
        .unwrap()
}

/// `renju ARGS` started in the background, its standard output and error piped.
pub fn spawn(args: &[&str]) -> std::process::Child {
    std::process::Command::new(env!("CARGO_BIN_EXE_renju"))
        .args(args)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap()
}

/// Waits `wait`, then sends `signal` (`-INT`, `-TERM`) to `child`.
pub fn signal_after(child: &std::process::Child, wait: Duration, signal: &str) {
    std::thread::sleep(wait);
    let sent = std::process::Command::new("kill")
        .args([signal, &child.id().to_string()])
        .status()
        .unwrap();
    assert!(sent.success(), "kill {signal} failed");
}

/// A command's standard error as text.
pub fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// The arguments of `renju solve` on the empty `size` board, freestyle with k = 3 (more
/// arguments, like `--full-width`, may follow).
pub fn solve_empty_k3_args(size: &str) -> [&str; 8] {
    [
        "--size",
        size,
        "--rule",
        "freestyle",
        "--k",
        "3",
        "solve",
        "",
    ]
}
