//! Threat search against the external quintet positions (MIT; see `tests/data/threats/`):
//! results match the expected win and no-win lengths, shortest lines have the published
//! minimum length, and every line passes the independent line checker.

use renju::notation::{PositionOptions, parse_diagram};
use renju::rules::{Board, Color};
use renju::threat::{Outcome, VcfOptions, vcf};
use serde::Deserialize;

use crate::line_check::check_vcf;

#[derive(Deserialize)]
pub struct Case {
    pub id: String,
    pub kind: String,
    pub attacker: String,
    pub board: Vec<String>,
    pub expect_win_within: Option<u32>,
    pub expect_no_win_within: Option<u32>,
    pub expect_min_vcf_attacker_moves: Option<u32>,
    pub threat_limit: Option<u32>,
    #[serde(default)]
    pub expect_solution: Vec<String>,
}

/// The quintet VCT cases solved within a second or so, by the ends of their ids.
pub const QUICK_VCT: [&str; 6] = [
    "test_vct_black",
    "test_vct_white",
    "test_vct_counter",
    "test_vct_forbidden_breaker",
    "test_vct_fukumi_move",
    "test_vct_dual_forbiddens",
];

pub fn cases() -> Vec<Case> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/threats/quintet.jsonl"
    );
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// The quintet case named `name` (its id without the `quintet/` prefix).
pub fn case(name: &str) -> Case {
    cases()
        .into_iter()
        .find(|c| c.id.strip_prefix("quintet/") == Some(name))
        .unwrap_or_else(|| panic!("no quintet case {name}"))
}

pub fn position(case: &Case) -> (Board, Color) {
    let attacker: Color = case.attacker.parse().unwrap();
    let options = PositionOptions {
        to_move: Some(attacker),
        ..PositionOptions::default()
    };
    (
        parse_diagram(&case.board.join("\n"), &options).unwrap(),
        attacker,
    )
}

fn win_fours(outcome: &Outcome) -> usize {
    match outcome {
        Outcome::Win(line) => line.fours(),
        other => panic!("expected a win, got {other:?}"),
    }
}

#[test]
fn vcf_cases_are_solved_with_checked_lines() {
    let cases: Vec<Case> = cases().into_iter().filter(|c| c.kind == "VCF").collect();
    assert_eq!(cases.len(), 6);
    for case in &cases {
        let (board, attacker) = position(case);
        let any = vcf(&board, attacker, &VcfOptions::default());
        let Outcome::Win(line) = &any.outcome else {
            panic!("{}: {:?}", case.id, any.outcome)
        };
        check_vcf(&board, attacker, line).unwrap_or_else(|e| panic!("{}: {e}", case.id));

        let shortest = vcf(
            &board,
            attacker,
            &VcfOptions {
                shortest: true,
                ..VcfOptions::default()
            },
        );
        let Outcome::Win(short) = &shortest.outcome else {
            panic!("{}: {:?}", case.id, shortest.outcome)
        };
        check_vcf(&board, attacker, short).unwrap_or_else(|e| panic!("{}: shortest: {e}", case.id));
        assert!(short.fours() <= line.fours(), "{}", case.id);
        if let Some(within) = case.expect_win_within {
            assert!(
                short.fours() as u32 <= within,
                "{}: {} fours",
                case.id,
                short.fours()
            );
            let bounded = vcf(
                &board,
                attacker,
                &VcfOptions {
                    max_fours: Some(within),
                    ..VcfOptions::default()
                },
            );
            assert!(matches!(bounded.outcome, Outcome::Win(_)), "{}", case.id);
        }
        if let Some(none_within) = case.expect_no_win_within {
            assert!(short.fours() as u32 > none_within, "{}", case.id);
            let bounded = vcf(
                &board,
                attacker,
                &VcfOptions {
                    max_fours: Some(none_within),
                    ..VcfOptions::default()
                },
            );
            assert_eq!(bounded.outcome, Outcome::NoWin, "{}", case.id);
        }
        if let Some(min) = case.expect_min_vcf_attacker_moves {
            assert_eq!(win_fours(&shortest.outcome) as u32, min, "{}", case.id);
        }
        if let (Some(w), Some(n)) = (case.expect_win_within, case.expect_no_win_within) {
            assert_eq!(short.fours() as u32, n + 1, "{}: shortest", case.id);
            assert_eq!(w, n + 1);
        }
    }
}

/// The line checker is not a rubber stamp: a swapped reply, a dropped move, a non-four and a
/// wrong ending are each rejected.
#[test]
fn line_checker_rejects_broken_lines() {
    let case = cases()
        .into_iter()
        .find(|c| c.id == "quintet/README_VCF")
        .unwrap();
    let (board, attacker) = position(&case);
    let report = vcf(
        &board,
        attacker,
        &VcfOptions {
            shortest: true,
            ..VcfOptions::default()
        },
    );
    let Outcome::Win(line) = report.outcome else {
        panic!("README_VCF is a win")
    };
    check_vcf(&board, attacker, &line).unwrap();
    let n = line.moves.len();
    let mut swapped = line.clone();
    swapped.moves.swap(1, 3);
    assert!(
        check_vcf(&board, attacker, &swapped).is_err(),
        "swapped replies"
    );
    let mut dropped = line.clone();
    dropped.moves.truncate(n - 2);
    assert!(
        check_vcf(&board, attacker, &dropped).is_err(),
        "no five at the end"
    );
    let mut quiet = line.clone();
    let empty = board
        .points()
        .find(|&p| board.is_empty(p) && p.x() == 0 && p.y() == 0)
        .unwrap();
    quiet.moves[0] = empty;
    assert!(
        check_vcf(&board, attacker, &quiet).is_err(),
        "a1 is not a four"
    );
    let mut ending = line;
    ending.ending = renju::threat::Ending::ForbiddenBlock;
    assert!(
        check_vcf(&board, attacker, &ending).is_err(),
        "wrong ending"
    );
}

/// Every quick quintet VCT case: no win within `expect_no_win_within`, a win within
/// `expect_win_within`, under quintet's threat limit; and each win passes the independent
/// VCT checker, which tries every defender reply.
#[test]
fn vct_cases_are_solved_and_checked() {
    use crate::vct_check::{Checked, check_vct};
    use renju::threat::{VctOptions, vct};
    let cases: Vec<Case> = cases()
        .into_iter()
        .filter(|c| QUICK_VCT.iter().any(|q| c.id.ends_with(q)))
        .collect();
    assert_eq!(cases.len(), QUICK_VCT.len());
    for case in &cases {
        let (board, attacker) = position(case);
        let threat_fours = case.threat_limit;
        let within = case.expect_win_within.unwrap();
        let options = |d| VctOptions {
            max_depth: Some(d),
            threat_fours,
            proof: true,
            ..VctOptions::default()
        };
        let report = vct(&board, attacker, &options(within));
        assert!(
            matches!(report.outcome, Outcome::Win(_)),
            "{}: {:?}",
            case.id,
            report.outcome
        );
        // The whole tree, rebuilt from the search's table, replays on its own.
        let proof = report.proof.as_ref().expect("a win's proof, asked for");
        assert!(proof.nodes.len() > 1, "{}: {proof:?}", case.id);
        crate::proof_replay::check_proof(proof).unwrap_or_else(|e| panic!("{}: {e}", case.id));
        let mut db = renju::db::Builder::new(board.rules(), board.size());
        db.add_proof(proof).unwrap();
        let checked = renju::check::verify::check(db.database(), &|_| {});
        assert!(checked.ok, "{}: {:?}", case.id, checked.errors);
        if let Some(none) = case.expect_no_win_within {
            assert_eq!(
                vct(&board, attacker, &options(none)).outcome,
                Outcome::NoWin,
                "{}",
                case.id
            );
        }
        let mut stats = Checked::default();
        check_vct(&board, attacker, within, threat_fours, &mut stats)
            .unwrap_or_else(|e| panic!("{}: {e}", case.id));
        assert!(stats.replies_by_certificate > 0, "{}: {stats:?}", case.id);
    }
}
