//! Criterion benches for `solve`: the ladder of quintet positions with stones taken back
//! (`tests/data/threats/ladder.jsonl`, derived from the MIT quintet boards), a VCT position
//! proved by `solve`, two openings that need quiet moves (heavy), the full-width small boards, and the ladder on 1, 2, 4, ... threads (the
//! scaling benchmark). Each bench asserts its verdict inside the timed loop.
//!
//! Rungs marked `heavy`, 4x4 k=4 and 5x5 k=4 take seconds to a minute a run; they are
//! measured only when `RENJU_HEAVY_BENCH=1` is set (and so are skipped by `cargo test`, which
//! runs every other bench once).

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use renju::notation::{PositionOptions, parse_position};
use renju::rules::{Board, Rule, Rules, Size};
use renju::solve::{SolveOptions, Verdict, solve};

#[path = "../tests/integration/ladder.rs"]
mod ladder;

fn heavy() -> bool {
    std::env::var_os("RENJU_HEAVY_BENCH").is_some()
}

/// The ladder rungs to measure (the heavy ones only with `RENJU_HEAVY_BENCH=1`): board,
/// verdict, id.
fn rungs() -> Vec<(Board, Verdict, String)> {
    ladder::rungs()
        .into_iter()
        .filter(|r| heavy() || !r.heavy)
        .map(|r| (r.board(), r.verdict(), r.id))
        .collect()
}

/// Solves a rung, asserting its verdict; the nodes searched.
fn solve_rung((board, want, id): &(Board, Verdict, String), options: &SolveOptions) -> u64 {
    let s = solve(black_box(board), options, &mut |_| {});
    assert_eq!(s.verdict, *want, "{id} on {:?} threads", options.threads);
    s.nodes
}

fn ladder(c: &mut Criterion) {
    let mut group = c.benchmark_group("solve_ladder");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(20));
    for rung in rungs() {
        let name = rung.2.rsplit('/').next().unwrap_or(&rung.2);
        group.bench_function(name, |b| {
            b.iter(|| solve_rung(&rung, &SolveOptions::default()));
        });
    }
    group.finish();
}

fn vct_position(c: &mut Criterion) {
    let mut group = c.benchmark_group("solve");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(20));
    let (board, _) = ladder::quintet("quintet/README_VCT");
    group.bench_function("README_VCT", |b| {
        b.iter(|| {
            let s = solve(black_box(&board), &SolveOptions::default(), &mut |_| {});
            assert_eq!(s.verdict, Verdict::Win);
            s.nodes
        });
    });
    group.finish();
}

/// Standard openings with White's fourth stone thrown away in a corner: Black must find quiet
/// moves before its threats (heavy).
fn quiet_openings(c: &mut Criterion) {
    if !heavy() {
        return;
    }
    let mut group = c.benchmark_group("solve_openings");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(150));
    for (name, moves) in [("kagetsu_a1", "h8 h9 i9 a1"), ("sosei_a1", "h8 h9 j10 a1")] {
        let board = parse_position(moves, &PositionOptions::default()).unwrap();
        let options = SolveOptions {
            threads: Some(1),
            ..SolveOptions::default()
        };
        group.bench_function(name, |b| {
            b.iter(|| {
                let s = solve(black_box(&board), &options, &mut |_| {});
                assert_eq!(s.verdict, Verdict::Win, "{name}");
                s.nodes
            });
        });
    }
    group.finish();
}

fn small_boards(c: &mut Criterion) {
    if !heavy() {
        return;
    }
    let mut group = c.benchmark_group("solve_full_width");
    group.sample_size(10);
    let board = |n: u32, k: u32| {
        let rules = Rules::new(Rule::Freestyle, Some(k)).unwrap();
        Board::new(Size::new(n, n).unwrap(), rules)
    };
    let options = SolveOptions {
        full_width: true,
        ..SolveOptions::default()
    };
    let draw = board(4, 4);
    group.bench_function("4x4_k4", |b| {
        b.iter(|| {
            let s = solve(black_box(&draw), &options, &mut |_| {});
            assert_eq!(s.verdict, Verdict::Draw, "4x4 k=4");
            s.nodes
        });
    });
    // 5x5 k=4, a published draw, with the table bounded at 256 MiB.
    let open = board(5, 4);
    group.measurement_time(Duration::from_secs(600));
    group.bench_function("5x5_k4", |b| {
        b.iter(|| {
            let options = SolveOptions {
                memory_mb: Some(256),
                ..options.clone()
            };
            let s = solve(black_box(&open), &options, &mut |_| {});
            assert_eq!(s.verdict, Verdict::Draw, "5x5 k=4");
            s.nodes
        });
    });
    group.finish();
}

/// The scaling benchmark: the whole ladder (the heavy rungs too with `RENJU_HEAVY_BENCH=1`),
/// one rung after another, on 1 and 2 threads, and on 4, 8, ... up to the machine's cores.
/// Each iteration solves every rung and asserts its verdict.
fn threads(c: &mut Criterion) {
    let mut group = c.benchmark_group("solve_threads");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(60));
    let rungs = rungs();
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    let counts = (0..)
        .map(|i| 1usize << i)
        .take_while(|&n| n <= cores.max(2));
    for threads in counts {
        let options = SolveOptions {
            threads: Some(threads),
            ..SolveOptions::default()
        };
        group.bench_function(format!("ladder/{threads}"), |b| {
            b.iter(|| rungs.iter().map(|r| solve_rung(r, &options)).sum::<u64>());
        });
    }
    group.finish();
}

criterion_group!(
    benches,
    ladder,
    vct_position,
    quiet_openings,
    small_boards,
    threads
);
criterion_main!(benches);
