//! Fitting the evaluation's weights to a game's results, by Texel's method: each position of
//! games played to their end predicts its result through the evaluation, as
//! `1 / (1 + rivals × 10^(-score × scale / 400))` for the player to move, where `rivals` is
//! how many other players are still in (one in a game of two); the weights are moved one at
//! a time, a step either way, as long as the mean squared error of the predictions falls.
//!
//! The scale is fitted first, with the starting weights, and then held: otherwise the fit
//! could lower the error by shrinking every weight at once.

use super::eval::Evaluator;
use super::weights::{MAX_WEIGHT, TERMS, Weights};
use crate::compile::Ruleset;
use crate::engine::Position;

/// A position from a game, with how the game ended for the player to move in it.
pub struct Sample<'r> {
    pub position: Position<'r>,
    /// 1 for a win, 0 for a loss, a draw shared evenly among those who drew (see
    /// [`result_for`]).
    pub result: f64,
}

/// What a fit found.
#[derive(Clone, Debug)]
pub struct Fit {
    pub weights: Weights,
    /// The scale that turns a score into a predicted result.
    pub scale: f64,
    /// The mean squared error of the predictions, with the starting weights and the fitted.
    pub error_before: f64,
    pub error_after: f64,
}

/// Rounds of steps over every weight, at most, before the fit stops.
const MAX_ROUNDS: usize = 30;

/// The weights that predict the results of `samples` best, starting from `start`, searched
/// on `threads` threads; `progress` hears the error after each round.
pub fn fit(
    rules: &Ruleset,
    samples: &[Sample<'_>],
    start: Weights,
    threads: usize,
    mut progress: impl FnMut(usize, f64),
) -> Fit {
    let judge = Judge {
        rules,
        samples,
        threads: threads.max(1),
    };
    let scale = judge.best_scale(&start);
    let error_before = judge.error(&start, scale);
    let mut weights = start;
    let mut error = error_before;
    let knobs = knobs(rules, samples);
    // A tenth of each weight, at least one.
    let mut steps: Vec<i32> = (knobs.iter())
        .map(|k| (k.get(&weights).abs() / 10).max(1))
        .collect();
    for round in 1..=MAX_ROUNDS {
        let mut moved = false;
        for (knob, step) in knobs.iter().zip(&mut steps) {
            let (better, lower) = judge.improve(&weights, knob, *step, scale, error);
            if lower < error {
                (weights, error, moved) = (better, lower, true);
            } else {
                *step = (*step / 2).max(1);
            }
        }
        progress(round, error);
        if !moved {
            break;
        }
    }
    Fit {
        weights,
        scale,
        error_before,
        error_after: error,
    }
}

/// A weight a fit moves: a term, or the value of the kinds of one name.
#[derive(Clone, Debug)]
enum Knob {
    Term(usize),
    /// The kinds of one name, as bits.
    Value(u64),
}

impl Knob {
    fn get(&self, weights: &Weights) -> i32 {
        match *self {
            Knob::Term(index) => weights.terms[index],
            Knob::Value(kinds) => weights.value_of(kinds),
        }
    }

    fn set(&self, weights: &mut Weights, worth: i32) {
        match *self {
            Knob::Term(index) => weights.terms[index] = worth,
            Knob::Value(kinds) => weights.set_value(kinds, worth),
        }
    }

    /// The least worth the knob may take: a kind is worth something.
    fn least(&self) -> i32 {
        match self {
            Knob::Term(_) => -MAX_WEIGHT,
            Knob::Value(_) => 1,
        }
    }
}

/// The weights a fit moves: every term, then the value of each name a weights file values
/// (see [`Weights::valued_names`]) that the positions show often enough: a kind the
/// positions seldom show would be valued by what its few games happened to do.
fn knobs(rules: &Ruleset, samples: &[Sample<'_>]) -> Vec<Knob> {
    let terms = (0..TERMS.len()).map(Knob::Term);
    let names = Weights::valued_names(rules)
        .into_iter()
        .map(|(_, kinds)| kinds);
    let shown = names.filter(|&kinds| shown_share(rules, samples, kinds) >= SEEN_PERCENT);
    terms.chain(shown.map(Knob::Value)).collect()
}

/// The least share of the positions, in hundredths, in which a kind must stand (on the board
/// or in hand) for a fit to move its value.
const SEEN_PERCENT: usize = 2;

/// The share of the samples' positions, in hundredths, in which one of `kinds` stands on the
/// board or in a hand.
fn shown_share(rules: &Ruleset, samples: &[Sample<'_>], kinds: u64) -> usize {
    let count = rules.pieces.kinds.len();
    let shows = |sample: &Sample<'_>| {
        let mut present = 0u64;
        (sample.position).for_each_piece_of(kinds, |_, code| {
            present |= 1 << rules.pieces.split(code).0;
        });
        let hands = sample.position.hands().iter().enumerate();
        present != 0
            || hands
                .into_iter()
                .any(|(slot, &n)| n > 0 && kinds & (1 << (slot % count)) != 0)
    };
    let shown = samples.iter().filter(|&sample| shows(sample)).count();
    shown * 100 / samples.len().max(1)
}

/// What judges a set of weights: the error of its predictions over the samples.
struct Judge<'a, 'r> {
    rules: &'r Ruleset,
    samples: &'a [Sample<'r>],
    threads: usize,
}

impl Judge<'_, '_> {
    /// The weights with `knob` moved by `step` as far as it lowers the error, either way, and
    /// their error; `error` itself where neither way lowers it.
    fn improve(
        &self,
        weights: &Weights,
        knob: &Knob,
        step: i32,
        scale: f64,
        error: f64,
    ) -> (Weights, f64) {
        let mut best = (weights.clone(), error);
        for mut direction in [step, -step] {
            loop {
                let moved = knob.get(&best.0) + direction;
                if !(knob.least()..=MAX_WEIGHT).contains(&moved) {
                    break;
                }
                let mut tried = best.0.clone();
                knob.set(&mut tried, moved);
                let tried_error = self.error(&tried, scale);
                if tried_error >= best.1 {
                    break;
                }
                best = (tried, tried_error);
                // Far from its best, a weight gets there in a few doubling steps.
                direction *= 2;
            }
            if best.1 < error {
                break;
            }
        }
        best
    }

    /// The scale that gives the starting weights their least error, found by golden-section
    /// search on its logarithm.
    fn best_scale(&self, weights: &Weights) -> f64 {
        let evaluator = Evaluator::weighted(self.rules, weights);
        let scores = self.scores(&evaluator);
        let error_at = |log_scale: f64| squared_error(self.samples, &scores, log_scale.exp());
        let (mut low, mut high) = ((0.01f64).ln(), (10.0f64).ln());
        let ratio = (5f64.sqrt() - 1.0) / 2.0;
        for _ in 0..60 {
            let a = high - ratio * (high - low);
            let b = low + ratio * (high - low);
            match error_at(a) < error_at(b) {
                true => high = b,
                false => low = a,
            }
        }
        ((low + high) / 2.0).exp()
    }

    fn error(&self, weights: &Weights, scale: f64) -> f64 {
        let evaluator = Evaluator::weighted(self.rules, weights);
        squared_error(self.samples, &self.scores(&evaluator), scale)
    }

    /// Each sample's score for the player to move, on `threads` threads.
    fn scores(&self, evaluator: &Evaluator) -> Vec<i32> {
        let chunk = self.samples.len().div_ceil(self.threads).max(1);
        std::thread::scope(|scope| {
            let parts: Vec<_> = (self.samples.chunks(chunk))
                .map(|part| {
                    scope.spawn(move || {
                        let mut scratch = Vec::new();
                        (part.iter())
                            .map(|s| {
                                evaluator.score(&s.position, s.position.to_move(), &mut scratch)
                            })
                            .collect::<Vec<_>>()
                    })
                })
                .collect();
            (parts.into_iter())
                .flat_map(|part| part.join().expect("scoring does not panic"))
                .collect()
        })
    }
}

/// The mean squared error of the results predicted from `scores` at `scale`.
fn squared_error(samples: &[Sample<'_>], scores: &[i32], scale: f64) -> f64 {
    let total: f64 = (samples.iter().zip(scores))
        .map(|(sample, &score)| {
            let rivals = sample.position.alive().count_ones().saturating_sub(1);
            (sample.result - predicted(score, scale, rivals)).powi(2)
        })
        .sum();
    total / samples.len().max(1) as f64
}

/// The mean squared error of the results `weights` predict for `samples` at `scale`.
pub fn mean_error(
    rules: &Ruleset,
    samples: &[Sample<'_>],
    weights: &Weights,
    scale: f64,
    threads: usize,
) -> f64 {
    let judge = Judge {
        rules,
        samples,
        threads: threads.max(1),
    };
    judge.error(weights, scale)
}

/// What a game's end is worth to `player`, where `players` holds the bits of those who won
/// or shared a draw: 1 for a win, nothing for a loss, and a draw shared evenly among those
/// who drew (a half between two, a third among three).
pub fn result_for(player: usize, players: u32, won: bool) -> f64 {
    match (won, players & (1 << player) != 0) {
        (true, true) => 1.0,
        (false, true) => 1.0 / f64::from(players.count_ones()),
        (_, false) => 0.0,
    }
}

/// The result a score predicts for the player to move against `rivals` others still in: at
/// an even score, an even share of the win (a half against one, a quarter against three).
pub fn predicted(score: i32, scale: f64, rivals: u32) -> f64 {
    1.0 / (1.0 + f64::from(rivals.max(1)) * 10f64.powf(-f64::from(score) * scale / 400.0))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compile::compiled;
    use crate::notation::fen;

    #[test]
    fn predictions_are_even_at_zero_and_grow_with_the_score() {
        assert_eq!(predicted(0, 1.0, 1), 0.5);
        assert!(predicted(100, 1.0, 1) > 0.6 && predicted(100, 1.0, 1) < 0.7);
        assert!(predicted(-100, 1.0, 1) < 0.4);
        // Against three others, an even score is a quarter of the win.
        assert!((predicted(0, 1.0, 3) - 0.25).abs() < 1e-12);
        assert!(predicted(100, 1.0, 3) > 0.25 && predicted(100, 1.0, 3) < 0.5);
    }

    #[test]
    fn a_result_is_each_players_share() {
        let results = |players: u32, won: bool| -> Vec<f64> {
            (0..4).map(|p| result_for(p, players, won)).collect()
        };
        assert_eq!(results(0b0100, true), [0.0, 0.0, 1.0, 0.0]);
        assert_eq!(
            results(0b1011, false),
            [1.0 / 3.0, 1.0 / 3.0, 0.0, 1.0 / 3.0]
        );
        assert_eq!(results(0b1111, false), [0.25; 4]);
        assert_eq!(results(0b0011, false)[..2], [0.5, 0.5]);
    }

    /// Games won by the side a Knight up and lost by the side a Knight down teach a fit that
    /// starts from a Knight worth almost nothing that it is worth much more.
    #[test]
    fn a_fit_raises_the_worth_of_what_wins_games() {
        let rules = compiled(include_str!("../../rules/chess.rules"));
        let sample = |text: &str, result: f64| Sample {
            position: fen::read(&rules, text).unwrap(),
            result,
        };
        let samples = [
            sample(
                "r1bqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                1.0,
            ),
            sample(
                "r1bqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1",
                0.0,
            ),
            sample(
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/R1BQKBNR w KQkq - 0 1",
                0.0,
            ),
            sample(
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/R1BQKBNR b KQkq - 0 1",
                1.0,
            ),
            sample(
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                0.5,
            ),
        ];
        let knight = (rules.pieces.kinds.iter())
            .position(|k| k.name == "Knight")
            .unwrap();
        let mut start = Weights::derived(&rules);
        start.values[knight] = 10;
        let mut rounds = 0;
        let fit = fit(&rules, &samples, start, 2, |_, _| rounds += 1);
        assert!(fit.weights.values[knight] > 100, "{:?}", fit.weights);
        assert!(fit.error_after < fit.error_before / 2.0);
        assert!(rounds >= 1);
    }

    /// A kind the positions seldom show keeps its value: one game lost a Knight up among
    /// ninety without one moves nothing, where three such games (more than one position in
    /// fifty) lower it.
    #[test]
    fn a_kind_the_games_seldom_show_keeps_its_value() {
        let rules = compiled(include_str!("../../rules/chess.rules"));
        let knight = (rules.pieces.kinds.iter())
            .position(|k| k.name == "Knight")
            .unwrap();
        let knight_value = |lost_a_knight_up: usize| {
            let sample = |text: &str, result: f64| Sample {
                position: fen::read(&rules, text).unwrap(),
                result,
            };
            // Drawn when even, won a Rook up: enough to set the scale of the predictions.
            let mut samples: Vec<Sample> = (0..60)
                .map(|_| sample("4k3/pppp4/8/8/8/8/PPPP4/4K3 w - - 0 1", 0.5))
                .chain((0..30).map(|_| sample("4k3/pppp4/8/8/8/8/PPPP4/R3K3 w - - 0 1", 1.0)))
                .collect();
            samples.extend(
                (0..lost_a_knight_up)
                    .map(|_| sample("4k3/pppp4/8/8/8/8/PPPP4/1N2K3 w - - 0 1", 0.0)),
            );
            let fit = fit(&rules, &samples, Weights::derived(&rules), 1, |_, _| {});
            fit.weights.values[knight]
        };
        let derived = Weights::derived(&rules).values[knight];
        assert_eq!(knight_value(1), derived);
        assert!(knight_value(3) < derived);
    }
}
