//! The `fairy` command line, as the README documents it: the one part of fairy that reads
//! arguments, prints, and exits. Exit codes: 0 success, 1 an invalid rule file, position or
//! move, 2 bad usage, 130 interrupted by Ctrl-C (see `interrupt`).

use clap::{Args, Parser, Subcommand};
use fairy::check::checked::TestCase;
use fairy::compile::NO_SQUARE;
use fairy::compile::Ruleset;
use fairy::diagnostic::{Code, FileReport, Problem, Span};
use fairy::engine::Position;
use fairy::engine::perft::Perft;
use fairy::limits::{MAX_PERFT_DEPTH, MAX_QUOTED_CHARS};
use fairy::notation::{NotationError, fen, moves, quoted};
use fairy::pipeline::{self, Loaded};
use fairy::source::{self, LoadError};
use miette::NamedSource;
use std::io::IsTerminal;
use std::process::ExitCode;
use std::time::Instant;

#[derive(Parser)]
#[command(
    name = "fairy",
    version,
    about = "Chess variants from declarative rule files"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Validate rule files: one summary line for each valid file, every problem of the others.
    Check {
        /// Rule files to check; `-` reads one from standard input.
        #[arg(required = true, value_name = "FILE")]
        files: Vec<String>,
        /// Print every file's verdict as one JSON document on standard output.
        #[arg(long)]
        json: bool,
    },
    /// Show a position as a text diagram.
    Show(PositionArgs),
    /// Draw one piece's moves from a square of an otherwise empty board: where it moves, where
    /// it captures (every other square holding an enemy piece), and both.
    Piece {
        /// The rule file of the game.
        #[arg(value_name = "FILE")]
        file: String,
        /// The piece, by name or letter.
        #[arg(value_name = "PIECE")]
        piece: String,
        /// The square it stands on; the middle of the board without it.
        #[arg(long, value_name = "SQ")]
        on: Option<String>,
        /// Whose piece it is, by name; the first player without it.
        #[arg(long, value_name = "NAME")]
        player: Option<String>,
    },
    /// List every legal move of a position, one per line, sorted.
    Moves(PositionArgs),
    /// Show how the computer player values a position: the pieces' values, and each player's
    /// worth term by term (material, placement, mobility, royal safety, hand, freedom).
    Eval {
        #[command(flatten)]
        position: PositionArgs,
        #[command(flatten)]
        weights: weights::WeightsArg,
    },
    /// Count the leaf nodes of the legal move tree to a depth.
    Perft {
        #[command(flatten)]
        position: PositionArgs,
        /// Plies to count; one ply is one whole turn.
        #[arg(value_name = "DEPTH", value_parser = clap::value_parser!(u32).range(0..=MAX_PERFT_DEPTH as i64))]
        depth: u32,
        /// First print each legal move with the count below it.
        #[arg(long)]
        divide: bool,
        /// Stop with an error once more than N leaf nodes are counted.
        #[arg(long, value_name = "N")]
        max_nodes: Option<u64>,
    },
    /// Run the `test` blocks written in rule files.
    Test {
        #[arg(required = true, value_name = "FILE")]
        files: Vec<String>,
        /// Stop a perft expectation (as failed) once it has counted more than N leaf nodes.
        #[arg(long, value_name = "N", default_value_t = 1_000_000_000)]
        max_nodes: u64,
    },
    /// Play a game at the terminal against the computer, or watch it play.
    Play(play::PlayArgs),
    /// Play the computer against itself many times, and report how the seats fare.
    Selfplay(selfplay::SelfplayArgs),
    /// Be an engine for interfaces and match tools that speak UCI, on standard input and output.
    Uci(uci::UciArgs),
    /// Be an engine for XBoard, WinBoard and the tools that speak their protocol (CECP
    /// version 2), on standard input and output.
    Xboard(xboard::XboardArgs),
    /// Fit the computer player's evaluation weights to games it plays against itself, and
    /// write them as a file that `--weights` reads.
    Tune(tune::TuneArgs),
    /// Play engines that speak UCI or XBoard against fairy or each other, refereed by the rule
    /// file, and report the score.
    Match(matches::MatchArgs),
    /// Open the studio: a local web page to write a rule file beside its board, play it by
    /// clicks against the computer, and run self-play on it.
    Serve(serve::ServeArgs),
    /// Rewrite rule files in the canonical layout: indentation, spacing and aligned comments.
    Fmt(fmt::FmtArgs),
    /// Be a language server for editors (LSP, on standard input and output): live diagnostics,
    /// hover, go to definition, completion, outline, highlighting, formatting and fixes.
    Lsp(lsp::LspArgs),
}

mod evaluation;
mod fmt;
mod interrupt;
mod json;
mod lsp;
mod matches;
mod play;
mod protocol;
mod record;
mod seats;
mod selfplay;
mod serve;
mod tune;
mod uci;
mod weights;
mod xboard;

#[derive(Args)]
struct PositionArgs {
    /// The rule file of the game.
    #[arg(value_name = "FILE")]
    file: String,
    /// A position in the game's notation; the start position without it.
    #[arg(long, value_name = "POS")]
    fen: Option<String>,
    /// Moves to play first, separated by spaces, each checked for legality; `@FILE` reads
    /// them from a game record.
    #[arg(long, value_name = "MOVES", allow_hyphen_values = true)]
    moves: Option<String>,
    /// Print the answer as one JSON document.
    #[arg(long)]
    json: bool,
}

/// `play` and `selfplay` end a game, unfinished, after this many plies unless told otherwise,
/// so that no game between computers runs for ever.
const DEFAULT_MAX_PLIES: u32 = 300;

/// A command's failure, already reported on standard error; which one decides the exit code.
pub(crate) enum Reported {
    /// An invalid rule file, position, move or other input: exit code 1.
    Invalid,
    /// Bad usage that clap cannot see, as a seat the game does not have: exit code 2, as clap
    /// gives for the rest.
    Usage,
    /// A valid rule file with rules the engine does not run yet: exit code 3.
    Unplayable,
}

/// Writes to standard output, at once: a prompt that does not end its line must show before
/// `play` waits for input. A reader that has gone away (`fairy moves ... | head -1`) ends the
/// command quietly; any other write error ends it with a one-line error and exit code 1.
pub(crate) fn emit(text: &str) {
    use std::io::Write;
    let mut stdout = std::io::stdout().lock();
    if let Err(error) = stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush())
    {
        if error.kind() == std::io::ErrorKind::BrokenPipe {
            std::process::exit(0);
        }
        complain!("error: cannot write to standard output: {error}");
        std::process::exit(1);
    }
}

/// Writes a line to standard error; there is nowhere left to report a failure to do so.
macro_rules! complain {
    ($($arg:tt)*) => {{
        use std::io::Write;
        let _ = writeln!(std::io::stderr().lock(), $($arg)*);
    }};
}
pub(crate) use complain;

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            return ExitCode::from(if e.use_stderr() { 2 } else { 0 });
        }
    };
    let result = match cli.command {
        Command::Check { files, json } => check_files(&files, json),
        Command::Fmt(args) => fmt::run(&args),
        Command::Lsp(args) => lsp::run(&args),
        Command::Show(args) => with_position(&args, |position| {
            match args.json {
                true => emit(&json::text(&json::position(position))),
                false => emit(&fairy::notation::diagram(position)),
            }
            Ok(())
        }),
        Command::Eval { position, weights } => with_position(&position, |at| {
            let file = weights.choose(at.rules(), &position.file)?;
            match position.json {
                true => emit(&json::text(&evaluation::json(at, file.as_ref()))),
                false => emit(&evaluation::text(at, file.as_ref())),
            }
            Ok(())
        }),
        Command::Piece {
            file,
            piece,
            on,
            player,
        } => show_piece(&file, &piece, on.as_deref(), player.as_deref()),
        Command::Moves(args) => with_position(&args, |position| {
            let texts = moves::legal_texts(position);
            match args.json {
                true => emit(&json::text(&serde_json::json!({ "moves": texts }))),
                false => texts.iter().for_each(|text| emit(&format!("{text}\n"))),
            }
            Ok(())
        }),
        Command::Perft {
            position,
            depth,
            divide,
            max_nodes,
        } => with_position(&position, |p| {
            let limit = max_nodes.unwrap_or(u64::MAX);
            perft(p, depth as usize, divide, position.json, limit)
        }),
        Command::Test { files, max_nodes } => run_tests(&files, max_nodes),
        Command::Play(args) => play::play(&args),
        Command::Selfplay(args) => selfplay::selfplay(&args),
        Command::Uci(args) => uci::uci(&args),
        Command::Xboard(args) => xboard::xboard(&args),
        Command::Match(args) => matches::play_match(&args),
        Command::Tune(args) => tune::tune(&args),
        Command::Serve(args) => serve::serve(&args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(Reported::Invalid) => ExitCode::from(1),
        Err(Reported::Usage) => ExitCode::from(2),
        Err(Reported::Unplayable) => ExitCode::from(3),
    }
}

fn check_files(paths: &[String], as_json: bool) -> Result<(), Reported> {
    if paths.iter().filter(|path| *path == "-").count() > 1 {
        complain!("error: `-` is given twice: standard input can be read only once");
        return Err(Reported::Usage);
    }
    let verdicts: Vec<Verdict> = match as_json {
        true => {
            let files: Vec<serde_json::Value> =
                paths.iter().map(|path| check_to_json(path)).collect();
            let verdicts = files.iter().map(Verdict::of_json).collect();
            emit(&json::text(&serde_json::json!({ "files": files })));
            verdicts
        }
        false => paths.iter().map(|path| check_file(path)).collect(),
    };
    match verdicts.iter().max() {
        Some(Verdict::Invalid) => Err(Reported::Invalid),
        Some(Verdict::Unplayable) => Err(Reported::Unplayable),
        _ => Ok(()),
    }
}

/// What `check` found of one file, worst last.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Verdict {
    Playable,
    /// Valid, with rules the engine does not run yet.
    Unplayable,
    /// Unreadable, or with errors.
    Invalid,
}

impl Verdict {
    fn of(loaded: &Loaded) -> Verdict {
        Verdict::judged(loaded.is_valid(), loaded.rules.is_some())
    }

    fn of_json(file: &serde_json::Value) -> Verdict {
        Verdict::judged(file["valid"] == true, file["playable"] == true)
    }

    fn judged(valid: bool, playable: bool) -> Verdict {
        match (valid, playable) {
            (false, _) => Verdict::Invalid,
            (true, false) => Verdict::Unplayable,
            (true, true) => Verdict::Playable,
        }
    }
}

/// One file's verdict as JSON.
fn check_to_json(path: &str) -> serde_json::Value {
    match source::load(path) {
        Ok(source) => {
            let loaded = pipeline::load_with_cost(&source.text);
            json::check_verdict(&source.name, &source.text, &loaded)
        }
        Err(LoadError::Unreadable(message)) => json::unreadable(path, &message),
        Err(LoadError::NotText(report)) => {
            let message = report.problems.first().map_or("not text", |p| &p.message);
            json::unreadable(path, message)
        }
    }
}

/// Checks one file, printing its report, then its summary or why it cannot be played.
fn check_file(path: &str) -> Verdict {
    let Ok(source) = read_text(path, "rule file") else {
        return Verdict::Invalid;
    };
    let loaded = pipeline::load_with_cost(&source.text);
    let verdict = Verdict::of(&loaded);
    let not_run: Vec<&str> = loaded.not_run().into_iter().map(|(_, rule)| rule).collect();
    let line = match (&loaded.summary, verdict) {
        (Some(summary), Verdict::Playable) => format!("{}: ok: {summary}\n", source.name),
        (Some(_), _) => format!(
            "{}: checks, but cannot be played: the engine does not run {}\n",
            source.name,
            not_run.join("; ")
        ),
        (None, _) => String::new(),
    };
    report_problems(&source, loaded.problems);
    emit(&line);
    verdict
}

/// Reads a text file held to the limits of rule files (`what` says what it is read as, as for
/// [`source::load_as`]); otherwise reports why not.
fn read_text(path: &str, what: &str) -> Result<source::Source, Reported> {
    match source::load_as(path, what) {
        Ok(source) => Ok(source),
        Err(LoadError::Unreadable(message)) => {
            complain!("error: {message}");
            Err(Reported::Invalid)
        }
        Err(LoadError::NotText(report)) => {
            complain!("{}", render(&report).trim_end_matches('\n'));
            Err(Reported::Invalid)
        }
    }
}

fn report_problems(source: &source::Source, problems: Vec<Problem>) {
    if problems.is_empty() {
        return;
    }
    let report = FileReport {
        source: NamedSource::new(&source.name, source::printable(&source.text)),
        problems,
    };
    complain!("{}", render(&report).trim_end_matches('\n'));
}

/// Loads a rule file that can be played, with its tests; otherwise reports why not.
pub(crate) fn load_rules(path: &str) -> Result<(Ruleset, Vec<TestCase>), Reported> {
    let source = read_text(path, "rule file")?;
    let Loaded {
        problems,
        summary,
        rules,
        tests,
        ..
    } = pipeline::load(&source.text);
    if let Some(rules) = rules {
        return Ok((rules, tests));
    }
    // A valid file that cannot be played uses rules the engine does not run yet.
    if summary.is_some() {
        let unsupported = problems.iter().find(|p| p.code == Code::NotRunYet);
        let why = unsupported.map_or(
            "it uses rules the engine does not run yet (see fairy check)",
            |p| &p.message,
        );
        complain!("error: {path}: fairy cannot play this game: {why}");
        return Err(Reported::Unplayable);
    }
    report_problems(&source, problems);
    Err(Reported::Invalid)
}

/// `fairy piece`: one piece's moves from a square of an empty board.
fn show_piece(
    path: &str,
    piece: &str,
    on: Option<&str>,
    player: Option<&str>,
) -> Result<(), Reported> {
    let (rules, _) = load_rules(path)?;
    let kinds = &rules.pieces.kinds;
    let kind = (kinds.iter())
        .position(|k| k.name.eq_ignore_ascii_case(piece) || k.letter.eq_ignore_ascii_case(piece));
    let Some(kind) = kind else {
        let names: Vec<String> = kinds
            .iter()
            .map(|k| format!("{} ({})", k.name, k.letter))
            .collect();
        complain!(
            "error: {} has no piece {}: its pieces are {}",
            path,
            quoted(piece),
            names.join(", ")
        );
        return Err(Reported::Usage);
    };
    let names = &rules.players.names;
    let player = match player {
        None => 0,
        Some(name) => match names.iter().position(|n| n.eq_ignore_ascii_case(name)) {
            Some(player) => player,
            None => {
                complain!(
                    "error: {} has no player {}: its players are {}",
                    path,
                    quoted(name),
                    names.join(", ")
                );
                return Err(Reported::Usage);
            }
        },
    };
    let geometry = &rules.geometry;
    // On a board whose middle is a hole, the first square there is.
    let middle = match geometry.at(geometry.width as i32 / 2, geometry.height as i32 / 2) {
        NO_SQUARE => 0,
        sq => sq,
    };
    let from = match on {
        None => middle,
        Some(name) => match geometry.parse(name) {
            Some(sq) => sq,
            None => {
                complain!("error: {} is not a square of this board", quoted(name));
                return Err(Reported::Usage);
            }
        },
    };
    emit(&fairy::notation::piece_diagram(&rules, kind, player, from));
    Ok(())
}

/// Sets up the position the arguments describe and runs `action` on it.
fn with_position(
    args: &PositionArgs,
    action: impl FnOnce(&mut Position<'_>) -> Result<(), Reported>,
) -> Result<(), Reported> {
    let (rules, _) = load_rules(&args.file)?;
    let (mut position, list) = opening(&rules, args.fen.as_deref(), args.moves.as_deref())?;
    if let Some(list) = list {
        let played = moves::play(&mut position, &list);
        refuse_overflow(&position)?;
        played.map_err(|e| report_notation(Code::InvalidMove, "--moves", &list, e))?;
    }
    action(&mut position)?;
    refuse_overflow(&position)
}

/// Fails where a position had more turns than fairy holds: what was listed or counted is short.
fn refuse_overflow(position: &Position<'_>) -> Result<(), Reported> {
    match position.turns_overflowed() {
        true => {
            complain!("error: {}", fairy::limits::too_many_turns());
            Err(Reported::Invalid)
        }
        false => Ok(()),
    }
}

/// Where `--fen` and `--moves` start a game, and the moves to play from there: the position of
/// `--fen`, or of the `# start:` line of the record `--moves @FILE` reads (given both, they must
/// be the same), or else the start position.
fn opening<'r>(
    rules: &'r Ruleset,
    fen: Option<&str>,
    moves: Option<&str>,
) -> Result<(Position<'r>, Option<String>), Reported> {
    let (record, moves) = match moves.map(|text| (text, text.strip_prefix('@'))) {
        Some((_, Some(path))) => {
            let record = record::read(path)?;
            (record.start.map(|start| (path, start)), Some(record.moves))
        }
        Some((text, None)) => (None, Some(text.to_string())),
        None => (None, None),
    };
    let given = fen
        .map(|text| read_position(rules, "--fen", text))
        .transpose()?;
    let recorded = record
        .map(|(path, start)| {
            let position = read_position(rules, &format!("{path}: # start"), &start)?;
            Ok((path, start, position))
        })
        .transpose()?;
    let position = match (given, recorded) {
        (Some(given), Some((path, start, recorded)))
            if fen::write(&given) != fen::write(&recorded) =>
        {
            complain!(
                "error: --fen is not the position {path} starts from ({}): leave --fen out to \
                 replay the record",
                quoted(&start)
            );
            return Err(Reported::Usage);
        }
        (Some(position), _) | (None, Some((_, _, position))) => position,
        (None, None) => Position::start(rules),
    };
    Ok((position, moves))
}

/// Reads a position, reporting what is wrong with it under `name`.
fn read_position<'r>(rules: &'r Ruleset, name: &str, text: &str) -> Result<Position<'r>, Reported> {
    fen::read(rules, text).map_err(|e| report_notation(Code::InvalidPosition, name, text, e))
}

fn report_notation(code: Code, name: &str, text: &str, error: NotationError) -> Reported {
    let (shown, span) = excerpt(text, &error);
    let problem = Problem::error(code, error.message, span, "here");
    let report = FileReport {
        source: NamedSource::new(name, shown),
        problems: vec![problem],
    };
    complain!("{}", render(&report).trim_end_matches('\n'));
    Reported::Invalid
}

/// What a report shows of `text` (which may be a whole game record): the mistake with up to
/// [`MAX_QUOTED_CHARS`] characters on either side of its start, `…` standing for the rest; and
/// where the mistake stands in that.
fn excerpt(text: &str, error: &NotationError) -> (String, Span) {
    let start = text.floor_char_boundary(error.start);
    let end = text.ceil_char_boundary(error.end).max(start);
    let before = source::tail(&text[..start], MAX_QUOTED_CHARS);
    let from_start = source::head(&text[start..], MAX_QUOTED_CHARS);
    // `printable` keeps byte lengths, so the offsets still fit.
    let shown = source::printable(&format!("{before}{from_start}"));
    let span_start = before.len();
    // A mistake cut short takes in the `…`; an empty one, as a field missing at the end, is
    // pointed at by the character after it.
    let span_end =
        shown.ceil_char_boundary(span_start + (end - start).min(from_start.len()).max(1));
    (shown, Span::new(span_start, span_end))
}

fn perft(
    position: &mut Position<'_>,
    depth: usize,
    divide: bool,
    as_json: bool,
    limit: u64,
) -> Result<(), Reported> {
    let started = Instant::now();
    let mut counter = Perft::new(depth).with_limit(limit);
    let rows: Option<Vec<(String, u64)>> = (divide && depth > 0).then(|| {
        let mut rows: Vec<(String, u64)> = counter
            .divide(position)
            .into_iter()
            .map(|(turn, n)| (moves::write(position, &turn), n))
            .collect();
        rows.sort();
        rows
    });
    let nodes = match &rows {
        Some(rows) => rows.iter().map(|(_, n)| n).sum(),
        None => counter.count(position),
    };
    let rows = rows.unwrap_or_default();
    if let Some(reason) = counter.shortfall(position) {
        complain!("error: perft {reason}");
        return Err(Reported::Invalid);
    }
    if as_json {
        let mut report = serde_json::json!({ "depth": depth, "nodes": nodes });
        if divide {
            report["divide"] = rows
                .iter()
                .map(|(text, n)| serde_json::json!({ "move": text, "nodes": n }))
                .collect();
        }
        emit(&json::text(&report));
    } else {
        for (text, n) in &rows {
            emit(&format!("{text} {n}\n"));
        }
        emit(&format!("{nodes}\n"));
    }
    let seconds = started.elapsed().as_secs_f64();
    complain!(
        "{nodes} nodes in {seconds:.3} s ({:.0} nodes per second)",
        nodes as f64 / seconds.max(1e-9)
    );
    Ok(())
}

fn run_tests(paths: &[String], max_nodes: u64) -> Result<(), Reported> {
    let mut failures = 0;
    let mut unplayable = 0;
    for path in paths {
        let Ok((rules, tests)) = load_rules(path) else {
            unplayable += 1;
            continue;
        };
        if tests.is_empty() {
            emit(&format!("{path}: no test blocks\n"));
        }
        for case in &tests {
            failures += fairy::testing::run_case(&rules, case, max_nodes, |line| {
                emit(&format!("{path}: {line}\n"))
            });
        }
    }
    if failures > 0 {
        complain!(
            "{failures} expectation{} failed",
            if failures == 1 { "" } else { "s" }
        );
    }
    if failures + unplayable > 0 {
        Err(Reported::Invalid)
    } else {
        Ok(())
    }
}

/// Renders a report for standard error: in colour on a terminal, plain otherwise.
fn render(report: &FileReport) -> String {
    let colour = std::io::stderr().is_terminal();
    fairy::diagnostic::render(report, 100, colour)
}
