//! `fairy selfplay`: the computer against itself, many games over every core, and what a
//! designer needs to judge a variant's balance: results per seat with confidence intervals,
//! how games ended, how long they were, and the first mover's advantage.

use super::seats::{MAX_THINK_MS, Seat, Threads, parse_seat, seat_seed, seats_of};
use super::weights::WeightsArg;
use super::{DEFAULT_MAX_PLIES, Reported, complain, emit, interrupt, load_rules};
use clap::Args;
use fairy::ai::Player;
use fairy::ai::weights::Weights;
use fairy::compile::Ruleset;
use fairy::engine::Position;
use fairy::engine::outcome::Cause;
use serde::Serialize;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{self, Receiver, Sender};
use std::time::Instant;

#[derive(Args)]
pub struct SelfplayArgs {
    /// The rule file of the game.
    #[arg(value_name = "FILE")]
    file: String,
    /// How many games to play.
    #[arg(long, value_name = "N", default_value_t = 20, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    games: u32,
    /// How long the computer thinks per turn, in milliseconds (at most an hour, 3600000).
    #[arg(long, value_name = "MS", default_value_t = 100, value_parser = clap::value_parser!(u64).range(..=MAX_THINK_MS))]
    think_ms: u64,
    /// Seeds every game: the same seed and budget, the same games.
    #[arg(long, value_name = "S", default_value_t = 1)]
    seed: u64,
    /// A game still going after this many plies counts as unfinished (a draw).
    #[arg(long, value_name = "P", default_value_t = DEFAULT_MAX_PLIES)]
    max_plies: u32,
    /// Games played at once; every core by default.
    #[arg(long, value_name = "J", value_parser = clap::value_parser!(u32).range(1..=256))]
    jobs: Option<u32>,
    /// Who plays a seat (numbered from 1 in turn order): `ai`, `ai:MS` (thinking MS
    /// milliseconds a turn) or `random`. Every seat is the computer unless given.
    #[arg(long = "seat", value_name = "N=WHO", value_parser = parse_seat)]
    seats: Vec<(usize, Seat)>,
    /// Move the players one seat round after each game, so that each plays every side equally
    /// often (with two players and an even number of games, each side half the time).
    #[arg(long)]
    rotate: bool,
    #[command(flatten)]
    threads: Threads,
    #[command(flatten)]
    weights: WeightsArg,
    /// Print the report as one JSON document.
    #[arg(long)]
    json: bool,
}

/// How one game ended.
pub struct GameResult {
    /// Bits of the seats that won, or that share a draw.
    players: u32,
    /// How many seats round the players sat: player `p` had seat `(p + turned) % seats`.
    turned: usize,
    won: bool,
    /// What ended the game; `None` when it was stopped at the ply limit.
    cause: Option<Cause>,
    plies: u32,
    /// How far past its think time each computer turn took, in milliseconds (negative where
    /// the search ended early).
    past_think: Vec<f64>,
}

/// What the thread that reports hears from the workers and from Ctrl-C.
pub enum Event {
    /// Game `index` has ended.
    Played(usize, GameResult),
    /// A worker has no more games to play.
    Left,
    Interrupted,
    /// A game reached a position with more turns than fairy holds: it cannot be played out.
    TooManyTurns,
}

/// Why the games stopped before every one was played.
#[derive(Clone, Copy, PartialEq)]
pub enum Halt {
    Interrupted,
    TooManyTurns,
}

/// A worker's way of telling the thread that reports it has left, however it leaves (a panic
/// too), so that the report waits for no game that will not come.
struct Leaving(Sender<Event>);

impl Drop for Leaving {
    fn drop(&mut self) {
        let _ = self.0.send(Event::Left);
    }
}

#[derive(Serialize)]
pub struct Report {
    game: String,
    /// The games played: all that were asked for, unless the report is partial.
    games: usize,
    /// Ctrl-C stopped the games before all were played.
    partial: bool,
    think_ms: u64,
    seed: u64,
    max_plies: u32,
    /// Who played, by their seat in the first game.
    lineup: Vec<String>,
    /// Whether the players moved one seat round after each game.
    rotate: bool,
    seats: Vec<SeatReport>,
    /// With `--rotate`, each player's results over all the seats it had.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    players: Vec<PlayerReport>,
    endings: Vec<EndingCount>,
    lengths: Lengths,
    first_mover: FirstMover,
    /// How well the computer kept its think time; none without a computer seat.
    #[serde(skip_serializing_if = "Option::is_none")]
    think_time: Option<ThinkTime>,
}

/// How long the computer's turns took against its think time.
#[derive(Serialize)]
struct ThinkTime {
    /// The computer turns timed.
    turns: usize,
    /// The share of them that took at most their think time and [`THINK_MARGIN_MS`].
    within_margin: f64,
    margin_ms: f64,
    /// How far past its think time a turn took, in milliseconds: the median, the 99th
    /// percentile and the longest.
    past_median_ms: f64,
    past_p99_ms: f64,
    past_max_ms: f64,
}

/// What a computer turn may take beyond its think time and still count as keeping it.
const THINK_MARGIN_MS: f64 = 20.0;

#[derive(Serialize)]
struct SeatReport {
    seat: usize,
    /// The side's name in the rule file.
    side: String,
    /// Who sat there, when always the same: `ai 100 ms`, `random`.
    #[serde(skip_serializing_if = "Option::is_none")]
    who: Option<String>,
    #[serde(flatten)]
    record: Record,
}

#[derive(Serialize)]
struct PlayerReport {
    /// The seat the player had in the first game.
    first_seat: usize,
    who: String,
    #[serde(flatten)]
    record: Record,
}

#[derive(Serialize)]
struct Record {
    wins: usize,
    draws: usize,
    losses: usize,
    /// Share of games won, with its 95% interval (Wilson).
    win_rate: f64,
    win_rate_low: f64,
    win_rate_high: f64,
}

#[derive(Serialize)]
struct EndingCount {
    cause: String,
    games: usize,
}

#[derive(Serialize)]
struct Lengths {
    mean: f64,
    median: f64,
    shortest: u32,
    longest: u32,
    /// (first ply of the bin, games in it), ten bins from the shortest to the longest.
    histogram: Vec<(u32, usize)>,
}

#[derive(Serialize)]
struct FirstMover {
    /// The first seat's score (a win 1, a shared draw 1/players in it) minus the even share.
    advantage: f64,
    low: f64,
    high: f64,
}

/// A run of games between computers: who sits where, how long they think, how many games.
pub struct Plan {
    pub games: usize,
    pub think_ms: u64,
    pub seed: u64,
    pub max_plies: u32,
    /// Who sits at each seat in the first game; never a human.
    pub seats: Vec<Seat>,
    pub rotate: bool,
    pub threads: usize,
    /// What the computer seats evaluate with: the rule file's own weights if none.
    pub weights: Option<Weights>,
}

pub fn selfplay(args: &SelfplayArgs) -> Result<(), Reported> {
    let (rules, _) = load_rules(&args.file)?;
    let seats = seats_of(&rules, Seat::Computer(None), &args.seats)?;
    if let Some(seat) = seats.iter().position(|&s| s == Seat::Human) {
        complain!(
            "error: --seat {}=human: selfplay has no human seats (use `fairy play`)",
            seat + 1
        );
        return Err(Reported::Usage);
    }
    let plan = Plan {
        games: args.games as usize,
        think_ms: args.think_ms,
        seed: args.seed,
        max_plies: args.max_plies,
        seats,
        rotate: args.rotate,
        threads: args.threads.count,
        weights: args.weights.load(&rules, &args.file)?,
    };
    let jobs = args.jobs.map_or_else(every_core, |j| j as usize);
    let progress = indicatif::ProgressBar::new(plan.games as u64);
    progress.set_style(
        indicatif::ProgressStyle::with_template(
            "{bar:30} {pos}/{len} games  {per_sec}  {eta} left",
        )
        .expect("a valid template"),
    );
    let (sender, events) = mpsc::channel();
    let interrupted = sender.clone();
    interrupt::on_interrupt(move || {
        let _ = interrupted.send(Event::Interrupted);
    });
    let games = Games {
        sender,
        events,
        jobs,
    };
    games.play(
        &rules,
        &plan,
        |_| progress.inc(1),
        |results, halt| {
            progress.finish_and_clear();
            if halt == Some(Halt::TooManyTurns) {
                complain!("error: {}", fairy::limits::too_many_turns());
                // A report of only the games that stayed small would mislead; the games still
                // being played are left unfinished.
                std::process::exit(1);
            }
            report(&rules, &plan, args.json, results, halt.is_some());
            // The games still being played are left unfinished.
            if halt.is_some() {
                interrupt::quit();
            }
        },
    );
    Ok(())
}

/// How many games to play at once unless told: one per core.
pub fn every_core() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// The games of a plan being played: workers send their results down `sender`, and anyone
/// holding a clone of it may halt them with [`Event::Interrupted`].
pub struct Games {
    pub sender: Sender<Event>,
    pub events: Receiver<Event>,
    pub jobs: usize,
}

impl Games {
    /// Plays the plan's games on `jobs` workers, calling `played` with the number ended so far
    /// as each ends, then `finish` with the results and what halted them, if anything. Once
    /// halted, no game plays another turn; `finish` runs before the turns being chosen end.
    pub fn play(
        self,
        rules: &Ruleset,
        plan: &Plan,
        mut played: impl FnMut(usize),
        finish: impl FnOnce(Vec<(usize, GameResult)>, Option<Halt>),
    ) {
        let next = AtomicUsize::new(0);
        let halted = AtomicBool::new(false);
        let (next, halted) = (&next, &halted);
        std::thread::scope(|scope| {
            let workers = self.jobs.min(plan.games);
            for _ in 0..workers {
                let leaving = Leaving(self.sender.clone());
                scope.spawn(move || {
                    loop {
                        let index = next.fetch_add(1, Ordering::Relaxed);
                        if index >= plan.games || halted.load(Ordering::Relaxed) {
                            break;
                        }
                        let event = match play_one(rules, plan, index, halted) {
                            Some(result) => Event::Played(index, result),
                            None => Event::TooManyTurns,
                        };
                        if leaving.0.send(event).is_err() {
                            break;
                        }
                    }
                });
            }
            drop(self.sender);
            let (results, halt) = gather(&self.events, workers, &mut played);
            halted.store(true, Ordering::Relaxed);
            finish(results, halt);
        });
    }
}

/// The games' results as they end, until every worker has left or something stops them; and
/// what did.
fn gather(
    events: &Receiver<Event>,
    workers: usize,
    played: &mut impl FnMut(usize),
) -> (Vec<(usize, GameResult)>, Option<Halt>) {
    let mut results = Vec::new();
    let mut working = workers;
    while working > 0 {
        match events.recv() {
            Ok(Event::Played(index, result)) => {
                results.push((index, result));
                played(results.len());
            }
            Ok(Event::Left) => working -= 1,
            Ok(Event::Interrupted) => return (results, Some(Halt::Interrupted)),
            Ok(Event::TooManyTurns) => return (results, Some(Halt::TooManyTurns)),
            // Every sender gone: no worker is left either.
            Err(_) => break,
        }
    }
    (results, None)
}

/// Prints the report of the games played, `partial` if Ctrl-C stopped them.
fn report(
    rules: &Ruleset,
    plan: &Plan,
    json: bool,
    results: Vec<(usize, GameResult)>,
    partial: bool,
) {
    if results.is_empty() {
        complain!("no game had ended, so there is nothing to report");
        // A reader of the JSON still gets a document, saying that no game was played.
        if json {
            let empty = serde_json::json!({ "game": rules.name, "games": 0, "partial": partial });
            emit(&format!("{empty:#}\n"));
        }
        return;
    }
    let report = summarise(rules, plan, results, partial);
    match json {
        true => emit(&format!(
            "{}\n",
            serde_json::to_string_pretty(&report).expect("plain data")
        )),
        false => emit(&text_report(&report)),
    }
}

/// Plays game `index` to its end or the ply limit, or until the games are `halted` (its result
/// is then unused); `None` if it reached a position with more turns than fairy holds.
fn play_one(rules: &Ruleset, plan: &Plan, index: usize, halted: &AtomicBool) -> Option<GameResult> {
    let entrants = &plan.seats;
    let seed = plan
        .seed
        .wrapping_mul(0x1_0000_0001)
        .wrapping_add(index as u64);
    let n = entrants.len();
    let turned = if plan.rotate { index % n } else { 0 };
    let mut players: Vec<Player> = (0..n)
        .map(|seat| {
            let entrant = (seat + n - turned) % n;
            entrants[entrant]
                .player(
                    rules,
                    plan.weights.as_ref(),
                    plan.think_ms,
                    seat_seed(seed, entrant),
                )
                .expect("no human seats")
                .with_threads(plan.threads)
        })
        .collect();
    let mut position = Position::start(rules);
    let mut past_think = Vec::new();
    for ply in 0..plan.max_plies {
        if halted.load(Ordering::Relaxed) {
            break;
        }
        if let Some(ending) = position.ending() {
            return Some(GameResult {
                players: ending.players(),
                won: matches!(ending, fairy::engine::outcome::Ending::Win { .. }),
                cause: Some(ending.cause()),
                plies: ply,
                turned,
                past_think,
            });
        }
        let player = &mut players[position.to_move()];
        let started = Instant::now();
        let Some(turn) = player.choose(&mut position) else {
            break;
        };
        if let Some(think) = player.think() {
            past_think.push((started.elapsed().as_secs_f64() - think.as_secs_f64()) * 1000.0);
        }
        if position.turns_overflowed() {
            return None;
        }
        position.make(&turn);
    }
    Some(GameResult {
        players: position.alive(),
        won: false,
        cause: None,
        plies: plan.max_plies,
        turned,
        past_think,
    })
}

/// The report of the games played, in the order they were started.
pub fn summarise(
    rules: &Ruleset,
    plan: &Plan,
    mut results: Vec<(usize, GameResult)>,
    partial: bool,
) -> Report {
    results.sort_by_key(|(index, _)| *index);
    let results: Vec<GameResult> = results.into_iter().map(|(_, r)| r).collect();
    let results = &results[..];
    let entrants = &plan.seats;
    let n = entrants.len();
    let seats = (0..n)
        .map(|seat| SeatReport {
            seat: seat + 1,
            side: rules.players.names[seat].clone(),
            who: (!plan.rotate).then(|| entrants[seat].label(plan.think_ms)),
            record: record(results, |_| seat),
        })
        .collect();
    let players = match plan.rotate {
        false => Vec::new(),
        true => (0..n)
            .map(|entrant| PlayerReport {
                first_seat: entrant + 1,
                who: entrants[entrant].label(plan.think_ms),
                record: record(results, |r| (entrant + r.turned) % n),
            })
            .collect(),
    };
    let mut counts: Vec<(Option<Cause>, usize)> = Vec::new();
    for result in results {
        match counts.iter_mut().find(|(cause, _)| *cause == result.cause) {
            Some(entry) => entry.1 += 1,
            None => counts.push((result.cause, 1)),
        }
    }
    let mut endings: Vec<EndingCount> = counts
        .into_iter()
        .map(|(cause, games)| EndingCount {
            cause: cause.map_or("max plies".to_string(), |c| c.to_string()),
            games,
        })
        .collect();
    endings.sort_by(|a, b| b.games.cmp(&a.games).then(a.cause.cmp(&b.cause)));
    Report {
        game: rules.name.clone(),
        games: results.len(),
        partial,
        think_ms: plan.think_ms,
        seed: plan.seed,
        max_plies: plan.max_plies,
        lineup: entrants.iter().map(|e| e.label(plan.think_ms)).collect(),
        rotate: plan.rotate,
        seats,
        players,
        endings,
        lengths: lengths(results),
        first_mover: first_mover(rules.players.count(), results),
        think_time: think_time(results),
    }
}

/// How the computer's turns of every game kept their think time; none if it had no turn.
fn think_time(results: &[GameResult]) -> Option<ThinkTime> {
    let mut past: Vec<f64> = (results.iter())
        .flat_map(|r| r.past_think.iter().copied())
        .collect();
    past.sort_by(f64::total_cmp);
    let n = past.len();
    let at = |share: f64| past[((n - 1) as f64 * share).round() as usize];
    (n > 0).then(|| ThinkTime {
        turns: n,
        within_margin: past.iter().filter(|&&p| p <= THINK_MARGIN_MS).count() as f64 / n as f64,
        margin_ms: THINK_MARGIN_MS,
        past_median_ms: at(0.5),
        past_p99_ms: at(0.99),
        past_max_ms: past[n - 1],
    })
}

/// Wins, draws and losses of whoever sat at `seat_in(game)` in each game.
fn record(results: &[GameResult], seat_in: impl Fn(&GameResult) -> usize) -> Record {
    let shared = |won: bool| {
        results
            .iter()
            .filter(|r| r.won == won && r.players & (1 << seat_in(r)) != 0)
            .count()
    };
    let (wins, draws, n) = (shared(true), shared(false), results.len());
    let (low, high) = wilson(wins as f64, n);
    Record {
        wins,
        draws,
        losses: n - wins - draws,
        win_rate: wins as f64 / n as f64,
        win_rate_low: low,
        win_rate_high: high,
    }
}

/// The 95% Wilson score interval of `k` successes in `n` (a draw may count as half of one).
pub(crate) fn wilson(k: f64, n: usize) -> (f64, f64) {
    let (n, z) = (n as f64, 1.96f64);
    let p = k / n;
    let centre = (p + z * z / (2.0 * n)) / (1.0 + z * z / n);
    let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / (1.0 + z * z / n);
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

fn lengths(results: &[GameResult]) -> Lengths {
    let mut plies: Vec<u32> = results.iter().map(|r| r.plies).collect();
    plies.sort_unstable();
    let n = plies.len();
    let median = match n % 2 {
        1 => f64::from(plies[n / 2]),
        _ => f64::from(plies[n / 2 - 1] + plies[n / 2]) / 2.0,
    };
    let (shortest, longest) = (plies[0], plies[n - 1]);
    let width = (longest - shortest) / 10 + 1;
    let histogram = (0..10)
        .map(|bin| {
            let from = shortest + bin * width;
            let count = plies
                .iter()
                .filter(|&&p| (p - shortest) / width == bin)
                .count();
            (from, count)
        })
        .filter(|&(from, _)| from <= longest)
        .collect();
    Lengths {
        mean: plies.iter().map(|&p| f64::from(p)).sum::<f64>() / n as f64,
        median,
        shortest,
        longest,
        histogram,
    }
}

/// The first seat's average score above an even share, with a 95% normal interval.
fn first_mover(players: usize, results: &[GameResult]) -> FirstMover {
    let scores: Vec<f64> = results
        .iter()
        .map(|r| match r.players & 1 {
            0 => 0.0,
            _ => 1.0 / f64::from(r.players.count_ones()),
        })
        .collect();
    let n = scores.len() as f64;
    let mean = scores.iter().sum::<f64>() / n;
    let variance = scores.iter().map(|s| (s - mean).powi(2)).sum::<f64>() / (n - 1.0).max(1.0);
    let half = 1.96 * (variance / n).sqrt();
    let even = 1.0 / players as f64;
    FirstMover {
        advantage: mean - even,
        low: mean - even - half,
        high: mean - even + half,
    }
}

fn text_report(report: &Report) -> String {
    let rotating = match report.rotate {
        true => ", changing seats each game",
        false => "",
    };
    let mut out = format!(
        "{}: {} games, {}{rotating} (seed {}, at most {} plies)\n",
        report.game,
        report.games,
        report.lineup.join(" against "),
        report.seed,
        report.max_plies
    );
    if report.partial {
        out += "partial: interrupted before every game was played\n";
    }
    out += "\n";
    out += "seat  side          who         wins  draws  losses  win rate (95% interval)\n";
    for s in &report.seats {
        let who = s.who.as_deref().unwrap_or("(rotating)");
        out += &format!(
            "{:>4}  {:<12}  {who:<10}{}",
            s.seat,
            s.side,
            record_line(&s.record)
        );
    }
    if !report.players.is_empty() {
        out += "\nplayer (first seat)           wins  draws  losses  win rate (95% interval)\n";
        for p in &report.players {
            let name = format!("{} ({})", p.who, p.first_seat);
            out += &format!("{name:<28}{}", record_line(&p.record));
        }
    }
    out += "\nhow games ended:\n";
    for e in &report.endings {
        out += &format!("  {:<20} {}\n", e.cause, e.games);
    }
    let l = &report.lengths;
    out += &format!(
        "\nlength in plies: mean {:.1}, median {:.1}, shortest {}, longest {}\n",
        l.mean, l.median, l.shortest, l.longest
    );
    let most = l
        .histogram
        .iter()
        .map(|&(_, n)| n)
        .max()
        .unwrap_or(1)
        .max(1);
    for &(from, count) in &l.histogram {
        let bar = "#".repeat((count * 40).div_ceil(most));
        out += &format!("  {from:>5}+ {count:>5} {bar}\n");
    }
    let f = &report.first_mover;
    out += &format!(
        "\nfirst mover: {:+.1} points per 100 games above an even share ({:+.1} to {:+.1})\n",
        100.0 * f.advantage,
        100.0 * f.low,
        100.0 * f.high
    );
    if let Some(t) = &report.think_time {
        out += &format!(
            "\nthink time: {:.1}% of {} computer turns within it + {} ms\n  \
             past it by {:+.1} ms (median), {:+.1} ms (99th percentile), {:+.1} ms (longest)\n",
            100.0 * t.within_margin,
            t.turns,
            t.margin_ms,
            t.past_median_ms,
            t.past_p99_ms,
            t.past_max_ms
        );
    }
    out
}

fn record_line(r: &Record) -> String {
    format!(
        "{:>6}  {:>5}  {:>6}  {:>5.1}% ({:.1}% to {:.1}%)\n",
        r.wins,
        r.draws,
        r.losses,
        100.0 * r.win_rate,
        100.0 * r.win_rate_low,
        100.0 * r.win_rate_high
    )
}
