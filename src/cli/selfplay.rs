//! `fairy selfplay`: the computer against itself, many games over every core, and what a
//! designer needs to judge a variant's balance: results per seat with confidence intervals,
//! how games ended, how long they were, and the first mover's advantage.

use super::{Reported, emit, load_rules};
use crate::ai::Player;
use crate::compile::Ruleset;
use crate::engine::Position;
use clap::Args;
use serde::Serialize;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

#[derive(Args)]
pub struct SelfplayArgs {
    /// The rule file of the game.
    #[arg(value_name = "FILE")]
    file: String,
    /// How many games to play.
    #[arg(long, value_name = "N", default_value_t = 20, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    games: u32,
    /// How long the computer thinks per turn, in milliseconds.
    #[arg(long, value_name = "MS", default_value_t = 100)]
    think_ms: u64,
    /// Seeds every game: the same seed and budget, the same games.
    #[arg(long, value_name = "S", default_value_t = 1)]
    seed: u64,
    /// A game still going after this many plies counts as unfinished (a draw).
    #[arg(long, value_name = "P", default_value_t = 300)]
    max_plies: u32,
    /// Games played at once; every core by default.
    #[arg(long, value_name = "J", value_parser = clap::value_parser!(u32).range(1..=256))]
    jobs: Option<u32>,
    /// Print the report as one JSON document.
    #[arg(long)]
    json: bool,
}

/// How one game ended.
struct GameResult {
    /// Bits of the winners, or of the players sharing a draw.
    players: u32,
    won: bool,
    cause: &'static str,
    plies: u32,
}

#[derive(Serialize)]
struct Report {
    game: String,
    games: usize,
    think_ms: u64,
    seed: u64,
    max_plies: u32,
    seats: Vec<SeatReport>,
    endings: Vec<EndingCount>,
    lengths: Lengths,
    first_mover: FirstMover,
}

#[derive(Serialize)]
struct SeatReport {
    seat: usize,
    player: String,
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

pub fn selfplay(args: &SelfplayArgs) -> Result<(), Reported> {
    let rules = load_rules(&args.file)?;
    let games = args.games as usize;
    let jobs = args.jobs.map_or_else(
        || std::thread::available_parallelism().map_or(1, |n| n.get()),
        |j| j as usize,
    );
    let progress = indicatif::ProgressBar::new(games as u64);
    progress.set_style(
        indicatif::ProgressStyle::with_template(
            "{bar:30} {pos}/{len} games  {per_sec}  {eta} left",
        )
        .expect("a valid template"),
    );
    let next = AtomicUsize::new(0);
    let results = Mutex::new(Vec::with_capacity(games));
    std::thread::scope(|scope| {
        for _ in 0..jobs.min(games) {
            scope.spawn(|| {
                loop {
                    let index = next.fetch_add(1, Ordering::Relaxed);
                    if index >= games {
                        break;
                    }
                    let result = play_one(&rules, args, index);
                    results
                        .lock()
                        .expect("no thread panicked")
                        .push((index, result));
                    progress.inc(1);
                }
            });
        }
    });
    progress.finish_and_clear();
    let mut results = results.into_inner().expect("no thread panicked");
    results.sort_by_key(|(index, _)| *index);
    let results: Vec<GameResult> = results.into_iter().map(|(_, r)| r).collect();
    let report = summarise(&rules, args, &results);
    match args.json {
        true => emit(&format!(
            "{}\n",
            serde_json::to_string_pretty(&report).expect("plain data")
        )),
        false => emit(&text_report(&report)),
    }
    Ok(())
}

/// Plays game `index` to its end or the ply limit.
fn play_one(rules: &Ruleset, args: &SelfplayArgs, index: usize) -> GameResult {
    let seed = args
        .seed
        .wrapping_mul(0x1_0000_0001)
        .wrapping_add(index as u64);
    let think = Duration::from_millis(args.think_ms);
    let mut players: Vec<Player> = (0..rules.players())
        .map(|p| Player::computer(rules, think, seed.wrapping_add(p as u64 * 0x9E37)))
        .collect();
    let mut position = Position::start(rules);
    for ply in 0..args.max_plies {
        if let Some(ending) = position.ending() {
            return GameResult {
                players: ending.players(),
                won: matches!(ending, crate::engine::outcome::Ending::Win { .. }),
                cause: ending.cause(),
                plies: ply,
            };
        }
        let mover = position.to_move;
        let Some(turn) = players[mover].choose(&mut position) else {
            break;
        };
        position.make(&turn);
    }
    GameResult {
        players: position.alive,
        won: false,
        cause: "max plies",
        plies: args.max_plies,
    }
}

fn summarise(rules: &Ruleset, args: &SelfplayArgs, results: &[GameResult]) -> Report {
    let n = results.len();
    let seats = (0..rules.players())
        .map(|seat| {
            let bit = 1 << seat;
            let wins = results
                .iter()
                .filter(|r| r.won && r.players & bit != 0)
                .count();
            let draws = results
                .iter()
                .filter(|r| !r.won && r.players & bit != 0)
                .count();
            let (low, high) = wilson(wins, n);
            SeatReport {
                seat: seat + 1,
                player: rules.player_names[seat].clone(),
                wins,
                draws,
                losses: n - wins - draws,
                win_rate: wins as f64 / n as f64,
                win_rate_low: low,
                win_rate_high: high,
            }
        })
        .collect();
    let mut endings: Vec<EndingCount> = Vec::new();
    for result in results {
        match endings.iter_mut().find(|e| e.cause == result.cause) {
            Some(entry) => entry.games += 1,
            None => endings.push(EndingCount {
                cause: result.cause.to_string(),
                games: 1,
            }),
        }
    }
    endings.sort_by(|a, b| b.games.cmp(&a.games).then(a.cause.cmp(&b.cause)));
    Report {
        game: rules.name.clone(),
        games: n,
        think_ms: args.think_ms,
        seed: args.seed,
        max_plies: args.max_plies,
        seats,
        endings,
        lengths: lengths(results),
        first_mover: first_mover(rules.players(), results),
    }
}

/// The 95% Wilson score interval of `k` successes in `n`.
fn wilson(k: usize, n: usize) -> (f64, f64) {
    let (k, n, z) = (k as f64, n as f64, 1.96f64);
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
    let mut out = format!(
        "{}: {} games at {} ms a turn (seed {}, at most {} plies)\n\n",
        report.game, report.games, report.think_ms, report.seed, report.max_plies
    );
    out += "seat  player        wins  draws  losses  win rate (95% interval)\n";
    for s in &report.seats {
        out += &format!(
            "{:>4}  {:<12} {:>5}  {:>5}  {:>6}  {:>5.1}% ({:.1}% to {:.1}%)\n",
            s.seat,
            s.player,
            s.wins,
            s.draws,
            s.losses,
            100.0 * s.win_rate,
            100.0 * s.win_rate_low,
            100.0 * s.win_rate_high
        );
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
    out
}
