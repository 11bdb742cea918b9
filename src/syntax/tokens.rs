//! The tokens of a rule file as people see them: words, brackets, punctuation, strings and
//! comments, each with its place. The grammar reads the file; this lexer serves the tools that
//! work on its text as written (the formatter, editors), and never fails: text the grammar
//! would refuse still comes out as words.

/// Every token of `source` in order, comments included, whitespace left out.
pub fn tokens(source: &str) -> impl Iterator<Item = Token<'_>> {
    let mut at = 0;
    std::iter::from_fn(move || {
        let rest = &source[at..];
        at += rest.len() - rest.trim_start().len();
        let rest = &source[at..];
        if rest.is_empty() {
            return None;
        }
        let (kind, len) = token_at(rest);
        let token = Token {
            kind,
            text: &rest[..len],
            at,
        };
        at += len;
        Some(token)
    })
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Open,
    Close,
    Comma,
    Colon,
    /// `..`, written against its neighbours.
    Range,
    Word,
    String,
    BlockComment,
    LineComment,
}

#[derive(Clone, Copy, Debug)]
pub struct Token<'a> {
    pub kind: Kind,
    pub text: &'a str,
    /// Its byte offset in the source.
    pub at: usize,
}

/// The kind and byte length of the token at the start of `rest`, which starts with a
/// character that is not whitespace.
fn token_at(rest: &str) -> (Kind, usize) {
    let bytes = rest.as_bytes();
    match bytes[0] {
        b'/' if bytes.get(1) == Some(&b'/') => {
            (Kind::LineComment, rest.find('\n').unwrap_or(rest.len()))
        }
        b'/' if bytes.get(1) == Some(&b'*') => {
            let end = rest[2..].find("*/").map_or(rest.len(), |i| i + 4);
            (Kind::BlockComment, end)
        }
        b'"' => (Kind::String, string_len(bytes)),
        b'{' | b'(' | b'[' => (Kind::Open, 1),
        b'}' | b')' | b']' => (Kind::Close, 1),
        b',' => (Kind::Comma, 1),
        b':' => (Kind::Colon, 1),
        b'.' if rest.starts_with("..") && !rest[2..].starts_with('.') => (Kind::Range, 2),
        _ => (Kind::Word, word_len(rest)),
    }
}

fn string_len(bytes: &[u8]) -> usize {
    let mut at = 1;
    while at < bytes.len() {
        match bytes[at] {
            b'"' => return at + 1,
            b'\\' => at += 2,
            b'\n' => return at,
            _ => at += 1,
        }
    }
    bytes.len()
}

/// A word runs to whitespace, punctuation, a string, a comment or a range.
fn word_len(rest: &str) -> usize {
    let mut end = 0;
    for (i, c) in rest.char_indices() {
        let tail = &rest[i..];
        let stops = c.is_whitespace()
            || "{}()[],:\"".contains(c)
            || tail.starts_with("//")
            || tail.starts_with("/*")
            || (i > 0 && tail.starts_with(".."));
        if stops {
            break;
        }
        end = i + c.len_utf8();
    }
    end.max(rest.chars().next().map_or(1, char::len_utf8))
}
