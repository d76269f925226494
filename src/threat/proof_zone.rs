//! The zone of a proof used as a certificate: the points where one more defender stone could
//! change whether [`ProofTree::holds`] holds. A defender node whose certificate is a proof
//! ([`Certificate::Proof`]) replays the proof only for the replies inside the zone; every
//! reply outside it is answered without a replay. The argument is in `docs/certificates.md`
//! ("The solver's zone of a proof").

use std::collections::HashSet;

use crate::rules::{Board, Color, Direction, Point, Rule};

use super::Line;
use super::tree::{Certificate, ProofTree, TreeNode};
use super::zone::{PointSet, add_stars, breaking_replies, sensitive_points_for};

/// What the walk gathers: points kept as they are, and points every line through which is
/// kept within the board's reach (where a forbidden-move test read).
#[derive(Default)]
struct Walk {
    kept: PointSet,
    centres: Vec<Point>,
    seen: HashSet<(usize, u64)>,
}

impl ProofTree {
    /// The zone of attacker node `node` on `board` (the attacker to move), where it holds: a
    /// defender stone on any other empty point leaves it holding. `None` where the zone is
    /// not worked out: rules without the five-point tables (caro, other win lengths), or a
    /// defender node inside whose certificate is a proof or that lists every reply.
    pub(super) fn zone(&self, node: usize, board: &mut Board, attacker: Color) -> Option<PointSet> {
        let rules = board.rules();
        if rules.k() != 5 || rules.rule() == Rule::Caro {
            return None;
        }
        let mut walk = Walk::default();
        add_stretches(&mut walk.kept, board, attacker, None);
        self.walk(node, board, attacker, &mut walk)?;
        add_stars(&mut walk.kept, &walk.centres, board.reach(), board.size());
        Some(walk.kept)
    }

    /// Gathers into `walk` what the check of `node` on `board` reads (its side to move, and
    /// the node holding there). `None` where the zone is not worked out.
    fn walk(&self, node: usize, board: &mut Board, attacker: Color, walk: &mut Walk) -> Option<()> {
        if !walk.seen.insert((node, board.hash())) {
            return Some(());
        }
        let defender = attacker.opponent();
        let threats = board.five_points(defender);
        match &self.nodes[node] {
            TreeNode::Vcf(line) => match line.moves.first() {
                None => {}
                // Two threats: the line holds only as a five, at its first move.
                Some(&first) if threats.len() >= 2 => walk.kept.insert(first),
                Some(_) => {
                    let threat = threats.first().copied();
                    let kept = sensitive_points_for(board, attacker, line, threat, 1)?;
                    walk.kept.add(&kept);
                }
            },
            TreeNode::Move { play, child } => {
                let p = *play;
                walk.kept.insert(p);
                if attacker == Color::Black {
                    let mut traced = Vec::new();
                    board.forbidden_in_place(p, &mut |q| traced.push(q));
                    // One traced point: the quick test, on counts no White stone can raise.
                    if traced.len() > 1 {
                        walk.centres.extend(traced);
                    }
                }
                if !board.four_at(p, attacker).five {
                    board.play_unchecked(p);
                    let walked = self.walk(*child, board, attacker, walk);
                    board.undo();
                    walked?;
                }
            }
            TreeNode::Replies {
                certificate: Certificate::Line(line),
                replies,
            } => {
                for r in line_reads(board, attacker, line, walk)? {
                    let &(_, child) = replies.iter().find(|&&(q, _)| q == r)?;
                    walk.kept.insert(r);
                    board.play_unchecked(r);
                    add_stretches(&mut walk.kept, board, attacker, Some(r));
                    let walked = self.walk(child, board, attacker, walk);
                    board.undo();
                    walked?;
                }
            }
            TreeNode::Replies { .. } => return None,
        }
        Some(())
    }
}

/// Gathers into `walk` what the check of a defender node whose certificate is the VCF `line`
/// reads (the defender to move on `board`, and no reply of the defender making a five), and
/// returns the replies that break the line, which the node lists. `None` where the zone is
/// not worked out.
fn line_reads(
    board: &mut Board,
    attacker: Color,
    line: &Line,
    walk: &mut Walk,
) -> Option<Vec<Point>> {
    let defender = attacker.opponent();
    let breaking: Vec<Point> = breaking_replies(board, attacker, line)
        .into_iter()
        .map(|(r, _)| r)
        .collect();
    // The outer stone and any reply together: the line, the replies it is tried on and their
    // fours.
    let pair = sensitive_points_for(board, attacker, line, None, 2)?;
    walk.kept.add(&pair);
    let tries = sensitive_points_for(board, attacker, line, None, 1)?;
    let mut around = pair.clone();
    for (p, _) in board.four_points(defender) {
        around.insert(p);
    }
    for q in around.iter() {
        if !board.is_empty(q) || breaking.contains(&q) {
            continue;
        }
        if defender == Color::Black {
            let mut traced = Vec::new();
            if board
                .forbidden_in_place(q, &mut |p| traced.push(p))
                .is_some()
            {
                // Forbidden here; the outer stone could make it legal only where its test read.
                walk.centres.extend(traced);
                continue;
            }
        }
        let counter = board.four_at(q, defender);
        if !tries.contains(q) && counter.count == 0 {
            // Answered by the line as a stone outside its sensitive points, the outer stone
            // being outside `pair`.
            continue;
        }
        // A reply the line answers after a replay: the outer stone must not change it.
        board.play_unchecked(q);
        let kept = sensitive_points_for(board, attacker, line, counter.single(), 1);
        board.undo();
        walk.kept.add(&kept?);
    }
    Some(breaking)
}

/// Adds to `kept` every empty point of every stretch of five points of `board` that holds no
/// `attacker` stone and at least two defender stones, and the points just beyond its ends (a
/// Black stone there can spoil a five into an overline): the stretches where two more
/// defender stones could make a four, or one a five. Only the stretches through `through`, if
/// given (a stone just placed).
fn add_stretches(kept: &mut PointSet, board: &Board, attacker: Color, through: Option<Point>) {
    const K: i32 = 5;
    let size = board.size();
    for d in Direction::ALL {
        let starts: Vec<Point> = match through {
            Some(p) => (0..K).filter_map(|t| p.step(d, -t, size)).collect(),
            None => size.points().collect(),
        };
        for start in starts {
            let mut own = 0;
            let mut clear = true;
            for t in 0..K {
                match start.step(d, t, size) {
                    None => clear = false,
                    Some(p) => match board.stone(p) {
                        Some(c) if c == attacker => clear = false,
                        Some(_) => own += 1,
                        None => {}
                    },
                }
            }
            if !clear || own < 2 {
                continue;
            }
            for t in -1..=K {
                if let Some(p) = start.step(d, t, size) {
                    kept.insert(p);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Rules, Size};
    use crate::testing::xorshift;
    use crate::threat::testing::{crowded_renju_board, vcf_line};
    use crate::threat::vcf::replay;
    use crate::threat::{Limits, VcfTable, VctOptions, VctTable, prove_vct};

    /// What a check of zones found: proofs whose zone was worked out, defender nodes with a
    /// VCF certificate inside them, and replies outside the zones (each replayed).
    #[derive(Default)]
    struct Checked {
        zones: usize,
        nested: usize,
        outside: usize,
    }

    /// Finds the attacker's VCT on `board` (the attacker to move) and checks the claim of
    /// [`ProofTree::zone`]: after any legal reply of the defender outside the zone, the proof
    /// still holds (and no such reply makes a five).
    fn check(board: &Board, attacker: Color, checked: &mut Checked) {
        let mut board = board.clone();
        board.set_to_move(attacker);
        let options = VctOptions {
            limits: Limits {
                nodes: Some(20_000),
                ..Limits::default()
            },
            ..VctOptions::default()
        };
        let found = prove_vct(
            &board,
            attacker,
            &options,
            &mut VcfTable::default(),
            &mut VctTable::default(),
            true,
        );
        let Some(tree) = found.tree.filter(|_| found.won) else {
            return;
        };
        assert!(tree.holds(&mut board.clone(), attacker));
        checked.nested += tree
            .nodes
            .iter()
            .filter(|n| {
                matches!(
                    n,
                    TreeNode::Replies {
                        certificate: Certificate::Line(_),
                        ..
                    }
                )
            })
            .count();
        // The root, and the attacker nodes the proof reaches, each as the root of a proof.
        let mut positions = Vec::new();
        attacker_nodes(&tree, tree.root, &mut board, attacker, &mut positions);
        for (node, mut board) in positions {
            let proof = ProofTree {
                root: node,
                nodes: tree.nodes.clone(),
            };
            check_zone(&proof, &mut board, attacker, checked);
        }
    }

    /// The claim for `proof` on `board` (the attacker to move), if it holds there.
    fn check_zone(proof: &ProofTree, board: &mut Board, attacker: Color, checked: &mut Checked) {
        if !proof.holds(&mut board.clone(), attacker) {
            return;
        }
        let Some(zone) = proof.zone(proof.root, board, attacker) else {
            return;
        };
        checked.zones += 1;
        let defender = attacker.opponent();
        for r in board.points() {
            if zone.contains(r) || !board.is_legal_for(r, defender) {
                continue;
            }
            assert!(
                !board.four_at(r, defender).five,
                "{r}, a five, outside the zone"
            );
            let mut after = board.clone();
            after.put(r, defender).unwrap();
            after.set_to_move(attacker);
            assert!(
                proof.holds(&mut after, attacker),
                "{r} outside the zone breaks the proof for {attacker} after {:?} ({:?})",
                board.moves(),
                board.stones().collect::<Vec<_>>()
            );
            checked.outside += 1;
        }
    }

    /// The attacker nodes of `tree` below `node` (on `board`, the attacker to move), with
    /// their positions: along its moves and its listed replies, at most 8.
    fn attacker_nodes(
        tree: &ProofTree,
        node: usize,
        board: &mut Board,
        attacker: Color,
        out: &mut Vec<(usize, Board)>,
    ) {
        if out.len() >= 8 {
            return;
        }
        match &tree.nodes[node] {
            TreeNode::Vcf(_) => out.push((node, board.clone())),
            TreeNode::Move { play, child } => {
                out.push((node, board.clone()));
                if board.is_empty(*play) && !board.four_at(*play, attacker).five {
                    board.play_unchecked(*play);
                    if let TreeNode::Replies { replies, .. } = &tree.nodes[*child] {
                        for &(r, grandchild) in replies {
                            if board.is_empty(r) {
                                board.play_unchecked(r);
                                attacker_nodes(tree, grandchild, board, attacker, out);
                                board.undo();
                            }
                        }
                    }
                    board.undo();
                }
            }
            TreeNode::Replies { .. } => {}
        }
    }

    /// The claim on every quintet position and along its published solution, for a VCT of
    /// either colour.
    #[test]
    fn replies_outside_a_proofs_zone_leave_it_holding() {
        use crate::notation::{PositionOptions, parse_diagram};

        let mut checked = Checked::default();
        for (case, diagram) in crate::threat::quintet_cases() {
            let mut board = parse_diagram(&diagram, &PositionOptions::default()).unwrap();
            let mut positions = vec![board.clone()];
            for m in case["expect_solution"].as_array().into_iter().flatten() {
                let m: Point = m.as_str().unwrap().to_lowercase().parse().unwrap();
                if !board.is_legal(m) || board.play(m).is_err() {
                    break;
                }
                positions.push(board.clone());
            }
            for position in &positions {
                for attacker in [Color::Black, Color::White] {
                    check(position, attacker, &mut checked);
                }
            }
        }
        assert!(
            checked.zones >= 800 && checked.nested >= 500 && checked.outside >= 80_000,
            "{} zones, {} nested certificates, {} replies",
            checked.zones,
            checked.nested,
            checked.outside
        );
    }

    /// The same claim on random boards (seeded), under renju, where Black's forbidden points
    /// come up far more often than in games, and under gomoku.
    #[test]
    fn replies_outside_a_proofs_zone_leave_it_holding_on_random_boards() {
        let mut random = xorshift(0x0fed_cba9_8765_4321);
        let mut checked = Checked::default();
        for i in 0..600 {
            let rules = if i % 3 == 2 {
                Rules::new(Rule::Gomoku, None).unwrap()
            } else {
                Rules::renju()
            };
            let mut board = Board::new(Size::STANDARD, rules);
            for _ in 0..8 + random(30) {
                let p = Point::new(3 + random(9) as u8, 3 + random(9) as u8);
                let color = [Color::Black, Color::White][random(2) as usize];
                if board.is_legal_for(p, color) && board.four_at(p, color).count == 0 {
                    board.put(p, color).unwrap();
                }
            }
            for attacker in [Color::Black, Color::White] {
                let defender = attacker.opponent();
                if board.five_points(defender).is_empty() {
                    check(&board, attacker, &mut checked);
                }
            }
        }
        assert!(
            checked.zones >= 1_800 && checked.nested >= 2_000 && checked.outside >= 250_000,
            "{} zones, {} nested certificates, {} replies",
            checked.zones,
            checked.nested,
            checked.outside
        );
    }

    /// The stones of a pair outside a line's points for two stones, neither making a four
    /// and none made by both, leave the line winning; the points for one stone are among
    /// them.
    #[test]
    fn pairs_of_stones_outside_a_lines_points_for_two_leave_it_winning() {
        let mut random = xorshift(0x1357_9bdf_2468_ace0);
        let (mut lines, mut pairs, mut broken_inside) = (0, 0, 0);
        for _ in 0..3_000 {
            let mut board = crowded_renju_board(&mut random);
            for attacker in [Color::Black, Color::White] {
                let Some(line) = vcf_line(&mut board, attacker, Some(6)) else {
                    continue;
                };
                let one = sensitive_points_for(&mut board, attacker, &line, None, 1).unwrap();
                let two = sensitive_points_for(&mut board, attacker, &line, None, 2).unwrap();
                assert!(one.iter().all(|p| two.contains(p)));
                lines += 1;
                // Pairs among the points kept for two stones only: some of them break the
                // line, which is why they are kept.
                let only_two: Vec<Point> = two
                    .iter()
                    .filter(|&p| board.is_empty(p) && !one.contains(p))
                    .collect();
                for (i, &a) in only_two.iter().enumerate() {
                    for &b in &only_two[i + 1..] {
                        if let Some(false) = replay_with(&board, attacker, &line, a, b) {
                            broken_inside += 1;
                        }
                    }
                }
                let empty: Vec<Point> = board
                    .points()
                    .filter(|&p| board.is_empty(p) && !two.contains(p))
                    .collect();
                for _ in 0..60 {
                    let a = empty[random(empty.len() as u64) as usize];
                    let b = empty[random(empty.len() as u64) as usize];
                    let Some(wins) = replay_with(&board, attacker, &line, a, b) else {
                        continue;
                    };
                    pairs += 1;
                    assert!(
                        wins,
                        "{a} and {b} break {:?} for {attacker} on {:?}",
                        line.moves,
                        board.stones().collect::<Vec<_>>()
                    );
                }
            }
        }
        assert!(
            lines >= 1_500 && pairs >= 90_000 && broken_inside >= 500,
            "{lines} lines, {pairs} pairs, {broken_inside} broken by a pair kept for two"
        );
    }

    /// A defender node with a VCF certificate, alone: with a defender stone `E` on any empty
    /// point outside what the walk keeps, the defender has no five point, the line still wins
    /// after a pass, and every legal reply that breaks it (each replayed) broke it without
    /// `E`, so the node lists it. Random boards of renju, gomoku and freestyle, some of them
    /// small, with stones biased towards one colour.
    #[test]
    fn a_stone_outside_a_defender_nodes_zone_breaks_nothing_more() {
        let rules = [Rule::Renju, Rule::Gomoku, Rule::Freestyle];
        let (lines, stones) = check_defender_nodes(0x2468_ace0_1357_9bdf, 4_000, &rules, None);
        assert!(
            lines >= 1_000 && stones >= 50_000,
            "{lines} lines, {stones} stones"
        );
    }

    /// The same with Black defending under renju, on boards crowded with Black stones, where
    /// Black's forbidden points (which a Black stone can make legal) are common.
    #[test]
    fn a_black_stone_outside_a_defender_nodes_zone_breaks_nothing_more() {
        let (lines, stones) = check_defender_nodes(
            0x0bad_cafe_f00d_1234,
            30_000,
            &[Rule::Renju],
            Some(Color::White),
        );
        assert!(
            lines >= 900 && stones >= 50_000,
            "{lines} lines, {stones} stones"
        );
    }

    /// Checks [`line_reads`] on `boards` random boards (seeded) under `rules` in turn, for a
    /// VCF of `attacker` (either, if `None`): the lines and the stones checked.
    fn check_defender_nodes(
        seed: u64,
        boards: usize,
        rules: &[Rule],
        attacker: Option<Color>,
    ) -> (usize, usize) {
        use crate::threat::zone::still_wins;

        let mut random = xorshift(seed);
        let (mut lines, mut stones) = (0, 0);
        for i in 0..boards {
            let rule = rules[i % rules.len()];
            let size = if random(4) == 0 {
                Size::new(9 + random(4) as u32, 8 + random(5) as u32).unwrap()
            } else {
                Size::STANDARD
            };
            let mut board = Board::new(size, Rules::new(rule, None).unwrap());
            let (cols, rows) = (u64::from(size.cols()), u64::from(size.rows()));
            let colours = match (attacker, random(3)) {
                (None, 0) => [Color::Black, Color::White, Color::Black, Color::White],
                (Some(Color::White), _) | (None, 1) => {
                    [Color::Black, Color::Black, Color::Black, Color::White]
                }
                _ => [Color::White, Color::White, Color::White, Color::Black],
            };
            for _ in 0..20 + random(70) {
                let p = Point::new(random(cols) as u8, random(rows) as u8);
                let colour = colours[random(4) as usize];
                if board.is_legal_for(p, colour) && !board.four_at(p, colour).five {
                    board.put(p, colour).unwrap();
                }
            }
            for attacker in [Color::Black, Color::White]
                .into_iter()
                .filter(|&a| attacker.is_none_or(|only| only == a))
            {
                let defender = attacker.opponent();
                if !board.five_points(attacker).is_empty() {
                    continue;
                }
                let Some(line) = vcf_line(&mut board, attacker, Some(8)) else {
                    continue;
                };
                let mut walk = Walk::default();
                add_stretches(&mut walk.kept, &board, attacker, None);
                let breaking = line_reads(&mut board, attacker, &line, &mut walk).unwrap();
                add_stars(&mut walk.kept, &walk.centres, board.reach(), board.size());
                lines += 1;
                for e in board.points() {
                    if !board.is_empty(e) || walk.kept.contains(e) {
                        continue;
                    }
                    stones += 1;
                    let mut after = board.clone();
                    after.put(e, defender).unwrap();
                    assert!(after.five_points(defender).is_empty(), "{e}: a five point");
                    after.set_to_move(attacker);
                    assert!(
                        replay(&mut after, attacker, &line, None, &mut |_| {}),
                        "{e} breaks {:?} for {attacker} after a pass",
                        line.moves
                    );
                    after.set_to_move(defender);
                    for r in after.points() {
                        if !after.is_legal_for(r, defender) {
                            continue;
                        }
                        let counter = after.four_at(r, defender);
                        let breaks = counter.five
                            || counter.count >= 2
                            || !still_wins(&mut after, attacker, &line, r, counter.single());
                        assert!(
                            !breaks || breaking.contains(&r),
                            "with {e}, {r} breaks {:?} for {attacker}, and is not listed: {:?}",
                            line.moves,
                            board.stones().collect::<Vec<_>>()
                        );
                    }
                }
            }
        }
        (lines, stones)
    }

    /// Whether `line` still wins for `attacker` with defender stones at `a` and `b` added;
    /// `None` if they are one point, or one of them makes a four, alone or with the other.
    fn replay_with(
        board: &Board,
        attacker: Color,
        line: &Line,
        a: Point,
        b: Point,
    ) -> Option<bool> {
        let defender = attacker.opponent();
        let mut after = board.clone();
        if a == b || after.four_at(a, defender).count > 0 {
            return None;
        }
        after.put(a, defender).unwrap();
        if after.four_at(b, defender).count > 0 {
            return None;
        }
        after.put(b, defender).unwrap();
        after.set_to_move(attacker);
        Some(super::super::vcf::replay(
            &mut after,
            attacker,
            line,
            None,
            &mut |_| {},
        ))
    }
}
