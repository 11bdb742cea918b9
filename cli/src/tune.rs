//! `fairy tune`: the computer plays a game against itself, and the evaluation's weights are
//! fitted to how those games ended (see `fairy::ai::tune`), then written as a weights file.

use super::selfplay::every_core;
use super::weights::WeightsArg;
use super::{DEFAULT_MAX_PLIES, Reported, complain, emit};
use clap::Args;
use fairy::ai::tune::{Fit, Sample, fit, result_for};
use fairy::ai::weights::{TERMS, Weights};
use fairy::ai::{Budget, Player, eval};
use fairy::compile::Ruleset;
use fairy::engine::Position;
use fairy::engine::outcome::Ending;
use fairy::notation::fen;
use std::sync::atomic::{AtomicUsize, Ordering};

#[derive(Args)]
pub struct TuneArgs {
    /// The rule file of the game.
    #[arg(value_name = "FILE")]
    file: String,
    /// How many games to play for the fit.
    #[arg(long, value_name = "N", default_value_t = 200, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    games: u32,
    /// About how many positions the computer searches a turn in those games.
    #[arg(long, value_name = "N", default_value_t = 4000, value_parser = clap::value_parser!(u64).range(1..=1_000_000_000))]
    nodes: u64,
    /// Turns played at random at the start of each game, so that the games differ.
    #[arg(long, value_name = "P", default_value_t = 4)]
    random_plies: u32,
    /// A game still going after this many plies counts as drawn.
    #[arg(long, value_name = "P", default_value_t = DEFAULT_MAX_PLIES)]
    max_plies: u32,
    /// Seeds the games: the same seed, the same games and the same fit.
    #[arg(long, value_name = "S", default_value_t = 1)]
    seed: u64,
    /// Games played at once, and threads of the fit; every core by default.
    #[arg(long, value_name = "J", value_parser = clap::value_parser!(u32).range(1..=256))]
    jobs: Option<u32>,
    /// Where to write the weights file; standard output without it.
    #[arg(long, value_name = "FILE")]
    out: Option<String>,
    /// The weights to start from (and to play the games with).
    #[command(flatten)]
    weights: WeightsArg,
}

/// Every tenth game is held out of the fit, to tell whether what it learned holds in games
/// it did not see.
const HELD_OUT_EVERY: usize = 10;

/// A position of a game as it was recorded: its text, and the player to move in it.
struct Seen {
    fen: String,
    mover: usize,
}

/// One game's positions and how it ended: the bits of the players who won or shared a draw,
/// and whether it was a win.
struct Played {
    seen: Vec<Seen>,
    players: u32,
    won: bool,
}

pub fn tune(args: &TuneArgs) -> Result<(), Reported> {
    let (rules, _) = super::load_rules(&args.file)?;
    let given = args.weights.load(&rules, &args.file)?;
    let start = given.unwrap_or_else(|| Weights::derived(&rules));
    let jobs = args.jobs.map_or_else(every_core, |j| j as usize);
    let games = play_games(&rules, &start, args, jobs)?;
    let (train, held): (Vec<_>, Vec<_>) =
        (games.iter().enumerate()).partition(|(index, _)| (index + 1) % HELD_OUT_EVERY != 0);
    let train = samples_of(&rules, train.into_iter().map(|(_, g)| g));
    let held = samples_of(&rules, held.into_iter().map(|(_, g)| g));
    if train.is_empty() {
        complain!(
            "error: the games left no quiet position to fit to (each game's first {} plies are \
             random; play more or longer games)",
            args.random_plies
        );
        return Err(Reported::Invalid);
    }
    complain!(
        "fitting to {} positions of {} games ({} positions of {} games held out)",
        train.len(),
        games.len() - games.len() / HELD_OUT_EVERY,
        held.len(),
        games.len() / HELD_OUT_EVERY
    );
    let fitted = fit(&rules, &train, start.clone(), jobs, |round, error| {
        complain!("round {round}: error {error:.5}");
    });
    let held_error =
        |weights: &Weights| fairy::ai::tune::mean_error(&rules, &held, weights, fitted.scale, jobs);
    let held_errors = (!held.is_empty()).then(|| (held_error(&start), held_error(&fitted.weights)));
    let summary = summary(&rules, args, games.len(), train.len(), &fitted, held_errors);
    complain!("{}", summary.replace('\n', " "));
    if let Some((before, after)) = held_errors.filter(|(before, after)| after > before) {
        complain!(
            "warning: the fitted weights predict the games held out worse than the starting \
             ones ({before:.5} -> {after:.5}): they fit these games rather than the game; play \
             more games"
        );
    }
    for change in changes(&rules, &start, &fitted.weights) {
        complain!("  {change}");
    }
    write_weights(args, &fitted.weights.write(&rules, &summary))
}

/// What the fit was made from and how well it predicts, for the head of the weights file.
fn summary(
    rules: &Ruleset,
    args: &TuneArgs,
    games: usize,
    positions: usize,
    fitted: &Fit,
    held_errors: Option<(f64, f64)>,
) -> String {
    format!(
        "Weights for {} fitted by `fairy tune`: {games} games at about {} nodes a turn (seed {}), \
         {positions} positions.\nMean squared error of the predicted results: {:.5} -> {:.5} in \
         the games fitted to, {} in the games held out.",
        rules.name,
        args.nodes,
        args.seed,
        fitted.error_before,
        fitted.error_after,
        held_errors.map_or("none".to_string(), |(before, after)| format!(
            "{before:.5} -> {after:.5}"
        ))
    )
}

/// Writes the weights file to `--out`, or to standard output without it.
fn write_weights(args: &TuneArgs, text: &str) -> Result<(), Reported> {
    match &args.out {
        Some(path) => std::fs::write(path, text).map_err(|error| {
            complain!("error: cannot write {path}: {error}");
            Reported::Invalid
        }),
        None => {
            emit(text);
            Ok(())
        }
    }
}

/// Each weight the fit moved, as `name: before -> after`.
fn changes(rules: &Ruleset, before: &Weights, after: &Weights) -> Vec<String> {
    let terms = (TERMS.iter().enumerate())
        .filter(|&(index, _)| before.terms[index] != after.terms[index])
        .map(|(index, (_, name, _, _))| {
            format!("{name}: {} -> {}", before.terms[index], after.terms[index])
        });
    let values = Weights::valued_names(rules)
        .into_iter()
        .filter_map(|(name, kinds)| {
            let (was, is) = (before.value_of(kinds), after.value_of(kinds));
            (was != is).then(|| format!("{name}: {was} -> {is}"))
        });
    terms.chain(values).collect()
}

/// Plays `args.games` games on `jobs` threads, in the order of their seeds.
fn play_games(
    rules: &Ruleset,
    weights: &Weights,
    args: &TuneArgs,
    jobs: usize,
) -> Result<Vec<Played>, Reported> {
    let progress = indicatif::ProgressBar::new(u64::from(args.games));
    let next = AtomicUsize::new(0);
    let mut games: Vec<Option<Played>> = Vec::new();
    let overflowed = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..jobs.min(args.games as usize))
            .map(|_| {
                scope.spawn(|| {
                    let mut played = Vec::new();
                    loop {
                        let index = next.fetch_add(1, Ordering::Relaxed);
                        if index >= args.games as usize {
                            return played;
                        }
                        played.push((index, play_one(rules, weights, args, index)));
                        progress.inc(1);
                    }
                })
            })
            .collect();
        games.resize_with(args.games as usize, || None);
        let mut overflowed = false;
        for worker in workers {
            for (index, game) in worker.join().expect("a game does not panic") {
                overflowed |= game.is_none();
                games[index] = game;
            }
        }
        overflowed
    });
    progress.finish_and_clear();
    if overflowed {
        complain!("error: {}", fairy::limits::too_many_turns());
        return Err(Reported::Invalid);
    }
    Ok(games.into_iter().flatten().collect())
}

/// Plays game `index`: its first plies at random, then the computer on both sides. Keeps each
/// position after the random plies where the player to move is not in check and the turn
/// played takes nothing: positions whose worth the evaluation can tell without a search.
/// `None` if the game reached a position with more turns than fairy holds.
fn play_one(rules: &Ruleset, weights: &Weights, args: &TuneArgs, index: usize) -> Option<Played> {
    let seed = args
        .seed
        .wrapping_mul(0x1_0000_0001)
        .wrapping_add(index as u64);
    let budget = Budget::Nodes(args.nodes);
    let mut computer = Player::weighted(rules, budget, seed, Some(weights));
    let mut random = Player::random(seed);
    let mut position = Position::start(rules);
    let mut seen = Vec::new();
    for ply in 0..args.max_plies {
        if let Some(ending) = position.ending() {
            let won = matches!(ending, Ending::Win { .. });
            return Some(Played {
                seen,
                players: ending.players(),
                won,
            });
        }
        let opening = ply < args.random_plies;
        let player = if opening { &mut random } else { &mut computer };
        let turn = player.choose(&mut position)?;
        if position.turns_overflowed() {
            return None;
        }
        if !opening && !turn.captures && !eval::in_check(&position) {
            seen.push(Seen {
                fen: fen::write(&position),
                mover: position.to_move(),
            });
        }
        position.make(&turn);
    }
    // Unfinished: a draw between the players still in.
    Some(Played {
        seen,
        players: position.alive(),
        won: false,
    })
}

/// The positions of `games`, each with its game's result for the player to move in it.
fn samples_of<'r, 'g>(
    rules: &'r Ruleset,
    games: impl Iterator<Item = &'g Played>,
) -> Vec<Sample<'r>> {
    let mut samples = Vec::new();
    for game in games {
        for seen in &game.seen {
            let result = result_for(seen.mover, game.players, game.won);
            // Every position fairy writes, it reads back; one that did not would only be
            // missing from the fit.
            if let Ok(position) = fen::read(rules, &seen.fen) {
                samples.push(Sample { position, result });
            }
        }
    }
    samples
}
