//! Running the `test` blocks of a rule file: perft counts and exact move lists.

use crate::check::checked::TestCase;
use crate::compile::Ruleset;
use crate::engine::Position;
use crate::engine::perft::Perft;
use crate::notation::{fen, moves};

/// Runs one test, reporting a line per expectation; returns how many failed.
/// A perft expectation that counts more than `max_nodes` leaf nodes stops, and fails.
pub fn run_case(
    rules: &Ruleset,
    case: &TestCase,
    max_nodes: u64,
    mut report: impl FnMut(String),
) -> usize {
    let mut position = match setup(rules, case) {
        Ok(position) => position,
        Err(message) => {
            report(format!("test \"{}\": FAILED: {message}", case.name));
            return 1 + case.perft.len();
        }
    };
    let mut failures = 0;
    for &(depth, expected) in &case.perft {
        let mut counter = Perft::new(depth as usize).with_limit(max_nodes);
        let nodes = counter.count(&mut position);
        let shortfall = counter.shortfall(&position);
        let verdict = match &shortfall {
            Some(reason) => format!("FAILED: {reason}"),
            None if nodes == expected => "ok".to_string(),
            None => format!("FAILED: got {nodes}"),
        };
        failures += usize::from(shortfall.is_some() || nodes != expected);
        report(format!(
            "test \"{}\": perft {depth} = {expected}: {verdict}",
            case.name
        ));
    }
    if let Some(expected) = &case.move_list {
        let mut expected = expected.clone();
        expected.sort();
        let actual = moves::legal_texts(&mut position);
        let verdict = if actual == expected {
            "ok".to_string()
        } else {
            failures += 1;
            let missing: Vec<_> = expected.iter().filter(|m| !actual.contains(m)).collect();
            let extra: Vec<_> = actual.iter().filter(|m| !expected.contains(m)).collect();
            format!("FAILED: missing {missing:?}, unexpected {extra:?}")
        };
        report(format!(
            "test \"{}\": {} moves: {verdict}",
            case.name,
            expected.len()
        ));
    }
    failures
}

fn setup<'r>(rules: &'r Ruleset, case: &TestCase) -> Result<Position<'r>, String> {
    let mut position = match &case.position {
        Some(text) => fen::read(rules, text).map_err(|e| format!("position: {e}"))?,
        None => Position::start(rules),
    };
    if let Some(list) = &case.moves {
        moves::play(&mut position, list).map_err(|e| format!("moves: {e}"))?;
    }
    Ok(position)
}
