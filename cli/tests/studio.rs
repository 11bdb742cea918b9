//! `fairy serve` through its HTTP API, as the page and other tools use it: every endpoint, and
//! what a bad request gets.

mod server;

use serde_json::{Value, json};
use server::{AMPHORA_TO_GUARD, Studio, rule_file};

#[test]
fn the_page_and_its_assets_are_served() {
    let studio = Studio::start(&["rules"]);
    let (status, page) = studio.text("/");
    assert_eq!(status, 200);
    assert!(page.contains(r#"<svg id="board""#), "{page}");
    assert_eq!(studio.text("/studio.js").0, 200);
    assert_eq!(studio.text("/studio.css").0, 200);
    let (status, answer) = studio.get("/nothing-here");
    assert_eq!(status, 404);
    assert!(answer["error"].as_str().unwrap().contains("/nothing-here"));
}

#[test]
fn check_gives_the_verdict_fairy_check_gives() {
    let studio = Studio::start(&["rules"]);
    let repo = concat!(env!("CARGO_MANIFEST_DIR"), "/..");
    let mut paths: Vec<String> = std::fs::read_dir(format!("{repo}/tests/bad"))
        .expect("the bad rule files")
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.ends_with(".rules"))
        .map(|name| format!("tests/bad/{name}"))
        .collect();
    paths.sort();
    assert!(paths.len() > 100);
    let cli = std::process::Command::new(env!("CARGO_BIN_EXE_fairy"))
        .current_dir(repo)
        .args(["check", "--json"])
        .args(&paths)
        .output()
        .expect("run fairy check");
    let expected: Value = serde_json::from_slice(&cli.stdout).expect("check's JSON");
    for (path, expected) in paths.iter().zip(expected["files"].as_array().unwrap()) {
        let Ok(text) = std::fs::read_to_string(format!("{repo}/{path}")) else {
            continue; // not UTF-8: the page can only send text
        };
        let (status, verdict) = studio.post("/api/check", &json!({ "rules": text, "name": path }));
        assert_eq!(status, 200);
        assert_eq!(verdict, *expected, "{path}");
    }
    let (_, verdict) = studio.post("/api/check", &json!({ "rules": rule_file("chess") }));
    assert_eq!(verdict["playable"], true);
    assert!(
        verdict["summary"]
            .as_str()
            .unwrap()
            .starts_with("Chess: 2 players")
    );
}

#[test]
fn a_game_is_shown_listed_played_and_answered_by_the_computer() {
    let studio = Studio::start(&["rules"]);
    let chess = rule_file("chess");
    let (status, view) = studio.post("/api/show", &json!({ "rules": chess }));
    assert_eq!(status, 200, "{view}");
    assert_eq!(view["width"], 8);
    assert_eq!(view["squares"].as_array().unwrap().len(), 64);
    assert_eq!(view["position"]["to_move"], "White");
    let e1 = &view["squares"][4];
    assert_eq!(e1["name"], "e1");
    assert_eq!(e1["piece"]["letter"], "K");
    assert_eq!(e1["piece"]["royal"], true);

    let (_, listed) = studio.post("/api/moves", &json!({ "rules": chess }));
    assert_eq!(listed["moves"].as_array().unwrap().len(), 20);
    let e4 = turn_named(&listed, "e2e4");
    assert_eq!(clicks(e4), ["e2", "e4"]);
    assert_eq!(e4["steps"][0]["say"], "a piece to move");

    let (status, after) = studio.post(
        "/api/turn",
        &json!({ "rules": chess, "moves": [], "turn": "e2e4" }),
    );
    assert_eq!(status, 200, "{after}");
    assert_eq!(after["position"]["to_move"], "Black");
    assert_eq!(after["last"], json!(["e2", "e4"]));

    for who in ["ai", "random"] {
        let game = json!({ "rules": chess, "moves": ["e2e4"], "think_ms": 50, "who": who });
        let (status, choice) = studio.post("/api/computer", &game);
        assert_eq!(status, 200, "{choice}");
        let (_, black) = studio.post("/api/moves", &json!({ "rules": chess, "moves": ["e2e4"] }));
        assert!(
            black["moves"].as_array().unwrap().contains(&choice["turn"]),
            "{who} chose {choice}"
        );
    }
}

/// The computer evaluates with the weights file beside the file the rules came from, as the
/// commands that play do, and names it; rules from a file without one, or from no file, get
/// the weights derived from them; a weights file that does not fit the rules is refused.
#[test]
fn the_computer_reads_the_weights_file_beside_its_rule_file() {
    let studio = Studio::start(&["rules"]);
    let (amphora, chess) = (rule_file("amphora"), rule_file("chess"));
    let ask = |rules: &str, file: Value| {
        let body = json!({ "rules": rules, "think_ms": 20, "file": file });
        studio.post("/api/computer", &body)
    };
    let (status, choice) = ask(&amphora, json!("0/amphora.rules"));
    assert_eq!(status, 200, "{choice}");
    assert_eq!(choice["weights"], "amphora.weights");
    assert_eq!(ask(&amphora, Value::Null).1["weights"], Value::Null);
    assert_eq!(
        ask(&chess, json!("0/chess.rules")).1["weights"],
        Value::Null
    );
    // Crazyhouse's weights value pieces Amphora has not, a Bishop among them.
    let (status, refused) = ask(&amphora, json!("0/crazyhouse.rules"));
    assert_eq!(status, 422, "{refused}");
    let message = refused["error"].as_str().unwrap_or_default();
    assert!(
        message.contains("beside 0/crazyhouse.rules cannot be read"),
        "{refused}"
    );
    assert!(message.contains("no piece `Bishop`"), "{refused}");

    let body = json!({ "rules": amphora, "games": 1, "think_ms": 10, "max_plies": 2,
        "file": "0/amphora.rules" });
    let (status, job) = studio.post("/api/selfplay", &body);
    assert_eq!(status, 200, "{job}");
    assert_eq!(job["weights"], "amphora.weights");
}

#[test]
fn every_kind_of_part_is_entered_by_clicks() {
    let studio = Studio::start(&["rules"]);
    let (_, amazons) = studio.post("/api/moves", &json!({ "rules": rule_file("amazons") }));
    let arrow = turn_named(&amazons, "a4a1,a1a2");
    assert_eq!(clicks(arrow), ["a4", "a1", "a2"]);
    assert_eq!(arrow["steps"][2]["say"], "where the arrow lands");

    let (_, yagbap) = studio.post("/api/moves", &json!({ "rules": rule_file("yagbap") }));
    assert_eq!(clicks(turn_named(&yagbap, "A@a1")), ["@A", "a1"]);

    let amphora = json!({ "rules": rule_file("amphora"), "moves": AMPHORA_TO_GUARD });
    let (status, guard) = studio.post("/api/moves", &amphora);
    assert_eq!(status, 200, "{guard}");
    let placed = turn_named(&guard, "G@c8,c6b6");
    assert_eq!(clicks(placed), ["@G", "c8", "c6", "b6"]);
    assert_eq!(placed["steps"][1]["say"], "where the Guard is placed");
    let (_, view) = studio.post("/api/show", &amphora);
    assert_eq!(view["hands"][1][0]["click"], "@G");

    // Yagbap's pie choice, once White has placed its ten pieces, takes no click: the page
    // offers its turns as buttons.
    let mut placed: Vec<String> = Vec::new();
    for _ in 0..10 {
        let game = json!({ "rules": rule_file("yagbap"), "moves": placed });
        let (_, listed) = studio.post("/api/moves", &game);
        placed.push(listed["moves"][0].as_str().unwrap().to_string());
    }
    let game = json!({ "rules": rule_file("yagbap"), "moves": placed });
    let (_, choice) = studio.post("/api/moves", &game);
    assert_eq!(choice["moves"], json!(["keep", "swap"]));
    assert!(clicks(turn_named(&choice, "swap")).is_empty());
}

fn turn_named<'a>(listed: &'a Value, text: &str) -> &'a Value {
    (listed["turns"].as_array().unwrap().iter())
        .find(|turn| turn["text"] == text)
        .unwrap_or_else(|| panic!("{text} is not among {}", listed["moves"]))
}

fn clicks(turn: &Value) -> Vec<&str> {
    (turn["steps"].as_array().unwrap().iter())
        .map(|step| step["click"].as_str().unwrap())
        .collect()
}

#[test]
fn bad_requests_get_a_4xx_and_a_message() {
    let studio = Studio::start(&["rules"]);
    let chess = rule_file("chess");
    let cases: Vec<(&str, Value, u16, &str)> = vec![
        ("/api/show", json!({}), 400, "missing field `rules`"),
        (
            "/api/show",
            json!({ "rules": chess, "colour": 1 }),
            400,
            "unknown field",
        ),
        ("/api/show", json!({ "rules": 7 }), 400, "invalid type"),
        (
            "/api/turn",
            json!({ "rules": chess, "turn": "e2e4", "by": 1 }),
            400,
            "unknown field",
        ),
        (
            "/api/turn",
            json!({ "rules": chess }),
            400,
            "missing field `turn`",
        ),
        (
            "/api/show",
            json!({ "rules": "game \"X\"\nboard 0 x 0\n" }),
            422,
            "at line 1 column 1",
        ),
        (
            "/api/show",
            json!({ "rules": chess, "fen": "8/8 w" }),
            422,
            "the position",
        ),
        (
            "/api/show",
            json!({ "rules": chess, "moves": ["e2e5"] }),
            422,
            "move 1 (e2e5)",
        ),
        (
            "/api/turn",
            json!({ "rules": chess, "turn": "e9e4" }),
            422,
            "e9e4",
        ),
        (
            "/api/turn",
            json!({ "rules": chess, "fen": MATED, "turn": "a1a2" }),
            422,
            "the game is over",
        ),
        (
            "/api/computer",
            json!({ "rules": chess, "fen": MATED }),
            422,
            "the game is over",
        ),
        (
            "/api/computer",
            json!({ "rules": chess, "think_ms": 99_999_999 }),
            400,
            "think_ms",
        ),
        (
            "/api/computer",
            json!({ "rules": chess, "who": "god" }),
            400,
            "who",
        ),
        (
            "/api/selfplay",
            json!({ "rules": chess, "games": 0 }),
            400,
            "games are 1",
        ),
        (
            "/api/selfplay",
            json!({ "rules": chess, "seats": ["human"] }),
            400,
            "no human seats",
        ),
        (
            "/api/selfplay",
            json!({ "rules": chess, "seats": ["ai", "ai", "ai"] }),
            400,
            "2 seats",
        ),
        ("/api/nowhere", json!({}), 404, "the API has no"),
    ];
    for (path, body, status, says) in cases {
        let (got, answer) = studio.post(path, &body);
        let message = answer["error"].as_str().unwrap_or_default();
        assert_eq!(got, status, "{path} {body}: {answer}");
        assert!(
            message.contains(says),
            "{path} {body}: {message:?} lacks {says:?}"
        );
    }
    let (status, answer) = studio.post_text("/api/show", "{ not json");
    assert_eq!(status, 400);
    assert!(answer["error"].as_str().unwrap().contains("not JSON"));
    let (status, _) = studio.post_text("/api/check", &"x".repeat(2 << 20));
    assert_eq!(status, 413);
    assert_eq!(studio.get("/api/selfplay/12").0, 404);
    assert_eq!(studio.get("/api/selfplay/x").0, 404);
}

/// Chess with White checkmated: no one has a turn.
const MATED: &str = "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3";

#[test]
fn files_are_read_and_saved_only_inside_the_folders_given() {
    let folder = std::env::temp_dir().join(format!("fairy-studio-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&folder); // what a stopped run left
    std::fs::create_dir_all(&folder).unwrap();
    std::fs::write(folder.join("mine.rules"), rule_file("chess")).unwrap();
    std::fs::write(folder.parent().unwrap().join("outside.rules"), "secret").unwrap();
    let studio = Studio::start(&[folder.to_str().unwrap()]);
    let (_, listing) = studio.get("/api/files");
    assert_eq!(listing["files"][0]["path"], "0/mine.rules");
    assert_eq!(listing["open"], "0/mine.rules");
    let (status, file) = studio.get("/api/file/0/mine.rules");
    assert_eq!(status, 200);
    assert_eq!(file["text"], rule_file("chess"));

    let (status, _) = studio.put(
        "/api/file/0/new.rules",
        &json!({ "text": "game \"New\"\n" }),
    );
    assert_eq!(status, 200);
    let saved = std::fs::read_to_string(folder.join("new.rules")).unwrap();
    assert_eq!(saved, "game \"New\"\n");

    for path in [
        "/api/file/0/..%2Foutside.rules",
        "/api/file/0/../outside.rules",
        "/api/file/0/.hidden.rules",
        "/api/file/0/notes.txt",
        "/api/file/1/mine.rules",
        "/api/file/mine.rules",
    ] {
        let (status, answer) = studio.get(path);
        assert!(matches!(status, 400 | 404), "{path}: {status} {answer}");
        let (status, _) = studio.put(path, &json!({ "text": "overwritten" }));
        assert!(matches!(status, 400 | 404), "{path}: {status}");
    }
    #[cfg(unix)]
    {
        let outside = folder.parent().unwrap();
        let link = folder.join("link.rules");
        std::os::unix::fs::symlink(outside.join("outside.rules"), &link).expect("a link");
        let (status, answer) = studio.get("/api/file/0/link.rules");
        assert_eq!(status, 404, "{answer}");
        // A link to a file not yet made is not followed either.
        let dangling = outside.join(format!("fairy-studio-made-{}.rules", std::process::id()));
        std::os::unix::fs::symlink(&dangling, folder.join("dangling.rules")).expect("a link");
        let (status, _) = studio.put("/api/file/0/dangling.rules", &json!({ "text": "x" }));
        assert_eq!(status, 404);
        assert!(!dangling.exists());
    }
    assert_eq!(
        std::fs::read_to_string(folder.parent().unwrap().join("outside.rules")).unwrap(),
        "secret"
    );
    let _ = std::fs::remove_dir_all(&folder);
}

#[test]
fn self_play_runs_as_a_job_and_reports_as_selfplay_does() {
    let studio = Studio::start(&["rules"]);
    let start = json!({ "rules": rule_file("chess"), "games": 4, "think_ms": 0,
        "seats": ["random", "random"], "max_plies": 40 });
    let (status, job) = studio.post("/api/selfplay", &start);
    assert_eq!(status, 200, "{job}");
    let progress = studio.wait_for_job(job["job"].as_u64().unwrap());
    let report = &progress["report"];
    assert_eq!(report["games"], 4);
    assert_eq!(report["partial"], false);
    assert_eq!(report["seats"].as_array().unwrap().len(), 2);
    let ended: u64 = (report["endings"].as_array().unwrap().iter())
        .map(|e| e["games"].as_u64().unwrap())
        .sum();
    assert_eq!(ended, 4);
    assert!(report["lengths"]["histogram"].is_array());

    let many = json!({ "rules": rule_file("chess"), "games": 10000, "think_ms": 20 });
    let (_, other) = studio.post("/api/selfplay", &many);
    let (_, job) = studio.post("/api/selfplay", &many);
    let (status, busy) = studio.post("/api/selfplay", &many);
    assert_eq!(status, 429, "{busy}");
    let (status, _) = studio.delete(&format!("/api/selfplay/{}", other["job"]));
    assert_eq!(status, 200);
    let number = job["job"].as_u64().unwrap();
    let (status, stop) = studio.delete(&format!("/api/selfplay/{number}"));
    assert_eq!(status, 200);
    assert_eq!(stop["stopping"], true);
    let progress = studio.wait_for_job(number);
    assert_eq!(progress["done"], true);
    assert!(progress["played"].as_u64().unwrap() < 10000);
    // Its games end within a turn's think time, and then it no longer counts as running.
    let started = std::time::Instant::now();
    while studio.get(&format!("/api/selfplay/{number}")).1["running"] == true {
        assert!(
            started.elapsed().as_secs() < 10,
            "the stopped job is still playing"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}

#[test]
fn requests_another_site_could_send_are_refused() {
    let studio = Studio::start(&["rules"]);
    let port = studio.address.rsplit(':').next().unwrap();
    let body = r#"{"rules": "game \"X\""}"#;
    let cases = [
        (
            format!("Host: evil.example:{port}"),
            "application/json",
            403,
        ),
        (
            format!("Host: 127.0.0.1:{port}\r\nOrigin: http://evil.example"),
            "application/json",
            403,
        ),
        (format!("Host: 127.0.0.1:{port}"), "text/plain", 415),
        (
            format!("Host: localhost:{port}\r\nOrigin: http://localhost:{port}"),
            "application/json",
            200,
        ),
    ];
    for (headers, kind, status) in cases {
        let request = format!(
            "POST /api/check HTTP/1.1\r\n{headers}\r\nContent-Type: {kind}\r\n\
             Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
            body.len()
        );
        assert_eq!(studio.raw(&request), status, "{headers} {kind}");
    }
}
