//! Whether the engine agrees with itself on a game: a random walk that, ply by ply, checks that
//! the incremental hash equals a fresh one, that every position's text reads back as the same
//! position, that unmaking a turn restores the position, that each turn's text reads back as a
//! turn with the same result, that the captures generated alone are those of the whole list,
//! that the listed moves are as many as perft 1 counts and never twice the same text, and that
//! perft 2 is the sum of its divide. The property tests and the
//! fuzzer both walk with it; neither needs to know what a rule means to find a contradiction.

use crate::compile::Ruleset;
use crate::compile::turns::Coinciding;
use crate::diagnostic::Code;
use crate::engine::perft::Perft;
use crate::engine::{Position, Turn};
use crate::notation::{fen, moves};
use crate::pipeline;
use crate::random::Random;

/// The rules of a rule file's text when it can be played. A file without errors that cannot
/// be played must say why: it uses rules the engine does not run yet.
pub fn playable(text: &str) -> Result<Option<Ruleset>, String> {
    let loaded = pipeline::load(text);
    let told = loaded.problems.iter().any(|p| p.code == Code::NotRunYet);
    let valid = loaded.is_valid();
    match (loaded.rules, valid) {
        (Some(rules), true) => Ok(Some(rules)),
        (Some(_), false) => Err("playable, yet invalid".to_string()),
        (None, true) if !told => Err("valid, yet neither playable nor said not to be".to_string()),
        (None, _) => Ok(None),
    }
}

/// A random walk through one game.
#[derive(Clone, Copy, Debug)]
pub struct Walk {
    pub seed: u64,
    pub max_plies: usize,
    /// The costlier checks (position and move texts, perft, unmake) run on one ply in this many.
    pub thorough_every: usize,
    /// Perft 2 and its divide are compared only where a position has at most this many turns.
    pub divide_below: usize,
}

/// How a walk ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Walked {
    pub plies: usize,
    /// The game reached an end by its rules.
    pub ended: bool,
}

/// A contradiction: what disagreed, and in which position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Disagreement {
    pub ply: usize,
    pub position: String,
    pub what: String,
}

impl std::fmt::Display for Disagreement {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "ply {}, at {}: {}", self.ply, self.position, self.what)
    }
}

impl Walk {
    pub fn new(seed: u64, max_plies: usize) -> Walk {
        Walk {
            seed,
            max_plies,
            thorough_every: 1,
            divide_below: 64,
        }
    }

    pub fn run(&self, rules: &Ruleset) -> Result<Walked, Disagreement> {
        self.run_from(Position::start(rules))
    }

    pub fn run_from(&self, mut position: Position<'_>) -> Result<Walked, Disagreement> {
        let mut random = Random::new(self.seed);
        let mut turns = Vec::new();
        for ply in 0..self.max_plies {
            let fail = |position: &mut Position<'_>, what: String| Disagreement {
                ply,
                position: fen::write(position),
                what,
            };
            // Offset by the seed, so that every player's positions and turns get checked.
            let thorough =
                (ply as u64 + self.seed).is_multiple_of(self.thorough_every.max(1) as u64);
            if thorough {
                check_text_round_trip(&mut position).map_err(|w| fail(&mut position, w))?;
            }
            if position.ending().is_some() {
                return Ok(Walked {
                    plies: ply,
                    ended: true,
                });
            }
            position.legal_turns(&mut turns);
            if turns.is_empty() {
                return Err(fail(&mut position, "no turn, yet no end".to_string()));
            }
            let counted = position.count_legal();
            if counted != turns.len() as u64 {
                let what = format!("{counted} legal turns counted, {} generated", turns.len());
                return Err(fail(&mut position, what));
            }
            check_captures(&mut position, &turns).map_err(|w| fail(&mut position, w))?;
            if thorough {
                self.check_counts(&mut position, turns.len())
                    .map_err(|w| fail(&mut position, w))?;
                position
                    .check_royal_threat_estimate()
                    .map_err(|w| fail(&mut position, w))?;
                position
                    .check_removal_reading()
                    .map_err(|w| fail(&mut position, w))?;
                position
                    .check_legality_proofs()
                    .map_err(|w| fail(&mut position, w))?;
            }
            let turn = turns[random.below(turns.len())];
            let checked = match thorough {
                true => check_turn(&mut position, &turn),
                false => {
                    position.make(&turn);
                    check_hash(&position)
                }
            };
            checked.map_err(|w| fail(&mut position, w))?;
        }
        Ok(Walked {
            plies: self.max_plies,
            ended: false,
        })
    }

    fn check_counts(&self, position: &mut Position<'_>, turns: usize) -> Result<(), String> {
        // The texts come sorted: a repeat stands next to its twin.
        let texts = moves::legal_texts(position);
        if texts.windows(2).any(|pair| pair[0] == pair[1]) {
            return Err("a move is listed twice".to_string());
        }
        let perft1 = Perft::new(1).count(position) as usize;
        if perft1 != turns {
            return Err(format!("perft 1 is {perft1}, yet {turns} legal turns"));
        }
        // Only a placement followed by the same move may be counted once for several ways.
        let listed_once = position.rules().derived.coinciding == Coinciding::Never;
        if texts.len() > perft1 || (listed_once && texts.len() != perft1) {
            return Err(format!("{} moves listed, perft 1 is {perft1}", texts.len()));
        }
        if turns <= self.divide_below {
            let mut counter = Perft::new(2);
            let divided: u64 = counter.divide(position).iter().map(|(_, n)| n).sum();
            let total = Perft::new(2).count(position);
            if divided != total {
                return Err(format!("perft 2 is {total}, its divide sums to {divided}"));
            }
        }
        Ok(())
    }
}

/// Checks that the captures generated alone are the captures among all the legal `turns`.
fn check_captures(position: &mut Position<'_>, turns: &[Turn]) -> Result<(), String> {
    let mut alone = Vec::new();
    position.legal_captures(&mut alone);
    let among: std::collections::HashSet<&Turn> = turns.iter().filter(|t| t.captures).collect();
    let listed: std::collections::HashSet<&Turn> = alone.iter().collect();
    match listed.len() == alone.len() && listed == among {
        true => Ok(()),
        false => Err(format!(
            "{} captures generated alone, {} among the {} legal turns",
            alone.len(),
            among.len(),
            turns.len()
        )),
    }
}

/// Makes `turn`, checking that its text reads back as a turn with the same result and that
/// unmaking it restores the position.
fn check_turn(position: &mut Position<'_>, turn: &Turn) -> Result<(), String> {
    let before = (
        fen::write(position),
        position.hash(),
        position.hands().to_vec(),
    );
    let text = moves::write(position, turn);
    let read = moves::read(position, &text).map_err(|e| format!("`{text}` reads: {e}"))?;
    position.make(&read);
    let by_text = (fen::write(position), position.hash());
    position.unmake();
    let after_unmake = (
        fen::write(position),
        position.hash(),
        position.hands().to_vec(),
    );
    if after_unmake != before {
        return Err(format!("unmaking `{text}` leaves {}", after_unmake.0));
    }
    position.make(turn);
    if (fen::write(position), position.hash()) != by_text {
        return Err(format!("`{text}` read back makes another position"));
    }
    check_hash(position).map_err(|e| format!("after `{text}`: {e}"))
}

fn check_hash(position: &Position<'_>) -> Result<(), String> {
    match position.hash() == position.compute_hash() {
        true => Ok(()),
        false => Err("the incremental hash differs from a fresh one".to_string()),
    }
}

fn check_text_round_trip(position: &mut Position<'_>) -> Result<(), String> {
    let again = Position::from_setup(position.rules(), &position.setup())
        .map_err(|e| format!("the position's own setup is refused: {e}"))?;
    if again.hash() != position.hash() {
        return Err("the position's own setup makes another position".to_string());
    }
    let text = fen::write(position);
    let reread = fen::read(position.rules(), &text)
        .map_err(|e| format!("the written position does not read back: {e}"))?;
    if reread.hash() != position.hash() {
        return Err("the written position reads back with another hash".to_string());
    }
    let again = fen::write(&reread);
    match again == text {
        true => Ok(()),
        false => Err(format!("the written position reads back as {again}")),
    }
}
