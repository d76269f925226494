//! Criterion benches for the rules core: the full-board forbidden scan on a 60-stone renju
//! middle game, a single-point check, and incremental play/undo. Each bench asserts its answer
//! inside the timed loop, so a wrong fast path cannot look fast.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use renju::notation::{PositionOptions, parse_position};
use renju::rules::{Board, Forbidden};

/// `data/examples/midgame60.txt`: 60 moves, Black to move, six forbidden points of all kinds.
const MIDGAME: &str = include_str!("../data/examples/midgame60.txt");
/// `data/examples/forbidden.txt`: the README example.
const EXAMPLE: &str = include_str!("../data/examples/forbidden.txt");

fn board(text: &str) -> Board {
    parse_position(text, &PositionOptions::default()).expect("bench position parses")
}

fn forbidden_scan(c: &mut Criterion) {
    let midgame = board(MIDGAME);
    assert_eq!(midgame.moves().len(), 60);
    let expected = midgame.forbidden_points();
    assert_eq!(expected.len(), 6);
    c.bench_function("forbidden_scan/midgame60", |b| {
        b.iter(|| {
            let found = black_box(&midgame).forbidden_points();
            assert_eq!(found.len(), 6);
            found
        });
    });
    let example = board(EXAMPLE);
    c.bench_function("forbidden_scan/readme_example", |b| {
        b.iter(|| {
            let found = black_box(&example).forbidden_points();
            assert_eq!(found.len(), 3);
            found
        });
    });
    let (point, kind) = expected[0];
    c.bench_function("forbidden_point/midgame60_double_three", |b| {
        b.iter(|| {
            let verdict = black_box(&midgame).forbidden(black_box(point));
            assert_eq!(verdict, Some(Forbidden::DoubleThree));
            verdict
        });
    });
    assert_eq!(kind, Forbidden::DoubleThree);
}

fn play_undo(c: &mut Criterion) {
    let midgame = board(MIDGAME);
    let moves = midgame.moves().to_vec();
    let empty = Board::new(midgame.size(), midgame.rules());
    let final_hash = midgame.hash();
    c.bench_function("play_undo/one_move_on_midgame60", |b| {
        let mut board = midgame.clone();
        let p = "h11".parse().unwrap();
        b.iter(|| {
            board.play_unchecked(black_box(p));
            let h = board.hash();
            board.undo();
            h
        });
    });
    c.bench_function("play_undo/60_moves_and_back", |b| {
        let mut board = empty.clone();
        b.iter(|| {
            for &p in &moves {
                board.play_unchecked(p);
            }
            assert_eq!(board.hash(), final_hash);
            while board.undo().is_some() {}
            board.hash()
        });
    });
}

criterion_group!(benches, forbidden_scan, play_undo);
criterion_main!(benches);
