//! The database as a guide: its settled positions are known in every form with their winner
//! and give their proofs, a search takes a guide and its proof stands without it, and a guide
//! that lies never makes a wrong result.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use renju::db::{Builder, Index, Node};
use renju::notation::{PositionOptions, parse_position};
use renju::rules::{Board, Color, Rule, Rules, Size, Symmetry};
use renju::solve::{Known, SolveOptions, Verdict, solve};

use super::{checked, databases, positions, renju_db_of};

#[test]
fn settled_positions_are_known_in_every_form_with_their_winner() {
    for db in databases() {
        let settled = Builder::extend(db.clone()).settled();
        assert!(!settled.is_empty(), "{}", db.describe());
        for (board, n, _) in positions(&db) {
            let want = match &db.nodes[n as usize] {
                Node::Move { .. } | Node::Vcf(_) => board.to_move(),
                Node::Replies { .. } => board.to_move().opponent(),
                Node::Five => continue,
            };
            for &s in Symmetry::of(db.size) {
                let image = board.transformed(s);
                assert_eq!(
                    settled.winner(&image),
                    Some(want),
                    "{} under {s}",
                    db.describe()
                );
            }
        }
        let empty = Board::new(db.size, db.rules);
        if Index::build(&db).get(&empty).is_none() {
            assert_eq!(settled.winner(&empty), None);
        }
    }
}

/// Every stored position gives its proof, in the orientation of the board that asks: a proof
/// for the side that wins it, on that board's stones, that checks on its own. Each position is
/// asked in two forms (as walked, and in a symmetric image); a position not stored gives none.
#[test]
fn settled_positions_give_their_proofs_in_the_asking_board_s_orientation() {
    for db in databases() {
        let settled = Builder::extend(db.clone()).settled();
        let symmetries = Symmetry::of(db.size);
        let mut asked = 0;
        for (i, (board, n, _)) in positions(&db).into_iter().enumerate() {
            if matches!(db.nodes[n as usize], Node::Five) {
                continue;
            }
            for s in [Symmetry::Identity, symmetries[(i + 1) % symmetries.len()]] {
                let image = board.transformed(s);
                let what = format!(
                    "{} after `{}` under {s}",
                    db.describe(),
                    image.moves().len()
                );
                let proof = settled.proof(&image).expect(&what);
                assert_eq!(Some(proof.attacker), settled.winner(&image), "{what}");
                assert_eq!(proof.to_move, image.to_move(), "{what}");
                let stones = |c: Color| {
                    let mut v: Vec<String> = image
                        .stones()
                        .filter(|&(_, s)| s == c)
                        .map(|(p, _)| p.to_string())
                        .collect();
                    v.sort();
                    v
                };
                let mut black = proof.black.clone();
                black.sort();
                let mut white = proof.white.clone();
                white.sort();
                assert_eq!(
                    (black, white),
                    (stones(Color::Black), stones(Color::White)),
                    "{what}"
                );
                let mut alone = Builder::new(db.rules, db.size);
                alone.add_proof(&proof).expect(&what);
                let report = checked(&alone.finish());
                assert!(report.ok, "{what}: {:?}", report.errors);
                asked += 1;
            }
        }
        assert!(asked > 0, "{}", db.describe());
        let empty = Board::new(db.size, db.rules);
        if Index::build(&db).get(&empty).is_none() {
            assert!(settled.proof(&empty).is_none());
        }
    }
}

/// quintet's `test_vct_black` (`data/examples/vct.txt`): Black to move wins by a VCT that
/// starts at f10.
fn vct_black() -> Board {
    let options = PositionOptions {
        to_move: Some(Color::Black),
        ..PositionOptions::default()
    };
    parse_position(include_str!("../../../data/examples/vct.txt"), &options).unwrap()
}

/// A guide that counts the positions it answers.
fn counting(
    answer: impl Fn(&Board) -> Option<Color> + Send + Sync + 'static,
) -> (Known, Arc<AtomicUsize>) {
    let answered = Arc::new(AtomicUsize::new(0));
    let count = answered.clone();
    let known = Known::new(move |board: &Board| {
        let winner = answer(board);
        if winner.is_some() {
            count.fetch_add(1, Ordering::Relaxed);
        }
        winner
    });
    (known, answered)
}

#[test]
fn a_guide_from_a_database_is_taken_and_the_proof_stands_without_it() {
    let root = vct_black();
    // Black's f10, the VCT's first move, proved on its own and stored.
    let mut after = root.clone();
    after.play("f10".parse().unwrap()).unwrap();
    let below = solve(&after, &SolveOptions::default(), &mut |_| {});
    assert_eq!(below.verdict, Verdict::Loss);
    let mut builder = Builder::new(Rules::renju(), Size::STANDARD);
    builder.add_proof(below.proof.as_ref().unwrap()).unwrap();
    let settled = builder.settled();
    let (known, answered) = counting(move |board| settled.winner(board));
    // Without VCT leaves (nor the root's VCT), the proof search itself meets f10.
    let options = SolveOptions {
        vct_nodes: Some(0),
        known: Some(known),
        ..SolveOptions::default()
    };
    let solution = solve(&root, &options, &mut |_| {});
    assert_eq!(solution.verdict, Verdict::Win);
    assert!(
        answered.load(Ordering::Relaxed) > 0,
        "the guide was not consulted"
    );
    // The proof is whole: checked on its own, in a database of its own.
    let proof = solution.proof.unwrap();
    let report = checked(&renju_db_of(&[&proof]));
    assert!(report.ok, "{:?}", report.errors);
}

#[test]
fn a_guide_that_lies_costs_nodes_and_never_makes_a_wrong_result() {
    // Two stones: neither side has a win the search can find within the limit.
    let options = PositionOptions::default();
    let board = parse_position("h8 h9", &options).unwrap();
    let limits = renju::threat::Limits {
        nodes: Some(30_000),
        ..renju::threat::Limits::default()
    };
    let honest = solve(
        &board,
        &SolveOptions {
            limits: limits.clone(),
            ..SolveOptions::default()
        },
        &mut |_| {},
    );
    assert_eq!(honest.verdict, Verdict::Unknown);
    for liar in [Color::Black, Color::White] {
        // Every position below the root "won" by `liar`.
        let (known, answered) = counting(move |_| Some(liar));
        let options = SolveOptions {
            limits: limits.clone(),
            known: Some(known),
            ..SolveOptions::default()
        };
        let solution = solve(&board, &options, &mut |_| {});
        assert!(answered.load(Ordering::Relaxed) > 0);
        assert_eq!(
            solution.verdict,
            Verdict::Unknown,
            "a guide won for {liar:?}"
        );
        assert!(solution.proof.is_none());
    }
}

#[test]
fn full_width_ignores_the_guide_whose_disproofs_would_make_draws() {
    // Freestyle, three in a row on the empty 4x4 board: Black to move wins. A guide that calls
    // every position won by White would disprove Black's every move, and a draw in full width
    // is two disproofs, with no proof to read out: the guide is not consulted there.
    let rules = Rules::new(Rule::Freestyle, Some(3)).unwrap();
    let board = Board::new(Size::square(4).unwrap(), rules);
    let (known, answered) = counting(|_| Some(Color::White));
    let options = SolveOptions {
        full_width: true,
        known: Some(known),
        ..SolveOptions::default()
    };
    let solution = solve(&board, &options, &mut |_| {});
    assert_eq!(solution.verdict, Verdict::Win);
    assert_eq!(answered.load(Ordering::Relaxed), 0);
}
