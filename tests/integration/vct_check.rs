//! An independent check of VCT wins. The search proposes the attacker's moves; this checker
//! tries every legal defender reply (not only those the search considered) and accepts a
//! reply only if the threat's certificate VCF, replayed with that stone on the board, passes
//! the independent line checker, or if the position after it checks out recursively. Leaves
//! are VCF lines that pass the line checker. Rules come from the reference implementation.

use renju::rules::{Board, Color, Point};
use renju::threat::{Line, Outcome, VcfOptions, VctOptions, vcf, vct};

use crate::line_check::check_vcf;
use crate::support::to_reference;
use renju::check::rules::{Verdict, black_verdict};

fn legal(board: &Board, p: Point, color: Color) -> bool {
    if !board.is_empty(p) {
        return false;
    }
    color == Color::White || {
        let v = black_verdict(&to_reference(board), usize::from(p.x()), usize::from(p.y()));
        matches!(v, Verdict::Five | Verdict::Legal)
    }
}

fn vcf_line(board: &Board, attacker: Color, max_fours: u32) -> Option<Line> {
    match vcf(
        board,
        attacker,
        &VcfOptions {
            max_fours: Some(max_fours),
            ..VcfOptions::default()
        },
    )
    .outcome
    {
        Outcome::Win(line) => Some(line),
        _ => None,
    }
}

/// Statistics of a check: positions checked and replies refuted by certificate replay.
#[derive(Default, Debug)]
pub struct Checked {
    pub positions: usize,
    pub replies_by_certificate: usize,
    pub replies_searched: usize,
}

/// Checks that `attacker` (to move) wins by VCT within `depth` attacker moves before the five.
pub fn check_vct(
    board: &Board,
    attacker: Color,
    depth: u32,
    threat_fours: Option<u32>,
    stats: &mut Checked,
) -> Result<(), String> {
    stats.positions += 1;
    let mut board = board.clone();
    board.set_to_move(attacker);
    if let Some(line) = vcf_line(&board, attacker, depth) {
        return check_vcf(&board, attacker, &line).map_err(|e| format!("VCF leaf: {e}"));
    }
    let report = vct(
        &board,
        attacker,
        &VctOptions {
            max_depth: Some(depth),
            threat_fours,
            ..VctOptions::default()
        },
    );
    let Outcome::Win(line) = report.outcome else {
        return Err(format!("no VCT within {depth} here:\n{board:?}"));
    };
    let m = line.moves[0];
    if !legal(&board, m, attacker) {
        return Err(format!("attacker move {m} is not legal"));
    }
    board.play(m).unwrap();
    let defender = attacker.opponent();
    let four = board.four_at(m, attacker);
    if four.count >= 2 {
        return Ok(());
    }
    if let Some(f) = four.single() {
        if !legal(&board, f, defender) {
            return Ok(()); // Black cannot block: White fives next.
        }
        board.play(f).unwrap();
        return check_vct(&board, attacker, depth - 1, threat_fours, stats);
    }
    // A threat: the certificate is the attacker's VCF if the defender passed.
    let mut passed = board.clone();
    passed.set_to_move(attacker);
    let certificate =
        vcf_line(&passed, attacker, depth - 1).ok_or_else(|| format!("{m} is not a threat"))?;
    check_vcf(&passed, attacker, &certificate)
        .map_err(|e| format!("certificate after {m}: {e}"))?;
    for r in board.points().filter(|&r| legal(&board, r, defender)) {
        let mut after = board.clone();
        after.play(r).unwrap();
        if check_vcf(&after, attacker, &certificate).is_ok() {
            stats.replies_by_certificate += 1;
            continue;
        }
        stats.replies_searched += 1;
        check_vct(&after, attacker, depth - 1, threat_fours, stats)
            .map_err(|e| format!("after {m} {r}: {e}"))?;
    }
    Ok(())
}
