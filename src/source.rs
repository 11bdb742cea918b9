//! Reading rule files (and the other text files fairy is given, such as game records) from
//! disk, refusing what cannot be one before any parsing.

use crate::diagnostic::{Code, FileReport, Problem, Span};
use crate::limits::{MAX_BYTES, MAX_SHOWN_LINE_CHARS};
use miette::NamedSource;
use std::borrow::Cow;

const BYTE_ORDER_MARK: &[u8] = "\u{feff}".as_bytes();

/// A rule file's name and text.
#[derive(Clone, Debug)]
pub struct Source {
    pub name: String,
    pub text: String,
}

/// Why a file could not be read as text.
#[derive(Debug)]
pub enum LoadError {
    /// The file is missing, unreadable or too large; the message says which.
    Unreadable(String),
    /// The file was read but is not UTF-8 text; the report points at the first bad byte.
    NotText(FileReport),
}

/// Reads a rule file; `-` reads standard input, named `<stdin>` in reports.
pub fn load(path: &str) -> Result<Source, LoadError> {
    load_as(path, RULE_FILE)
}

/// What [`load`] reads a file as, in its messages.
const RULE_FILE: &str = "rule file";

/// Reads a text file held to the limits of a rule file, as [`load`] does; `what` names it in
/// messages, as a noun made plural by an `s`: `rule file`, `game record`.
pub fn load_as(path: &str, what: &str) -> Result<Source, LoadError> {
    if path == "-" {
        return read_limited("<stdin>", std::io::stdin().lock(), what);
    }
    let size = std::fs::metadata(path)
        .map_err(|e| LoadError::Unreadable(format!("{path}: cannot read: {e}")))?
        .len();
    if size > MAX_BYTES {
        return Err(LoadError::Unreadable(format!(
            "{path}: {size} bytes is too large for a {what} (the limit is {MAX_BYTES} bytes)"
        )));
    }
    let file = std::fs::File::open(path)
        .map_err(|e| LoadError::Unreadable(format!("{path}: cannot read: {e}")))?;
    read_limited(path, file, what)
}

/// Reads at most one byte past the limit: some files (devices, pipes) report no size.
fn read_limited(name: &str, reader: impl std::io::Read, what: &str) -> Result<Source, LoadError> {
    let mut bytes = Vec::new();
    std::io::Read::read_to_end(&mut std::io::Read::take(reader, MAX_BYTES + 1), &mut bytes)
        .map_err(|e| LoadError::Unreadable(format!("{name}: cannot read: {e}")))?;
    if bytes.len() as u64 > MAX_BYTES {
        return Err(LoadError::Unreadable(format!(
            "{name}: too large for a {what} (the limit is {MAX_BYTES} bytes)"
        )));
    }
    decode(name, bytes, what)
}

/// A rule file's text from its bytes, which must be UTF-8.
pub fn from_bytes(name: &str, bytes: Vec<u8>) -> Result<Source, LoadError> {
    decode(name, bytes, RULE_FILE)
}

fn decode(name: &str, mut bytes: Vec<u8>, what: &str) -> Result<Source, LoadError> {
    // Some editors start UTF-8 files with a byte-order mark; it says nothing about the rules.
    if bytes.starts_with(BYTE_ORDER_MARK) {
        bytes.drain(..BYTE_ORDER_MARK.len());
    }
    match String::from_utf8(bytes) {
        Ok(text) => Ok(Source {
            name: name.to_string(),
            text,
        }),
        Err(e) => {
            // Show the text up to the bad byte, with the bad byte as a placeholder to point at.
            let at = e.utf8_error().valid_up_to();
            let before = String::from_utf8_lossy(&e.as_bytes()[..at]);
            let mut text = printable(&clipped_lines(&before));
            let bad = text.len();
            text.push('?');
            let problem = Problem::error(
                Code::NotUtf8,
                "not UTF-8 text",
                Span::new(bad, bad + 1),
                format!("byte 0x{:02x} is not valid UTF-8", e.as_bytes()[at]),
            )
            .with_help(format!("{what}s are plain UTF-8 text"));
            Err(LoadError::NotText(FileReport {
                source: NamedSource::new(name, text),
                problems: vec![problem],
            }))
        }
    }
}

/// The text before a bad byte, as its report shows it: each line cut to its first
/// [`MAX_SHOWN_LINE_CHARS`] characters, and the last, which the bad byte ends, to its last ones.
/// Line numbers stay true.
fn clipped_lines(text: &str) -> String {
    let last = text.rfind('\n').map_or(0, |at| at + 1);
    let mut shown = String::new();
    for line in text[..last].lines() {
        shown.push_str(&head(line, MAX_SHOWN_LINE_CHARS));
        shown.push('\n');
    }
    shown.push_str(&tail(&text[last..], MAX_SHOWN_LINE_CHARS));
    shown
}

/// `text` cut after its first `chars` characters, `…` standing for the rest.
pub fn head(text: &str, chars: usize) -> Cow<'_, str> {
    match text.char_indices().nth(chars) {
        Some((cut, _)) => Cow::Owned(format!("{}…", &text[..cut])),
        None => Cow::Borrowed(text),
    }
}

/// `text` cut before its last `chars` characters, `…` standing for the rest.
pub fn tail(text: &str, chars: usize) -> Cow<'_, str> {
    match text.char_indices().nth_back(chars) {
        Some((cut, c)) => Cow::Owned(format!("…{}", &text[cut + c.len_utf8()..])),
        None => Cow::Borrowed(text),
    }
}

/// The text with control characters (other than line breaks and tabs) shown as `?` of the same
/// byte length, so that spans still fit and no terminal sees an escape sequence.
pub fn printable(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            '\n' | '\t' | '\r' => c.to_string(),
            c if c.is_control() => "?".repeat(c.len_utf8()),
            c => c.to_string(),
        })
        .collect()
}
