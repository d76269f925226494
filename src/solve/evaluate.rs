//! A pattern evaluation of a move, for ordering: the shapes a stone at a point makes for its
//! side (fours, threes, lines that can become threes, two such lines at once) and the shapes it
//! takes from the other side by standing on their lines. The search uses it only to order
//! moves and to set their starting proof numbers (df-pn+): it never decides a value, so it
//! cannot make a proof wrong. The starting numbers of threats also take in what the failed leaf
//! VCT at their node found ([`threat_number_after_vct`]).

use crate::rules::{Board, Color, Point};

/// What a stone of `color` at the empty point `p` would build, and take from the opponent:
/// a score, larger for a better move.
///
/// Per line through `p`, with `n` the most `color` stones (`p` not counted) in a free
/// five-point stretch through it ([`Board::potentials`]): a two (`n` = 1) counts 2, a line one
/// stone from a four or closer (`n` ≥ 2) counts 6, and a real three ([`Board::threes_at`]) 8
/// more. Two lines at `n` ≥ 2 make a 4-3 or 3-3 in waiting (10 more; for Black under renju, a
/// double-three is forbidden, but one of them may be a four or a false three); two lines with
/// a stone each, 2 more. Standing on the opponent's lines takes from them 1, 3 or 7 for their
/// `n` of 1, 2 or 3 or more.
pub(super) fn shape_score(board: &Board, p: Point, color: Color) -> u32 {
    shape(board, p, color).0
}

/// [`shape_score`], and the lines in which the stone makes a three ([`Board::threes_at`]).
fn shape(board: &Board, p: Point, color: Color) -> (u32, u32) {
    let own = board.potentials(p, color);
    let theirs = board.potentials(p, color.opponent());
    let threes = board.threes_at(p, color);
    let mut score = 0;
    for &n in &own {
        score += match n {
            0 => 0,
            1 => 2,
            _ => 6,
        };
    }
    score += 8 * threes;
    if own.iter().filter(|&&n| n >= 2).count() >= 2 {
        score += 10;
    }
    if own.iter().filter(|&&n| n >= 1).count() >= 2 {
        score += 2;
    }
    for &n in &theirs {
        score += match n {
            0 => 0,
            1 => 1,
            2 => 3,
            _ => 7,
        };
    }
    (score, threes)
}

/// The score at and above which a quiet move starts at the lowest proof number a quiet move
/// has; each [`STEP`] below it adds one.
const PROMISING: u32 = 24;
/// See [`PROMISING`].
const STEP: u32 = 4;
/// The highest starting proof number of a quiet move.
const FLOOR: u32 = 8;

/// Starting proof number of an attacker move at an OR node, and its [`shape_score`] to order
/// moves of the same number: 1 for a four, 2 for a three, and for a quiet move 3 to [`FLOOR`]
/// by its score. Traps on Black's forbidden points are not scored.
pub(super) fn attack_number(board: &Board, p: Point, attacker: Color) -> (u32, u32) {
    if board.four_at(p, attacker).count > 0 {
        return (1, u32::MAX);
    }
    let (score, threes) = shape(board, p, attacker);
    if threes > 0 {
        return (THREAT_NUMBER, score);
    }
    let pn = 3 + PROMISING.saturating_sub(score).div_ceil(STEP);
    (pn.min(FLOOR), score)
}

/// The highest starting proof number [`attack_number`] gives a threat (a four or a three).
pub(super) const THREAT_NUMBER: u32 = 2;
/// Added to a threat's number when the failed leaf VCT at its node disproved it: after it, the
/// attacker has no VCT against some reply.
const REFUTED_THREAT: u32 = 2;
/// A threat the leaf VCT left open with more than this proof number gets one more.
const CLOSE_THREAT: u32 = 2;

/// A threat's starting proof number (`pn`, from [`attack_number`]) once the leaf VCT at its
/// OR node has failed, given the numbers that VCT's table holds for the position after the
/// threat (`None` where it did not reach it): [`REFUTED_THREAT`] more where it was disproved,
/// one more where it was left with a proof number above [`CLOSE_THREAT`]. Only the order in
/// which df-pn tries the attacker's moves changes, never what a proof must show. On Kagetsu's
/// far sample (20 of ring 5+) the nodes to prove all 20 go from 81.2M to 49.1M, on its rings 3
/// and 4 sample from 122.6M to 77.1M (`BENCHMARKS.md`).
pub(super) fn threat_number_after_vct(pn: u32, vct: Option<(u32, u32)>) -> u32 {
    match vct {
        Some((_, 0)) => pn + REFUTED_THREAT,
        Some((vct_pn, _)) if vct_pn > CLOSE_THREAT => pn + 1,
        _ => pn,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dfpn::INF;
    use crate::notation::{PositionOptions, parse_position};

    fn board(moves: &str) -> Board {
        parse_position(moves, &PositionOptions::default()).unwrap()
    }

    fn point(name: &str) -> Point {
        crate::notation::parse_point(name, crate::rules::Size::STANDARD).unwrap()
    }

    #[test]
    fn a_move_on_the_attackers_lines_scores_above_one_far_away() {
        // Kagetsu, White's 4th far away; Black to move.
        let b = board("h8 h9 i9 a1");
        let near = shape_score(&b, point("j10"), Color::Black);
        let far = shape_score(&b, point("n3"), Color::Black);
        assert!(near > far, "{near} <= {far}");
        assert_eq!(far, 0);
    }

    #[test]
    fn a_threat_the_leaf_vct_refuted_or_left_far_starts_behind() {
        // A three (2) the VCT disproved starts as a promising quiet move would; one it left at
        // proof number 5 one behind; one it left at 2, or never reached, as it was.
        assert_eq!(threat_number_after_vct(2, Some((INF, 0))), 4);
        assert_eq!(threat_number_after_vct(2, Some((5, 3))), 3);
        assert_eq!(threat_number_after_vct(2, Some((2, 3))), 2);
        assert_eq!(threat_number_after_vct(1, None), 1);
        assert_eq!(threat_number_after_vct(1, Some((INF, 0))), 3);
    }

    #[test]
    fn fours_start_first_then_threes_then_quiet_moves_by_score() {
        // Black h8 i9 j10 (a three on the diagonal) with White stones elsewhere.
        let b = board("h8 a1 i9 a3 j10 a5");
        assert_eq!(attack_number(&b, point("k11"), Color::Black).0, 1);
        let two = board("h8 a1 i9 a3");
        let (pn_three, _) = attack_number(&two, point("j10"), Color::Black);
        assert_eq!(pn_three, 2);
        // h9 makes two twos: scored above a far point, both quiet.
        let (pn_near, near) = attack_number(&two, point("h9"), Color::Black);
        let (pn_far, far) = attack_number(&two, point("o15"), Color::Black);
        assert_eq!((near, far), (6, 0));
        assert!((3..=FLOOR).contains(&pn_near));
        assert_eq!(pn_far, FLOOR);
        // White's h10 makes two threes at once (a 3-3, legal for White): a three's number,
        // and a score above every single shape.
        let cross = board("a1 h8 a3 h9 a5 j10 a7 k10");
        let (pn_cross, score) = attack_number(&cross, point("h10"), Color::White);
        assert_eq!(pn_cross, 2);
        assert!(score >= PROMISING + 10, "{score}");
    }
}
