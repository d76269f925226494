//! The bench ladder, `tests/data/threats/ladder.jsonl`: quintet VCT boards with stones taken
//! back (one attacker stone, or an attacker stone and a defender stone), the attacker still to
//! move. Shared by the integration tests and
//! `benches/solve.rs` (which includes this file by path), so both build the same positions.

use renju::notation::{PositionOptions, parse_diagram};
use renju::rules::{Board, Color};
use renju::solve::Verdict;
use serde::Deserialize;

/// One rung.
#[derive(Deserialize)]
pub struct Rung {
    pub id: String,
    /// The quintet case it comes from.
    pub from: String,
    /// The stones removed: an attacker stone, then possibly a defender stone.
    pub taken_back: Vec<String>,
    /// The expected verdict: `win`, `loss`, or `unknown` where none is proved yet.
    pub expect: String,
    /// Seconds or more to prove: a bench only with `RENJU_HEAVY_BENCH=1`, not a test.
    pub heavy: bool,
}

#[derive(Deserialize)]
struct Case {
    id: String,
    attacker: String,
    board: Vec<String>,
}

/// Every rung.
pub fn rungs() -> Vec<Rung> {
    include_str!("../data/threats/ladder.jsonl")
        .lines()
        .map(|l| serde_json::from_str(l).expect("a valid rung"))
        .collect()
}

/// A quintet case's board, the attacker to move, and the attacker.
pub fn quintet(id: &str) -> (Board, Color) {
    let case: Case = include_str!("../data/threats/quintet.jsonl")
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

impl Rung {
    /// The position: the quintet board without the stones taken back, the attacker to move.
    /// Panics if a stone taken back was not on the board.
    pub fn board(&self) -> Board {
        let (full, attacker) = quintet(&self.from);
        let mut board = Board::new(full.size(), full.rules());
        for (p, c) in full.stones() {
            if !self.taken_back.contains(&p.to_string()) {
                board.put(p, c).unwrap();
            }
        }
        assert_eq!(
            board.stones().count() + self.taken_back.len(),
            full.stones().count(),
            "{}: the stones taken back were on the board",
            self.id
        );
        board.set_to_move(attacker);
        board
    }

    /// The recorded verdict.
    pub fn verdict(&self) -> Verdict {
        match self.expect.as_str() {
            "win" => Verdict::Win,
            "loss" => Verdict::Loss,
            _ => Verdict::Unknown,
        }
    }
}
