//! Criterion benches for `solve`: the ladder of quintet positions with attacker stones taken
//! back (`tests/data/threats/ladder.jsonl`, derived from the MIT quintet boards), a VCT
//! position proved by `solve`, and the full-width small boards. Each bench asserts its verdict
//! inside the timed loop.
//!
//! Rungs marked `heavy`, 4x4 k=4 and 5x5 k=4 (stopped at 300 s) take seconds to minutes a run; they are measured
//! only when `RENJU_HEAVY_BENCH=1` is set (and so are skipped by `cargo test`, which runs every
//! other bench once).

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use renju::notation::{PositionOptions, parse_diagram};
use renju::rules::{Board, Color, Point, Rule, Rules, Size};
use renju::solve::{SolveOptions, Verdict, solve};
use serde::Deserialize;

#[derive(Deserialize)]
struct Case {
    id: String,
    attacker: String,
    board: Vec<String>,
}

#[derive(Deserialize)]
struct Rung {
    id: String,
    from: String,
    taken_back: Vec<String>,
    expect: String,
    heavy: bool,
}

fn quintet(id: &str) -> (Board, Color) {
    let case: Case = include_str!("../tests/data/threats/quintet.jsonl")
        .lines()
        .map(|l| serde_json::from_str::<Case>(l).expect("a valid case"))
        .find(|c| c.id == id)
        .expect("the case exists");
    let attacker: Color = case.attacker.parse().expect("a colour");
    let options = PositionOptions {
        to_move: Some(attacker),
        ..PositionOptions::default()
    };
    let board = parse_diagram(&case.board.join("\n"), &options).expect("a valid board");
    (board, attacker)
}

/// A rung's position: the quintet board without the stones taken back, the attacker to move.
fn rung_board(rung: &Rung) -> Board {
    let (board, attacker) = quintet(&rung.from);
    let gone: Vec<Point> = rung.taken_back.iter().map(|p| p.parse().unwrap()).collect();
    let mut out = Board::new(board.size(), board.rules());
    for (p, c) in board.stones().filter(|(p, _)| !gone.contains(p)) {
        out.put(p, c).unwrap();
    }
    out.set_to_move(attacker);
    out
}

fn verdict(name: &str) -> Verdict {
    match name {
        "win" => Verdict::Win,
        "loss" => Verdict::Loss,
        "draw" => Verdict::Draw,
        _ => Verdict::Unknown,
    }
}

fn heavy() -> bool {
    std::env::var_os("RENJU_HEAVY_BENCH").is_some()
}

fn ladder(c: &mut Criterion) {
    let mut group = c.benchmark_group("solve_ladder");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(20));
    let rungs = include_str!("../tests/data/threats/ladder.jsonl")
        .lines()
        .map(|l| serde_json::from_str::<Rung>(l).expect("a valid rung"));
    for rung in rungs.filter(|r| heavy() || !r.heavy) {
        let board = rung_board(&rung);
        let want = verdict(&rung.expect);
        let name = rung.id.rsplit('/').next().unwrap_or(&rung.id);
        group.bench_function(name, |b| {
            b.iter(|| {
                let s = solve(black_box(&board), &SolveOptions::default(), &mut |_| {});
                assert_eq!(s.verdict, want, "{}", rung.id);
                s.nodes
            });
        });
    }
    group.finish();
}

fn vct_position(c: &mut Criterion) {
    let mut group = c.benchmark_group("solve");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(20));
    let (board, _) = quintet("quintet/README_VCT");
    group.bench_function("README_VCT", |b| {
        b.iter(|| {
            let s = solve(black_box(&board), &SolveOptions::default(), &mut |_| {});
            assert_eq!(s.verdict, Verdict::Win);
            s.nodes
        });
    });
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
    // 5x5 k=4 (a published draw) is not proved within 5 minutes yet: the bench runs it for
    // that long and checks it never claims a win or a loss.
    let open = board(5, 4);
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(3000));
    group.bench_function("5x5_k4_300s", |b| {
        b.iter(|| {
            let options = SolveOptions {
                limits: renju::threat::Limits::with_time(Some(300.0)),
                memory_mb: Some(256),
                ..options.clone()
            };
            let s = solve(black_box(&open), &options, &mut |_| {});
            assert!(
                matches!(s.verdict, Verdict::Draw | Verdict::Unknown),
                "5x5 k=4"
            );
            s.nodes
        });
    });
    group.finish();
}

criterion_group!(benches, ladder, vct_position, small_boards);
criterion_main!(benches);
