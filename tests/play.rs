//! `fairy play` driven through standard input, `fairy selfplay --json`, and the computer
//! player's choices.

mod common;

use common::{SHIPPED, ruleset};
use fairy::ai::search::Searcher;
use fairy::engine::{Position, Turn};
use fairy::notation::{fen, moves};
use std::io::Write;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Runs `fairy` with `args`, `input` on its standard input; returns exit code and output.
fn fairy(args: &[&str], input: &str) -> (Option<i32>, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_fairy"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start fairy");
    let mut stdin = child.stdin.take().expect("stdin");
    stdin.write_all(input.as_bytes()).expect("write input");
    drop(stdin);
    let output = child.wait_with_output().expect("fairy runs");
    (
        output.status.code(),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

const BOTH_HUMAN: [&str; 4] = ["play", "rules/chess.rules", "--seat", "2=human"];

#[test]
fn a_scripted_game_ends_in_checkmate() {
    let (code, out, err) = fairy(&BOTH_HUMAN, "f2f3\ne7e5\ng2g4\nd8h4\n");
    assert_eq!(code, Some(0), "{err}");
    assert!(
        out.contains("result: Black wins: White is checkmated"),
        "{out}"
    );
    assert!(out.contains("moves: f2f3 e7e5 g2g4 d8h4"), "{out}");
    assert!(out.contains("last turn: White g2g4"), "{out}");
}

#[test]
fn every_prompt_command_answers() {
    let input = "help\nmoves\nmoves e2\nmoves z9\nfen\nhint\nNd3\ne2e5\n\ne2e4\nundo\nfen\nquit\n";
    let args = [
        "play",
        "rules/chess.rules",
        "--seat",
        "2=random",
        "--think-ms",
        "20",
    ];
    let (code, out, err) = fairy(&args, input);
    assert_eq!(code, Some(0), "{err}");
    for expected in [
        "moves SQ",
        "a2a3 a2a4 b1a3",
        "White> e2e3 e2e4\n",
        "no legal turn starts with `z9`",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "hint: ",
        "`Nd3` is not written as a move",
        "the legal moves starting with `e2` are e2e3 e2e4",
        "Black plays ",
        "result: unfinished (stopped)",
    ] {
        assert!(out.contains(expected), "`{expected}` in:\n{out}");
    }
    // After the undo, the start position again.
    let fens: Vec<&str> = out
        .lines()
        .filter(|l| l.starts_with("White> rnbq"))
        .collect();
    assert_eq!(fens.len(), 2, "{out}");
    assert_eq!(fens[0], fens[1]);
}

#[test]
fn input_ending_early_stops_the_game_cleanly() {
    let (code, out, _) = fairy(&BOTH_HUMAN, "e2e4\n");
    assert_eq!(code, Some(0));
    assert!(
        out.contains("result: unfinished (stopped)\nmoves: e2e4\n"),
        "{out}"
    );
}

#[test]
fn a_record_replays_with_moves() {
    let path = std::env::temp_dir().join(format!("fairy-record-{}.txt", std::process::id()));
    let path = path.to_string_lossy().into_owned();
    let mut args = BOTH_HUMAN.to_vec();
    args.extend(["--record", &path]);
    let (code, _, err) = fairy(&args, "f2f3\ne7e5\ng2g4\nd8h4\n");
    assert_eq!(code, Some(0), "{err}");
    let record = std::fs::read_to_string(&path).expect("the record");
    assert!(record.starts_with("# fairy game record\n"), "{record}");
    let replay = format!("@{path}");
    let (code, out, err) = fairy(&["show", "rules/chess.rules", "--moves", &replay], "");
    std::fs::remove_file(&path).ok();
    assert_eq!(code, Some(0), "{err}");
    assert!(
        out.contains("result: Black wins: White is checkmated"),
        "{out}"
    );
}

#[test]
fn bad_seats_are_usage_errors() {
    for seat in ["3=ai", "0=ai", "1=robot", "x"] {
        let (code, _, err) = fairy(&["play", "rules/chess.rules", "--seat", seat], "");
        assert!(matches!(code, Some(1 | 2)), "{seat}: {err}");
        assert!(err.contains("seat"), "{seat}: {err}");
    }
}

#[test]
fn selfplay_has_no_human_seats() {
    let (code, _, err) = fairy(&["selfplay", "rules/chess.rules", "--seat", "1=human"], "");
    assert_eq!(code, Some(1));
    assert!(err.contains("selfplay has no human seats"), "{err}");
}

#[test]
fn selfplay_json_adds_up() {
    let args = [
        "selfplay",
        "rules/chess.rules",
        "--games",
        "3",
        "--think-ms",
        "5",
        "--max-plies",
        "40",
        "--seat",
        "2=random",
        "--rotate",
        "--json",
    ];
    let (code, out, err) = fairy(&args, "");
    assert_eq!(code, Some(0), "{err}");
    let report: serde_json::Value = serde_json::from_str(&out).expect("one JSON document");
    let games = report["games"].as_u64().expect("games");
    assert_eq!(games, 3);
    let seats = report["seats"].as_array().expect("seats");
    let players = report["players"]
        .as_array()
        .expect("players, as they rotate");
    for row in seats.iter().chain(players) {
        let sum: u64 = ["wins", "draws", "losses"]
            .iter()
            .map(|k| row[k].as_u64().expect("a count"))
            .sum();
        assert_eq!(sum, games, "{row}");
    }
    let whos: Vec<&str> = players.iter().map(|p| p["who"].as_str().unwrap()).collect();
    assert_eq!(whos, ["ai 5 ms", "random"]);
    let wins = |rows: &[serde_json::Value]| -> u64 {
        rows.iter().map(|r| r["wins"].as_u64().unwrap()).sum()
    };
    assert_eq!(
        wins(seats),
        wins(players),
        "the same wins, counted by seat or by player"
    );
    let ended: u64 = report["endings"]
        .as_array()
        .expect("endings")
        .iter()
        .map(|e| e["games"].as_u64().expect("a count"))
        .sum();
    assert_eq!(ended, games);
}

/// The computer's choice in `position` of `game`, thinking `ms`.
fn choice(game: &str, position: &str, ms: u64) -> String {
    let rules = ruleset(game);
    let mut position = fen::read(&rules, position).expect("a valid position");
    let mut searcher = Searcher::new(&rules, 7);
    let started = Instant::now();
    let found = searcher
        .choose(&mut position, Duration::from_millis(ms))
        .expect("a legal turn");
    assert!(started.elapsed() < Duration::from_millis(ms * 3 / 2 + 50));
    moves::write(&position, &found.turn)
}

#[test]
fn the_computer_takes_a_mate_in_one() {
    assert_eq!(
        choice("chess", "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1", 200),
        "a1a8"
    );
}

/// The Guard takes the Pawn on f5, and Black, in check, has no move left.
#[test]
fn the_computer_takes_a_winning_capture_in_amphora() {
    let position =
        "p3p/p1p/p2G1/3g1pk/4P2/3K1/P2/1PPPP[] w - - 20 21 sideways-run=2,0 entitled=0,0";
    assert_eq!(choice("amphora", position, 200), "e6f5");
}

/// Black's Amazon on a10 is walled in by its own Knight and Rook and by arrows; of 35 turns,
/// only the Knight's leap away (with the one shot that does not land back on b10) frees it.
#[test]
fn the_computer_frees_its_amazon_in_yagbap() {
    let position = "an1****1**/r***1*1br*/**1n*b1*m*/1*1*1**1*1/1*q**1*c1*/*C***1***1/\
                    M**A*1***1/1*1*****N1/***1*1B*B1/1*1R1R*N**[] b - - 86 53 phase=play \
                    turns=33,32";
    assert_eq!(choice("yagbap", position, 200), "b10c8,c8c7");
}

/// Along random games of every shipped game, the computer's turn is always legal and comes
/// within its budget.
#[test]
fn the_computer_plays_only_legal_turns_in_time() {
    for name in SHIPPED {
        let rules = ruleset(name);
        let mut searcher = Searcher::new(&rules, 3);
        let mut position = Position::start(&rules);
        let mut turns: Vec<Turn> = Vec::new();
        let mut random = fairy::random::Random::new(name.len() as u64);
        for ply in 0..12 {
            position.legal_turns(&mut turns);
            if turns.is_empty() {
                break;
            }
            if ply % 4 == 3 {
                let started = Instant::now();
                let found = searcher
                    .choose(&mut position, Duration::from_millis(20))
                    .expect("a turn");
                assert!(turns.contains(&found.turn), "{name}: a legal turn");
                assert!(
                    started.elapsed() < Duration::from_millis(500),
                    "{name}: {:?}",
                    started.elapsed()
                );
            }
            position.make(&turns[random.below(turns.len())]);
        }
    }
}
