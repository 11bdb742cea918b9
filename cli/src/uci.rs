//! `fairy uci`: the Universal Chess Interface, for the interfaces, match runners and libraries
//! that speak it (python-chess, cutechess, Fairy-Stockfish's `UCI_Variant` convention). Commands
//! come on standard input, one per line; answers go to standard output. A command fairy cannot
//! follow is answered with one `info string error: …` line and otherwise ignored.

use super::protocol::{
    self, Clock, DEFAULT_HASH_MB, Ending, MAX_HASH_MB, Resources, Thinking, Variant,
    deadline_after, line_text, mate_in,
};
use super::weights::WeightsArg;
use super::{Reported, emit};
use clap::Args;
use fairy::ai::search::{Choice, Limits, MAX_THREADS, Searcher};
use fairy::compile::Ruleset;
use fairy::engine::Position;
use fairy::engine::perft::Perft;
use fairy::notation::protocol::{Dialect, read, write};
use fairy::notation::{diagram, fen};
use std::io::BufRead;
use std::thread::Scope;
use std::time::{Duration, Instant};

#[derive(Args)]
pub struct UciArgs {
    /// Rule files to offer as `UCI_Variant`, by file name without `.rules`; every file in
    /// `rules/` without any. Games whose turns have more than one part, or that have more than
    /// two players, cannot be carried by the protocol: a file given is refused, one found in
    /// `rules/` left out. The first file given (else chess, else the first) is played first.
    #[arg(value_name = "FILE")]
    files: Vec<String>,
    #[command(flatten)]
    weights: WeightsArg,
}

pub fn uci(args: &UciArgs) -> Result<(), Reported> {
    let variants = protocol::variants(&args.files, &args.weights)?;
    let first = match args.files.is_empty() {
        true => protocol::find_variant(&variants, "chess").unwrap_or(0),
        false => 0,
    };
    std::thread::scope(|scope| {
        let mut session = Session::new(scope, &variants, first);
        for line in std::io::stdin().lock().lines() {
            let Ok(line) = line else { break };
            if !session.command(&line) {
                break;
            }
        }
        session.finish_thinking();
    });
    Ok(())
}

struct Session<'scope, 'env> {
    scope: &'scope Scope<'scope, 'env>,
    variants: &'env [Variant],
    variant: usize,
    position: Position<'env>,
    /// The computer player, while it is not thinking.
    searcher: Option<Box<Searcher>>,
    thinking: Option<Thinking<'scope>>,
    resources: Resources,
}

impl<'scope, 'env> Session<'scope, 'env> {
    fn new(scope: &'scope Scope<'scope, 'env>, variants: &'env [Variant], variant: usize) -> Self {
        Session {
            scope,
            variants,
            variant,
            position: Position::start(&variants[variant].rules),
            searcher: None,
            thinking: None,
            resources: Resources::default(),
        }
    }

    fn rules(&self) -> &'env Ruleset {
        &self.variants[self.variant].rules
    }

    /// Follows one command; `false` once told to quit.
    fn command(&mut self, line: &str) -> bool {
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some((&name, rest)) = words.split_first() else {
            return true;
        };
        if self.thinking.as_ref().is_some_and(Thinking::is_finished) {
            self.finish_thinking();
        }
        match name {
            "uci" => self.identify(),
            "isready" => {
                let (busy, variant) = (self.thinking.is_some(), &self.variants[self.variant]);
                protocol::prepare(&mut self.searcher, busy, variant, self.resources);
                emit("readyok\n");
            }
            "ucinewgame" => {
                self.finish_thinking();
                self.searcher = None;
            }
            "setoption" => self.set_option(rest),
            "position" => self.set_position(rest),
            "go" => self.go(rest),
            "stop" | "ponderhit" => self.finish_thinking(),
            "d" => {
                self.finish_thinking();
                let mut position = self.position.clone();
                emit(&format!(
                    "{}fen: {}\n",
                    diagram(&mut position),
                    fen::write(&position)
                ));
            }
            "quit" => return false,
            "debug" | "register" => {}
            _ => error(&format!("unknown command `{name}`")),
        }
        true
    }

    fn identify(&self) {
        let names: Vec<&str> = self.variants.iter().map(|v| v.name.as_str()).collect();
        let current = &self.variants[self.variant].name;
        emit(&format!(
            "id name fairy {}\nid author the fairy developers\n\
             option name UCI_Variant type combo default {current} var {}\n\
             option name Hash type spin default {DEFAULT_HASH_MB} min 1 max {MAX_HASH_MB}\n\
             option name Threads type spin default 1 min 1 max {MAX_THREADS}\n\
             uciok\n",
            env!("CARGO_PKG_VERSION"),
            names.join(" var ")
        ));
    }

    /// `setoption name NAME [value VALUE]`, the name in any case.
    fn set_option(&mut self, words: &[&str]) {
        let text = words.join(" ");
        let Some(rest) = text.strip_prefix("name ") else {
            return error("setoption: expected `setoption name NAME value VALUE`");
        };
        let (name, value) = match rest.split_once(" value ") {
            Some((name, value)) => (name.trim(), value.trim()),
            None => (rest.trim(), ""),
        };
        self.finish_thinking();
        match name.to_ascii_lowercase().as_str() {
            "uci_variant" => match protocol::find_variant(self.variants, value) {
                Some(variant) => {
                    self.variant = variant;
                    self.position = Position::start(self.rules());
                    self.searcher = None;
                }
                None => error(&format!("setoption: no variant `{value}` is offered")),
            },
            "hash" => match protocol::count_within(value, MAX_HASH_MB) {
                Some(hash_mb) => self.use_resources(Resources {
                    hash_mb,
                    ..self.resources
                }),
                None => error(&format!(
                    "setoption: Hash is 1 to {MAX_HASH_MB} megabytes, not `{value}`"
                )),
            },
            "threads" => match protocol::count_within(value, MAX_THREADS) {
                Some(threads) => self.use_resources(Resources {
                    threads,
                    ..self.resources
                }),
                None => error(&format!(
                    "setoption: Threads is 1 to {MAX_THREADS}, not `{value}`"
                )),
            },
            _ => error(&format!("setoption: no option `{name}`")),
        }
    }

    /// Lets the computer player use `resources` from its next search, with a fresh table.
    fn use_resources(&mut self, resources: Resources) {
        self.resources = resources;
        self.searcher = None;
    }

    /// `position startpos|fen FEN [moves M...]`. A mistake leaves the position as it was.
    fn set_position(&mut self, words: &[&str]) {
        self.finish_thinking();
        let (setup, moves) = match words.iter().position(|&w| w == "moves") {
            Some(at) => (&words[..at], &words[at + 1..]),
            None => (words, &[][..]),
        };
        let mut position = match setup {
            ["startpos"] => Position::start(self.rules()),
            ["fen", fields @ ..] if !fields.is_empty() => {
                match fen::read(self.rules(), &fields.join(" ")) {
                    Ok(position) => position,
                    Err(e) => return error(&format!("position: the FEN is not valid: {e}")),
                }
            }
            _ => return error("position: expected `position startpos|fen FEN [moves M...]`"),
        };
        for text in moves {
            match read(&mut position, text, Dialect::Uci) {
                Ok(turn) => position.make(&turn),
                Err(why) => return error(&format!("position: illegal move {text}: {why}")),
            }
        }
        self.position = position;
    }

    /// `go` with its limits, or `go perft N`.
    fn go(&mut self, words: &[&str]) {
        self.finish_thinking();
        let start = Instant::now();
        let go = match Go::parse(words) {
            Ok(go) => go,
            Err(why) => return error(&format!("go: {why}")),
        };
        if let Some(depth) = go.perft {
            return self.perft(depth);
        }
        let clock = match self.position.to_move() {
            0 => go.clocks[0],
            _ => go.clocks[1],
        };
        let think = go.movetime.or_else(|| clock.map(|clock| clock.budget()));
        let limits = Limits {
            deadline: think.map(|think| deadline_after(start, think)),
            depth: go.depth,
            nodes: go.nodes,
            stop: None,
        };
        let rules = self.rules();
        let searcher = (self.searcher.take())
            .unwrap_or_else(|| protocol::searcher(&self.variants[self.variant], self.resources));
        let report = move |choice: &Choice| emit(&info(rules, choice, start));
        let answer = move |choice: Option<Choice>| {
            let best = choice.map_or("(none)".to_string(), |c| {
                write(rules, &c.turn, Dialect::Uci)
            });
            emit(&format!("bestmove {best}\n"));
        };
        let ending = Ending {
            hold: go.infinite,
            answer,
        };
        let position = self.position.clone();
        let thinking = protocol::think(self.scope, searcher, position, limits, report, ending);
        self.thinking = Some(thinking);
    }

    /// Counts the moves to `depth` and prints each root move's count, then the total, as
    /// Fairy-Stockfish does.
    fn perft(&mut self, depth: usize) {
        let mut position = self.position.clone();
        let mut counter = Perft::new(depth);
        let mut rows: Vec<(String, u64)> = match depth {
            0 => Vec::new(),
            _ => (counter.divide(&mut position).into_iter())
                .map(|(turn, n)| (write(self.rules(), &turn, Dialect::Uci), n))
                .collect(),
        };
        rows.sort();
        let total = match depth {
            0 => 1,
            _ => rows.iter().map(|(_, n)| n).sum(),
        };
        if let Some(reason) = counter.shortfall(&position) {
            return error(&format!("go perft: {reason}"));
        }
        let lines: String = rows
            .iter()
            .map(|(text, n)| format!("{text}: {n}\n"))
            .collect();
        emit(&format!("{lines}\nNodes searched: {total}\n\n"));
    }

    /// Stops any search (it answers `bestmove` first) and takes its player back.
    fn finish_thinking(&mut self) {
        if let Some(thinking) = self.thinking.take() {
            self.searcher = Some(thinking.stop());
        }
    }
}

/// What `go` asks for.
#[derive(Default)]
struct Go {
    /// `wtime`/`winc` and `btime`/`binc`, for the first and the second player.
    clocks: [Option<Clock>; 2],
    movetime: Option<Duration>,
    depth: Option<usize>,
    nodes: Option<u64>,
    infinite: bool,
    perft: Option<usize>,
}

impl Go {
    fn parse(words: &[&str]) -> Result<Go, String> {
        let mut go = Go::default();
        let mut words = words.iter();
        let mut moves_to_go = None;
        while let Some(&word) = words.next() {
            let mut number = || -> Result<u64, String> {
                let value = words.next().ok_or(format!("`{word}` needs a number"))?;
                // A clock may run below zero in some interfaces: no time left.
                match value.parse::<i64>() {
                    Ok(n) => Ok(n.max(0) as u64),
                    Err(_) => Err(format!("`{word}` needs a number, not `{value}`")),
                }
            };
            let ms = |n: u64| Duration::from_millis(n);
            match word {
                "wtime" => go.clock(0).left = ms(number()?),
                "btime" => go.clock(1).left = ms(number()?),
                "winc" => go.clock(0).increment = ms(number()?),
                "binc" => go.clock(1).increment = ms(number()?),
                "movestogo" => moves_to_go = Some(number()?.min(u64::from(u32::MAX)) as u32),
                "movetime" => go.movetime = Some(ms(number()?)),
                "depth" => go.depth = Some(number()?.max(1) as usize),
                "nodes" => go.nodes = Some(number()?),
                "mate" => go.depth = Some(2 * number()?.max(1) as usize),
                "perft" => {
                    go.perft = Some(number()?.min(fairy::limits::MAX_PERFT_DEPTH as u64) as usize)
                }
                "infinite" | "ponder" => go.infinite = true,
                "searchmoves" => return Err("searchmoves is not supported".into()),
                _ => return Err(format!("unknown word `{word}`")),
            }
        }
        for clock in go.clocks.iter_mut().flatten() {
            clock.moves_to_go = moves_to_go;
        }
        Ok(go)
    }

    fn clock(&mut self, player: usize) -> &mut Clock {
        self.clocks[player].get_or_insert_with(Clock::default)
    }
}

/// An `info` line for a finished iteration of the search.
fn info(rules: &Ruleset, choice: &Choice, start: Instant) -> String {
    let elapsed = start.elapsed();
    let nps = (choice.nodes as f64 / elapsed.as_secs_f64().max(1e-6)) as u64;
    let score = match mate_in(choice.score) {
        Some(moves) if moves > 0 => format!("mate {moves}"),
        Some(moves) => format!("mate -{}", -moves),
        None => format!("cp {}", choice.score),
    };
    format!(
        "info depth {} score {score} nodes {} nps {nps} time {} pv {}\n",
        choice.depth,
        choice.nodes,
        elapsed.as_millis(),
        line_text(rules, choice, Dialect::Uci)
    )
}

/// One line, whatever the message: an interface reads a line per answer.
fn error(message: &str) {
    let line = message.lines().collect::<Vec<_>>().join("; ");
    emit(&format!("info string error: {line}\n"));
}
