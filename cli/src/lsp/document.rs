//! An open rule file: its text as the editor has it, positions in the protocol's terms (lines,
//! and columns in UTF-16 code units), and what the checker last found in it.

use super::analysis::Analysis;
use fairy::diagnostic::Span;
use lsp_types::{
    Diagnostic, DiagnosticRelatedInformation, DiagnosticSeverity, Location, NumberOrString,
    Position, Range, TextDocumentContentChangeEvent, Uri,
};

pub struct Document {
    pub text: String,
    /// The file the document's URI names, where it names one on this machine: beside it may
    /// sit the weights file the computer player reads.
    pub path: Option<String>,
    /// The byte offset where each line starts.
    line_starts: Vec<usize>,
    pub analysis: Analysis,
}

impl Document {
    pub fn new(text: String, uri: &str) -> Document {
        let path = url::Url::parse(uri)
            .ok()
            .and_then(|url| url.to_file_path().ok());
        let mut document = Document {
            path: path.map(|path| path.to_string_lossy().into_owned()),
            line_starts: Vec::new(),
            analysis: Analysis::default(),
            text,
        };
        document.index_lines();
        document
    }

    pub fn apply(&mut self, changes: Vec<TextDocumentContentChangeEvent>) {
        for change in changes {
            match change.range {
                Some(range) => {
                    let (start, end) = (self.offset(range.start), self.offset(range.end));
                    self.text.replace_range(start..end.max(start), &change.text);
                }
                None => self.text = change.text,
            }
            self.index_lines();
        }
    }

    fn index_lines(&mut self) {
        let breaks = self.text.match_indices('\n').map(|(i, _)| i + 1);
        self.line_starts = std::iter::once(0).chain(breaks).collect();
    }

    /// Checks the text again.
    pub fn analyse(&mut self) {
        self.analysis = Analysis::of(&self.text);
    }

    /// The byte offset of a protocol position, kept inside the text and on a character
    /// boundary: a position past a line's end is its end.
    pub fn offset(&self, position: Position) -> usize {
        let Some(&start) = self.line_starts.get(position.line as usize) else {
            return self.text.len();
        };
        let line = self.text[start..].split('\n').next().unwrap_or_default();
        let mut units = 0;
        for (i, c) in line.char_indices() {
            if units >= position.character {
                return start + i;
            }
            units += c.len_utf16() as u32;
        }
        start + line.len()
    }

    pub fn position(&self, offset: usize) -> Position {
        let offset = offset.min(self.text.len());
        let line = self.line_starts.partition_point(|&start| start <= offset) - 1;
        let start = self.line_starts[line];
        let before = self.text.get(start..offset).unwrap_or_default();
        Position::new(line as u32, before.encode_utf16().count() as u32)
    }

    pub fn range(&self, span: Span) -> Range {
        Range::new(self.position(span.start), self.position(span.end))
    }

    /// The problems found, as the protocol's diagnostics; a problem's help closes its message
    /// (so that every editor shows it) and is related information too, with its notes.
    pub fn diagnostics(&self, uri: &str) -> Vec<Diagnostic> {
        let uri: Option<Uri> = uri.parse().ok();
        (self.analysis.problems.iter())
            .map(|problem| {
                let severity = match problem.is_error() {
                    true => DiagnosticSeverity::ERROR,
                    false => DiagnosticSeverity::WARNING,
                };
                let mut message = problem.message.clone();
                if !problem.label.is_empty() {
                    message.push_str(&format!("\n{}", problem.label));
                }
                if let Some(help) = &problem.help {
                    message.push_str(&format!("\nhelp: {help}"));
                }
                // The help again at the problem's place, for editors that list related
                // information apart from the message.
                let help =
                    (problem.help.as_deref()).map(|help| (problem.span, format!("help: {help}")));
                let related = uri.as_ref().map(|uri| {
                    (problem.notes.iter().cloned().chain(help))
                        .map(|(span, note)| DiagnosticRelatedInformation {
                            location: Location::new(uri.clone(), self.range(span)),
                            message: note,
                        })
                        .collect()
                });
                Diagnostic {
                    range: self.range(problem.span),
                    severity: Some(severity),
                    code: Some(NumberOrString::String(problem.code.as_str().into())),
                    source: Some("fairy".into()),
                    message,
                    related_information: related.filter(|r: &Vec<_>| !r.is_empty()),
                    ..Diagnostic::default()
                }
            })
            .collect()
    }
}
