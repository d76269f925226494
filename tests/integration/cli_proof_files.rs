//! Proof files from the command line: `vcf` and `vct` check every win with the independent
//! checker and write its proof with `--proof`, and `check` takes such a file (or one `solve
//! --proof` wrote) as well as a database.

use serde_json::Value;

use crate::cli_db::{assert_checks, check, ok_json, s, vct};
use crate::cli_search::{field, json, quintet, text};
use crate::support::{renju, run, stderr};

/// Every win comes with its proof, which passed the independent checker before the answer was
/// printed: `proof_nodes` counts its nodes (one VCF node for `vcf`, the tree of threats and
/// replies for `vct`), and `--proof` writes it, from the position with the attacker to move,
/// also where the defender passes first. The proof replays on its own. An answer that is not
/// a win writes nothing.
#[test]
fn a_win_comes_with_a_checked_proof() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("proof.json");
    let path_arg = path.to_str().unwrap();
    let cases = [
        ("vcf", quintet("test_vcf_white"), None),
        ("vcf", quintet("test_vcf_white"), Some("black")),
        ("vct", quintet("test_vct_black"), None),
        ("vct", quintet("test_vct_black"), Some("white")),
        ("vct", quintet("test_vct_forbidden_breaker"), None),
    ];
    for (search, board, to_move) in cases {
        let mut args = vec![search, &board, "--proof", path_arg, "--threads", "1"];
        if search == "vcf" {
            args.truncate(4);
        }
        if let Some(side) = to_move {
            args.extend([
                "--to-move",
                side,
                "--attacker",
                if side == "black" { "white" } else { "black" },
            ]);
        }
        let _ = std::fs::remove_file(&path);
        let v = json(&args);
        assert_eq!(v["result"], "win", "{args:?}: {v}");
        assert!(v.get("note").is_none(), "{args:?}: {v}");
        let proof: renju::proof::Proof =
            serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
        assert_eq!(proof.nodes.len() as u64, v["proof_nodes"].as_u64().unwrap());
        assert_eq!(proof.attacker.to_string(), v["attacker"].as_str().unwrap());
        assert_eq!(proof.to_move, proof.attacker, "{args:?}");
        if search == "vcf" {
            assert_eq!(proof.nodes.len(), 1, "{args:?}: {proof:?}");
        } else {
            assert!(proof.nodes.len() > 3, "{args:?}: {proof:?}");
        }
        crate::proof_replay::check_proof(&proof).unwrap_or_else(|e| panic!("{args:?}: {e}"));
        let out = text(&args[..args.len()]);
        assert!(
            field(&out, "proof").is_some_and(|f| f.contains("passed the independent checker")),
            "{out}"
        );
    }
    // Not a win: nothing written, and a note on stderr says why.
    let _ = std::fs::remove_file(&path);
    let board = quintet("test_vct_black");
    let out = renju()
        .args([
            "vct",
            &board,
            "--max-depth",
            "1",
            "--threads",
            "1",
            "--json",
            "--proof",
            path_arg,
        ])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["result"], "no-win", "{v}");
    assert_eq!(v["proof_nodes"], 0, "{v}");
    assert!(!path.exists());
    assert!(
        stderr(&out).contains("no proof written"),
        "{}",
        stderr(&out)
    );
}

/// `check` takes a proof file as well as a database: the files `solve --proof` and
/// `vct --proof` write pass, as a database of that one proof; a proof with its first threat
/// moved, a JSON file that is not a proof, and a proof of another format fail with exit
/// status 1 and the problem named.
#[test]
fn check_takes_a_proof_file() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let solved = d.join("solve.json");
    let threats = d.join("vct.json");
    for (search, path) in [("solve", &solved), ("vct", &threats)] {
        let args = [
            search,
            &vct(),
            "--threads",
            "1",
            "--json",
            "--quiet",
            "--proof",
            s(path),
        ];
        ok_json(&run(&args));
    }
    for path in [&solved, &threats] {
        let report = assert_checks(path);
        assert_eq!(report["roots"], 1, "{report}");
        assert_eq!(report["rules"], "renju on 15x15", "{report}");
    }

    let text = std::fs::read_to_string(&threats).unwrap();
    let mut proof: Value = serde_json::from_str(&text).unwrap();
    let root = proof["root"].as_u64().unwrap() as usize;
    assert_eq!(proof["nodes"][root]["kind"], "move", "{proof}");
    proof["nodes"][root]["play"] = "a1".into();
    let moved = d.join("moved.json");
    std::fs::write(&moved, proof.to_string()).unwrap();
    let other = d.join("other.json");
    std::fs::write(&other, text.replace("renju-proof", "renju-prooof")).unwrap();
    let not_proof = d.join("not-proof.json");
    std::fs::write(&not_proof, "  {\"result\":\"win\"}\n").unwrap();
    for (path, problem) in [
        (&moved, "does not win"),
        (&other, "its format is `renju-prooof`"),
        (&not_proof, "not a proof file"),
    ] {
        let (code, report) = check(path);
        assert_eq!(code, Some(1), "{report}");
        assert_eq!(report["ok"], false, "{report}");
        assert!(
            report["errors"].to_string().contains(problem),
            "{problem}: {report}"
        );
    }
}
