//! Unit tests of the VCT search: its table, progress, resumption, and proof trees.

use super::*;
use crate::notation::{PositionOptions, parse_position};
use crate::rules::{Point, Symmetry};
use crate::threat::zone::breaking_replies;
use crate::threat::{Certificate, Ending, Line, TreeNode};

fn example() -> Board {
    let options = PositionOptions {
        to_move: Some(Color::Black),
        ..PositionOptions::default()
    };
    parse_position(include_str!("../../../data/examples/vct.txt"), &options).unwrap()
}

fn tree_of(board: &Board) -> ProofTree {
    let options = VctOptions {
        threat_fours: Some(3),
        ..VctOptions::default()
    };
    let found = prove(
        board,
        Color::Black,
        &options,
        &mut VcfTable::default(),
        &mut VctTable::default(),
        true,
    );
    assert!(found.won && !found.exhausted);
    found.tree.expect("a won search rebuilds its tree")
}

/// A full table drops its open entries and keeps the proved and disproved ones, unless
/// those alone fill more than half of it.
#[test]
fn making_room_keeps_the_settled_entries() {
    let open = |pn| Entry {
        pn,
        dn: 3,
        len: 0,
        certificate_len: 0,
        moves: Some(
            vec![Move {
                point: Point::new(7, 7),
                pn: 2,
            }]
            .into(),
        ),
    };
    let disproved = Entry {
        pn: INF,
        dn: 0,
        ..open(1)
    };
    let mut table = EntryTable::default();
    table.insert(1, open(2));
    table.insert(2, Entry::proved(3));
    table.insert(3, disproved.clone());
    table.insert(4, open(5));
    make_room(&mut table, 4);
    let kept: Vec<u64> = (1..=4).filter(|&k| table.contains_key(k)).collect();
    assert_eq!(kept, [2, 3]);
    assert_eq!(table.len(), 2);
    table.insert(5, Entry::proved(1));
    make_room(&mut table, 4);
    assert_eq!(
        table.len(),
        0,
        "three settled entries fill more than half of 4"
    );
}

/// A table far too small for the search still proves the win: proved and disproved
/// positions survive each time it makes room, and the proof tree rebuilt from them holds.
#[test]
fn a_search_in_a_small_table_still_wins() {
    let board = example();
    let roomy = vct(&board, Color::Black, &VctOptions::default());
    let cramped = VctOptions {
        table_entries: Some(500),
        ..VctOptions::default()
    };
    let small = vct(&board, Color::Black, &cramped);
    assert!(matches!(roomy.outcome, Outcome::Win(_)));
    assert!(
        matches!(small.outcome, Outcome::Win(_)),
        "{:?}",
        small.outcome
    );
    assert!(small.nodes > roomy.nodes, "500 entries made no room");
    let mut table = VctTable::default();
    let found = prove(
        &board,
        Color::Black,
        &cramped,
        &mut VcfTable::default(),
        &mut table,
        true,
    );
    assert!(found.won && table.0.len() <= 2000);
    let tree = found.tree.expect("a won search rebuilds its tree");
    assert!(tree.holds(&mut board.clone(), Color::Black));
    // The memory bound leaves a quarter of it to the VCF table and the rest to this one.
    let bounded = VctOptions {
        memory_mb: Some(16),
        ..VctOptions::default()
    };
    assert_eq!(bounded.table_cap(), (16 << 20) / 4 * 3 / ENTRY_BYTES);
}

/// The progress counter ends at the report's node count, on one thread and on several.
#[test]
fn progress_counts_every_node() {
    let board = example();
    for threads in [1, 3] {
        let counter = Arc::new(AtomicU64::new(0));
        let report = vct(
            &board,
            Color::Black,
            &VctOptions {
                threads: Some(threads),
                progress: Some(counter.clone()),
                ..VctOptions::default()
            },
        );
        assert!(report.nodes > PROGRESS_EVERY, "too small to count in steps");
        assert_eq!(
            counter.load(Ordering::Relaxed),
            report.nodes,
            "{threads} threads"
        );
    }
}

/// Simulation is sound only if `holds` fails where the proof does: a white stone on the
/// first threat breaks it, a far one does not, and a mirrored tree holds on the mirrored
/// board.
#[test]
fn a_proof_holds_only_where_it_still_wins() {
    let board = example();
    let tree = tree_of(&board);
    assert!(tree.holds(&mut board.clone(), Color::Black));
    let first = match &tree.nodes[tree.root] {
        TreeNode::Move { play, .. } => *play,
        TreeNode::Vcf(line) => line.moves[0],
        TreeNode::Replies { .. } => panic!("the root is an attacker node"),
    };
    for (at, holds) in [(first, false), ("a1".parse().unwrap(), true)] {
        let mut other = board.clone();
        other.put(at, Color::White).unwrap();
        other.set_to_move(Color::Black);
        assert_eq!(tree.holds(&mut other, Color::Black), holds, "white at {at}");
    }
    let size = board.size();
    for s in Symmetry::ALL {
        let mut image = Board::new(size, board.rules());
        for (p, c) in board.stones() {
            image.put(s.apply(p, size), c).unwrap();
        }
        image.set_to_move(Color::Black);
        assert!(
            tree.map(|p| s.apply(p, size))
                .holds(&mut image, Color::Black)
        );
        let wrong = s != Symmetry::Identity;
        assert!(!wrong || !tree.holds(&mut image, Color::Black), "{s:?}");
    }
}

/// A lent tree may list replies that do not break the certificate on the board where it is
/// used (they broke it on the sibling's board). `holds` rightly ignores them, so their
/// subtrees are unchecked: the tree as played leaves them out, and keeps no node it does not
/// reach.
#[test]
fn a_tree_as_played_lists_only_the_replies_that_break_it() {
    let board = example();
    let mut tree = tree_of(&board);
    let TreeNode::Move { play, child } = tree.nodes[tree.root] else {
        panic!("the example is won by a threat, not a VCF");
    };
    let mut after = board.clone();
    after.play_unchecked(play);
    let TreeNode::Replies {
        certificate: Certificate::Line(certificate),
        ..
    } = &tree.nodes[child]
    else {
        panic!("a threat's child is a defender node with a VCF certificate");
    };
    let breaking = breaking_replies(&mut after, Color::Black, certificate);
    let stray: Point = "a1".parse().unwrap();
    assert!(after.is_empty(stray) && breaking.iter().all(|&(r, _)| r != stray));
    // A subtree no replay on this board would accept: its VCF starts on a taken point.
    let bogus = tree.nodes.len();
    tree.nodes.push(TreeNode::Vcf(Line {
        moves: vec![play],
        ending: Ending::Five,
    }));
    if let TreeNode::Replies { replies, .. } = &mut tree.nodes[child] {
        replies.push((stray, bogus));
    }
    assert!(tree.holds(&mut board.clone(), Color::Black));
    let played = tree.as_played(&mut board.clone(), Color::Black).unwrap();
    assert!(played.holds(&mut board.clone(), Color::Black));
    assert!(played.nodes.len() < tree.nodes.len());
    let mut listed = played.nodes.iter().flat_map(|n| match n {
        TreeNode::Replies { replies, .. } => replies.clone(),
        _ => Vec::new(),
    });
    assert!(listed.all(|(r, _)| r != stray));
    // Every node but the root is some node's child.
    let children: std::collections::HashSet<usize> = played
        .nodes
        .iter()
        .flat_map(|n| match n {
            TreeNode::Move { child, .. } => vec![*child],
            TreeNode::Replies { replies, .. } => replies.iter().map(|&(_, c)| c).collect(),
            TreeNode::Vcf(_) => Vec::new(),
        })
        .collect();
    assert_eq!(children.len() + 1, played.nodes.len());
    assert!(!children.contains(&played.root));
}

/// A search stopped by its node budget and given its table back goes on where it stopped:
/// it wins within fewer nodes than a fresh search needs.
#[test]
fn a_kept_table_resumes_the_search() {
    let board = example();
    let options = |nodes| VctOptions {
        threat_fours: Some(3),
        limits: Limits {
            nodes: Some(nodes),
            ..Limits::default()
        },
        ..VctOptions::default()
    };
    let fresh = prove(
        &board,
        Color::Black,
        &options(u64::MAX),
        &mut VcfTable::default(),
        &mut VctTable::default(),
        false,
    );
    assert!(fresh.won);
    let mut table = VctTable::default();
    let first = prove(
        &board,
        Color::Black,
        &options(fresh.nodes * 3 / 4),
        &mut VcfTable::default(),
        &mut table,
        false,
    );
    assert!(!first.won && !first.exhausted, "stopped before the win");
    let rest = prove(
        &board,
        Color::Black,
        &options(u64::MAX),
        &mut VcfTable::default(),
        &mut table,
        true,
    );
    assert!(rest.won && rest.tree.is_some());
    assert!(
        rest.nodes < fresh.nodes / 2,
        "resumed in {} nodes, fresh takes {}",
        rest.nodes,
        fresh.nodes
    );
}

/// A lent tree can reach an attacker node where the attacker already has a five to play
/// (where the tree was found, a defender stone stood on that point). As played, the node is
/// that five: a line that first makes another four has won with its first move by the
/// checker's count, and may not go on.
#[test]
fn a_tree_as_played_ends_with_a_five_already_there() {
    let mut board = Board::new(crate::rules::Size::STANDARD, crate::rules::Rules::renju());
    for p in [
        "h8", "i8", "j8", "k8", "d4", "e4", "f4", "m10", "m11", "m12",
    ] {
        board.put(p.parse().unwrap(), Color::Black).unwrap();
    }
    for p in ["g8", "c4", "a1", "c1", "e1", "g1"] {
        board.put(p.parse().unwrap(), Color::White).unwrap();
    }
    board.set_to_move(Color::Black);
    let l8: Point = "l8".parse().unwrap();
    assert_eq!(board.five_points(Color::Black), vec![l8]);
    // Found where White stood on l8: g4 is a four, h4 is forced, and m13 makes an open four.
    let names = |s: &str| s.split_whitespace().map(|m| m.parse().unwrap()).collect();
    let tree = ProofTree {
        root: 0,
        nodes: vec![TreeNode::Vcf(Line {
            moves: names("g4 h4 m13"),
            ending: Ending::Five,
        })],
    };
    assert!(tree.holds(&mut board.clone(), Color::Black));
    let played = tree.as_played(&mut board.clone(), Color::Black).unwrap();
    let TreeNode::Vcf(line) = &played.nodes[played.root] else {
        panic!("a five to play is a VCF leaf");
    };
    assert_eq!(line.moves, vec![l8]);
}

/// The 1+ε trick's ε changes the order of the search, and so its node count, but never its
/// result: the example is won either way, and each proof holds on the board.
#[test]
fn epsilon_changes_the_search_not_the_result() {
    let board = example();
    let search = |one_over_epsilon| {
        let options = VctOptions {
            threat_fours: Some(3),
            one_over_epsilon,
            ..VctOptions::default()
        };
        prove(
            &board,
            Color::Black,
            &options,
            &mut VcfTable::default(),
            &mut VctTable::default(),
            true,
        )
    };
    let quarter = search(None);
    let eighth = search(Some(8));
    for found in [&quarter, &eighth] {
        assert!(found.won && !found.exhausted);
        let tree = found.tree.as_ref().expect("a won search rebuilds its tree");
        assert!(tree.holds(&mut board.clone(), Color::Black));
    }
    assert_ne!(quarter.nodes, eighth.nodes, "ε should change the search");
}
