//! Completion: the keywords the grammar allows at the cursor, and, where it allows them, the
//! file's own names, direction words and the squares of its board.

use super::document::Document;
use super::glossary;
use super::symbols::Names;
use fairy::check::NameKind;
use fairy::syntax::expect::{Expected, expected_after};
use lsp_types::{CompletionItem, CompletionItemKind, Documentation, MarkupContent, MarkupKind};

pub fn complete(document: &Document, offset: usize) -> Vec<CompletionItem> {
    let before = &document.text[..offset];
    let typed = before.len() - before.trim_end_matches(is_word_char).len();
    let names = Names::of(&document.text);
    let expected = expected_after(&before[..offset - typed]).unwrap_or_else(|| Expected {
        words: Vec::new(),
        name: true,
        square: false,
    });
    let mut items: Vec<CompletionItem> = Vec::new();
    let words = match expected.words.is_empty() && expected.name {
        // The grammar could not tell: every keyword may do.
        true if !expected.square => glossary::keywords(),
        _ => expected.words.iter().map(|w| w.to_string()).collect(),
    };
    items.extend(words.into_iter().map(keyword));
    if expected.name {
        items.extend(declared(&names));
    }
    if expected.square {
        items.extend(
            squares(document, &names)
                .into_iter()
                .map(|square| CompletionItem {
                    label: square,
                    kind: Some(CompletionItemKind::VALUE),
                    ..CompletionItem::default()
                }),
        );
    }
    items
}

fn is_word_char(c: char) -> bool {
    c.is_alphanumeric() || matches!(c, '-' | '_' | '+')
}

fn keyword(word: String) -> CompletionItem {
    let entry = glossary::entry(&word);
    let direction = fairy::syntax::expect::is_direction(&word);
    CompletionItem {
        kind: Some(match direction {
            true => CompletionItemKind::ENUM_MEMBER,
            false => CompletionItemKind::KEYWORD,
        }),
        documentation: entry.map(|entry| {
            Documentation::MarkupContent(MarkupContent {
                kind: MarkupKind::Markdown,
                value: format!("{}\n\n`{}`", entry.text, entry.example),
            })
        }),
        label: word,
        ..CompletionItem::default()
    }
}

fn declared(names: &Names<'_>) -> Vec<CompletionItem> {
    let mut items: Vec<CompletionItem> = Vec::new();
    for declaration in &names.declarations {
        if items.iter().any(|item| item.label == declaration.name) {
            continue;
        }
        items.push(CompletionItem {
            label: declaration.name.clone(),
            kind: Some(match declaration.kind {
                NameKind::Piece => CompletionItemKind::CLASS,
                NameKind::Zone => CompletionItemKind::MODULE,
                NameKind::Player => CompletionItemKind::ENUM,
                NameKind::Counter => CompletionItemKind::VARIABLE,
                NameKind::Phase => CompletionItemKind::EVENT,
                NameKind::MoveTag => CompletionItemKind::CONSTANT,
            }),
            detail: Some(declaration.kind.word().to_string()),
            ..CompletionItem::default()
        });
    }
    items
}

/// The squares of the board, in order from `a1`: the compiled board's when the file can be
/// played, else every square of the rectangle its `board` item gives.
fn squares(document: &Document, names: &Names<'_>) -> Vec<String> {
    if let Some(rules) = &document.analysis.rules {
        let geometry = &rules.geometry;
        return (0..geometry.squares())
            .map(|sq| geometry.name(sq as _))
            .collect();
    }
    let size: Vec<u32> = (names.words.iter())
        .skip_while(|w| w.text != "board")
        .skip(1)
        .take(3)
        .filter_map(|w| w.text.parse().ok())
        .collect();
    let [width, height] = size[..] else {
        return Vec::new();
    };
    let (width, height) = (width.min(26), height.min(26));
    (1..=height)
        .flat_map(|rank| {
            (0..width).map(move |file| format!("{}{rank}", char::from(b'a' + file as u8)))
        })
        .collect()
}
