//! Tests of search states: the file round trip, refusals, damaged files, and going on from a
//! state to the same result.

use super::*;
use crate::solve::tests::position;
use crate::solve::{Solution, Verdict, solve};
use crate::threat::Limits;

/// Kagetsu with White's 4th at g13, Black to move: Black wins, in about 1.7M nodes.
fn g13() -> Board {
    position("h8 h9 i9 g13", Color::Black)
}

fn options(nodes: u64) -> SolveOptions {
    SolveOptions {
        limits: Limits {
            nodes: Some(nodes),
            ..Limits::default()
        },
        attacker: Some(Color::Black),
        keep_state: true,
        ..SolveOptions::default()
    }
}

/// The state of a search of [`g13`] stopped at `nodes`.
fn stopped_at(nodes: u64) -> SearchState {
    let solution = solve(&g13(), &options(nodes), &mut |_| {});
    assert_eq!(solution.verdict, Verdict::Unknown);
    solution
        .state
        .expect("a search stopped by a limit keeps its state")
}

fn bytes_of(state: &SearchState) -> Vec<u8> {
    let mut bytes = Vec::new();
    state.write_to(&mut bytes).unwrap();
    bytes
}

fn read_bytes(bytes: &[u8]) -> Result<SearchState, StateError> {
    SearchState::read_from(bytes)
}

fn format_message(result: Result<SearchState, StateError>) -> String {
    match result {
        Err(StateError::Format(message)) => message,
        other => panic!("expected a format error, got {other:?}"),
    }
}

#[test]
fn a_state_reads_back_as_it_was_written() {
    let state = stopped_at(300_000);
    let h = state.header();
    assert!((300_000..300_100).contains(&h.nodes));
    assert_eq!(h.runs, 1);
    assert!(h.entries > 100 && h.entries == state.entries.len() as u64);
    assert!(
        h.lent > 0,
        "the search lent proofs: the test covers their trees"
    );
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("g13.state");
    state.write(&path).unwrap();
    let read = SearchState::read(&path).unwrap();
    assert_eq!(read.header, state.header);
    let numbers = |s: &SearchState| {
        let mut all: Vec<_> = s
            .entries
            .iter()
            .map(|(k, e)| {
                let moves = e
                    .moves
                    .as_ref()
                    .map(|m| m.iter().map(|m| (m.point, m.pn, m.dn)).collect::<Vec<_>>());
                (*k, e.pn, e.dn, e.work, moves)
            })
            .collect();
        all.sort_unstable_by_key(|e| e.0);
        all
    };
    assert_eq!(numbers(&read), numbers(&state));
    // The root's entry, or one near it, holds most of the search's nodes.
    let most = read.entries.iter().map(|(_, e)| e.work).max().unwrap();
    assert!(most >= 100_000, "the work of the entries is kept: {most}");
    let trees = |s: &SearchState| -> Vec<_> {
        s.lent
            .iter()
            .map(|&(key, place, frame)| (key, format!("{:?}", s.trees[place]), frame))
            .collect()
    };
    assert_eq!(trees(&read), trees(&state));
    assert!(read.fits(&g13(), &options(1)).is_ok());
}

/// A search whose table filled and made room writes a state that the same `--memory`
/// takes again: its estimates make room as they load, as in the search.
#[test]
fn a_state_of_a_full_table_goes_on_at_the_same_memory() {
    let tight = |nodes: u64| SolveOptions {
        memory_mb: Some(16),
        ..options(nodes)
    };
    let solution = solve(&g13(), &tight(1_900_000), &mut |_| {});
    assert_eq!(solution.verdict, Verdict::Unknown);
    let state = solution.state.expect("a limit stopped it");
    let bound = super::super::prover::Bounds::of(&g13(), Color::Black, &tight(1), 2, 1);
    assert!(
        state.kept_bytes() < bound.table_bound / 2
            && super::super::table::bytes_of(state.entries.iter().map(|(_, e)| e))
                > bound.table_bound / 2,
        "the table filled: the estimates take most of it"
    );
    state.fits(&g13(), &tight(1)).unwrap();
    let went_on = going_on(&g13(), state, tight(4_000_000));
    assert_eq!(went_on.verdict, Verdict::Win, "{:?}", went_on.note);
}

/// A state written by a build of format version 1 (`renju solve "h8 h9 i9 g13"
/// --attacker black --nodes 3000 --state FILE`) still reads, its entries without work, and
/// a search goes on from it.
#[test]
fn a_version_1_state_still_reads() {
    let bytes = include_bytes!("../../../tests/data/states/g13-3000-v1.state");
    assert_eq!(bytes[8..12], 1u32.to_le_bytes());
    let state = read_bytes(bytes).unwrap();
    let h = state.header();
    assert_eq!((h.entries, h.runs), (31, 1));
    assert!((3000..3100).contains(&h.nodes));
    assert!(state.entries.iter().all(|(_, e)| e.work == 0));
    assert!(state.entries.iter().any(|(_, e)| e.moves.is_some()));
    let board = g13();
    let solution = going_on(&board, state, options(10_000));
    let went_on = solution
        .state
        .expect("stopped by the limit, it keeps its state");
    assert_eq!(went_on.header().runs, 2);
    assert!(went_on.entries.len() >= 31);
    assert!(went_on.header().nodes >= 13_000, "the nodes of both runs");
}

#[test]
fn a_damaged_file_is_an_error_never_a_panic() {
    let bytes = bytes_of(&stopped_at(100_000));
    // Every truncation.
    for len in (0..bytes.len()).step_by(97).chain([bytes.len() - 1]) {
        let message = format_message(read_bytes(&bytes[..len]));
        assert!(
            message.contains("ends early") || message.contains("record"),
            "{len}: {message}"
        );
    }
    // A byte changed anywhere after the header: the checksum, if nothing else, sees it.
    for at in (40..bytes.len()).step_by(101) {
        let mut bad = bytes.clone();
        bad[at] ^= 0x5a;
        assert!(read_bytes(&bad).is_err(), "byte {at} changed");
    }
    let mut longer = bytes.clone();
    longer.push(0);
    assert!(format_message(read_bytes(&longer)).contains("after its checksum"));
    let mut magic = bytes.clone();
    magic[0] = b'X';
    assert!(format_message(read_bytes(&magic)).contains("RENJU-SS"));
    let mut version = bytes.clone();
    version[8] = 9;
    assert!(format_message(read_bytes(&version)).contains("version 9"));
}

#[test]
fn a_state_fits_only_its_own_search() {
    let state = stopped_at(20_000);
    let mismatch = |board: &Board, options: &SolveOptions| match state.fits(board, options) {
        Err(StateError::Mismatch(message)) => message,
        other => panic!("expected a mismatch, got {other:?}"),
    };
    let other = position("h8 h9 i9 g12", Color::Black);
    assert!(mismatch(&other, &options(1)).contains("another position: `h8 h9 i9 g13`"));
    let white = position("h8 h9 i9 g13", Color::White);
    assert!(mismatch(&white, &options(1)).contains("another position"));
    let attacker = SolveOptions {
        attacker: Some(Color::White),
        ..options(1)
    };
    assert_eq!(
        mismatch(&g13(), &attacker),
        "the state is of a search for black's win, not white's"
    );
    let budget = SolveOptions {
        vct_nodes: Some(500),
        ..options(1)
    };
    assert!(mismatch(&g13(), &budget).contains("--vct-nodes 1000, not 500"));
    let both = SolveOptions {
        attacker: None,
        ..options(1)
    };
    assert!(mismatch(&g13(), &both).contains("one side's win"));
    let full = SolveOptions {
        full_width: true,
        ..options(1)
    };
    assert!(mismatch(&g13(), &full).contains("full-width"));
    // A state whose results would fill half this run's table: refused before it is
    // loaded, naming the bound it needs (loaded, it would leave no room to search).
    let small = SolveOptions {
        memory_mb: Some(1),
        ..options(1)
    };
    let bigger = stopped_at(1_000_000);
    assert!(bigger.fits(&g13(), &options(1)).is_ok());
    let message = match bigger.fits(&g13(), &small) {
        Err(StateError::Mismatch(message)) => message,
        other => panic!("expected a mismatch, got {other:?}"),
    };
    assert!(
        message.contains("more than half of what --memory 1 leaves it: give --memory"),
        "{message}"
    );
    let enough: u64 = message
        .rsplit("--memory ")
        .next()
        .unwrap()
        .split(' ')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    let roomy = SolveOptions {
        memory_mb: Some(enough),
        ..options(1)
    };
    assert!(bigger.fits(&g13(), &roomy).is_ok(), "{message}");
}

/// A state for `board` and `attacker` (the rest of the header as [`g13`]'s) holding just
/// `entries`.
fn lie(board: &Board, attacker: Color, entries: Vec<(u64, Entry)>) -> SearchState {
    SearchState {
        header: StateHeader {
            stones: board.moves().iter().map(|p| (p.x(), p.y())).collect(),
            hash: board.hash(),
            attacker,
            entries: entries.len() as u64,
            trees: 0,
            lent: 0,
            ..stopped_at(1_000).header
        },
        entries,
        trees: Vec::new(),
        lent: Vec::new(),
    }
}

/// Solves `board` going on from `state`, which fits.
fn going_on(board: &Board, state: SearchState, options: SolveOptions) -> Solution {
    let options = SolveOptions {
        resume: Some(Arc::new(state)),
        ..options
    };
    assert!(
        options
            .resume
            .as_ref()
            .unwrap()
            .fits(board, &options)
            .is_ok()
    );
    solve(board, &options, &mut |_| {})
}

/// A hostile state that holds a lost position as won, and every reply after it too, gives
/// no win: the proof is read out by the rules, which find none. Kagetsu's g13 is Black's
/// win; the state says White's search has proved it.
#[test]
fn a_state_that_lies_gives_no_wrong_win() {
    let mut board = g13();
    let mut entries = vec![(board.canonical().key, Entry::PROVED)];
    for p in board.size().points().collect::<Vec<_>>() {
        if board.is_empty(p) {
            board.play_unchecked(p);
            entries.push((board.canonical().key, Entry::PROVED));
            board.undo();
        }
    }
    let options = SolveOptions {
        attacker: Some(Color::White),
        ..options(200_000)
    };
    let solution = going_on(&board, lie(&board, Color::White, entries), options);
    assert_eq!(solution.verdict, Verdict::Unknown, "{:?}", solution.note);
    assert!(solution.proof.is_none());
}

/// Found by review: a state holding as proved a position where Black's four blocks
/// White's but White still has a five to make (two five points), and the read-out took
/// Black's five after a pass as the certificate, never listing White's five. White's
/// c10 d10 e10 f10 has two five points (b10, g10); Black's b11 b12 b13 is a three.
#[test]
fn a_state_that_holds_a_defenders_five_as_lost_gives_no_win() {
    let mut board = position("b11 c10 b12 d10 b13 e10 o15 f10", Color::Black);
    let root = board.canonical().key;
    board.play_unchecked("b10".parse().unwrap());
    let after = board.canonical().key;
    board.undo();
    let entries = vec![(root, Entry::PROVED), (after, Entry::PROVED)];
    let solution = going_on(&board, lie(&board, Color::Black, entries), options(20_000));
    assert_eq!(solution.verdict, Verdict::Unknown, "{:?}", solution.note);
}

/// Found by review: a kept move list with a taken point (here the root's, with Black's
/// h8 added, which every frame keeps in place) was played on the stone. The list is now
/// generated again, and the search goes on to the win.
#[test]
fn a_kept_move_on_a_taken_point_is_generated_again() {
    let mut state = stopped_at(300_000);
    let root = g13().canonical().key;
    let (_, entry) = state
        .entries
        .iter_mut()
        .find(|(key, _)| *key == root)
        .expect("the root is in the table");
    let mut moves: Vec<Move> = entry.moves.as_deref().expect("the root is open").to_vec();
    moves.insert(
        0,
        Move {
            point: "h8".parse().unwrap(),
            pn: 1,
            dn: 1,
        },
    );
    entry.moves = Some(moves.into());
    let options = SolveOptions {
        resume: Some(Arc::new(state)),
        ..options(u64::MAX)
    };
    let solution = solve(&g13(), &options, &mut |_| {});
    assert_eq!(solution.verdict, Verdict::Win);
}

/// A search that goes on from a state proves the position in a fraction of the nodes a
/// new one takes (a search that ignored the state would take them all again), and its
/// proof holds. The lent proofs matter: without them the read-out searched again much of
/// what they proved.
#[test]
fn a_search_goes_on_from_its_state() {
    let fresh = solve(&g13(), &options(u64::MAX), &mut |_| {});
    assert_eq!(fresh.verdict, Verdict::Win);
    let state = stopped_at(1_400_000);
    let resumed = SolveOptions {
        resume: Some(Arc::new(state)),
        ..options(u64::MAX)
    };
    let solution = solve(&g13(), &resumed, &mut |_| {});
    assert_eq!(solution.verdict, Verdict::Win);
    assert!(solution.state.is_none(), "a result keeps no state");
    assert!(
        solution.nodes < fresh.nodes / 2,
        "{} nodes going on, {} anew",
        solution.nodes,
        fresh.nodes
    );
    let proof = solution.proof.unwrap();
    let tree = ProofTree::read(&proof).unwrap();
    assert!(tree.holds(&mut g13(), Color::Black));
}
