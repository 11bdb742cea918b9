//! What the fuzz targets run. Each takes bytes the fuzzer made and panics only where fairy
//! disagrees with itself or panics on its own: a rule file that checks must compile and walk
//! through random games without contradiction ([`fairy::consistency`]); a position or a move
//! text that reads must leave a position that does too.

use fairy::compile::Ruleset;
use fairy::consistency::{Walk, playable};
use fairy::diagnostic::{FileReport, render_plain};
use fairy::engine::Position;
use fairy::notation::{fen, moves};
use fairy::pipeline::{self, Loaded};
use miette::NamedSource;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::Duration;

pub mod caps;

/// Rule files made up from the language's concepts, the same generator the property test uses.
#[path = "../../tests/common/generate.rs"]
pub mod generate;

/// A rule file the generator makes from the fuzzer's bytes, run as [`rule_file`].
pub fn generated_rules(data: &[u8]) {
    let text = generate::rule_file(&mut generate::Bytes(data));
    rule_file(text.as_bytes());
}

/// Rule-file text: checked (its report rendered), compiled, then walked where playable.
pub fn rule_file(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Loaded { problems, .. } = pipeline::load_with_cost(text);
    if !problems.is_empty() {
        let report = FileReport {
            source: NamedSource::new("fuzz.rules", fairy::source::printable(text)),
            problems,
        };
        render_plain(&report, 100);
    }
    match playable(text) {
        Ok(Some(rules)) => walk(Position::start(&rules), seed(data), 12),
        Ok(None) => {}
        Err(disagreement) => panic!("{disagreement}"),
    }
}

/// The most one input of the `resources` target may hold at once, and take: far more than any
/// real variant needs, far less than an input that cost minutes or gigabytes.
pub const RESOURCE_MEMORY: usize = 1 << 30;
pub const RESOURCE_TIME: Duration = Duration::from_secs(3);

/// A rule file (the rest of the input as text when the first byte is even, else made by the
/// generator from the rest), run as the commands run it with their defaults, under the caps of
/// [`caps::within`]: what a small valid file may make fairy spend is bounded by design.
pub fn resources(data: &[u8]) {
    if let Some(text) = resource_text(data) {
        caps::within(RESOURCE_MEMORY, RESOURCE_TIME, || {
            commands(&text, seed(data))
        });
    }
}

/// The rule file an input of [`resources`] stands for; `None` for text that is not UTF-8.
pub fn resource_text(data: &[u8]) -> Option<String> {
    let (&pick, rest) = data.split_first()?;
    match pick % 2 {
        0 => std::str::from_utf8(rest).ok().map(str::to_string),
        _ => Some(generate::rule_file(&mut generate::Bytes(rest))),
    }
}

/// What `check`, then `show`, `moves`, `perft 1` and a game of a few plies between the computer
/// (thinking 20 ms a turn) and a random player do with a file.
fn commands(text: &str, seed: u64) {
    let loaded = pipeline::load_with_cost(text);
    if !loaded.problems.is_empty() {
        let report = FileReport {
            source: NamedSource::new("fuzz.rules", fairy::source::printable(text)),
            problems: loaded.problems,
        };
        render_plain(&report, 100);
    }
    let Some(rules) = loaded.rules else {
        return;
    };
    let mut position = Position::start(&rules);
    let mut players = [
        fairy::ai::Player::computer(&rules, Duration::from_millis(20), seed),
        fairy::ai::Player::random(seed),
    ];
    for ply in 0..6 {
        if position.ending().is_some() {
            return;
        }
        moves::legal_texts(&mut position);
        fairy::engine::perft::Perft::new(1)
            .with_limit(1 << 20)
            .count(&mut position);
        if position.turns_overflowed() {
            return;
        }
        let Some(turn) = players[ply % 2].choose(&mut position) else {
            return;
        };
        position.make(&turn);
    }
}

/// A position of a shipped game: the first byte picks the game, the rest is the text.
pub fn position_text(data: &[u8]) {
    let Some((rules, rest)) = game(data) else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    if let Ok(position) = fen::read(rules, text) {
        walk(position, seed(data), 4);
    }
}

/// Move text in a shipped game: the first byte picks the game, the second how many random
/// plies lead to the position, the rest is the moves.
pub fn move_text(data: &[u8]) {
    let Some((rules, rest)) = game(data) else {
        return;
    };
    let Some((&plies, rest)) = rest.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    let mut position = Position::start(rules);
    let mut random = fairy::random::Random::new(seed(data));
    let mut turns = Vec::new();
    for _ in 0..plies % 32 {
        position.legal_turns(&mut turns);
        if turns.is_empty() {
            break;
        }
        position.make(&turns[random.below(turns.len())]);
    }
    if moves::play(&mut position, text).is_ok() {
        walk(position, seed(data), 2);
    }
}

fn walk(position: Position<'_>, seed: u64, plies: usize) {
    // Perft 2 only where it stays cheap: a slow input hides the fast ones from the fuzzer.
    let walk = Walk {
        thorough_every: 2,
        divide_below: 24,
        ..Walk::new(seed, plies)
    };
    if let Err(disagreement) = walk.run_from(position) {
        panic!("{disagreement}");
    }
}

/// FNV-1a of the input, so that each input walks its own way, the same way each time.
fn seed(data: &[u8]) -> u64 {
    data.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &byte| {
        (hash ^ byte as u64).wrapping_mul(0x0100_0000_01b3)
    })
}

/// Every shipped game, compiled once per fuzzing process.
pub const GAMES: [(&str, &str); 10] = [
    ("chess", include_str!("../../rules/chess.rules")),
    ("giveaway", include_str!("../../rules/giveaway.rules")),
    ("crazyhouse", include_str!("../../rules/crazyhouse.rules")),
    ("minishogi", include_str!("../../rules/minishogi.rules")),
    ("shogi", include_str!("../../rules/shogi.rules")),
    ("amazons", include_str!("../../rules/amazons.rules")),
    ("yagbap", include_str!("../../rules/yagbap.rules")),
    ("ghostarelay", include_str!("../../rules/ghostarelay.rules")),
    ("amphora", include_str!("../../rules/amphora.rules")),
    (
        "yonin-bishogi",
        include_str!("../../rules/yonin-bishogi.rules"),
    ),
];

pub fn games() -> &'static [Ruleset] {
    static COMPILED: OnceLock<Vec<Ruleset>> = OnceLock::new();
    COMPILED.get_or_init(|| {
        GAMES
            .iter()
            .map(|(name, text)| {
                let rules = pipeline::load(text).rules;
                rules.unwrap_or_else(|| panic!("{name} compiles"))
            })
            .collect()
    })
}

fn game(data: &[u8]) -> Option<(&'static Ruleset, &[u8])> {
    let (&pick, rest) = data.split_first()?;
    Some((&games()[pick as usize % GAMES.len()], rest))
}

/// Writes the starting corpora under `dir`: every rule file of the project, and for each
/// shipped game positions and moves from random games.
pub fn write_seeds(project: &Path, dir: &Path) -> std::io::Result<usize> {
    let mut written = 0;
    let rules_dir = dir.join("rule_file");
    let resources_dir = dir.join("resources");
    std::fs::create_dir_all(&rules_dir)?;
    std::fs::create_dir_all(&resources_dir)?;
    for file in rule_files(project)? {
        let name = file
            .strip_prefix(project)
            .unwrap_or(&file)
            .to_string_lossy()
            .replace('/', "_");
        let text = std::fs::read(&file)?;
        std::fs::write(rules_dir.join(&name), &text)?;
        // An even first byte: the rest is the rule file's text.
        std::fs::write(resources_dir.join(&name), [&[0u8][..], &text].concat())?;
        written += 2;
    }
    std::fs::create_dir_all(dir.join("generated_rules"))?;
    for seed in 0..16u8 {
        let bytes: Vec<u8> = (0..64u8)
            .map(|i| i.wrapping_mul(seed.wrapping_add(7)))
            .collect();
        std::fs::write(dir.join(format!("generated_rules/{seed}")), &bytes)?;
        // An odd first byte: the rest steers the generator.
        let steered = [&[1u8][..], &bytes].concat();
        std::fs::write(resources_dir.join(format!("generated-{seed}")), steered)?;
        written += 2;
    }
    for target in ["position_text", "move_text"] {
        std::fs::create_dir_all(dir.join(target))?;
    }
    for (pick, rules) in games().iter().enumerate() {
        let mut random = fairy::random::Random::new(0x5EED + pick as u64);
        let mut position = Position::start(rules);
        let mut turns = Vec::new();
        for plies in 0..12u8 {
            let mut text = vec![pick as u8];
            text.extend(fen::write(&position).into_bytes());
            std::fs::write(dir.join(format!("position_text/{pick}-{plies}")), text)?;
            position.legal_turns(&mut turns);
            let Some(&turn) = turns.get(random.below(turns.len().max(1))) else {
                break;
            };
            let mut text = vec![pick as u8, 0];
            text.extend(moves::write(&position, &turn).into_bytes());
            std::fs::write(dir.join(format!("move_text/{pick}-{plies}")), text)?;
            position.make(&turn);
            written += 2;
        }
    }
    Ok(written)
}

/// Every `.rules` file under the project's `rules/` and `tests/`.
fn rule_files(project: &Path) -> std::io::Result<Vec<PathBuf>> {
    let mut found = Vec::new();
    let mut folders = vec![project.join("rules"), project.join("tests")];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(folder)? {
            let path = entry?.path();
            if path.is_dir() {
                folders.push(path);
            } else if path.extension().is_some_and(|e| e == "rules") {
                found.push(path);
            }
        }
    }
    found.sort();
    Ok(found)
}
