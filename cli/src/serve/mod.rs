//! `fairy serve`: the studio, a local web page to write a variant, see its board, play it and
//! run self-play on it. The server holds no game: every request carries the rule file's text
//! and the moves played, so a reload, a second tab or an edited rule file never meets a stale
//! position. The JSON it answers has the shapes of `--json` (see the README's API section).

mod api;
mod files;
mod jobs;

use super::{Reported, complain, emit};
use clap::Args;
use files::Folders;
use jobs::Jobs;
use serde_json::{Value, json};
use std::io::Read;
use std::sync::Arc;
use tiny_http::{Header, Method, Request, Response, Server};

#[derive(Args)]
pub struct ServeArgs {
    /// Rule files or folders of them to open in the studio; files beside them can be opened
    /// and saved too. The `rules` folder here by default.
    #[arg(value_name = "FILE")]
    files: Vec<String>,
    /// The port on 127.0.0.1 to listen on; 0 takes any free one.
    #[arg(long, value_name = "P", default_value_t = 8765)]
    port: u16,
    /// Open the page in the browser.
    #[arg(long)]
    open: bool,
}

/// The most a request may send: a rule file is a few kilobytes.
const MAX_BODY: u64 = 1 << 20;

/// What every request may use: the folders served and the self-play jobs.
struct Studio {
    folders: Folders,
    jobs: Jobs,
    /// The port listened on, which a request's `Host` and `Origin` must name.
    port: u16,
}

pub fn serve(args: &ServeArgs) -> Result<(), Reported> {
    let folders = Folders::of(&args.files).map_err(|message| {
        complain!("error: {message}");
        Reported::Invalid
    })?;
    let server = listen(args.port).map_err(|error| {
        complain!("error: cannot listen on 127.0.0.1:{}: {error}", args.port);
        Reported::Invalid
    })?;
    let Some(listening) = server.server_addr().to_ip() else {
        unreachable!("the server listens on an IP address")
    };
    let address = format!("http://{listening}/");
    emit(&format!("fairy studio at {address} (Ctrl-C stops it)\n"));
    if args.open {
        open_browser(&address);
    }
    let studio = Arc::new(Studio {
        folders,
        jobs: Jobs::default(),
        port: listening.port(),
    });
    for request in server.incoming_requests() {
        let studio = Arc::clone(&studio);
        // A computer's turn takes its think time: each request has a thread, so none waits.
        std::thread::spawn(move || answer(&studio, request));
    }
    Ok(())
}

/// The server on 127.0.0.1:`port`. Its connections send without waiting (no Nagle): the server
/// writes a response's head and body apart, and a browser that keeps the connection open
/// acknowledges the head only after its delayed-ACK timer, which cost each request 40 ms.
/// Linux gives an accepted connection its listener's setting.
fn listen(port: u16) -> Result<Server, Box<dyn std::error::Error + Send + Sync>> {
    use socket2::{Domain, Socket, Type};
    let socket = Socket::new(Domain::IPV4, Type::STREAM, None)?;
    socket.set_reuse_address(true)?;
    socket.set_tcp_nodelay(true)?;
    socket.bind(&std::net::SocketAddr::from(([127, 0, 0, 1], port)).into())?;
    socket.listen(128)?;
    Server::from_listener(std::net::TcpListener::from(socket), None)
}

fn open_browser(address: &str) {
    let opened = ["xdg-open", "open"].iter().any(|opener| {
        std::process::Command::new(opener)
            .arg(address)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .status()
            .is_ok_and(|status| status.success())
    });
    if !opened {
        complain!("no browser could be opened: open {address} yourself");
    }
}

/// A request's failure: the status and what to say.
pub struct Failure {
    status: u16,
    message: String,
}

impl Failure {
    pub fn bad(message: impl Into<String>) -> Self {
        Failure {
            status: 400,
            message: message.into(),
        }
    }

    /// Well formed, but the rule file, position or move in it is wrong.
    pub fn invalid(message: impl Into<String>) -> Self {
        Failure {
            status: 422,
            message: message.into(),
        }
    }

    pub fn not_found(message: impl Into<String>) -> Self {
        Failure {
            status: 404,
            message: message.into(),
        }
    }

    fn internal() -> Self {
        Failure {
            status: 500,
            message: "fairy failed on this request: please report it with the rule file"
                .to_string(),
        }
    }

    pub fn busy(message: impl Into<String>) -> Self {
        Failure {
            status: 429,
            message: message.into(),
        }
    }
}

const PAGE: &str = include_str!("page/index.html");
const SCRIPT: &str = include_str!("page/studio.js");
const STYLE: &str = include_str!("page/studio.css");

fn answer(studio: &Studio, mut request: Request) {
    let path = request.url().split('?').next().unwrap_or("").to_string();
    let method = request.method().clone();
    if let Err(failure) = from_this_machine(studio.port, &request) {
        let _ = request.respond(json_response(
            failure.status,
            &json!({ "error": failure.message }),
        ));
        return;
    }
    let response = match (&method, path.as_str()) {
        (Method::Get, "/") => asset(PAGE, "text/html; charset=utf-8"),
        (Method::Get, "/studio.js") => asset(SCRIPT, "text/javascript; charset=utf-8"),
        (Method::Get, "/studio.css") => asset(STYLE, "text/css; charset=utf-8"),
        _ if path.starts_with("/api/") => {
            let result = read_body(&mut request).and_then(|body| {
                // A fault of fairy's own is the page's 500, not the end of the server.
                let routed = std::panic::catch_unwind(|| route(studio, &method, &path, body));
                routed.unwrap_or_else(|_| Err(Failure::internal()))
            });
            match result {
                Ok(value) => json_response(200, &value),
                Err(failure) => json_response(failure.status, &json!({ "error": failure.message })),
            }
        }
        _ => json_response(404, &json!({ "error": format!("nothing is at {path}") })),
    };
    // The page may have gone; nothing is left to tell it.
    let _ = request.respond(response);
}

fn route(studio: &Studio, method: &Method, path: &str, body: Value) -> Result<Value, Failure> {
    let api = &path["/api".len()..];
    match (method, api) {
        (Method::Get, "/files") => Ok(studio.folders.listing()),
        (Method::Get, _) if api.starts_with("/file/") => {
            studio.folders.read(&api["/file/".len()..])
        }
        (Method::Put, _) if api.starts_with("/file/") => {
            studio.folders.write(&api["/file/".len()..], &body)
        }
        (Method::Post, "/check") => api::check(&body),
        (Method::Post, "/show") => api::show(&body),
        (Method::Post, "/moves") => api::moves(&body),
        (Method::Post, "/turn") => api::turn(&body),
        (Method::Post, "/computer") => api::computer(&body, &studio.folders),
        (Method::Post, "/selfplay") => studio.jobs.start(&body, &studio.folders),
        (Method::Get, _) if api.starts_with("/selfplay/") => {
            studio.jobs.progress(&api["/selfplay/".len()..])
        }
        (Method::Delete, _) if api.starts_with("/selfplay/") => {
            studio.jobs.stop(&api["/selfplay/".len()..])
        }
        _ => Err(Failure {
            status: 404,
            message: format!("the API has no {method} {path} (see the README)"),
        }),
    }
}

/// Refuses what another site could send through the browser: a request addressed to another
/// host (a name rebound to 127.0.0.1), one from another site's page, and a body not declared as
/// JSON (which a page may send without asking the server first).
fn from_this_machine(port: u16, request: &Request) -> Result<(), Failure> {
    let header = |name: &'static str| {
        (request.headers().iter())
            .find(|h| h.field.equiv(name))
            .map(|h| h.value.as_str().to_ascii_lowercase())
    };
    let hosts = [format!("127.0.0.1:{port}"), format!("localhost:{port}")];
    let forbidden = |message: String| Failure {
        status: 403,
        message,
    };
    if !header("Host").is_some_and(|host| hosts.contains(&host)) {
        return Err(forbidden(format!(
            "the studio answers requests addressed to {} only",
            hosts.join(" or ")
        )));
    }
    if header("Origin").is_some_and(|origin| !hosts.iter().any(|h| origin == format!("http://{h}")))
    {
        return Err(forbidden(
            "the studio answers its own page only".to_string(),
        ));
    }
    let has_body = request.body_length().is_some_and(|n| n > 0);
    if has_body && !header("Content-Type").is_some_and(|t| t.starts_with("application/json")) {
        return Err(Failure {
            status: 415,
            message: "a request's body is JSON, sent as application/json".to_string(),
        });
    }
    Ok(())
}

/// The request's JSON body; `null` when it has none.
fn read_body(request: &mut Request) -> Result<Value, Failure> {
    let mut body = String::new();
    let read = request
        .as_reader()
        .take(MAX_BODY + 1)
        .read_to_string(&mut body);
    if read.is_err() {
        return Err(Failure::bad("the request's body is not UTF-8 text"));
    }
    if body.len() as u64 > MAX_BODY {
        return Err(Failure {
            status: 413,
            message: format!("a request's body is at most {MAX_BODY} bytes"),
        });
    }
    if body.trim().is_empty() {
        return Ok(Value::Null);
    }
    serde_json::from_str(&body)
        .map_err(|error| Failure::bad(format!("the body is not JSON: {error}")))
}

fn asset(text: &'static str, kind: &str) -> Response<std::io::Cursor<Vec<u8>>> {
    Response::from_string(text).with_header(header("Content-Type", kind))
}

fn json_response(status: u16, value: &Value) -> Response<std::io::Cursor<Vec<u8>>> {
    Response::from_string(value.to_string())
        .with_status_code(status)
        .with_header(header("Content-Type", "application/json"))
        .with_header(header("Cache-Control", "no-store"))
}

fn header(name: &str, value: &str) -> Header {
    Header::from_bytes(name, value).expect("a valid header")
}
