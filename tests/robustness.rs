//! Robustness: no text, however damaged, may make the checker panic, hang or point outside the
//! text, and every verdict either summarises a valid file or carries at least one error.
//!
//! Damaged copies of the shipped rule files come from a fixed-seed xorshift generator, so every
//! run checks the same inputs; a failure names the damage and saves the text under the system's
//! temporary directory for reproduction. Targeted cases cover what random damage rarely reaches:
//! empty text, deep nesting, megabytes of input, huge numbers and odd squares and boards.
//!
//! The cases at the end each once found a panic or a hang, and stay as regression tests.

use fairy::diagnostic::Span;
use fairy::diagnostic::{FileReport, Problem, render_plain};
use fairy::pipeline::{self, Loaded};
use fairy::random::Random;
use fairy::source::printable;
use miette::NamedSource;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::mpsc;
use std::time::{Duration, Instant};

// ---------------------------------------------------------------------------------------------
// Inputs

/// Picks one of `items` (not empty).
fn pick<'a, T>(rng: &mut Random, items: &'a [T]) -> &'a T {
    &items[rng.below(items.len())]
}

/// The shipped rule files, by name, in name order.
fn shipped() -> Vec<(String, String)> {
    let dir = format!("{}/rules", env!("CARGO_MANIFEST_DIR"));
    let mut files: Vec<(String, String)> = std::fs::read_dir(&dir)
        .expect("rules directory")
        .map(|entry| entry.expect("directory entry").path())
        .filter(|path| path.extension().is_some_and(|e| e == "rules"))
        .map(|path| {
            let name = path
                .file_name()
                .expect("file name")
                .to_string_lossy()
                .into();
            (name, std::fs::read_to_string(&path).expect("shipped file"))
        })
        .collect();
    files.sort();
    files
}

fn chess() -> String {
    shipped()
        .into_iter()
        .find(|(name, _)| name == "chess.rules")
        .expect("chess.rules")
        .1
}

/// What random damage inserts: the grammar's punctuation and keywords, digits and numbers,
/// squares, quotes, comment markers, non-ASCII letters and control characters.
const VOCABULARY: &[&str] = &[
    "{",
    "}",
    "(",
    ")",
    "[",
    "]",
    ":",
    ",",
    "=",
    "==",
    "!=",
    ">=",
    "<",
    "..",
    ".",
    "x",
    "+",
    "-",
    "#",
    "\"",
    "\\",
    "\\\"",
    "/",
    "*",
    "//",
    "/*",
    "*/",
    " ",
    "\n",
    "\t",
    "\r",
    "\r\n",
    "0",
    "1",
    "7",
    "9",
    "26",
    "27",
    "4294967295",
    "99999999999999999999999",
    "a0",
    "a1",
    "z26",
    "h8",
    "e4..e8",
    "game",
    "board",
    "player",
    "zone",
    "piece",
    "capture",
    "counter",
    "turn",
    "phase",
    "on",
    "win",
    "lose",
    "draw",
    "setup",
    "test",
    "rank",
    "ranks",
    "file",
    "files",
    "and",
    "or",
    "not",
    "next-to",
    "any",
    "royal",
    "move",
    "moves",
    "step",
    "slide",
    "leap",
    "ride",
    "hop",
    "beyond",
    "anywhere",
    "betza",
    "like",
    "up-to",
    "from",
    "lame",
    "en-passant",
    "passable",
    "first",
    "as",
    "may",
    "promote",
    "to",
    "in",
    "via",
    "drop",
    "gate",
    "explodes",
    "immune",
    "petrifies",
    "one-per-file",
    "lone-anywhere",
    "unlimited",
    "converting",
    "flanked",
    "convert",
    "full",
    "standoff",
    "peaceful",
    "opposite-colours",
    "no-mate",
    "grant",
    "enemy",
    "own",
    "castle",
    "castling",
    "with",
    "unmoved",
    "safe",
    "to-hand",
    "compulsory",
    "custodian",
    "none",
    "limit",
    "lost",
    "checked",
    "turn-end",
    "add",
    "set",
    "reset",
    "every",
    "then",
    "optional",
    "if",
    "shoot",
    "after",
    "unblock",
    "remove",
    "else",
    "except",
    "pie",
    "pass",
    "by",
    "once",
    "until",
    "hand-empty",
    "hand",
    "enter",
    "when",
    "plies",
    "without",
    "checkmated",
    "stalemated",
    "no-moves",
    "royal-captured",
    "exposed",
    "extinct",
    "as-is",
    "per-file",
    "promoted",
    "together",
    "more",
    "pieces",
    "odds",
    "takes",
    "over",
    "reaches",
    "followed",
    "unless",
    "passed",
    "fewer",
    "than",
    "bare",
    "reply",
    "forbid",
    "check",
    "flight",
    "sideways",
    "vertical",
    "repeated",
    "immobilized",
    "position",
    "perft",
    "shape",
    "holes",
    "forward",
    "north",
    "south",
    "east",
    "west",
    "all",
    "orthogonal",
    "diagonal",
    "narrow",
    "wide",
    "away",
    "King",
    "Pawn",
    "White",
    "Black",
    "é",
    "ß",
    "λ",
    "Ж",
    "中",
    "𝔄",
    "🂡",
    "\u{0}",
    "\u{1b}",
    "\u{7f}",
    "\u{feff}",
    "\u{202e}",
    "x + y >= 16",
    "(1,2)",
    "betza \"fmW\"",
    "betza \"é\"",
];

/// The largest char boundary at or below `at`.
fn floor_boundary(text: &str, at: usize) -> usize {
    let mut at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

/// A random char boundary of `text`, end included.
fn random_boundary(rng: &mut Random, text: &str) -> usize {
    floor_boundary(text, rng.below(text.len() + 1))
}

/// Damaged copies of one file: truncations, single edits, swapped and duplicated lines, and
/// splices with the other files. Each comes with a description of its damage.
fn damaged(index: usize, files: &[(String, String)]) -> Vec<(String, String)> {
    let (name, text) = &files[index];
    let mut rng = Random::new(0x9E37_79B9_7F4A_7C15 ^ (index as u64 + 1).wrapping_mul(0x1000_0001));
    let mut out = Vec::new();

    // Truncations at a spread of offsets, and at every line end of the first lines.
    const TRUNCATIONS: usize = 200;
    for k in 0..=TRUNCATIONS {
        let at = floor_boundary(text, text.len() * k / TRUNCATIONS + rng.below(7));
        out.push((format!("{name} cut at {at}"), text[..at].to_string()));
    }

    // Single-character deletions, insertions and replacements.
    const EDITS: usize = 100;
    for _ in 0..EDITS {
        let at = floor_boundary(text, rng.below(text.len()));
        let next = text[at..].chars().next().map_or(0, char::len_utf8);
        let mut copy = text.clone();
        copy.replace_range(at..at + next, "");
        out.push((format!("{name} delete at {at}"), copy));

        let at = random_boundary(&mut rng, text);
        let token = *pick(&mut rng, VOCABULARY);
        let mut copy = text.clone();
        copy.insert_str(at, token);
        out.push((format!("{name} insert {token:?} at {at}"), copy));

        let at = floor_boundary(text, rng.below(text.len()));
        let next = text[at..].chars().next().map_or(0, char::len_utf8);
        let token = *pick(&mut rng, VOCABULARY);
        let mut copy = text.clone();
        copy.replace_range(at..at + next, token);
        out.push((format!("{name} replace at {at} with {token:?}"), copy));
    }

    // Swapped and duplicated lines.
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    for _ in 0..20 {
        let (a, b) = (rng.below(lines.len()), rng.below(lines.len()));
        let mut swapped = lines.clone();
        swapped.swap(a, b);
        out.push((format!("{name} swap lines {a} and {b}"), swapped.concat()));

        let a = rng.below(lines.len());
        let mut doubled = lines.clone();
        doubled.insert(a, lines[a]);
        out.push((format!("{name} duplicate line {a}"), doubled.concat()));
    }

    // Splices: the start of this file, the end of another.
    for (other_name, other) in files.iter().filter(|(n, _)| n != name) {
        for _ in 0..2 {
            let cut = random_boundary(&mut rng, text);
            let from = random_boundary(&mut rng, other);
            out.push((
                format!("{name}[..{cut}] + {other_name}[{from}..]"),
                format!("{}{}", &text[..cut], &other[from..]),
            ));
        }
    }
    out
}

// ---------------------------------------------------------------------------------------------
// Checking one text

/// Checks `text`, catching any panic; on success, returns the verdict and how long it took.
fn guarded(text: &str) -> Result<(Loaded, Duration), String> {
    let start = Instant::now();
    let verdict =
        catch_unwind(AssertUnwindSafe(|| pipeline::load_with_cost(text))).map_err(|payload| {
            let message = payload
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "a non-string panic".to_string());
            format!("panicked: {message}")
        })?;
    Ok((verdict, start.elapsed()))
}

/// What is wrong with a verdict on `text`, if anything.
fn verdict_problems(text: &str, verdict: &Loaded) -> Vec<String> {
    let mut wrong = Vec::new();
    let errors = verdict.problems.iter().filter(|p| p.is_error()).count();
    match (&verdict.summary, errors) {
        (None, 0) => wrong.push("no summary and no error".to_string()),
        (Some(_), n) if n > 0 => wrong.push(format!("a summary despite {n} errors")),
        _ => {}
    }
    for problem in &verdict.problems {
        let spans = std::iter::once(&problem.span).chain(problem.notes.iter().map(|(s, _)| s));
        for span in spans {
            if let Some(why) = bad_span(text, *span) {
                wrong.push(format!("{why} in problem {:?}", problem.message));
            }
        }
    }
    wrong
}

fn bad_span(text: &str, span: Span) -> Option<String> {
    if span.start > span.end {
        Some(format!("span {span:?} runs backwards"))
    } else if span.end > text.len() {
        Some(format!(
            "span {span:?} ends past the text's {} bytes",
            text.len()
        ))
    } else if !text.is_char_boundary(span.start) || !text.is_char_boundary(span.end) {
        Some(format!("span {span:?} cuts a character"))
    } else {
        None
    }
}

/// Renders the verdict as `fairy check` does when its standard error is not a terminal.
fn render(text: &str, problems: Vec<Problem>) -> Result<String, String> {
    let report = FileReport {
        source: NamedSource::new("damaged.rules", printable(text)),
        problems,
    };
    catch_unwind(AssertUnwindSafe(|| render_plain(&report, 100)))
        .map_err(|_| "rendering the report panicked".to_string())
}

/// Everything wrong with checking `text`: a panic, slowness, or a bad verdict.
fn failures(text: &str, render_too: bool, limit: Duration) -> Vec<String> {
    match guarded(text) {
        Err(panic) => vec![panic],
        Ok((verdict, took)) => {
            let mut wrong = verdict_problems(text, &verdict);
            if took > limit {
                wrong.push(format!("took {took:?}"));
            }
            if render_too && wrong.is_empty() {
                wrong.extend(render(text, verdict.problems).err());
            }
            wrong
        }
    }
}

/// Saves a failing input where a developer can run `fairy check` on it.
fn save(label: &str, text: &str) -> String {
    let slug: String = label
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .take(60)
        .collect();
    let path = std::env::temp_dir().join(format!("fairy-robustness-{slug}.rules"));
    match std::fs::write(&path, text) {
        Ok(()) => path.display().to_string(),
        Err(e) => format!("(not saved: {e})"),
    }
}

/// Asserts that checking `text` is sound, report included; returns the verdict.
#[track_caller]
fn sound(label: &str, text: &str) -> Loaded {
    let (verdict, _) = guarded(text).unwrap_or_else(|panic| panic!("{label}: {panic}"));
    let wrong = verdict_problems(text, &verdict);
    assert!(wrong.is_empty(), "{label}: {wrong:?}");
    if let Err(e) = render(text, verdict.problems.clone()) {
        panic!("{label}: {e}");
    }
    verdict
}

/// Checks `text` on a thread of its own and fails if it takes longer than `limit` (a hang
/// leaves the thread running, but the test still ends).
#[track_caller]
fn sound_within(label: &str, text: String, limit: Duration) -> Loaded {
    let (send, receive) = mpsc::channel();
    let worker_label = label.to_string();
    std::thread::Builder::new()
        .name(worker_label.clone())
        .spawn(move || {
            let result = guarded(&text).map(|(verdict, took)| {
                let wrong = verdict_problems(&text, &verdict);
                (verdict, took, wrong)
            });
            let _ = send.send(result);
        })
        .expect("spawn a checker thread");
    match receive.recv_timeout(limit) {
        Ok(Ok((verdict, _, wrong))) => {
            assert!(wrong.is_empty(), "{label}: {wrong:?}");
            verdict
        }
        Ok(Err(panic)) => panic!("{label}: {panic}"),
        Err(_) => panic!("{label}: no verdict within {limit:?}"),
    }
}

/// Time limits are for release builds. Builds with debug assertions may also be unoptimised and
/// share the machine with the damage test's threads, so they get far longer: the limit is there
/// to catch hangs and quadratic blow-ups, which overrun it by minutes.
fn budget(millis: u64) -> Duration {
    let factor = if cfg!(debug_assertions) { 30 } else { 1 };
    Duration::from_millis(millis * factor)
}

/// The limit for the known slow cases below: sized so that the current code takes tens of
/// seconds in the (optimised) test profile, and a linear one a fraction of a second.
const SLOW_CASE_LIMIT: Duration = Duration::from_secs(5);

fn errors(verdict: &Loaded) -> Vec<&Problem> {
    verdict.problems.iter().filter(|p| p.is_error()).collect()
}

/// Asserts that the file is rejected, with an error whose span covers `at` inside `snippet`
/// (the first occurrence of each) when `at` is given.
#[track_caller]
/// A bad square is rejected, at the square, both in a zone and in a setup.
fn square_rejected_in_zone_and_setup(chess: &str, square: &str) {
    let zone = format!("zone odd = {{{square}}}");
    let text = format!("{chess}\n{zone}\n");
    let verdict = sound(square, &text);
    rejected_at(&text, &verdict, &zone, Some(square));

    let king = format!("King {square}");
    let text = chess.replace("King e1", &king);
    let verdict = sound(square, &text);
    rejected_at(&text, &verdict, &king, Some(square));
}

fn rejected_at(text: &str, verdict: &Loaded, snippet: &str, at: Option<&str>) {
    let errors = errors(verdict);
    assert!(verdict.summary.is_none(), "{snippet:?}: accepted");
    let Some(at) = at else { return };
    let start =
        text.find(snippet).expect("snippet in text") + snippet.find(at).expect("`at` in snippet");
    assert!(
        errors
            .iter()
            .any(|p| p.span.start <= start && start < p.span.end.max(p.span.start + 1)),
        "{snippet:?}: no error at {at:?} (byte {start}): {errors:#?}"
    );
}

// ---------------------------------------------------------------------------------------------
// Damaged shipped files

#[test]
fn damaged_shipped_files_never_panic_and_always_explain() {
    let files = shipped();
    assert!(files.len() >= 10, "the ten shipped rule files");
    let started = Instant::now();
    let results: Vec<(usize, Vec<String>)> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..files.len())
            .map(|index| {
                let files = &files;
                scope.spawn(move || {
                    let cases = damaged(index, files);
                    let count = cases.len();
                    let mut found = Vec::new();
                    for (n, (label, text)) in cases.iter().enumerate() {
                        // Rendering is slow: render one case in eight, as `fairy check` would.
                        let wrong = failures(text, n % 8 == 0, Duration::from_secs(2));
                        if !wrong.is_empty() {
                            let saved = save(label, text);
                            found.push(format!("{label}: {wrong:?} (saved as {saved})"));
                        }
                    }
                    (count, found)
                })
            })
            .collect();
        workers
            .into_iter()
            .map(|w| w.join().expect("worker"))
            .collect()
    });
    let total: usize = results.iter().map(|(count, _)| count).sum();
    let found: Vec<&String> = results.iter().flat_map(|(_, found)| found).collect();
    eprintln!("{total} damaged files checked in {:?}", started.elapsed());
    assert!(total > 5000, "only {total} damaged files");
    assert!(
        found.is_empty(),
        "{} of {total} damaged files went wrong; the first ones:\n{}",
        found.len(),
        found
            .iter()
            .take(20)
            .map(|s| s.as_str())
            .collect::<Vec<_>>()
            .join("\n")
    );
}

#[test]
fn the_shipped_files_are_valid() {
    for (name, text) in shipped() {
        let verdict = sound(&name, &text);
        assert!(verdict.summary.is_some(), "{name}: {:#?}", errors(&verdict));
    }
}

// ---------------------------------------------------------------------------------------------
// Targeted cases

#[test]
fn empty_and_comment_only_texts_are_errors() {
    let texts = [
        "",
        " ",
        "\n\n\n",
        "\u{feff}",
        "\u{0}",
        "// only a comment",
        "// only a comment\n",
        "/* a block */",
        "/* a block\n over lines */\n// and a line\n",
        "/**/",
        "/*/",
        "/* never closed",
        "\"",
        "\"never closed\n",
        "game",
        "game \"",
        "}",
        ")",
        "..",
    ];
    for text in texts {
        let verdict = sound(&format!("{text:?}"), text);
        assert!(verdict.summary.is_none(), "{text:?} was accepted");
    }
}

#[test]
fn deep_nesting_is_refused_without_exhausting_the_stack() {
    let chess = chess();
    let depth = 10_000;
    let cases = [
        (
            "zone parens",
            format!(
                "{chess}\nzone deep = {}rank 1{}\n",
                "(".repeat(depth),
                ")".repeat(depth)
            ),
        ),
        (
            "braces",
            format!("{chess}\npiece Deep D {}\n", "{".repeat(depth)),
        ),
        (
            "brackets",
            format!("{chess}\ntest \"t\" {{ moves = {} }}\n", "[".repeat(depth)),
        ),
        (
            "mixed",
            format!("{chess}\nzone deep = {}\n", "({[".repeat(depth)),
        ),
        ("only openers", "(".repeat(depth)),
        ("only closers", ")}]".repeat(depth)),
        (
            "from zone",
            format!(
                "{chess}\npiece Deep D {{ step from {}rank 1 }}\n",
                "(".repeat(depth)
            ),
        ),
        (
            "not",
            format!("{chess}\nzone deep = {}rank 1\n", "not (".repeat(depth)),
        ),
        (
            "block comments",
            format!("{chess}\n{}\n", "/*".repeat(depth)),
        ),
        ("strings", format!("{chess}\n{}\n", "\"".repeat(depth + 1))),
    ];
    for (label, text) in cases {
        // On a thread with a small stack, as tests and small machines have.
        let verdict = sound_within(label, text.clone(), budget(1000));
        assert!(verdict.summary.is_none(), "{label}: accepted");
    }
    // Up to the limit, nesting is fine.
    let text = format!(
        "{chess}\nzone deep = {}rank 1{}\n",
        "(".repeat(60),
        ")".repeat(60)
    );
    let verdict = sound_within("60 parentheses", text, budget(1000));
    assert!(verdict.summary.is_some(), "{:#?}", errors(&verdict));
}

#[test]
fn megabytes_of_repeated_items_are_checked_in_time() {
    // The 3 MB case takes most of a second on a free core, so a loaded 2-core machine can
    // overrun one second; a check quadratic in the number of items would overrun five by minutes.
    let limit = budget(5000);
    let chess = chess();
    // Three megabytes of one valid item over and over: each repeat is an error of its own.
    let item = "draw when repeated 3\n";
    let text = format!("{chess}{}", item.repeat(3_000_000 / item.len()));
    let verdict = sound_within("3 MB of repeats", text, limit);
    assert_hidden_at_least(
        &verdict,
        3_000_000 / item.len() - fairy::limits::MAX_PROBLEMS,
    );

    // A megabyte of comments and blank lines around a valid file.
    let padding = "// a comment line\n\n/* a block */\n".repeat(15_000);
    let text = format!("{padding}{chess}{padding}");
    let verdict = sound_within("1 MB of comments", text, limit);
    assert!(verdict.summary.is_some(), "{:#?}", errors(&verdict));

    // A long line: a zone whose every square is off the board.
    let text = format!("{chess}\nzone far = {{{}}}\n", "z26 ".repeat(100_000));
    let verdict = sound_within("long line of off-board squares", text, limit);
    assert_hidden_at_least(&verdict, 100_000 - fairy::limits::MAX_PROBLEMS);

    // Broken items, one a line, each reported on its own.
    let text = "piece X\n".repeat(40_000);
    let verdict = sound_within("40,000 broken items", text, limit);
    assert_hidden_at_least(&verdict, 40_000 - fairy::limits::MAX_PROBLEMS);
}

#[test]
fn very_long_names_strings_and_numbers() {
    let chess = chess();
    let long = "N".repeat(100_000);
    let cases = [
        (
            "long game name",
            chess.replace(
                "game \"Chess\"",
                &format!("game \"{}\"", "é".repeat(500_000)),
            ),
        ),
        (
            "long player name",
            chess.replace("player Black", &format!("player B{long}")),
        ),
        (
            "long unknown piece, short names",
            format!("{chess}\nsetup White {{ Q{long} c3 }}\n"),
        ),
        (
            "long zone name",
            format!("{chess}\nzone Z{long} = rank 1\n"),
        ),
        (
            "long comment",
            format!("{chess}\n// {}\n", "ж".repeat(1_000_000)),
        ),
        (
            "long digits",
            format!("{chess}\ndraw when repeated {}\n", "9".repeat(100_000)),
        ),
        (
            "long keyword run",
            format!("{chess}\n{}\n", "player ".repeat(100_000)),
        ),
    ];
    for (label, text) in cases {
        sound_within(label, text, budget(1000));
    }
}

#[test]
fn problems_far_along_a_line_are_drawn_from_a_window_of_it() {
    let text = format!("game \"x\"{}zzz\n", " ".repeat(70_000));
    let verdict = sound("a problem past column 65,535", &text);
    let shown = render(&text, verdict.problems).expect("rendered");
    assert!(shown.contains("zzz"), "{shown}");
    assert!(shown.contains("(line 1, column 70009)"), "{shown}");
    let widest = shown.lines().map(|line| line.chars().count()).max();
    assert!(
        widest < Some(400),
        "a line of {widest:?} characters in\n{shown}"
    );
}

#[test]
fn huge_numbers_are_located_errors() {
    let chess = chess();
    let cases = [
        (
            "board 8 x 8",
            "board 99999999999999999999999 x 8",
            "99999999999999999999999",
        ),
        (
            "board 8 x 8",
            "board 8 x 18446744073709551616",
            "18446744073709551616",
        ),
        ("board 8 x 8", "board 4294967296 x 8", "4294967296"),
        ("board 8 x 8", "board 4294967295 x 4294967295", "4294967295"),
        ("leap (1,2)", "leap (99999999999,1)", "(99999999999,1)"),
        (
            "leap (1,2)",
            "leap (1,99999999999999999999999)",
            "99999999999999999999999",
        ),
        (
            "perft 1 = 20",
            "perft 1 = 99999999999999999999999",
            "99999999999999999999999",
        ),
        ("perft 1 = 20", "perft 99999999999 = 20", "99999999999"),
        (
            "last-rank = rank 8",
            "last-rank = rank 4294967295",
            "4294967295",
        ),
        (
            "last-rank = rank 8",
            "last-rank = rank 4294967296",
            "4294967296",
        ),
        (
            "last-rank = rank 8",
            "last-rank = ranks 1..99999999999999999999999",
            "99999999999999999999999",
        ),
        (
            "repeated 3",
            "repeated 18446744073709551615",
            "18446744073709551615",
        ),
        (
            "after 100 plies",
            "after 99999999999999999999 plies",
            "99999999999999999999",
        ),
        (
            "castle sideways 2",
            "castle sideways 4294967296",
            "4294967296",
        ),
        (
            "slide all",
            "slide all up-to 99999999999999999999",
            "99999999999999999999",
        ),
    ];
    for (from, to, at) in cases {
        let text = chess.replacen(from, to, 1);
        assert_ne!(text, chess, "{from:?} is in chess.rules");
        let verdict = sound(to, &text);
        rejected_at(&text, &verdict, to, Some(at));
    }
    // Numbers that fit are taken at their value, not an error of their own.
    let text = chess.replace("perft 5 = 4865609", "perft 5 = 18446744073709551615");
    let verdict = sound("largest count", &text);
    assert!(verdict.summary.is_some(), "{:#?}", errors(&verdict));
}

#[test]
fn squares_off_the_board_are_located_errors() {
    let chess = chess();
    for square in ["i1", "a9", "z26", "z1", "a27", "a4294967295", "h0100"] {
        square_rejected_in_zone_and_setup(&chess, square);

        let text = chess.replace("Pawn a2..h2", &format!("Pawn a2..{square}"));
        let verdict = sound(square, &text);
        assert!(verdict.summary.is_none(), "a2..{square} accepted");
    }
    // Squares that are not squares at all are syntax errors.
    for square in ["A1", "a", "1", "a-1", "a1b", "é1", "a١"] {
        let text = format!("{chess}\nzone odd = {{{square}}}\n");
        let verdict = sound(square, &text);
        assert!(verdict.summary.is_none(), "{square} accepted");
    }
}

#[test]
fn boards_of_every_size_limit() {
    let chess = chess();
    // The largest board: every square of chess is still on it.
    let verdict = sound("26 x 26", &chess.replace("board 8 x 8", "board 26 x 26"));
    assert!(verdict.summary.is_some(), "{:#?}", errors(&verdict));
    let verdict = sound("26 x 8", &chess.replace("board 8 x 8", "board 26 x 8"));
    assert!(verdict.summary.is_some(), "{:#?}", errors(&verdict));

    for (board, at) in [
        ("board 27 x 27", Some("27")),
        ("board 27 x 8", Some("27")),
        ("board 8 x 27", Some("27")),
        ("board 0 x 0", Some("0")),
        ("board 0 x 8", Some("0")),
        ("board 8 x 0", Some("0")),
        ("board 1 x 1", None),
        ("board 2 x 1 holes { a1 b1 }", Some("board")),
        ("board 8 x 8 holes { e1 }", None),
        ("board 8 x 8 holes { a1..a99 }", Some("a99")),
        ("board 2 x 2 shape {\n##\n##\n##\n}", Some("board")),
        ("board 2 x 2 shape {\n###\n##\n}", Some("###")),
        ("board 2 x 2 shape {\n..\n..\n}", Some("board")),
        ("board 26 x 26 shape {\n}", Some("board")),
    ] {
        let text = chess.replace("board 8 x 8", board);
        let verdict = sound(board, &text);
        rejected_at(&text, &verdict, board, at);
    }
}

#[test]
fn betza_strings_of_every_kind_are_checked() {
    let chess = chess();
    for betza in [
        "",
        "W",
        "fmWfcF",
        "X",
        "m",
        "Q0",
        "W99999999999",
        "pN",
        "vF",
        "ffbbllrr",
        "\\\"",
        "\\\\",
        "W\\\"",
        "W ",
        " ",
        "//",
        "W//",
        "/*",
        "mmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmW",
    ] {
        let text = chess.replace(
            "Knight N { leap (1,2) }",
            &format!("Knight N {{ betza \"{betza}\" }}"),
        );
        sound(betza, &text);
    }
}

#[test]
fn squares_with_ranks_beyond_u32_are_located_errors() {
    let chess = chess();
    for square in ["a4294967296", "a99999999999", "h99999999999999999999999999"] {
        square_rejected_in_zone_and_setup(&chess, square);

        let board = format!("board 8 x 8 holes {{ {square} }}");
        let text = chess.replace("board 8 x 8", &board);
        let verdict = sound(square, &text);
        rejected_at(&text, &verdict, &board, Some(square));
    }
}

#[test]
fn the_largest_64_bit_number_is_too_large_where_32_bits_are_expected() {
    let chess = chess();
    for (from, to) in [
        ("repeated 3", "repeated 18446744073709551615"),
        ("perft 1 = 20", "perft 18446744073709551615 = 20"),
        ("castle sideways 2", "castle sideways 18446744073709551615"),
        ("after 100 plies", "after 18446744073709551615 plies"),
    ] {
        let text = chess.replacen(from, to, 1);
        let verdict = sound(to, &text);
        rejected_at(&text, &verdict, to, Some("18446744073709551615"));
    }
}

#[test]
fn rank_zero_squares_are_errors() {
    let chess = chess();
    for square in ["a0", "h0", "e00"] {
        let zone = format!("zone odd = {{{square}}}");
        let text = format!("{chess}\n{zone}\n");
        let verdict = sound(square, &text);
        rejected_at(&text, &verdict, &zone, Some(square));
    }
}

// ---------------------------------------------------------------------------------------------
// Regression tests for panics and hangs found by this suite.

#[test]
fn betza_strings_with_non_ascii_letters_are_errors() {
    let chess = chess();
    for betza in ["é", "Wé", "W中", "🂡", "fé", "Nλ2"] {
        let text = chess.replace(
            "Knight N { leap (1,2) }",
            &format!("Knight N {{ betza \"{betza}\" }}"),
        );
        let verdict = sound(betza, &text);
        assert!(verdict.summary.is_none(), "{betza} accepted");
    }
}

/// Many zones, each the other's pair: a cycle report per pair.
fn zone_pairs(pairs: usize) -> String {
    let mut text = chess();
    for i in 0..pairs {
        text.push_str(&format!("zone za{i} = zb{i}\nzone zb{i} = za{i}\n"));
    }
    text
}

#[test]
fn many_zones_are_checked_in_time() {
    // 400 kB: over half a minute before the fix.
    let verdict = sound_within("10,000 zone pairs", zone_pairs(10_000), SLOW_CASE_LIMIT);
    assert_hidden_at_least(&verdict, 9_000);

    // A chain of 50,000 zones, each defined by the next: valid, but quadratic to check.
    let mut text = chess();
    for i in 0..50_000 {
        text.push_str(&format!("zone z{i} = z{}\n", i + 1));
    }
    text.push_str("zone z50000 = rank 1\n");
    let verdict = sound_within("chain of 50,000 zones", text, SLOW_CASE_LIMIT);
    assert!(verdict.summary.is_some(), "{:#?}", errors(&verdict));
}

#[test]
fn many_pieces_are_checked_in_time() {
    // 200 kB, each piece with the same letter and no `like` at all: half a minute before the fix.
    let mut text = chess();
    for i in 0..10_000 {
        text.push_str(&format!("piece P{i} A {{ step }}\n"));
    }
    let verdict = sound_within("10,000 pieces", text, SLOW_CASE_LIMIT);
    assert_hidden_at_least(&verdict, 9_000);

    // A chain of pieces, each moving like the next.
    let mut text = chess();
    for i in 0..10_000 {
        text.push_str(&format!("piece L{i} A {{ like L{} }}\n", i + 1));
    }
    text.push_str("piece L10000 A { step }\n");
    let verdict = sound_within("chain of 10,000 likes", text, SLOW_CASE_LIMIT);
    assert!(verdict.summary.is_none());
}

#[test]
fn long_unknown_names_are_checked_in_time() {
    // 200 kB: over ten seconds before the fix.
    let chess = chess();
    let text = format!(
        "{chess}\nzone L{} = rank 1\nzone q = M{}\n",
        "a".repeat(100_000),
        "b".repeat(100_000)
    );
    let verdict = sound_within("two 100k-character names", text, SLOW_CASE_LIMIT);
    assert!(verdict.summary.is_none());
}

#[test]
fn many_unknown_names_are_checked_in_time() {
    // 300 kB: over ten seconds and 600 MB of help text before the fix.
    let mut text = chess();
    for i in 0..10_000 {
        text.push_str(&format!("zone z{i} = rank 1\n"));
    }
    let uses: Vec<String> = (0..10_000).map(|i| format!("y{i}")).collect();
    text.push_str(&format!("zone q = {}\n", uses.join(" or ")));
    let verdict = sound_within("10,000 unknown zones among 10,000", text, SLOW_CASE_LIMIT);
    assert_hidden_at_least(&verdict, 9_000);
    let help: usize = verdict
        .problems
        .iter()
        .filter_map(|p| p.help.as_deref())
        .map(str::len)
        .sum();
    assert!(help < 10_000_000, "{help} bytes of help");
}

#[test]
fn zones_referring_to_zones_many_times_are_checked_in_time() {
    // 53 bytes: a zone defined as itself five times over. Four times over takes 15 s.
    let text = "zone z = z or z or z or z or z\npiece P P { step from z }\n".to_string();
    let verdict = sound_within("self-referring zone", text, SLOW_CASE_LIMIT);
    assert!(verdict.summary.is_none());

    // A valid file: twenty zones, each four copies of the next, used by a promotion.
    let chess = chess();
    let mut zones = String::new();
    for i in 0..20 {
        let next = format!("z{}", i + 1);
        zones.push_str(&format!(
            "zone z{i} = {}\n",
            [next.as_str(); 4].join(" or ")
        ));
    }
    zones.push_str("zone z20 = rank 8\nzone last-rank = z0");
    let text = chess.replace("zone last-rank = rank 8", &zones);
    let verdict = sound_within("twenty zones, each four of the next", text, SLOW_CASE_LIMIT);
    assert!(verdict.summary.is_some(), "{:#?}", errors(&verdict));
}

/// The report stops at `MAX_PROBLEMS` and says how many more problems there were.
fn assert_hidden_at_least(verdict: &Loaded, hidden: usize) {
    assert_eq!(verdict.problems.len(), fairy::limits::MAX_PROBLEMS + 1);
    let last = &verdict.problems.last().expect("a last problem").message;
    let count: usize = last
        .split_whitespace()
        .next()
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("a count of hidden problems in {last:?}"));
    assert!(count >= hidden, "{last}");
}

/// Legality by the opponent's replies searches them move by move and stops at the first that
/// captures the royal piece, rather than building every reply, arrows and all, of every turn.
#[test]
fn turns_judged_by_replies_cost_little() {
    let loaded = pipeline::load(include_str!("costly/arrows-in-check.rules"));
    let rules = loaded.rules.expect("a playable file");
    let started = Instant::now();
    let mut position = fairy::engine::Position::start(&rules);
    assert!(position.in_check());
    let mut counter = fairy::engine::perft::Perft::new(1);
    assert_eq!(counter.count(&mut position), 548);
    assert!(
        started.elapsed() < SLOW_CASE_LIMIT,
        "{:?}",
        started.elapsed()
    );
}

/// Three drops a turn on 26×26 make about 3×10⁸ ways of making the first turn: generation stops
/// at `MAX_TURNS`, every answer since says it is short, and nothing runs out of memory.
#[test]
fn a_turn_with_too_many_ways_stops_and_says_so() {
    let plain = include_str!("costly/three-drops.rules");
    // With royal pieces taken by custodian capture, turns are judged by the replies to them: a
    // cut-short list of millions is not judged at all.
    let royal = plain
        .replace("step all }", "step all }\npiece King K { step all royal }")
        .replace("White { hand", "White { King a1 hand")
        .replace("Black { hand", "Black { King z26 hand")
        .replace(
            "draw when no-moves",
            "draw when no-moves\nlose when royal-captured\ncapture custodian orthogonal",
        );
    for (label, text) in [("plain", plain), ("royal", royal.as_str())] {
        let loaded = pipeline::load(text);
        let rules = loaded.rules.expect("a playable file");
        let started = Instant::now();
        let mut position = fairy::engine::Position::start(&rules);
        let mut counter = fairy::engine::perft::Perft::new(2);
        counter.count(&mut position);
        assert!(position.turns_overflowed(), "{label}");
        let reason = counter.shortfall(&position).expect("a short count says so");
        assert!(reason.contains("ways to make a turn"), "{label}: {reason}");
        assert!(fairy::notation::moves::legal_texts(&mut position).is_empty());
        // A tenth of a second alone, more beside the other tests; judging the royal file's
        // cut-short list would take minutes.
        assert!(
            started.elapsed() < SLOW_CASE_LIMIT,
            "{label}: {:?}",
            started.elapsed()
        );
    }
}
