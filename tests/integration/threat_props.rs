//! Property tests of the threat search: results do not depend on the board's orientation, and
//! a VCF added to a quiet board is found (and its line passes the independent checker).

use proptest::prelude::*;
use renju::rules::{Board, Color, Direction, Point, Rules, Size, Symmetry};
use renju::threat::{Outcome, VcfOptions, VctOptions, vcf, vct};

use crate::line_check::check_vcf;
use crate::threats::{cases, position};

/// A quiet renju board: a few scattered stones of each colour, no four and no three anywhere.
fn quiet_board() -> impl Strategy<Value = Board> {
    proptest::collection::vec((0u8..15, 0u8..15), 0..24).prop_map(|points| {
        let mut b = Board::new(Size::STANDARD, Rules::renju());
        for (i, (x, y)) in points.into_iter().enumerate() {
            let p = Point::new(x, y);
            let color = if i % 2 == 0 {
                Color::Black
            } else {
                Color::White
            };
            if b.is_empty(p)
                && b.four_at(p, color).count == 0
                && !b.four_at(p, color).five
                && b.threes_at(p, color) == 0
                && b.forbidden(p).is_none()
            {
                b.put(p, color).unwrap();
            }
        }
        b
    })
}

fn fours(outcome: &Outcome) -> Option<usize> {
    match outcome {
        Outcome::Win(line) => Some(line.fours()),
        _ => None,
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// Three attacker stones in a row with room at both ends, added to a quiet board: the
    /// attacker has a VCF (a straight four), found whichever side is to move.
    #[test]
    fn an_added_vcf_is_found(
        board in quiet_board(),
        x in 3u8..10, y in 3u8..10, dir in 0usize..4, white in any::<bool>(), gap in 0usize..3,
    ) {
        let d = Direction::ALL[dir];
        let attacker = if white { Color::White } else { Color::Black };
        let start = Point::new(x, y);
        let mut b = board;
                // Stones at 1, 2, 3 (or with one gap: 1, 2, 4 or 1, 3, 4) along d, 0..=5 kept empty,
        // and no attacker stone just beyond (it would turn Black's straight four into six).
        let line: Vec<Point> = (0..6).filter_map(|i| start.step(d, i, b.size())).collect();
        prop_assume!(line.len() == 6);
        for beyond in [-1, 6] {
            prop_assume!(start.step(d, beyond, b.size()).and_then(|q| b.stone(q)) != Some(attacker));
        }
        let stones = [[1, 2, 3], [1, 2, 4], [1, 3, 4]][gap];
        for (i, &p) in line.iter().enumerate() {
            if b.stone(p).is_some() {
                prop_assume!(false);
            }
            if stones.contains(&i) {
                b.put(p, attacker).unwrap();
            }
        }
        // The added stones must not give the defender anything, nor Black a forbidden point on
        // the line, for the VCF to be certain.
        prop_assume!(b.five_points(attacker.opponent()).is_empty());
        prop_assume!(b.four_points(attacker.opponent()).is_empty());
        prop_assume!(line.iter().all(|&p| b.forbidden(p).is_none()));
        b.set_to_move(attacker);
        let report = vcf(&b, attacker, &VcfOptions::default());
        let Outcome::Win(line) = &report.outcome else {
            return Err(TestCaseError::fail(format!("no VCF found: {:?}\n{b:?}", report.outcome)));
        };
        prop_assert!(check_vcf(&b, attacker, line).is_ok(), "{:?}", check_vcf(&b, attacker, line));
        // The defender passing first changes nothing: the VCF is there for the attacker either way.
        let mut passed = b.clone();
        passed.set_to_move(attacker.opponent());
        prop_assert!(matches!(vcf(&passed, attacker, &VcfOptions::default()).outcome, Outcome::Win(_)));
    }
}

/// The VCF result and the shortest VCF's length are the same in every orientation, for every
/// quintet VCF position; so are VCT results (win or no win within the length limits).
#[test]
fn results_are_invariant_under_symmetries() {
    for case in cases() {
        let (board, attacker) = position(&case);
        let size = board.size();
        let shortest = VcfOptions {
            shortest: true,
            ..VcfOptions::default()
        };
        let vct_options = |d| VctOptions {
            max_depth: Some(d),
            threat_fours: case.threat_limit,
            ..VctOptions::default()
        };
        let base_vcf = fours(&vcf(&board, attacker, &shortest).outcome);
        let quick_vct = case.kind == "VCT" && case.expect_win_within.is_some_and(|w| w <= 5);
        let base_vct = quick_vct.then(|| {
            let w = case.expect_win_within.unwrap();
            (
                vct(&board, attacker, &vct_options(w)).outcome.name(),
                vct(&board, attacker, &vct_options(w - 1)).outcome.name(),
            )
        });
        for &s in Symmetry::of(size) {
            let image = board.transformed(s);
            let report = vcf(&image, attacker, &shortest);
            assert_eq!(fours(&report.outcome), base_vcf, "{} under {s}", case.id);
            if let Outcome::Win(line) = &report.outcome {
                check_vcf(&image, attacker, line)
                    .unwrap_or_else(|e| panic!("{} under {s}: {e}", case.id));
            }
            if let Some(expected) = base_vct {
                let w = case.expect_win_within.unwrap();
                let got = (
                    vct(&image, attacker, &vct_options(w)).outcome.name(),
                    vct(&image, attacker, &vct_options(w - 1)).outcome.name(),
                );
                assert_eq!(got, expected, "{} under {s}", case.id);
            }
        }
    }
}
