//! A `fairy serve` for a test: started on a free port, spoken to over HTTP, stopped when dropped.

#![allow(dead_code)] // each test file uses its own share

use serde_json::Value;
use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

pub struct Studio {
    child: Child,
    pub address: String,
    agent: ureq::Agent,
}

/// The repository, where the shipped rule files are.
pub const REPO: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/..");

/// A shipped rule file's text.
pub fn rule_file(name: &str) -> String {
    std::fs::read_to_string(format!("{REPO}/rules/{name}.rules")).expect("a shipped rule file")
}

/// Amphora to a position where Black, whose Pawn was just taken, may place the Guard.
pub const AMPHORA_TO_GUARD: [&str; 17] = [
    "c2c3", "e7e6", "c3c4", "e6e5", "e2e3", "d7d6", "e1e2", "c7c6", "d2d3", "d6e6", "d3d4", "c8c7",
    "d1c2", "e5f5", "d4d5", "f5f4", "d5e6",
];

impl Studio {
    /// `fairy serve ARGS --port 0`, run from the repository; ready once it says its address.
    pub fn start(args: &[&str]) -> Studio {
        let mut child = Command::new(env!("CARGO_BIN_EXE_fairy"))
            .current_dir(REPO)
            .arg("serve")
            .args(args)
            .args(["--port", "0"])
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("start fairy serve");
        let mut line = String::new();
        let mut stdout = BufReader::new(child.stdout.take().expect("stdout"));
        stdout
            .read_line(&mut line)
            .expect("the server's first line");
        let address = (line.split_whitespace())
            .find(|word| word.starts_with("http://"))
            .unwrap_or_else(|| panic!("no address in {line:?}"))
            .trim_end_matches('/')
            .to_string();
        let agent = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .timeout_global(Some(Duration::from_secs(60)))
            .build()
            .into();
        Studio {
            child,
            address,
            agent,
        }
    }

    /// The status and text of a GET.
    pub fn text(&self, path: &str) -> (u16, String) {
        let mut response =
            (self.agent.get(format!("{}{path}", self.address)).call()).expect("an answer");
        let status = response.status().as_u16();
        (status, response.body_mut().read_to_string().expect("text"))
    }

    pub fn get(&self, path: &str) -> (u16, Value) {
        let (status, text) = self.text(path);
        (status, json(&text))
    }

    pub fn post(&self, path: &str, body: &Value) -> (u16, Value) {
        self.post_text(path, &body.to_string())
    }

    pub fn post_text(&self, path: &str, body: &str) -> (u16, Value) {
        let request = self.agent.post(format!("{}{path}", self.address));
        answer(request.content_type("application/json").send(body))
    }

    pub fn put(&self, path: &str, body: &Value) -> (u16, Value) {
        let request = self.agent.put(format!("{}{path}", self.address));
        answer(
            request
                .content_type("application/json")
                .send(body.to_string()),
        )
    }

    pub fn delete(&self, path: &str) -> (u16, Value) {
        answer(self.agent.delete(format!("{}{path}", self.address)).call())
    }

    /// The status of a request written byte for byte, as a browser could not send it.
    pub fn raw(&self, request: &str) -> u16 {
        use std::io::{Read, Write};
        let mut stream = std::net::TcpStream::connect(self.address.trim_start_matches("http://"))
            .expect("a connection");
        stream
            .write_all(request.as_bytes())
            .expect("the request sent");
        let mut answer = String::new();
        let _ = stream.read_to_string(&mut answer);
        let status = answer.split_whitespace().nth(1).unwrap_or_default();
        status
            .parse()
            .unwrap_or_else(|_| panic!("no status in {answer:?}"))
    }

    /// Job N's progress once it is done.
    pub fn wait_for_job(&self, number: u64) -> Value {
        let started = Instant::now();
        loop {
            let (status, progress) = self.get(&format!("/api/selfplay/{number}"));
            assert_eq!(status, 200, "{progress}");
            if progress["done"] == true {
                return progress;
            }
            assert!(started.elapsed() < Duration::from_secs(120), "{progress}");
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

fn answer(response: Result<ureq::http::Response<ureq::Body>, ureq::Error>) -> (u16, Value) {
    let mut response = response.expect("an answer");
    let status = response.status().as_u16();
    let text = response.body_mut().read_to_string().expect("text");
    (status, json(&text))
}

fn json(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or(Value::Null)
}

impl Drop for Studio {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
