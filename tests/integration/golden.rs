//! Golden tests: every external forbidden-move case in `tests/data/forbidden/*.jsonl`
//! (quintet and realcore, MIT; see the LICENSE.md beside them) must pass, for the fast detector
//! and for the reference implementation alike.

use std::collections::BTreeMap;

use renju::notation::{PositionOptions, parse_diagram, parse_moves};
use renju::rules::{Board, Color, Forbidden, Point};
use serde::Deserialize;

use crate::support::reference_forbidden;

#[derive(Deserialize)]
struct Case {
    id: String,
    board: Vec<String>,
    #[serde(default)]
    moves: Option<Vec<String>>,
    #[serde(default)]
    expect_all: Option<BTreeMap<String, String>>,
    #[serde(default)]
    expect_points: Option<BTreeMap<String, String>>,
}

fn cases() -> Vec<Case> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/forbidden");
    let mut cases = Vec::new();
    for file in ["quintet.jsonl", "realcore.jsonl"] {
        let text = std::fs::read_to_string(format!("{dir}/{file}")).unwrap();
        cases.extend(
            text.lines()
                .filter(|l| !l.trim().is_empty())
                .map(|l| serde_json::from_str::<Case>(l).unwrap_or_else(|e| panic!("{file}: {e}"))),
        );
    }
    cases
}

/// Whether a found kind satisfies an expected one (`33`, `44`, `6`, `forbidden`).
fn kind_matches(expected: &str, found: Forbidden) -> bool {
    match expected {
        "33" => found == Forbidden::DoubleThree,
        "44" => found == Forbidden::DoubleFour,
        "6" => found == Forbidden::Overline,
        "forbidden" => true,
        other => panic!("unknown expected kind {other}"),
    }
}

fn load(case: &Case) -> Board {
    // The cases are composed positions: the side to move is irrelevant to Black's forbidden
    // points, so it is fixed rather than derived from the counts.
    let options = PositionOptions {
        to_move: Some(Color::Black),
        ..PositionOptions::default()
    };
    let board = parse_diagram(&case.board.join("\n"), &options)
        .unwrap_or_else(|e| panic!("{}: {e}", case.id));
    if let Some(moves) = &case.moves {
        let from_moves = parse_moves(&moves.join(" "), &options).unwrap();
        let stones: Vec<_> = from_moves.stones().collect();
        assert_eq!(
            stones,
            board.stones().collect::<Vec<_>>(),
            "{}: moves and board differ",
            case.id
        );
    }
    board
}

#[test]
fn external_cases_all_pass() {
    let cases = cases();
    assert_eq!(cases.len(), 44, "the shared data has 44 boards");
    let mut checked_points = 0;
    for case in &cases {
        let board = load(case);
        let found = board.forbidden_points();
        assert_eq!(
            found,
            reference_forbidden(&board),
            "{}: fast and reference detectors differ",
            case.id
        );
        if let Some(all) = &case.expect_all {
            let expected: BTreeMap<Point, &str> = all
                .iter()
                .map(|(p, k)| (p.parse().unwrap(), k.as_str()))
                .collect();
            let got: BTreeMap<Point, Forbidden> = found.iter().copied().collect();
            assert_eq!(
                got.keys().collect::<Vec<_>>(),
                expected.keys().collect::<Vec<_>>(),
                "{}: complete forbidden set",
                case.id
            );
            for (p, kind) in &expected {
                assert!(
                    kind_matches(kind, got[p]),
                    "{}: {p} is {} not {kind}",
                    case.id,
                    got[p]
                );
                checked_points += 1;
            }
        }
        for (p, expected) in case.expect_points.iter().flatten() {
            let point: Point = p.parse().unwrap();
            let verdict = board.forbidden(point);
            match (expected.as_str(), verdict) {
                ("none", None) => {}
                ("none", Some(k)) => panic!("{}: {p} should be allowed, found {k}", case.id),
                (kind, Some(k)) => {
                    assert!(kind_matches(kind, k), "{}: {p} is {k} not {kind}", case.id)
                }
                (kind, None) => panic!("{}: {p} should be {kind}, found allowed", case.id),
            }
            checked_points += 1;
        }
    }
    assert!(
        checked_points >= 44,
        "only {checked_points} verdicts were checked"
    );
}

#[test]
fn white_is_never_forbidden_and_fives_never_are() {
    for case in cases() {
        let board = load(&case);
        for p in board.points().filter(|&p| board.is_empty(p)) {
            if board.makes_five(p, Color::Black) {
                assert_eq!(board.forbidden(p), None, "{}: five at {p}", case.id);
            }
        }
        let mut white = board.clone();
        white.set_to_move(Color::White);
        for p in board.points().filter(|&p| board.is_empty(p)) {
            assert!(white.is_legal(p), "{}: white may play {p}", case.id);
        }
    }
}
