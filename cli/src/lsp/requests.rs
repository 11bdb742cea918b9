//! The requests the server answers, each about one open document: hover, definitions and
//! references, completion, the outline, highlighting, formatting and fixes.

use super::document::Document;
use super::symbols::Names;
use super::{complete, hover};
use fairy::check::NameKind;
use fairy::syntax::format::format;
use fairy::syntax::is_keyword;
use fairy::syntax::tokens::{Kind, tokens};
use lsp_server::{ErrorCode, Request, Response};
use lsp_types::request::{
    CodeActionRequest, Completion, DocumentSymbolRequest, Formatting, GotoDefinition, HoverRequest,
    References, Request as _, SemanticTokensFullRequest,
};
use lsp_types::{
    CodeAction, CodeActionKind, CodeActionOrCommand, CodeActionParams, CompletionParams,
    DocumentFormattingParams, DocumentSymbol, DocumentSymbolParams, GotoDefinitionParams, Hover,
    HoverContents, HoverParams, Location, MarkupContent, MarkupKind, Range, ReferenceParams,
    SemanticToken, SemanticTokenType, SemanticTokens, SemanticTokensFullOptions,
    SemanticTokensLegend, SemanticTokensOptions, SemanticTokensParams, ServerCapabilities,
    SymbolKind, TextDocumentSyncCapability, TextDocumentSyncKind, TextEdit, Uri, WorkspaceEdit,
};
use serde::de::DeserializeOwned;
use std::collections::HashMap;

pub fn capabilities() -> ServerCapabilities {
    ServerCapabilities {
        text_document_sync: Some(TextDocumentSyncCapability::Kind(
            TextDocumentSyncKind::INCREMENTAL,
        )),
        hover_provider: Some(true.into()),
        definition_provider: Some(lsp_types::OneOf::Left(true)),
        references_provider: Some(lsp_types::OneOf::Left(true)),
        completion_provider: Some(lsp_types::CompletionOptions::default()),
        document_symbol_provider: Some(lsp_types::OneOf::Left(true)),
        document_formatting_provider: Some(lsp_types::OneOf::Left(true)),
        code_action_provider: Some(true.into()),
        semantic_tokens_provider: Some(
            SemanticTokensOptions {
                legend: SemanticTokensLegend {
                    token_types: TOKEN_TYPES.to_vec(),
                    token_modifiers: Vec::new(),
                },
                full: Some(SemanticTokensFullOptions::Bool(true)),
                range: None,
                ..SemanticTokensOptions::default()
            }
            .into(),
        ),
        ..ServerCapabilities::default()
    }
}

/// Answers a request; an unknown document gets a null result, as it may have just closed.
pub fn answer(documents: &HashMap<String, Document>, request: Request) -> Response {
    let id = request.id.clone();
    let result = match request.method.as_str() {
        HoverRequest::METHOD => with(request, |p: HoverParams| {
            let at = &p.text_document_position_params;
            on(documents, &at.text_document.uri, |d| {
                hover_at(d, d.offset(at.position))
            })
        }),
        GotoDefinition::METHOD => with(request, |p: GotoDefinitionParams| {
            let at = &p.text_document_position_params;
            let uri = &at.text_document.uri;
            on(documents, uri, |d| {
                definitions(d, uri, d.offset(at.position))
            })
        }),
        References::METHOD => with(request, |p: ReferenceParams| {
            let at = &p.text_document_position;
            let uri = &at.text_document.uri;
            let with_declarations = p.context.include_declaration;
            on(documents, uri, |d| {
                references(d, uri, d.offset(at.position), with_declarations)
            })
        }),
        Completion::METHOD => with(request, |p: CompletionParams| {
            let at = &p.text_document_position;
            on(documents, &at.text_document.uri, |d| {
                complete::complete(d, d.offset(at.position))
            })
        }),
        DocumentSymbolRequest::METHOD => with(request, |p: DocumentSymbolParams| {
            on(documents, &p.text_document.uri, outline)
        }),
        SemanticTokensFullRequest::METHOD => with(request, |p: SemanticTokensParams| {
            on(documents, &p.text_document.uri, highlight)
        }),
        Formatting::METHOD => with(request, |p: DocumentFormattingParams| {
            on(documents, &p.text_document.uri, formatted)
        }),
        CodeActionRequest::METHOD => with(request, |p: CodeActionParams| {
            let uri = &p.text_document.uri;
            on(documents, uri, |d| fixes(d, uri, p.range))
        }),
        _ => Err((
            ErrorCode::MethodNotFound,
            format!("no method `{}`", request.method),
        )),
    };
    match result {
        Ok(value) => Response::new_ok(id, value),
        Err((code, message)) => Response::new_err(id, code as i32, message),
    }
}

type Answer = Result<serde_json::Value, (ErrorCode, String)>;

/// Reads a request's parameters and answers it.
fn with<P: DeserializeOwned>(
    request: Request,
    answer: impl FnOnce(P) -> serde_json::Value,
) -> Answer {
    match serde_json::from_value::<P>(request.params) {
        Ok(params) => Ok(answer(params)),
        Err(error) => Err((ErrorCode::InvalidParams, format!("bad parameters: {error}"))),
    }
}

fn on<T: serde::Serialize>(
    documents: &HashMap<String, Document>,
    uri: &Uri,
    answer: impl FnOnce(&Document) -> T,
) -> serde_json::Value {
    match documents.get(uri.as_str()) {
        Some(document) => serde_json::to_value(answer(document)).unwrap_or_default(),
        None => serde_json::Value::Null,
    }
}

fn hover_at(document: &Document, offset: usize) -> Option<Hover> {
    let (text, span) = hover::hover(document, offset)?;
    Some(Hover {
        contents: HoverContents::Markup(MarkupContent {
            kind: MarkupKind::Markdown,
            value: text,
        }),
        range: Some(document.range(span)),
    })
}

fn definitions(document: &Document, uri: &Uri, offset: usize) -> Vec<Location> {
    let names = Names::of(&document.text);
    let Some(word) = names.word_at(offset) else {
        return Vec::new();
    };
    (names.declared(word.text))
        .map(|declaration| Location::new(uri.clone(), document.range(declaration.span)))
        .collect()
}

fn references(
    document: &Document,
    uri: &Uri,
    offset: usize,
    with_declarations: bool,
) -> Vec<Location> {
    let names = Names::of(&document.text);
    let Some(word) = names.word_at(offset) else {
        return Vec::new();
    };
    let declared: Vec<_> = names.declared(word.text).map(|d| d.span).collect();
    if declared.is_empty() {
        return Vec::new();
    }
    (names.uses(word.text))
        .filter(|span| with_declarations || !declared.contains(span))
        .map(|span| Location::new(uri.clone(), document.range(span)))
        .collect()
}

/// The outline: one symbol per top-level item, named by what it declares or says.
#[allow(deprecated)] // `DocumentSymbol::deprecated` must still be given.
fn outline(document: &Document) -> Vec<DocumentSymbol> {
    let names = Names::of(&document.text);
    (names.items.iter())
        .map(|item| {
            let range = document.range(item.span);
            let (name, selection) = match &item.title {
                Some((title, span)) if title_names(&item.keyword) => {
                    (format!("{} {title}", item.keyword), document.range(*span))
                }
                _ => {
                    let line = document.text[item.span.start..item.span.end].lines().next();
                    let line = line.unwrap_or_default().trim_end_matches(['{', ' ']);
                    (line.to_string(), range)
                }
            };
            DocumentSymbol {
                name,
                detail: None,
                kind: symbol_kind(&item.keyword),
                tags: None,
                deprecated: None,
                range,
                selection_range: selection,
                children: None,
            }
        })
        .collect()
}

/// Whether the word after an item's keyword names it.
fn title_names(keyword: &str) -> bool {
    let named = [
        "game", "player", "piece", "zone", "counter", "phase", "setup", "test",
    ];
    named.contains(&keyword)
}

fn symbol_kind(keyword: &str) -> SymbolKind {
    match keyword {
        "game" => SymbolKind::FILE,
        "board" => SymbolKind::STRUCT,
        "player" => SymbolKind::ENUM_MEMBER,
        "piece" => SymbolKind::CLASS,
        "zone" => SymbolKind::NAMESPACE,
        "counter" => SymbolKind::VARIABLE,
        "turn" | "phase" => SymbolKind::FUNCTION,
        "win" | "lose" | "draw" | "on" => SymbolKind::EVENT,
        "setup" => SymbolKind::CONSTRUCTOR,
        "test" => SymbolKind::METHOD,
        _ => SymbolKind::PROPERTY,
    }
}

/// The token types of the highlighting, in the legend's order.
const TOKEN_TYPES: [SemanticTokenType; 13] = [
    SemanticTokenType::KEYWORD,
    SemanticTokenType::COMMENT,
    SemanticTokenType::STRING,
    SemanticTokenType::NUMBER,
    SemanticTokenType::ENUM_MEMBER,
    SemanticTokenType::CLASS,
    SemanticTokenType::NAMESPACE,
    SemanticTokenType::ENUM,
    SemanticTokenType::VARIABLE,
    SemanticTokenType::EVENT,
    SemanticTokenType::MACRO,
    SemanticTokenType::OPERATOR,
    SemanticTokenType::TYPE,
];

fn token_type(wanted: SemanticTokenType) -> u32 {
    TOKEN_TYPES
        .iter()
        .position(|t| *t == wanted)
        .unwrap_or_default() as u32
}

/// Highlighting by meaning: keywords, directions, and each name by the kind it names.
fn highlight(document: &Document) -> SemanticTokens {
    let names = Names::of(&document.text);
    let mut previous = lsp_types::Position::new(0, 0);
    let mut data = Vec::new();
    for token in tokens(&document.text) {
        let Some(kind) = classify(&names, token.kind, token.text) else {
            continue;
        };
        // A token may not span lines: a block comment is given line by line.
        let mut at = token.at;
        for part in token.text.split('\n') {
            let start = document.position(at);
            let length = part.encode_utf16().count() as u32;
            at += part.len() + 1;
            if length == 0 {
                continue;
            }
            let delta_line = start.line - previous.line;
            let delta_start = match delta_line {
                0 => start.character - previous.character,
                _ => start.character,
            };
            data.push(SemanticToken {
                delta_line,
                delta_start,
                length,
                token_type: token_type(kind.clone()),
                token_modifiers_bitset: 0,
            });
            previous = start;
        }
    }
    SemanticTokens {
        result_id: None,
        data,
    }
}

fn classify(names: &Names<'_>, kind: Kind, text: &str) -> Option<SemanticTokenType> {
    Some(match kind {
        Kind::LineComment | Kind::BlockComment => SemanticTokenType::COMMENT,
        Kind::String => SemanticTokenType::STRING,
        Kind::Range => SemanticTokenType::OPERATOR,
        Kind::Word if fairy::syntax::expect::is_direction(text) => SemanticTokenType::ENUM_MEMBER,
        Kind::Word if is_keyword(text) => SemanticTokenType::KEYWORD,
        Kind::Word if text.starts_with(|c: char| c.is_ascii_digit()) => SemanticTokenType::NUMBER,
        Kind::Word => match names.declared(text).next()?.kind {
            NameKind::Piece => SemanticTokenType::CLASS,
            NameKind::Zone => SemanticTokenType::NAMESPACE,
            NameKind::Player => SemanticTokenType::ENUM,
            NameKind::Counter => SemanticTokenType::VARIABLE,
            NameKind::Phase => SemanticTokenType::EVENT,
            NameKind::MoveTag => SemanticTokenType::MACRO,
        },
        _ => return None,
    })
}

/// The whole text in the canonical layout; no edit where it is already, or does not parse.
fn formatted(document: &Document) -> Vec<TextEdit> {
    match format(&document.text) {
        Ok(text) if text != document.text => {
            let whole = document.range(fairy::diagnostic::Span::new(0, document.text.len()));
            vec![TextEdit::new(whole, text)]
        }
        _ => Vec::new(),
    }
}

/// The fixes the checker knows for the problems in a range.
fn fixes(document: &Document, uri: &Uri, range: Range) -> Vec<CodeActionOrCommand> {
    let (start, end) = (document.offset(range.start), document.offset(range.end));
    let diagnostics = document.diagnostics(uri.as_str());
    (document.analysis.problems.iter().zip(diagnostics))
        .filter(|(problem, _)| problem.span.start <= end && start <= problem.span.end)
        .filter_map(|(problem, diagnostic)| {
            let fix = problem.fix.as_ref()?;
            let title = match (fix.span.is_empty(), fix.text.trim()) {
                (true, text) => format!("Insert `{text}`"),
                (false, text) => format!(
                    "Change `{}` to `{text}`",
                    &document.text[fix.span.start..fix.span.end]
                ),
            };
            let edit = TextEdit::new(document.range(fix.span), fix.text.clone());
            Some(CodeActionOrCommand::CodeAction(CodeAction {
                title,
                kind: Some(CodeActionKind::QUICKFIX),
                diagnostics: Some(vec![diagnostic]),
                edit: Some(WorkspaceEdit {
                    changes: Some(HashMap::from([(uri.clone(), vec![edit])])),
                    ..WorkspaceEdit::default()
                }),
                is_preferred: Some(true),
                ..CodeAction::default()
            }))
        })
        .collect()
}
