// The text around the board: status line, seats, move list, checkmate announcements,
// engine thinking, the evaluation (a bar for two players, per army for four), the clocks and
// the legend of the pieces. Pure rendering from the server's state.

import { armyColours, figurine, pieceIcon } from "./glyphs.js";

const esc = (s) => String(s).replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);

export function swatch(state, player) {
  const c = armyColours(state.players)[player];
  return `<span class="swatch" style="background:${c.fill}"></span>`;
}

export function statusHtml(state) {
  if (state.outcome) {
    return `<span class="result" id="result">${esc(state.outcome.text)}</span>` +
      ` <span id="rule">(the game ended by ${esc(state.outcome.reason)})</span>`;
  }
  const side = state.side;
  const who = state.seats[side] === "engine" ? "engine" : "you";
  let text = `${swatch(state, side)} <span id="to-move">${esc(state.names[side])}</span> to move (${who})`;
  const checked = state.names.filter((_, i) => state.in_check[i]);
  if (checked.length) text += ` &middot; <span id="in-check">check: ${checked.map(esc).join(", ")}</span>`;
  if (state.players > 2) {
    const playing = state.names.filter((_, i) => state.alive[i]);
    text += ` &middot; <span id="armies-playing">armies playing: ${playing.map(esc).join(", ")}</span>`;
  }
  return text;
}

// Who plays each seat, and the engine's skill level for it (0 weakest, 20 full strength);
// called "skill" on the page, as "level" names the boards of the 3D games.
export function seatsHtml(state) {
  const levels = [...Array(21).keys()];
  return state.names.map((name, i) =>
    `<label class="seat">${swatch(state, i)}${esc(name)} <select data-seat="${i}">` +
    ["human", "engine"].map((s) => `<option${state.seats[i] === s ? " selected" : ""}>${s}</option>`).join("") +
    `</select></label>` +
    `<label class="level" title="the engine's skill level for ${esc(name)}: 0 weakest, 20 full strength">skill ` +
    `<select data-level="${i}">` +
    levels.map((n) => `<option${state.levels[i] === n ? " selected" : ""}>${n}</option>`).join("") +
    `</select></label>`).join("");
}

// "Catholic checkmates Protestant (promoted: King → Emperor at es1, ...)"
export function checkmateText(state, event) {
  const by = state.names[event.by];
  const victims = event.victims.map((v) => state.names[v]).join(" and ");
  const promoted = event.promotions.map((p) =>
    `${state.kinds[p.from].name} → ${state.kinds[p.to].name} at ${p.cell}`);
  return `${by} checkmates ${victims}` + (promoted.length ? ` (promoted: ${promoted.join(", ")})` : "");
}

// The moves, numbered by rounds (a round starts when the turn comes back to an earlier army).
export function movesHtml(state, viewing) {
  let out = "", last = Infinity, round = 0;
  state.history.forEach((h, i) => {
    if (h.mover <= last) {
      round += 1;
      out += `<li class="num">${round}.</li>`;
    }
    last = h.mover;
    const mate = h.checkmates ? ` <span class="mate" title="${esc(checkmateText(state, h.checkmates))}">#</span>` : "";
    const current = viewing === i + 1 ? " current" : "";
    const dot = state.players > 2 ? swatch(state, h.mover) : "";
    out += `<li>${dot}<span class="ply${current}" data-ply="${i + 1}">${esc(h.move)}</span>${mate}</li>`;
  });
  return out;
}

export function eventsHtml(state) {
  return state.history.filter((h) => h.checkmates)
    .map((h) => `<li>${esc(checkmateText(state, h.checkmates))}</li>`).join("");
}

function scoreText(score) {
  if (score.mate !== undefined) return `mate ${score.mate}`;
  const cp = score.cp / 100;
  return (cp > 0 ? "+" : "") + cp.toFixed(2);
}

export function thinkingHtml(lines) {
  return lines.filter(Boolean).map((l) =>
    `<tr><td>${l.multipv}</td><td>${l.depth}/${l.seldepth}</td><td class="score">${scoreText(l.score)}</td>` +
    `<td>${Math.round(l.nps / 1000)}k</td><td class="pv">${esc(l.pv.join(" "))}</td></tr>`).join("");
}

// The static evaluation of each army still playing (four-player games). The server's
// numbers are centipawns of the army's whole material (the King's value too) plus safety
// terms, so they are shown in pawns against the average army in play: who is ahead and by
// how much, which is what a player reads a score for.
export function scoresHtml(state, armyScores) {
  if (!armyScores) return "";
  const alive = state.alive;
  const values = armyScores.slice(0, state.players);
  const playing = values.filter((_, i) => alive[i]);
  const mean = playing.reduce((a, b) => a + b, 0) / Math.max(1, playing.length);
  const pawns = values.map((v) => (v - mean) / 100);
  const top = Math.max(1, ...pawns.filter((_, i) => alive[i]).map(Math.abs));
  return `<div>Evaluation per army <small>(static, in pawns against the average army in play)</small></div>` + values.map((_, i) => {
    const c = armyColours(state.players)[i];
    const width = alive[i] ? Math.max(2, Math.round((Math.abs(pawns[i]) / top) * 120)) : 0;
    const text = alive[i] ? `${pawns[i] >= 0 ? "+" : "\u2212"}${Math.abs(pawns[i]).toFixed(2)} pawns` : "out";
    return `<div class="bar" data-army="${i}">${swatch(state, i)}<span style="width:80px">${esc(state.names[i])}</span>` +
      `<span class="fill" style="width:${width}px;background:${c.fill}"></span><span class="pawns">${text}</span></div>`;
  }).join("");
}

// A search score from the side to move's view, as White's: {text, share} where share is
// White's part of the bar (clamped at 10 pawns either way; a mate fills it).
export function whiteEval(score, side) {
  const sign = side === 0 ? 1 : -1;
  if (score.mate !== undefined) {
    const m = score.mate * sign;
    return { text: m > 0 ? `M${m}` : `-M${-m}`, share: m > 0 ? 1 : 0 };
  }
  const cp = score.cp * sign;
  const share = Math.min(1, Math.max(0, 0.5 + cp / 2000));
  return { text: (cp >= 0 ? "+" : "\u2212") + Math.abs(cp / 100).toFixed(2), share };
}

// "4:59", or "0:07.3" under ten seconds.
export function clockText(ms) {
  const t = Math.max(0, ms);
  const min = Math.floor(t / 60000), sec = Math.floor(t / 1000) % 60;
  const base = `${min}:${String(sec).padStart(2, "0")}`;
  return t < 10000 ? `${base}.${Math.floor(t / 100) % 10}` : base;
}

// How a piece moves, in words, from the server's sketch of its moves (forward = +y).
export function movesText(kind) {
  const words = [];
  const key = (v) => v.slice(0, 3).map(Math.abs).filter((n, i) => n || i < 2).sort((a, b) => a - b).join(",");
  const named = { "0,1": "orthogonally", "1,1": "diagonally", "1,2": "as a Knight (1,2)" };
  // Per kind of line or leap: how many directions, and for slides how far.
  const slides = new Map(), leaps = new Map();
  let bent = false;
  const count = (m, k, extra) => m.set(k, { n: (m.get(k)?.n || 0) + 1, extra });
  const dirs = (n) => (n === 1 ? "1 direction" : `${n} directions`);
  const seen = new Set(); // the same line as a move and as a capture is one direction
  for (const a of kind.sketch) {
    if (seen.has(JSON.stringify(a))) continue;
    seen.add(JSON.stringify(a));
    if (a.slide) count(slides, key(a.slide), a.max);
    else if (a.leap) count(leaps, key(a.leap));
    else bent = true;
  }
  for (const [k, { n, extra: max }] of slides) {
    const how = named[k] && k !== "1,2" ? named[k] : `along (${k}) lines`;
    words.push(`slides ${how}${max ? ` up to ${max}` : ""} (${dirs(n)})`);
  }
  for (const [k, { n }] of leaps) {
    if (k === "0,1" || k === "1,1") words.push(`steps ${named[k]} (${dirs(n)})`);
    else words.push(k === "1,2" ? `leaps as a Knight (${dirs(n)})` : `leaps (${k}) (${dirs(n)})`);
  }
  if (bent) words.push("bent moves");
  return words.join("; ") || "no moves of its own";
}

// The pieces `kinds` (indices): figurine or code, name, how it moves (Betza notation too).
export function legendHtml(state, kinds) {
  const player = 0;
  return kinds.map((i) => state.kinds[i]).map((k) => {
    const code = figurine(k) ? "" : ` (${esc(k.token)})`;
    const betza = k.betza ? ` <code title="Betza notation">${esc(k.betza)}</code>` : "";
    return `<li data-legend="${esc(k.token)}" title="${esc(k.name)}: ${esc(movesText(k))}">${pieceIcon(k, player, state.players)}` +
      `<span><b>${esc(k.name)}</b>${code}${k.royal ? " · royal" : ""}${betza}<br><small>${esc(movesText(k))}</small></span></li>`;
  }).join("");
}
