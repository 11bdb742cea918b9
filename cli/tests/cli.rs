//! The `fairy check` command on files that are not rule files, and bad usage: exit codes 0, 1
//! and 2, a diagnostic naming the file, and never a panic or a hang.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// What one run of the binary did.
struct Run {
    /// The exit code, or `None` when killed for taking longer than its limit.
    code: Option<i32>,
    stdout: String,
    stderr: String,
    took: Duration,
}

impl Run {
    #[track_caller]
    fn assert_exit(&self, code: i32, what: &str) {
        assert_eq!(
            self.code,
            Some(code),
            "{what}: exit code (None = killed after {:?})\nstdout: {}\nstderr: {}",
            self.took,
            self.stdout,
            self.stderr
        );
        assert!(
            !self.stderr.contains("panicked"),
            "{what}: panicked\n{}",
            self.stderr
        );
    }
}

/// Runs `fairy` with `args`, killing it after `limit`.
fn fairy(args: &[&str], limit: Duration) -> Run {
    let start = Instant::now();
    let mut child = Command::new(env!("CARGO_BIN_EXE_fairy"))
        .args(args)
        .env("RUST_BACKTRACE", "0")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start fairy");
    // Drain both pipes on threads of their own, so that a large report cannot block the child.
    let drain = |mut pipe: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            let _ = pipe.read_to_end(&mut bytes);
            String::from_utf8_lossy(&bytes).into_owned()
        })
    };
    let stdout = drain(Box::new(child.stdout.take().expect("stdout")));
    let stderr = drain(Box::new(child.stderr.take().expect("stderr")));
    let code = loop {
        if let Some(status) = child.try_wait().expect("wait for fairy") {
            break status.code();
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    Run {
        code,
        stdout: stdout.join().expect("stdout reader"),
        stderr: stderr.join().expect("stderr reader"),
        took: start.elapsed(),
    }
}

/// The time a run may take: a second, far more than these inputs need, and more for debug builds.
fn limit() -> Duration {
    Duration::from_secs(if cfg!(debug_assertions) { 10 } else { 1 })
}

/// A temporary file with unique name and the given contents, removed when dropped.
struct TempFile(PathBuf);

impl TempFile {
    fn new(stem: &str, contents: &[u8]) -> Self {
        static COUNTER: AtomicUsize = AtomicUsize::new(0);
        let name = format!(
            "fairy-cli-{}-{}-{stem}.rules",
            std::process::id(),
            COUNTER.fetch_add(1, Ordering::Relaxed)
        );
        let path = std::env::temp_dir().join(name);
        std::fs::write(&path, contents).expect("write a temporary file");
        TempFile(path)
    }

    fn path(&self) -> &str {
        self.0.to_str().expect("a UTF-8 temporary path")
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

/// The project's folder: the command line's crate is one folder down.
fn project() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
}

fn concept(name: &str) -> String {
    project()
        .join("tests/concepts")
        .join(format!("{name}.rules"))
        .to_string_lossy()
        .into_owned()
}

fn shipped(name: &str) -> String {
    project()
        .join("rules")
        .join(name)
        .to_string_lossy()
        .into_owned()
}

/// Runs `fairy` with `args`, expecting exit `code` and `text` in its output (either stream).
#[track_caller]
fn expect(args: &[&str], code: i32, text: &str) -> Run {
    let run = fairy(args, limit());
    run.assert_exit(code, &args.join(" "));
    assert!(
        run.stdout.contains(text) || run.stderr.contains(text),
        "{args:?}: no {text:?} in\n{}{}",
        run.stdout,
        run.stderr
    );
    run
}

/// Checks one path that is not a valid rule file: exit 1, and the path named on stderr.
#[track_caller]
fn refused(path: &str, what: &str) -> Run {
    let run = fairy(&["check", path], limit());
    run.assert_exit(1, what);
    assert!(
        run.stderr.contains(path),
        "{what}: stderr does not name {path}:\n{}",
        run.stderr
    );
    assert!(run.stdout.is_empty(), "{what}: stdout: {}", run.stdout);
    run
}

#[test]
fn a_valid_file_exits_0_with_its_summary() {
    let path = shipped("chess.rules");
    let run = fairy(&["check", &path], limit());
    run.assert_exit(0, "chess");
    assert!(
        run.stdout.contains(&format!("{path}: ok: Chess")),
        "{}",
        run.stdout
    );
}

#[test]
fn a_missing_file_is_refused() {
    let path = std::env::temp_dir().join(format!("fairy-cli-{}-missing.rules", std::process::id()));
    let run = refused(path.to_str().expect("UTF-8"), "missing file");
    assert!(run.stderr.contains("cannot read"), "{}", run.stderr);
}

#[test]
fn a_directory_is_refused() {
    let dir = std::env::temp_dir();
    refused(dir.to_str().expect("UTF-8"), "directory");
}

#[cfg(unix)]
#[test]
fn dev_null_is_an_empty_file() {
    let run = refused("/dev/null", "/dev/null");
    assert!(run.stderr.contains("names no game"), "{}", run.stderr);
}

#[test]
fn a_binary_file_is_refused_without_echoing_it() {
    let mut bytes: Vec<u8> = b"game \"binary\"\n".to_vec();
    let mut random = fairy::random::Random::new(0x2545_F491_4F6C_DD1D);
    bytes.extend((0..4096).map(|_| random.next_u64() as u8));
    let file = TempFile::new("binary", &bytes);
    let run = refused(file.path(), "binary file");
    assert!(run.stderr.contains("not UTF-8"), "{}", run.stderr);
    assert!(!run.stderr.contains('\u{1b}'), "escape byte on stderr");
}

#[test]
fn control_characters_stay_off_the_terminal() {
    let file = TempFile::new(
        "control",
        b"game \"x\"\n\x00\x07\x1b[2J\x1b]0;title\x07\x7f\n",
    );
    let run = refused(file.path(), "control characters");
    assert!(!run.stderr.contains('\u{1b}'), "escape byte on stderr");
    assert!(!run.stderr.contains('\u{7}'), "bell on stderr");
}

#[test]
fn a_file_over_4_mib_is_refused() {
    let line = "// padding to make the file too large for a rule file\n";
    let text = line.repeat((4 << 20) / line.len() + 1);
    assert!(text.len() > 4 << 20);
    let file = TempFile::new("huge", text.as_bytes());
    let run = refused(file.path(), "file over 4 MiB");
    assert!(run.stderr.contains("too large"), "{}", run.stderr);
}

#[test]
fn deep_nesting_is_refused() {
    let text = format!("game \"deep\"\nzone z = {}\n", "(".repeat(100_000));
    let file = TempFile::new("deep", text.as_bytes());
    let run = refused(file.path(), "deep nesting");
    assert!(run.stderr.contains("nesting too deep"), "{}", run.stderr);
}

#[test]
fn one_bad_file_among_good_ones_exits_1() {
    let good = shipped("chess.rules");
    let bad = TempFile::new("bad", b"game \"bad\"\nboard 8 x\n");
    let run = fairy(&["check", &good, bad.path(), &good], limit());
    run.assert_exit(1, "mixed files");
    assert_eq!(run.stdout.matches(": ok: ").count(), 2, "{}", run.stdout);
    assert!(run.stderr.contains(bad.path()), "{}", run.stderr);
}

#[test]
fn bad_usage_exits_2() {
    for args in [
        &[][..],
        &["check"][..],
        &["frobnicate"][..],
        &["check", "--bogus", "x"][..],
        &["--bogus"][..],
        &["check", "--", ""][..],
        &["check", "-", "-"][..],
    ] {
        let run = fairy(args, limit());
        if args == ["check", "--", ""] {
            // An empty file name is a file that cannot be read, not bad usage.
            run.assert_exit(1, "empty file name");
            continue;
        }
        run.assert_exit(2, &format!("fairy {args:?}"));
        assert!(!run.stderr.is_empty(), "fairy {args:?}: nothing on stderr");
    }
}

#[test]
fn help_and_version_exit_0() {
    for args in [
        &["--help"][..],
        &["--version"][..],
        &["check", "--help"][..],
    ] {
        let run = fairy(args, limit());
        run.assert_exit(0, &format!("fairy {args:?}"));
        assert!(!run.stdout.is_empty());
    }
}

// ---------------------------------------------------------------------------------------------
// Regression tests for hangs found by this suite.

#[cfg(unix)]
#[test]
fn dev_zero_is_refused_in_time() {
    // Killed after a second: it allocates fast while it reads.
    let run = fairy(&["check", "/dev/zero"], Duration::from_secs(1));
    run.assert_exit(1, "/dev/zero");
    assert!(run.stderr.contains("/dev/zero"), "{}", run.stderr);
}

#[test]
fn many_problems_are_reported_in_time() {
    // 800 kB of broken items: once rendered in minutes. Each item is parsed twice (the error,
    // then the repair), so it takes most of a second on a 2-core machine alone, and more while
    // the suite's other tests run beside it: three seconds tell that from minutes.
    let file = TempFile::new("many-problems", "piece X\n".repeat(100_000).as_bytes());
    let run = fairy(&["check", file.path()], 3 * limit());
    run.assert_exit(1, "100,000 problems");
    assert!(run.stderr.contains(file.path()));
}

/// A castling whose path crosses a hole can never happen: no castling move, and no panic.
#[test]
fn castling_across_a_hole_is_no_castling() {
    for hole in ["b1", "c1"] {
        let text = format!(
            "game \"castling across a hole\"
            board 4 x 2 holes {{ {hole} }}
            player White forward north
            player Black forward south
            piece King K {{ royal step all castle sideways 2 with Rook unmoved }}
            piece Rook R {{ slide orthogonal }}
            setup White {{ King a1 Rook d1 }}
            setup Black {{ King c2 }}
            lose when checkmated"
        );
        let file = TempFile::new("hole", text.as_bytes());
        for command in ["moves", "show"] {
            let run = fairy(&[command, file.path()], limit());
            run.assert_exit(0, &format!("{command} with a hole at {hole}"));
            assert!(!run.stdout.contains("a1c1"), "{}", run.stdout);
        }
    }
}

/// A setup whose player to move could take the other's King is a position no game reaches:
/// `check` and the commands that play refuse it, naming the King and its square, and pointing
/// at the setup of the King's player (not at the first word `setup` in the text).
#[test]
fn a_start_position_with_the_other_king_in_check_is_refused() {
    let text = "// a setup of kings side by side
        game \"kings side by side: a setup no game reaches\"
        board 4 x 2
        player White forward north
        player Black forward south
        piece King K { royal step all }
        setup White { King a1 }
        setup Black { King a2 }
        lose when checkmated";
    let file = TempFile::new("kings", text.as_bytes());
    let message =
        "the start position is impossible: Black's King on a2 is attacked with White to move";
    for command in ["check", "moves", "show"] {
        expect(&[command, file.path()], 1, message);
    }
    let run = fairy(&["check", "--json", file.path()], limit());
    let report: serde_json::Value = serde_json::from_str(&run.stdout).expect("one JSON document");
    let problem = &report["files"][0]["problems"][0];
    assert_eq!(problem["code"], "impossible-start");
    let line = problem["line"].as_u64().expect("a line") as usize;
    let located = text.lines().nth(line - 1).expect("a line of the file");
    assert_eq!(located.trim(), "setup Black { King a2 }");
}

/// A valid file with several rules the engine does not run: `check` names them all at once,
/// says the file checks but cannot be played, and exits with 3 (1 if another file is invalid);
/// `--json` says `"playable": false` and lists them where they are.
#[test]
fn check_names_every_rule_not_run_at_once() {
    let text = "game \"not yet\"
        board 8 x 8
        player White forward north
        player Black forward south
        piece King K { royal step all }
        piece Relay X { step all grant enemy orthogonal { slide away } }
        capture custodian orthogonal
        setup White { King e1 Relay d1 }
        setup Black { King e8 Relay d8 }
        lose when checkmated";
    let file = TempFile::new("not-yet", text.as_bytes());
    let run = expect(
        &["check", file.path()],
        3,
        "checks, but cannot be played: the engine does not run",
    );
    for rule in [
        "granted moves in a game with royal pieces",
        "custodian capture in a game with royal pieces",
    ] {
        assert!(run.stdout.contains(rule), "{rule} in {}", run.stdout);
    }
    let bad = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../tests/bad/custodian-away.rules"
    );
    expect(
        &["check", file.path(), bad],
        1,
        "checks, but cannot be played",
    );
    let run = fairy(&["check", "--json", file.path()], limit());
    assert_eq!(run.code, Some(3), "{}", run.stderr);
    let report: serde_json::Value = serde_json::from_str(&run.stdout).expect("one JSON document");
    let verdict = &report["files"][0];
    assert_eq!(
        (verdict["valid"].clone(), verdict["playable"].clone()),
        (true.into(), false.into())
    );
    let rules: Vec<&str> = (verdict["not_run"].as_array().expect("a list").iter())
        .map(|rule| rule["rule"].as_str().expect("a rule"))
        .collect();
    assert_eq!(rules.len(), 2, "{rules:?}");
    let playable = fairy(&["check", "--json", &shipped("chess.rules")], limit());
    assert!(
        playable.stdout.contains("\"playable\": true"),
        "{}",
        playable.stdout
    );
}

/// A file that needs more castling rights than positions can hold is valid, but cannot be
/// played: `check` says so with a warning at the castle clause, and the commands that play
/// refuse it. (Both learn it from the compiler, which counts the rights.)
#[test]
fn more_castling_rights_than_fit_are_said_not_to_be_run() {
    let kings = "a1 c1 e1 g1 i1 k1 m1 o1 q1 s1 u1 w1 y1";
    let rooks = "b1 d1 f1 h1 j1 l1 n1 p1 r1 t1 v1 x1 z1";
    let text = format!(
        "game \"many rights\"
        board 26 x 4
        player White forward north
        player Black forward south
        piece King K {{ step all castle sideways 2 with Rook unmoved }}
        piece Rook R {{ slide orthogonal }}
        setup White {{ King {kings} Rook {rooks} }}
        setup Black {{ King {} Rook {} }}
        lose when extinct",
        kings.replace('1', "4"),
        rooks.replace('1', "4")
    );
    let file = TempFile::new("rights", text.as_bytes());
    let run = expect(&["check", file.path()], 3, "more than 32 castling rights");
    assert!(run.stderr.contains("not-run-yet"), "{}", run.stderr);
    for command in ["moves", "show"] {
        expect(
            &[command, file.path()],
            3,
            "cannot play this game: the engine does not run these rules yet: more than 32 castling rights",
        );
    }
}

/// A reader that stops reading ends the command quietly; a full disk is a one-line error.
#[test]
fn closed_and_full_standard_output() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_fairy"))
        .args(["moves", &shipped("amazons.rules")])
        .env("RUST_BACKTRACE", "0")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start fairy");
    // Closed before the rule file is even compiled, so the first write finds no reader.
    drop(child.stdout.take());
    let output = child.wait_with_output().expect("fairy ends");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "closed pipe: {stderr}");
    assert!(stderr.is_empty(), "closed pipe: {stderr}");

    let full = std::fs::File::create("/dev/full").expect("/dev/full");
    let output = Command::new(env!("CARGO_BIN_EXE_fairy"))
        .args(["check", &shipped("chess.rules")])
        .stdout(full)
        .output()
        .expect("run fairy");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "full disk: {stderr}");
    assert!(
        stderr.starts_with("error: cannot write to standard output")
            && !stderr.contains("panicked"),
        "full disk: {stderr}"
    );
}

/// Text that is not written as a move says how moves are written; a well-formed move that is
/// not legal says so and names the legal moves that start the same way.
#[test]
fn malformed_and_illegal_moves_get_different_messages() {
    let chess = shipped("chess.rules");
    for malformed in ["Nd3", "e1-d3", "zz", "é2e4", "e2e4,", "P@"] {
        let run = fairy(&["moves", &chess, "--moves", malformed], limit());
        run.assert_exit(1, malformed);
        assert!(
            run.stderr.contains("is not written as a move"),
            "{malformed}: {}",
            run.stderr
        );
    }
    expect(
        &["moves", &chess, "--moves", "e2e5"],
        1,
        "a Pawn does not move from e2 to e5 here\n  │ legal turns starting with `e2`: e2e3 e2e4",
    );
    expect(
        &["moves", &chess, "--moves", "a3a4"],
        1,
        "`a3a4` is not legal here: there is no piece on a3",
    );
}

/// A position a game with royal pieces cannot reach is refused with the reason; where the
/// file ends the game by taking the royal piece, a position without it is a finished game.
#[test]
fn positions_without_or_with_extra_royal_pieces_are_refused() {
    let chess = shipped("chess.rules");
    for (fen, reason) in [
        ("8/8/8/8/8/8/8/4k3 w - - 0 1", "White has no King"),
        ("4k3/8/8/8/8/8/8/8 b - - 0 1", "White has no King"),
        ("4k3/8/8/8/8/8/8/K3K3 w - - 0 1", "White has 2 Kings"),
    ] {
        expect(&["show", &chess, "--fen", fen], 1, reason);
    }
    let crazyhouse = shipped("crazyhouse.rules");
    expect(
        &[
            "show",
            &crazyhouse,
            "--fen",
            "4k3/8/8/8/8/8/8/4K3[K] w - - 0 1",
        ],
        1,
        "White has 2 Kings: this game gives them at most 1",
    );
    let amphora = shipped("amphora.rules");
    expect(
        &[
            "show",
            &amphora,
            "--fen",
            "p3p/p1p/p4/3g1P1/4P2/3K1/P2/1PPPP[] b - - 0 21",
        ],
        0,
        "result: White wins",
    );
}

/// `fairy check -` reads a rule file from standard input.
#[test]
fn check_reads_standard_input() {
    for (text, code, expected) in [
        (
            std::fs::read(shipped("chess.rules")).expect("chess"),
            0,
            "<stdin>: ok: Chess",
        ),
        (
            b"game \"x\"\nboard 0 x 3\n".to_vec(),
            1,
            "<stdin>: 2 errors",
        ),
    ] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_fairy"))
            .args(["check", "-"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start fairy");
        std::io::Write::write_all(&mut child.stdin.take().expect("stdin"), &text)
            .expect("write the rule file");
        let output = child.wait_with_output().expect("fairy ends");
        let all = format!(
            "{}{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        );
        assert_eq!(output.status.code(), Some(code), "{all}");
        assert!(all.contains(expected), "{all}");
    }
}

/// `fairy test` says when a file has no test blocks, and still succeeds.
#[test]
fn test_says_when_a_file_has_no_test_blocks() {
    let file = TempFile::new(
        "no-tests",
        std::fs::read(shipped("chess.rules"))
            .expect("chess")
            .split(|&b| b == b'\n')
            .take_while(|l| !l.starts_with(b"test "))
            .collect::<Vec<_>>()
            .join(&b'\n')
            .as_slice(),
    );
    expect(&["test", file.path()], 0, "no test blocks");
}

/// `fairy show` says when the player to move is in check, and from which pieces.
#[test]
fn show_says_check_and_by_which_pieces() {
    let chess = shipped("chess.rules");
    expect(
        &["show", &chess, "--moves", "e2e4 f7f6 d1h5"],
        0,
        "check: Black is in check from the Queen on h5",
    );
    let run = fairy(&["show", &chess], limit());
    run.assert_exit(0, "show the start");
    assert!(!run.stdout.contains("check:"), "{}", run.stdout);
}

/// `--json` on `check`: every file's verdict, each problem located by line and column.
#[test]
fn check_json_locates_every_problem() {
    let chess = shipped("chess.rules");
    let bad = project()
        .join("tests/bad/syntax-error-and-name-errors.rules")
        .to_string_lossy()
        .into_owned();
    let run = fairy(&["check", "--json", &chess, &bad, "no-such-file"], limit());
    run.assert_exit(1, "check --json");
    let report: serde_json::Value = serde_json::from_str(&run.stdout).expect("one JSON document");
    let files = report["files"].as_array().expect("files");
    assert_eq!(files.len(), 3);
    assert_eq!(files[0]["valid"], true);
    assert!(
        files[0]["summary"]
            .as_str()
            .unwrap()
            .starts_with("Chess: 2 players")
    );
    let problems = files[1]["problems"].as_array().expect("problems");
    let places: Vec<(u64, u64, &str)> = problems
        .iter()
        .map(|p| {
            let at = |k: &str| p[k].as_u64().expect("a number");
            (at("line"), at("column"), p["message"].as_str().unwrap())
        })
        .collect();
    assert_eq!(
        places,
        [
            (9, 8, "unexpected `al`"),
            (14, 14, "unknown piece `Quen`"),
            (18, 28, "square `e9` is off the board")
        ]
    );
    assert_eq!(problems[1]["help"], "did you mean `Queen`?");
    let codes: Vec<&str> = problems
        .iter()
        .map(|p| p["code"].as_str().unwrap())
        .collect();
    assert_eq!(codes, ["syntax-error", "unknown-piece", "square-off-board"]);
    assert_eq!(files[2]["valid"], false);
    assert!(files[2]["error"].as_str().is_some());
}

/// `check` estimates what one position of a file may cost: a warning past what plays well,
/// and the numbers in `--json`.
#[test]
fn check_warns_of_costly_positions() {
    let drops = project().join("tests/costly/three-drops.rules");
    let drops = drops.to_string_lossy();
    let run = expect(&["check", &drops], 0, "costly-positions");
    assert!(
        run.stderr
            .contains("a position may have about 309 million ways to make a turn"),
        "{}",
        run.stderr
    );
    let chess = shipped("chess.rules");
    let quiet = expect(&["check", &chess], 0, "ok");
    assert!(quiet.stderr.is_empty(), "{}", quiet.stderr);
    let run = fairy(&["check", "--json", &chess, &drops], limit());
    run.assert_exit(0, "check --json");
    let report: serde_json::Value = serde_json::from_str(&run.stdout).expect("one JSON document");
    let files = &report["files"];
    assert!(files[0]["cost"]["turns"].as_u64().unwrap() < 1000);
    assert_eq!(files[0]["cost"]["replies"], serde_json::Value::Null);
    assert_eq!(files[1]["cost"]["turns"], 26u64.pow(6));
    assert_eq!(files[1]["problems"][0]["code"], "costly-positions");
    assert_eq!(files[1]["problems"][0]["severity"], "warning");
}

/// Judging turns by every reply is estimated as turns times replies, and a file where that
/// may take long is told so at its `royal-captured` rule.
#[test]
fn check_warns_where_replies_may_cost_much() {
    let text = "game \"two moves\"
        board 26 x 26
        player White forward north
        player Black forward south
        piece King K { royal step all }
        piece Queen Q { slide all }
        turn { move then move }
        setup White { King a1  Queen c3 d1 g1 j1 m1 p1 }
        setup Black { King z26  Queen a9 d26 g26 j26 m26 p26 }
        lose when royal-captured
        draw when no-moves";
    let file = TempFile::new("two-moves", text.as_bytes());
    let run = expect(&["check", file.path()], 0, "of the opponent's replies");
    assert!(
        run.stderr.contains("lose when royal-captured"),
        "{}",
        run.stderr
    );
    let run = fairy(&["check", "--json", file.path()], limit());
    let report: serde_json::Value = serde_json::from_str(&run.stdout).expect("one JSON document");
    let cost = &report["files"][0]["cost"];
    let (turns, replies) = (
        cost["turns"].as_u64().unwrap(),
        cost["replies"].as_u64().unwrap(),
    );
    assert!(replies >= turns * 1000, "{cost}");
}

/// `--json` on `moves`, `perft --divide` and `show` says what the plain output says.
#[test]
fn moves_perft_and_show_json_agree_with_the_plain_output() {
    let chess = shipped("chess.rules");
    let json = |args: &[&str]| -> serde_json::Value {
        let run = fairy(args, limit());
        run.assert_exit(0, &args.join(" "));
        serde_json::from_str(&run.stdout).expect("one JSON document")
    };
    let plain = fairy(&["moves", &chess, "--moves", "e2e4"], limit()).stdout;
    let listed = json(&["moves", &chess, "--moves", "e2e4", "--json"]);
    let listed: Vec<&str> = listed["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap())
        .collect();
    assert_eq!(listed, plain.lines().collect::<Vec<_>>());
    let divided = json(&["perft", &chess, "3", "--divide", "--json"]);
    assert_eq!(divided["nodes"], 8902);
    let rows = divided["divide"].as_array().unwrap();
    assert_eq!(rows.len(), 20);
    let sum: u64 = rows.iter().map(|r| r["nodes"].as_u64().unwrap()).sum();
    assert_eq!(sum, 8902);
    let shown = json(&["show", &chess, "--moves", "f2f3 e7e5 g2g4 d8h4", "--json"]);
    assert_eq!(shown["result"]["text"], "Black wins: White is checkmated");
    assert_eq!(shown["check"][0]["square"], "h4");
    assert_eq!(shown["board"][0][4], "k");
    assert_eq!(shown["to_move"], "White");
}

/// `--max-nodes` stops a perft or a test that would run for hours, with a clear message.
#[test]
fn max_nodes_stops_perft_and_test() {
    let chess = shipped("chess.rules");
    expect(
        &["perft", &chess, "5", "--max-nodes", "1000"],
        1,
        "perft stopped after counting more than 1000 leaf nodes (--max-nodes)",
    );
    expect(&["perft", &chess, "2", "--max-nodes", "1000"], 0, "400");
    expect(
        &["test", &chess, "--max-nodes", "1000"],
        1,
        "FAILED: stopped after counting more than 1000 leaf nodes",
    );
    // A test asking for billions of nodes is valid, with a warning when checked.
    let text =
        std::fs::read_to_string(&chess).unwrap() + "test \"deep\" { perft 9 = 2439530234167 }\n";
    let file = TempFile::new("deep-test", text.as_bytes());
    let run = expect(
        &["check", file.path()],
        0,
        "far more than a few seconds of `fairy test`",
    );
    assert!(run.stdout.contains(": ok: Chess"), "{}", run.stdout);
}

/// A board with holes written as Fairy-Stockfish writes it, every file with `*` on the holes,
/// reads as the same position.
#[test]
fn holes_written_as_stars_read_as_holes() {
    let amphora = shipped("amphora.rules");
    let starred = "*ppkpp*/**ppp**/*5*/7/7/*5*/**PPP**/*PPKPP*[Gg] w - - 0 1";
    expect(
        &["show", &amphora, "--fen", starred],
        0,
        "fen: ppkpp/ppp/5/7/7/5/PPP/PPKPP[Gg] w - - 0 1",
    );
    // Over the whole width, a hole without its star is not read as one.
    expect(
        &[
            "show",
            &amphora,
            "--fen",
            "1ppkpp1/**ppp**/*5*/7/7/*5*/**PPP**/*PPKPP*[Gg] w - - 0 1",
        ],
        1,
        "rank 8 has 5 squares, and 7 are given",
    );
}

/// Where `K` could name two castling rights, positions name them by the partner's file, and a
/// bare `K` is refused with the way to write it.
#[test]
fn ambiguous_castling_rights_are_named_by_file() {
    let rules = concept("castle-orthogonal");
    let board = "r3k2r/8/8/4r3/4R3/8/8/R3K2R";
    expect(
        &["show", &rules],
        0,
        &format!("fen: {board} w EHQkae - 0 1"),
    );
    expect(
        &["show", &rules, "--fen", &format!("{board} w Kkae - 0 1")],
        1,
        "castling right `K` could be several: name the partner's file",
    );
    let run = expect(
        &["moves", &rules, "--fen", &format!("{board} w Hkae - 0 1")],
        0,
        "e1g1",
    );
    assert!(!run.stdout.contains("e1e3"), "{}", run.stdout);
}

/// A piece behaves the same however it came to stand where it is. A Pawn that turned into a
/// Rook (`+P`) by moving turns back when it moves again, and the `+p` the setup placed goes to
/// hand as a Pawn when taken; read from the start position's text, the same happens.
#[test]
fn a_promoted_piece_behaves_the_same_however_it_came() {
    let rules = concept("turn-over");
    let start = ["--fen", "2k1s/1+p1p1/5/1P1+P1/S1K2[] w - - 0 1"];
    for given in [&[][..], &start[..]] {
        let moves = [&["moves", &rules][..], given, &["--moves", "b2b3+ c5c4"]].concat();
        let run = expect(&moves, 0, "b3b4p\n");
        assert!(!run.stdout.contains("b3b4\n"), "{}", run.stdout);
        let show = [
            &["show", &rules][..],
            given,
            &["--moves", "b2b3+ c5c4 b3b4p"],
        ]
        .concat();
        expect(&show, 0, "fen: 4s/1Pkp1/5/3+P1/S1K2[P] b - - 0 2");
    }
}

/// In shogi a `+p` read from a position goes to hand as a Pawn, as a promoted Pawn does.
#[test]
fn a_promoted_pawn_read_from_a_position_goes_to_hand_as_a_pawn() {
    let fen = "4k4/9/9/9/9/9/4+p4/4G4/4K4[] w - - 0 1";
    expect(
        &[
            "show",
            &shipped("shogi.rules"),
            "--fen",
            fen,
            "--moves",
            "e2e3",
        ],
        0,
        "fen: 4k4/9/9/9/9/9/4G4/9/4K4[P] b - - 0 1",
    );
}

/// A Berolina Pawn's en passant field names the square passed and the Pawn's, read in either
/// order and written passed square first.
#[test]
fn a_slanting_en_passant_field_names_both_squares() {
    let rules = project()
        .join("variants/berolina.rules")
        .to_string_lossy()
        .into_owned();
    let board = "rnbqkbnr/pppp1ppp/8/8/5pP1/8/PPPP1PPP/RNBQKBNR";
    for field in ["f3g4", "g4f3"] {
        let fen = format!("{board} b KQkq {field} 0 1");
        expect(
            &["show", &rules, "--fen", &fen],
            0,
            &format!("fen: {board} b KQkq f3g4 0 1"),
        );
        expect(&["moves", &rules, "--fen", &fen], 0, "f4f3\n");
    }
}

/// In a game where nothing is ever in hand, an extra rank is refused, not read as a hand (it
/// once held the King, which the written position then lost).
#[test]
fn an_extra_rank_is_no_hand_where_nothing_goes_to_hand() {
    let fen = "rnbqkbnr/pppppppp/8/8/8/8/P7/1PPPPPPP/RNBQKBNR b kq - 0 1";
    expect(
        &["show", &shipped("chess.rules"), "--fen", fen],
        1,
        "no piece is ever in hand in this game",
    );
}

/// A player taken out of the game loses their castling rights with their pieces, so positions
/// name none of them and read back.
#[test]
fn a_player_taken_out_keeps_no_castling_right() {
    let rules = concept("castle-player-out");
    let run = expect(&["show", &rules], 0, " r rbg - - 0 1");
    let fen = run
        .stdout
        .lines()
        .find_map(|l| l.strip_prefix("fen: "))
        .expect("a fen line");
    expect(&["show", &rules, "--fen", fen], 0, &format!("fen: {fen}"));
}

/// A message quotes at most 60 characters of the input it is about, however long the input: a
/// long move list or position is not echoed back whole.
#[test]
fn long_bad_input_is_quoted_short() {
    let chess = shipped("chess.rules");
    let word = "e".repeat(100_000);
    let position = format!("8/8/8/8/8/8/8/8 w - - 0 1 {word}=1");
    let moves = format!("e2e4 {word}");
    for (option, text) in [("--fen", &position), ("--moves", &moves)] {
        let run = expect(
            &["show", &chess, option, text],
            1,
            &format!("{}…`", &word[..60]),
        );
        assert!(run.stderr.len() < 2_000, "{option}: {}", run.stderr);
    }
}

/// A game record read by `--moves @FILE` is held to the limits of a rule file: at most 4 MiB
/// (even of a file that reports no size, as `/dev/zero`), and UTF-8 text.
#[test]
fn a_game_record_is_read_within_limits() {
    let chess = shipped("chess.rules");
    let huge = TempFile::new("huge-record", "e2e4 e7e5 ".repeat(500_000).as_bytes());
    let binary = TempFile::new("binary-record", b"e2e4 \xff\xfe\n");
    for (record, expected) in [
        (
            huge.path(),
            "too large for a game record (the limit is 4194304 bytes)",
        ),
        (binary.path(), "game records are plain UTF-8 text"),
        #[cfg(unix)]
        ("/dev/zero", "too large for a game record"),
    ] {
        let moves = format!("@{record}");
        let run = expect(&["show", &chess, "--moves", &moves], 1, expected);
        assert!(run.stderr.len() < 2_000, "{record}: {}", run.stderr);
    }
}

/// `phase=` reads only what a game's positions can be written with: a game played in one phase
/// names none, and `-` (every phase over) only where the last phase can end. Chess once read
/// `phase=-` as a finished game, and Yonin Bishogi as one that took players out.
#[test]
fn phases_a_game_cannot_have_are_refused() {
    let yonin = "2yPyRyKyByQyRyP2/3yPyNyByNyP3/gP3yPyPyP3bP/gRgP3yP3bPbR/gKgNgP5bPbNbQ/\
                 gBgBgPgP3bPbPbBbB/gQgNgP5bPbNbK/gRgP3rP3bPbR/gP3rPrPrP3bP/3rPrNrBrNrP3/\
                 2rPrRrQrBrKrRrP2[] r rbyg - - 0 1";
    let yagbap = "aqmcrrnnbb/10/10/10/10/10/10/10/10/AQMCRRNNBB[] w - - 21 21";
    for (game, position, expected) in [
        (
            "chess.rules",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 phase=-",
            "`phase=-`: this game is played in one phase",
        ),
        (
            "yonin-bishogi.rules",
            &format!("{yonin} phase=-"),
            "`phase=-`: this game is played in one phase",
        ),
        (
            "yagbap.rules",
            &format!("{yagbap} phase=- turns=0,0"),
            "`phase=-`: the last phase, `play`, lasts until the game ends",
        ),
    ] {
        expect(&["show", &shipped(game), "--fen", position], 1, expected);
    }
    expect(
        &[
            "show",
            &shipped("yagbap.rules"),
            "--fen",
            &format!("{yagbap} phase=play turns=0,0 swapped"),
        ],
        0,
        &format!("fen: {yagbap} phase=play turns=0,0 swapped"),
    );
}

/// The words after the move number are read as strictly as the rest: a counter within its
/// limit, each word once, `turns=` only where turns are counted, and every word after the
/// fields, never among them.
#[test]
fn state_words_a_game_cannot_have_are_refused() {
    let amphora = shipped("amphora.rules");
    let board = "ppkpp/ppp/5/7/7/5/PPP/PPKPP[Gg]";
    for (position, expected) in [
        (
            format!("{board} w - - 0 1 sideways-run=255,0"),
            "`sideways-run` is at most 3, and 255 is given",
        ),
        (
            format!("{board} w - - 0 1 sideways-run=1,0 sideways-run=0,0"),
            "`sideways-run=` is given twice",
        ),
        (
            format!("{board} w - - 0 1 turns=0,0"),
            "this game's positions have no `turns=`",
        ),
        (
            format!("{board} sideways-run=0,0 w - - 0 1"),
            "`sideways-run=0,0` stands before `w`: words such as it come last",
        ),
        (
            format!("{board} w - - 0 1 phase=play"),
            "`phase=play`: this game is played in one phase",
        ),
    ] {
        expect(&["show", &amphora, "--fen", &position], 1, expected);
    }
    let within = format!("{board} w - - 0 1 sideways-run=3,0 entitled=1,0");
    expect(
        &["show", &amphora, "--fen", &within],
        0,
        &format!("fen: {within}"),
    );
    expect(
        &[
            "show",
            &shipped("chess.rules"),
            "--fen",
            "8/8/8/8/8/8/8/8 w - - 0 1 sideways-run=0,0",
        ],
        1,
        "`sideways-run=0,0` is not a word of this game's positions: they have none",
    );
}

/// A file that is not UTF-8 is reported with its lines cut short: a long line is neither echoed
/// back whole nor drawn past the columns a report can draw (which once panicked).
#[test]
fn a_bad_byte_on_a_long_line_is_reported_briefly() {
    let mut record = "e2e4 ".repeat(200_000).into_bytes();
    record.extend(b"\xff\n");
    let mut rules = b"game \"long\"\n// ".to_vec();
    rules.extend(vec![b'a'; 100_000]);
    rules.extend(b"\n\xff\n");
    let (record, rules) = (
        TempFile::new("long-record", &record),
        TempFile::new("long-rules", &rules),
    );
    let chess = shipped("chess.rules");
    let moves = format!("@{}", record.path());
    for args in [
        &["show", &chess, "--moves", &moves][..],
        &["check", rules.path()][..],
    ] {
        let run = expect(args, 1, "byte 0xff is not valid UTF-8");
        assert!(run.stderr.len() < 2_000, "{args:?}: {}", run.stderr);
    }
}

/// `fairy piece` draws one piece's moves on an empty board: a Pawn moves ahead and captures
/// diagonally; an unknown piece, player or square is bad usage.
#[test]
fn a_piece_is_drawn_with_its_moves_and_captures() {
    let chess = shipped("chess.rules");
    let run = expect(
        &["piece", &chess, "pawn", "--on", "e2"],
        0,
        "Pawn (P) of White, from e2: 2 squares it moves to (o), 2 squares it captures on (x), 0 squares both (*)",
    );
    let ranks: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(ranks[5], "  3  . . . x o x . .", "{}", run.stdout);
    assert_eq!(ranks[4], "  4  . . . . o . . .", "{}", run.stdout);
    let run = expect(
        &["piece", &chess, "N", "--player", "black", "--on", "a8"],
        0,
        "Knight (N) of Black, from a8: 0 squares it moves to (o), 0 squares it captures on (x), 2 squares both (*)",
    );
    assert!(
        run.stdout.contains("  8  n . . . . . . ."),
        "{}",
        run.stdout
    );
    expect(
        &["piece", &chess, "Zebra"],
        2,
        "has no piece `Zebra`: its pieces are King (K)",
    );
    expect(
        &["piece", &chess, "King", "--player", "Red"],
        2,
        "has no player `Red`",
    );
    expect(
        &["piece", &chess, "King", "--on", "i9"],
        2,
        "`i9` is not a square of this board",
    );
}

/// `eval` prints each kind's value and every player's terms; after White castles, White's
/// royal safety is the higher; the JSON has the same totals; a bad move is refused.
#[test]
fn eval_prints_the_terms_of_each_player() {
    let chess = shipped("chess.rules");
    let moves = "e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 e1g1";
    let run = expect(
        &["eval", &chess, "--moves", moves],
        0,
        "values: King royal, Queen ",
    );
    let row = |label: &str| -> Vec<i32> {
        let line = (run.stdout.lines())
            .find(|l| l.starts_with(label))
            .expect(label);
        (line[label.len()..].split_whitespace())
            .map(|n| n.parse().expect("a number"))
            .collect()
    };
    let safety = row("royal safety");
    assert!(safety[0] > safety[1], "{}", run.stdout);
    let total = row("total");
    let json = fairy(&["eval", &chess, "--moves", moves, "--json"], limit());
    json.assert_exit(0, "eval --json");
    let document: serde_json::Value = serde_json::from_str(&json.stdout).expect("JSON");
    assert_eq!(document["players"][0]["total"], total[0]);
    assert_eq!(document["players"][1]["total"], total[1]);
    assert_eq!(document["to_move"], "Black");
    expect(&["eval", &chess, "--moves", "e2e5"], 1, "e2e5");
}

/// `fmt` rewrites a file into the canonical layout and leaves a formatted one alone; `--check`
/// changes nothing and fails on a file out of the layout; a file that does not parse is reported
/// and kept as it was.
#[test]
fn fmt_rewrites_checks_and_refuses() {
    let chess = std::fs::read_to_string(shipped("chess.rules")).expect("chess.rules");
    let messy = chess.replace("  royal\n", "      royal   \n\n\n");
    let file = TempFile::new("messy", messy.as_bytes());
    expect(
        &["fmt", "--check", file.path()],
        1,
        "not in the canonical layout",
    );
    assert_eq!(std::fs::read_to_string(file.path()).expect("read"), messy);
    expect(&["fmt", file.path()], 0, "");
    let formatted = std::fs::read_to_string(file.path()).expect("read");
    assert_eq!(formatted, chess.replace("  royal\n", "  royal\n\n"));
    expect(&["fmt", "--check", file.path()], 0, "");

    let broken = TempFile::new("broken", b"game \"x\"\nboard 8 x\n");
    let run = expect(
        &["fmt", broken.path()],
        1,
        "not formatted, as it does not parse",
    );
    assert!(run.stderr.contains("syntax-error"), "{}", run.stderr);
    let kept = std::fs::read(broken.path()).expect("read");
    assert_eq!(kept, b"game \"x\"\nboard 8 x\n");
}

/// `tune` plays a few games, fits the weights and writes them; the same seed writes the same
/// file; `eval`, `selfplay` and `uci` read it back.
#[test]
fn tune_writes_weights_that_the_players_read() {
    let chess = shipped("chess.rules");
    let out = TempFile::new("tuned", b"");
    let tune = [
        "tune",
        &chess,
        "--games",
        "10",
        "--nodes",
        "300",
        "--max-plies",
        "60",
        "--jobs",
        "2",
        "--seed",
        "3",
        "--out",
        out.path(),
    ];
    let run = fairy(&tune, Duration::from_secs(120));
    run.assert_exit(0, "tune");
    assert!(run.stderr.contains("fitting to"), "{}", run.stderr);
    assert!(run.stderr.contains("held out"), "{}", run.stderr);
    let written = std::fs::read_to_string(out.path()).expect("the weights file");
    assert!(written.starts_with("# Weights for Chess fitted by `fairy tune`: 10 games"));
    assert!(written.contains("[terms]\nplacement = ") && written.contains("[values]\nQueen = "));
    fairy(&tune, Duration::from_secs(120)).assert_exit(0, "tune again");
    assert_eq!(std::fs::read_to_string(out.path()).expect("read"), written);

    expect(&["eval", &chess, "--weights", out.path()], 0, "material");
    let selfplay = [
        "selfplay",
        &chess,
        "--games",
        "1",
        "--think-ms",
        "5",
        "--max-plies",
        "4",
        "--weights",
        out.path(),
    ];
    fairy(&selfplay, Duration::from_secs(30)).assert_exit(0, "selfplay --weights");
}

/// A weights file sets what it names, given or found beside the rule file; a wrong one, or
/// one given where it cannot apply, is refused with the reason.
#[test]
fn weights_files_are_read_and_checked() {
    let chess = shipped("chess.rules");
    let knight = TempFile::new("knight", b"[values]\nKnight = 999\n");
    expect(
        &["eval", &chess, "--weights", knight.path()],
        0,
        "Knight 999",
    );
    let unknown = TempFile::new("unknown", b"[terms]\nspeed = 1\n");
    let run = expect(
        &["eval", &chess, "--weights", unknown.path()],
        1,
        "no term `speed`; the terms are placement, mobility",
    );
    assert!(run.stderr.contains(unknown.path()), "{}", run.stderr);
    expect(
        &["play", &chess, "--weights", "/nonexistent/w.toml"],
        1,
        "/nonexistent/w.toml",
    );
    let game = TempFile::new("game", &std::fs::read(&chess).expect("chess.rules"));
    let beside = game.0.with_extension("weights");
    std::fs::write(&beside, "[values]\nKnight = 777\n").expect("write the weights");
    let run = expect(&["eval", game.path()], 0, "Knight 777");
    assert!(run.stdout.starts_with("weights: "), "{}", run.stdout);
    expect(
        &["eval", game.path(), "--weights", knight.path()],
        0,
        "Knight 999",
    );
    let run = expect(&["eval", game.path(), "--derived-weights"], 0, "Knight 344");
    assert!(run.stdout.starts_with("values: "), "{}", run.stdout);
    std::fs::write(&beside, "[values]\nKing = 1\n").expect("write the weights");
    expect(
        &["selfplay", game.path(), "--games", "1"],
        1,
        "royal pieces have no value",
    );
    let _ = std::fs::remove_file(&beside);
    expect(
        &["uci", "--weights", knight.path()],
        2,
        "--weights is for one game: give exactly one rule file",
    );
}

/// A game of four players is fitted as one of two: each position predicts its player's share
/// of the win against the others still in.
#[test]
fn tune_fits_a_game_of_four_players() {
    let yonin = shipped("yonin-bishogi.rules");
    let tune = [
        "tune",
        &yonin,
        "--games",
        "4",
        "--nodes",
        "100",
        "--max-plies",
        "40",
        "--jobs",
        "1",
    ];
    let run = fairy(&tune, Duration::from_secs(120));
    run.assert_exit(0, "tune");
    assert!(run.stderr.contains("fitting to"), "{}", run.stderr);
    assert!(
        run.stdout
            .starts_with("# Weights for Yonin Bishogi fitted by `fairy tune`: 4 games"),
        "{}",
        run.stdout
    );
}
