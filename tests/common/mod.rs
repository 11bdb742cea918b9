//! What the integration tests share: loading rule files by name.

// Each test crate compiles this module on its own and uses only part of it.
#![allow(dead_code)]

pub mod generate;

use fairy::compile::Ruleset;
use fairy::notation::{fen, moves};
use fairy::pipeline;
use std::path::{Path, PathBuf};

/// Every shipped rule file.
pub const SHIPPED: [&str; 14] = [
    "chess",
    "giveaway",
    "crazyhouse",
    "minishogi",
    "shogi",
    "amazons",
    "yagbap",
    "ghostarelay",
    "amphora",
    "yonin-bishogi",
    "xiangqi",
    "shatranj",
    "makruk",
    "janggi",
];

/// The text of a shipped rule file by name (`chess`), or of another rule file by path
/// (`variants/x`, `tests/variants/x`).
pub fn rule_text(name: &str) -> String {
    let dir = env!("CARGO_MANIFEST_DIR");
    let path = match name.contains('/') {
        true => format!("{dir}/{name}.rules"),
        false => format!("{dir}/rules/{name}.rules"),
    };
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The compiled rules of a shipped rule file or test variant, named as for [`rule_text`].
pub fn ruleset(name: &str) -> Ruleset {
    compiled(&rule_text(name))
}

/// The rules of a rule file's text, which must be playable.
pub fn compiled(text: &str) -> Ruleset {
    let loaded = pipeline::load(text);
    let problems = &loaded.problems;
    loaded
        .rules
        .unwrap_or_else(|| panic!("the file cannot be played: {problems:#?}"))
}

/// The position after `played`, its legal moves and its ending, as text.
pub fn listing(rules: &Ruleset, position: &str, played: &str) -> String {
    let mut position = fen::read(rules, position).expect("a valid position");
    moves::play(&mut position, played).expect("legal moves");
    let legal = moves::legal_texts(&mut position);
    let status = match position.ending() {
        Some(ending) => ending.describe(&rules.players.names),
        None => format!("{} to move", rules.players.names[position.to_move()]),
    };
    format!(
        "{}\n{} legal moves:\n{}\n{status}\n",
        fen::write(&position),
        legal.len(),
        legal.join(" ")
    )
}

/// Debug text with every span removed, to compare what texts written differently mean.
pub fn without_spans(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find("Span {") {
        out.push_str(&rest[..at]);
        let end = rest[at..].find('}').expect("span closes") + at + 1;
        rest = &rest[end..];
    }
    out.push_str(rest);
    out
}

/// Every `.rules` file directly inside `dir`, in sorted order.
pub fn rule_files(dir: &str) -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join(dir);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .map(|entry| entry.expect("a directory entry").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "rules"))
        .collect();
    files.sort();
    files
}
