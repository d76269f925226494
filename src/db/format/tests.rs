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
            certificate: Some(cells(100, 9)),
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
            certificate: Some(Vec::new()),
            replies: vec![(7, edge(5, turn)), (8, edge(9, id))],
        },
        Node::Replies {
            certificate: None,
            replies: vec![(9, edge(10, id))],
        },
        Node::Replies {
            certificate: Some(cells(30, 7)),
            replies: cells(40, 7).into_iter().map(|c| (c, edge(3, id))).collect(),
        },
        Node::Five,
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
        roots: vec![root(0), root(11), root(7)],
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
    ];
    for (record, head) in cases {
        let mut body = Vec::new();
        record.write(&mut body);
        assert_eq!(body[0], head, "{record:?}");
        let mut reader = Reader { body: &body, at: 0 };
        let read = NodeRecord::read(&mut reader, &|| "the record".into()).unwrap();
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
    bytes[last] = 40;
    let body = &bytes[HEADER_LEN..];
    let crc = crc32fast::hash(body).to_le_bytes();
    bytes[24..28].copy_from_slice(&crc);
    let e = decode(&bytes).unwrap_err().to_string();
    assert!(e.contains("node 0: unknown record kind 40"), "{e}");
}
