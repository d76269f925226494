//! Unit tests of the search's parts: read-out, expansion and null-move simulation.

use super::*;
use std::time::Instant;

use super::answer::proved;
use crate::notation::{PositionOptions, parse_position};

/// A position from its text, with `to_move`.
pub(in crate::solve) fn position(text: &str, to_move: Color) -> Board {
    let options = PositionOptions {
        to_move: Some(to_move),
        ..PositionOptions::default()
    };
    parse_position(text, &options).unwrap()
}

/// quintet's `test_vct_black` (`data/examples/vct.txt`): Black's VCT of about 5,000 nodes,
/// starting at f10, and no Black VCF.
pub(in crate::solve) fn vct_example(to_move: Color) -> Board {
    position(include_str!("../../data/examples/vct.txt"), to_move)
}

/// The main prover of a search for `attacker`, on one thread.
pub(in crate::solve) fn prover<'a>(
    board: &Board,
    attacker: Color,
    options: &'a SolveOptions,
) -> Prover<'a> {
    Prover::new(
        board,
        attacker,
        options,
        2,
        (1, 1),
        &Arc::new(AtomicU64::new(0)),
    )
}

/// Options whose leaf budget (200 nodes) misses [`vct_example`]'s VCT (about 5,000 nodes),
/// within `limits`.
pub(in crate::solve) fn small_leaf_budget(limits: Limits) -> SolveOptions {
    SolveOptions {
        vct_nodes: Some(200),
        limits,
        ..SolveOptions::default()
    }
}

/// [`prover`], as if its position stood below the root, where the leaf budget applies
/// (at the root the root's VCT rounds stand in for it).
pub(in crate::solve) fn prover_below_root<'a>(
    board: &Board,
    attacker: Color,
    options: &'a SolveOptions,
) -> Prover<'a> {
    let mut p = prover(board, attacker, options);
    p.root_stones = usize::MAX;
    p
}

/// A proof found just as the node budget runs out is still read out, within the grace of
/// a quarter more: here the read-out must find a VCT again (about 5,000 nodes), and the
/// search has used all of its 40,000.
#[test]
fn a_proof_found_at_the_limit_is_read_out_within_the_grace() {
    let board = vct_example(Color::Black);
    let options = small_leaf_budget(Limits {
        nodes: Some(40_000),
        ..Limits::default()
    });
    let read_out = |grace: bool| {
        // The read-out must search for the VCT again, and the search has used up the
        // budget proving it.
        let mut p = prover_below_root(&board, Color::Black, &options);
        let other = prover(&board, Color::White, &options);
        let key = p.board.canonical().key;
        p.store(key, Entry::PROVED);
        p.count(40_000);
        assert!(p.limit_reached());
        let limits = if grace {
            options.limits.with_read_out_grace(Instant::now())
        } else {
            options.limits.clone()
        };
        proved(p, Verdict::Win, Some(&other), &board, &limits)
    };
    let without = read_out(false);
    assert_eq!(without.verdict, Verdict::Unknown);
    assert!(
        without
            .note
            .is_some_and(|n| n.contains("could not be rebuilt"))
    );
    let with = read_out(true);
    assert_eq!(with.verdict, Verdict::Win);
    assert!(with.proof.is_some());
}

/// A position whose side to move is given against the moves (the last stone is the side
/// to move's own): judging the attacker's last move at the AND root must not touch the
/// board. Taking that stone back and playing it again would hand the move to Black, and
/// `solve` would then claim White lost.
#[test]
fn expanding_a_root_given_its_side_to_move_leaves_the_board_as_it_was() {
    let board = position("h8 a1 j8 a15", Color::White);
    let options = SolveOptions::default();
    let mut p = prover(&board, Color::Black, &options);
    assert!(!p.is_or());
    assert!(matches!(p.expand(), Ok(Expansion::Moves(_))));
    assert_eq!(p.board.to_move(), Color::White);
    assert_eq!(p.board.hash(), board.hash());
    assert_eq!(p.board.moves(), board.moves());
}

/// An AND node whose attacker has a VCT were the defender to pass: the VCT is the node's
/// certificate, lent to the pass position, and expanding the node leaves only the replies
/// after which it no longer holds; every other reply loses to it.
#[test]
fn a_threatened_vct_leaves_only_the_replies_that_stop_it() {
    // White to move: Black's VCT were White to pass starts at f10.
    let board = vct_example(Color::White);
    let options = SolveOptions {
        vct_nodes: Some(20_000),
        ..SolveOptions::default()
    };
    let mut p = prover(&board, Color::Black, &options);
    assert!(p.certificate().unwrap().is_none());
    let Ok(Expansion::Moves(replies)) = p.expand() else {
        panic!("White has replies to search");
    };
    let legal = p.legal_moves(Color::White);
    let searched: Vec<Point> = replies.iter().map(|m| m.point).collect();
    assert!(
        searched.len() < legal.len() / 2,
        "{} of {}",
        searched.len(),
        legal.len()
    );
    let f10: Point = "f10".parse().unwrap();
    assert!(searched.contains(&f10), "the VCT's first point stops it");
    let tree = p
        .lent_to_pass()
        .expect("the VCT is lent to the pass position");
    for r in legal {
        p.board.play_unchecked(r);
        let holds = tree.holds(&mut p.board, Color::Black);
        p.board.undo();
        assert_eq!(holds, !searched.contains(&r), "{r}");
    }
}

/// The same node deeper than [`super::NEAR_ROOT_PLIES`] below the root: no VCT is looked for
/// after a pass, so nothing is lent and every legal reply is left to search; at
/// [`super::NEAR_ROOT_PLIES`] it is, and narrows them.
#[test]
fn a_threatened_vct_is_not_looked_for_far_below_the_root() {
    // The example's stones played as moves (White first), so the node has a depth; Black's
    // last is h9, between h8 and h10, a move that builds on its lines.
    let diagram = vct_example(Color::White);
    let mut board = Board::new(diagram.size(), diagram.rules());
    board.set_to_move(Color::White);
    let h9: Point = "h9".parse().unwrap();
    let of = |c: Color| -> Vec<Point> {
        let mut points: Vec<Point> = diagram
            .stones()
            .filter(|&(_, s)| s == c)
            .map(|(p, _)| p)
            .collect();
        points.sort_by_key(|&p| p == h9);
        points
    };
    assert!(of(Color::Black).ends_with(&[h9]));
    for (w, b) in of(Color::White).into_iter().zip(of(Color::Black)) {
        board.play_unchecked(w);
        board.play_unchecked(b);
    }
    assert_eq!(
        board.hash(),
        diagram.hash(),
        "the same position, White to move"
    );
    let options = SolveOptions {
        vct_nodes: Some(20_000),
        ..SolveOptions::default()
    };
    let mut p = prover(&board, Color::Black, &options);
    let stones = board.moves().len();
    assert!(stones > super::NEAR_ROOT_PLIES, "{stones} stones");
    p.root_stones = stones - super::NEAR_ROOT_PLIES - 1;
    assert!(p.certificate().unwrap().is_none());
    let Ok(Expansion::Moves(replies)) = p.expand() else {
        panic!("White has replies to search");
    };
    let legal = p.legal_moves(Color::White).len();
    assert_eq!(replies.len(), legal);
    assert!(p.lent_to_pass().is_none());
    // One ply nearer the root, the VCT is looked for and narrows the replies.
    let mut near = prover(&board, Color::Black, &options);
    near.root_stones = stones - super::NEAR_ROOT_PLIES;
    let Ok(Expansion::Moves(replies)) = near.expand() else {
        panic!("White has replies to search");
    };
    assert!(replies.len() < legal / 2, "{} of {legal}", replies.len());
}

/// The null-move VCT gets sixteen times the leaf budget near the root, and is not looked for
/// deeper down.
#[test]
fn the_pass_vct_is_looked_for_near_the_root_only() {
    let board = crate::notation::parse_position(
        "h8 h9 i9 a1 b15 a2 c15 a3 d15 a5",
        &crate::notation::PositionOptions::default(),
    )
    .unwrap();
    let options = small_leaf_budget(Limits::default());
    let mut p = prover(&board, Color::Black, &options);
    assert_eq!(p.pass_budget(), Some(200 * super::PASS_SHARE_NEAR_ROOT));
    p.root_stones = 10 - super::NEAR_ROOT_PLIES;
    assert_eq!(p.pass_budget(), Some(200 * super::PASS_SHARE_NEAR_ROOT));
    p.root_stones = 10 - super::NEAR_ROOT_PLIES - 1;
    assert_eq!(p.pass_budget(), None);
}

/// The VCT searches below the root share one table: a leaf search at a position an earlier
/// one went through (here, after the first threat of [`vct_example`]'s VCT and a reply it
/// lists) finds the VCT there in a fraction of what a search from a cold table takes.
#[test]
fn a_leaf_vct_reuses_what_an_earlier_one_found() {
    use crate::threat::TreeNode;
    let board = vct_example(Color::Black);
    let options = SolveOptions {
        vct_nodes: Some(20_000),
        ..SolveOptions::default()
    };
    let mut p = prover_below_root(&board, Color::Black, &options);
    let (true, Some(tree)) = p.find_vct(true).unwrap() else {
        panic!("the VCT within 20,000 nodes");
    };
    let TreeNode::Move { play, child } = tree.nodes[tree.root] else {
        panic!("the VCT starts with a threat");
    };
    let TreeNode::Replies { replies, .. } = &tree.nodes[child] else {
        panic!("the threat has replies");
    };
    let reply = replies.first().expect("a reply the VCT searched").0;
    p.board.play_unchecked(play);
    p.board.play_unchecked(reply);

    let mut cold = prover_below_root(&p.board, Color::Black, &options);
    assert!(matches!(cold.find_vct(false), Ok((true, None))));
    let warm_before = p.nodes;
    assert!(matches!(p.find_vct(false), Ok((true, None))));
    let warm = p.nodes - warm_before;
    assert!(
        warm * 4 < cold.nodes,
        "warm {warm} nodes, cold {}",
        cold.nodes
    );
}

/// A quintet case's board (`tests/data/threats/quintet.jsonl`), its attacker to move, and the
/// attacker.
fn quintet_case(id: &str) -> (Board, Color) {
    let (case, diagram) = crate::threat::quintet_cases()
        .find(|(c, _)| c["id"] == id)
        .expect("the case");
    let attacker: Color = case["attacker"].as_str().unwrap().parse().unwrap();
    (position(&diagram, attacker), attacker)
}

/// The narrow VCT at the root: on quintet's `test_vct_dual_forbiddens` no line of at most 4
/// White moves wins with one-four threats, and one of 6 does. A round searches the first
/// bound to its end, takes the next with what is left, and its win proves the root: the
/// root's VCT proof is the narrow search's, and it holds.
#[test]
fn the_narrow_vct_deepens_its_bound_and_its_win_proves_the_root() {
    let (board, white) = quintet_case("quintet/test_vct_dual_forbiddens");
    let options = SolveOptions::default();
    let mut p = prover(&board, white, &options);
    assert_eq!(
        p.root_narrow.as_ref().map(|n| n.depth),
        Some(NARROW_DEPTHS.0)
    );
    p.narrow_round(100_000);
    assert!(!p.root_vct_open);
    assert!(p.root_narrow.is_none());
    let tree = p.root_vct_tree.clone().expect("the narrow search's proof");
    assert!(tree.holds(&mut p.board.clone(), white));
    assert!(p.table.proved(p.board.canonical().key));
    assert_eq!(p.root_vct_nodes, 0, "the root's own VCT did not run");
}

/// Where no narrow line wins up to the last bound (quintet's `test_vct_fukumi_move`, whose VCT
/// needs threats of more fours), the narrow search gives way and the root's own VCT goes on;
/// the root's rounds then give it their whole budget and find the VCT.
#[test]
fn the_narrow_vct_gives_way_after_its_last_bound() {
    let (board, black) = quintet_case("quintet/test_vct_fukumi_move");
    let options = SolveOptions::default();
    let mut p = prover(&board, black, &options);
    p.narrow_round(1_000_000);
    assert!(p.root_narrow.is_none());
    assert!(p.root_vct_open && p.root_vct_tree.is_none());
    p.root_vct_nodes = NARROW_AFTER;
    p.root_vct_round(1_000_000);
    let tree = p.root_vct_tree.clone().expect("the root's own VCT");
    assert!(tree.holds(&mut p.board.clone(), black));
}

/// Before the root's own VCT has searched [`NARROW_AFTER`] nodes, its rounds are all its own:
/// the narrow search waits at its first bound.
#[test]
fn the_narrow_vct_waits_for_the_roots_own_to_search_first() {
    let (board, white) = quintet_case("quintet/test_vct_dual_forbiddens");
    let options = SolveOptions::default();
    let mut p = prover(&board, white, &options);
    p.root_vct_round(50);
    assert!(p.root_vct_nodes > 0 && p.root_vct_nodes < NARROW_AFTER);
    assert_eq!(
        p.nodes, p.root_vct_nodes,
        "every node was the root's own VCT's"
    );
    assert_eq!(
        p.root_narrow.as_ref().map(|n| n.depth),
        Some(NARROW_DEPTHS.0)
    );
}

/// The most-proving line follows, from the root, the move of least proof number at the
/// attacker's nodes and the reply of least disproof number at the defender's, reading the
/// children's numbers from the table (a child it does not hold counts at its starting
/// numbers), and ends at a node the table does not hold.
#[test]
fn the_most_proving_line_takes_the_child_df_pn_would_search() {
    let board = position("h8 h9 i9", Color::Black);
    let options = SolveOptions::default();
    let mut p = prover(&board, Color::Black, &options);
    // The table keeps moves in the canonical frame; this test means something for the
    // mapping back only where that frame is not the board's.
    assert_ne!(board.canonical().symmetry, crate::rules::Symmetry::Identity);
    let at = |s: &str| crate::notation::parse_point(s, board.size()).unwrap();
    // Stores an open node at the prover's position with `moves` (in the board's frame).
    let store = |p: &mut Prover<'_>, numbers: (u32, u32), moves: &[(&str, u32, u32)]| {
        let canonical = p.board.canonical();
        let size = p.board.size();
        let moves: Arc<[Move]> = moves
            .iter()
            .map(|&(m, pn, dn)| Move {
                point: canonical.symmetry.apply(at(m), size),
                pn,
                dn,
            })
            .collect();
        let key = canonical.key;
        p.store(
            key,
            Entry {
                pn: numbers.0,
                dn: numbers.1,
                work: 0,
                moves: Some(moves),
            },
        );
    };
    // Stores the numbers of the child after `m` (not expanded).
    let store_child = |p: &mut Prover<'_>, m: &str, (pn, dn): (u32, u32)| {
        let key = p.key_after(at(m));
        p.store(
            key,
            Entry {
                pn,
                dn,
                work: 0,
                moves: None,
            },
        );
    };
    // At the root (Black's): j10 starts at proof number 2 and g7 at 3, but the table has
    // j10 at 5 by now; g7 is not in the table, so it counts at its starting 3.
    store(&mut p, (3, 2), &[("j10", 2, 1), ("g7", 3, 1)]);
    store_child(&mut p, "j10", (5, 1));
    assert_eq!(p.most_proving_line(), vec![at("g7")]);
    // Below g7 (White's node): of f6 (disproof number 4 in the table) and k11 (starting at
    // 2), the reply of least disproof number.
    p.board.play_unchecked(at("g7"));
    store(&mut p, (3, 2), &[("f6", 1, 1), ("k11", 1, 2)]);
    store_child(&mut p, "f6", (1, 4));
    p.board.undo();
    assert_eq!(p.most_proving_line(), vec![at("g7"), at("k11")]);
    // A settled node ends the line there.
    p.board.play_unchecked(at("g7"));
    let key = p.board.canonical().key;
    p.store(key, Entry::PROVED);
    p.board.undo();
    assert_eq!(p.most_proving_line(), vec![at("g7")]);
}

/// An unknown answer says where the search was working: a line of legal moves from the
/// root, the attacker's first, the same on a second run (one thread); a proof's answer has
/// no such line.
#[test]
fn an_unknown_answer_gives_its_most_proving_line() {
    // Kagetsu's j7, one of the replies a short search does not prove.
    let board = position("h8 h9 i9 j7", Color::Black);
    let options = SolveOptions {
        limits: Limits {
            nodes: Some(300_000),
            ..Limits::default()
        },
        threads: Some(1),
        attacker: Some(Color::Black),
        ..SolveOptions::default()
    };
    let unknown = solve(&board, &options, &mut |_| {});
    assert_eq!(unknown.verdict, Verdict::Unknown);
    assert!(!unknown.most_proving.is_empty());
    // Cut short by its budget: a larger one might find the win.
    assert!(!unknown.narrowed_out(), "{:?}", unknown.note);
    let mut b = board.clone();
    for (i, &m) in unknown.most_proving.iter().enumerate() {
        let side = if i % 2 == 0 {
            Color::Black
        } else {
            Color::White
        };
        assert_eq!(b.to_move(), side, "move {i}");
        assert!(b.is_legal_for(m, side), "move {i}: {m}");
        b.play_unchecked(m);
    }
    let again = solve(&board, &options, &mut |_| {});
    assert_eq!(again.most_proving, unknown.most_proving);
    let won = solve(
        &vct_example(Color::Black),
        &SolveOptions::default(),
        &mut |_| {},
    );
    assert_eq!(won.verdict, Verdict::Win);
    assert!(won.most_proving.is_empty());
}

/// A search that ends before its limits without a win says so: its narrowed moves hold none,
/// so a larger budget would end the same way. Here White has an open four that Black, to
/// move, cannot stop: Black's win is ruled out at once, White's is not looked for.
#[test]
fn a_search_whose_narrowed_moves_hold_no_win_says_a_larger_budget_would_not_help() {
    let board = position("a1 h5 a3 h6 a5 h7 a7 h8", Color::Black);
    for (attacker, full_width) in [(Some(Color::Black), false), (None, false), (None, true)] {
        let options = SolveOptions {
            limits: Limits {
                nodes: Some(1_000_000),
                ..Limits::default()
            },
            threads: Some(1),
            attacker,
            full_width,
            ..SolveOptions::default()
        };
        let answer = solve(&board, &options, &mut |_| {});
        if attacker.is_some() {
            assert_eq!(answer.verdict, Verdict::Unknown);
            assert!(answer.narrowed_out(), "{:?}", answer.note);
            assert!(answer.nodes < 1_000_000);
        } else {
            // Both searches: White's win is found, a proved loss is no narrowed-out answer.
            assert_eq!(answer.verdict, Verdict::Loss, "full width {full_width}");
            assert!(!answer.narrowed_out());
        }
    }
}
