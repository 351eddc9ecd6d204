// Piece glyphs, drawn from what the server says about each kind: a disc in the army's
// colour, the kind's code on it, and around the code a sketch of how it moves (a tick per
// sliding direction, a dot per leap, a bent line per bent move, a triangle for moves up or
// down a level). Royal pieces wear a crown, pawns are smaller. So every kind of every army
// looks different without a hand-drawn picture per kind. The six FIDE pieces are drawn as the
// figurines players know instead: the Unicode chess symbols in the DejaVu Sans font.

const TWO = [
  { fill: "#f7f4ea", text: "#1d1d1d", stroke: "#333", mark: "#8a7a50" },
  { fill: "#262626", text: "#f7f4ea", stroke: "#000", mark: "#c8b88a" },
];
const FOUR = [
  { fill: "#c62828", text: "#fff", stroke: "#5c0d0d", mark: "#ffd0d0" },  // Catholic
  { fill: "#1565c0", text: "#fff", stroke: "#0a2f5c", mark: "#cfe2ff" },  // Protestant
  { fill: "#2e7d32", text: "#fff", stroke: "#103d12", mark: "#d4f5d4" },  // Islamic
  { fill: "#f2b705", text: "#1d1d1d", stroke: "#6b5000", mark: "#5a4300" }, // Byzantine
];

export function armyColours(players) {
  return players > 2 ? FOUR : TWO;
}

const esc = (s) => String(s).replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);

// The move sketch, in a unit circle (forward = up).
function sketch(kind, r, colour) {
  let out = "";
  const seen = new Set();
  const line = (x1, y1, x2, y2, w) =>
    `<line x1="${x1.toFixed(2)}" y1="${y1.toFixed(2)}" x2="${x2.toFixed(2)}" y2="${y2.toFixed(2)}" stroke="${colour}" stroke-width="${w}" stroke-linecap="round"/>`;
  for (const atom of kind.sketch) {
    const v = atom.slide || atom.leap || (atom.bent && atom.bent[0]);
    const key = JSON.stringify(atom);
    if (!v || seen.has(key)) continue;
    seen.add(key);
    const [x, y, z] = v;
    if (x === 0 && y === 0) {
      // Straight up or down a level: a small triangle at the top right or bottom right.
      const ty = z > 0 ? -0.62 * r : 0.62 * r;
      const d = z > 0 ? -1 : 1;
      out += `<path d="M${0.55 * r},${ty - d * 0.12 * r} l${0.1 * r},${d * 0.18 * r} l${-0.2 * r},0 z" fill="${colour}"/>`;
      continue;
    }
    const len = Math.hypot(x, y);
    const ux = x / len, uy = -y / len;
    const up = z !== 0 ? 0.6 : 1; // moves that also change level are drawn thinner
    if (atom.slide) {
      out += line(ux * 0.66 * r, uy * 0.66 * r, ux * 0.92 * r, uy * 0.92 * r, 0.07 * r * up);
    } else if (atom.bent) {
      const [bx, by] = atom.bent[1];
      const m = Math.hypot(bx, by) || 1;
      const sx = ux * 0.7 * r, sy = uy * 0.7 * r;
      out += `<polyline points="${sx.toFixed(2)},${sy.toFixed(2)} ${(sx + (bx / m) * 0.2 * r).toFixed(2)},${(sy - (by / m) * 0.2 * r).toFixed(2)}" fill="none" stroke="${colour}" stroke-width="${0.05 * r}"/>`;
    } else {
      const far = Math.min(len, 3) / 3; // one-step leaps near the code, longer ones out
      const d = (0.62 + 0.26 * far) * r;
      out += `<circle cx="${(ux * d).toFixed(2)}" cy="${(uy * d).toFixed(2)}" r="${(0.055 * r * up).toFixed(2)}" fill="${colour}"/>`;
    }
  }
  return out;
}

function crown(r, c) {
  const w = 0.5 * r, h = 0.22 * r, y = -0.98 * r;
  return `<path d="M${-w},${y + h} L${-w},${y} L${-w / 2},${y + h * 0.55} L0,${y - h * 0.2} L${w / 2},${y + h * 0.55} L${w},${y} L${w},${y + h} Z" fill="${c.fill}" stroke="${c.stroke}" stroke-width="${0.05 * r}"/>`;
}

// The solid Unicode figurines (U+265A..265F) by FIDE name; U+FE0E asks for the text form,
// not an emoji.
const FIGURINES = { King: "\u265A", Queen: "\u265B", Rook: "\u265C", Bishop: "\u265D",
  Knight: "\u265E", Pawn: "\u265F" };

export function figurine(kind) {
  return FIGURINES[kind.name];
}

// A FIDE piece as its figurine in the army's colour, outlined so that it shows on either square.
function figurineSvg(kind, player, r, c) {
  const code = kind.token;
  return `<g class="piece figurine" data-kind="${esc(code)}" data-player="${player}">` +
    `<title>${esc(kind.name)}</title>` +
    `<text text-anchor="middle" dominant-baseline="central" y="${(0.08 * r).toFixed(2)}" font-family="'DejaVu Sans', sans-serif" font-size="${(2.1 * r).toFixed(2)}" fill="${c.fill}" stroke="${c.stroke}" stroke-width="${(0.06 * r).toFixed(2)}" paint-order="stroke">${FIGURINES[kind.name]}\uFE0E</text>` +
    `</g>`;
}

// A piece centred at (0, 0) with radius r; `kind` is one of the state's kinds.
export function pieceSvg(kind, player, r, players) {
  const c = armyColours(players)[player];
  if (figurine(kind)) return figurineSvg(kind, player, r, c);
  const radius = kind.pawn ? 0.8 * r : r;
  const code = kind.token;
  const size = (code.length > 2 ? 0.46 : code.length > 1 ? 0.6 : 0.78) * radius;
  return `<g class="piece" data-kind="${esc(code)}" data-player="${player}">` +
    `<title>${esc(kind.name)}</title>` +
    `<circle r="${radius.toFixed(2)}" fill="${c.fill}" stroke="${c.stroke}" stroke-width="${(0.07 * r).toFixed(2)}"/>` +
    sketch(kind, radius, c.mark) +
    (kind.royal ? crown(radius, c) : "") +
    `<text text-anchor="middle" dominant-baseline="central" font-family="system-ui, sans-serif" font-weight="700" font-size="${size.toFixed(2)}" fill="${c.text}">${esc(code)}</text>` +
    `</g>`;
}

// A stand-alone SVG of one piece (hands, pickers).
export function pieceIcon(kind, player, players) {
  return `<svg viewBox="-50 -50 100 100" aria-label="${esc(kind.name)}">${pieceSvg(kind, player, 44, players)}</svg>`;
}
