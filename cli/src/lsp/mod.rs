//! `fairy lsp`: a language server on standard input and output, so that editors show fairy's
//! own diagnostics while a rule file is typed, and hover, go to definitions, complete, outline,
//! highlight and format it.
//!
//! `lsp-server` gives the message types (it is rust-analyzer's, and as synchronous as the rest
//! of fairy); `lsp-types` the protocol's types. The frames are read here (`transport`), on a
//! thread of their own, so that a change can wait a moment for the next before the file is
//! checked again, and so that a malformed message is answered with an error rather than ending
//! the server, as lsp-server's own reader would.

mod analysis;
mod complete;
mod document;
mod glossary;
mod hover;
mod requests;
mod symbols;
mod transport;

use crate::{Reported, complain};
use document::Document;
use lsp_server::{ErrorCode, Message, Notification, Request, Response};
use lsp_types::notification::Notification as _;
use lsp_types::{Diagnostic, PublishDiagnosticsParams, Uri};
use std::collections::HashMap;
use std::panic::AssertUnwindSafe;
use std::sync::mpsc::RecvTimeoutError;
use std::time::{Duration, Instant};
use transport::Incoming;

#[derive(clap::Args)]
pub struct LspArgs {
    /// Speak on standard input and output, the only way it speaks; accepted because editors'
    /// clients add it.
    #[arg(long)]
    stdio: bool,
}

/// How long a change waits for the next before the file is checked, so that a burst of changes
/// (the several edits of one editor command, a paste then its formatting) is checked once.
const SETTLE: Duration = Duration::from_millis(15);

pub fn run(_args: &LspArgs) -> Result<(), Reported> {
    let incoming = transport::read_stdin();
    let mut server = Server::default();
    loop {
        let wait = server
            .next_check()
            .map(|due| due.saturating_duration_since(Instant::now()));
        let message = match wait {
            Some(wait) => incoming.recv_timeout(wait),
            None => incoming.recv().map_err(|_| RecvTimeoutError::Disconnected),
        };
        match message {
            Ok(Incoming::Message(message)) => {
                if let Some(code) = server.handle(message) {
                    return code;
                }
            }
            Ok(Incoming::Malformed { code, message }) => server.refuse_malformed(code, &message),
            Err(RecvTimeoutError::Timeout) => server.check_settled(),
            // The editor closed the pipe without `exit`.
            Err(RecvTimeoutError::Disconnected) => return Err(Reported::Invalid),
        }
    }
}

#[derive(Default)]
struct Server {
    documents: HashMap<String, Document>,
    /// Documents changed and not checked since, with when they are due.
    unchecked: HashMap<String, Instant>,
    state: State,
}

#[derive(Default, PartialEq, Eq)]
enum State {
    #[default]
    Uninitialized,
    Running,
    ShutDown,
}

impl Server {
    /// Handles one message; `Some` ends the server with that result.
    fn handle(&mut self, message: Message) -> Option<Result<(), Reported>> {
        match message {
            Message::Request(request) => self.request(request),
            Message::Notification(notification) => return self.notification(notification),
            // The server sends no requests, so expects no answers.
            Message::Response(_) => {}
        }
        None
    }

    fn request(&mut self, request: Request) {
        let refusal = match (&self.state, request.method.as_str()) {
            (State::Uninitialized, "initialize") => {
                self.state = State::Running;
                let result = serde_json::json!({
                    "capabilities": requests::capabilities(),
                    "serverInfo": { "name": "fairy", "version": env!("CARGO_PKG_VERSION") },
                });
                return self.send(Response::new_ok(request.id, result).into());
            }
            (State::Uninitialized, _) => Some((
                ErrorCode::ServerNotInitialized,
                "the server is not initialized yet",
            )),
            (State::Running, "initialize") => Some((
                ErrorCode::InvalidRequest,
                "the server is already initialized",
            )),
            (State::Running, "shutdown") => {
                self.state = State::ShutDown;
                return self.send(Response::new_ok(request.id, ()).into());
            }
            (State::ShutDown, _) => Some((ErrorCode::InvalidRequest, "the server is shut down")),
            (State::Running, _) => None,
        };
        let response = match refusal {
            Some((code, message)) => Response::new_err(request.id, code as i32, message.into()),
            None => {
                self.check_due_now(&request);
                let id = request.id.clone();
                let documents = &self.documents;
                // A mistake of the server's costs the one answer, not the editor's session.
                std::panic::catch_unwind(AssertUnwindSafe(|| requests::answer(documents, request)))
                    .unwrap_or_else(|_| {
                        let message = "fairy lsp failed on this request (a bug: please report it)";
                        Response::new_err(id, ErrorCode::InternalError as i32, message.into())
                    })
            }
        };
        self.send(response.into());
    }

    /// A request about a document waits for no timer: it sees the text as it is.
    fn check_due_now(&mut self, request: &Request) {
        let uri = request.params["textDocument"]["uri"]
            .as_str()
            .unwrap_or_default();
        if self.unchecked.remove(uri).is_some() {
            self.check(uri.to_string());
        }
    }

    fn notification(&mut self, notification: Notification) -> Option<Result<(), Reported>> {
        use lsp_types::notification::{
            DidChangeTextDocument, DidCloseTextDocument, DidOpenTextDocument, Exit,
        };
        if notification.method == Exit::METHOD {
            return Some(match self.state {
                State::ShutDown => Ok(()),
                _ => Err(Reported::Invalid),
            });
        }
        if self.state != State::Running {
            return None;
        }
        let params = notification.params;
        match notification.method.as_str() {
            DidOpenTextDocument::METHOD => {
                if let Ok(opened) =
                    serde_json::from_value::<lsp_types::DidOpenTextDocumentParams>(params)
                {
                    let uri = opened.text_document.uri.as_str().to_string();
                    self.documents
                        .insert(uri.clone(), Document::new(opened.text_document.text, &uri));
                    self.check(uri);
                }
            }
            DidChangeTextDocument::METHOD => {
                if let Ok(changed) =
                    serde_json::from_value::<lsp_types::DidChangeTextDocumentParams>(params)
                {
                    let uri = changed.text_document.uri.as_str().to_string();
                    if let Some(document) = self.documents.get_mut(&uri) {
                        document.apply(changed.content_changes);
                        self.unchecked.insert(uri, Instant::now() + SETTLE);
                    }
                }
            }
            DidCloseTextDocument::METHOD => {
                if let Ok(closed) =
                    serde_json::from_value::<lsp_types::DidCloseTextDocumentParams>(params)
                {
                    let uri = closed.text_document.uri;
                    self.documents.remove(uri.as_str());
                    self.unchecked.remove(uri.as_str());
                    self.publish(uri, Vec::new());
                }
            }
            // Other notifications (settings, saves, cancellations) change nothing here.
            _ => {}
        }
        None
    }

    fn next_check(&self) -> Option<Instant> {
        self.unchecked.values().min().copied()
    }

    fn check_settled(&mut self) {
        let now = Instant::now();
        let due: Vec<String> = (self.unchecked.iter())
            .filter(|&(_, &at)| at <= now)
            .map(|(uri, _)| uri.clone())
            .collect();
        for uri in due {
            self.unchecked.remove(&uri);
            self.check(uri);
        }
    }

    fn check(&mut self, uri: String) {
        let Some(document) = self.documents.get_mut(&uri) else {
            return;
        };
        document.analyse();
        let diagnostics = document.diagnostics(&uri);
        if let Ok(uri) = uri.parse::<Uri>() {
            self.publish(uri, diagnostics);
        }
    }

    fn publish(&self, uri: Uri, diagnostics: Vec<Diagnostic>) {
        use lsp_types::notification::PublishDiagnostics;
        let params = PublishDiagnosticsParams {
            uri,
            diagnostics,
            version: None,
        };
        self.send(Notification::new(PublishDiagnostics::METHOD.into(), params).into());
    }

    /// Answers a message that could not be read, with no id, as JSON-RPC asks.
    fn refuse_malformed(&self, code: ErrorCode, message: &str) {
        let error = serde_json::json!({
            "jsonrpc": "2.0",
            "id": null,
            "error": { "code": code as i32, "message": message },
        });
        self.write(&error.to_string());
    }

    fn send(&self, message: Message) {
        match serde_json::to_string(&message) {
            Ok(text) => self.write(&text),
            Err(error) => complain!("error: fairy lsp: cannot write a message: {error}"),
        }
    }

    fn write(&self, text: &str) {
        if let Err(error) = transport::write_stdout(text) {
            complain!("error: fairy lsp: cannot write to standard output: {error}");
            std::process::exit(1);
        }
    }
}
