// The text around the board: status line, seats, move list, checkmate announcements,
// engine thinking and the evaluation per army. Pure rendering from the server's state.

import { armyColours } from "./glyphs.js";

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
  if (state.players > 2) {
    const playing = state.names.filter((_, i) => state.alive[i]);
    text += ` &middot; <span id="armies-playing">armies playing: ${playing.map(esc).join(", ")}</span>`;
  }
  return text;
}

export function seatsHtml(state) {
  return state.names.map((name, i) =>
    `<label class="seat">${swatch(state, i)}${esc(name)} <select data-seat="${i}">` +
    ["human", "engine"].map((s) => `<option${state.seats[i] === s ? " selected" : ""}>${s}</option>`).join("") +
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

// The static evaluation of each army still playing (four-player games).
export function scoresHtml(state, armyScores) {
  if (!armyScores) return "";
  const alive = state.alive;
  const values = armyScores.slice(0, state.players);
  const top = Math.max(1, ...values.map(Math.abs));
  return "<div>Evaluation per army</div>" + values.map((v, i) => {
    const c = armyColours(state.players)[i];
    const width = alive[i] ? Math.max(2, Math.round((Math.abs(v) / top) * 160)) : 0;
    return `<div class="bar" data-army="${i}">${swatch(state, i)}<span style="width:80px">${esc(state.names[i])}</span>` +
      `<span class="fill" style="width:${width}px;background:${c.fill}"></span><span>${alive[i] ? v : "out"}</span></div>`;
  }).join("");
}
