//! `fairy play` driven through standard input, and `fairy selfplay --json`.

use std::io::{Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// The `fairy` command with `args`, run in the project's folder (so that `rules/...` names a
/// shipped file).
fn command(args: &[&str]) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_fairy"));
    command
        .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
        .args(args);
    command
}

/// Runs `fairy` with `args`, `input` on its standard input; returns exit code and output.
fn fairy(args: &[&str], input: &str) -> (Option<i32>, String, String) {
    Running::start(args, input.as_bytes()).finish()
}

/// A `fairy` still running, its output gathered as it comes.
struct Running {
    child: Child,
    /// Writes the input, as fairy reads it (it may stop reading before the end), then hands
    /// back the standard input, open until this is dropped.
    writer: Option<JoinHandle<ChildStdin>>,
    out: Arc<Mutex<Vec<u8>>>,
    err: Arc<Mutex<Vec<u8>>>,
    readers: [JoinHandle<()>; 2],
    started: Instant,
}

impl Running {
    fn start(args: &[&str], input: &[u8]) -> Running {
        let mut child = command(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start fairy");
        let mut stdin = child.stdin.take().expect("stdin");
        let input = input.to_vec();
        let writer = std::thread::spawn(move || {
            let _ = stdin.write_all(&input);
            stdin
        });
        let (out, err) = (Arc::default(), Arc::default());
        let readers = [
            gather(
                Box::new(child.stdout.take().expect("stdout")),
                Arc::clone(&out),
            ),
            gather(
                Box::new(child.stderr.take().expect("stderr")),
                Arc::clone(&err),
            ),
        ];
        Running {
            child,
            writer: Some(writer),
            out,
            err,
            readers,
            started: Instant::now(),
        }
    }

    /// Waits until `ready` holds of the standard output so far; fails after ten seconds.
    fn wait_for(&mut self, ready: impl Fn(&str) -> bool) {
        while !ready(&text(&self.out)) {
            if self.started.elapsed() > Duration::from_secs(10) {
                let _ = self.child.kill();
                panic!("not ready after ten seconds:\n{}", text(&self.out));
            }
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    /// Closes the standard input once the input is written, and waits for the end.
    fn finish(mut self) -> (Option<i32>, String, String) {
        if let Some(writer) = self.writer.take() {
            drop(writer.join().expect("the input writer"));
        }
        self.end()
    }

    /// Sends SIGINT, as Ctrl-C does, and waits for the end with the standard input still open.
    #[cfg(unix)]
    fn interrupt(self) -> (Option<i32>, String, String) {
        send_interrupt(&self.child);
        self.end()
    }

    /// Waits for the end (killing fairy if it runs on for ten seconds, its code then `None`):
    /// the exit code and both outputs.
    fn end(mut self) -> (Option<i32>, String, String) {
        let code = ended_within(&mut self.child, Duration::from_secs(10));
        for reader in self.readers {
            reader.join().expect("an output reader");
        }
        (code, text(&self.out), text(&self.err))
    }
}

/// Waits for `child` to end, killing it after `limit`: its exit code, `None` if killed.
fn ended_within(child: &mut Child, limit: Duration) -> Option<i32> {
    let started = Instant::now();
    loop {
        if let Some(status) = child.try_wait().expect("wait for fairy") {
            return status.code();
        }
        if started.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            return None;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// Gathers what comes through `pipe` into `into`, as it comes.
fn gather(mut pipe: Box<dyn Read + Send>, into: Arc<Mutex<Vec<u8>>>) -> JoinHandle<()> {
    std::thread::spawn(move || {
        let mut buffer = [0; 4096];
        while let Ok(n @ 1..) = pipe.read(&mut buffer) {
            into.lock().expect("output").extend_from_slice(&buffer[..n]);
        }
    })
}

fn text(bytes: &Mutex<Vec<u8>>) -> String {
    String::from_utf8_lossy(&bytes.lock().expect("output")).into_owned()
}

const BOTH_HUMAN: [&str; 4] = ["play", "rules/chess.rules", "--seat", "2=human"];

/// The prompt shows as soon as fairy waits for a turn, though it does not end its line.
#[test]
fn the_prompt_shows_before_any_input() {
    let mut running = Running::start(&BOTH_HUMAN, b"");
    running.wait_for(|out| out.ends_with("White> "));
    let (code, _, err) = running.finish();
    assert_eq!(code, Some(0), "{err}");
}

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
    let input =
        "help\nmoves\nmoves e2\nmoves z9\nfen\nhint\nNd3\ne2e\ne2e5\n\ne2e4\nundo\nfen\nquit\n";
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
        "`Nd3` is not legal here: no legal move is the one it names",
        "`e2e` is not written as a move",
        "`e2e5` is not legal here: a Pawn does not move from e2 to e5 here\nlegal turns \
         starting with `e2`: e2e3 e2e4 (`moves` lists every turn)",
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

/// The answer to a long line that is no turn quotes only the start of it.
#[test]
fn a_long_bad_line_is_answered_briefly() {
    let line = "e".repeat(1 << 20);
    let (code, out, err) = fairy(&BOTH_HUMAN, &format!("{line}\nquit\n"));
    assert_eq!(code, Some(0), "{err}");
    let answer = format!("`{}…` is not written as a move", &line[..60]);
    assert!(out.contains(&answer), "{out}");
    assert!(out.len() < 10_000, "{} bytes of output", out.len());
}

/// A line that is not UTF-8 is answered as any other line that is no turn, and the game goes on.
#[test]
fn a_line_that_is_not_text_is_answered_and_the_game_goes_on() {
    let (code, out, err) = Running::start(&BOTH_HUMAN, b"\xff\xfe\ne2e4\nquit\n").finish();
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("this line is not UTF-8 text"), "{out}");
    assert!(
        out.contains("result: unfinished (stopped)\nmoves: e2e4\n"),
        "{out}"
    );
}

/// A line over 4 MiB is no one's typing: the game stops there, its result printed, with an error
/// and exit code 1, and neither the line nor what follows it is read on.
#[test]
fn a_line_over_4_mib_stops_the_game() {
    let mut input = vec![b'e'; (4 << 20) + 1];
    input.extend(b"\ne2e4\n");
    let (code, out, err) = Running::start(&BOTH_HUMAN, &input).finish();
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("longer than 4194304 bytes"), "{err}");
    assert!(err.len() < 200, "{err}");
    assert!(
        out.contains("result: unfinished (stopped)\nmoves: \n"),
        "{out}"
    );
}

/// Endless input (`/dev/zero`, one line that never ends) stops the game at 4 MiB, in time.
#[cfg(unix)]
#[test]
fn endless_input_stops_the_game_in_time() {
    let started = Instant::now();
    let output = command(&BOTH_HUMAN)
        .stdin(std::fs::File::open("/dev/zero").expect("/dev/zero"))
        .output()
        .expect("fairy runs");
    let err = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{err}");
    assert!(err.contains("longer than 4194304 bytes"), "{err}");
    assert!(started.elapsed().as_secs() < 10, "{:?}", started.elapsed());
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

/// A seat the game does not have, one given twice or a computer that would think for more than
/// an hour is bad usage (exit 2), however it is found out, and the message says what is wrong.
/// A record of a game played from another position starts there when replayed: its `# start:`
/// line sets the position, and `--fen` may be given too only if it is the same position.
#[test]
fn a_record_replays_from_its_start() {
    let path = std::env::temp_dir().join(format!("fairy-start-{}.txt", std::process::id()));
    let path = path.to_string_lossy().into_owned();
    let black_to_move = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";
    let mut args = BOTH_HUMAN.to_vec();
    args.extend(["--fen", black_to_move, "--record", &path]);
    let (code, _, err) = fairy(&args, "e7e5\nquit\n");
    assert_eq!(code, Some(0), "{err}");
    let replay = format!("@{path}");
    let show = |fen: Option<&str>| {
        let mut args = vec!["show", "rules/chess.rules", "--moves", &replay];
        args.extend(fen.iter().flat_map(|fen| ["--fen", fen]));
        fairy(&args, "")
    };
    let replayed = show(None);
    let same = show(Some(black_to_move));
    let other = show(Some(
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    ));
    std::fs::remove_file(&path).ok();
    let after = "fen: rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2";
    for (code, out, err) in [replayed, same] {
        assert_eq!(code, Some(0), "{err}");
        assert!(out.contains(after), "{out}");
    }
    let (code, _, err) = other;
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("--fen is not the position"), "{err}");
}

/// A game between programs ends at the ply limit, 300 unless given as for selfplay, and its
/// result and record say so.
#[test]
fn play_ends_at_the_ply_limit() {
    let path = std::env::temp_dir().join(format!("fairy-plies-{}.txt", std::process::id()));
    let path = path.to_string_lossy().into_owned();
    let args = [
        "play",
        "rules/chess.rules",
        "--seat",
        "1=random",
        "--seat",
        "2=random",
        "--max-plies",
        "6",
        "--record",
        &path,
    ];
    let (code, out, err) = fairy(&args, "");
    let record = std::fs::read_to_string(&path).expect("the record");
    std::fs::remove_file(&path).ok();
    assert_eq!(code, Some(0), "{err}");
    let result = "unfinished: the ply limit (6) was reached";
    assert!(out.contains(&format!("result: {result}\n")), "{out}");
    assert!(
        record.contains(&format!("# result: {result}\n")),
        "{record}"
    );
    let moves = record.lines().last().expect("the moves");
    assert_eq!(moves.split_whitespace().count(), 6, "{record}");
    for command in ["play", "selfplay"] {
        let (_, help, _) = fairy(&[command, "--help"], "");
        let max_plies = help.find("--max-plies").expect("--max-plies");
        assert!(help[max_plies..].contains("[default: 300]"), "{help}");
    }
}

/// A record that cannot be created is an error before the first turn, not after the game.
#[test]
fn an_unwritable_record_stops_play_before_it_starts() {
    let folder = std::env::temp_dir().join(format!("fairy-missing-{}", std::process::id()));
    let path = folder.join("game.txt").to_string_lossy().into_owned();
    let mut args = BOTH_HUMAN.to_vec();
    args.extend(["--record", &path]);
    let (code, out, err) = fairy(&args, "f2f3\ne7e5\ng2g4\nd8h4\n");
    assert_eq!(code, Some(1), "{err}");
    assert!(
        err.contains(&format!("--record: cannot create {path}")),
        "{err}"
    );
    assert!(!out.contains("White>"), "the game started:\n{out}");
}

#[test]
fn bad_seats_are_usage_errors() {
    for (seats, expected) in [
        (
            &["3=ai"][..],
            "--seat 3: this game has 2 seats, numbered from 1",
        ),
        (&["9=ai"][..], "--seat 9: this game has 2 seats"),
        (&["0=ai"][..], "seats are numbered from 1"),
        (&["1=robot"][..], "write a seat as N=human"),
        (&["x"][..], "write a seat as N=human"),
        (&["2=ai:3600001"][..], "at most 3600000 ms"),
        (&["2=ai", "2=random"][..], "--seat 2 is given twice"),
    ] {
        let mut args = vec!["play", "rules/chess.rules"];
        args.extend(seats.iter().flat_map(|seat| ["--seat", seat]));
        let (code, _, err) = fairy(&args, "");
        assert_eq!(code, Some(2), "{seats:?}: {err}");
        assert!(err.contains(expected), "{seats:?}: {err}");
    }
}

#[test]
fn thinking_longer_than_an_hour_is_bad_usage() {
    for command in ["play", "selfplay"] {
        let args = [command, "rules/chess.rules", "--think-ms", "3600001"];
        let (code, _, err) = fairy(&args, "");
        assert_eq!(code, Some(2), "{command}: {err}");
        assert!(err.contains("--think-ms"), "{command}: {err}");
    }
}

#[test]
fn threads_out_of_range_are_bad_usage() {
    for command in ["play", "selfplay"] {
        for threads in ["0", "65", "two"] {
            let args = [command, "rules/chess.rules", "--threads", threads];
            let (code, _, err) = fairy(&args, "");
            assert_eq!(code, Some(2), "{command} {threads}: {err}");
            assert!(err.contains("threads are 1 to 64"), "{command}: {err}");
        }
    }
}

/// Two threads per computer play whole games and keep the think time.
#[test]
fn selfplay_searches_with_two_threads() {
    let args = [
        "selfplay",
        "rules/chess.rules",
        "--games",
        "2",
        "--think-ms",
        "20",
        "--max-plies",
        "16",
        "--jobs",
        "1",
        "--threads",
        "2",
        "--json",
    ];
    let (code, out, err) = fairy(&args, "");
    assert_eq!(code, Some(0), "{err}");
    let report: serde_json::Value = serde_json::from_str(&out).expect("one JSON document");
    assert_eq!(report["games"].as_u64(), Some(2));
    let think = &report["think_time"];
    let turns = think["turns"].as_u64().expect("the computer turns timed");
    assert!((2..=32).contains(&turns), "{think}");
    assert!(
        think["past_max_ms"].as_f64().expect("milliseconds") < 100.0,
        "{think}"
    );
}

#[test]
fn selfplay_has_no_human_seats() {
    let (code, _, err) = fairy(&["selfplay", "rules/chess.rules", "--seat", "1=human"], "");
    assert_eq!(code, Some(2));
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
    let think = &report["think_time"];
    let turns = think["turns"].as_u64().expect("the computer turns timed");
    let mean = report["lengths"]["mean"].as_f64().expect("a mean length");
    let plies = (mean * games as f64).round() as u64;
    assert!((1..=plies).contains(&turns), "{think}");
    let within = think["within_margin"].as_f64().expect("a share");
    assert!((0.0..=1.0).contains(&within), "{think}");
    let past = |k: &str| think[k].as_f64().expect("milliseconds");
    assert!(past("past_median_ms") <= past("past_p99_ms"), "{think}");
    assert!(past("past_p99_ms") <= past("past_max_ms"), "{think}");
}

/// Without a computer seat there is no think time to report.
#[test]
fn selfplay_of_random_players_times_no_turn() {
    let args = [
        "selfplay",
        "rules/chess.rules",
        "--games",
        "2",
        "--max-plies",
        "10",
        "--seat",
        "1=random",
        "--seat",
        "2=random",
        "--json",
    ];
    let (code, out, err) = fairy(&args, "");
    assert_eq!(code, Some(0), "{err}");
    let report: serde_json::Value = serde_json::from_str(&out).expect("one JSON document");
    assert!(report.get("think_time").is_none(), "{out}");
}

// ---------------------------------------------------------------------------------------------
// Ctrl-C: the first finishes cleanly, a second quits at once.

/// Sends SIGINT to `child`, as Ctrl-C does.
#[cfg(unix)]
fn send_interrupt(child: &Child) {
    let sent = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .expect("run kill");
    assert!(sent.success(), "kill -INT {}", child.id());
}

/// Ctrl-C during `play` ends the game as interrupted: the result printed, the record written.
#[cfg(unix)]
#[test]
fn ctrl_c_in_play_records_the_game_so_far() {
    let path = std::env::temp_dir().join(format!("fairy-ctrl-c-{}.txt", std::process::id()));
    let path = path.to_string_lossy().into_owned();
    let mut args = BOTH_HUMAN.to_vec();
    args.extend(["--record", &path]);
    let mut running = Running::start(&args, b"e2e4\ne7e5\n");
    running.wait_for(|out| out.contains("last turn: Black e7e5") && out.ends_with("White> "));
    let (code, out, err) = running.interrupt();
    let record = std::fs::read_to_string(&path).unwrap_or_default();
    std::fs::remove_file(&path).ok();
    assert_eq!(code, Some(130), "{out}{err}");
    assert!(
        out.contains("result: unfinished (interrupted)\nmoves: e2e4 e7e5\n"),
        "{out}"
    );
    assert!(
        record.contains("# result: unfinished (interrupted)\ne2e4 e7e5\n"),
        "{record}"
    );
}

/// A position with more turns than fairy holds stops `play` and `selfplay` with an error: no
/// turn could be read or judged for sure.
#[test]
fn too_many_turns_stop_play_and_selfplay() {
    let file = "tests/costly/three-drops.rules";
    let seats = ["--seat", "1=random", "--seat", "2=random"];
    let (code, out, err) = fairy(&[&["play", file][..], &seats].concat(), "");
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("ways to make a turn"), "{err}");
    assert!(
        out.contains("result: unfinished (stopped: a position has more"),
        "{out}"
    );
    let (code, _, err) = fairy(&["play", file, "--moves", "M@a1,M@a2,M@a3"], "");
    assert_eq!(code, Some(1), "{err}");
    assert!(
        err.contains("--moves: stopped: a position has more"),
        "{err}"
    );
    let (code, out, err) = fairy(
        &[&["selfplay", file, "--games", "2"][..], &seats].concat(),
        "",
    );
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("ways to make a turn"), "{err}");
    assert!(out.is_empty(), "no report of a cut-short run: {out}");
}

/// Ctrl-C during `selfplay` reports the games played so far, marked partial.
#[cfg(unix)]
#[test]
fn ctrl_c_in_selfplay_reports_the_games_played() {
    let args = [
        "selfplay",
        "rules/chess.rules",
        "--games",
        "1000000",
        "--max-plies",
        "2",
        "--think-ms",
        "1",
        "--jobs",
        "1",
        "--json",
    ];
    let running = Running::start(&args, b"");
    // Long enough for some games of two plies to end.
    std::thread::sleep(Duration::from_secs(2));
    let (code, out, err) = running.interrupt();
    assert_eq!(code, Some(130), "{err}");
    let report: serde_json::Value = serde_json::from_str(&out).expect("one JSON document");
    assert_eq!(report["partial"], true, "{out}");
    let games = report["games"].as_u64().expect("games");
    assert!((1..1_000_000).contains(&games), "{games} games");
}

/// Ctrl-C before any game of `selfplay --json` has ended still gives one JSON document, saying
/// that no game was played.
#[cfg(unix)]
#[test]
fn ctrl_c_before_any_game_ends_still_gives_a_json_document() {
    let args = [
        "selfplay",
        "rules/chess.rules",
        "--games",
        "1",
        "--think-ms",
        "5000",
        "--json",
    ];
    let running = Running::start(&args, b"");
    std::thread::sleep(Duration::from_secs(1));
    let (code, out, err) = running.interrupt();
    assert_eq!(code, Some(130), "{err}");
    let report: serde_json::Value = serde_json::from_str(&out).expect("one JSON document");
    assert_eq!(report["partial"], true, "{out}");
    assert_eq!(report["games"], 0, "{out}");
    assert!(err.contains("no game had ended"), "{err}");
}

/// A second Ctrl-C quits at once, even while the first is still finishing: here, waiting to
/// print the result to a standard output no one reads. The record is written first.
#[cfg(unix)]
#[test]
fn a_second_ctrl_c_quits_at_once() {
    let path = std::env::temp_dir().join(format!("fairy-twice-{}.txt", std::process::id()));
    let path = path.to_string_lossy().into_owned();
    let mut child = command(&BOTH_HUMAN)
        .args(["--record", &path])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start fairy");
    // Far more help than a pipe holds: fairy waits to write it, as no one reads.
    let mut stdin = child.stdin.take().expect("stdin");
    stdin
        .write_all("help\n".repeat(2_000).as_bytes())
        .expect("write input");
    std::thread::sleep(Duration::from_secs(1));
    send_interrupt(&child);
    std::thread::sleep(Duration::from_millis(500));
    let still_running = child.try_wait().expect("wait for fairy").is_none();
    let record = std::fs::read_to_string(&path).unwrap_or_default();
    send_interrupt(&child);
    let code = ended_within(&mut child, Duration::from_secs(5));
    std::fs::remove_file(&path).ok();
    assert!(
        still_running,
        "the first Ctrl-C did not wait for standard output"
    );
    assert!(
        record.contains("# result: unfinished (interrupted)"),
        "{record}"
    );
    assert_eq!(code, Some(130), "the second Ctrl-C did not quit");
}

/// Through a real terminal (a pseudo-terminal made by `script`, which Debian always has): the
/// prompt shows before any input, and each player's pieces are in their colour.
#[cfg(unix)]
#[test]
fn a_terminal_sees_the_prompt_and_coloured_pieces() {
    let line = format!(
        "{} play rules/chess.rules --seat 2=human",
        env!("CARGO_BIN_EXE_fairy")
    );
    let mut child = Command::new("script")
        .args(["-q", "-e", "-c", &line, "/dev/null"])
        .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
        .env_remove("NO_COLOR")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("`script` makes a pseudo-terminal");
    let mut stdin = child.stdin.take().expect("stdin");
    let out = Arc::default();
    let reader = gather(
        Box::new(child.stdout.take().expect("stdout")),
        Arc::clone(&out),
    );
    let started = Instant::now();
    while !text(&out).contains("White> ") && started.elapsed() < Duration::from_secs(10) {
        std::thread::sleep(Duration::from_millis(10));
    }
    let seen = text(&out);
    stdin.write_all(b"quit\n").expect("type quit");
    drop(stdin);
    assert!(
        ended_within(&mut child, Duration::from_secs(10)).is_some(),
        "{seen}"
    );
    reader.join().expect("the output reader");
    assert!(seen.contains("White> "), "no prompt before input:\n{seen}");
    assert!(
        seen.contains("\x1b[1;97mP"),
        "White's Pawns in white:\n{seen}"
    );
    assert!(
        seen.contains("\x1b[1;90mp"),
        "Black's Pawns in grey:\n{seen}"
    );
}

/// Through a pipe the board is plain; a human in the second seat sees it from their side.
#[test]
fn the_second_seat_sees_the_board_from_its_side() {
    let (code, out, err) = fairy(
        &[
            "play",
            "rules/chess.rules",
            "--seat",
            "1=random",
            "--seat",
            "2=human",
        ],
        "quit\n",
    );
    assert_eq!(code, Some(0), "{err}");
    assert!(!out.contains('\x1b'), "no escapes in a pipe:\n{out}");
    let first_rank = out
        .lines()
        .find(|l| l.trim_start().starts_with(char::is_numeric));
    assert_eq!(
        first_rank.map(str::trim),
        Some("1  R N B K Q B N R"),
        "{out}"
    );
    assert!(out.contains("     h g f e d c b a"), "{out}");
    let (_, out, _) = fairy(
        &["play", "rules/chess.rules", "--flip", "--seat", "2=human"],
        "quit\n",
    );
    assert!(out.contains("     h g f e d c b a"), "--flip:\n{out}");
}

/// With more than two players, the computers' turns are drawn on one board before the
/// human's next turn, and listed.
#[test]
fn the_computers_turns_are_drawn_together() {
    let args = ["play", "rules/yonin-bishogi.rules", "--think-ms", "20"];
    let (code, out, err) = fairy(&args, "c1c2\nquit\n");
    assert_eq!(code, Some(0), "{err}");
    let boards = out.matches("to move: ").count();
    assert_eq!(
        boards, 2,
        "the start and the board before Red's next turn:\n{out}"
    );
    let listed = out
        .lines()
        .find(|l| l.starts_with("last turns: Red c1c2, Blue "));
    let listed = listed.unwrap_or_else(|| panic!("the turns listed:\n{out}"));
    assert!(
        listed.contains(", Yellow ") && listed.contains(", Green "),
        "{listed}"
    );
}

/// A turn may be typed with a space between its parts, and with capitals.
#[test]
fn a_turn_may_be_typed_with_spaces_and_capitals() {
    let args = ["play", "rules/amazons.rules", "--seat", "2=human"];
    let (code, out, err) = fairy(&args, "D1D7 D7G7\nquit\n");
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("last turn: White d1d7,d7g7"), "{out}");
}

/// One move may be typed as chess books write it; an ambiguous one names the candidates, and
/// `hint` gives the computer's evaluation and depth.
#[test]
fn a_move_may_be_typed_as_chess_books_write_it() {
    let args = [
        "play",
        "rules/chess.rules",
        "--seat",
        "2=human",
        "--think-ms",
        "50",
    ];
    let (code, out, err) = fairy(&args, "Nf3\nd5\ng3\nBh3\nBg2\nBxg2\nO-O\nNf4\nhint\nquit\n");
    assert_eq!(code, Some(0), "{err}");
    for played in [
        "White g1f3",
        "Black d7d5",
        "White g2g3",
        "Black c8h3",
        "White f1g2",
        "Black h3g2",
    ] {
        assert!(
            out.contains(&format!("last turn: {played}\n")),
            "{played} in:\n{out}"
        );
    }
    assert!(out.contains("`O-O` is not legal here"), "{out}");
    assert!(
        out.contains("`Nf4` is not legal here: no legal move is the one it names"),
        "{out}"
    );
    let hint = out.lines().find(|l| l.contains("hint: ")).expect("a hint");
    assert!(
        hint.contains("; searched to depth ") && hint.contains(" positions)"),
        "{hint}"
    );
    let fen = "4k3/8/8/8/8/8/4K3/R6R w - - 0 1";
    let args = [
        "play",
        "rules/chess.rules",
        "--seat",
        "2=human",
        "--fen",
        fen,
    ];
    let (_, out, _) = fairy(&args, "Rd1\nRad1\nquit\n");
    assert!(
        out.contains("`Rd1` is ambiguous: it may be a1d1 or h1d1"),
        "{out}"
    );
    assert!(out.contains("last turn: White a1d1"), "{out}");
}

/// `moves SQ` marks the moves another piece lends, with the lender.
#[test]
fn lent_moves_are_marked_with_their_lender() {
    let fen = "k9/10/10/10/10/4p5/4X5/10/10/K9 b - - 0 1";
    let args = [
        "play",
        "rules/ghostarelay.rules",
        "--fen",
        fen,
        "--seat",
        "1=human",
        "--seat",
        "2=human",
    ];
    let (code, out, err) = fairy(&args, "moves e5\nmoves a10\nquit\n");
    assert_eq!(code, Some(0), "{err}");
    assert!(
        out.contains("Black> lent by the White Relay on e4: e5e6 e5e7 e5e8 e5e9 e5e10\n"),
        "{out}"
    );
    assert!(out.contains("Black> a10a9 a10b9 a10b10\n"), "{out}");
}
