//! Pieces' moves written in Betza's notation for XBoard (`fairy::notation::betza`): the shipped
//! pieces as Betza writes them, and every description read back through the rule language's own
//! Betza reader.

use fairy::notation::betza::betza;
use fairy::pipeline;

fn described(file: &str) -> Vec<(String, Option<String>)> {
    let text = std::fs::read_to_string(file).expect("a shipped file");
    let rules = pipeline::load(&text).rules.expect("playable");
    (0..rules.pieces.kinds.len())
        .map(|kind| (rules.pieces.kinds[kind].letter.clone(), betza(&rules, kind)))
        .collect()
}

fn of<'a>(pieces: &'a [(String, Option<String>)], letter: &str) -> Option<&'a str> {
    let found = pieces.iter().find(|(l, _)| l == letter).expect("the piece");
    found.1.as_deref()
}

#[test]
fn chess_pieces_read_as_betza_writes_them() {
    let pieces = described(concat!(env!("CARGO_MANIFEST_DIR"), "/rules/chess.rules"));
    assert_eq!(of(&pieces, "N"), Some("N"));
    assert_eq!(of(&pieces, "B"), Some("B"));
    assert_eq!(of(&pieces, "R"), Some("R"));
    assert_eq!(of(&pieces, "K"), Some("WF"));
    // The double step's start zone is left out: Betza says it only as a first move.
    assert_eq!(of(&pieces, "P"), Some("fmWfmnDfcF"));
}

/// Every description written for a shipped piece reads back, through the rule language's
/// own Betza reader, as rules that are described the same way.
#[test]
fn every_description_reads_back_as_itself() {
    let folder = concat!(env!("CARGO_MANIFEST_DIR"), "/rules");
    let mut read_back = 0;
    for entry in std::fs::read_dir(folder).expect("rules/") {
        let path = entry.expect("an entry").path();
        if path.extension().is_none_or(|ext| ext != "rules") {
            continue;
        }
        let file = path.to_string_lossy().into_owned();
        for (letter, written) in described(&file) {
            let Some(written) = written.filter(|w| !w.is_empty()) else {
                continue;
            };
            let text = format!(
                "game \"read back\"\nboard 9 x 10\nplayer White forward north\n\
                 player Black forward south\npiece Subject S {{ betza \"{written}\" }}\n\
                 piece Ruler Q {{ royal step all }}\nsetup White {{ Ruler a1 Subject e5 }}\n\
                 setup Black {{ Ruler i10 }}\nlose when checkmated\n"
            );
            let loaded = pipeline::load(&text);
            let rules = loaded.rules.unwrap_or_else(|| {
                panic!(
                    "{file} {letter}: `{written}` does not read: {:?}",
                    loaded.problems
                )
            });
            assert_eq!(
                betza(&rules, 0).as_deref(),
                Some(written.as_str()),
                "{file} {letter}"
            );
            read_back += 1;
        }
    }
    assert!(read_back > 40, "only {read_back} descriptions");
}

#[test]
fn shogi_pieces_keep_their_directions() {
    let pieces = described(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/rules/minishogi.rules"
    ));
    // Gold: orthogonal steps and the two forward diagonals.
    assert_eq!(of(&pieces, "G"), Some("WfF"));
    // Silver: the diagonals and forward.
    assert_eq!(of(&pieces, "S"), Some("fWF"));
}
