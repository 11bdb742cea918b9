//! `fairy fmt`'s layout: the shipped rule files are in it, formatting is idempotent on every rule
//! file of the project, and it never changes what a file means (the compiled rules and the
//! checker's verdict are the same before and after).

mod common;

use common::rule_files;
use fairy::pipeline;
use fairy::syntax::format::format;
use std::path::Path;

fn text(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn shipped_files_are_in_the_canonical_layout() {
    for path in rule_files("rules")
        .into_iter()
        .chain(rule_files("variants"))
    {
        let text = text(&path);
        let formatted = format(&text).expect("a shipped file parses");
        assert!(
            formatted == text,
            "{} is not formatted: run `fairy fmt` on it",
            path.display()
        );
    }
}

/// What a file means, as far as a change of layout could alter it: the compiled rules and the
/// problems found, without their places.
fn meaning(text: &str) -> String {
    let loaded = pipeline::load(text);
    let problems: Vec<(&str, &str)> = (loaded.problems.iter())
        .map(|p| (p.code.as_str(), p.message.as_str()))
        .collect();
    common::without_spans(&format!(
        "{:?}\n{problems:?}\n{:?}",
        loaded.rules, loaded.tests
    ))
}

#[test]
fn formatting_is_idempotent_and_keeps_the_meaning() {
    let folders = [
        "rules",
        "variants",
        "tests/concepts",
        "tests/costly",
        "tests/variants",
        "tests/bad",
    ];
    let mut formatted_files = 0;
    for path in folders.iter().flat_map(|folder| rule_files(folder)) {
        // A file that is not text, or does not parse, is not formatted.
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        let Ok(once) = format(&text) else {
            continue;
        };
        formatted_files += 1;
        let twice = format(&once).expect("a formatted file parses");
        assert!(
            twice == once,
            "{}: a second pass changes the layout",
            path.display()
        );
        assert!(
            meaning(&once) == meaning(&text),
            "{}: formatting changes the meaning",
            path.display()
        );
    }
    assert!(
        formatted_files > 250,
        "only {formatted_files} files were formatted"
    );
}

#[test]
fn a_file_that_does_not_parse_is_refused() {
    let problems = format("game \"x\"\nboard 8 x\n").expect_err("a syntax error");
    assert!(problems.iter().any(|p| p.is_error()));
}

#[test]
fn the_layout_indents_spaces_and_aligns_comments() {
    let messy = "\n\n// A game.\ngame   \"Tiny\"\nboard 3 x 3\nplayer White forward north // first\n\
                 player Black forward south    // second\n\n\n\npiece King K {\n\n royal\n      step all\n\n}\n\
                 piece Rook R { slide orthogonal leap ( 1 , 2 ) }\nsetup White { King a1 Rook b1 c1 }\n\
                 setup Black {King c3}\nlose when checkmated\n  // stalemate too\n\n";
    let expected = "// A game.\ngame \"Tiny\"\nboard 3 x 3\nplayer White forward north  // first\n\
                    player Black forward south  // second\n\npiece King K {\n  royal\n  step all\n}\n\
                    piece Rook R { slide orthogonal  leap (1,2) }\nsetup White { King a1  Rook b1 c1 }\n\
                    setup Black { King c3 }\nlose when checkmated\n// stalemate too\n";
    assert_eq!(format(messy).expect("it parses"), expected);
}

#[test]
fn comments_keep_their_place_and_their_blank_lines() {
    let text = "game \"x\"\n/* a block */\n// Written as: piece X x {\n\nboard 8 x 8 /* size */\n";
    assert_eq!(format(text).expect("it parses"), text);
    let crlf = "game \"x\"\r\n/* two\r\n   lines */\r\nboard 8 x 8\r\n";
    assert_eq!(format(crlf).expect("it parses"), crlf.replace("\r\n", "\n"));
}
