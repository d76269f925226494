//! Criterion benches for the threat search on the quintet positions (MIT, in
//! `tests/data/threats/`): every VCF case, and the VCT cases with quintet's own length and
//! threat limits. Each bench asserts its result inside the timed loop.
//!
//! `vct_threads` runs the cases of the speed goal (`BENCHMARKS.md`) on 1 and 2 threads.
//!
//! `bench_vct_small_but_long` and `bench_vct_unstable` take tens of seconds a run; they are
//! measured only when `RENJU_HEAVY_BENCH=1` is set (and so are skipped by `cargo test`, which
//! runs every other bench once).

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use renju::notation::{PositionOptions, parse_diagram};
use renju::rules::{Board, Color};
use renju::threat::{Outcome, VcfOptions, VctOptions, vcf, vct};
use serde::Deserialize;

#[derive(Deserialize)]
struct Case {
    id: String,
    kind: String,
    attacker: String,
    board: Vec<String>,
    expect_win_within: Option<u32>,
    threat_limit: Option<u32>,
}

fn cases() -> Vec<(Case, Board, Color)> {
    include_str!("../tests/data/threats/quintet.jsonl")
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let case: Case = serde_json::from_str(l).expect("a valid case");
            let attacker: Color = case.attacker.parse().expect("a colour");
            let options = PositionOptions {
                to_move: Some(attacker),
                ..PositionOptions::default()
            };
            let board = parse_diagram(&case.board.join("\n"), &options).expect("a valid board");
            (case, board, attacker)
        })
        .collect()
}

fn short_name(id: &str) -> &str {
    id.rsplit('/').next().unwrap_or(id)
}

fn vcf_cases(c: &mut Criterion) {
    let mut group = c.benchmark_group("vcf");
    for (case, board, attacker) in cases().into_iter().filter(|(c, ..)| c.kind == "VCF") {
        group.bench_function(short_name(&case.id), |b| {
            b.iter(|| {
                let report = vcf(black_box(&board), attacker, &VcfOptions::default());
                assert!(matches!(report.outcome, Outcome::Win(_)), "{}", case.id);
                report
            });
        });
    }
    group.finish();
}

/// Quintet's own limits for a VCT case: its `expect_win_within` as the depth and its
/// `threat_limit` (3 where none is given) as the certificates' fours.
fn quintet_options(case: &Case, threads: usize) -> VctOptions {
    VctOptions {
        max_depth: case.expect_win_within,
        threat_fours: case.threat_limit.or(Some(3)),
        threads: Some(threads),
        ..VctOptions::default()
    }
}

fn vct_cases(c: &mut Criterion) {
    let heavy = std::env::var_os("RENJU_HEAVY_BENCH").is_some();
    let mut group = c.benchmark_group("vct");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(20));
    for (case, board, attacker) in cases().into_iter().filter(|(c, ..)| c.kind == "VCT") {
        let name = short_name(&case.id);
        if !heavy && matches!(name, "bench_vct_small_but_long" | "bench_vct_unstable") {
            continue;
        }
        let options = quintet_options(&case, 1);
        group.bench_function(name, |b| {
            b.iter(|| {
                let report = vct(black_box(&board), attacker, &options);
                assert!(
                    matches!(report.outcome, Outcome::Win(_)),
                    "{}: {:?}",
                    case.id,
                    report.outcome
                );
                report
            });
        });
    }
    group.finish();
}

/// The four VCT cases of the speed goal on 1 and 2 threads (`vct_threads/CASE/N`): on more
/// threads, narrower searches run beside the asked one. The heavy two need `RENJU_HEAVY_BENCH`.
fn vct_threads(c: &mut Criterion) {
    let heavy = std::env::var_os("RENJU_HEAVY_BENCH").is_some();
    let mut group = c.benchmark_group("vct_threads");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(20));
    for (case, board, attacker) in cases().into_iter().filter(|(c, ..)| c.kind == "VCT") {
        let name = short_name(&case.id);
        let light = matches!(name, "README_VCT" | "bench_vct_black");
        let heavy_case = matches!(name, "bench_vct_small_but_long" | "bench_vct_unstable");
        if !(light || heavy && heavy_case) {
            continue;
        }
        for threads in [1, 2] {
            let options = quintet_options(&case, threads);
            group.bench_function(format!("{name}/{threads}"), |b| {
                b.iter(|| {
                    let report = vct(black_box(&board), attacker, &options);
                    assert!(matches!(report.outcome, Outcome::Win(_)), "{}", case.id);
                    report
                });
            });
        }
    }
    group.finish();
}

criterion_group!(benches, vcf_cases, vct_cases, vct_threads);
criterion_main!(benches);
