//! Golden tests for diagnostics: every broken rule file in `tests/bad/` is checked and its
//! plain-text report is compared with a snapshot in `snapshots/`. Each file starts with a
//! comment saying what it breaks and what should be reported.
//!
//! To accept new or changed reports: `INSTA_UPDATE=always cargo test --test diagnostics`, then
//! read the changed `.snap` files before committing them.

mod common;

use common::rule_files;
use fairy::diagnostic::{Code, FileReport, Problem, render_plain};
use fairy::source::{self, LoadError};
use miette::NamedSource;
use std::path::Path;

/// Loads and checks one file as `fairy check` would: a file that is not text is refused with
/// its own report, any other file is parsed and checked.
fn report_for(path: &Path) -> FileReport {
    let name = format!("tests/bad/{}", path.file_name().unwrap().to_string_lossy());
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("cannot read {name}: {e}"));
    match source::from_bytes(&name, bytes) {
        Ok(source) => FileReport {
            source: NamedSource::new(name, source::printable(&source.text)),
            problems: fairy::pipeline::load_with_cost(&source.text).problems,
        },
        Err(LoadError::NotText(report)) => report,
        Err(LoadError::Unreadable(message)) => panic!("{message}"),
    }
}

#[test]
fn bad_rule_files_match_their_snapshots() {
    let files = rule_files("tests/bad");
    assert!(files.len() >= 32, "expected at least 32 files in tests/bad");
    for path in files {
        let stem = path.file_stem().unwrap().to_string_lossy().into_owned();
        let report = report_for(&path);
        assert!(
            report.problems.iter().any(Problem::is_error),
            "tests/bad/{stem}.rules reports no error"
        );
        let rendered = render_plain(&report, 100);
        insta::with_settings!({
            snapshot_path => "../snapshots",
            prepend_module_to_snapshot => false,
            omit_expression => true,
        }, {
            insta::assert_snapshot!(format!("bad__{stem}"), rendered);
        });
    }
}

#[test]
fn shipped_rule_files_have_no_errors() {
    let files = rule_files("rules");
    assert_eq!(
        files.len(),
        14,
        "expected the fourteen rule files in rules/"
    );
    for path in files {
        let text = std::fs::read_to_string(&path).expect("a readable UTF-8 rule file");
        // No shipped game is costly to play either.
        let errors: Vec<String> = fairy::pipeline::load_with_cost(&text)
            .problems
            .into_iter()
            .filter(|p| p.is_error() || p.code == Code::CostlyPositions)
            .map(|p| p.message)
            .collect();
        assert!(errors.is_empty(), "{}: {errors:?}", path.display());
    }
}

/// A syntax error in one item hides no mistake of another that holds whatever the lost text
/// said: duplicates and rules wrong in their own words are all in one report.
#[test]
fn syntax_errors_hide_no_other_mistake() {
    let report = report_for(Path::new("tests/bad/many-mistakes-at-once.rules"));
    let codes: Vec<&str> = report.problems.iter().map(|p| p.code.as_str()).collect();
    for code in [
        "syntax-error",
        "betza-modifiers-without-atom",
        "letter-twice",
        "duplicate-piece",
        "unknown-zone",
        "square-off-board",
        "leap-never-lands",
        "rank-range-empty",
        "setup-twice",
        "repeated-too-few",
    ] {
        assert!(codes.contains(&code), "{code} missing from {codes:?}");
    }
}

/// Where the checker knows the fix, the problem carries it (editors offer it as a quick fix),
/// and applying it leaves a file without errors.
#[test]
fn known_fixes_are_offered_and_mend_the_file() {
    let chess = common::rule_text("chess");
    let mistakes = [
        ("lose when checkmated", "lose when checkmatd", "checkmated"),
        (
            "capture step diagonal-forward",
            "capture step forward-diagonal",
            "diagonal-forward",
        ),
        (
            "Queen Rook Bishop Knight in",
            "Queen Rook Bishop Knigt in",
            "Knight",
        ),
        ("in last-rank", "in a8", "{ a8 }"),
        (
            "piece Knight N { leap (1,2) }",
            "piece Knight N { leap (1,2)",
            "\n}",
        ),
    ];
    for (right, wrong, fixed) in mistakes {
        let text = chess.replace(right, wrong);
        let problems = fairy::pipeline::load(&text).problems;
        let fix = (problems.iter())
            .find_map(|p| p.fix.as_ref())
            .unwrap_or_else(|| panic!("no fix for `{wrong}`: {problems:#?}"));
        assert_eq!(fix.text, fixed, "`{wrong}`");
        let mut mended = text.clone();
        mended.replace_range(fix.span.start..fix.span.end, &fix.text);
        let left: Vec<Problem> = (fairy::pipeline::load(&mended).problems.into_iter())
            .filter(Problem::is_error)
            .collect();
        assert!(left.is_empty(), "`{wrong}` mended still has {left:#?}");
    }
}
