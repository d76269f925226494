//! The progress lines of long book work: `book build`'s line on the whole run, and the line on
//! each search under way that `book build` and `book work` print now and then when their
//! stderr is not a terminal (a log file, or Slurm's).

use renju::book::unit::{Running, line_name};
use renju::book::{Book, Round};

/// The progress line of `book build`, after `seconds` of this run and what it did so far.
pub(super) fn progress(book: &Book, seconds: f64, run: &Round, threads: usize) -> String {
    let s = book.sample();
    let per_search = seconds / run.searched.max(1) as f64 * threads as f64;
    let left = book.work_left();
    format!(
        "roots proved {}/{} (disproved {}), frontier {}, {} proved by a sibling's proof, {} by a twin's search, {:.0} nodes/s, work left ≥ {left} leaf proofs (~{:.0} s at this rate)",
        s.proved,
        s.roots,
        s.disproved,
        s.frontier,
        run.lent,
        run.twins,
        run.nodes as f64 / seconds,
        left as f64 * per_search / threads as f64,
    )
}

/// The line `book work` and `book build` print now and then while the search of the position
/// at `line` runs:
/// its nodes so far (of its budget), its time, at its rate so far the time left to its budget,
/// and its proof number.
pub(super) fn running_line(line: &[String], r: &Running) -> String {
    let seconds = r.elapsed.as_secs_f64();
    let nodes = match r.budget {
        Some(budget) => {
            // The rate of this run: the earlier runs' nodes took their own time.
            let now = r.nodes.saturating_sub(r.before);
            let left = if now > 0 && seconds > 0.0 {
                let rate = now as f64 / seconds;
                format!(
                    ", about {:.0} s left",
                    budget.saturating_sub(r.nodes) as f64 / rate
                )
            } else {
                String::new()
            };
            format!("{} of {budget} nodes, {seconds:.0} s{left}", r.nodes)
        }
        None => format!("{} nodes, {seconds:.0} s", r.nodes),
    };
    format!(
        "{}: searching, {nodes}, proof number {}",
        line_name(line),
        r.proof_number
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn the_running_line_gives_nodes_of_the_budget_and_the_time_left() {
        let line: Vec<String> = ["k10", "k11", "j10"].map(String::from).to_vec();
        let r = Running {
            nodes: 500_000_000,
            before: 0,
            budget: Some(2_560_000_000),
            elapsed: Duration::from_secs(1000),
            proof_number: 34,
        };
        // 500,000 nodes a second: 2,060M nodes left take 4,120 s.
        assert_eq!(
            running_line(&line, &r),
            "k10 k11 j10: searching, 500000000 of 2560000000 nodes, 1000 s, about 4120 s left, proof number 34"
        );
        let by_time = Running { budget: None, ..r };
        assert_eq!(
            running_line(&line, &by_time),
            "k10 k11 j10: searching, 500000000 nodes, 1000 s, proof number 34"
        );
        let at_start = Running {
            nodes: 0,
            elapsed: Duration::ZERO,
            ..r
        };
        assert_eq!(
            running_line(&line, &at_start),
            "k10 k11 j10: searching, 0 of 2560000000 nodes, 0 s, proof number 34"
        );
        // Going on from a state of 1,280M nodes: 500M more in 1000 s, 780M left take 1,560 s.
        let went_on = Running {
            nodes: 1_780_000_000,
            before: 1_280_000_000,
            ..r
        };
        assert_eq!(
            running_line(&line, &went_on),
            "k10 k11 j10: searching, 1780000000 of 2560000000 nodes, 1000 s, about 1560 s left, proof number 34"
        );
    }
}
