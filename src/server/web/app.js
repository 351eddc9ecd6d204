// The page's controller: keeps the server's state, turns clicks and drags into move strings
// the server listed as legal, and listens to the event stream (`state` after every change of
// the shared game, `info` while the engine thinks).

import { get, post } from "./api.js";
import { arrowSvg, boardSvg, coords } from "./board.js";
import { pieceIcon } from "./glyphs.js";
import * as panels from "./panels.js";

const $ = (id) => document.getElementById(id);

let state = null;        // the server's last answer
let viewPly = null;      // null: the game now; a number: the board before that move
let viewData = null;     // the board of viewPly
let selected = null;     // {cell} or {drop: kind}
let viewFrom = null;     // the seat at the bottom of the board
let thinking = [];       // the latest engine line per MultiPV index
let drag = null;         // {from, x, y, moved, ghost}
let checkmatesSeen = null;
let armySides = [];      // where each army sits: S, W, N or E (see sides())
let lastEval = null;     // the engine's latest evaluation {score, side, depth}, for the bar
let clockAt = 0;         // when the clocks of `state` were read (performance.now())
let kindsSeen = new Set(); // the kinds seen on the board or in hand in this game, for the legend

// ---- talking to the server ----

async function act(promise) {
  try {
    const answer = await promise;
    if (answer && answer.geometry) setState(answer);
    return answer;
  } catch (e) {
    showError(e.message);
    return null;
  }
}

function showError(message) {
  const box = $("error");
  box.textContent = message;
  box.hidden = false;
  clearTimeout(showError.timer);
  showError.timer = setTimeout(() => { box.hidden = true; }, 5000);
}

let refreshing = null, refreshAgain = false;
async function refresh() {
  if (refreshing) { refreshAgain = true; return; }
  refreshing = get("/api/state").then(setState).catch((e) => showError(e.message));
  await refreshing;
  refreshing = null;
  if (refreshAgain) { refreshAgain = false; refresh(); }
}

function setState(next) {
  const variantChanged = !state || state.variant !== next.variant;
  // A picked-up piece stays picked up when only the seats or the engine changed.
  const samePosition = state && !variantChanged && state.position === next.position && state.ply === next.ply;
  const keep = samePosition ? selected : null;
  // A new game, a position set up or a move taken back: the last evaluation was of another
  // position.
  if (state && (next.ply < state.ply || (next.ply === 0 && next.position !== state.position))) lastEval = null;
  if (variantChanged || next.ply === 0) kindsSeen = new Set();
  state = next;
  thinking = next.thinking || [];
  clockAt = performance.now();
  if (variantChanged) {
    lastEval = null;
    armySides = sides();
    viewFrom = Math.max(0, state.seats.indexOf("human"));
    fillViewFrom();
    document.body.classList.toggle("deep", state.geometry.levels > 1);
    $("per-row").innerHTML = [...Array(state.geometry.levels).keys()].reverse()
      .map((i) => `<option value="${i + 1}">${i + 1 === state.geometry.levels ? "all side by side" : `${i + 1} per row`}</option>`).join("");
    $("per-row-label").hidden = state.geometry.levels === 1;
    $("variant").value = state.variant;
    const url = new URL(location.href);
    url.searchParams.set("variant", state.variant);
    history.replaceState(null, "", url);
  }
  if (viewPly !== null && viewPly >= state.ply) viewPly = null;
  announce();
  selected = keep;
  render();
}

// Checkmates as they happen, and the end of the game.
function announce() {
  const events = state.history.filter((h) => h.checkmates);
  const box = $("announce");
  if (checkmatesSeen !== null && events.length > checkmatesSeen) {
    box.textContent = events.slice(checkmatesSeen)
      .map((h) => panels.checkmateText(state, h.checkmates)).join("; ");
    box.hidden = false;
  } else if (events.length < (checkmatesSeen || 0) || state.ply === 0) {
    box.hidden = true;
  }
  checkmatesSeen = events.length;
}

// ---- what may be clicked ----

function live() { return viewPly === null; }

function humanToMove() {
  return live() && !state.outcome && state.seats[state.side] === "human";
}

function movesFrom(cell) { return state.legal.filter((m) => m.from === cell); }

// The side each army sits on, read from where its pieces stand: of the four sides the one
// its pieces are nearest to, and of two equal ones (a camp in a corner, as in Armies of
// Faith) the one that has the camp on the viewer's right. So every army of a four-player game
// gets a view of its own, a quarter turn from the next army's.
function sides() {
  if (state.players === 2) return ["S", "N"];
  const g = state.geometry;
  // Per side: towards the viewer, and towards the viewer's right.
  const views = { S: [[0, -1], [1, 0]], W: [[-1, 0], [0, -1]], N: [[0, 1], [-1, 0]], E: [[1, 0], [0, 1]] };
  return state.names.map((_, player) => {
    let dx = 0, dy = 0;
    for (const [cell, owner] of state.board.pieces) {
      if (owner !== player) continue;
      const c = coords(g, cell);
      dx += c.x - (g.files - 1) / 2;
      dy += c.y - (g.ranks - 1) / 2;
    }
    let best = "S", bestScore = -Infinity;
    for (const [view, [down, right]] of Object.entries(views)) {
      const score = down[0] * dx + down[1] * dy + 0.1 * (right[0] * dx + right[1] * dy);
      if (score > bestScore) { best = view; bestScore = score; }
    }
    return best;
  });
}

function orientation() { return armySides[viewFrom] || "S"; }

// The cells of the royal pieces of every army in check.
function checkCells(board, inCheck) {
  return board.pieces.filter(([, player, kind]) => inCheck[player] && state.kinds[kind].royal)
    .map(([cell]) => cell);
}

// ---- rendering ----

// The last move of every army in four-player games; the last move alone in two-player games.
function lastMoves(plies) {
  const last = new Map();
  for (const h of state.history.slice(0, plies)) last.set(h.mover, { player: h.mover, from: h.from, to: h.to });
  const moves = [...last.values()];
  if (state.players > 2 || plies === 0) return moves;
  const latest = state.history[plies - 1].mover;
  return moves.filter((m) => m.player === latest);
}

function bestMove() {
  const line = thinking[0];
  if (!line || !live() || !line.pv.length) return null;
  return state.legal.find((m) => m.move === line.pv[0]) || null;
}

function targets() {
  if (!selected) return [];
  const moves = selected.drop !== undefined
    ? state.legal.filter((m) => m.drop === selected.drop)
    : movesFrom(selected.cell);
  return [...new Set(moves.map((m) => m.to))];
}

function render() {
  const board = live() ? state.board : viewData.board;
  const plies = live() ? state.ply : viewPly;
  $("board").dataset.view = orientation();
  $("board").innerHTML = boardSvg(state, board, orientation(), {
    selected: selected ? selected.cell : undefined,
    targets: targets(),
    lastMoves: lastMoves(plies),
    best: bestMove(),
    dragging: drag && drag.moved ? drag.from : undefined,
    checks: checkCells(board, live() ? state.in_check : viewData.in_check),
  }, perRow());
  renderHands(board);
  // Rewritten only when it changes: the line is announced by screen readers (aria-live).
  const status = panels.statusHtml(state);
  if (status !== render.status) $("status").innerHTML = render.status = status;
  $("resumed").hidden = !state.resumed;
  $("seats").innerHTML = panels.seatsHtml(state);
  $("moves").innerHTML = panels.movesHtml(state, live() ? null : viewPly);
  $("events").innerHTML = panels.eventsHtml(state);
  $("scores").innerHTML = panels.scoresHtml(state, live() ? state.army_scores : viewData.army_scores);
  // Never overwrite what the user is typing (a move of the engine may arrive meanwhile).
  if (document.activeElement !== $("position")) {
    $("position").value = live() ? state.position : viewData.position;
  }
  $("pass-row").hidden = !(humanToMove() && state.legal.some((m) => m.move === "pass"));
  $("viewing").hidden = live();
  $("viewing").textContent = live() ? "" : `Viewing the position after ${viewPly} of ${state.ply} moves (read only).`;
  $("move-form").hidden = !humanToMove();
  renderLegend(board);
  $("time-control").disabled = state.players !== 2;
  renderEngine();
  renderClocks();
}

// The legend lists the kinds of this game: those seen on the board or in hand so far (a
// variant's tables know more kinds than its armies use, such as every CwDA army's pieces).
function renderLegend(board) {
  const before = kindsSeen.size;
  for (const [, , kind] of board.pieces) kindsSeen.add(kind);
  for (const hand of board.hands) for (const [kind] of hand) kindsSeen.add(kind);
  if (kindsSeen.size !== before || !$("legend").innerHTML) {
    $("legend").innerHTML = panels.legendHtml(state, [...kindsSeen].sort((a, b) => a - b));
  }
}

// The clocks, the running one counted down from the server's last answer.
function renderClocks() {
  const box = $("clocks");
  const clock = state && state.clock;
  box.hidden = !clock;
  if (!clock) return;
  const ran = performance.now() - clockAt;
  box.innerHTML = [1, 0].map((side) => {
    const running = clock.running === side;
    const ms = clock.remaining[side] - (running ? ran : 0);
    const low = ms < 10000 ? " low" : "";
    return `<div class="clock${running ? " running" : ""}${low}" data-side="${side}">${panels.swatch(state, side)}` +
      `<span>${state.names[side]}</span> <b class="time">${panels.clockText(ms)}</b></div>`;
  }).join("");
}

// The evaluation bar of two-player games: White's share, the engine's latest score.
function renderEvalBar() {
  const bar = $("eval-bar");
  bar.hidden = state.players !== 2;
  const line = thinking[0];
  if (line && state.engine.searching) lastEval = { score: line.score, side: state.side, depth: line.depth };
  if (!lastEval) {
    bar.querySelector(".white").style.height = "50%";
    $("eval-text").textContent = "–";
    bar.title = "no evaluation yet: the engine has not searched";
    return;
  }
  const e = panels.whiteEval(lastEval.score, lastEval.side);
  bar.querySelector(".white").style.height = `${Math.round(e.share * 100)}%`;
  $("eval-text").textContent = e.text;
  bar.title = `${e.text} for White (engine, depth ${lastEval.depth})`;
}

function perRow() { return Number($("per-row").value) || 0; }

function renderArrow() {
  const layer = document.getElementById("arrow-layer");
  if (layer) layer.innerHTML = arrowSvg(state, orientation(), perRow(), bestMove());
}

function renderEngine() {
  const e = state.engine;
  let text = e.searching === "move" ? `thinking for ${state.names[state.side]}`
    : e.searching === "analysis" ? "analysing" : "idle";
  if (e.paused) text += ", engine seats paused";
  $("engine-state").textContent = `Engine: ${text}`;
  $("thinking").tBodies[0].innerHTML = panels.thinkingHtml(thinking);
  $("analyse").textContent = e.analysis ? "Stop analysis" : "Analyse";
  $("multipv").value = String(e.multipv);
  const budget = JSON.stringify(e.nodes !== null ? { nodes: e.nodes } : { movetime: e.movetime });
  for (const o of $("budget").options) if (o.value === budget) $("budget").value = budget;
  renderEvalBar();
}

function renderHands(board) {
  const box = $("hands");
  if (!state.hand_order) { box.innerHTML = ""; return; }
  box.innerHTML = state.names.map((name, player) => {
    const held = (board.hands[player] || []).map(([kind, count]) => {
      const sel = selected && selected.drop === kind && player === state.side ? " selected" : "";
      return `<span class="held${sel}" data-hand-player="${player}" data-hand-kind="${kind}" data-token="${state.kinds[kind].token}" title="${state.kinds[kind].name}">` +
        `${pieceIcon(state.kinds[kind], player, state.players)}<span class="count">${count}</span></span>`;
    }).join("");
    return `<div class="hand" data-hand="${player}"><h3>${name} in hand</h3>${held || "<small>empty</small>"}</div>`;
  }).join("");
}

// ---- moving ----

async function play(move) {
  selected = null;
  await act(post("/api/move", { move, seat: state.side }));
}

function choose(candidates, title) {
  if (candidates.length === 1) return play(candidates[0].move);
  const box = $("picker");
  $("picker-title").textContent = title;
  $("picker-choices").innerHTML = candidates.map((m) => {
    const kind = m.drop ?? m.promo ?? m.arrives;
    const label = m.drop !== null ? `drop ${state.kinds[m.drop].name}`
      : m.promo !== null ? state.kinds[m.promo].name
      : `no promotion (${state.kinds[m.arrives].name})`;
    return `<button data-move="${m.move}" data-choice="${state.kinds[kind].token}">${pieceIcon(state.kinds[kind], state.side, state.players)}<span>${label}</span></button>`;
  }).join("");
  box.hidden = false;
}

function onCell(cell) {
  if (!humanToMove()) return;
  if (selected) {
    const candidates = selected.drop !== undefined
      ? state.legal.filter((m) => m.drop === selected.drop && m.to === cell)
      : state.legal.filter((m) => m.from === selected.cell && m.to === cell);
    if (candidates.length) {
      return choose(candidates, candidates[0].promo !== null || candidates.some((m) => m.promo !== null)
        ? "Promote to" : "Choose the move");
    }
  }
  if (movesFrom(cell).length) {
    selected = { cell };
  } else {
    const drops = state.legal.filter((m) => m.drop !== null && m.to === cell);
    selected = null;
    if (drops.length) choose(drops, `Drop on ${state.geometry.cells[cell]}`);
  }
  render();
}

// With a piece picked up, what it would arrive as on `cell` when that differs from what it is
// (Cyclical Armies' type changes; promotions have their picker).
function arrival(cell) {
  if (!selected || selected.cell === undefined || !live()) return "";
  const move = state.legal.find((m) => m.from === selected.cell && m.to === cell && m.promo === null);
  const piece = state.board.pieces.find(([c]) => c === selected.cell);
  if (!move || !piece || move.arrives === null || move.arrives === piece[2]) return "";
  return ` · ${move.move}: the ${state.kinds[piece[2]].name} arrives as ${state.kinds[move.arrives].name} (${state.kinds[move.arrives].token})`;
}

function cellAt(x, y) {
  const el = document.elementFromPoint(x, y);
  return el && el.dataset && el.dataset.index !== undefined ? Number(el.dataset.index) : null;
}

function wireBoard() {
  const board = $("board");
  board.addEventListener("pointerdown", (ev) => {
    const cell = cellAt(ev.clientX, ev.clientY);
    if (cell === null) return;
    const wasTarget = selected && targets().includes(cell);
    onCell(cell);
    if (!wasTarget && selected && selected.cell === cell) {
      drag = { from: cell, x: ev.clientX, y: ev.clientY, moved: false };
    }
  });
  window.addEventListener("pointermove", (ev) => {
    if (!drag) return;
    if (!drag.moved && Math.hypot(ev.clientX - drag.x, ev.clientY - drag.y) < 6) return;
    if (!drag.moved) {
      drag.moved = true;
      const piece = state.board.pieces.find(([c]) => c === drag.from);
      drag.ghost = document.createElement("div");
      drag.ghost.style.cssText = "position:fixed;width:56px;height:56px;pointer-events:none;z-index:20";
      drag.ghost.innerHTML = pieceIcon(state.kinds[piece[2]], piece[1], state.players);
      document.body.appendChild(drag.ghost);
      render();
    }
    drag.ghost.style.left = `${ev.clientX - 28}px`;
    drag.ghost.style.top = `${ev.clientY - 28}px`;
  });
  window.addEventListener("pointerup", (ev) => {
    if (!drag) return;
    const d = drag;
    drag = null;
    if (!d.moved) return;
    d.ghost.remove();
    const cell = cellAt(ev.clientX, ev.clientY);
    if (cell !== null && cell !== d.from) onCell(cell); else render();
  });
  board.addEventListener("mouseover", (ev) => {
    const cell = ev.target.dataset ? ev.target.dataset.index : undefined;
    if (cell === undefined) return;
    const index = Number(cell);
    const piece = (live() ? state.board : viewData.board).pieces.find(([c]) => c === index);
    const kind = piece && state.kinds[piece[2]];
    const what = piece ? ` — ${state.names[piece[1]]} ${kind.name} (${kind.token}): ${panels.movesText(kind)}` : "";
    $("cell-name").textContent = `${state.geometry.cells[index]}${what}${arrival(index)}`;
  });
}

// ---- the move list ----

async function step(ply) {
  if (ply === null || ply >= state.ply) {
    viewPly = null;
  } else {
    const data = await act(get(`/api/view?ply=${Math.max(0, ply)}`));
    if (!data) return;
    viewPly = data.ply;
    viewData = data;
  }
  selected = null;
  render();
}

// ---- wiring ----

function fillViewFrom() {
  $("view-from").innerHTML = state.names.map((n, i) =>
    `<option value="${i}"${i === viewFrom ? " selected" : ""}>${n}</option>`).join("");
}

// A new game on the time control chosen (untimed by default).
function newGame(variant, position) {
  const clock = JSON.parse($("time-control").value);
  const body = { variant, position };
  return act(post("/api/new", clock ? { ...body, clock } : body).catch((e) => {
    // A four-player game refuses a clock: it starts untimed.
    if (clock && /no clocks/.test(e.message)) return post("/api/new", body);
    throw e;
  }));
}

// A move typed in the project's notation; the server checks it like a click.
async function typedMove(ev) {
  ev.preventDefault();
  const field = $("move-input");
  const move = field.value.trim();
  if (!move) return;
  try {
    const answer = await post("/api/move", { move, seat: state.side });
    $("move-error").hidden = true;
    field.value = "";
    selected = null;
    setState(answer);
  } catch (e) {
    $("move-error").textContent = e.message;
    $("move-error").hidden = false;
  }
  field.focus();
}

// The banner that offers the address's variant while a game is on; only a click starts it.
function offerNewGame(variant) {
  $("offer-variant").textContent = variant;
  $("offer").hidden = false;
  $("offer-new").onclick = async () => {
    $("offer").hidden = true;
    await act(post("/api/new", { variant }));
  };
  $("offer-keep").onclick = () => { $("offer").hidden = true; };
}

function wireControls() {
  $("variant").addEventListener("change", () => newGame($("variant").value));
  $("new-game").addEventListener("click", () => newGame(state.variant));
  $("resumed-new").addEventListener("click", () => newGame(state.variant));
  $("move-form").addEventListener("submit", typedMove);
  $("undo").addEventListener("click", () => act(post("/api/undo")));
  $("view-from").addEventListener("change", () => { viewFrom = Number($("view-from").value); render(); });
  $("per-row").addEventListener("change", () => render());
  $("seats").addEventListener("change", (ev) => {
    const chosen = (kind) => [...document.querySelectorAll(`#seats select[data-${kind}]`)].map((s) => s.value);
    if (ev.target.dataset.seat !== undefined) act(post("/api/seats", { seats: chosen("seat") }));
    if (ev.target.dataset.level !== undefined) act(post("/api/seats", { levels: chosen("level").map(Number) }));
  });
  $("budget").addEventListener("change", () => act(post("/api/engine", JSON.parse($("budget").value))));
  $("multipv").addEventListener("change", () => act(post("/api/engine", { multipv: Number($("multipv").value) })));
  $("analyse").addEventListener("click", () => act(post("/api/engine", { analysis: !state.engine.analysis })));
  $("move-now").addEventListener("click", () => act(post("/api/stop", { play: true })));
  $("pause").addEventListener("click", () => act(post("/api/stop", {})));
  $("resume").addEventListener("click", () => act(post("/api/resume")));
  $("pass").addEventListener("click", () => play("pass"));
  $("picker-choices").addEventListener("click", (ev) => {
    const button = ev.target.closest("button");
    if (!button) return;
    $("picker").hidden = true;
    play(button.dataset.move);
  });
  $("picker-cancel").addEventListener("click", () => { $("picker").hidden = true; selected = null; render(); });
  $("hands").addEventListener("click", (ev) => {
    const held = ev.target.closest(".held");
    if (!held || !humanToMove() || Number(held.dataset.handPlayer) !== state.side) return;
    selected = { drop: Number(held.dataset.handKind) };
    render();
  });
  $("moves").addEventListener("click", (ev) => {
    const ply = ev.target.dataset.ply;
    if (ply !== undefined) step(Number(ply));
  });
  $("first").addEventListener("click", () => step(0));
  $("back").addEventListener("click", () => step((viewPly ?? state.ply) - 1));
  $("forward").addEventListener("click", () => step(viewPly === null ? null : viewPly + 1));
  $("last").addEventListener("click", () => step(null));
  $("copy").addEventListener("click", async () => {
    const text = $("position").value;
    try { await navigator.clipboard.writeText(text); }
    catch { $("position").select(); document.execCommand("copy"); }
  });
  $("setup").addEventListener("click", () => newGame(undefined, $("position").value));
}

function listen() {
  const events = new EventSource("/api/events");
  events.addEventListener("state", () => refresh());
  events.addEventListener("info", (ev) => {
    const line = JSON.parse(ev.data);
    if (!state || !state.engine.searching) return;
    thinking[line.multipv - 1] = line;
    if (line.multipv === 1) thinking.length = Math.min(thinking.length, state.engine.multipv);
    renderEngine();
    if (line.multipv === 1) renderArrow();
  });
}

async function start() {
  const names = await get("/api/variants");
  $("variant").innerHTML = names.map((n) => `<option>${n}</option>`).join("");
  wireBoard();
  wireControls();
  const wanted = new URL(location.href).searchParams.get("variant");
  const current = await get("/api/state");
  // An address never ends a game that has moves (any page can open an address, issue 59):
  // the game is shown and the new one offered. A game without moves has nothing to lose.
  if (wanted && wanted !== current.variant && current.ply === 0) {
    if (!(await act(post("/api/new", { variant: wanted })))) setState(current);
  } else {
    setState(current);
    if (wanted && wanted !== current.variant) offerNewGame(wanted);
  }
  listen();
  setInterval(renderClocks, 100);
  document.body.dataset.ready = "1";
}

start();
