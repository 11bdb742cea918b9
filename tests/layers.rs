//! The library's modules form a line of stages: each module may use the modules of its own
//! layer and of earlier ones, never a later one. Text flows down the line — syntax tree,
//! checked file, compiled rules, positions, notation — and nothing calls back up it.

use std::path::{Path, PathBuf};

/// The layers, first to last. A module of the library not listed here fails the test, so that a
/// new module is given its place.
const LAYERS: &[&[&str]] = &[
    // The vocabulary every stage shares: limits, directions, sets of squares as bitboards,
    // spans and problems, the random generator, reading files.
    &[
        "limits",
        "geometry",
        "bitboard",
        "random",
        "diagnostic",
        "source",
    ],
    &["syntax"],
    &["check"],
    &["compile"],
    &["engine"],
    &["notation"],
    &["ai"],
    // What runs the stages: the one pipeline, and the runner of a file's tests.
    &["pipeline", "testing"],
    &["consistency"],
];

fn layer_of(module: &str) -> Option<usize> {
    LAYERS.iter().position(|layer| layer.contains(&module))
}

/// Every `.rs` file under `dir`.
fn sources(dir: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut folders = vec![dir.to_path_buf()];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).expect("a readable folder") {
            let path = entry.expect("a folder entry").path();
            if path.is_dir() {
                folders.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                found.push(path);
            }
        }
    }
    found.sort();
    found
}

/// The top-level modules a file names as `crate::NAME`.
fn uses(text: &str) -> Vec<String> {
    text.match_indices("crate::")
        .map(|(at, _)| {
            text[at + "crate::".len()..]
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect()
        })
        .collect()
}

#[test]
fn no_module_uses_a_later_stage() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut backwards = Vec::new();
    for path in sources(&src) {
        let relative = path.strip_prefix(&src).expect("under src");
        let first = relative.components().next().expect("a path");
        let module = first
            .as_os_str()
            .to_string_lossy()
            .trim_end_matches(".rs")
            .to_string();
        if module == "lib" {
            continue;
        }
        let own = layer_of(&module).unwrap_or_else(|| panic!("module {module} has no layer"));
        let text = std::fs::read_to_string(&path).expect("a readable source file");
        for used in uses(&text) {
            let layer = layer_of(&used).unwrap_or_else(|| panic!("module {used} has no layer"));
            if layer > own {
                backwards.push(format!("{} uses crate::{used}", relative.display()));
            }
        }
    }
    assert!(backwards.is_empty(), "{backwards:#?}");
}

#[test]
fn every_module_of_the_library_has_a_layer() {
    let lib = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/src/lib.rs"))
        .expect("src/lib.rs");
    let modules: Vec<&str> = lib
        .lines()
        .filter_map(|line| line.strip_prefix("pub mod "))
        .map(|rest| rest.trim_end_matches(';'))
        .collect();
    assert!(modules.len() >= 10, "{modules:?}");
    for module in modules {
        assert!(layer_of(module).is_some(), "module {module} has no layer");
    }
}
