//! Problems found in a rule file: where a problem is (a byte span of the text), what kind it is
//! (a stable [`Code`]), what it says, and how many a report shows. Every stage reports through
//! these types; [`report`] renders them, [`suggest`] finds the names a near miss meant.

mod code;
mod report;
mod suggest;
mod window;

pub use code::Code;
pub use report::{FileReport, render, render_plain};
pub use suggest::closest;

use crate::limits::MAX_PROBLEMS;
use miette::{Diagnostic, LabeledSpan, Severity};
use std::fmt;

/// A byte range in the source text.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Span {
    pub start: usize,
    pub end: usize,
}

impl Span {
    pub fn new(start: usize, end: usize) -> Self {
        Span { start, end }
    }

    pub fn len(self) -> usize {
        self.end - self.start
    }

    pub fn is_empty(self) -> bool {
        self.start == self.end
    }
}

impl From<Span> for miette::SourceSpan {
    fn from(span: Span) -> Self {
        (span.start, span.len()).into()
    }
}

/// One located problem: an error, or a warning that does not stop the file from being used.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    pub severity: Severity,
    /// What kind of problem it is, for tools; the message says it for people.
    pub code: Code,
    pub message: String,
    pub span: Span,
    pub label: String,
    /// Boxed as `str`, to keep a problem small: it is passed around by value.
    pub help: Option<Box<str>>,
    /// Further places that explain the problem, such as an earlier definition.
    pub notes: Vec<(Span, String)>,
    /// Whether the problem is judged from the words at its place alone (a name or square that
    /// does not exist), so that it holds even when other parts of the file did not parse.
    pub local: bool,
    /// The edit that mends the problem, where it is known for sure (a near miss of a name,
    /// a missing bracket), for editors to offer.
    /// Boxed: most problems have none, and every problem is passed around by value.
    pub fix: Option<Box<Fix>>,
}

/// Text to put in place of a span of the source (an empty span inserts).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fix {
    pub span: Span,
    pub text: String,
}

impl Problem {
    pub fn error(
        code: Code,
        message: impl Into<String>,
        span: Span,
        label: impl Into<String>,
    ) -> Self {
        Problem {
            severity: Severity::Error,
            code,
            message: message.into(),
            span,
            label: label.into(),
            help: None,
            notes: Vec::new(),
            local: false,
            fix: None,
        }
    }

    pub fn warning(
        code: Code,
        message: impl Into<String>,
        span: Span,
        label: impl Into<String>,
    ) -> Self {
        Problem {
            severity: Severity::Warning,
            ..Problem::error(code, message, span, label)
        }
    }

    pub fn with_help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into().into_boxed_str());
        self
    }

    pub fn with_note(mut self, span: Span, note: impl Into<String>) -> Self {
        self.notes.push((span, note.into()));
        self
    }

    /// Offers `text` in place of the problem's own span.
    pub fn with_replacement(mut self, text: impl Into<String>) -> Self {
        self.fix = Some(Box::new(Fix {
            span: self.span,
            text: text.into(),
        }));
        self
    }

    /// Offers an edit elsewhere than the problem's span.
    pub fn with_fix(mut self, span: Span, text: impl Into<String>) -> Self {
        self.fix = Some(Box::new(Fix {
            span,
            text: text.into(),
        }));
        self
    }

    /// Marks the problem as judged from its place alone.
    pub fn local(mut self) -> Self {
        self.local = true;
        self
    }

    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Problem {}

impl Diagnostic for Problem {
    fn code<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        Some(Box::new(self.code.as_str()))
    }

    fn severity(&self) -> Option<Severity> {
        Some(self.severity)
    }

    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        self.help
            .as_ref()
            .map(|h| Box::new(h) as Box<dyn fmt::Display>)
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        let main = LabeledSpan::new_primary_with_span(Some(self.label.clone()), self.span);
        let notes = self
            .notes
            .iter()
            .map(|(span, text)| LabeledSpan::new_with_span(Some(text.clone()), *span));
        Some(Box::new(std::iter::once(main).chain(notes)))
    }
}

/// Line and column of byte `at`, both from 1, the column counted in characters.
pub fn line_and_column(text: &str, at: usize) -> (usize, usize) {
    let at = at.min(text.len());
    let before = text.get(..at).unwrap_or(text);
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    (
        before.matches('\n').count() + 1,
        before[line_start..].chars().count() + 1,
    )
}

/// Keeps the first [`MAX_PROBLEMS`] problems and says how many more there were.
pub fn limit_problems(problems: &mut Vec<Problem>) {
    if problems.len() <= MAX_PROBLEMS {
        return;
    }
    let hidden = problems.split_off(MAX_PROBLEMS);
    let errors = hidden.iter().filter(|p| p.is_error()).count();
    let last = problems[MAX_PROBLEMS - 1].span;
    let message = format!(
        "{} more problems ({errors} of them errors) are not shown",
        hidden.len()
    );
    let note = match errors {
        0 => Problem::warning(Code::MoreProblems, message, last, "after this one"),
        _ => Problem::error(Code::MoreProblems, message, last, "after this one"),
    };
    problems.push(note.with_help("fix these first, then check again"));
}
