//! `fairy xboard`: the Chess Engine Communication Protocol, version 2 (XBoard, WinBoard, and
//! the match tools that speak it). Commands come on standard input, one per line; answers go
//! to standard output. fairy plays the side it is told to, thinks on its own thread, and
//! answers `?`, `ping` and the rest while it thinks.

use super::protocol::{
    self, Clock, Ending as Answer, MAX_HASH_MB, Resources, Thinking, Variant, deadline_after,
    line_text, mate_in,
};
use super::weights::WeightsArg;
use super::{Reported, emit};
use clap::Args;
use fairy::ai::search::{Choice, Limits, MAX_THREADS, Searcher};
use fairy::compile::Ruleset;
use fairy::engine::Position;
use fairy::engine::outcome::Ending;
use fairy::notation::fen;
use fairy::notation::protocol::{Dialect, read, write, xboard_setup, xboard_variant_name};
use std::io::BufRead;
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::Scope;
use std::time::{Duration, Instant};

#[derive(Args)]
pub struct XboardArgs {
    /// Rule files to offer as variants (chess as `normal`, the others by file name without
    /// `.rules`); every file in `rules/` without any. Games whose turns have more than one
    /// part (arrows, placements, removals, the pie choice), or that have more than two
    /// players, cannot be carried by the protocol: a file given is refused, one found in
    /// `rules/` left out.
    #[arg(value_name = "FILE")]
    files: Vec<String>,
    #[command(flatten)]
    weights: WeightsArg,
}

/// How long `hint` thinks.
const HINT_THINK: Duration = Duration::from_millis(100);

pub fn xboard(args: &XboardArgs) -> Result<(), Reported> {
    let variants = protocol::variants(&args.files, &args.weights)?;
    std::thread::scope(|scope| {
        let mut session = Session::new(scope, &variants);
        for line in std::io::stdin().lock().lines() {
            let Ok(line) = line else { break };
            if !session.command(line.trim()) {
                break;
            }
        }
        session.finish_thinking(false);
    });
    Ok(())
}

/// How the engine's moves are timed, as `level`, `st` and `sd` set it.
#[derive(Clone, Copy, Debug)]
struct TimeControl {
    /// Moves per session (0: the whole game), the base time, and the increment.
    moves: u32,
    increment: Duration,
    /// `st`: at most this long per move, whatever the clock.
    per_move: Option<Duration>,
    /// `sd`: no deeper than this.
    depth: Option<usize>,
}

struct Session<'scope, 'env> {
    scope: &'scope Scope<'scope, 'env>,
    variants: &'env [Variant],
    variant: usize,
    position: Position<'env>,
    /// The player fairy moves for; `None` in force mode.
    engine_side: Option<usize>,
    searcher: Option<Box<Searcher>>,
    thinking: Option<Thinking<'scope>>,
    /// What the thinking thread answered, which the session makes on its board when it joins.
    answered: Arc<Mutex<Answered>>,
    control: TimeControl,
    /// The engine's clock, from `time`.
    clock_left: Duration,
    post: bool,
    resources: Resources,
}

impl<'scope, 'env> Session<'scope, 'env> {
    fn new(scope: &'scope Scope<'scope, 'env>, variants: &'env [Variant]) -> Self {
        let variant = default_variant(variants);
        Session {
            scope,
            variants,
            variant,
            position: Position::start(&variants[variant].rules),
            engine_side: Some(1),
            searcher: None,
            thinking: None,
            answered: Arc::new(Mutex::new(Answered::default())),
            control: TimeControl {
                moves: 40,
                increment: Duration::ZERO,
                per_move: None,
                depth: None,
            },
            clock_left: Duration::from_secs(300),
            post: false,
            resources: Resources::default(),
        }
    }

    fn rules(&self) -> &'env Ruleset {
        &self.variants[self.variant].rules
    }

    /// Follows one command; `false` once told to quit.
    fn command(&mut self, line: &str) -> bool {
        let (name, rest) = line.split_once(' ').unwrap_or((line, ""));
        let rest = rest.trim();
        if self.thinking.as_ref().is_some_and(Thinking::is_finished) {
            self.finish_thinking(false);
        }
        match name {
            "" | "xboard" | "accepted" | "rejected" | "random" | "computer" | "easy" | "hard"
            | "name" | "rating" | "ics" | "draw" | "bk" | "." => {}
            "protover" => self.features(),
            "new" => self.new_game(),
            "variant" => self.set_variant(rest),
            "force" => {
                self.finish_thinking(true);
                self.engine_side = None;
            }
            "go" => {
                self.finish_thinking(true);
                self.engine_side = Some(self.position.to_move());
                self.move_if_due();
            }
            "playother" => {
                self.finish_thinking(true);
                self.engine_side = Some(self.position.next_player(self.position.to_move()));
            }
            "white" | "black" => {
                self.finish_thinking(true);
                let (mover, engine) = if name == "white" { (0, 1) } else { (1, 0) };
                self.engine_side = Some(engine);
                if self.position.to_move() != mover {
                    error(
                        "the side to move is set by the position, not by `white`/`black`",
                        line,
                    );
                }
            }
            "usermove" => self.user_move(rest),
            "setboard" => self.set_board(rest),
            "undo" => self.take_back(1),
            "remove" => self.take_back(2),
            "level" => self.level(rest, line),
            "st" => match rest.parse::<f64>() {
                Ok(secs) if secs > 0.0 && secs.is_finite() => {
                    self.control.per_move = Some(Duration::from_secs_f64(secs.min(86_400.0)))
                }
                _ => error("st takes a number of seconds", line),
            },
            "sd" => match rest.parse::<usize>() {
                Ok(depth) if depth > 0 => self.control.depth = Some(depth),
                _ => error("sd takes a depth of at least 1", line),
            },
            "time" => match rest.parse::<i64>() {
                Ok(centis) => self.clock_left = Duration::from_millis(centis.max(0) as u64 * 10),
                Err(_) => error("time takes centiseconds", line),
            },
            "otim" => {}
            "memory" => match protocol::count_within(rest, MAX_HASH_MB) {
                Some(hash_mb) => self.use_resources(Resources {
                    hash_mb,
                    ..self.resources
                }),
                None => error(&format!("memory takes 1 to {MAX_HASH_MB} megabytes"), line),
            },
            "cores" => match protocol::count_within(rest, MAX_THREADS) {
                Some(threads) => self.use_resources(Resources {
                    threads,
                    ..self.resources
                }),
                None => error(&format!("cores takes 1 to {MAX_THREADS}"), line),
            },
            "ping" => {
                let (busy, variant) = (self.thinking.is_some(), &self.variants[self.variant]);
                protocol::prepare(&mut self.searcher, busy, variant, self.resources);
                emit(&format!("pong {rest}\n"));
            }
            "result" => {
                self.finish_thinking(true);
                self.engine_side = None;
            }
            "?" => self.finish_thinking(false),
            "post" => self.post = true,
            "nopost" => self.post = false,
            "hint" => self.hint(),
            "quit" => return false,
            _ => match read(&mut self.position.clone(), name, Dialect::Xboard) {
                // Without `usermove`, as protocol version 1 sends moves.
                Ok(_) if rest.is_empty() => self.user_move(name),
                _ => emit(&format!("Error (unknown command): {name}\n")),
            },
        }
        true
    }

    /// Lets the computer player use `resources` from its next search, with a fresh table.
    fn use_resources(&mut self, resources: Resources) {
        self.finish_thinking(true);
        self.resources = resources;
        self.searcher = None;
    }

    fn features(&self) {
        let names: Vec<String> = (self.variants.iter())
            .map(|v| xboard_variant_name(&v.name).to_string())
            .collect();
        emit(&format!(
            "feature setboard=1 usermove=1 ping=1 playother=1 sigint=0 sigterm=0 san=0 colors=0 \
             analyze=0 memory=1 smp=1 reuse=1 myname=\"fairy {}\" variants=\"{}\" done=1\n",
            env!("CARGO_PKG_VERSION"),
            names.join(",")
        ));
    }

    /// `new`: the start position of the first game offered (chess where it is), fairy playing
    /// the second player, out of force mode; time limits of depth and per move cleared.
    fn new_game(&mut self) {
        self.finish_thinking(true);
        self.variant = default_variant(self.variants);
        self.position = Position::start(self.rules());
        self.engine_side = Some(1);
        self.searcher = None;
        self.control.per_move = None;
        self.control.depth = None;
    }

    /// `variant NAME`: the game from now on, at its start; fairy tells the interface its board,
    /// hands and pieces where the interface does not know the game by that name.
    fn set_variant(&mut self, name: &str) {
        self.finish_thinking(true);
        let found = (self.variants.iter()).position(|v| xboard_variant_name(&v.name) == name);
        let Some(variant) = found else {
            return emit(&format!("Error (no such variant): {name}\n"));
        };
        self.variant = variant;
        self.position = Position::start(self.rules());
        self.searcher = None;
        if let Some(setup) = xboard_setup(&self.variants[variant].name, self.rules()) {
            emit(&setup);
        }
    }

    fn user_move(&mut self, text: &str) {
        self.finish_thinking(true);
        if self.position.ending().is_some() {
            return emit(&format!("Illegal move (the game is over): {text}\n"));
        }
        match read(&mut self.position, text, Dialect::Xboard) {
            Ok(turn) => {
                self.position.make(&turn);
                self.announce_ending();
                self.move_if_due();
            }
            Err(why) => {
                let why = one_line(&why).replace(['(', ')'], "");
                emit(&format!("Illegal move ({why}): {text}\n"));
            }
        }
    }

    fn set_board(&mut self, text: &str) {
        self.finish_thinking(true);
        match fen::read(self.rules(), text) {
            Ok(position) => self.position = position,
            Err(e) => error(
                &format!("the position is not valid: {e}"),
                &format!("setboard {text}"),
            ),
        }
    }

    /// Takes back `plies` turns (`undo`, `remove`), as far as the game goes back.
    fn take_back(&mut self, plies: usize) {
        self.finish_thinking(true);
        for _ in 0..plies {
            if !self.position.can_unmake() {
                return error("there is no move to take back", "undo");
            }
            self.position.unmake();
        }
    }

    /// `level MPS BASE INC`: BASE in minutes or `minutes:seconds`, INC in seconds.
    fn level(&mut self, rest: &str, line: &str) {
        let words: Vec<&str> = rest.split_whitespace().collect();
        let parsed = match words[..] {
            [moves, base, inc] => moves.parse::<u32>().ok().zip(parse_base(base)).zip(
                inc.parse::<f64>()
                    .ok()
                    .filter(|s| s.is_finite() && *s >= 0.0),
            ),
            _ => None,
        };
        match parsed {
            Some(((moves, base), inc)) => {
                self.control.moves = moves;
                self.control.increment = Duration::from_secs_f64(inc.min(86_400.0));
                self.clock_left = base;
                self.control.per_move = None;
            }
            None => error(
                "level takes MOVES BASE INCREMENT (level 40 5 0, level 0 2:30 1)",
                line,
            ),
        }
    }

    /// Starts thinking if it is fairy's turn and the game goes on.
    fn move_if_due(&mut self) {
        if self.engine_side != Some(self.position.to_move()) || self.position.ending().is_some() {
            return;
        }
        let start = Instant::now();
        let think = self
            .control
            .per_move
            .unwrap_or_else(|| self.clock().budget());
        let limits = Limits {
            deadline: Some(deadline_after(start, think)),
            depth: self.control.depth,
            nodes: None,
            stop: None,
        };
        let rules = self.rules();
        let searcher = self
            .searcher
            .take()
            .unwrap_or_else(|| protocol::searcher(&self.variants[self.variant], self.resources));
        let post = self.post;
        let report = move |choice: &Choice| {
            if post {
                emit(&thinking_line(rules, choice, start));
            }
        };
        *self.answered() = Answered::default();
        let answered = Arc::clone(&self.answered);
        let answer = move |choice: Option<Choice>| {
            let mut answered = answered.lock().unwrap_or_else(PoisonError::into_inner);
            if let Some(choice) = choice.filter(|_| !answered.silenced) {
                emit(&format!(
                    "move {}\n",
                    write(rules, &choice.turn, Dialect::Xboard)
                ));
                answered.turn = Some(choice.turn);
            }
        };
        let answer = Answer {
            hold: false,
            answer,
        };
        let position = self.position.clone();
        let thinking = protocol::think(self.scope, searcher, position, limits, report, answer);
        self.thinking = Some(thinking);
    }

    /// The engine's clock for this move.
    fn clock(&self) -> Clock {
        let played = self.position.fullmove().saturating_sub(1);
        let moves_to_go = match self.control.moves {
            0 => None,
            session => Some(session - played % session),
        };
        Clock {
            left: self.clock_left,
            increment: self.control.increment,
            moves_to_go,
        }
    }

    /// Ends any thinking and makes on the board the move it answered. `quietly` (the interface
    /// moved on: force mode, a new position) keeps a search that has not answered yet from
    /// answering; otherwise (`?`) it answers with the best it has found.
    fn finish_thinking(&mut self, quietly: bool) {
        let Some(thinking) = self.thinking.take() else {
            return;
        };
        self.answered().silenced = quietly;
        self.searcher = Some(thinking.stop());
        let answered = self.answered().turn.take();
        if let Some(turn) = answered {
            self.position.make(&turn);
            self.announce_ending();
        }
    }

    fn answered(&self) -> std::sync::MutexGuard<'_, Answered> {
        self.answered.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Says the result once the game has ended, in the file's own words.
    fn announce_ending(&mut self) {
        let Some(ending) = self.position.ending() else {
            return;
        };
        let names = &self.rules().players.names;
        let score = match &ending {
            Ending::Win { players, .. } if *players == 1 => "1-0",
            Ending::Win { players, .. } if *players == 2 => "0-1",
            _ => "1/2-1/2",
        };
        emit(&format!(
            "{score} {{{}}}\n",
            one_line(&ending.describe(names))
        ));
    }

    /// `hint`: what fairy would play here, after a short think.
    fn hint(&mut self) {
        self.finish_thinking(true);
        let rules = self.rules();
        let mut searcher = self
            .searcher
            .take()
            .unwrap_or_else(|| protocol::searcher(&self.variants[self.variant], self.resources));
        let mut position = self.position.clone();
        if let Some(choice) = searcher.choose(&mut position, HINT_THINK) {
            emit(&format!(
                "Hint: {}\n",
                write(rules, &choice.turn, Dialect::Xboard)
            ));
        }
        self.searcher = Some(searcher);
    }
}

/// What a search on its own thread answered.
#[derive(Default)]
struct Answered {
    /// Set before the search is stopped, where its answer is no longer wanted.
    silenced: bool,
    /// The move it announced.
    turn: Option<fairy::engine::Turn>,
}

/// The game `new` starts: chess where it is offered, else the first.
fn default_variant(variants: &[Variant]) -> usize {
    protocol::find_variant(variants, "chess").unwrap_or(0)
}

/// A base time: minutes, or minutes and seconds (`2:30`).
fn parse_base(text: &str) -> Option<Duration> {
    let (minutes, seconds) = text.split_once(':').unwrap_or((text, "0"));
    let minutes = minutes.parse::<u64>().ok()?;
    let seconds = seconds.parse::<u64>().ok()?;
    Some(Duration::from_secs(
        minutes.min(100_000) * 60 + seconds.min(59),
    ))
}

/// A line of thinking output: ply, score (centipawns; mates as 100000 + moves), time in
/// centiseconds, nodes, and the line expected.
fn thinking_line(rules: &Ruleset, choice: &Choice, start: Instant) -> String {
    let score = match mate_in(choice.score) {
        Some(moves) if moves > 0 => 100_000 + moves,
        Some(moves) => -100_000 + moves,
        None => choice.score,
    };
    format!(
        "{} {score} {} {} {}\n",
        choice.depth,
        start.elapsed().as_millis() / 10,
        choice.nodes,
        line_text(rules, choice, Dialect::Xboard)
    )
}

fn one_line(text: &str) -> String {
    text.lines().collect::<Vec<_>>().join("; ")
}

fn error(message: &str, command: &str) {
    emit(&format!("Error ({}): {command}\n", one_line(message)));
}
