//! `fairy play`: a game at the terminal (or driven through standard input) between humans, the
//! computer and a random player, seat by seat.

use super::record::RecordFile;
use super::seats::{MAX_THINK_MS, Seat, Threads, parse_seat, seat_seed, seats_of};
use super::weights::WeightsArg;
use super::{DEFAULT_MAX_PLIES, Reported, emit, interrupt, load_rules, opening};
use clap::Args;
use fairy::ai::weights::Weights;
use fairy::ai::{Budget, Player};
use fairy::compile::Ruleset;
use fairy::engine::{Position, Turn};
use fairy::limits::MAX_BYTES;
use fairy::notation::{Marks, View, fen, lent_by, marked_diagram, moves, quoted, san};
use std::io::{BufRead, Read};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

#[derive(Args)]
pub struct PlayArgs {
    /// The rule file of the game.
    #[arg(value_name = "FILE")]
    file: String,
    /// Who plays a seat (numbered from 1 in turn order): `human`, `ai`, `ai:MS` (thinking MS
    /// milliseconds a turn) or `random`. Seat 1 is human and the others the computer unless
    /// given.
    #[arg(long = "seat", value_name = "N=WHO", value_parser = parse_seat)]
    seats: Vec<(usize, Seat)>,
    /// How long the computer thinks per turn, in milliseconds (at most an hour, 3600000).
    #[arg(long, value_name = "MS", default_value_t = 1000, value_parser = clap::value_parser!(u64).range(..=MAX_THINK_MS))]
    think_ms: u64,
    /// Seeds the computer's and the random player's choices: the same seed, the same game.
    #[arg(long, value_name = "S", default_value_t = 1)]
    seed: u64,
    /// A position to start from, in the game's notation.
    #[arg(long, value_name = "POS")]
    fen: Option<String>,
    /// The game ends, unfinished, once it has this many turns (those of `--moves` included).
    #[arg(long, value_name = "P", default_value_t = DEFAULT_MAX_PLIES)]
    max_plies: u32,
    /// Moves to play first (or `@FILE`, a game record).
    #[arg(long, value_name = "MOVES", allow_hyphen_values = true)]
    moves: Option<String>,
    /// Write the game to FILE when it ends, as a record that `--moves @FILE` replays (FILE is
    /// created before the game starts).
    #[arg(long, value_name = "FILE")]
    record: Option<String>,
    /// Draw the board from the far side (the last rank at the bottom); the default when a
    /// human plays the second seat of two and the computer the first.
    #[arg(long)]
    flip: bool,
    #[command(flatten)]
    threads: Threads,
    #[command(flatten)]
    weights: WeightsArg,
}

/// The program behind each seat that is not human.
fn players_of(
    rules: &Ruleset,
    weights: Option<&Weights>,
    seats: &[Seat],
    args: &PlayArgs,
) -> Vec<Option<Player>> {
    let player = |(index, seat): (usize, &Seat)| {
        let seed = seat_seed(args.seed, index);
        let player = seat.player(rules, weights, args.think_ms, seed);
        player.map(|player| player.with_threads(args.threads.count))
    };
    seats.iter().enumerate().map(player).collect()
}

const HELP: &str = "\
Type a turn as `fairy moves` writes it (e2e4, e7e8q, P@e4, d1d5,d5h5; a space may
separate the parts of a turn, and squares may be in capitals), or one move as chess books
write it (Nf3, exd5, e8=Q, O-O), or:
  moves        every legal turn
  moves SQ     the legal turns starting on SQ (moves e2), lent moves marked
  hint         the computer's choice for you, with its evaluation and depth
  undo         take back your last turn (and the turns played since)
  fen          the position in the game's notation
  help         this list
  quit         stop the game
";

pub fn play(args: &PlayArgs) -> Result<(), Reported> {
    let (rules, _) = load_rules(&args.file)?;
    let weights = args.weights.load(&rules, &args.file)?;
    let (mut position, list) = opening(&rules, args.fen.as_deref(), args.moves.as_deref())?;
    let start = fen::write(&position);
    let transcript = Transcript {
        rules: args.file.clone(),
        fen: start.clone(),
        start,
        moves: Vec::new(),
        record: None,
        finished: false,
    };
    let mut game = Game {
        seats: seats_of(&rules, Seat::Human, &args.seats)?,
        players: Vec::new(),
        played: Vec::new(),
        transcript: Arc::new(Mutex::new(transcript)),
        hint: Player::weighted(
            &rules,
            Budget::Time(Duration::from_millis(args.think_ms)),
            args.seed,
            weights.as_ref(),
        )
        .with_threads(args.threads.count),
        view: View {
            marks: marks_for_stdout(),
            flipped: false,
        },
        drawn: 0,
        max_plies: args.max_plies as usize,
    };
    game.players = players_of(&rules, weights.as_ref(), &game.seats, args);
    game.view.flipped = args.flip || seen_from_second_seat(&game.seats);
    if let Some(list) = list {
        for text in list.split_whitespace() {
            let turn = moves::read(&mut position, text).map_err(|message| {
                super::complain!("error: --moves: {message}");
                Reported::Invalid
            })?;
            game.make(&mut position, turn);
        }
    }
    game.transcript().record = args.record.as_deref().map(RecordFile::create).transpose()?;
    end_on_interrupt(Arc::clone(&game.transcript));
    let stop = game.run(&mut position, &mut std::io::stdin().lock());
    let result = match (position.ending(), stop) {
        (Some(ending), _) => ending.describe(&rules.players.names),
        (None, Some(stop)) => stop.describe(),
        (None, None) => "unfinished".to_string(),
    };
    game.transcript().finish(&result)?;
    match stop {
        Some(Stop::TooManyTurns) => {
            super::complain!("error: {}", fairy::limits::too_many_turns());
            Err(Reported::Invalid)
        }
        Some(Stop::InputTooLong) => Err(Reported::Invalid),
        _ => Ok(()),
    }
}

/// Why a game stopped before its end.
#[derive(Clone, Copy)]
enum Stop {
    /// A human quit, or the input ended.
    Quit,
    /// A line of input was longer than the limit.
    InputTooLong,
    /// The game reached this many plies, its limit.
    PlyLimit(usize),
    /// Ctrl-C.
    Interrupted,
    /// A position had more turns than fairy holds, so that turns can no longer be read or judged.
    TooManyTurns,
}

impl Stop {
    /// The game's result, as the end of the game and its record say it.
    fn describe(self) -> String {
        match self {
            Stop::Quit | Stop::InputTooLong => "unfinished (stopped)".to_string(),
            Stop::PlyLimit(plies) => format!("unfinished: the ply limit ({plies}) was reached"),
            Stop::Interrupted => "unfinished (interrupted)".to_string(),
            Stop::TooManyTurns => format!("unfinished ({})", fairy::limits::too_many_turns()),
        }
    }
}

/// What the end of a game prints and records, kept up to date turn by turn, so that Ctrl-C can
/// end the game from another thread while this one thinks or waits for input.
struct Transcript {
    /// The rule file, as given.
    rules: String,
    /// The position the game started from.
    start: String,
    /// Each turn's text.
    moves: Vec<String>,
    /// The position now.
    fen: String,
    record: Option<RecordFile>,
    /// The end has been printed and recorded: nothing is left to do.
    finished: bool,
}

impl Transcript {
    /// Writes the record, then prints the result, the moves and the final position: the record
    /// first, as standard output may be a pipe no one reads.
    fn finish(&mut self, result: &str) -> Result<(), Reported> {
        self.finished = true;
        let moves: Vec<&str> = self.moves.iter().map(String::as_str).collect();
        let recorded = match self.record.take() {
            Some(record) => record.write(&self.rules, &self.start, result, &moves),
            None => Ok(()),
        };
        emit(&format!(
            "\nresult: {result}\nmoves: {}\nfen: {}\n",
            moves.join(" "),
            self.fen
        ));
        recorded
    }
}

/// Ends the game on Ctrl-C, as interrupted, unless it has ended already.
fn end_on_interrupt(transcript: Arc<Mutex<Transcript>>) {
    interrupt::on_interrupt(move || {
        let mut transcript = lock(&transcript);
        if !transcript.finished {
            // A record that cannot be written has been reported; the game ends all the same.
            let _ = transcript.finish(&Stop::Interrupted.describe());
            interrupt::quit();
        }
    });
}

/// The transcript, even if a thread panicked holding it: it is whole after every change.
fn lock(transcript: &Mutex<Transcript>) -> MutexGuard<'_, Transcript> {
    transcript.lock().unwrap_or_else(PoisonError::into_inner)
}

/// One line of input, as the prompt reads it.
enum Line {
    Text(String),
    /// Not UTF-8 text: answered as any other line that is no turn.
    NotText,
    /// Longer than [`MAX_BYTES`]: no one typed it, so what follows is no one's typing either,
    /// and reading on to its end could take for ever (`/dev/zero` has none).
    TooLong,
    /// The input has ended, or cannot be read.
    End,
}

/// Reads a line, holding at most [`MAX_BYTES`] of it (and its line break) in memory.
fn read_line(input: &mut impl BufRead) -> Line {
    let mut bytes = Vec::new();
    match input.take(MAX_BYTES + 1).read_until(b'\n', &mut bytes) {
        Ok(0) | Err(_) => return Line::End,
        Ok(_) => {}
    }
    if bytes.last() == Some(&b'\n') {
        bytes.pop();
    } else if bytes.len() as u64 > MAX_BYTES {
        return Line::TooLong;
    }
    String::from_utf8(bytes).map_or(Line::NotText, Line::Text)
}

struct Game {
    seats: Vec<Seat>,
    players: Vec<Option<Player>>,
    /// Each turn played: who played it, and the turn.
    played: Vec<(usize, Turn)>,
    transcript: Arc<Mutex<Transcript>>,
    hint: Player,
    view: View,
    /// How many turns had been played when the board was last drawn.
    drawn: usize,
    /// The game ends, unfinished, once it has this many turns.
    max_plies: usize,
}

/// Whether the one human of a two-player game plays the second seat.
fn seen_from_second_seat(seats: &[Seat]) -> bool {
    matches!(seats, [first, Seat::Human] if *first != Seat::Human)
}

/// Reverse video and colours on a terminal, unless `NO_COLOR` is set; plain text anywhere else.
fn marks_for_stdout() -> Marks {
    use std::io::IsTerminal;
    match std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none() {
        true => Marks::Colour,
        false => Marks::Plain,
    }
}

impl Game {
    fn transcript(&self) -> MutexGuard<'_, Transcript> {
        lock(&self.transcript)
    }

    /// The board, with the squares of the turns played since it was last drawn marked (the
    /// last turn's, at least), and those turns listed.
    fn draw(&mut self, position: &mut Position<'_>) {
        let since = self.drawn.min(self.played.len().saturating_sub(1));
        let recent = &self.played[since..];
        let marked: Vec<_> = recent.iter().flat_map(|(_, turn)| turn.squares()).collect();
        emit(&format!(
            "\n{}",
            marked_diagram(position, &marked, self.view)
        ));
        // Copied out, so that no write to standard output holds the transcript from Ctrl-C.
        let texts: Vec<String> = self.transcript().moves[since..].to_vec();
        let names = &position.rules().players.names;
        let listed: Vec<String> = (recent.iter().zip(&texts))
            .map(|((mover, _), text)| format!("{} {text}", names[*mover]))
            .collect();
        match listed.len() {
            0 => {}
            1 => emit(&format!("last turn: {}\n", listed[0])),
            _ => emit(&format!("last turns: {}\n", listed.join(", "))),
        }
        self.drawn = self.played.len();
    }

    fn make(&mut self, position: &mut Position<'_>, turn: Turn) {
        let text = moves::write(position, &turn);
        self.played.push((position.to_move(), turn));
        position.make(&turn);
        let mut transcript = self.transcript();
        transcript.moves.push(text);
        transcript.fen = fen::write(position);
    }

    /// Plays until the game ends, or says why it stopped before.
    fn run(&mut self, position: &mut Position<'_>, input: &mut impl BufRead) -> Option<Stop> {
        let names = &position.rules().players.names;
        let stop = loop {
            if position.ending().is_some() {
                break None;
            }
            if self.played.len() >= self.max_plies {
                break Some(Stop::PlyLimit(self.max_plies));
            }
            let mover = position.to_move();
            // With a human at the table, the computers' turns are drawn together, before theirs.
            if self.players[mover].is_none() || !self.seats.contains(&Seat::Human) {
                self.draw(position);
            }
            let turn = match &mut self.players[mover] {
                Some(player) => {
                    let Some(turn) = player.choose(position) else {
                        break None;
                    };
                    emit(&format!(
                        "{} plays {}\n",
                        names[mover],
                        moves::write(position, &turn)
                    ));
                    turn
                }
                None => match self.ask(position, input) {
                    Ok(turn) => turn,
                    Err(stop) => return Some(stop),
                },
            };
            if position.turns_overflowed() {
                break Some(Stop::TooManyTurns);
            }
            self.make(position, turn);
        };
        self.draw(position);
        stop
    }

    /// Reads the human's turn, answering commands on the way, or says why the game stops.
    fn ask(&mut self, position: &mut Position<'_>, input: &mut impl BufRead) -> Result<Turn, Stop> {
        loop {
            if position.turns_overflowed() {
                return Err(Stop::TooManyTurns);
            }
            let name = &position.rules().players.names[position.to_move()];
            emit(&format!("{name}> "));
            let line = match read_line(input) {
                Line::Text(line) => line,
                Line::NotText => {
                    emit("this line is not UTF-8 text: type one turn, or `help`\n");
                    continue;
                }
                Line::TooLong => {
                    super::complain!(
                        "error: a line of standard input is longer than {MAX_BYTES} bytes: no \
                         more input is read"
                    );
                    return Err(Stop::InputTooLong);
                }
                Line::End => {
                    emit("\n");
                    return Err(Stop::Quit);
                }
            };
            let words: Vec<&str> = line.split_whitespace().collect();
            match words.as_slice() {
                [] => {}
                ["quit"] => return Err(Stop::Quit),
                ["help"] => emit(HELP),
                ["fen"] => emit(&format!("{}\n", fen::write(position))),
                ["moves"] => emit(&listed(moves::legal_texts(position), "")),
                ["moves", square] => emit(&from_square(position, square)),
                ["hint"] => match self.hint.advise(position) {
                    Some(choice) => emit(&format!(
                        "hint: {} ({}; searched to depth {}, {} positions)\n",
                        moves::write(position, &choice.turn),
                        choice.outlook(),
                        choice.depth,
                        choice.nodes
                    )),
                    None => emit("no legal turn\n"),
                },
                ["undo"] => self.undo(position),
                parts => match read_typed(position, parts) {
                    Ok(turn) => return Ok(turn),
                    Err(message) => emit(&format!("{message}\n")),
                },
            }
        }
    }

    /// Takes back the turns back to the last one a human played, that one included.
    fn undo(&mut self, position: &mut Position<'_>) {
        if !self
            .played
            .iter()
            .any(|(p, ..)| self.seats[*p] == Seat::Human)
        {
            emit("no turn of yours to take back\n");
            return;
        }
        let mut transcript = lock(&self.transcript);
        while let Some((mover, _)) = self.played.pop() {
            position.unmake();
            transcript.moves.pop();
            if self.seats[mover] == Seat::Human {
                break;
            }
        }
        transcript.fen = fen::write(position);
        drop(transcript);
        self.draw(position);
    }
}

/// Reads a turn as typed at the prompt: its parts joined by commas or spaces; if it is not
/// legal as typed, with squares in lower case and placed pieces in upper case; and if not
/// so either, as a chess book writes one move (`Nf3`). A refusal quotes the text as typed.
fn read_typed(position: &mut Position<'_>, parts: &[&str]) -> Result<Turn, String> {
    let typed = parts.join(",");
    let part = |text: &str| match text.split_once('@') {
        Some((piece, square)) => format!("{}@{}", piece.to_uppercase(), square.to_lowercase()),
        None => text.to_lowercase(),
    };
    let cased: Vec<String> = typed.split(',').map(part).collect();
    let cased = cased.join(",");
    let written = moves::is_written_as_turn(&typed) || moves::is_written_as_turn(&cased);
    moves::read(position, &typed)
        .or_else(|refusal| match cased == typed {
            true => Err(refusal),
            false => moves::read(position, &cased).map_err(|_| refusal),
        })
        .or_else(|refusal| match written {
            true => Err(refusal),
            false => san::read(position, &typed).unwrap_or(Err(refusal)),
        })
}

/// The legal turns starting with `prefix`, on one line: the piece's own, then those another
/// piece lends, after the lender's name (`; lent by the White Relay on e4: e5e6 e5e7`).
fn from_square(position: &mut Position<'_>, prefix: &str) -> String {
    let mut ways = Vec::new();
    position.every_way(&mut ways);
    let mut groups: Vec<(String, Vec<String>)> = Vec::new();
    for turn in &ways {
        let text = moves::write(position, turn);
        if !text.starts_with(prefix) {
            continue;
        }
        let lent = lent_by(position, turn);
        match groups.iter_mut().find(|(by, _)| *by == lent) {
            Some((_, texts)) => texts.push(text),
            None => groups.push((lent, vec![text])),
        }
    }
    if groups.is_empty() {
        return listed(Vec::new(), prefix);
    }
    groups.sort_by(|a, b| (!a.0.is_empty(), &a.0).cmp(&(!b.0.is_empty(), &b.0)));
    let lines: Vec<String> = (groups.iter_mut())
        .map(|(lent, texts)| {
            moves::sort_naturally(texts);
            texts.dedup();
            match lent.is_empty() {
                true => texts.join(" "),
                false => format!("lent by {lent}: {}", texts.join(" ")),
            }
        })
        .collect();
    format!("{}\n", lines.join("; "))
}

/// The texts starting with `prefix`, on one line, or a note that there are none.
fn listed(texts: Vec<String>, prefix: &str) -> String {
    let chosen: Vec<String> = texts
        .into_iter()
        .filter(|t| t.starts_with(prefix))
        .collect();
    match (chosen.is_empty(), prefix.is_empty()) {
        (true, true) => "no legal turn\n".to_string(),
        (true, false) => format!("no legal turn starts with {}\n", quoted(prefix)),
        (false, _) => format!("{}\n", chosen.join(" ")),
    }
}
