//! `fairy match`: games between engines that speak UCI or XBoard's protocol, or between one of
//! them and fairy's own computer player, refereed by fairy's rules: every move an engine sends
//! is checked, an illegal one or none in time loses, and the game ends when the rule file says
//! so, whatever the engines claim.

use super::protocol::{Variant, variant_name};
use super::record::RecordFile;
use super::seats::Threads;
use super::weights::WeightsArg;
use super::{Reported, complain, emit, load_rules};
use clap::Args;
use fairy::ai::{Budget, Player};
use fairy::compile::Ruleset;
use fairy::engine::Position;
use fairy::engine::outcome::Ending;
use fairy::notation::protocol::{Dialect, read, unspeakable, write, xboard_variant_name};
use fairy::notation::{fen, moves};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

#[derive(Args)]
pub struct MatchArgs {
    /// The rule file of the game.
    #[arg(value_name = "FILE")]
    file: String,
    /// An engine's command line (words split at spaces), UCI or XBoard, found out by asking.
    /// Give one to play it against fairy, two to play them against each other.
    #[arg(long = "engine", value_name = "CMD", required = true)]
    engines: Vec<String>,
    /// How many games; the first engine takes the first seat in the odd-numbered ones.
    #[arg(long, value_name = "N", default_value_t = 2)]
    games: usize,
    /// Thinking time per move, in milliseconds (the default, 100 ms, unless --tc is given).
    #[arg(long, value_name = "MS", conflicts_with = "tc")]
    movetime: Option<u64>,
    /// A clock per player: SECONDS+INCREMENT (`60+0.5`).
    #[arg(long, value_name = "BASE+INC")]
    tc: Option<String>,
    /// About N nodes of search per move instead of a time, for UCI engines and fairy: a side
    /// searching on one thread then plays the same on a loaded machine as on an idle one.
    #[arg(long, value_name = "N", conflicts_with_all = ["movetime", "tc"],
          value_parser = clap::value_parser!(u64).range(1..))]
    nodes: Option<u64>,
    /// A file of openings, one per line, each a list of moves (`e2e4 e7e5`); each is played
    /// twice, seats swapped, in turn.
    #[arg(long, value_name = "FILE")]
    openings: Option<String>,
    /// A game ends, drawn by adjudication, once it has this many turns.
    #[arg(long, value_name = "P", default_value_t = 400)]
    max_plies: usize,
    /// Write each game's record into DIR (created if missing), as `game-N.txt`.
    #[arg(long, value_name = "DIR")]
    record: Option<String>,
    /// Print the summary as one JSON document.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    threads: Threads,
    /// Evaluation weights for fairy's own player, where it plays (one `--engine` given).
    #[command(flatten)]
    weights: WeightsArg,
}

/// How long an engine may take over its time before it loses on time: pipes and process
/// switches on a loaded machine.
const GRACE: Duration = Duration::from_millis(1000);
/// How long an engine searching a number of nodes may take over one move.
const NODES_PATIENCE: Duration = Duration::from_secs(60);
/// How long an engine may take to answer the handshake.
const HANDSHAKE: Duration = Duration::from_secs(5);

pub fn play_match(args: &MatchArgs) -> Result<(), Reported> {
    if args.engines.len() > 2 {
        complain!(
            "error: --engine is given {} times: a match has two sides",
            args.engines.len()
        );
        return Err(Reported::Usage);
    }
    let (rules, _) = load_rules(&args.file)?;
    if let Some(why) = unspeakable(&rules) {
        complain!(
            "error: {}: the engine protocols cannot carry this game: {why}",
            args.file
        );
        return Err(Reported::Unplayable);
    }
    if args.weights.path.is_some() && args.engines.len() != 1 {
        complain!(
            "error: --weights is for fairy's own player, which plays only against one --engine"
        );
        return Err(Reported::Usage);
    }
    let weights = args.weights.load(&rules, &args.file)?;
    let variant = Variant {
        name: variant_name(&args.file),
        rules,
        weights,
    };
    let timing = Timing::of(args)?;
    let openings = read_openings(args, &variant.rules)?;
    if let Timing::Nodes(_) = timing {
        warn_of_repeated_games(args.games, openings.len());
    }
    if let Some(dir) = &args.record {
        std::fs::create_dir_all(dir).map_err(|e| {
            complain!("error: --record: cannot create {dir}: {e}");
            Reported::Invalid
        })?;
    }
    let mut sides: Vec<Side> = Vec::new();
    for command in &args.engines {
        sides.push(Side::Engine(Engine::start(command, &variant)?));
    }
    if let (Timing::Nodes(_), Some(xboard)) = (&timing, sides.iter().find(|s| s.speaks_xboard())) {
        complain!(
            "error: --nodes: {} speaks XBoard, which cannot limit a move to a number of nodes; \
             give it --movetime or --tc",
            xboard.name()
        );
        sides.into_iter().for_each(Side::quit);
        return Err(Reported::Usage);
    }
    if sides.len() == 1 {
        let player = Player::weighted(&variant.rules, timing.budget(), 1, variant.weights.as_ref());
        sides.push(Side::Fairy(player.with_threads(args.threads.count)));
    }
    let names: Vec<String> = sides.iter().map(Side::name).collect();
    let progress = match args.json {
        true => indicatif::ProgressBar::hidden(),
        false => indicatif::ProgressBar::new(args.games as u64),
    };
    let mut games = Vec::new();
    for index in 0..args.games {
        let opening = openings
            .get((index / 2) % openings.len().max(1))
            .cloned()
            .unwrap_or_default();
        // The first side takes the first seat in even-indexed games.
        let first = index % 2;
        let game = play_game(
            &variant,
            &mut sides,
            first,
            &opening,
            &timing,
            args.max_plies,
        );
        if let Some(dir) = &args.record {
            record_game(dir, index, &args.file, &variant, &game, &names, first)?;
        }
        progress.inc(1);
        if let Some(lost) = &game.fault {
            progress.println(format!("game {}: {lost}", index + 1));
        }
        games.push((first, game));
    }
    progress.finish_and_clear();
    for side in sides {
        side.quit();
    }
    report(args, &names, &games);
    Ok(())
}

/// How long each side thinks.
#[derive(Clone, Copy)]
enum Timing {
    PerMove(Duration),
    Clock { base: Duration, increment: Duration },
    Nodes(u64),
}

impl Timing {
    fn of(args: &MatchArgs) -> Result<Timing, Reported> {
        if let Some(nodes) = args.nodes {
            return Ok(Timing::Nodes(nodes));
        }
        let Some(tc) = &args.tc else {
            return Ok(Timing::PerMove(Duration::from_millis(
                args.movetime.unwrap_or(100),
            )));
        };
        let (base, increment) = tc.split_once('+').unwrap_or((tc, "0"));
        let seconds = |text: &str| {
            text.parse::<f64>()
                .ok()
                .filter(|s| s.is_finite() && *s >= 0.0)
        };
        match (seconds(base), seconds(increment)) {
            (Some(base), Some(increment)) if base > 0.0 => Ok(Timing::Clock {
                base: Duration::from_secs_f64(base.min(86_400.0)),
                increment: Duration::from_secs_f64(increment.min(3600.0)),
            }),
            _ => {
                complain!("error: --tc takes SECONDS+INCREMENT, as 60+0.5, not `{tc}`");
                Err(Reported::Usage)
            }
        }
    }

    /// fairy's own search per move, where it does not keep a clock.
    fn budget(&self) -> Budget {
        match self {
            Timing::PerMove(think) => Budget::Time(*think),
            Timing::Clock { base, increment } => Budget::Time(*base / 40 + *increment),
            Timing::Nodes(nodes) => Budget::Nodes(*nodes),
        }
    }

    /// How long an engine may take over a move before it is taken to have hung: a search of
    /// a number of nodes has no time, so a generous one.
    fn allowed(&self, clocks: &[Duration; 2], seat: usize) -> Duration {
        match self {
            Timing::PerMove(think) => *think,
            Timing::Clock { .. } => clocks[seat],
            Timing::Nodes(_) => NODES_PATIENCE,
        }
    }
}

/// Says where a match by nodes has more games than its openings have seatings: a side
/// searching by nodes on one thread plays an opening the same way each time it holds the same
/// seat, so the later games repeat the earlier ones and weigh in the score without telling
/// anything new.
fn warn_of_repeated_games(games: usize, openings: usize) {
    let distinct = 2 * openings;
    if games > distinct {
        complain!(
            "note: --nodes: {games} games from {openings} opening(s): a side searching by nodes \
             on one thread plays an opening the same way each time it holds the same seat, so \
             only {distinct} of the games can differ; give at least {} openings",
            games.div_ceil(2)
        );
    }
}

/// The openings to play, each a list of moves checked legal from the start.
fn read_openings(args: &MatchArgs, rules: &Ruleset) -> Result<Vec<Vec<String>>, Reported> {
    let Some(path) = &args.openings else {
        return Ok(vec![Vec::new()]);
    };
    let source = super::read_text(path, "openings file")?;
    let mut openings = Vec::new();
    for (number, line) in source.text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut position = Position::start(rules);
        if let Err(e) = moves::play(&mut position, line) {
            complain!("error: {path}:{}: {e}", number + 1);
            return Err(Reported::Invalid);
        }
        openings.push(line.split_whitespace().map(str::to_string).collect());
    }
    if openings.is_empty() {
        complain!("error: {path} holds no opening");
        return Err(Reported::Invalid);
    }
    Ok(openings)
}

/// One side of the match.
enum Side {
    Engine(Engine),
    Fairy(Player),
}

impl Side {
    fn name(&self) -> String {
        match self {
            Side::Engine(engine) => engine.name.clone(),
            Side::Fairy(_) => format!("fairy {}", env!("CARGO_PKG_VERSION")),
        }
    }

    fn speaks_xboard(&self) -> bool {
        matches!(self, Side::Engine(engine) if engine.dialect == Dialect::Xboard)
    }

    fn quit(self) {
        if let Side::Engine(engine) = self {
            engine.quit();
        }
    }
}

/// A game as played.
struct Game {
    moves: Vec<String>,
    /// The seat (0: first) that won, or `None` for a draw.
    winner: Option<usize>,
    /// How it ended, in words.
    how: String,
    /// What a side did wrong, where the game ended by it.
    fault: Option<String>,
}

/// Plays one game, the side `first` in the first seat, after the opening's moves.
fn play_game(
    variant: &Variant,
    sides: &mut [Side],
    first: usize,
    opening: &[String],
    timing: &Timing,
    max_plies: usize,
) -> Game {
    let rules = &variant.rules;
    let mut position = Position::start(rules);
    let mut played: Vec<String> = Vec::new();
    for text in opening {
        if let Ok(turn) = moves::read(&mut position, text) {
            position.make(&turn);
            played.push(text.clone());
        }
    }
    for (index, side) in sides.iter_mut().enumerate() {
        if let Side::Engine(engine) = side
            && let Err(fault) = engine.new_game(variant, timing)
        {
            // The seat of side `index`: side `first` sits first.
            return forfeit(played, (index + 2 - first) % 2, fault);
        }
    }
    let mut clocks = match timing {
        Timing::Clock { base, .. } => [*base; 2],
        Timing::PerMove(_) | Timing::Nodes(_) => [Duration::ZERO; 2],
    };
    loop {
        if let Some(ending) = position.ending() {
            return ended(played, &ending, &rules.players.names);
        }
        if played.len() >= max_plies {
            return Game {
                moves: played,
                winner: None,
                how: format!("drawn by adjudication after {max_plies} turns"),
                fault: None,
            };
        }
        let seat = position.to_move();
        let side = (seat + first) % 2;
        let started = Instant::now();
        let answer = match &mut sides[side] {
            Side::Fairy(player) => Ok(player
                .choose(&mut position)
                .map(|t| moves::write(&position, &t))),
            Side::Engine(engine) => engine.play(&position, &played, seat, &clocks, timing),
        };
        let used = started.elapsed();
        let text = match answer {
            Ok(Some(text)) => text,
            Ok(None) => return forfeit(played, seat, "had no move to make".to_string()),
            Err(fault) => return forfeit(played, seat, fault),
        };
        if let Timing::Clock { increment, .. } = timing {
            if used > clocks[seat] + GRACE {
                return forfeit(
                    played,
                    seat,
                    format!(
                        "lost on time ({} ms over)",
                        (used - clocks[seat]).as_millis()
                    ),
                );
            }
            clocks[seat] = clocks[seat].saturating_sub(used) + *increment;
        }
        let dialect = match &sides[side] {
            Side::Engine(engine) => engine.dialect,
            Side::Fairy(_) => Dialect::Uci,
        };
        match read(&mut position, &text, dialect) {
            Ok(turn) => {
                played.push(moves::write(&position, &turn));
                position.make(&turn);
            }
            Err(why) => {
                let why = why.lines().next().unwrap_or_default().to_string();
                return forfeit(
                    played,
                    seat,
                    format!("played the illegal move {text}: {why}"),
                );
            }
        }
    }
}

fn ended(moves: Vec<String>, ending: &Ending, names: &[String]) -> Game {
    let winner = match ending {
        Ending::Win { players, .. } if players.count_ones() == 1 => {
            Some(players.trailing_zeros() as usize)
        }
        _ => None,
    };
    Game {
        moves,
        winner,
        how: ending.describe(names),
        fault: None,
    }
}

/// The game lost by the player of `seat` for `fault`.
fn forfeit(moves: Vec<String>, seat: usize, fault: String) -> Game {
    let seat_name = ["the first player", "the second player"][seat.min(1)];
    Game {
        moves,
        winner: Some(1 - seat.min(1)),
        how: format!("{seat_name} {fault}"),
        fault: Some(format!("{seat_name} {fault}")),
    }
}

fn record_game(
    dir: &str,
    index: usize,
    file: &str,
    variant: &Variant,
    game: &Game,
    names: &[String],
    first: usize,
) -> Result<(), Reported> {
    let path = format!("{dir}/game-{}.txt", index + 1);
    let start = fen::write(&Position::start(&variant.rules));
    let result = format!(
        "{} ({} first, {} second)",
        game.how,
        names[first],
        names[1 - first]
    );
    let moves: Vec<&str> = game.moves.iter().map(String::as_str).collect();
    RecordFile::create(&path)?.write(file, &start, &result, &moves)
}

/// Prints the score of the first side against the second.
fn report(args: &MatchArgs, names: &[String], games: &[(usize, Game)]) {
    let n = games.len();
    let (mut wins, mut draws, mut faults) = (0, 0, Vec::new());
    for (index, (first, game)) in games.iter().enumerate() {
        match game.winner {
            Some(seat) if (seat + first) % 2 == 0 => wins += 1,
            Some(_) => {}
            None => draws += 1,
        }
        if let Some(fault) = &game.fault {
            faults.push(format!("game {}: {fault}", index + 1));
        }
    }
    let losses = n - wins - draws;
    let score = (wins as f64 + draws as f64 / 2.0) / n.max(1) as f64;
    let (low, high) = super::selfplay::wilson(wins as f64 + draws as f64 / 2.0, n.max(1));
    // Adding 0 turns an even score's -0 into 0.
    let elo = |p: f64| -400.0 * (1.0 / p.clamp(1e-3, 1.0 - 1e-3) - 1.0).log10() + 0.0;
    if args.json {
        let summary = serde_json::json!({
            "game": variant_name(&args.file),
            "first": names[0], "second": names[1],
            "games": n, "wins": wins, "draws": draws, "losses": losses,
            "score": score, "score_low": low, "score_high": high,
            "elo": elo(score), "elo_low": elo(low), "elo_high": elo(high),
            "faults": faults,
            "results": games.iter().map(|(first, g)| serde_json::json!({
                "first_seat": names[*first], "result": g.how, "plies": g.moves.len()
            })).collect::<Vec<_>>(),
        });
        emit(&format!("{summary:#}\n"));
        return;
    }
    let mut text = format!(
        "{} against {} in {}: {n} games\n+{wins} ={draws} -{losses}, score {:.1}% (95% interval {:.1}% to {:.1}%)\n\
         Elo difference {:+.0} (95% interval {:+.0} to {:+.0})\n",
        names[0],
        names[1],
        variant_name(&args.file),
        100.0 * score,
        100.0 * low,
        100.0 * high,
        elo(score),
        elo(low),
        elo(high)
    );
    for fault in &faults {
        text += &format!("{fault}\n");
    }
    emit(&text);
}

/// An engine running as a process of its own.
struct Engine {
    name: String,
    dialect: Dialect,
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    /// XBoard: whether it takes `usermove` and `setboard`.
    usermove: bool,
    /// XBoard: how many moves of the game it has been told.
    told: usize,
}

impl Engine {
    /// Starts `command` and finds out which protocol it speaks.
    fn start(command: &str, variant: &Variant) -> Result<Engine, Reported> {
        let words: Vec<&str> = command.split_whitespace().collect();
        let Some((program, arguments)) = words.split_first() else {
            complain!("error: --engine is empty");
            return Err(Reported::Usage);
        };
        let spawned = Command::new(program)
            .args(arguments)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn();
        let mut child = spawned.map_err(|e| {
            complain!("error: cannot start the engine `{command}`: {e}");
            Reported::Invalid
        })?;
        let stdin = child.stdin.take().expect("piped standard input");
        let stdout = BufReader::new(child.stdout.take().expect("piped standard output"));
        let (sender, lines) = channel();
        std::thread::spawn(move || {
            for line in stdout.lines().map_while(Result::ok) {
                if sender.send(line).is_err() {
                    break;
                }
            }
        });
        let mut engine = Engine {
            name: program.rsplit('/').next().unwrap_or(program).to_string(),
            dialect: Dialect::Uci,
            child,
            stdin,
            lines,
            usermove: false,
            told: 0,
        };
        engine.handshake(command, variant)?;
        Ok(engine)
    }

    /// UCI if it answers `uci` with `uciok`, else XBoard.
    fn handshake(&mut self, command: &str, variant: &Variant) -> Result<(), Reported> {
        self.send("uci");
        let mut uci = false;
        let mut variants_offered = String::new();
        let deadline = Instant::now() + Duration::from_millis(1500);
        while let Some(line) = self.next_line(deadline) {
            if let Some(name) = line.strip_prefix("id name ") {
                self.name = name.trim().to_string();
            }
            if line.contains("name UCI_Variant") {
                variants_offered = line.clone();
            }
            if line.trim() == "uciok" {
                uci = true;
                break;
            }
        }
        let refuse = |why: &str| {
            complain!("error: the engine `{command}` {why}");
            Reported::Invalid
        };
        if uci {
            if variant.name != "chess" {
                if !variants_offered
                    .split_whitespace()
                    .any(|w| w == variant.name)
                {
                    return Err(refuse(&format!(
                        "does not offer the variant {}",
                        variant.name
                    )));
                }
                self.send(&format!(
                    "setoption name UCI_Variant value {}",
                    variant.name
                ));
            }
            return Ok(());
        }
        self.dialect = Dialect::Xboard;
        self.send("xboard");
        self.send("protover 2");
        let deadline = Instant::now() + HANDSHAKE;
        let mut offered = None;
        while let Some(line) = self.next_line(deadline) {
            if let Some(name) = feature(&line, "myname") {
                self.name = name;
            }
            if let Some(list) = feature(&line, "variants") {
                offered = Some(list);
            }
            self.usermove |= feature(&line, "usermove").as_deref() == Some("1");
            if feature(&line, "done").as_deref() == Some("1") {
                break;
            }
        }
        let wanted = xboard_variant_name(&variant.name);
        match offered {
            Some(list) if wanted != "normal" && !list.split(',').any(|v| v == wanted) => {
                Err(refuse(&format!("does not offer the variant {wanted}")))
            }
            _ => Ok(()),
        }
    }

    fn next_line(&mut self, deadline: Instant) -> Option<String> {
        let left = deadline.saturating_duration_since(Instant::now());
        self.lines.recv_timeout(left).ok()
    }

    fn send(&mut self, command: &str) {
        let _ = writeln!(self.stdin, "{command}").and_then(|()| self.stdin.flush());
    }

    /// Readies the engine for a new game from the start.
    fn new_game(&mut self, variant: &Variant, timing: &Timing) -> Result<(), String> {
        self.told = 0;
        match self.dialect {
            Dialect::Uci => {
                self.send("ucinewgame");
                self.send("isready");
                self.wait_for(|l| l == "readyok", Instant::now() + HANDSHAKE)
                    .map(|_| ())
                    .ok_or_else(|| "did not answer isready".to_string())
            }
            Dialect::Xboard => {
                self.send("new");
                let name = xboard_variant_name(&variant.name);
                if name != "normal" {
                    self.send(&format!("variant {name}"));
                }
                self.send("force");
                match timing {
                    // `st` takes whole seconds in many engines (0.1 reads as 0): a time under
                    // a second is told as a clock for one move, before each move.
                    Timing::PerMove(think) if think.subsec_millis() == 0 => {
                        self.send(&format!("st {}", think.as_secs()))
                    }
                    Timing::PerMove(_) => self.send("level 1 0:01 0"),
                    // Refused before the first game: XBoard has no node limit per move.
                    Timing::Nodes(_) => {}
                    Timing::Clock { base, increment } => {
                        let (minutes, seconds) = (base.as_secs() / 60, base.as_secs() % 60);
                        self.send(&format!(
                            "level 0 {minutes}:{seconds:02} {}",
                            increment.as_secs_f64()
                        ));
                    }
                }
                Ok(())
            }
        }
    }

    /// Asks the engine for its move; the text it sent, `None` if it resigned the game as
    /// without moves, or what went wrong.
    fn play(
        &mut self,
        position: &Position<'_>,
        played: &[String],
        seat: usize,
        clocks: &[Duration; 2],
        timing: &Timing,
    ) -> Result<Option<String>, String> {
        let rules = position.rules();
        let deadline = Instant::now() + timing.allowed(clocks, seat) + GRACE;
        let texts = in_protocol(rules, played, self.dialect);
        match self.dialect {
            Dialect::Uci => {
                let moves_part = match texts.is_empty() {
                    true => String::new(),
                    false => format!(" moves {}", texts.join(" ")),
                };
                self.send(&format!("position startpos{moves_part}"));
                let go = match timing {
                    Timing::PerMove(think) => format!("go movetime {}", think.as_millis()),
                    Timing::Nodes(nodes) => format!("go nodes {nodes}"),
                    Timing::Clock { increment, .. } => format!(
                        "go wtime {} btime {} winc {} binc {}",
                        clocks[0].as_millis(),
                        clocks[1].as_millis(),
                        increment.as_millis(),
                        increment.as_millis()
                    ),
                };
                self.send(&go);
                let line = self.wait_for(|l| l.starts_with("bestmove"), deadline);
                let line = line.ok_or_else(|| "sent no move in time".to_string())?;
                let text = line
                    .split_whitespace()
                    .nth(1)
                    .unwrap_or("(none)")
                    .to_string();
                Ok((text != "(none)").then_some(text))
            }
            Dialect::Xboard => {
                for said in texts.into_iter().skip(self.told) {
                    let command = match self.usermove {
                        true => format!("usermove {said}"),
                        false => said,
                    };
                    self.send(&command);
                }
                self.told = played.len() + 1;
                let centis = |d: Duration| d.as_millis().div_ceil(10);
                match timing {
                    Timing::Clock { .. } => {
                        self.send(&format!("time {}", centis(clocks[seat])));
                        self.send(&format!("otim {}", centis(clocks[1 - seat.min(1)])));
                    }
                    Timing::PerMove(think) if think.subsec_millis() != 0 => {
                        self.send(&format!("time {}", centis(*think)));
                        self.send(&format!("otim {}", centis(*think)));
                    }
                    Timing::PerMove(_) | Timing::Nodes(_) => {}
                }
                self.send("go");
                let line = self.wait_for(
                    |l| l.starts_with("move ") || l.starts_with("resign"),
                    deadline,
                );
                self.send("force");
                let line = line.ok_or_else(|| "sent no move in time".to_string())?;
                match line.strip_prefix("move ") {
                    Some(text) => Ok(Some(text.trim().to_string())),
                    None => Err("resigned".to_string()),
                }
            }
        }
    }

    fn wait_for(&mut self, wanted: impl Fn(&str) -> bool, deadline: Instant) -> Option<String> {
        while let Some(line) = self.next_line(deadline) {
            if wanted(line.trim()) {
                return Some(line.trim().to_string());
            }
        }
        None
    }

    fn quit(mut self) {
        self.send("quit");
        let deadline = Instant::now() + Duration::from_secs(2);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The game's moves, each in fairy's text and legal in turn from the start, as `dialect`
/// writes them: the game is replayed once.
fn in_protocol(rules: &Ruleset, played: &[String], dialect: Dialect) -> Vec<String> {
    let mut replay = Position::start(rules);
    let mut texts = Vec::new();
    for text in played {
        match moves::read(&mut replay, text) {
            Ok(turn) => {
                texts.push(write(rules, &turn, dialect));
                replay.make(&turn);
            }
            Err(_) => texts.push(text.clone()),
        }
    }
    texts
}

/// The value of an XBoard feature in `line` (`feature usermove=1 myname="Fairy-Max 5.0b"`).
fn feature(line: &str, name: &str) -> Option<String> {
    let rest = line.strip_prefix("feature ")?;
    let at = rest.find(&format!("{name}="))?;
    let value = &rest[at + name.len() + 1..];
    match value.strip_prefix('"') {
        Some(quoted) => Some(quoted.split('"').next().unwrap_or_default().to_string()),
        None => Some(
            value
                .split_whitespace()
                .next()
                .unwrap_or_default()
                .to_string(),
        ),
    }
}
