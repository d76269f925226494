//! The solution database and the independent checker: proofs solved into a database pass
//! `check`, every stored position answers `query` in all its symmetric forms, and every
//! mutation of a good database is rejected by the checker. The file format, certificates that
//! are whole proofs, and the database as a guide have modules of their own.

use std::sync::OnceLock;

use renju::check::verify::{Report, check};
use renju::db::{
    Builder, Cell, Certificate, Database, DbError, Index, Node, Visit, decode, encode, query,
};
use renju::notation::{PositionOptions, parse_position};
use renju::rules::{Board, Color, Point, Rule, Rules, Size, Symmetry};
use renju::solve::{Proof, SolveOptions, Verdict, solve};

use crate::solve::board_of;
use crate::threats::{case, cases};

/// The quintet VCT positions `solve` proves quickly, each as a win for the side to move, and
/// after its first winning move as a loss; and two small freestyle boards proved with every
/// reply listed (full width).
fn proofs() -> &'static Vec<Proof> {
    static PROOFS: OnceLock<Vec<Proof>> = OnceLock::new();
    PROOFS.get_or_init(|| {
        let quick = [
            "quintet/test_vct_black",
            "quintet/test_vct_white",
            "quintet/test_vct_counter",
            "quintet/test_vct_forbidden_breaker",
            "quintet/test_vct_fukumi_move",
            "quintet/test_vct_dual_forbiddens",
        ];
        let mut proofs = Vec::new();
        for case in cases()
            .into_iter()
            .filter(|c| quick.contains(&c.id.as_str()))
        {
            let mut board = board_of(&case, case.attacker.parse().unwrap());
            let won = solve(&board, &SolveOptions::default(), &mut |_| {});
            assert_eq!(won.verdict, Verdict::Win, "{}", case.id);
            board.play(won.best_move.unwrap()).unwrap();
            let lost = solve(&board, &SolveOptions::default(), &mut |_| {});
            assert_eq!(
                lost.verdict,
                Verdict::Loss,
                "{} after the first move",
                case.id
            );
            proofs.extend(won.proof);
            proofs.extend(lost.proof);
        }
        for size in [Size::new(4, 3).unwrap(), Size::new(4, 4).unwrap()] {
            let rules = Rules::new(Rule::Freestyle, Some(3)).unwrap();
            let options = SolveOptions {
                full_width: true,
                ..SolveOptions::default()
            };
            let won = solve(&Board::new(size, rules), &options, &mut |_| {});
            assert_eq!(won.verdict, Verdict::Win);
            proofs.extend(won.proof);
        }
        proofs
    })
}

/// One database per rule set and size, from [`proofs`].
fn databases() -> Vec<Database> {
    let mut builders: Vec<Builder> = Vec::new();
    for proof in proofs() {
        let (rules, size) = renju::db::proof_rules(proof).unwrap();
        let i = match builders
            .iter()
            .position(|b| b.database().rules == rules && b.database().size == size)
        {
            Some(i) => i,
            None => {
                builders.push(Builder::new(rules, size));
                builders.len() - 1
            }
        };
        builders[i].add_proof(proof).unwrap();
    }
    builders.into_iter().map(Builder::finish).collect()
}

/// The renju database of the quintet proofs.
fn renju_db() -> Database {
    databases()
        .into_iter()
        .find(|db| db.rules == Rules::renju())
        .unwrap()
}

/// A 15x15 renju database of `proofs`, added in order.
fn renju_db_of(proofs: &[&Proof]) -> Database {
    let mut builder = Builder::new(Rules::renju(), Size::STANDARD);
    for proof in proofs {
        builder.add_proof(proof).unwrap();
    }
    builder.finish()
}

fn checked(db: &Database) -> Report {
    check(db, &|_| {})
}

fn assert_rejected(db: &Database, what: &str) -> Report {
    let report = checked(db);
    assert!(!report.ok, "{what}: the checker accepted it");
    assert!(!report.errors.is_empty(), "{what}: no error listed");
    report
}

/// [`assert_rejected`], with some error's problem naming `needle`.
fn assert_rejected_with(db: &Database, what: &str, needle: &str) -> Report {
    let report = assert_rejected(db, what);
    assert!(
        report.errors.iter().any(|e| e.problem.contains(needle)),
        "{what}: no error says {needle:?}: {:?}",
        report.errors
    );
    report
}

/// Every explicit position of `db`: the board (in the root's stored orientation), its node,
/// and the symmetry from the node's orientation onto the board's.
fn positions(db: &Database) -> Vec<(Board, u32, Symmetry)> {
    let mut out = Vec::new();
    for root in &db.roots {
        renju::db::walk(db, root, &mut |board, n, frame| {
            out.push((board.clone(), n, frame));
            Visit::Descend
        });
    }
    out
}

#[test]
fn solved_proofs_round_trip_and_check() {
    for db in databases() {
        let bytes = encode(&db).unwrap();
        let back = decode(&bytes).unwrap();
        assert_eq!(
            back,
            db,
            "{}: decode(encode) changed the database",
            db.describe()
        );
        assert_eq!(encode(&back).unwrap(), bytes);
        let report = checked(&back);
        assert!(report.ok, "{}: {:?}", db.describe(), report.errors);
        assert_eq!(report.roots, db.roots.len());
        assert!(report.nodes_checked >= db.nodes.len(), "{}", db.describe());
    }
}

#[test]
fn query_answers_every_stored_position_in_all_its_forms() {
    for db in databases() {
        let index = Index::build(&db);
        let depths = db.depths();
        let all = positions(&db);
        assert!(all.len() >= db.nodes.len());
        for (board, n, frame) in &all {
            let node = &db.nodes[*n as usize];
            for &s in Symmetry::of(db.size) {
                let image = board.transformed(s);
                let answer = query(&db, &index, &depths, &image);
                let want = match node {
                    Node::Move { .. } | Node::Vcf(_) => "win",
                    Node::Replies { .. } => "loss",
                    Node::Five => continue,
                };
                assert_eq!(answer.result, want, "{} under {s}", db.describe());
                assert_eq!(answer.depth, Some(depths[*n as usize]));
                if let Node::Move { play, .. } = node {
                    // The stored move, mapped; or its image under a symmetry of the position
                    // itself (the empty board's corner moves are all the same move).
                    let m = s.apply(frame.apply(db.point(*play).unwrap(), db.size), db.size);
                    let same: Vec<String> = Symmetry::of(db.size)
                        .iter()
                        .filter(|&&u| image.transformed(u).hash() == image.hash())
                        .map(|&u| u.apply(m, db.size).to_string())
                        .collect();
                    let best = answer.best_move.clone().unwrap();
                    assert!(same.contains(&best), "{best} is not among {same:?}");
                }
            }
        }
        // A position not in the database.
        let empty = Board::new(db.size, db.rules);
        if index.get(&empty).is_none() {
            assert_eq!(query(&db, &index, &depths, &empty).result, "unknown");
        }
    }
}

#[test]
fn symmetric_and_repeated_proofs_are_stored_once() {
    let proof = &proofs()[0];
    let mut builder = Builder::new(Rules::renju(), Size::STANDARD);
    builder.add_proof(proof).unwrap();
    let once = builder.database().clone().compacted();
    // The same proof again, and its mirror image, add nothing.
    assert_eq!(builder.add_proof(proof).unwrap(), renju::db::Added::Kept);
    let mirrored = mirror(proof, Symmetry::Rotate90);
    assert_eq!(
        builder.add_proof(&mirrored).unwrap(),
        renju::db::Added::Kept
    );
    let db = builder.finish();
    assert_eq!(db.nodes.len(), once.nodes.len());
    assert_eq!(db.roots.len(), 1);
    assert!(checked(&db).ok);
    // Stored alone, the mirror image checks, and answers queries in the original's form.
    let alone = renju_db_of(&[&mirrored]);
    assert!(checked(&alone).ok);
    let index = Index::build(&alone);
    let root = renju::db::submitted_stones(&once, &once.roots[0]);
    let mut board = Board::new(Size::STANDARD, Rules::renju());
    for p in root.0 {
        board.put(p, Color::Black).unwrap();
    }
    for p in root.1 {
        board.put(p, Color::White).unwrap();
    }
    board.set_to_move(proof.to_move);
    let answer = query(&alone, &index, &alone.depths(), &board);
    assert_eq!(answer.result, "win");
    assert_eq!(answer.best_move, proof.root_move().map(|p| p.to_string()));
}

/// `proof` with every point mapped by `s`.
fn mirror(proof: &Proof, s: Symmetry) -> Proof {
    let size: Size = proof.size.parse().unwrap();
    let map = |t: &String| s.apply(t.parse::<Point>().unwrap(), size).to_string();
    let mut out = proof.clone();
    out.black = proof.black.iter().map(map).collect();
    out.white = proof.white.iter().map(map).collect();
    for node in &mut out.nodes {
        match node {
            renju::solve::ProofNode::Move { play, .. } => *play = map(play),
            renju::solve::ProofNode::Vcf { line } => *line = line.iter().map(map).collect(),
            renju::solve::ProofNode::Replies {
                certificate,
                replies,
            } => {
                if let Some(renju::proof::Certificate::Line(c)) = certificate {
                    *c = c.iter().map(map).collect();
                }
                for r in replies.iter_mut() {
                    r.0 = map(&r.0);
                }
            }
            renju::solve::ProofNode::Five => {}
        }
    }
    out
}

#[test]
fn a_contradiction_names_both_positions() {
    // A win for Black to move, and the same position claimed as a loss for Black.
    let won = proofs()
        .iter()
        .find(|p| p.attacker == Color::Black && p.to_move == Color::Black)
        .unwrap();
    let mut builder = Builder::new(Rules::renju(), Size::STANDARD);
    builder.add_proof(won).unwrap();
    let mut lie = won.clone();
    lie.attacker = Color::White;
    lie.nodes = vec![renju::solve::ProofNode::Replies {
        certificate: None,
        replies: Vec::new(),
    }];
    lie.root = 0;
    let e = builder.add_proof(&lie).unwrap_err();
    assert!(matches!(e, DbError::Contradiction { .. }), "{e}");
    let text = e.to_string();
    assert!(
        text.contains("black wins") && text.contains("white wins"),
        "{text}"
    );
}

/// The first node (in file order) for which `pick` gives a mutation.
fn mutate(db: &Database, mut pick: impl FnMut(&Database, usize) -> Option<Node>) -> Database {
    let mut out = db.clone();
    for i in 0..db.nodes.len() {
        if let Some(node) = pick(db, i) {
            out.nodes[i] = node;
            return out;
        }
    }
    panic!("no node to mutate");
}

/// An empty cell not used by the node at `i`'s position: the first empty point of the board
/// at some stored position of that node.
fn empty_cell_at(db: &Database, i: usize, avoid: &[Cell]) -> Cell {
    let (board, _, frame) = positions(db)
        .into_iter()
        .find(|(_, n, _)| *n as usize == i)
        .unwrap();
    let back = frame.inverse();
    board
        .points()
        .filter(|&p| board.is_empty(p))
        .map(|p| db.cell(back.apply(p, db.size)))
        .find(|c| !avoid.contains(c))
        .unwrap()
}

#[test]
fn deleting_an_explicit_reply_is_rejected() {
    let db = renju_db();
    let bad = mutate(&db, |_, i| match &db.nodes[i] {
        Node::Replies {
            certificate,
            replies,
        } if !replies.is_empty() => Some(Node::Replies {
            certificate: certificate.clone(),
            replies: replies[1..].to_vec(),
        }),
        _ => None,
    });
    let report = assert_rejected(&bad, "a reply deleted");
    assert!(
        report.errors[0].problem.contains("not answered"),
        "{:?}",
        report.errors
    );
}

#[test]
fn changing_an_or_move_is_rejected() {
    let db = renju_db();
    let bad = mutate(&db, |db, i| match &db.nodes[i] {
        Node::Move { play, child } => Some(Node::Move {
            play: empty_cell_at(db, i, &[*play]),
            child: *child,
        }),
        _ => None,
    });
    assert_rejected(&bad, "an OR move changed");
}

#[test]
fn swapping_a_certificate_move_is_rejected() {
    let db = renju_db();
    let bad = mutate(&db, |db, i| match &db.nodes[i] {
        Node::Replies {
            certificate: Some(Certificate::Line(c)),
            replies,
        } if !c.is_empty() => {
            let mut swapped = c.clone();
            swapped[0] = empty_cell_at(db, i, c);
            Some(Node::Replies {
                certificate: Some(Certificate::Line(swapped)),
                replies: replies.clone(),
            })
        }
        _ => None,
    });
    assert_rejected(&bad, "a certificate move swapped");
}

#[test]
fn a_child_pointing_at_a_missing_node_is_rejected() {
    let db = renju_db();
    let missing = db.nodes.len() as u32 + 7;
    let bad = mutate(&db, |db, i| match &db.nodes[i] {
        Node::Move { play, child } => Some(Node::Move {
            play: *play,
            child: renju::db::Edge {
                node: missing,
                symmetry: child.symmetry,
            },
        }),
        _ => None,
    });
    let report = assert_rejected(&bad, "a dangling child");
    assert!(
        report.errors[0].problem.contains("does not exist"),
        "{:?}",
        report.errors
    );
    // The dangling reference survives the file.
    let back = decode(&encode(&bad).unwrap()).unwrap();
    assert_rejected(&back, "a dangling child, through the file");
}

#[test]
fn a_forbidden_black_move_in_a_proof_is_rejected() {
    let db = renju_db();
    // A black OR move whose position has a forbidden point: play that point instead.
    let mut found = None;
    for (board, n, frame) in positions(&db) {
        if board.to_move() != Color::Black || !matches!(db.nodes[n as usize], Node::Move { .. }) {
            continue;
        }
        if let Some(&(p, _)) = board.forbidden_points().first() {
            found = Some((n, db.cell(frame.inverse().apply(p, db.size))));
            break;
        }
    }
    let (n, forbidden) = found.expect("a black move next to a forbidden point");
    let mut bad = db.clone();
    if let Node::Move { play, .. } = &mut bad.nodes[n as usize] {
        *play = forbidden;
    }
    assert_rejected_with(&bad, "a forbidden black move", "forbidden");
}

#[test]
fn a_cycle_is_rejected() {
    let db = renju_db();
    // A child pointing back at its own parent.
    let bad = mutate(&db, |db, i| match &db.nodes[i] {
        Node::Move { play, child } => {
            let grand = &db.nodes[child.node as usize];
            let Node::Replies { .. } = grand else {
                return None;
            };
            Some(Node::Move {
                play: *play,
                child: renju::db::Edge {
                    node: i as u32,
                    symmetry: child.symmetry,
                },
            })
        }
        _ => None,
    });
    assert_rejected(&bad, "a cycle");
}

/// Sorted cells of 15x15 point names.
fn cells(names: &str) -> Vec<Cell> {
    let size = Size::STANDARD;
    let mut v: Vec<Cell> = names
        .split_whitespace()
        .map(|n| renju::db::cell_of(size, n.parse().unwrap()))
        .collect();
    v.sort_unstable();
    v
}

fn root(black: &str, white: &str, to_move: Color, attacker: Color, node: u32) -> renju::db::Root {
    renju::db::Root {
        black: cells(black),
        white: cells(white),
        to_move,
        attacker,
        node,
        symmetry: Symmetry::Identity,
    }
}

fn edge(node: u32) -> renju::db::Edge {
    renju::db::Edge {
        node,
        symmetry: Symmetry::Identity,
    }
}

/// Regression: a node verified under one root was taken as verified under
/// another whose attacker is the other side. Root 1 (Black to move, an open four: a five to
/// play) is true; root 2 claims White wins by a1 from the same stones without a1, which is
/// false (Black fives at g8), and its only node below a1 was node 0, verified for Black.
#[test]
fn a_node_verified_for_one_attacker_does_not_pass_for_the_other() {
    let mut db = Database::new(Rules::renju(), Size::STANDARD);
    db.nodes.push(Node::Vcf(Vec::new()));
    db.nodes.push(Node::Move {
        play: cells("a1")[0],
        child: edge(0),
    });
    db.roots.push(root(
        "h8 i8 j8 k8",
        "h9 i9 a1",
        Color::Black,
        Color::Black,
        0,
    ));
    db.roots
        .push(root("h8 i8 j8 k8", "h9 i9", Color::White, Color::White, 1));
    // On more threads the roots race; one thread checks them in order, root 1 first.
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    let report = pool.install(|| checked(&db));
    assert!(!report.ok, "the false root passed");
    assert_rejected(&db, "White's false win");
}

/// Regression: nothing below an attacker's move that makes a five was
/// checked, but `db query`, `export` and `merge` walk it. A winning move must lead to the five.
#[test]
fn a_winning_move_leads_to_the_five_and_nothing_else() {
    let mut db = Database::new(Rules::renju(), Size::STANDARD);
    let black = "h8 i8 j8 k8 d3 e3 f3 g3";
    let white = "a1 c1 e1 g1 o1 o3 a15";
    // Black l8 is a five; below it, a made-up line (White a2, Black m8, White o15 "wins").
    let moves = ["l8", "a2", "m8", "o15"];
    for (i, m) in moves.iter().enumerate() {
        db.nodes.push(Node::Move {
            play: cells(m)[0],
            child: edge(i as u32 + 1),
        });
    }
    db.nodes.push(Node::Vcf(Vec::new()));
    db.roots
        .push(root(black, white, Color::Black, Color::Black, 0));
    assert_rejected(&db, "moves after the five");
    // The honest form: the winning move leads to a five node.
    db.nodes.truncate(1);
    db.nodes.push(Node::Five);
    assert!(checked(&db).ok);
}

/// Regression: content `check` must look at, since `db export` and the RenLib export show it
/// and `db query`'s depth counts it: a reply listed twice (only the first entry checked), moves
/// after a VCF has won, and a certificate at a node that lists every reply (never replayed).
/// Each is rejected.
#[test]
fn nothing_stored_goes_unchecked() {
    // White to move; Black has the four h8-k8 and wins after either block.
    let black = "h8 i8 j8 k8";
    let white = "a1 a2 a3";
    let base = |nodes: Vec<Node>| {
        let mut db = Database::new(Rules::renju(), Size::STANDARD);
        db.nodes = nodes;
        db.roots
            .push(root(black, white, Color::White, Color::Black, 0));
        db
    };
    let g8 = cells("g8")[0];
    let l8 = cells("l8")[0];
    // The honest proof: every block listed, each answered by the five at the other end.
    let honest = vec![
        Node::Replies {
            certificate: Some(Certificate::Line(Vec::new())),
            replies: vec![(g8, edge(1)), (l8, edge(2))],
        },
        Node::Vcf(Vec::new()),
        Node::Vcf(Vec::new()),
    ];
    assert!(checked(&base(honest.clone())).ok);
    // g8 listed twice, the second entry leading to a made-up win by o15.
    let mut twice = honest.clone();
    if let Node::Replies { replies, .. } = &mut twice[0] {
        replies.push((g8, edge(3)));
    }
    twice.push(Node::Move {
        play: cells("o15")[0],
        child: edge(4),
    });
    twice.push(Node::Five);
    let report = assert_rejected(&base(twice), "a reply listed twice");
    assert!(
        report.errors[0].problem.contains("listed twice"),
        "{report:?}"
    );
    // A VCF that goes on after its five: a1 is taken, o15 is nowhere.
    let mut tail = honest.clone();
    tail[1] = Node::Vcf(vec![l8, cells("a1")[0], cells("o15")[0]]);
    let report = assert_rejected(&base(tail), "moves after the five");
    assert!(report.errors[0].problem.contains("after"), "{report:?}");
    // A certificate that does not win, at a node where every reply is listed.
    let mut garbage = honest;
    if let Node::Replies { certificate, .. } = &mut garbage[0] {
        *certificate = Some(Certificate::Line(cells("o15")));
    }
    assert_rejected(&base(garbage), "a certificate that does not win");
}

/// Regression: Zobrist keys combine by XOR, so a position with the same
/// canonical key as a stored one can be built by linear algebra over the (fixed, public) keys.
/// This 68-stone diagram shares its key with `h8 n2 i8 n3 j8 n4 k8 n5`, which Black wins; here
/// Black's four is dead and White has an open four, so Black does not. A lookup must not take
/// one for the other. (If the Zobrist keys ever change, the first assertion says this diagram
/// must be built again.)
#[test]
fn a_position_sharing_a_zobrist_key_is_not_taken_for_a_stored_one() {
    let options = PositionOptions {
        to_move: Some(Color::Black),
        ..PositionOptions::default()
    };
    let stored = parse_position("h8 n2 i8 n3 j8 n4 k8 n5", &options).unwrap();
    let collided = parse_position(
        "X.X.......X....
         ...O.O.O...O.O.
         X.X...X.X...X.X
         ...O.O.O.O.O.O.
         ..X............
         .O.O.O...O.O.O.
         X.X...........X
         ......OXXXXO...
         X.X...........X
         .O.O...O.O.....
         ..X.X...X...XOX
         .....O.....O.O.
         X.X.X...X...XOX
         .O.....O...O.O.
         ..X...X.X.X.X..",
        &options,
    )
    .unwrap();
    assert_eq!(stored.canonical().key, collided.canonical().key);
    let solution = solve(&stored, &SolveOptions::default(), &mut |_| {});
    assert_eq!(solution.verdict, Verdict::Win);
    let mut builder = Builder::new(Rules::renju(), Size::STANDARD);
    builder.add_proof(&solution.proof.unwrap()).unwrap();
    assert_eq!(builder.stored_winner(&collided), None);
    let db = builder.finish();
    let index = Index::build(&db);
    let depths = db.depths();
    assert_eq!(query(&db, &index, &depths, &stored).result, "win");
    assert_eq!(query(&db, &index, &depths, &collided).result, "unknown");
}

/// Regression: a root's proof replaced by a smaller one while another
/// root's proof still led into the old one left the position stored twice, and the walk
/// that indexes positions (first key wins) then never saw the positions below the old node,
/// so `db query` answered `unknown` for positions the database holds.
#[test]
fn a_stored_proof_that_another_proof_shares_is_not_replaced() {
    let q = board_of(&case("test_vct_black"), Color::Black);
    let mut p = q.clone();
    p.put("f10".parse().unwrap(), Color::Black).unwrap();
    p.put("j6".parse().unwrap(), Color::White).unwrap();
    let one = |vct_nodes| SolveOptions {
        threads: Some(1),
        vct_nodes,
        ..SolveOptions::default()
    };
    let proof = |board: &Board, options: &SolveOptions| {
        let solved = solve(board, options, &mut |_| {});
        assert_eq!(solved.verdict, Verdict::Win);
        solved.proof.unwrap()
    };
    let (p_first, q_proof, p_smaller) = (
        proof(&p, &one(None)),
        proof(&q, &one(None)),
        proof(&p, &one(Some(0))),
    );
    let build = |proofs: &[&Proof]| {
        let mut builder = Builder::new(Rules::renju(), Size::STANDARD);
        for proof in proofs {
            builder.add_proof(proof).unwrap();
        }
        builder
    };
    let before = build(&[&p_first, &q_proof]).finish();
    assert!(
        before
            .nodes
            .iter()
            .any(|n| n.children().any(|e| e.node == before.roots[0].node)),
        "the case needs q's proof to lead into p's"
    );
    let mut builder = build(&[&p_first, &q_proof]);
    assert_eq!(
        builder.add_proof(&p_smaller).unwrap(),
        renju::db::Added::Kept
    );
    let db = builder.finish();
    let index = Index::build(&db);
    assert_eq!(index.len(), db.nodes.len(), "a position stored twice");
    let depths = db.depths();
    for (board, node, _) in positions(&before) {
        let answer = query(&db, &index, &depths, &board);
        assert_ne!(
            answer.result, "unknown",
            "node {node} of the first database is lost"
        );
    }
    assert!(checked(&db).ok);
}

/// Regression: merging a root that claims White wins a position stored as
/// Black's five (a `Five` node, which names no winner) passed the contradiction test, and the
/// merged database failed `check`. Both orders are refused now.
#[test]
fn a_claim_against_a_stored_five_is_a_contradiction() {
    let won = Database {
        roots: vec![root(
            "h8 i8 j8 k8",
            "a1 a2 a3 o15",
            Color::Black,
            Color::Black,
            0,
        )],
        nodes: vec![
            Node::Move {
                play: cells("g8")[0],
                child: edge(1),
            },
            Node::Five,
        ],
        ..Database::new(Rules::renju(), Size::STANDARD)
    };
    assert!(checked(&won).ok);
    let bogus = Database {
        roots: vec![root(
            "g8 h8 i8 j8 k8",
            "a1 a2 a3 o15",
            Color::White,
            Color::White,
            0,
        )],
        nodes: vec![Node::Vcf(Vec::new())],
        ..Database::new(Rules::renju(), Size::STANDARD)
    };
    for (first, second) in [(&won, &bogus), (&bogus, &won)] {
        let mut builder = Builder::new(Rules::renju(), Size::STANDARD);
        builder.add_database(first).unwrap();
        let merged = builder.add_database(second);
        assert!(
            matches!(merged, Err(DbError::Contradiction { .. })),
            "{merged:?}"
        );
    }
}

mod certificates;
mod file;
mod guide;
