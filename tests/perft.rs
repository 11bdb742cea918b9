//! Perft against published counts (tests/perft.toml), for every shipped variant that has them.

mod common;

use common::{SHIPPED, ruleset};
use fairy::engine::Position;
use fairy::engine::perft::Perft;
use fairy::notation::fen;
use serde::Deserialize;

#[derive(Deserialize)]
struct Table {
    position: Vec<Case>,
}

#[derive(Deserialize)]
struct Case {
    rules: String,
    name: String,
    source: String,
    fen: Option<String>,
    /// The depths of `counts`, when they do not start at 1.
    depths: Option<Vec<usize>>,
    counts: Vec<u64>,
}

/// Depths whose published count is at most this many nodes run in every `cargo test`.
const FAST_NODES: u64 = 5_000_000;

fn table() -> Table {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/perft.toml");
    toml::from_str(&std::fs::read_to_string(path).expect("perft table")).expect("valid table")
}

/// Runs every count of the table no larger than `budget`; returns the failures.
fn run(budget: u64) -> Vec<String> {
    let mut failures = Vec::new();
    for case in table().position {
        assert!(!case.source.is_empty(), "{} names its source", case.name);
        let rules = ruleset(&case.rules);
        let mut position = match &case.fen {
            Some(text) => fen::read(&rules, text).expect("published positions read"),
            None => Position::start(&rules),
        };
        let depths = case
            .depths
            .clone()
            .unwrap_or_else(|| (1..=case.counts.len()).collect());
        for (&depth, &expected) in depths.iter().zip(&case.counts) {
            if expected > budget {
                continue;
            }
            let nodes = Perft::new(depth).count(&mut position);
            if nodes != expected {
                failures.push(format!(
                    "{} {}: perft {depth} = {nodes}, published {expected}",
                    case.rules, case.name
                ));
            }
        }
    }
    failures
}

#[test]
fn published_counts() {
    let failures = run(FAST_NODES);
    assert!(failures.is_empty(), "{failures:#?}");
}

#[test]
#[ignore = "minutes of perft: cargo test --release --test perft -- --ignored"]
fn deep_published_counts() {
    let failures = run(u64::MAX);
    assert!(failures.is_empty(), "{failures:#?}");
}

/// The rule files in a folder of the tests, named as for [`common::rule_text`].
fn rule_files_in(folder: &str) -> Vec<String> {
    let dir = format!("{}/{folder}", env!("CARGO_MANIFEST_DIR"));
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{dir}: {e}"))
        .map(|entry| {
            let path = entry.expect("a directory entry").path();
            let stem = path.file_stem().expect("a file name").to_string_lossy();
            format!("{folder}/{stem}")
        })
        .collect();
    names.sort();
    names
}

/// The `test` blocks of every shipped variant, test variant and concept file.
#[test]
fn every_test_block_passes() {
    let variants = rule_files_in("variants");
    let concepts = rule_files_in("tests/concepts");
    assert!(
        !variants.is_empty() && !concepts.is_empty(),
        "the test files are found"
    );
    let names = SHIPPED
        .iter()
        .map(|n| n.to_string())
        .chain(variants)
        .chain(rule_files_in("tests/variants"))
        .chain(concepts);
    for name in names {
        let loaded = fairy::pipeline::load(&common::rule_text(&name));
        let rules = loaded.rules.expect("playable");
        for case in &loaded.tests {
            let failures = fairy::testing::run_case(&rules, case, u64::MAX, |_| {});
            assert_eq!(failures, 0, "{name}: test {}", case.name);
        }
    }
}
