//! The base protocol: messages framed by a `Content-Length` header, read on a thread of their
//! own. A message that cannot be read is reported, not fatal: its frame is skipped and the next
//! one read. A frame larger than any rule file could need is skipped unread.

use lsp_server::{ErrorCode, Message};
use std::io::{BufRead, Write};
use std::sync::mpsc::{Receiver, channel};

/// The largest message read: a rule file is at most a few megabytes, even as JSON.
const MAX_MESSAGE_BYTES: usize = 64 << 20;

/// The longest header line read before the frame is judged broken.
const MAX_HEADER_BYTES: u64 = 1 << 10;

pub enum Incoming {
    Message(Message),
    /// A frame that is not a message: its error and what to say of it.
    Malformed {
        code: ErrorCode,
        message: String,
    },
}

/// Starts reading standard input; the channel closes when the input ends or fails.
pub fn read_stdin() -> Receiver<Incoming> {
    let (sender, receiver) = channel();
    std::thread::spawn(move || {
        let mut input = std::io::stdin().lock();
        loop {
            let incoming = match read_frame(&mut input) {
                Ok(Some(body)) => parse(&body),
                Ok(None) => return,
                Err(Broken::Frame(message)) => Incoming::Malformed {
                    code: ErrorCode::ParseError,
                    message,
                },
                Err(Broken::Stream) => return,
            };
            if sender.send(incoming).is_err() {
                return;
            }
        }
    });
    receiver
}

enum Broken {
    /// The frame was wrong; the stream goes on after it.
    Frame(String),
    /// Reading failed or the input ended inside a frame.
    Stream,
}

/// Reads one frame's body; `None` at the end of the input. Lines before a `Content-Length`
/// header are what a broken frame left (its body, when its length could not be read) and are
/// skipped, so that the next frame is found again.
fn read_frame(input: &mut impl BufRead) -> Result<Option<Vec<u8>>, Broken> {
    let mut length: Option<Result<usize, String>> = None;
    let mut header_error = None;
    loop {
        let mut line = Vec::new();
        let read = std::io::Read::take(&mut *input, MAX_HEADER_BYTES)
            .read_until(b'\n', &mut line)
            .map_err(|_| Broken::Stream)?;
        if read == 0 {
            return match length {
                None => Ok(None),
                Some(_) => Err(Broken::Stream),
            };
        }
        let line = String::from_utf8_lossy(&line);
        let line = line.trim_end_matches(['\r', '\n']);
        if length.is_none() {
            // A broken frame's body runs into the next header on one line.
            let Some(at) = line.to_ascii_lowercase().find("content-length") else {
                continue;
            };
            let value = line[at..]
                .split_once(':')
                .map_or("", |(_, value)| value.trim());
            length = Some(
                value
                    .parse()
                    .map_err(|_| format!("bad Content-Length `{value}`")),
            );
            continue;
        }
        if line.is_empty() {
            break;
        }
        if !line.contains(':') {
            header_error.get_or_insert_with(|| format!("malformed header line `{line}`"));
        }
    }
    let length = match length {
        Some(Ok(length)) => length,
        Some(Err(message)) => return Err(Broken::Frame(message)),
        None => unreachable!("the loop ends only after a Content-Length"),
    };
    if length > MAX_MESSAGE_BYTES {
        std::io::copy(
            &mut std::io::Read::take(&mut *input, length as u64),
            &mut std::io::sink(),
        )
        .map_err(|_| Broken::Stream)?;
        return Err(Broken::Frame(format!(
            "a message of {length} bytes is larger than the {MAX_MESSAGE_BYTES} bytes read"
        )));
    }
    let mut body = vec![0; length];
    input.read_exact(&mut body).map_err(|_| Broken::Stream)?;
    match header_error {
        Some(message) => Err(Broken::Frame(message)),
        None => Ok(Some(body)),
    }
}

fn parse(body: &[u8]) -> Incoming {
    let value: serde_json::Value = match serde_json::from_slice(body) {
        Ok(value) => value,
        Err(error) => {
            return Incoming::Malformed {
                code: ErrorCode::ParseError,
                message: format!("not JSON: {error}"),
            };
        }
    };
    match serde_json::from_value::<Message>(value) {
        Ok(message) => Incoming::Message(message),
        Err(_) => Incoming::Malformed {
            code: ErrorCode::InvalidRequest,
            message: "not a request, response or notification".into(),
        },
    }
}

pub fn write_stdout(text: &str) -> std::io::Result<()> {
    let mut output = std::io::stdout().lock();
    write!(output, "Content-Length: {}\r\n\r\n", text.len())?;
    output.write_all(text.as_bytes())?;
    output.flush()
}
