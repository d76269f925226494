//! The database file: damaged files give errors naming the problem, the decoder survives any
//! damage, the format's size goal holds, and a chain of any depth is read without overflow.

use std::sync::OnceLock;

use proptest::prelude::*;
use renju::db::{Builder, Cell, Database, DbError, Index, Node, decode, encode};
use renju::rules::{Color, Rules, Size};
use renju::solve::{SolveOptions, Verdict, solve};

use super::{assert_rejected, checked, edge, proofs, renju_db, renju_db_of, root};

#[test]
fn damaged_files_give_errors_naming_the_problem() {
    let db = renju_db();
    let bytes = encode(&db).unwrap();
    let mut flipped = bytes.clone();
    flipped[24] ^= 1;
    assert!(matches!(decode(&flipped), Err(DbError::Checksum { .. })));
    let mut body_flip = bytes.clone();
    let last = body_flip.len() - 1;
    body_flip[last] ^= 0x40;
    assert!(matches!(decode(&body_flip), Err(DbError::Checksum { .. })));
    for cut in [0, 5, 27, 28, bytes.len() / 2, bytes.len() - 1] {
        let e = decode(&bytes[..cut]).unwrap_err();
        assert!(matches!(e, DbError::Truncated(_)), "cut at {cut}: {e}");
    }
    let mut version = bytes.clone();
    version[8] = 1;
    assert!(matches!(
        decode(&version),
        Err(DbError::Version { found: 1 })
    ));
    assert!(matches!(
        decode(b"PK\x03\x04 not a database at all"),
        Err(DbError::Magic)
    ));
    let mut longer = bytes.clone();
    longer.push(0);
    assert!(decode(&longer).is_err());
}

/// `bytes` with the header's length and checksum made to fit the (altered) body.
fn refit(mut bytes: Vec<u8>) -> Vec<u8> {
    let body_len = (bytes.len() - renju::db::HEADER_LEN) as u64;
    bytes[16..24].copy_from_slice(&body_len.to_le_bytes());
    let crc = crc32fast::hash(&bytes[renju::db::HEADER_LEN..]);
    bytes[24..28].copy_from_slice(&crc.to_le_bytes());
    bytes
}

fn small_file() -> &'static Vec<u8> {
    static FILE: OnceLock<Vec<u8>> = OnceLock::new();
    FILE.get_or_init(|| {
        let mut builder = Builder::new(Rules::renju(), Size::STANDARD);
        builder.add_proof(&proofs()[0]).unwrap();
        encode(&builder.finish()).unwrap()
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// The decoder never panics, whatever the bytes: damaged bodies with a fitting checksum
    /// decode or fail cleanly, and what decodes can be checked and encoded again.
    #[test]
    fn the_decoder_survives_any_damage(
        edits in prop::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..6),
        cut in any::<prop::sample::Index>(),
        truncate in any::<bool>(),
    ) {
        let mut bytes = small_file().clone();
        for (at, value) in &edits {
            let i = renju::db::HEADER_LEN + at.index(bytes.len() - renju::db::HEADER_LEN);
            bytes[i] = *value;
        }
        if truncate {
            let keep = renju::db::HEADER_LEN + cut.index(bytes.len() - renju::db::HEADER_LEN);
            bytes.truncate(keep);
        }
        let _ = decode(&bytes);
        if let Ok(db) = decode(&refit(bytes)) {
            let _ = checked(&db);
            let _ = encode(&db);
            let _ = Index::build(&db);
            let _ = db.depths();
        }
    }

    /// Random bytes after a valid header never panic the decoder either.
    #[test]
    fn the_decoder_survives_random_bodies(body in prop::collection::vec(any::<u8>(), 0..200)) {
        let mut bytes = small_file()[..renju::db::HEADER_LEN].to_vec();
        bytes.extend(body);
        let _ = decode(&bytes);
        if let Ok(db) = decode(&refit(bytes)) {
            let _ = checked(&db);
        }
    }
}

/// The size goal of the format: at most 4 bytes per node, header and root included, on the
/// proof of the bench position `bench_vct_black` (956 nodes; `benches/db.rs` measures the
/// others). The proof is deterministic, so so is its size.
#[test]
fn the_bench_proof_takes_at_most_4_bytes_per_node() {
    let (board, _) = crate::ladder::quintet("quintet/bench_vct_black");
    let won = solve(&board, &SolveOptions::default(), &mut |_| {});
    assert_eq!(won.verdict, Verdict::Win);
    let db = renju_db_of(&[&won.proof.unwrap()]);
    let bytes = encode(&db).unwrap().len();
    let per_node = bytes as f64 / db.nodes.len() as f64;
    assert!(db.nodes.len() > 500, "{} nodes", db.nodes.len());
    assert!(per_node <= 4.0, "{bytes} bytes, {per_node:.2} per node");
    assert_eq!(decode(&encode(&db).unwrap()).unwrap(), db.compacted());
}

/// Regression: text export followed a damaged database's chain of moves
/// by recursion, one frame per node, and a 120 KB file overflowed the stack. Every reader of
/// a database must take a chain of any length; this one is 200,000 nodes deep.
#[test]
fn a_chain_of_any_depth_is_exported_and_rejected_without_overflow() {
    let depth = 200_000u32;
    let mut db = Database::new(Rules::renju(), Size::STANDARD);
    for i in 0..depth {
        db.nodes.push(Node::Move {
            play: (i % 225) as Cell,
            child: edge(i + 1),
        });
    }
    db.nodes.push(Node::Vcf(Vec::new()));
    db.roots.push(root("h8", "", Color::White, Color::White, 0));
    let mut text = Vec::new();
    renju::db::export_text(&db, &mut text).unwrap();
    let text = String::from_utf8(text).unwrap();
    assert_eq!(
        text.lines().filter(|l| l.contains(" plays ")).count(),
        depth as usize
    );
    assert!(text.contains(&format!("[n{depth}] white wins by the five")));
    assert_rejected(&db, "a chain of moves through taken points");
    assert!(renju::db::export_lib(&db).is_ok());
}
