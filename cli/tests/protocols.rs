//! `fairy uci` and `fairy xboard` driven as an interface drives them: a command at a time on
//! standard input, each answer awaited on standard output.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

/// How long any answer may take before the test fails (a loaded machine is slow).
const PATIENCE: Duration = Duration::from_secs(20);

/// A running engine, its output read line by line as it comes.
struct Engine {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    /// Every line read so far, for failure messages.
    seen: Vec<String>,
}

impl Engine {
    fn start(args: &[&str]) -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_fairy"))
            .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("start fairy");
        let stdin = child.stdin.take().expect("stdin");
        let stdout = BufReader::new(child.stdout.take().expect("stdout"));
        let (sender, lines) = channel();
        std::thread::spawn(move || {
            for line in stdout.lines().map_while(Result::ok) {
                if sender.send(line).is_err() {
                    break;
                }
            }
        });
        Engine {
            child,
            stdin,
            lines,
            seen: Vec::new(),
        }
    }

    fn send(&mut self, command: &str) {
        writeln!(self.stdin, "{command}").expect("write a command");
        self.stdin.flush().expect("flush");
    }

    /// The lines up to and including the first that `last` accepts.
    fn until(&mut self, last: impl Fn(&str) -> bool) -> Vec<String> {
        let deadline = Instant::now() + PATIENCE;
        let mut lines = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    self.seen.push(line.clone());
                    lines.push(line.clone());
                    if last(&line) {
                        return lines;
                    }
                }
                Err(RecvTimeoutError::Timeout) => panic!("no answer; seen:\n{}", self.seen()),
                Err(RecvTimeoutError::Disconnected) => {
                    panic!("the engine ended; seen:\n{}", self.seen())
                }
            }
        }
    }

    /// The first line that starts with `prefix`.
    fn line(&mut self, prefix: &str) -> String {
        self.until(|line| line.starts_with(prefix))
            .pop()
            .expect("a line")
    }

    /// Checks that no best move comes within `wait`: the engine is still searching.
    fn no_bestmove_for(&mut self, wait: Duration) {
        let early = self.quiet_for(wait);
        assert!(
            !early.iter().any(|l| l.starts_with("bestmove")),
            "{early:?}"
        );
    }

    /// Whatever comes within `wait`, without blocking longer.
    fn quiet_for(&mut self, wait: Duration) -> Vec<String> {
        let deadline = Instant::now() + wait;
        let mut lines = Vec::new();
        while let Ok(line) = self
            .lines
            .recv_timeout(deadline.saturating_duration_since(Instant::now()))
        {
            self.seen.push(line.clone());
            lines.push(line);
        }
        lines
    }

    fn seen(&self) -> String {
        self.seen.join("\n")
    }

    /// Sends `quit` and expects a clean exit.
    fn quit(mut self) {
        self.send("quit");
        let deadline = Instant::now() + PATIENCE;
        loop {
            if let Some(status) = self.child.try_wait().expect("wait") {
                assert!(status.success(), "exit {status}; seen:\n{}", self.seen());
                return;
            }
            assert!(Instant::now() < deadline, "no exit after quit");
            std::thread::sleep(Duration::from_millis(10));
        }
    }
}

/// The legal moves `fairy moves` lists after `moves` from the start of `file`.
fn legal_moves(file: &str, moves: &str) -> Vec<String> {
    legal_moves_from(file, &[], moves)
}

/// The legal moves `fairy moves` lists after `moves` from the position `--fen` gives.
fn legal_moves_after_fen(file: &str, fen: &str, moves: &str) -> Vec<String> {
    legal_moves_from(file, &["--fen", fen], moves)
}

fn legal_moves_from(file: &str, start: &[&str], moves: &str) -> Vec<String> {
    let output = Command::new(env!("CARGO_BIN_EXE_fairy"))
        .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
        .args(["moves", file])
        .args(start)
        .args(["--moves", moves])
        .output()
        .expect("run fairy moves");
    String::from_utf8(output.stdout)
        .expect("utf-8")
        .lines()
        .map(str::to_string)
        .collect()
}

fn word_after<'a>(line: &'a str, key: &str) -> &'a str {
    let mut words = line.split_whitespace();
    words.find(|&w| w == key);
    words
        .next()
        .unwrap_or_else(|| panic!("no `{key}` in `{line}`"))
}

#[test]
fn uci_handshake_offers_the_games_the_protocol_can_carry() {
    let mut engine = Engine::start(&["uci"]);
    engine.send("uci");
    let lines = engine.until(|l| l == "uciok");
    assert!(lines[0].starts_with("id name fairy "), "{lines:?}");
    let variant = lines
        .iter()
        .find(|l| l.contains("name UCI_Variant"))
        .expect("UCI_Variant");
    assert!(variant.contains("type combo default chess"), "{variant}");
    for offered in ["var chess", "var crazyhouse", "var shogi", "var xiangqi"] {
        assert!(variant.contains(offered), "{variant}");
    }
    // Arrows, placements and four players cannot be said in UCI.
    for left_out in ["amazons", "amphora", "yagbap", "yonin-bishogi"] {
        assert!(!variant.contains(left_out), "{variant}");
    }
    for option in ["Hash", "Threads"] {
        let line = format!("option name {option} type spin");
        assert!(lines.iter().any(|l| l.starts_with(&line)), "{lines:?}");
    }
    engine.send("isready");
    engine.line("readyok");
    engine.quit();
}

#[test]
fn uci_searches_a_position_and_answers_a_legal_move_with_its_line() {
    let mut engine = Engine::start(&["uci", "rules/chess.rules"]);
    engine.send("ucinewgame");
    engine.send("position startpos moves e2e4 e7e5");
    engine.send("go depth 3");
    let lines = engine.until(|l| l.starts_with("bestmove"));
    let infos: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info depth"))
        .collect();
    assert_eq!(infos.len(), 3, "{lines:?}");
    for (depth, info) in infos.iter().enumerate() {
        assert_eq!(word_after(info, "depth"), (depth + 1).to_string());
        for key in ["score", "nodes", "nps", "time", "pv"] {
            word_after(info, key);
        }
    }
    let best = word_after(lines.last().expect("bestmove"), "bestmove").to_string();
    let legal = legal_moves("rules/chess.rules", "e2e4 e7e5");
    assert!(legal.contains(&best), "{best} is not legal");
    assert_eq!(
        word_after(infos[2], "pv"),
        best,
        "the line starts with the move chosen"
    );
    engine.quit();
}

#[test]
fn uci_perft_divides_as_fairy_stockfish_does() {
    let mut engine = Engine::start(&["uci", "rules/chess.rules", "rules/crazyhouse.rules"]);
    engine.send("position startpos");
    engine.send("go perft 3");
    let lines = engine.until(|l| l.starts_with("Nodes searched"));
    assert_eq!(lines.last().expect("total"), "Nodes searched: 8902");
    let rows: Vec<u64> = (lines.iter())
        .filter_map(|l| l.split_once(": ").filter(|(m, _)| !m.contains(' ')))
        .map(|(_, n)| n.parse().expect("a count"))
        .collect();
    assert_eq!(rows.len(), 20);
    assert_eq!(rows.iter().sum::<u64>(), 8902);
    // A drop from hand, in a game chosen by UCI_Variant.
    engine.send("setoption name UCI_Variant value crazyhouse");
    engine.send(
        "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Pp] w KQkq - 0 1 moves P@e4",
    );
    engine.send("go perft 1");
    let lines = engine.until(|l| l.starts_with("Nodes searched"));
    let legal = legal_moves_after_fen(
        "rules/crazyhouse.rules",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Pp] w KQkq - 0 1",
        "P@e4",
    );
    assert_eq!(
        lines.last().expect("total"),
        &format!("Nodes searched: {}", legal.len())
    );
    engine.quit();
}

#[test]
fn uci_answers_each_bad_command_with_one_line_and_goes_on() {
    let mut engine = Engine::start(&["uci", "rules/chess.rules"]);
    for bad in [
        "frobnicate",
        "position startpos moves e2e5",
        "position fen not/a/fen w - - 0 1",
        "position sideways",
        "setoption name Nope value 3",
        "setoption name Hash value 0",
        "setoption name Threads value 0",
        "setoption name Threads value 65",
        "setoption name UCI_Variant value amazons",
        "go wtime soon",
        "go searchmoves e2e4",
    ] {
        engine.send(bad);
        engine.send("isready");
        let lines = engine.until(|l| l == "readyok");
        assert_eq!(lines.len(), 2, "{bad}: {lines:?}");
        assert!(
            lines[0].starts_with("info string error: "),
            "{bad}: {lines:?}"
        );
    }
    // The position before a refused command stands.
    engine.send("position startpos moves e2e4");
    engine.send("position startpos moves e2e4 e7e4");
    engine.send("go perft 1");
    let lines = engine.until(|l| l.starts_with("Nodes searched"));
    assert_eq!(
        lines.last().expect("total"),
        "Nodes searched: 20",
        "{lines:?}"
    );
    engine.quit();
}

#[test]
fn uci_go_infinite_waits_for_stop() {
    let mut engine = Engine::start(&["uci", "rules/chess.rules"]);
    engine.send("position startpos");
    engine.send("go infinite");
    engine.no_bestmove_for(Duration::from_millis(300));
    engine.send("isready");
    engine.line("readyok");
    engine.send("stop");
    let best = engine.line("bestmove");
    let legal = legal_moves("rules/chess.rules", "");
    assert!(
        legal.contains(&word_after(&best, "bestmove").to_string()),
        "{best}"
    );
    engine.quit();
}

#[test]
fn uci_keeps_to_movetime_and_to_the_clock() {
    let mut engine = Engine::start(&["uci", "rules/chess.rules"]);
    engine.send("position startpos moves d2d4 d7d5");
    engine.send("isready");
    engine.line("readyok");
    for _ in 0..3 {
        let started = Instant::now();
        engine.send("go movetime 100");
        engine.line("bestmove");
        // 100 ms and what a loaded test machine adds; the closing note measures it unloaded.
        assert!(
            started.elapsed() < Duration::from_millis(400),
            "{:?}",
            started.elapsed()
        );
    }
    let started = Instant::now();
    engine.send("go wtime 2000 btime 2000 winc 0 binc 0");
    engine.line("bestmove");
    assert!(
        started.elapsed() < Duration::from_millis(1000),
        "{:?}",
        started.elapsed()
    );
    engine.quit();
}

/// A new player's set-up (its table above all) is done while the interface waits for the
/// engine, not on the clock of its first move: with a large table, whose writing takes tens
/// of milliseconds, the first search still finishes its first iteration at once.
#[test]
fn the_player_is_set_up_while_the_interface_waits() {
    let first_iteration_ms = |engine: &mut Engine| -> u64 {
        let info = engine.line("info depth 1 ");
        engine.line("bestmove");
        word_after(&info, "time").parse().expect("a time")
    };
    let mut engine = Engine::start(&["uci", "rules/chess.rules"]);
    engine.send("setoption name Hash value 128");
    engine.send("ucinewgame");
    engine.send("isready");
    engine.line("readyok");
    engine.send("position startpos");
    engine.send("go depth 1");
    let ms = first_iteration_ms(&mut engine);
    assert!(ms < 30, "{ms} ms; seen:\n{}", engine.seen());
    engine.quit();

    let mut engine = Engine::start(&["xboard", "rules/chess.rules"]);
    engine.send("protover 2");
    engine.line("feature");
    engine.send("new");
    engine.send("memory 128");
    engine.send("ping 1");
    engine.line("pong 1");
    engine.send("post");
    engine.send("sd 1");
    engine.send("go");
    let thinking = engine.until(|line| line.starts_with("move "));
    let first: Vec<&str> = thinking[0].split_whitespace().collect();
    // XBoard's thinking lines give the time in centiseconds, after the depth and the score.
    assert_eq!(first[0], "1", "{thinking:?}");
    let centiseconds: u64 = first[2].parse().expect("a time");
    assert!(centiseconds < 3, "{thinking:?}");
    engine.quit();
}

#[test]
fn xboard_plays_a_game_as_the_protocol_asks() {
    let mut engine = Engine::start(&["xboard"]);
    engine.send("xboard");
    engine.send("protover 2");
    let features = engine.line("feature");
    for feature in [
        "setboard=1",
        "usermove=1",
        "ping=1",
        "sigint=0",
        "san=0",
        "smp=1",
        "done=1",
    ] {
        assert!(features.contains(feature), "{features}");
    }
    let variants = features
        .split("variants=\"")
        .nth(1)
        .expect("variants")
        .split('"')
        .next();
    let variants: Vec<&str> = variants.expect("variants").split(',').collect();
    assert!(
        variants.contains(&"normal") && variants.contains(&"minishogi"),
        "{variants:?}"
    );
    assert!(
        !variants.contains(&"amazons") && !variants.contains(&"chess"),
        "{variants:?}"
    );
    engine.send("new");
    engine.send("force");
    engine.send("usermove e2e4");
    engine.send("usermove e7e5");
    engine.send("st 0.2");
    engine.send("go");
    let answer = engine.line("move ");
    let played = answer.trim_start_matches("move ").to_string();
    assert!(
        legal_moves("rules/chess.rules", "e2e4 e7e5").contains(&played),
        "{answer}"
    );
    engine.send("ping 7");
    engine.line("pong 7");
    // fairy plays White now: its move follows the opponent's at once.
    let reply = legal_moves("rules/chess.rules", &format!("e2e4 e7e5 {played}"))[0].clone();
    engine.send(&format!("usermove {reply}"));
    let second = engine.line("move ");
    let second = second.trim_start_matches("move ");
    let after = legal_moves("rules/chess.rules", &format!("e2e4 e7e5 {played} {reply}"));
    assert!(after.contains(&second.to_string()), "{second}");
    engine.quit();
}

#[test]
fn xboard_refuses_what_it_cannot_do_in_one_line() {
    let mut engine = Engine::start(&["xboard", "rules/chess.rules", "rules/minishogi.rules"]);
    engine.send("protover 2");
    engine.line("feature");
    engine.send("new");
    engine.send("force");
    engine.send("usermove e2e5");
    let refused = engine.line("Illegal move");
    assert!(
        refused.starts_with("Illegal move (") && refused.ends_with("): e2e5"),
        "{refused}"
    );
    engine.send("frobnicate");
    engine.line("Error (unknown command): frobnicate");
    engine.send("variant atomic");
    engine.line("Error (no such variant): atomic");
    engine.send("setboard 9/9 w - - 0 1");
    engine.line("Error (the position is not valid");
    engine.send("level 40 five 0");
    engine.line("Error (level takes");
    engine.send("cores 0");
    engine.line("Error (cores takes 1 to 64)");
    engine.send("undo");
    engine.line("Error (there is no move to take back)");
    engine.send("ping 1");
    engine.line("pong 1");
    engine.quit();
}

#[test]
fn xboard_describes_a_game_it_does_not_know_and_ends_games_in_the_files_words() {
    let mut engine = Engine::start(&["xboard", "rules/chess.rules", "rules/minishogi.rules"]);
    engine.send("protover 2");
    engine.line("feature");
    engine.send("new");
    engine.send("variant minishogi");
    let setup = engine.line("setup");
    assert!(setup.contains(" 5x5+5_shogi "), "{setup}");
    assert!(
        setup.ends_with("rbsgk/4p/5/P4/KGSBR[] w - - 0 1"),
        "{setup}"
    );
    engine.send("new");
    engine.send("force");
    engine.send("setboard 7k/5Q2/6K1/8/8/8/8/8 w - - 0 1");
    engine.send("hint");
    engine.line("Hint: ");
    engine.send("usermove f7g7");
    engine.line("1-0 {White wins: Black is checkmated}");
    engine.send("undo");
    engine.send("post");
    engine.send("sd 2");
    engine.send("go");
    let lines = engine.until(|l| l.starts_with("move "));
    let thinking: Vec<&String> = lines.iter().filter(|l| !l.starts_with("move")).collect();
    assert!(!thinking.is_empty(), "{lines:?}");
    for line in thinking {
        let fields: Vec<&str> = line.split_whitespace().collect();
        assert!(fields.len() >= 5, "{line}");
        for number in &fields[..4] {
            number.parse::<i64>().unwrap_or_else(|_| panic!("{line}"));
        }
    }
    engine.quit();
}

#[test]
fn xboard_moves_at_once_when_told_to() {
    let mut engine = Engine::start(&["xboard", "rules/chess.rules"]);
    engine.send("protover 2");
    engine.line("feature");
    engine.send("new");
    engine.send("st 30");
    engine.send("go");
    std::thread::sleep(Duration::from_millis(200));
    let started = Instant::now();
    engine.send("?");
    engine.line("move ");
    assert!(
        started.elapsed() < Duration::from_secs(2),
        "{:?}",
        started.elapsed()
    );
    engine.quit();
}

/// `fairy match` with `args`: its exit code and standard output.
fn run_match(args: &[&str]) -> (Option<i32>, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_fairy"))
        .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
        .arg("match")
        .args(args)
        .output()
        .expect("run fairy match");
    (
        output.status.code(),
        String::from_utf8(output.stdout).expect("utf-8"),
    )
}

#[test]
fn match_plays_engines_of_both_protocols_to_the_end() {
    let binary = env!("CARGO_BIN_EXE_fairy");
    let uci = format!("{binary} uci rules/minishogi.rules");
    let xboard = format!("{binary} xboard rules/minishogi.rules");
    let record = std::env::temp_dir().join(format!("fairy-match-{}", std::process::id()));
    let record = record.to_string_lossy().into_owned();
    let (code, out) = run_match(&[
        "rules/minishogi.rules",
        "--engine",
        &uci,
        "--engine",
        &xboard,
        "--games",
        "2",
        "--movetime",
        "20",
        "--record",
        &record,
        "--json",
    ]);
    assert_eq!(code, Some(0), "{out}");
    let summary: serde_json::Value = serde_json::from_str(&out).expect("one JSON document");
    assert_eq!(summary["games"], 2, "{out}");
    assert_eq!(summary["faults"].as_array().map(Vec::len), Some(0), "{out}");
    let (wins, draws, losses) = (&summary["wins"], &summary["draws"], &summary["losses"]);
    let total = [wins, draws, losses]
        .iter()
        .map(|v| v.as_u64().expect("a count"))
        .sum::<u64>();
    assert_eq!(total, 2, "{out}");
    // Each record replays to the end its result names.
    for game in ["game-1.txt", "game-2.txt"] {
        let path = format!("{record}/{game}");
        let text = std::fs::read_to_string(&path).expect("a record");
        assert!(text.contains("# result: "), "{text}");
        let output = Command::new(binary)
            .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
            .args([
                "show",
                "rules/minishogi.rules",
                "--moves",
                &format!("@{path}"),
            ])
            .output()
            .expect("run fairy show");
        assert!(
            output.status.success(),
            "{}",
            String::from_utf8_lossy(&output.stderr)
        );
    }
    let _ = std::fs::remove_dir_all(&record);
}

#[test]
fn a_match_by_nodes_plays_the_same_games_however_loaded_the_machine() {
    let binary = env!("CARGO_BIN_EXE_fairy");
    let uci = format!("{binary} uci rules/minishogi.rules");
    let play = || {
        let (code, out) = run_match(&[
            "rules/minishogi.rules",
            "--engine",
            &uci,
            "--games",
            "2",
            "--nodes",
            "1500",
            "--json",
        ]);
        assert_eq!(code, Some(0), "{out}");
        let summary: serde_json::Value = serde_json::from_str(&out).expect("one JSON document");
        assert_eq!(summary["faults"].as_array().map(Vec::len), Some(0), "{out}");
        summary["results"].clone()
    };
    // No clock decides a move, so the second match, run beside other tests, repeats the first.
    let first = play();
    assert_eq!(first.as_array().map(Vec::len), Some(2), "{first}");
    assert_eq!(play(), first);
}

#[test]
fn a_match_by_nodes_says_when_its_games_repeat() {
    let binary = env!("CARGO_BIN_EXE_fairy");
    let uci = format!("{binary} uci rules/minishogi.rules");
    let record = std::env::temp_dir().join(format!("fairy-repeats-{}", std::process::id()));
    let play = |games: &str| {
        Command::new(binary)
            .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
            .args(["match", "rules/minishogi.rules", "--engine", &uci])
            .args(["--games", games, "--nodes", "800", "--record"])
            .arg(&record)
            .output()
            .expect("run fairy match")
    };
    let two = play("2");
    assert_eq!(two.status.code(), Some(0));
    assert!(!String::from_utf8_lossy(&two.stderr).contains("note"));
    let four = play("4");
    assert_eq!(four.status.code(), Some(0));
    let note = String::from_utf8_lossy(&four.stderr);
    assert!(note.contains("only 2 of the games can differ"), "{note}");
    // What the note says: the third game, from the same opening and seat, is the first again.
    let game = |n: usize| std::fs::read_to_string(record.join(format!("game-{n}.txt")));
    assert_eq!(game(3).expect("third game"), game(1).expect("first game"));
    let _ = std::fs::remove_dir_all(&record);
}

#[test]
fn a_match_by_nodes_refuses_an_xboard_engine() {
    let xboard = format!("{} xboard rules/chess.rules", env!("CARGO_BIN_EXE_fairy"));
    let output = Command::new(env!("CARGO_BIN_EXE_fairy"))
        .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
        .args([
            "match",
            "rules/chess.rules",
            "--engine",
            &xboard,
            "--nodes",
            "1000",
        ])
        .output()
        .expect("run fairy match");
    assert_eq!(output.status.code(), Some(2));
    let error = String::from_utf8_lossy(&output.stderr);
    assert!(error.contains("speaks XBoard"), "{error}");
}

#[test]
fn match_scores_an_engine_that_never_moves_as_losing() {
    // `cat` answers every command with itself: no protocol, no move.
    let (code, out) = run_match(&[
        "rules/chess.rules",
        "--engine",
        "cat",
        "--games",
        "2",
        "--movetime",
        "20",
    ]);
    assert_eq!(code, Some(0), "{out}");
    assert!(out.contains("+0 =0 -2"), "{out}");
    assert!(out.contains("sent no move in time"), "{out}");
}

#[test]
fn uci_takes_the_rest_of_its_commands() {
    let mut engine = Engine::start(&["uci", "rules/chess.rules"]);
    engine.send("setoption name Hash value 32");
    engine.send("setoption name Threads value 2");
    engine.send("isready");
    assert_eq!(engine.until(|l| l == "readyok"), ["readyok"]);
    engine.send("position startpos moves e2e4");
    engine.send("go nodes 2000");
    engine.line("bestmove");
    // Two threads find the mate in one that one thread finds.
    engine.send("position fen 6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1");
    engine.send("go depth 4");
    let lines = engine.until(|l| l.starts_with("bestmove"));
    assert_eq!(lines.last().map(String::as_str), Some("bestmove a1a8"));
    engine.send("position startpos moves e2e4");
    engine.send("go mate 1");
    engine.line("bestmove");
    // Pondering is searched like `go infinite`; `ponderhit` answers at once.
    engine.send("go ponder");
    engine.no_bestmove_for(Duration::from_millis(200));
    engine.send("ponderhit");
    engine.line("bestmove");
    engine.send("d");
    let fen = engine.line("fen: ");
    assert_eq!(
        fen,
        "fen: rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
    );
    engine.quit();
}

#[test]
fn xboard_takes_the_rest_of_its_commands() {
    let mut engine = Engine::start(&["xboard", "rules/chess.rules"]);
    engine.send("protover 2");
    engine.line("feature");
    engine.send("new");
    engine.send("memory 32");
    engine.send("cores 2");
    engine.send("level 40 0:30 0");
    engine.send("time 3000");
    engine.send("otim 3000");
    engine.send("nopost");
    engine.send("force");
    engine.send("usermove e2e4");
    engine.send("usermove e7e5");
    // Two moves back: White to move again, as at the start.
    engine.send("remove");
    engine.send("playother");
    engine.send("usermove d2d4");
    let lines = engine.until(|l| l.starts_with("move "));
    assert_eq!(lines.len(), 1, "thinking lines after nopost: {lines:?}");
    let reply = lines[0].trim_start_matches("move ");
    assert!(
        legal_moves("rules/chess.rules", "d2d4").contains(&reply.to_string()),
        "{reply}"
    );
    engine.send("result 1/2-1/2 {agreed}");
    engine.send("ping 3");
    // After `result` fairy is in force mode: a move is taken, not answered.
    let reply_to = legal_moves("rules/chess.rules", &format!("d2d4 {reply}"))[0].clone();
    engine.send(&format!("usermove {reply_to}"));
    engine.send("ping 4");
    let lines = engine.until(|l| l == "pong 4");
    assert_eq!(lines, ["pong 3", "pong 4"]);
    engine.quit();
}
