//! Problems found in a rule file, and the one miette report that carries all of them: where
//! a problem is (a byte span of the text), what it says, how many a report shows, and the
//! did-you-mean suggestions every stage offers for a near miss.

use miette::{Diagnostic, LabeledSpan, NamedSource, Severity};
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
    pub message: String,
    pub span: Span,
    pub label: String,
    pub help: Option<String>,
    /// Further places that explain the problem, such as an earlier definition.
    pub notes: Vec<(Span, String)>,
    /// Whether the problem is judged from the words at its place alone (a name or square that
    /// does not exist), so that it holds even when other parts of the file did not parse.
    pub local: bool,
}

impl Problem {
    pub fn error(message: impl Into<String>, span: Span, label: impl Into<String>) -> Self {
        Problem {
            severity: Severity::Error,
            message: message.into(),
            span,
            label: label.into(),
            help: None,
            notes: Vec::new(),
            local: false,
        }
    }

    pub fn warning(message: impl Into<String>, span: Span, label: impl Into<String>) -> Self {
        Problem {
            severity: Severity::Warning,
            ..Problem::error(message, span, label)
        }
    }

    pub fn with_help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }

    pub fn with_note(mut self, span: Span, note: impl Into<String>) -> Self {
        self.notes.push((span, note.into()));
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

/// Every problem of one file, rendered as a single report over its source text.
#[derive(Debug)]
pub struct FileReport {
    pub source: NamedSource<String>,
    pub problems: Vec<Problem>,
}

impl FileReport {
    pub fn errors(&self) -> usize {
        self.problems.iter().filter(|p| p.is_error()).count()
    }
}

impl fmt::Display for FileReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let errors = self.errors();
        let warnings = self.problems.len() - errors;
        let plural = |n: usize, word: &str| format!("{n} {word}{}", if n == 1 { "" } else { "s" });
        match (errors, warnings) {
            (0, w) => write!(f, "{}: {}", self.source.name(), plural(w, "warning")),
            (e, 0) => write!(f, "{}: {}", self.source.name(), plural(e, "error")),
            (e, w) => write!(
                f,
                "{}: {} and {}",
                self.source.name(),
                plural(e, "error"),
                plural(w, "warning")
            ),
        }
    }
}

impl std::error::Error for FileReport {}

impl Diagnostic for FileReport {
    fn severity(&self) -> Option<Severity> {
        Some(if self.errors() > 0 {
            Severity::Error
        } else {
            Severity::Warning
        })
    }

    fn source_code(&self) -> Option<&dyn miette::SourceCode> {
        Some(&self.source)
    }

    fn related<'a>(&'a self) -> Option<Box<dyn Iterator<Item = &'a dyn Diagnostic> + 'a>> {
        Some(Box::new(self.problems.iter().map(|p| p as &dyn Diagnostic)))
    }
}

/// Renders a report as plain text: no colour, fixed width, as the tests and pipes see it.
pub fn render_plain(report: &FileReport, width: usize) -> String {
    render(report, width, false)
}

/// Renders a report, in colour or not, wrapped at `width` columns: a line naming the file and
/// counting its problems, then each problem over the source text.
pub fn render(report: &FileReport, width: usize, colour: bool) -> String {
    let theme = if colour {
        miette::GraphicalTheme::unicode()
    } else {
        miette::GraphicalTheme::unicode_nocolor()
    };
    let handler = miette::GraphicalReportHandler::new_themed(theme).with_width(width);
    let rendered = |diagnostic: &dyn Diagnostic| {
        let mut out = String::new();
        handler
            .render_report(&mut out, diagnostic)
            .expect("rendering into a String cannot fail");
        out
    };
    let mut parts = vec![rendered(&Summary(report))];
    parts.extend(report.problems.iter().map(|problem| {
        rendered(&Located {
            problem,
            source: &report.source,
        })
    }));
    parts.join("\n")
}

/// The line that heads a file's report.
#[derive(Debug)]
struct Summary<'a>(&'a FileReport);

impl fmt::Display for Summary<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl std::error::Error for Summary<'_> {}

impl Diagnostic for Summary<'_> {
    fn severity(&self) -> Option<Severity> {
        self.0.severity()
    }
}

/// One problem over the file's source text.
#[derive(Debug)]
struct Located<'a> {
    problem: &'a Problem,
    source: &'a NamedSource<String>,
}

impl fmt::Display for Located<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.problem.fmt(f)
    }
}

impl std::error::Error for Located<'_> {}

impl Diagnostic for Located<'_> {
    fn severity(&self) -> Option<Severity> {
        self.problem.severity()
    }

    fn help<'b>(&'b self) -> Option<Box<dyn fmt::Display + 'b>> {
        self.problem.help()
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        self.problem.labels()
    }

    fn source_code(&self) -> Option<&dyn miette::SourceCode> {
        Some(self.source)
    }
}

/// Reports show at most this many problems: past it, the rest add nothing a reader can act on
/// and only make the report slow to print.
pub const MAX_PROBLEMS: usize = 50;

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
        0 => Problem::warning(message, last, "after this one"),
        _ => Problem::error(message, last, "after this one"),
    };
    problems.push(note.with_help("fix these first, then check again"));
}

/// The candidate most like `word`, if any is close enough to be a likely typo.
pub fn closest<'a>(word: &str, candidates: impl Iterator<Item = &'a str>) -> Option<&'a str> {
    // Longer words are not typos worth suggesting, and would make the comparison slow.
    const LONGEST: usize = 64;
    let length = word.chars().count();
    if length > LONGEST {
        return None;
    }
    let limit = (length / 3).max(1);
    candidates
        .filter(|c| c.len() <= LONGEST * 4 && c.chars().count().abs_diff(length) <= limit)
        .map(|c| (edit_distance(&word.to_lowercase(), &c.to_lowercase()), c))
        .filter(|(d, _)| *d <= limit)
        .min_by_key(|(d, _)| *d)
        .map(|(_, c)| c)
}

/// Levenshtein distance over characters.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let substitution = diagonal + usize::from(ca != cb);
            diagonal = row[j + 1];
            row[j + 1] = substitution.min(row[j] + 1).min(diagonal + 1);
        }
    }
    row[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distances() {
        assert_eq!(edit_distance("Qeen", "Queen"), 1);
        assert_eq!(edit_distance("kitten", "sitting"), 3);
        assert_eq!(edit_distance("", "abc"), 3);
    }

    #[test]
    fn suggests_only_close_names() {
        let names = ["Queen", "King", "Knight"];
        assert_eq!(closest("Qeen", names.into_iter()), Some("Queen"));
        assert_eq!(closest("king", names.into_iter()), Some("King"));
        assert_eq!(closest("Elephant", names.into_iter()), None);
    }
}
