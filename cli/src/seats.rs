//! Who sits at each seat of `play` and `selfplay`: `--seat N=WHO`, read and turned into players.

use super::Reported;
use super::protocol::count_within;
use clap::Args;
use fairy::ai::search::MAX_THREADS;
use fairy::ai::weights::Weights;
use fairy::ai::{Budget, Player};
use fairy::compile::Ruleset;
use std::time::Duration;

/// The longest the computer may think per turn, an hour: beyond it a game only seems to hang.
pub const MAX_THINK_MS: u64 = 3_600_000;

/// `--threads`: how many threads each computer player searches with.
#[derive(Args, Clone, Copy)]
pub struct Threads {
    /// Threads each computer player searches with, sharing one table (1 to 64; more than the
    /// machine's cores only slows it).
    #[arg(long = "threads", value_name = "T", default_value_t = 1, value_parser = parse_threads)]
    pub count: usize,
}

fn parse_threads(text: &str) -> Result<usize, String> {
    count_within(text, MAX_THREADS).ok_or(format!("threads are 1 to {MAX_THREADS}"))
}

/// Who plays a seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Seat {
    Human,
    /// The computer, thinking this many milliseconds a turn (the command's `--think-ms` if none).
    Computer(Option<u64>),
    Random,
}

impl Seat {
    /// The program behind the seat, or `None` for a human; the computer evaluates with
    /// `weights` (those derived from the rule file if none).
    pub fn player(
        self,
        rules: &Ruleset,
        weights: Option<&Weights>,
        think_ms: u64,
        seed: u64,
    ) -> Option<Player> {
        match self {
            Seat::Human => None,
            Seat::Random => Some(Player::random(seed)),
            Seat::Computer(ms) => {
                let think = Duration::from_millis(ms.unwrap_or(think_ms));
                Some(Player::weighted(rules, Budget::Time(think), seed, weights))
            }
        }
    }

    /// How a report names the seat's player: `human`, `random`, `ai 100 ms`.
    pub fn label(self, think_ms: u64) -> String {
        match self {
            Seat::Human => "human".to_string(),
            Seat::Random => "random".to_string(),
            Seat::Computer(ms) => format!("ai {} ms", ms.unwrap_or(think_ms)),
        }
    }
}

/// Reads `N=human`, `N=ai`, `N=ai:MS` or `N=random`, with N counted from 1.
pub fn parse_seat(text: &str) -> Result<(usize, Seat), String> {
    let usage = "write a seat as N=human, N=ai, N=ai:MS or N=random (N from 1)";
    let (number, who) = text.split_once('=').ok_or(usage)?;
    let seat: usize = number.parse().map_err(|_| usage)?;
    let kind = match who {
        "human" => Seat::Human,
        "ai" => Seat::Computer(None),
        "random" => Seat::Random,
        _ => match who.strip_prefix("ai:").map(str::parse::<u64>) {
            Some(Ok(ms)) if ms <= MAX_THINK_MS => Seat::Computer(Some(ms)),
            Some(Ok(_)) => {
                return Err(format!(
                    "the computer thinks at most {MAX_THINK_MS} ms (an hour) a turn"
                ));
            }
            _ => return Err(usage.to_string()),
        },
    };
    match seat {
        0 => Err("seats are numbered from 1".to_string()),
        _ => Ok((seat - 1, kind)),
    }
}

/// Each seat's player: `first` at seat 1, the computer elsewhere, then the seats given. A seat
/// the game does not have, or one given twice, is bad usage.
pub fn seats_of(
    rules: &Ruleset,
    first: Seat,
    given: &[(usize, Seat)],
) -> Result<Vec<Seat>, Reported> {
    let players = rules.players.count();
    let mut seats = vec![Seat::Computer(None); players];
    seats[0] = first;
    for (index, &(seat, kind)) in given.iter().enumerate() {
        if seat >= players {
            super::complain!(
                "error: --seat {}: this game has {players} seats, numbered from 1",
                seat + 1
            );
            return Err(Reported::Usage);
        }
        if given[..index].iter().any(|&(earlier, _)| earlier == seat) {
            super::complain!("error: --seat {} is given twice", seat + 1);
            return Err(Reported::Usage);
        }
        seats[seat] = kind;
    }
    Ok(seats)
}

/// A different seed for each seat, so two computers at one table do not mirror each other.
pub fn seat_seed(seed: u64, seat: usize) -> u64 {
    seed.wrapping_add(seat as u64 * 0x1000_0001)
}
