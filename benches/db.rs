//! Criterion benches for the solution database and the checker: `check` throughput in nodes
//! per second (criterion's elements per second), encoding and decoding, and the database size
//! in bytes per node for the bench proofs, which is printed and held under a bound.
//!
//! The proofs of `bench_vct_black`, `README_VCT` and Kagetsu with White's 4th at g13 (a
//! positional win: certificates that are whole proofs, against which `check` should be at least
//! as fast as the `solve` that found the proof) take seconds to find; they are measured only
//! when `RENJU_HEAVY_BENCH=1` is set (and so are skipped by `cargo test`, which runs every other
//! bench once).

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use renju::check::verify::check;
use renju::db::{Builder, Database, decode, encode};
use renju::notation::{PositionOptions, parse_position};
use renju::rules::{Rules, Size};
use renju::solve::{SolveOptions, Verdict, solve};

#[path = "../tests/integration/ladder.rs"]
#[allow(dead_code)]
mod ladder;

fn heavy() -> bool {
    std::env::var_os("RENJU_HEAVY_BENCH").is_some()
}

/// The database of the proof of one position: a quintet case by id, or an opening's moves.
fn database(id: &str) -> Database {
    let board = match id.strip_prefix("opening/") {
        Some(moves) => parse_position(moves, &PositionOptions::default()).unwrap(),
        None => ladder::quintet(id).0,
    };
    let solution = solve(&board, &SolveOptions::default(), &mut |_| {});
    assert_eq!(solution.verdict, Verdict::Win, "{id}");
    let mut builder = Builder::new(Rules::renju(), Size::STANDARD);
    builder
        .add_proof(&solution.proof.expect("a win has a proof"))
        .unwrap();
    builder.finish()
}

fn cases() -> Vec<&'static str> {
    let mut ids = vec!["quintet/test_vct_black", "quintet/test_vct_fukumi_move"];
    if heavy() {
        ids.extend([
            "quintet/bench_vct_black",
            "quintet/README_VCT",
            "opening/h8 h9 i9 g13",
        ]);
    }
    ids
}

fn checker(c: &mut Criterion) {
    let mut group = c.benchmark_group("check");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(10));
    for id in cases() {
        let db = database(id);
        let bytes = encode(&db).unwrap().len();
        let per_node = bytes as f64 / db.nodes.len() as f64;
        eprintln!(
            "db size: {id}: {} nodes, {bytes} bytes, {per_node:.2} bytes per node",
            db.nodes.len()
        );
        // A regression guard on the format's compactness (deterministic: the proofs are). The
        // goal is 4 bytes per node; the small databases are dominated by the 28-byte header
        // and the root's stones.
        let bound = if db.nodes.len() > 500 { 4.0 } else { 5.5 };
        assert!(per_node <= bound, "{id}: {per_node:.2} bytes per node");
        let name = id.rsplit('/').next().unwrap_or(id).replace(' ', "_");
        group.throughput(Throughput::Elements(db.nodes.len() as u64));
        group.bench_function(&name, |b| {
            b.iter(|| {
                let report = check(black_box(&db), &|_| {});
                assert!(report.ok, "{id}: {:?}", report.errors);
                report.nodes_checked
            });
        });
    }
    group.finish();
}

fn codec(c: &mut Criterion) {
    let mut group = c.benchmark_group("db");
    let db = database("quintet/test_vct_fukumi_move");
    let bytes = encode(&db).unwrap();
    group.throughput(Throughput::Elements(db.nodes.len() as u64));
    group.bench_function("encode/test_vct_fukumi_move", |b| {
        b.iter(|| encode(black_box(&db)).unwrap().len());
    });
    group.bench_function("decode/test_vct_fukumi_move", |b| {
        b.iter(|| decode(black_box(&bytes)).unwrap().nodes.len());
    });
    group.finish();
}

criterion_group!(benches, checker, codec);
criterion_main!(benches);
