//! The names of a rule file, read from its words as written, so that they are known while the
//! file is broken too: the items, what each declares, and where every name is used. A name is
//! declared by the word that is not a keyword after an item's keyword (`piece Knight`) or after
//! `as` (a move tag) on the same line; names are per kind, so one word may name a piece and a
//! zone at once.

use fairy::check::NameKind;
use fairy::diagnostic::Span;
use fairy::syntax::is_keyword;
use fairy::syntax::tokens::{Kind, Token, tokens};

/// The kind of name an item declares, by its keyword.
fn declared_by(keyword: &str) -> Option<NameKind> {
    match keyword {
        "player" => Some(NameKind::Player),
        "piece" => Some(NameKind::Piece),
        "zone" => Some(NameKind::Zone),
        "counter" => Some(NameKind::Counter),
        "phase" => Some(NameKind::Phase),
        _ => None,
    }
}

/// Where a name is declared, and as what.
pub struct Declaration {
    pub kind: NameKind,
    pub name: String,
    pub span: Span,
    /// The item it is declared in (for a tag, the piece).
    pub item: usize,
}

/// One top-level item: its keyword, where it is, and what it is called where it has a name.
pub struct Item {
    pub keyword: String,
    pub span: Span,
    /// The item's name or title and where it is written (`Knight`, `"Chess"`).
    pub title: Option<(String, Span)>,
}

pub struct Names<'a> {
    pub items: Vec<Item>,
    pub declarations: Vec<Declaration>,
    /// Every word outside comments and strings.
    pub words: Vec<Token<'a>>,
}

impl<'a> Names<'a> {
    pub fn of(text: &'a str) -> Names<'a> {
        let code: Vec<Token<'a>> = tokens(text)
            .filter(|t| !matches!(t.kind, Kind::LineComment | Kind::BlockComment))
            .collect();
        let items = items(text, &code);
        let mut declarations = Vec::new();
        for (i, token) in code.iter().enumerate() {
            // A word before the first item belongs to no item, and declares nothing.
            let Some(item) = items
                .partition_point(|it| it.span.start <= token.at)
                .checked_sub(1)
            else {
                continue;
            };
            let starts_item = items[item].span.start == token.at;
            let kind = match token.text {
                "as" => Some(NameKind::MoveTag),
                keyword if starts_item => declared_by(keyword),
                _ => None,
            };
            let name = code.get(i + 1).filter(|next| {
                next.kind == Kind::Word
                    && !text[token.at..next.at].contains('\n')
                    && !is_keyword(next.text)
            });
            if let (Some(kind), Some(name)) = (kind, name) {
                declarations.push(Declaration {
                    kind,
                    name: name.text.to_string(),
                    span: span_of(name),
                    item,
                });
            }
        }
        let words = code.into_iter().filter(|t| t.kind == Kind::Word).collect();
        Names {
            items,
            declarations,
            words,
        }
    }

    /// The word at a byte offset (touching it at either end).
    pub fn word_at(&self, offset: usize) -> Option<Token<'a>> {
        let i = self.words.partition_point(|w| w.at + w.text.len() < offset);
        self.words.get(i).copied().filter(|w| w.at <= offset)
    }

    /// The declarations of a name, of any kind.
    pub fn declared(&self, name: &str) -> impl Iterator<Item = &Declaration> {
        self.declarations.iter().filter(move |d| d.name == name)
    }

    /// Every place a name is written, its declarations included.
    pub fn uses(&self, name: &str) -> impl Iterator<Item = Span> {
        (self.words.iter())
            .filter(move |w| w.text == name)
            .map(span_of)
    }
}

pub fn span_of(token: &Token<'_>) -> Span {
    Span::new(token.at, token.at + token.text.len())
}

/// The top-level items: each starts with the first word of a line outside any bracket.
fn items(text: &str, code: &[Token<'_>]) -> Vec<Item> {
    let mut items: Vec<Item> = Vec::new();
    let mut depth = 0usize;
    let mut last_end = 0;
    for (i, token) in code.iter().enumerate() {
        let line_start = i == 0 || text[last_end..token.at].contains('\n');
        if depth == 0 && line_start && token.kind == Kind::Word {
            if let Some(open) = items.last_mut() {
                open.span.end = last_end;
            }
            items.push(Item {
                keyword: token.text.to_string(),
                span: Span::new(token.at, token.at + token.text.len()),
                title: code
                    .get(i + 1)
                    .filter(|t| matches!(t.kind, Kind::Word | Kind::String))
                    .map(|t| (t.text.to_string(), span_of(t))),
            });
        }
        match token.kind {
            Kind::Open => depth += 1,
            Kind::Close => depth = depth.saturating_sub(1),
            _ => {}
        }
        last_end = token.at + token.text.len();
    }
    if let Some(open) = items.last_mut() {
        open.span.end = last_end;
    }
    items
}
