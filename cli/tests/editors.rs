//! The editor set-up in `editors/` against the language: the VS Code grammar highlights exactly
//! the keywords that `grammar/rules.pest` reserves, and the extension's manifest points at files
//! that exist. Nothing else checks these files (no editor runs in the tests), so without this a
//! keyword added to the language would silently stay unhighlighted, and a removed one would stay
//! coloured as if it still meant something.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

use serde_json::Value;

fn repository_file(relative: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join(relative)
}

fn read(relative: &str) -> String {
    let path = repository_file(relative);
    fs::read_to_string(&path).unwrap_or_else(|error| panic!("reading {}: {error}", path.display()))
}

fn read_json(relative: &str) -> Value {
    serde_json::from_str(&read(relative))
        .unwrap_or_else(|error| panic!("{relative} is not valid JSON: {error}"))
}

/// The quoted words of the `reserved` rule: every keyword of the language.
fn reserved_words() -> BTreeSet<String> {
    let grammar = read("grammar/rules.pest");
    let start = grammar
        .find("reserved = @{")
        .expect("rules.pest has no `reserved = @{` rule");
    let rule = &grammar[start..];
    let end = rule
        .find(") ~ !ident_char")
        .expect("the reserved rule does not end with `) ~ !ident_char`");
    let words: BTreeSet<String> = rule[..end]
        .lines()
        .map(|line| line.split("//").next().unwrap_or_default())
        .flat_map(|line| line.split('"').skip(1).step_by(2))
        .map(str::to_owned)
        .collect();
    assert!(
        words.len() > 50,
        "only {} reserved words found; has the rule's layout changed?",
        words.len()
    );
    words
}

/// Every regular expression of a TextMate grammar, wherever it is nested.
fn regular_expressions(node: &Value, found: &mut Vec<String>) {
    match node {
        Value::Object(fields) => {
            for (key, value) in fields {
                match (key.as_str(), value) {
                    ("match" | "begin" | "end", Value::String(regex)) => found.push(regex.clone()),
                    _ => regular_expressions(value, found),
                }
            }
        }
        Value::Array(items) => items
            .iter()
            .for_each(|item| regular_expressions(item, found)),
        _ => {}
    }
}

/// The words of each group of `regex` that opens with `opening` and holds nothing but literal
/// words separated by `|`; groups with any other syntax in them are not keyword lists.
fn literal_alternations(regex: &str, opening: &str) -> Vec<Vec<String>> {
    let is_literal = |body: &str| {
        body.contains(|c: char| c.is_ascii_lowercase())
            && body
                .chars()
                .all(|c| c.is_ascii_lowercase() || c == '-' || c == '|')
    };
    regex
        .match_indices(opening)
        .filter(|&(at, _)| !regex[..at].ends_with('\\'))
        .filter_map(|(at, _)| {
            let body = &regex[at + opening.len()..];
            let body = &body[..body.find(')')?];
            is_literal(body).then(|| body.split('|').map(str::to_owned).collect())
        })
        .collect()
}

#[test]
fn the_vscode_grammar_highlights_exactly_the_reserved_words() {
    let reserved = reserved_words();
    let grammar = read_json("editors/vscode/syntaxes/fairy-rules.tmLanguage.json");
    let mut regexes = Vec::new();
    regular_expressions(&grammar, &mut regexes);

    // A word in two keyword lists would get whichever scope happens to come first.
    let mut lists_per_word: BTreeMap<String, usize> = BTreeMap::new();
    let mut unreserved = BTreeSet::new();
    for regex in &regexes {
        for word in literal_alternations(regex, "(?:").into_iter().flatten() {
            if !reserved.contains(&word) {
                unreserved.insert(word.clone());
            }
            *lists_per_word.entry(word).or_default() += 1;
        }
        // Capturing groups (such as the declaring keyword before a name) repeat words from the
        // keyword lists on purpose, so they only have to name real keywords.
        for word in literal_alternations(regex, "(").into_iter().flatten() {
            if !reserved.contains(&word) {
                unreserved.insert(word);
            }
        }
    }
    let missing: Vec<&String> = reserved
        .iter()
        .filter(|word| !lists_per_word.contains_key(*word))
        .collect();
    let repeated: Vec<&String> = lists_per_word
        .iter()
        .filter(|&(_, &lists)| lists > 1)
        .map(|(word, _)| word)
        .collect();
    assert!(
        missing.is_empty() && repeated.is_empty() && unreserved.is_empty(),
        "editors/vscode/syntaxes/fairy-rules.tmLanguage.json has drifted from the `reserved` \
         rule of grammar/rules.pest: each reserved word must be in exactly one `(?:a|b|c)` \
         keyword list.\nmissing: {missing:?}\nin more than one list: {repeated:?}\n\
         not reserved: {unreserved:?}"
    );
}

#[test]
fn the_vscode_manifest_points_at_its_files() {
    let manifest = read_json("editors/vscode/package.json");
    read_json("editors/vscode/language-configuration.json");
    let contributes = &manifest["contributes"];

    let grammar_path = contributes["grammars"][0]["path"]
        .as_str()
        .expect("package.json: contributes.grammars[0].path is not a string");
    let grammar_file = repository_file("editors/vscode").join(grammar_path);
    assert!(
        grammar_file.is_file(),
        "package.json names a missing grammar {grammar_path}"
    );
    let grammar = read_json(&format!("editors/vscode/{grammar_path}"));
    assert_eq!(
        grammar["scopeName"], contributes["grammars"][0]["scopeName"],
        "the grammar's scopeName differs from the one package.json declares"
    );

    let extensions = contributes["languages"][0]["extensions"]
        .as_array()
        .expect("package.json: contributes.languages[0].extensions is not an array");
    assert!(
        extensions.iter().any(|extension| extension == ".rules"),
        "package.json does not claim .rules files: {extensions:?}"
    );
}
