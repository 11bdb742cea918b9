//! The one way through the front end: text → syntax tree → checked file → compiled rules → a
//! start position no rule forbids. Every command, `fairy test`, the property tests and the
//! fuzzer load rule files through here, so they all see the same problems and the same verdict.

use crate::check::checked::TestCase;
use crate::check::{self, Checked, Summary};
use crate::compile::{self, Ruleset, Unsupported, support};
use crate::diagnostic::{Code, Problem, Span, limit_problems};
use crate::engine::{Position, Setup};
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
}

impl Loaded {
    /// Whether the file has no errors (it may still have warnings).
    pub fn is_valid(&self) -> bool {
        self.summary.is_some()
    }
}

/// Loads a rule file's text.
pub fn load(text: &str) -> Loaded {
    let parsed = syntax::parse_recovering(text);
    let verdict = check::check(&parsed, text);
    let mut loaded = Loaded {
        problems: verdict.problems,
        summary: None,
        rules: None,
        tests: Vec::new(),
    };
    match verdict.checked {
        Some(checked) => build(&checked, &mut loaded),
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

/// Compiles a valid file and checks its start position.
fn build(checked: &Checked, loaded: &mut Loaded) {
    match compile::compile(checked) {
        Ok(rules) => match impossible_start(checked, &rules) {
            Some(problem) => loaded.problems.push(problem),
            None => loaded.rules = Some(rules),
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
