//! Unit tests of the file format: every record form the writer can choose, read back and
//! round-tripped, and an unknown record kind named.

use super::*;
use crate::db::Cell;

fn edge(node: u32, symmetry: Symmetry) -> Edge {
    Edge { node, symmetry }
}

/// Lists longer than the head holds, references forward and back, symmetric edges and
/// both kinds of defender node: every head form the writer can choose round-trips.
#[test]
fn every_record_form_round_trips() {
    let cells = |from: u16, n: u16| (from..from + n).collect::<Vec<Cell>>();
    let id = Symmetry::Identity;
    let turn = Symmetry::Rotate180;
    let mut replies: Vec<(Cell, Edge)> = vec![(0, edge(2, id))];
    replies.extend((1..17).map(|r| (r, edge(if r % 2 == 0 { 3 } else { 4 }, turn))));
    let nodes = vec![
        Node::Move {
            play: 112,
            child: edge(1, id),
        },
        // 17 replies, no certificate: the long coded form.
        Node::Replies {
            certificate: None,
            replies,
        },
        // Certificate of 9 and 9 replies: the long plain form, children inline.
        Node::Replies {
            certificate: Some(Certificate::Line(cells(100, 9))),
            replies: (0..9)
                .map(|k| (200 + k, edge(3 + u32::from(k), id)))
                .collect(),
        },
        Node::Vcf(cells(10, 40)),
        Node::Vcf(Vec::new()),
        Node::Vcf(cells(60, 31)),
        Node::Vcf(cells(60, 32)),
        Node::Move {
            play: 5,
            child: edge(0, turn),
        },
        Node::Replies {
            certificate: Some(Certificate::Line(Vec::new())),
            replies: vec![(7, edge(5, turn)), (8, edge(9, id))],
        },
        Node::Replies {
            certificate: None,
            replies: vec![(9, edge(10, id))],
        },
        Node::Replies {
            certificate: Some(Certificate::Line(cells(30, 7))),
            replies: cells(40, 7).into_iter().map(|c| (c, edge(3, id))).collect(),
        },
        Node::Five,
        // Certificates that are proofs: the pass position's node inline and plain, then
        // referred to from another node with a symmetry.
        Node::Replies {
            certificate: Some(Certificate::Proof(edge(13, id))),
            replies: vec![(50, edge(14, id))],
        },
        Node::Vcf(cells(70, 2)),
        Node::Vcf(cells(80, 3)),
        Node::Replies {
            certificate: Some(Certificate::Proof(edge(13, turn))),
            replies: (0..13).map(|k| (90 + k, edge(14, turn))).collect(),
        },
    ];
    let root = |node: u32| Root {
        black: vec![1, 2, 3],
        white: vec![4],
        to_move: Color::Black,
        attacker: Color::Black,
        node,
        symmetry: id,
    };
    let db = Database {
        rules: Rules::renju(),
        size: Size::STANDARD,
        roots: vec![root(0), root(11), root(7), root(12), root(15)],
        nodes,
    };
    let bytes = encode(&db).unwrap();
    let read = decode(&bytes).unwrap();
    assert_eq!(read, db.compacted());
    assert_eq!(read.nodes.len(), db.nodes.len());
    assert_eq!(encode(&read).unwrap(), bytes);
}

/// Each record kind, at the longest short form and the shortest long one, reads back as
/// written, with the head the format table gives.
#[test]
fn every_head_form_reads_back() {
    let line = |n: usize| (0..n as u16).collect::<Vec<u16>>();
    let coded = |n: usize| {
        (0..n as u16)
            .map(|c| (c, 8 + u32::from(c)))
            .collect::<Vec<_>>()
    };
    let cases = [
        (NodeRecord::Five, 0),
        (NodeRecord::Vcf(line(0)), 1),
        (NodeRecord::Vcf(line(31)), 32),
        (NodeRecord::Vcf(line(32)), 33),
        (NodeRecord::Move(224), 34),
        (NodeRecord::MoveTo(224, 300), 35),
        (NodeRecord::Replies(line(0), line(0)), 64),
        (NodeRecord::Replies(line(7), line(7)), 127),
        (NodeRecord::Replies(line(8), line(1)), 224),
        (NodeRecord::RepliesTo(line(1), coded(2)), 138),
        (NodeRecord::RepliesTo(line(7), coded(7)), 191),
        (NodeRecord::RepliesTo(line(0), coded(8)), 225),
        (NodeRecord::AllReplies(line(15)), 207),
        (NodeRecord::AllReplies(line(16)), 226),
        (NodeRecord::AllRepliesTo(coded(15)), 223),
        (NodeRecord::AllRepliesTo(coded(16)), 227),
        (NodeRecord::PassReplies(line(0)), 36),
        (NodeRecord::PassReplies(line(15)), 51),
        (NodeRecord::PassReplies(line(16)), 228),
        (NodeRecord::PassRepliesTo(9, coded(0)), 52),
        (NodeRecord::PassRepliesTo(0, coded(11)), 63),
        (NodeRecord::PassRepliesTo(17, coded(12)), 229),
    ];
    for (record, head) in cases {
        let mut body = Vec::new();
        record.write(&mut body);
        assert_eq!(body[0], head, "{record:?}");
        let mut reader = Reader { body: &body, at: 0 };
        let read = NodeRecord::read(&mut reader, VERSION, &|| "the record".into()).unwrap();
        assert_eq!(read, record);
        assert_eq!(reader.at, body.len(), "{record:?}");
    }
}

#[test]
fn an_unknown_head_is_an_error_naming_the_node() {
    let db = Database {
        rules: Rules::renju(),
        size: Size::STANDARD,
        roots: vec![Root {
            black: vec![],
            white: vec![],
            to_move: Color::Black,
            attacker: Color::Black,
            node: 0,
            symmetry: Symmetry::Identity,
        }],
        nodes: vec![Node::Five],
    };
    let mut bytes = encode(&db).unwrap();
    let last = bytes.len() - 1;
    bytes[last] = 230;
    let body = &bytes[HEADER_LEN..];
    let crc = crc32fast::hash(body).to_le_bytes();
    bytes[24..28].copy_from_slice(&crc);
    let e = decode(&bytes).unwrap_err().to_string();
    assert!(e.contains("node 0: unknown record kind 230"), "{e}");
}

/// Version 2 files still read; a version 2 file may not hold a record kind of version 3 (a
/// certificate that is a proof).
#[test]
fn version_2_files_read_without_the_kinds_of_version_3() {
    let node = |certificate| Database {
        rules: Rules::renju(),
        size: Size::STANDARD,
        roots: vec![Root {
            black: vec![112],
            white: vec![113],
            to_move: Color::Black,
            attacker: Color::White,
            node: 0,
            symmetry: Symmetry::Identity,
        }],
        nodes: vec![
            Node::Replies {
                certificate: Some(certificate),
                replies: vec![],
            },
            Node::Vcf(vec![1, 2]),
        ],
    };
    let as_version_2 = |db: &Database| {
        let mut bytes = encode(db).unwrap();
        bytes[8..12].copy_from_slice(&2u32.to_le_bytes());
        bytes
    };
    let line = node(Certificate::Line(vec![3]));
    let mut line = line.clone();
    line.nodes.pop();
    assert_eq!(decode(&as_version_2(&line)).unwrap(), line);
    let pass = node(Certificate::Proof(edge(1, Symmetry::Identity)));
    assert_eq!(decode(&encode(&pass).unwrap()).unwrap(), pass);
    let e = decode(&as_version_2(&pass)).unwrap_err().to_string();
    assert!(
        e.contains("record kind 36 is not in format version 2"),
        "{e}"
    );
}
