// The board as one SVG: a flat board, or the levels of a 3D board side by side (Missionary's
// six 6x8 levels, Armies of Faith's four 10x8 levels). Cell names come from the server
// (geometry.cells, by cell index), and every cell carries its name in `data-cell`, shown on
// hover. The board turns so that any seat sits at the bottom: `view` is the side the viewer
// sits on, S (the first player's), N (half a circle), W or E (a quarter, four-player games).

import { armyColours, pieceSvg } from "./glyphs.js";

const LIGHT = "#efe3c8", DARK = "#b58b5e", LIGHT3D = "#e8e2d2", DARK3D = "#a99270";

export function coords(geometry, cell) {
  const { files, ranks } = geometry;
  return { x: cell % files, y: Math.floor(cell / files) % ranks, z: Math.floor(cell / (files * ranks)) };
}

// A level's width and height in cells from `view`, and the column and row of (x, y) on it.
function grid(geometry, view) {
  const F = geometry.files, R = geometry.ranks;
  switch (view) {
    case "N": return { w: F, h: R, at: (x, y) => [F - 1 - x, y] };
    case "W": return { w: R, h: F, at: (x, y) => [R - 1 - y, F - 1 - x] };
    case "E": return { w: R, h: F, at: (x, y) => [y, x] };
    default: return { w: F, h: R, at: (x, y) => [x, R - 1 - y] };
  }
}

// Sizes and the screen position of every cell; `perRow` levels side by side per row.
export function layout(geometry, view, perRow) {
  const g = grid(geometry, view);
  const flat = geometry.levels === 1;
  const across = Math.max(1, Math.min(perRow || geometry.levels, geometry.levels));
  const rows = Math.ceil(geometry.levels / across);
  const s = flat ? 60 : 40;
  const gap = flat ? 0 : Math.round(s * 0.7);
  const left = flat ? 20 : 6, top = flat ? 6 : 22;
  const levelWidth = g.w * s;
  const levelHeight = g.h * s + (flat ? 0 : top);
  const width = left + across * levelWidth + (across - 1) * gap + 6;
  const height = top + rows * levelHeight - (flat ? 0 : top) + (flat ? 22 : 6);
  const origin = (z) => ({
    x: left + (z % across) * (levelWidth + gap),
    y: top + Math.floor(z / across) * levelHeight,
  });
  const place = (cell) => {
    const { x, y, z } = coords(geometry, cell);
    const [col, row] = g.at(x, y);
    const o = origin(z);
    return { x: o.x + col * s, y: o.y + row * s };
  };
  // The cell of level z drawn at the bottom left.
  const corner = (z) => geometry.cells.findIndex((_, cell) => {
    const c = coords(geometry, cell);
    const [col, row] = g.at(c.x, c.y);
    return c.z === z && col === 0 && row === g.h - 1;
  });
  return { s, gap, left, top, levelWidth, width, height, place, origin, flat, corner };
}

function squares(geometry, lay, marks) {
  let out = "";
  geometry.cells.forEach((name, cell) => {
    const { x, y, z } = coords(geometry, cell);
    const p = lay.place(cell);
    const dark = (x + y + z) % 2 === 0;
    const fill = lay.flat ? (dark ? DARK : LIGHT) : (dark ? DARK3D : LIGHT3D);
    out += `<rect class="cell" data-cell="${name}" data-index="${cell}" x="${p.x}" y="${p.y}" width="${lay.s}" height="${lay.s}" fill="${fill}"><title>${name}</title></rect>`;
    if (marks.selected === cell) {
      out += `<rect x="${p.x}" y="${p.y}" width="${lay.s}" height="${lay.s}" fill="#2a7be4" opacity="0.45" pointer-events="none"/>`;
    }
    if ((marks.checks || []).includes(cell)) {
      out += `<rect class="check" data-check="${name}" x="${p.x}" y="${p.y}" width="${lay.s}" height="${lay.s}" fill="url(#check-glow)" pointer-events="none"/>`;
    }
  });
  return out;
}

function captions(geometry, lay) {
  let out = "";
  if (lay.flat) {
    // File letters and rank numbers, read off the server's cell names of the edge cells.
    for (let x = 0; x < geometry.files; x++) {
      const p = lay.place(x);
      out += `<text class="coord" x="${p.x + lay.s / 2}" y="${lay.top + geometry.ranks * lay.s + 15}" text-anchor="middle">${geometry.cells[x][0]}</text>`;
    }
    for (let y = 0; y < geometry.ranks; y++) {
      const p = lay.place(y * geometry.files);
      out += `<text class="coord" x="${lay.left - 10}" y="${p.y + lay.s / 2 + 4}" text-anchor="middle">${geometry.cells[y * geometry.files].slice(1)}</text>`;
    }
    return out;
  }
  for (let z = 0; z < geometry.levels; z++) {
    const o = lay.origin(z);
    const corner = geometry.cells[lay.corner(z)];
    out += `<text class="level-label" x="${o.x + lay.levelWidth / 2}" y="${o.y - 7}" text-anchor="middle">level ${z + 1} · ${corner} at bottom left</text>`;
  }
  return out;
}

// Last moves (one per army, in its colour), legal targets, the engine's best move.
function overlays(state, lay, marks) {
  const colours = armyColours(state.players);
  let out = "";
  for (const m of marks.lastMoves || []) {
    const stroke = state.players > 2 ? colours[m.player].fill : "#e0b000";
    for (const cell of [m.from, m.to]) {
      if (cell === null || cell === undefined) continue;
      const p = lay.place(cell);
      const dash = cell === m.from ? ` stroke-dasharray="5 3"` : "";
      out += `<rect x="${p.x + 2}" y="${p.y + 2}" width="${lay.s - 4}" height="${lay.s - 4}" fill="none" stroke="${stroke}" stroke-width="3.5"${dash} pointer-events="none" class="last-move" data-player="${m.player}"/>`;
    }
  }
  for (const cell of marks.targets || []) {
    const p = lay.place(cell);
    out += `<circle class="target" data-target="${state.geometry.cells[cell]}" cx="${p.x + lay.s / 2}" cy="${p.y + lay.s / 2}" r="${lay.s * 0.17}" fill="#2a7be4" opacity="0.75" pointer-events="none"/>`;
  }
  return out;
}

function arrow(lay, from, to) {
  if (to === null || to === undefined) return "";
  const b = lay.place(to);
  const bx = b.x + lay.s / 2, by = b.y + lay.s / 2;
  if (from === null || from === undefined) {
    return `<circle id="best-arrow" cx="${bx}" cy="${by}" r="${lay.s * 0.42}" fill="none" stroke="#1a9c3a" stroke-width="5" opacity="0.8" pointer-events="none"/>`;
  }
  const a = lay.place(from);
  const ax = a.x + lay.s / 2, ay = a.y + lay.s / 2;
  return `<line id="best-arrow" x1="${ax}" y1="${ay}" x2="${bx}" y2="${by}" stroke="#1a9c3a" stroke-width="${lay.s * 0.14}" opacity="0.75" marker-end="url(#head)" stroke-linecap="round" pointer-events="none"/>`;
}

function pieces(state, board, lay, marks) {
  let out = "";
  for (const [cell, player, kind] of board.pieces) {
    if (cell === marks.dragging) continue;
    const p = lay.place(cell);
    out += `<g transform="translate(${p.x + lay.s / 2},${p.y + lay.s / 2})" data-at="${state.geometry.cells[cell]}" pointer-events="none">${pieceSvg(state.kinds[kind], player, lay.s * 0.4, state.players)}</g>`;
  }
  return out;
}

// The whole board. `marks`: selected cell, targets, lastMoves, best {from, to}, dragging,
// checks (the cells of royal pieces in check).
export function boardSvg(state, board, view, marks, perRow) {
  const lay = layout(state.geometry, view, perRow);
  const best = `<g id="arrow-layer">${arrowSvg(state, view, perRow, marks.best)}</g>`;
  return `<svg id="board-svg" viewBox="0 0 ${lay.width} ${lay.height}" xmlns="http://www.w3.org/2000/svg">` +
    `<defs><marker id="head" viewBox="0 0 10 10" refX="6" refY="5" markerWidth="3" markerHeight="3" orient="auto"><path d="M0,0 L10,5 L0,10 z" fill="#1a9c3a"/></marker>` +
    `<radialGradient id="check-glow"><stop offset="0%" stop-color="#ff1a1a" stop-opacity="0.95"/><stop offset="45%" stop-color="#e00000" stop-opacity="0.7"/><stop offset="100%" stop-color="#a00000" stop-opacity="0"/></radialGradient></defs>` +
    captions(state.geometry, lay) +
    squares(state.geometry, lay, marks) +
    overlays(state, lay, marks) +
    pieces(state, board, lay, marks) +
    best +
    `</svg>`;
}

// The engine's best move alone: redrawn on every thinking report without touching the cells
// (so that a click in progress is not lost).
export function arrowSvg(state, view, perRow, best) {
  if (!best) return "";
  return arrow(layout(state.geometry, view, perRow), best.from, best.to);
}
