//! The one way through the front end: text → syntax tree → checked file → compiled rules → a
//! start position no rule forbids. Every command, `fairy test`, the property tests and the
//! fuzzer load rule files through here, so they all see the same problems and the same verdict;
//! `check` asks besides for the estimate of what one position may cost.

use crate::check::Feature;
use crate::check::checked::TestCase;
use crate::check::{self, Checked, Summary};
use crate::compile::{self, Ruleset, Unsupported, support};
use crate::diagnostic::{Code, Problem, Span, limit_problems};
use crate::engine::cost::Cost;
use crate::engine::{Position, Setup};
use crate::limits::{MAX_TURNS, REPLIES_WORTH_A_WARNING, TURNS_WORTH_A_WARNING};
use crate::syntax;

/// A rule file, loaded as far as it goes.
#[derive(Debug)]
pub struct Loaded {
    /// Every problem of the file, in the order of the text; past the most a report shows, one
    /// more counts the rest.
    pub problems: Vec<Problem>,
    /// What `fairy check` says of a file without errors.
    pub summary: Option<Summary>,
    /// The rules, when the file can be played: valid, run by the engine, with a start position
    /// no rule forbids.
    pub rules: Option<Ruleset>,
    /// The file's `test` blocks, when it has no errors.
    pub tests: Vec<TestCase>,
    /// The estimate of the most work one position can ask, when the file can be played and
    /// was loaded with [`load_with_cost`].
    pub cost: Option<Cost>,
}

impl Loaded {
    /// Whether the file has no errors (it may still have warnings).
    pub fn is_valid(&self) -> bool {
        self.summary.is_some()
    }

    /// The rules of a file, valid or not, that the engine does not run, each where the file
    /// first uses it: a valid file with any cannot be played.
    pub fn not_run(&self) -> Vec<(Span, &str)> {
        let problems = self.problems.iter().filter(|p| p.code == Code::NotRunYet);
        problems
            .flat_map(|p| {
                let notes = p.notes.iter().map(|(span, note)| (*span, note.as_str()));
                std::iter::once((p.span, p.label.as_str())).chain(notes)
            })
            .collect()
    }
}

/// Loads a rule file's text, to play it.
pub fn load(text: &str) -> Loaded {
    load_as(text, false)
}

/// Loads a rule file's text as `check` does: a playable file also gets the estimate of what
/// one of its positions may cost, and a warning where that is large. Playing does without: the
/// estimate probes every piece on every square, a millisecond that no game should pay.
pub fn load_with_cost(text: &str) -> Loaded {
    load_as(text, true)
}

fn load_as(text: &str, estimate: bool) -> Loaded {
    let parsed = syntax::parse_recovering(text);
    let verdict = check::check(&parsed, text);
    let mut loaded = Loaded {
        problems: verdict.problems,
        summary: None,
        rules: None,
        tests: Vec::new(),
        cost: None,
    };
    match verdict.checked {
        Some(checked) => build(&checked, estimate, &mut loaded),
        // A file with errors is not compiled, but what it uses is still told.
        None => {
            let unsupported = Unsupported(support::unsupported(&verdict.uses));
            loaded.problems.extend(unsupported.warning());
        }
    }
    loaded
        .problems
        .sort_by_key(|problem| (problem.span.start, problem.span.end));
    limit_problems(&mut loaded.problems);
    loaded
}

/// Compiles a valid file and checks its start position, estimating its cost if asked.
fn build(checked: &Checked, estimate: bool, loaded: &mut Loaded) {
    match compile::compile(checked) {
        Ok(rules) => match impossible_start(checked, &rules) {
            Some(problem) => loaded.problems.push(problem),
            None => {
                if estimate {
                    let cost = Cost::estimate(&rules);
                    loaded.problems.extend(costly(checked, &cost));
                    loaded.cost = Some(cost);
                }
                loaded.rules = Some(rules);
            }
        },
        Err(unsupported) => loaded.problems.extend(unsupported.warning()),
    }
    if !loaded.problems.iter().any(Problem::is_error) {
        loaded.summary = Some(Summary::of(checked));
        loaded.tests = checked.tests.clone();
    }
}

/// A start position no game can have, located at the setup of the player it concerns.
fn impossible_start(checked: &Checked, rules: &Ruleset) -> Option<Problem> {
    let problem = Position::from_setup(rules, &Setup::start(rules)).err()?;
    let spans = &checked.setup.spans;
    let span = spans
        .iter()
        .find(|(setup_player, _)| Some(setup_player.0) == problem.player)
        .or(spans.first())
        .map_or(Span::new(0, 0), |&(_, span)| span);
    Some(Problem::error(
        Code::ImpossibleStart,
        format!("the start position is impossible: {problem}"),
        span,
        "set up here",
    ))
}

/// Warnings for a file whose positions the estimate finds may cost seconds or gigabytes: too
/// many ways to make a turn, or too many replies to judge them by.
fn costly(checked: &Checked, cost: &Cost) -> Vec<Problem> {
    let mut problems = Vec::new();
    if cost.turns > TURNS_WORTH_A_WARNING {
        problems.push(
            Problem::warning(
                Code::CostlyPositions,
                format!(
                    "a position may have about {} ways to make a turn",
                    roughly(cost.turns)
                ),
                cost.widest,
                "turns of this kind",
            )
            .with_help(format!(
                "fairy holds at most {MAX_TURNS} ways to make a turn in one position, and \
                 commands stop with an error where a position has more; fewer steps in a turn, \
                 a smaller board or narrower drop zones make fewer"
            )),
        );
    }
    let replies = cost.replies.filter(|&n| n > REPLIES_WORTH_A_WARNING);
    if let Some(replies) = replies {
        let ending = (checked.uses.iter())
            .find(|(feature, _)| *feature == Feature::RoyalCaptured)
            .map_or(cost.widest, |&(_, span)| span);
        problems.push(
            Problem::warning(
                Code::CostlyPositions,
                format!(
                    "judging one position may examine about {} of the opponent's replies",
                    roughly(replies)
                ),
                ending,
                "each turn is judged by the replies to it",
            )
            .with_help(
                "a turn is legal only if no reply takes a royal piece, and the replies are \
                 searched for one, so a position can take seconds or more; where the captures \
                 are plain, `lose when checkmated` judges from attacks at far less cost",
            ),
        );
    }
    problems
}

/// A large count in words, to two figures: "about 310 million".
fn roughly(n: u64) -> String {
    let scales = [
        (1e15, "thousand trillion"),
        (1e12, "trillion"),
        (1e9, "billion"),
        (1e6, "million"),
    ];
    let n = n as f64;
    match scales.iter().find(|&&(scale, _)| n >= scale) {
        Some(&(scale, word)) if n / scale < 10.0 => format!("{:.1} {word}", n / scale),
        Some(&(scale, word)) => format!("{:.0} {word}", n / scale),
        None => format!("{n}"),
    }
}
