// The studio's page: it keeps the rule file's text, the position it started from and the turns
// played, and asks the server (the same code as the command line) for everything else.
"use strict";

const $ = (id) => document.getElementById(id);
const SVG = "http://www.w3.org/2000/svg";
const SQUARE = 60;

const state = {
  path: null,         // the file open, as /api/files names it; null for a new one
  rules: "",          // the text the game is played under
  fen: null,          // the position started from; the start position if null
  moves: [],          // the turns played since
  movers: [],         // who played each of them
  view: null,         // /api/show's answer
  turns: [],          // /api/moves's turns, with their clicks
  clicks: [],         // the clicks of the turn being entered
  seats: [],          // "human", "ai" or "random" per player
  flipped: false,
  generation: 0,      // bumped on every change, so that a late answer is dropped
  thinking: false,
  playing: false,     // a turn is on its way, and the position after it not yet known
};

// Colours for players named after one; the rest take the palette in turn.
const NAMED_COLOURS = {
  white: "#f7f7f2", black: "#262626", red: "#d63a3a", blue: "#3b6fd6", yellow: "#f0c419",
  green: "#2f9e57", gold: "#d4a52a", silver: "#c4c8cc", orange: "#ee8a2b", purple: "#8a4fc4",
  sente: "#f7f7f2", gote: "#262626", pink: "#e87ab0", brown: "#8b5a2b",
};
const PALETTE = ["#f7f7f2", "#262626", "#d63a3a", "#3b6fd6", "#f0c419", "#2f9e57", "#8a4fc4", "#ee8a2b"];

function colourOf(player) {
  const names = state.view ? state.view.players : [];
  return NAMED_COLOURS[(names[player] || "").toLowerCase()] || PALETTE[player % PALETTE.length];
}

function inkOn(colour) {
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(colour.slice(i, i + 2), 16));
  return r * 0.3 + g * 0.59 + b * 0.11 > 150 ? "#111" : "#fff";
}

async function api(method, path, body) {
  const response = await fetch("/api/" + path, {
    method,
    headers: body === undefined ? {} : { "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const answer = await response.json();
  if (!response.ok) throw new Error(answer.error || response.statusText);
  return answer;
}

const post = (path, body) => api("POST", path, body);
const game = () => ({ rules: state.rules, fen: state.fen, moves: state.moves });

function say(text) { $("message").textContent = text || ""; }

// ---- Rule files ---------------------------------------------------------------------------

async function loadFiles() {
  const listing = await api("GET", "files");
  const select = $("file");
  select.replaceChildren();
  for (const file of listing.files) {
    const option = new Option(file.folder + "/" + file.name, file.path);
    select.add(option);
  }
  return listing.open;
}

// The page keeps its own timings, for the browser test to read: how long from choosing a file
// to its board drawn and its turns known, and each computer turn's think time and wait.
const timings = { opened: null, ready: [], computer: [] };
window.studioTimings = timings;

async function openFile(path) {
  timings.opened = performance.now();
  const file = await api("GET", "file/" + path);
  state.path = path;
  $("file").value = path;
  $("rules").value = file.text;
  $("file-state").textContent = "";
  await checkRules(true);
}

async function save(path) {
  await api("PUT", "file/" + path, { text: $("rules").value });
  $("file-state").textContent = "saved";
}

async function saveAs() {
  const folder = (state.path || "0/").split("/")[0];
  const name = prompt("Save as (a name ending in .rules):", "my-variant.rules");
  if (!name) return;
  try {
    await save(folder + "/" + name);
    await loadFiles();
    state.path = folder + "/" + name;
    $("file").value = state.path;
  } catch (error) { say(error.message); }
}

let checkTimer = null;
function rulesEdited() {
  $("file-state").textContent = "edited";
  drawGutter([]);
  clearTimeout(checkTimer);
  checkTimer = setTimeout(() => checkRules(false), 250);
}

// Checks the text in the editor; a file that can be played replaces the game's rules.
async function checkRules(newGame) {
  const text = $("rules").value;
  const name = state.path ? state.path.split("/")[1] : "new.rules";
  const verdict = await post("check", { rules: text, name });
  if (text !== $("rules").value) return; // edited again meanwhile
  showVerdict(verdict);
  if (verdict.playable && (newGame || text !== state.rules)) {
    state.rules = text;
    // An edit keeps the game in progress while its turns are still legal under the new rules.
    const kept = !newGame && (await refresh());
    if (kept) drawSeats();
    else await startGame();
  }
  document.body.dataset.checked = Number(document.body.dataset.checked || 0) + 1;
}

function showVerdict(verdict) {
  const box = $("verdict");
  if (verdict.playable) {
    box.className = "ok";
    box.textContent = "✓ " + verdict.summary;
  } else if (verdict.valid) {
    box.className = "unplayable";
    box.textContent = "Valid, but fairy cannot play it yet: " +
      verdict.not_run.map((r) => r.rule + " (line " + r.line + ")").join(", ");
  } else {
    const errors = verdict.problems.filter((p) => p.severity === "error").length;
    box.className = "bad";
    box.textContent = errors + (errors === 1 ? " error" : " errors") + ": the board shows the last file that checked";
  }
  const list = $("problems");
  list.replaceChildren();
  for (const problem of verdict.problems) {
    const item = document.createElement("li");
    item.className = problem.severity;
    item.dataset.line = problem.line;
    item.innerHTML = `<span class="where">line ${problem.line}, column ${problem.column}</span> ` +
      `<span class="code">${escape(problem.severity)}[${escape(problem.code)}]</span> ${escape(problem.message)}` +
      (problem.label ? ` — ${escape(problem.label)}` : "") +
      (problem.help ? `<span class="help">help: ${escape(problem.help)}</span>` : "");
    item.addEventListener("click", () => goTo(problem.line, problem.column));
    list.append(item);
  }
  drawGutter(verdict.problems);
}

function escape(text) {
  return String(text).replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]);
}

function drawGutter(problems) {
  const lines = $("rules").value.split("\n").length;
  const marks = new Map();
  for (const p of problems) {
    if (marks.get(p.line) !== "bad") marks.set(p.line, p.severity === "error" ? "bad" : "warn");
  }
  const gutter = $("gutter");
  gutter.replaceChildren();
  for (let line = 1; line <= lines; line++) {
    const number = document.createElement("div");
    number.textContent = line;
    if (marks.has(line)) {
      number.className = marks.get(line);
      number.id = "gutter-" + line;
    }
    gutter.append(number);
  }
  gutter.scrollTop = $("rules").scrollTop;
}

function goTo(line, column) {
  const area = $("rules");
  const lines = area.value.split("\n");
  let offset = 0;
  for (let i = 0; i < line - 1 && i < lines.length; i++) offset += lines[i].length + 1;
  offset += Math.max(0, column - 1);
  area.focus();
  area.setSelectionRange(offset, offset);
}

// ---- The game -----------------------------------------------------------------------------

async function startGame() {
  $("fen").value = "";
  state.fen = null;
  state.moves = [];
  state.movers = [];
  await refresh();
  drawSeats();
}

// Asks for the position and its turns, draws them, and lets a computer seat move; whether the
// position could be shown.
async function refresh() {
  const generation = ++state.generation;
  state.clicks = [];
  state.thinking = false; // a computer still thinking is answering an older position
  try {
    const [view, moves] = await Promise.all([post("show", game()), post("moves", game())]);
    if (generation !== state.generation) return false;
    state.view = view;
    state.turns = moves.turns;
    state.playing = false;
    say("");
  } catch (error) {
    if (generation !== state.generation) return false;
    state.playing = false;
    say(error.message);
    return false;
  }
  draw();
  if (timings.opened !== null) {
    timings.ready.push(performance.now() - timings.opened);
    timings.opened = null;
  }
  document.body.dataset.ready = "1";
  computerTurn(generation);
  return true;
}

function seatOf(player) { return state.seats[player] || "human"; }

async function computerTurn(generation) {
  const view = state.view;
  if (view.position.result || seatOf(view.to_move) === "human" || state.turns.length === 0) return;
  state.thinking = true;
  drawPrompt();
  try {
    const think = Math.max(0, Number($("think").value) || 0);
    const asked = performance.now();
    const choice = await post("computer", { ...game(), think_ms: think, who: seatOf(view.to_move), file: state.path });
    if (generation !== state.generation) return;
    state.thinking = false;
    await play(choice.turn);
    timings.computer.push({ think, waited: performance.now() - asked, took: choice.took_ms });
  } catch (error) {
    if (generation === state.generation) say(error.message);
  } finally {
    if (generation === state.generation) { state.thinking = false; drawPrompt(); }
  }
}

// Makes a turn; one at a time, as each is read in the position the last one left. `playing`
// stays set until the position after it is known.
async function play(text) {
  if (state.playing) { say("Wait: the last turn is still being made."); return; }
  const generation = state.generation;
  state.playing = true;
  try {
    await post("turn", { ...game(), turn: text });
  } catch (error) {
    state.playing = false;
    if (generation !== state.generation) return;
    say(error.message);
    state.clicks = [];
    draw();
    return;
  }
  if (generation !== state.generation) { state.playing = false; return; } // the game changed meanwhile
  state.moves.push(text);
  state.movers.push(state.view.to_move);
  await refresh();
}

// Takes back the last turn; when it was a computer's, back to the last turn a human made.
function undo() {
  if (state.moves.length === 0) return;
  const human = (player) => seatOf(player) === "human";
  if (state.seats.some((seat) => seat === "human")) {
    while (state.moves.length > 1 && !human(state.movers[state.movers.length - 1])) pop();
  }
  pop();
  refresh();
}

function pop() {
  state.moves.pop();
  state.movers.pop();
}

// ---- Entering a turn by clicks --------------------------------------------------------------

function candidates(clicks) {
  return state.turns.filter((turn) => clicks.every((click, i) => turn.steps[i] && turn.steps[i].click === click));
}

function humanToMove() {
  const view = state.view;
  return view && !view.position.result && seatOf(view.to_move) === "human" && !state.thinking &&
    !state.playing;
}

function clicked(token) {
  if (state.playing) return; // the position the click is about is on its way
  if (!humanToMove()) {
    say(state.view && state.view.position.result ? "The game is over." : "It is not your turn.");
    return;
  }
  if (state.clicks.length === 1 && state.clicks[0] === token) { // a second click lets go
    state.clicks = [];
    draw();
    return;
  }
  let clicks = [...state.clicks, token];
  if (candidates(clicks).length === 0 && candidates([token]).length > 0) clicks = [token];
  const left = candidates(clicks);
  if (left.length === 0) {
    say(token.startsWith("@") ? `No legal turn places ${token.slice(1)} now.` :
      state.clicks.length ? `${token} is not a legal choice here.` : `No legal turn starts at ${token}.`);
    state.clicks = [];
    draw();
    return;
  }
  say("");
  state.clicks = clicks;
  const complete = left.filter((turn) => turn.steps.length === clicks.length);
  if (left.length === 1 && complete.length === 1) {
    play(left[0].text);
    return;
  }
  draw();
}

function nextSteps() {
  const left = candidates(state.clicks);
  const next = new Map();
  for (const turn of left) {
    const step = turn.steps[state.clicks.length];
    if (step) next.set(step.click, step.say);
  }
  return { left, next };
}

function drawPrompt() {
  const view = state.view;
  const prompt = $("prompt");
  const choices = $("choices");
  choices.replaceChildren();
  if (!view) return;
  const name = view.players[view.to_move];
  if (view.position.result) {
    prompt.textContent = view.position.result.text;
    return;
  }
  if (state.thinking) {
    prompt.textContent = `${name} (${seatOf(view.to_move)}) is thinking…`;
    return;
  }
  if (seatOf(view.to_move) !== "human") {
    prompt.textContent = `${name} to move`;
    return;
  }
  const { left, next } = nextSteps();
  const says = [...new Set(next.values())];
  prompt.textContent = `${name} to move` + (says.length ? ": choose " + says.join(" or ") : "");
  // Turns the clicks so far complete, or that need no click, are chosen by button.
  const finished = left.filter((turn) => turn.steps.length === state.clicks.length);
  if (finished.length > 0) {
    if (says.length === 0) prompt.textContent = `${name} to move: choose one`;
    for (const turn of finished) {
      const button = document.createElement("button");
      button.textContent = turn.text;
      button.dataset.turn = turn.text;
      button.addEventListener("click", () => play(turn.text));
      choices.append(button);
    }
  }
  if (state.clicks.length) {
    const cancel = document.createElement("button");
    cancel.textContent = "cancel";
    cancel.addEventListener("click", () => { state.clicks = []; draw(); });
    choices.append(cancel);
  }
}

// ---- Drawing --------------------------------------------------------------------------------

function draw() {
  const view = state.view;
  if (!view) return;
  $("game-name").textContent = view.position.game;
  drawBoard(view);
  drawHands(view);
  drawPrompt();
  drawLegal();
  drawMoves();
  $("result").textContent = view.position.result ? view.position.result.text : "";
  $("fen").placeholder = view.position.fen;
  $("board").dataset.fen = view.position.fen;
}

function drawBoard(view) {
  const board = $("board");
  const margin = 18;
  const [w, h] = [view.width, view.height];
  board.setAttribute("viewBox", `0 0 ${w * SQUARE + margin} ${h * SQUARE + margin}`);
  board.replaceChildren();
  const { next } = humanToMove() ? nextSteps() : { next: new Map() };
  const last = new Set(view.last);
  const picked = new Set(state.clicks);
  const at = (file, rank) => state.flipped
    ? [margin + (w - 1 - file) * SQUARE, rank * SQUARE]
    : [margin + file * SQUARE, (h - 1 - rank) * SQUARE];
  for (const square of view.squares) {
    const [x, y] = at(square.file, square.rank);
    const group = document.createElementNS(SVG, "g");
    group.classList.add("square");
    group.dataset.square = square.name;
    const shade = (square.file + square.rank) % 2 === 0 ? "dark" : "light";
    const cell = rect(x, y, SQUARE, SQUARE, [shade]);
    if (last.has(square.name)) cell.classList.add("last");
    if (square.blocked) cell.classList.add("blocked");
    if (picked.has(square.name)) cell.classList.add("picked");
    group.append(cell);
    if (square.blocked) group.append(cross(x, y));
    if (square.piece) group.append(piece(square.piece, x, y));
    if (next.has(square.name)) {
      group.classList.add("can");
      const dot = document.createElementNS(SVG, "circle");
      dot.setAttribute("cx", x + SQUARE / 2);
      dot.setAttribute("cy", y + SQUARE / 2);
      dot.setAttribute("r", square.piece ? SQUARE * 0.47 : SQUARE * 0.14);
      dot.classList.add("target");
      if (square.piece) dot.classList.add("ring");
      group.append(dot);
    }
    group.addEventListener("click", () => clicked(square.name));
    board.append(group);
  }
  for (let file = 0; file < w; file++) {
    const [x] = at(file, 0);
    board.append(label(x + SQUARE / 2, h * SQUARE + 13, String.fromCharCode(97 + file)));
  }
  for (let rank = 0; rank < h; rank++) {
    const [, y] = at(0, rank);
    board.append(label(8, y + SQUARE / 2 + 4, String(rank + 1)));
  }
}

function rect(x, y, w, h, classes) {
  const r = document.createElementNS(SVG, "rect");
  r.setAttribute("x", x); r.setAttribute("y", y);
  r.setAttribute("width", w); r.setAttribute("height", h);
  r.classList.add(...classes);
  return r;
}

function cross(x, y) {
  const path = document.createElementNS(SVG, "path");
  const [a, b] = [SQUARE * 0.25, SQUARE * 0.75];
  path.setAttribute("d", `M${x + a} ${y + a}L${x + b} ${y + b}M${x + b} ${y + a}L${x + a} ${y + b}`);
  path.setAttribute("stroke", "#ddd");
  path.setAttribute("stroke-width", "4");
  return path;
}

function label(x, y, text) {
  const t = document.createElementNS(SVG, "text");
  t.setAttribute("x", x); t.setAttribute("y", y);
  t.setAttribute("text-anchor", "middle");
  t.classList.add("label");
  t.textContent = text;
  return t;
}

// A piece: a disc in its player's colour with its letter; a royal piece has a second ring, a
// promoted one a red letter.
function piece(info, x, y) {
  const group = document.createElementNS(SVG, "g");
  group.classList.add("piece");
  const fill = colourOf(info.player);
  const disc = document.createElementNS(SVG, "circle");
  disc.setAttribute("cx", x + SQUARE / 2);
  disc.setAttribute("cy", y + SQUARE / 2);
  disc.setAttribute("r", SQUARE * 0.4);
  disc.setAttribute("fill", fill);
  disc.setAttribute("stroke", inkOn(fill) === "#111" ? "#333" : "#bbb");
  disc.setAttribute("stroke-width", info.royal ? 4 : 2);
  group.append(disc);
  if (info.royal) {
    const ring = document.createElementNS(SVG, "circle");
    ring.setAttribute("cx", x + SQUARE / 2);
    ring.setAttribute("cy", y + SQUARE / 2);
    ring.setAttribute("r", SQUARE * 0.32);
    ring.setAttribute("fill", "none");
    ring.setAttribute("stroke", inkOn(fill));
    ring.setAttribute("stroke-width", 1);
    group.append(ring);
  }
  const letter = info.letter.replace(/^\+/, "");
  const text = document.createElementNS(SVG, "text");
  text.setAttribute("x", x + SQUARE / 2);
  text.setAttribute("y", y + SQUARE / 2 + (letter.length > 1 ? 6 : 8));
  text.setAttribute("text-anchor", "middle");
  text.setAttribute("font-size", letter.length > 1 ? 17 : 22);
  text.setAttribute("fill", info.promoted ? "#d0021b" : inkOn(fill));
  text.textContent = letter.toUpperCase();
  const title = document.createElementNS(SVG, "title");
  title.textContent = `${state.view.players[info.player]} ${info.promoted ? "promoted " : ""}${info.name}`;
  group.append(text, title);
  return group;
}

function drawHands(view) {
  const top = $("hands-top");
  const bottom = $("hands-bottom");
  top.replaceChildren();
  bottom.replaceChildren();
  const { next } = humanToMove() ? nextSteps() : { next: new Map() };
  view.hands.forEach((held, player) => {
    if (held.length === 0) return;
    const hand = document.createElement("div");
    hand.className = "hand";
    hand.dataset.player = player;
    const swatch = document.createElement("span");
    swatch.className = "swatch";
    swatch.style.background = colourOf(player);
    hand.append(swatch, view.players[player] + ":");
    for (const piece of held) {
      const button = document.createElement("button");
      button.textContent = piece.letter.toUpperCase() + (piece.count > 1 ? "×" + piece.count : "");
      button.title = piece.name;
      button.style.background = colourOf(player);
      button.style.color = inkOn(colourOf(player));
      if (player === view.to_move) {
        button.dataset.click = piece.click;
        if (next.has(piece.click)) button.classList.add("target");
        if (state.clicks.includes(piece.click)) button.classList.add("picked");
        button.addEventListener("click", () => clicked(piece.click));
      }
      hand.append(button);
    }
    const away = (player === 0) !== state.flipped;
    (away ? bottom : top).append(hand);
  });
}

function drawLegal() {
  const legal = $("legal");
  legal.replaceChildren();
  $("legal-count").textContent = state.turns.length;
  const typed = $("typed-turn").value.trim();
  for (const turn of state.turns) {
    if (typed && !turn.text.startsWith(typed)) continue;
    const button = document.createElement("button");
    button.textContent = turn.text;
    button.addEventListener("click", () => humanToMove() ? play(turn.text) : say("It is not your turn."));
    legal.append(button);
  }
}

function drawMoves() {
  const list = $("move-list");
  list.replaceChildren();
  for (const move of state.moves) {
    const item = document.createElement("li");
    item.textContent = move;
    list.append(item);
  }
  list.scrollTop = list.scrollHeight;
}

function drawSeats() {
  const view = state.view;
  if (!view) return;
  const seats = $("seats");
  seats.replaceChildren();
  state.seats = view.players.map((_, i) => state.seats[i] || (i === 0 ? "human" : "ai"));
  view.players.forEach((name, player) => {
    const line = document.createElement("label");
    const swatch = document.createElement("span");
    swatch.className = "swatch";
    swatch.style.background = colourOf(player);
    const select = document.createElement("select");
    select.id = "seat-" + player;
    for (const [value, text] of [["human", "human"], ["ai", "computer"], ["random", "random"]]) {
      select.add(new Option(text, value, false, state.seats[player] === value));
    }
    select.addEventListener("change", () => {
      state.seats[player] = select.value;
      refresh();
    });
    line.append(swatch, ` ${name} `, select);
    seats.append(line);
  });
}

// ---- Self-play ------------------------------------------------------------------------------

let job = null;
// What the computer of the running job evaluates with, for its report: the name of the weights
// file beside the rules, "" for the weights derived from the rules, null with no computer seat.
let jobWeights = null;

async function startSelfplay() {
  $("sp-start").disabled = true;
  try {
    const seats = state.seats.map((seat) => (seat === "random" ? "random" : "ai"));
    const started = await post("selfplay", {
      rules: state.rules,
      games: Number($("sp-games").value),
      think_ms: Number($("sp-think").value),
      seats,
      file: state.path,
    });
    job = started.job;
    jobWeights = seats.includes("ai") ? started.weights || "" : null;
    $("sp-stop").disabled = false;
    $("sp-report").textContent = "";
    pollSelfplay();
  } catch (error) {
    $("sp-start").disabled = false;
    $("sp-report").textContent = error.message;
  }
}

async function pollSelfplay() {
  if (job === null) return;
  let progress;
  try {
    progress = await api("GET", "selfplay/" + job);
  } catch (error) {
    job = null;
    $("sp-start").disabled = false;
    $("sp-stop").disabled = true;
    $("sp-report").textContent = error.message;
    return;
  }
  $("sp-progress").max = progress.games;
  $("sp-progress").value = progress.played;
  if (!progress.done) {
    $("sp-report").textContent = `${progress.played} of ${progress.games} games played`;
    setTimeout(pollSelfplay, 300);
    return;
  }
  job = null;
  $("sp-start").disabled = false;
  $("sp-stop").disabled = true;
  if (progress.error) $("sp-report").textContent = progress.error;
  else drawReport(progress.report);
}

function drawReport(report) {
  const box = $("sp-report");
  box.replaceChildren();
  box.dataset.games = report.games;
  if (!report.games) { box.textContent = "No game had ended."; return; }
  const heading = (text) => { const h = document.createElement("h3"); h.textContent = text; box.append(h); };
  heading(`${report.games} games${report.partial ? " (stopped)" : ""}: wins per seat, with 95% intervals`);
  if (jobWeights !== null) {
    const weights = document.createElement("p");
    weights.className = "weights";
    weights.textContent = jobWeights
      ? `The computer evaluated with ${jobWeights}, the weights file beside the rules.`
      : "The computer evaluated with the weights derived from the rules.";
    box.append(weights);
  }
  box.append(intervals(report.seats));
  const table = document.createElement("table");
  table.innerHTML = "<tr><th>seat</th><th>wins</th><th>draws</th><th>losses</th></tr>" +
    report.seats.map((s) => `<tr><td>${escape(s.side)}</td><td>${s.wins}</td><td>${s.draws}</td><td>${s.losses}</td></tr>`).join("");
  box.append(table);
  heading("How games ended");
  box.append(bars(report.endings.map((e) => [e.cause, e.games])));
  heading(`Game length in plies (median ${report.lengths.median})`);
  box.append(bars(report.lengths.histogram.map(([from, n]) => [from + "+", n])));
}

// Each seat's win rate as a dot on its 95% interval, on a scale from 0 to 1.
function intervals(seats) {
  const svg = document.createElementNS(SVG, "svg");
  const row = 22, left = 90, width = 300;
  svg.setAttribute("viewBox", `0 0 ${left + width + 10} ${seats.length * row + 16}`);
  seats.forEach((seat, i) => {
    const y = i * row + 12;
    svg.append(label(left - 45, y + 4, seat.side));
    const axis = document.createElementNS(SVG, "line");
    Object.entries({ x1: left, x2: left + width, y1: y, y2: y, stroke: "#ccc" }).forEach(([k, v]) => axis.setAttribute(k, v));
    const span = document.createElementNS(SVG, "line");
    Object.entries({ x1: left + seat.win_rate_low * width, x2: left + seat.win_rate_high * width, y1: y, y2: y, stroke: colourOf(seat.seat - 1) === "#f7f7f2" ? "#888" : colourOf(seat.seat - 1), "stroke-width": 6 }).forEach(([k, v]) => span.setAttribute(k, v));
    const dot = document.createElementNS(SVG, "circle");
    Object.entries({ cx: left + seat.win_rate * width, cy: y, r: 5, fill: "#222" }).forEach(([k, v]) => dot.setAttribute(k, v));
    svg.append(axis, span, dot, label(left + width - 10, y - 4, (seat.win_rate * 100).toFixed(0) + "%"));
  });
  svg.append(label(left, seats.length * row + 14, "0"), label(left + width, seats.length * row + 14, "1"));
  return svg;
}

// A horizontal bar chart of (label, count) pairs.
function bars(pairs) {
  const svg = document.createElementNS(SVG, "svg");
  const row = 18, left = 140, width = 240;
  const most = Math.max(1, ...pairs.map(([, n]) => n));
  svg.setAttribute("viewBox", `0 0 ${left + width + 40} ${pairs.length * row + 4}`);
  pairs.forEach(([name, n], i) => {
    const y = i * row + 2;
    const t = label(left - 6, y + 12, name);
    t.setAttribute("text-anchor", "end");
    const bar = rect(left, y, Math.max(1, (n / most) * width), row - 4, []);
    bar.setAttribute("fill", "#3b6fd6");
    const count = label(left + (n / most) * width + 14, y + 12, String(n));
    svg.append(t, bar, count);
  });
  return svg;
}

// ---- Wiring ---------------------------------------------------------------------------------

function wire() {
  $("rules").addEventListener("input", rulesEdited);
  $("rules").addEventListener("scroll", () => { $("gutter").scrollTop = $("rules").scrollTop; });
  $("file").addEventListener("change", () => openFile($("file").value).catch((e) => say(e.message)));
  $("new-file").addEventListener("click", () => {
    state.path = null;
    $("rules").value = 'game "My variant"\n';
    $("file-state").textContent = "new";
    checkRules(true);
  });
  $("save").addEventListener("click", () => (state.path ? save(state.path).catch((e) => say(e.message)) : saveAs()));
  $("save-as").addEventListener("click", saveAs);
  $("new-game").addEventListener("click", () => { state.fen = null; state.moves = []; state.movers = []; refresh(); });
  $("undo").addEventListener("click", undo);
  $("flip").addEventListener("click", () => { state.flipped = !state.flipped; draw(); });
  $("fen-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const previous = [state.fen, state.moves, state.movers];
    state.fen = $("fen").value.trim() || null;
    state.moves = [];
    state.movers = [];
    // A position that cannot be read leaves the game as it was, saying why.
    refresh().then((shown) => {
      if (shown) return;
      const why = $("message").textContent;
      [state.fen, state.moves, state.movers] = previous;
      refresh().then(() => say(why));
    });
  });
  $("typed").addEventListener("submit", (event) => {
    event.preventDefault();
    const text = $("typed-turn").value.trim();
    if (!text) return;
    if (!humanToMove()) { say("It is not your turn."); return; }
    $("typed-turn").value = "";
    play(text);
  });
  $("typed-turn").addEventListener("input", drawLegal);
  $("sp-start").addEventListener("click", startSelfplay);
  $("sp-stop").addEventListener("click", () => job !== null && api("DELETE", "selfplay/" + job));
}

async function main() {
  wire();
  try {
    const first = await loadFiles();
    if (first) await openFile(first);
  } catch (error) { say(error.message); }
}

main();
