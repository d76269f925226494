//! Certificates that are whole proofs: the checker refuses one with a listed reply removed or
//! a move changed, passes over a reply the certificate made forbidden, and a proof's
//! certificate subtrees are stored as found.

use std::sync::OnceLock;

use renju::db::{Certificate, Database, Node};
use renju::notation::{PositionOptions, parse_position};
use renju::solve::{SolveOptions, Verdict, solve};

use super::{assert_rejected, assert_rejected_with, checked, empty_cell_at, mutate, renju_db_of};

/// The proof of Kagetsu with White's 4th stone thrown away to a1 (Black to move wins): its
/// quiet attacker moves are answered by certificates that are whole proofs (the pass
/// position's node), each with the replies that stop it listed.
fn pass_db() -> &'static Database {
    static DB: OnceLock<Database> = OnceLock::new();
    DB.get_or_init(|| {
        let board = parse_position("h8 h9 i9 a1", &PositionOptions::default()).unwrap();
        let won = solve(&board, &SolveOptions::default(), &mut |_| {});
        assert_eq!(won.verdict, Verdict::Win);
        let db = renju_db_of(&[&won.proof.unwrap()]);
        let report = checked(&db);
        assert!(report.ok, "{:?}", report.errors);
        db
    })
}

#[test]
fn a_listed_reply_removed_from_a_pass_certificates_node_is_rejected() {
    let db = pass_db();
    let bad = mutate(db, |_, i| match &db.nodes[i] {
        Node::Replies {
            certificate: certificate @ Some(Certificate::Proof(_)),
            replies,
        } if !replies.is_empty() => Some(Node::Replies {
            certificate: certificate.clone(),
            replies: replies[1..].to_vec(),
        }),
        _ => None,
    });
    assert_rejected_with(
        &bad,
        "a reply that stops the certificate left unlisted",
        "not answered",
    );
}

#[test]
fn a_move_changed_inside_a_certificate_proof_is_rejected() {
    let db = pass_db();
    // The pass position's node is the certificate: its winning move, moved elsewhere.
    let pass = db
        .nodes
        .iter()
        .find_map(|n| n.pass())
        .expect("a certificate that is a proof")
        .node as usize;
    let Node::Move { play, child } = &db.nodes[pass] else {
        panic!("the pass position's node is an attacker move");
    };
    let mut bad = db.clone();
    bad.nodes[pass] = Node::Move {
        play: empty_cell_at(db, pass, &[*play]),
        child: *child,
    };
    assert_rejected(&bad, "a certificate proof's move changed");
}

/// A certificate proof replayed after a reply can meet, inside it, a defender node that lists
/// a reply which is no reply any more: here, on a ladder rung solved with a VCT leaf budget of
/// 50, Black's m5 makes j5 forbidden for Black, and a node of the certificate lists j5. The
/// solver judges the certificate after m5 without it (a forbidden point needs no answer), so
/// m5 is not listed; the checker must pass over j5 the same way, and not refuse the proof.
#[test]
fn a_certificate_replayed_after_a_reply_passes_over_a_listed_reply_it_made_forbidden() {
    let rung = crate::ladder::rungs()
        .into_iter()
        .find(|r| r.id == "ladder/test_vct_forbidden_breaker-i5-i9")
        .expect("the rung");
    let options = SolveOptions {
        vct_nodes: Some(50),
        threads: Some(1),
        ..SolveOptions::default()
    };
    let solved = solve(&rung.board(), &options, &mut |_| {});
    assert_eq!(solved.verdict, Verdict::Loss);
    let db = renju_db_of(&[&solved.proof.unwrap()]);
    assert!(
        db.nodes.iter().any(|n| n.pass().is_some()),
        "the proof has a certificate that is a whole proof"
    );
    let report = checked(&db);
    assert!(report.ok, "{:?}", report.errors);
}

/// A certificate proof is replayed with replies on the board, and the solver lists only the
/// replies after which its own proof fails. Another proof of one of its positions need not
/// stand those replays: Kagetsu's White 4th moves l13 and d13 are mirror images, and their
/// proofs' certificates reach the same positions by different proofs. Stored together, the
/// second must keep its own certificate subtrees, or `check` refuses it.
#[test]
fn certificate_proofs_are_stored_as_found_not_shared_with_another_proof() {
    let mut proofs = Vec::new();
    for reply in ["l13", "d13"] {
        let board =
            parse_position(&format!("h8 h9 i9 {reply}"), &PositionOptions::default()).unwrap();
        let options = SolveOptions {
            threads: Some(1),
            ..SolveOptions::default()
        };
        let won = solve(&board, &options, &mut |_| {});
        assert_eq!(won.verdict, Verdict::Win, "{reply}");
        let proof = won.proof.unwrap();
        assert!(checked(&renju_db_of(&[&proof])).ok, "{reply} alone");
        proofs.push(proof);
    }
    let db = renju_db_of(&[&proofs[0], &proofs[1]]);
    let report = checked(&db);
    assert!(report.ok, "{:?}", report.errors);
}
