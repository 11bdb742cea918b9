//! Self-play on the server: a job plays its games on every core in the background, and the page
//! asks for its progress until the report, the one `selfplay --json` prints, is there.

use super::Failure;
use super::api::{fields, playable};
use super::files::Folders;
use crate::seats::{Seat, parse_seat};
use crate::selfplay::{Event, Games, Halt, Plan, every_core, summarise};
use crate::weights::FileWeights;
use fairy::compile::Ruleset;
use serde::Deserialize;
use serde_json::{Value, json};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{self, Sender};
use std::sync::{Arc, Mutex, MutexGuard};

/// Jobs running at once: each already uses every core.
const MAX_RUNNING: usize = 2;
/// The most games one job plays.
const MAX_GAMES: usize = 10_000;
/// The longest a job's computer thinks over a turn; a halted job ends once its turns end.
const MAX_THINK_MS: u64 = 10_000;

#[derive(Default)]
pub struct Jobs {
    jobs: Mutex<Vec<Arc<Job>>>,
}

struct Job {
    games: usize,
    played: AtomicUsize,
    /// How to halt the games; gone once they have ended.
    halt: Mutex<Option<Sender<Event>>>,
    /// The report, or why there is none, once the games have ended.
    ended: Mutex<Option<Result<Value, String>>>,
    /// Whether the job's threads are still playing: a halted job's last turns end after its
    /// report is made.
    running: AtomicBool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Start {
    rules: String,
    #[serde(default = "default_games")]
    games: usize,
    #[serde(default = "default_think")]
    think_ms: u64,
    #[serde(default = "default_max_plies")]
    max_plies: u32,
    /// Who plays each seat, in turn order: `ai`, `ai:MS` or `random`; the computer by default.
    #[serde(default)]
    seats: Vec<String>,
    #[serde(default)]
    rotate: bool,
    #[serde(default = "default_seed")]
    seed: u64,
    /// The file the rules came from, as `/api/files` names it: the computer seats read the
    /// weights file beside it.
    #[serde(default)]
    file: Option<String>,
}

fn default_games() -> usize {
    20
}
fn default_think() -> u64 {
    100
}
fn default_max_plies() -> u32 {
    crate::DEFAULT_MAX_PLIES
}
fn default_seed() -> u64 {
    1
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

impl Jobs {
    /// `POST /api/selfplay {rules, games, think_ms, max_plies, seats, rotate, seed, file}`:
    /// starts a job and gives its number, and the weights file its computer seats read.
    pub fn start(&self, body: &Value, folders: &Folders) -> Result<Value, Failure> {
        let start: Start = fields(body)?;
        let rules = playable(&start.rules)?;
        let weights = folders.weights_beside(start.file.as_deref(), &rules)?;
        let weights_name = weights.as_ref().map(FileWeights::name);
        let mut plan = plan(&start, &rules)?;
        plan.weights = weights.map(|file| file.weights);
        let mut jobs = lock(&self.jobs);
        let running = (jobs.iter())
            .filter(|job| job.running.load(Ordering::Relaxed))
            .count();
        if running >= MAX_RUNNING {
            return Err(Failure::busy(format!(
                "{running} self-play jobs are running: wait for one, or stop it"
            )));
        }
        let (sender, events) = mpsc::channel();
        let job = Arc::new(Job {
            games: plan.games,
            played: AtomicUsize::new(0),
            halt: Mutex::new(Some(sender.clone())),
            ended: Mutex::new(None),
            running: AtomicBool::new(true),
        });
        jobs.push(Arc::clone(&job));
        let number = jobs.len() - 1;
        let games = plan.games;
        std::thread::spawn(move || {
            let games = Games {
                sender,
                events,
                jobs: every_core(),
            };
            let played = |n| job.played.store(n, Ordering::Relaxed);
            let finish = |results: Vec<_>, halt: Option<Halt>| {
                let report = match halt {
                    Some(Halt::TooManyTurns) => Err(fairy::limits::too_many_turns()),
                    _ if results.is_empty() => {
                        Ok(json!({ "game": rules.name, "games": 0, "partial": true }))
                    }
                    _ => serde_json::to_value(summarise(&rules, &plan, results, halt.is_some()))
                        .map_err(|error| error.to_string()),
                };
                *lock(&job.halt) = None;
                *lock(&job.ended) = Some(report);
            };
            // A fault of fairy's own still ends the job, with a report saying so.
            let unwound = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                games.play(&rules, &plan, played, finish)
            }));
            if unwound.is_err() {
                let mut ended = lock(&job.ended);
                ended.get_or_insert(Err("fairy failed in these games: please report it".into()));
            }
            job.running.store(false, Ordering::Relaxed);
        });
        Ok(json!({ "job": number, "games": games, "weights": weights_name }))
    }

    /// `GET /api/selfplay/N`: how far job N has got, and its report once it has ended.
    pub fn progress(&self, number: &str) -> Result<Value, Failure> {
        let job = self.job(number)?;
        let ended = lock(&job.ended);
        let (report, error) = match &*ended {
            None => (Value::Null, Value::Null),
            Some(Ok(report)) => (report.clone(), Value::Null),
            Some(Err(message)) => (Value::Null, json!(message)),
        };
        Ok(json!({
            "job": number,
            "games": job.games,
            "played": job.played.load(Ordering::Relaxed),
            "done": ended.is_some(),
            "running": job.running.load(Ordering::Relaxed),
            "report": report,
            "error": error,
        }))
    }

    /// `DELETE /api/selfplay/N`: stops job N; the games ended so far make its report, and the
    /// turns being chosen end within their think time.
    pub fn stop(&self, number: &str) -> Result<Value, Failure> {
        let job = self.job(number)?;
        let stopping = match &*lock(&job.halt) {
            Some(halt) => halt.send(Event::Interrupted).is_ok(),
            None => false,
        };
        Ok(json!({ "job": number, "stopping": stopping }))
    }

    fn job(&self, number: &str) -> Result<Arc<Job>, Failure> {
        let jobs = lock(&self.jobs);
        (number.parse::<usize>().ok())
            .and_then(|n| jobs.get(n))
            .cloned()
            .ok_or_else(|| Failure::not_found(format!("there is no self-play job {number:?}")))
    }
}

/// The games a request asks for, within the studio's bounds.
fn plan(start: &Start, rules: &Ruleset) -> Result<Plan, Failure> {
    let players = rules.players.count();
    if !(1..=MAX_GAMES).contains(&start.games) {
        return Err(Failure::bad(format!("games are 1 to {MAX_GAMES}")));
    }
    if start.think_ms > MAX_THINK_MS {
        return Err(Failure::bad(format!("think_ms is at most {MAX_THINK_MS}")));
    }
    if start.max_plies == 0 {
        return Err(Failure::bad("max_plies is at least 1"));
    }
    if start.seats.len() > players {
        return Err(Failure::bad(format!("this game has {players} seats")));
    }
    let mut seats = vec![Seat::Computer(None); players];
    for (index, who) in start.seats.iter().enumerate() {
        let (_, seat) = parse_seat(&format!("{}={who}", index + 1))
            .map_err(|message| Failure::bad(format!("seat {}: {message}", index + 1)))?;
        seats[index] = seat;
    }
    if seats.contains(&Seat::Human) {
        return Err(Failure::bad("self-play has no human seats"));
    }
    Ok(Plan {
        games: start.games,
        think_ms: start.think_ms,
        seed: start.seed,
        max_plies: start.max_plies,
        seats,
        rotate: start.rotate,
        threads: 1,
        weights: None,
    })
}
