// Drawing a board as SVG from a game's layout (sent by the server) and its cells.
// The board knows nothing of the rules: it draws positions, pieces and marks it is given,
// and reports which position is under a point.

import { SVG, el } from "./svg.js";
import { drawPicture } from "./pieces.js";
import { drawFog } from "./hidden.js";

const TEXT_STYLE = "\uFE0E"; // ask for the text (not emoji) form of a glyph

function text(parent, x, y, content, attrs = {}) {
  const node = el("text", { x, y, "text-anchor": "middle", "dominant-baseline": "central", ...attrs }, parent);
  node.textContent = content;
  return node;
}

// Light or dark colour for text drawn over a player's colour.
function inkOn(colour) {
  const hex = colour.replace("#", "");
  const [r, g, b] = [0, 2, 4].map((i) => parseInt(hex.slice(i, i + 2), 16));
  return 0.299 * r + 0.587 * g + 0.114 * b > 150 ? "#222" : "#f6f6f6";
}

function darker(colour) {
  return inkOn(colour) === "#222" ? "#5b5346" : "#000";
}

// Geometry shared by drawing and hit-testing.
export class Geometry {
  constructor(layout, { flipped = false, labels = true, western = false } = {}) {
    this.layout = layout;
    this.flipped = flipped;
    this.western = western;  // letters, not characters, on pieces written as characters
    this.mancala = layout.style === "mancala";
    this.dice = layout.style === "dice";
    this.width = layout.width;
    this.height = layout.height;
    // Room for labels: letters below and numbers left of a grid, pit names above and below.
    const edges = labels && (layout.files.length > 0 || layout.ranks.length > 0);
    const pits = labels && this.mancala;
    const names = labels && this.dice;
    const thin = 0.12;
    this.left = edges ? 0.55 : thin;
    this.right = thin;
    this.top = pits ? 0.45 : thin;
    this.bottom = edges ? 0.55 : pits || names ? 0.45 : thin;
    this.index = new Map(layout.positions.map((p, i) => [p.name, i]));
    this.hex = layout.style === "hex";
    if (this.hex) {  // room for the coloured sides of the rhombus, which carry the labels
      this.left = this.right = 1.3;
      this.top = this.bottom = 0.6;
    }
  }
  get viewBox() {
    return `0 0 ${this.width + this.left + this.right} ${this.height + this.top + this.bottom}`;
  }
  // Top-left corner of the unit cell of board coordinates (x, y), after orientation.
  corner(x, y) {
    const col = this.flipped ? this.width - 1 - x : x;
    const row = this.flipped ? y : this.height - 1 - y;
    return [this.left + col, this.top + row];
  }
  centre(pos) {
    const p = this.layout.positions[pos];
    const [cx, cy] = this.corner(p.x, p.y);
    return [cx + 0.5, cy + 0.5];
  }
  // The position whose cell contains the SVG point (px, py), or -1.
  positionAt(px, py) {
    let best = -1;
    let bestDistance = Infinity;
    this.layout.positions.forEach((p, i) => {
      const [cx, cy] = this.centre(i);
      const dx = Math.abs(px - cx);
      const dy = Math.abs(py - cy);
      const reach = p.store ? [0.5, 1.0] : [0.5, 0.5];
      if (dx <= reach[0] && dy <= reach[1]) {
        const d = dx * dx + dy * dy;
        if (d < bestDistance) { bestDistance = d; best = i; }
      }
    });
    return best;
  }
}

// Draw the board into `svg`.  `marks`: {selected, targets, blocked, path, last, captures} as sets or
// arrays of position names; `small` draws a preview without labels or marks; `western`
// writes letters on pieces written as characters (xiangqi, shogi).
export function drawBoard(svg, layout, cells, { flipped = false, marks = {}, small = false, western = false } = {}) {
  const geo = new Geometry(layout, { flipped, labels: !small, western });
  svg.replaceChildren();
  svg.setAttribute("viewBox", geo.viewBox);
  svg.setAttribute("class", `board style-${layout.style}${small ? " small" : ""}`);
  svg.dataset.game = layout.id;
  const ground = el("g", { class: "ground" }, svg);
  drawGround(ground, geo, layout);
  if (!small) drawLabels(el("g", { class: "labels" }, svg), geo, layout);
  const under = el("g", { class: "marks-under" }, svg);
  const pieces = el("g", { class: "pieces" }, svg);
  const over = el("g", { class: "marks-over" }, svg);
  if (!small) drawMarksUnder(under, geo, layout, cells, marks);
  layout.positions.forEach((p, i) => {
    const cell = cells[i];
    if (geo.dice) drawScore(pieces, geo, layout, i, cell);
    else if (layout.counts) drawSeeds(pieces, geo, layout, i, cell);
    else if (cell) drawPiece(pieces, geo, layout, i, cell);
  });
  if (!small && layout.cell_labels) drawCellLabels(el("g", { class: "labels" }, svg), geo, layout);
  if (!small) drawMarksOver(over, geo, layout, cells, marks);
  if (layout.counts && !geo.dice) {
    const counts = el("g", { class: "counts" }, svg);
    layout.positions.forEach((p, i) => drawCount(counts, geo, layout, i, cells[i], small));
  }
  // Invisible cells on top: they carry the names used by clicks, drags and tests.
  const hits = el("g", { class: "hits" }, svg);
  layout.positions.forEach((p, i) => {
    const [cx, cy] = geo.centre(i);
    const h = p.store ? 1.8 : 1;
    el("rect", { x: cx - 0.5, y: cy - h / 2, width: 1, height: h, class: "hit", "data-square": p.name,
                 fill: "transparent" }, hits);
  });
  return geo;
}

function drawGround(g, geo, layout) {
  const { width, height, left: m, top: t } = geo;
  const style = layout.style;
  if (style === "dice") {  // a card per score, the turn total and the die
    layout.positions.forEach((p, i) => {
      const [cx, cy] = geo.centre(i);
      const player = layout.players.indexOf(p.name);
      el("rect", { x: cx - 0.44, y: cy - 0.44, width: 0.88, height: 0.88, rx: 0.1, class: "score-card",
                   stroke: player >= 0 ? layout.colours[player] : "#8a8170", "stroke-width": 0.06 }, g);
    });
    return;
  }
  if (style === "hex") {
    drawHexBoard(g, geo, layout);
    return;
  }
  if (style === "mancala") {
    el("rect", { x: m - 0.08, y: t - 0.08, width: width + 0.16, height: height + 0.16, rx: 0.45, class: "mancala-board" }, g);
    layout.positions.forEach((p, i) => {
      const [cx, cy] = geo.centre(i);
      if (p.store) el("rect", { x: cx - 0.4, y: cy - 0.9, width: 0.8, height: 1.8, rx: 0.38, class: "store" }, g);
      else el("circle", { cx, cy, r: 0.42, class: "pit" }, g);
    });
    return;
  }
  const frame = { checkered: "frame-wood", plain: "frame-plain", reversi: "frame-green", grid: "frame-shogi",
                  intersections: layout.palaces && layout.palaces.length ? "frame-xiangqi" : "frame-goban",
                  columns: "frame-blue", terrain: "frame-jungle" }[style] || "frame-plain";
  const pad = frame === "frame-xiangqi" ? 0.1 : 0;  // room round the pieces on the edge points
  el("rect", { x: m - pad, y: t - pad, width: width + 2 * pad, height: height + 2 * pad, class: frame }, g);
  if (style === "checkered") {
    for (let x = 0; x < width; x++) {
      for (let y = 0; y < height; y++) {
        const [cx, cy] = geo.corner(x, y);
        el("rect", { x: cx, y: cy, width: 1, height: 1, class: (x + y) % 2 === 0 ? "sq-dark" : "sq-light" }, g);
      }
    }
    layout.positions.forEach((p, i) => {  // tafl's throne and corners
      if (!p.special) return;
      const [cx, cy] = geo.centre(i);
      el("path", { d: `M${cx - 0.3},${cy - 0.3}L${cx + 0.3},${cy + 0.3}M${cx + 0.3},${cy - 0.3}L${cx - 0.3},${cy + 0.3}`,
                   class: "special", stroke: "#7a2e1f", "stroke-width": 0.06 }, g);
    });
  } else if (style === "terrain") {  // Jungle: ruled grass, water, traps and dens as players know them
    layout.positions.forEach((p, i) => {
      const [cx, cy] = geo.centre(i);
      if (p.terrain === "water") el("rect", { x: cx - 0.5, y: cy - 0.5, width: 1, height: 1, class: "terrain-water" }, g);
      else if (p.terrain === "trap") {
        el("rect", { x: cx - 0.5, y: cy - 0.5, width: 1, height: 1, class: "terrain-trap" }, g);
        for (const d of [-0.25, 0, 0.25]) {  // a grid of stakes
          el("line", { x1: cx + d, y1: cy - 0.4, x2: cx + d, y2: cy + 0.4, class: "trap-line" }, g);
          el("line", { x1: cx - 0.4, y1: cy + d, x2: cx + 0.4, y2: cy + d, class: "trap-line" }, g);
        }
      } else if (p.terrain === "den") {
        el("rect", { x: cx - 0.5, y: cy - 0.5, width: 1, height: 1, class: "terrain-den" }, g);
        text(g, cx, cy, "穴", { class: "den-text" });
      }
    });
    for (let i = 0; i <= width; i++) el("line", { x1: m + i, y1: t, x2: m + i, y2: t + height, class: "grid" }, g);
    for (let j = 0; j <= height; j++) el("line", { x1: m, y1: t + j, x2: m + width, y2: t + j, class: "grid" }, g);
  } else if (style === "grid") {  // squares of one colour, ruled (shogi)
    for (let i = 0; i <= width; i++) el("line", { x1: m + i, y1: t, x2: m + i, y2: t + height, class: "grid" }, g);
    for (let j = 0; j <= height; j++) el("line", { x1: m, y1: t + j, x2: m + width, y2: t + j, class: "grid" }, g);
    if (width === height && width % 3 === 0 && width >= 9) {  // the dots that mark the camps
      for (const x of [width / 3, (2 * width) / 3]) {
        for (const y of [height / 3, (2 * height) / 3]) el("circle", { cx: m + x, cy: t + y, r: 0.07, class: "dot" }, g);
      }
    }
  } else if (style === "reversi" || style === "plain") {
    const inner = style === "plain" ? 1 : 0; // tic-tac-toe: no outer frame lines
    for (let i = inner; i <= width - inner; i++) el("line", { x1: m + i, y1: t, x2: m + i, y2: t + height, class: "grid" }, g);
    for (let j = inner; j <= height - inner; j++) el("line", { x1: m, y1: t + j, x2: m + width, y2: t + j, class: "grid" }, g);
    if (style === "reversi" && width === 8 && height === 8) {
      for (const [x, y] of [[2, 2], [6, 2], [2, 6], [6, 6]]) el("circle", { cx: m + x, cy: t + y, r: 0.07, class: "dot" }, g);
    }
  } else if (style === "intersections" && layout.palaces && layout.palaces.length) {
    drawPointsBoard(g, geo, layout);
  } else if (style === "intersections") {
    for (let i = 0; i < width; i++) el("line", { x1: m + i + 0.5, y1: t + 0.5, x2: m + i + 0.5, y2: t + height - 0.5, class: "grid" }, g);
    for (let j = 0; j < height; j++) el("line", { x1: m + 0.5, y1: t + j + 0.5, x2: m + width - 0.5, y2: t + j + 0.5, class: "grid" }, g);
    for (const [x, y] of starPoints(width, height)) {
      const [cx, cy] = geo.corner(x, y);
      el("circle", { cx: cx + 0.5, cy: cy + 0.5, r: 0.1, class: "star" }, g);
    }
  } else if (style === "lines") {  // a graph board: its lines, a dot on each point
    for (const [a, b] of layout.lines) {
      const [x1, y1] = geo.centre(a), [x2, y2] = geo.centre(b);
      el("line", { x1, y1, x2, y2, class: "grid" }, g);
    }
    layout.positions.forEach((p, i) => {
      const [cx, cy] = geo.centre(i);
      el("circle", { cx, cy, r: 0.08, class: "star" }, g);
    });
  } else if (style === "columns") {
    layout.positions.forEach((p, i) => {
      const [cx, cy] = geo.centre(i);
      el("circle", { cx, cy, r: 0.4, class: "hole" }, g);
    });
  }
}

// A pointy-topped hexagon of width 1 round (cx, cy), as SVG points.
const HEX_R = 1 / Math.sqrt(3);
function hexPoints(cx, cy, scale = 1) {
  const r = HEX_R * scale;
  return [[0, -r], [0.5 * scale, -r / 2], [0.5 * scale, r / 2], [0, r], [-0.5 * scale, r / 2], [-0.5 * scale, -r / 2]]
    .map(([x, y]) => `${cx + x},${cy + y}`).join(" ");
}

// The rhombus of Hex: the outline cut along its diagonals into four triangles, each side
// in the colour of the player who joins it, and a hexagon per cell over it.  Returns,
// per side (top, right, bottom, left), its corners and its outward unit normal.
function hexSides(geo, layout) {
  const corners = layout.sides.corners.map((name) => geo.centre(geo.index.get(name)));
  const mid = [0, 1].map((k) => corners.reduce((sum, c) => sum + c[k], 0) / 4);
  const far = Math.max(...corners.map(([x, y]) => Math.hypot(x - mid[0], y - mid[1])));
  const band = 1.0;  // from the centres of the edge cells to the outline
  const outer = corners.map(([x, y]) => {
    const [dx, dy] = [x - mid[0], y - mid[1]];
    const length = Math.hypot(dx, dy) || 1;
    // acute corners (the far ones) lie 2 bands out along the diagonal, obtuse ones 1/sin 60°
    const reach = Math.hypot(dx, dy) > far - 0.01 ? 2 * band : band / Math.sin(Math.PI / 3);
    return [x + (dx / length) * reach, y + (dy / length) * reach];
  });
  return { mid, outer, corners };
}

function drawHexBoard(g, geo, layout) {
  const { mid, outer } = hexSides(geo, layout);
  layout.sides.owners.forEach((owner, k) => {
    const a = outer[k], b = outer[(k + 1) % 4];
    const colour = layout.colours[owner] || "#888";
    el("polygon", { points: `${mid[0]},${mid[1]} ${a[0]},${a[1]} ${b[0]},${b[1]}`, fill: colour,
                    stroke: darker(colour), "stroke-width": 0.06, "stroke-linejoin": "round",
                    class: `hex-side side-${k} owner-${owner}` }, g);
  });
  layout.positions.forEach((p, i) => {
    const [cx, cy] = geo.centre(i);
    el("polygon", { points: hexPoints(cx, cy), class: "hex-cell" }, g);
  });
}

// The letters along the top side and the numbers along the left one, written on the sides.
function drawHexLabels(g, geo, layout) {
  const { mid, corners } = hexSides(geo, layout);
  const rows = new Map();
  layout.positions.forEach((p, i) => {
    const [, file, rank] = p.name.match(/^([a-z]+)([0-9]+)$/) || [];
    if (rank === "1") rows.set(`f${file}`, [i, file, 0]);
    if (file === "a") rows.set(`r${rank}`, [i, rank, 3]);
  });
  for (const [i, label, side] of rows.values()) {
    const a = corners[side], b = corners[(side + 1) % 4];
    let [nx, ny] = [b[1] - a[1], a[0] - b[0]];
    const length = Math.hypot(nx, ny) || 1;
    [nx, ny] = [nx / length, ny / length];
    if (nx * (a[0] - mid[0]) + ny * (a[1] - mid[1]) < 0) [nx, ny] = [-nx, -ny];
    const [cx, cy] = geo.centre(i);
    const colour = layout.colours[layout.sides.owners[side]] || "#888";
    text(g, cx + nx * 0.8, cy + ny * 0.8, label, { class: "coord hex-coord", style: `fill: ${inkOn(colour)}` });
  }
}

// A board of points with palaces (xiangqi, janggi): the files stop at the river but for
// the two edges, each palace has its two diagonals, and the river carries its name.
function drawPointsBoard(g, geo, layout) {
  const { width, height } = geo;
  const point = (x, y) => { const [cx, cy] = geo.corner(x, y); return [cx + 0.5, cy + 0.5]; };
  const line = (a, b, cls = "grid") => el("line", { x1: a[0], y1: a[1], x2: b[0], y2: b[1], class: cls }, g);
  const river = layout.river;
  for (let x = 0; x < width; x++) {
    const edge = x === 0 || x === width - 1;
    if (river === null || river === undefined || edge) line(point(x, 0), point(x, height - 1));
    else {
      line(point(x, 0), point(x, Math.floor(river)));
      line(point(x, Math.ceil(river)), point(x, height - 1));
    }
  }
  for (let y = 0; y < height; y++) line(point(0, y), point(width - 1, y));
  line(point(0, 0), point(width - 1, 0), "grid edge");
  line(point(0, height - 1), point(width - 1, height - 1), "grid edge");
  line(point(0, 0), point(0, height - 1), "grid edge");
  line(point(width - 1, 0), point(width - 1, height - 1), "grid edge");
  for (const palace of layout.palaces) {
    const spots = palace.map((name) => layout.positions[geo.index.get(name)]).filter(Boolean);
    if (!spots.length) continue;
    const xs = spots.map((p) => p.x);
    const ys = spots.map((p) => p.y);
    const [x0, x1, y0, y1] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
    const palaceGroup = el("g", { class: "palace" }, g);
    el("line", { x1: point(x0, y0)[0], y1: point(x0, y0)[1], x2: point(x1, y1)[0], y2: point(x1, y1)[1], class: "grid" }, palaceGroup);
    el("line", { x1: point(x0, y1)[0], y1: point(x0, y1)[1], x2: point(x1, y0)[0], y2: point(x1, y0)[1], class: "grid" }, palaceGroup);
  }
  if (river !== null && river !== undefined) {
    const [, top] = point(0, Math.floor(river));
    const [, bottom] = point(0, Math.ceil(river));
    const y = (top + bottom) / 2;
    const [left] = point(0, 0);
    const [right] = point(width - 1, 0);
    const words = geo.western ? ["River", "River"] : ["楚 河", "漢 界"];
    const label = el("g", { class: "river" }, g);
    text(label, Math.min(left, right) + Math.abs(right - left) * 0.25, y, words[0], { class: "river-label" });
    text(label, Math.min(left, right) + Math.abs(right - left) * 0.75, y, words[1], { class: "river-label" });
  }
}

function starPoints(width, height) {
  if (width !== height || width < 9) return [];
  const edge = width >= 13 ? 3 : 2;
  const far = width - 1 - edge;
  const mid = (width - 1) / 2;
  const sides = width >= 19 ? [[edge, mid], [far, mid], [mid, edge], [mid, far]] : [];  // a 19x19 goban's nine
  return [[edge, edge], [far, edge], [edge, far], [far, far], [mid, mid], ...sides];
}

function drawLabels(g, geo, layout) {
  const { left, top, bottom, height } = geo;
  if (geo.hex) {
    drawHexLabels(g, geo, layout);
    return;
  }
  layout.files.forEach((label, x) => {
    const [cx] = geo.corner(x, 0);
    text(g, cx + 0.5, top + height + bottom / 2, label, { class: "coord" });
  });
  layout.ranks.forEach((label, y) => {
    const [, cy] = geo.corner(0, y);
    text(g, left / 2, cy + 0.5, label, { class: "coord" });
  });
  if (layout.style === "dice") {
    layout.positions.forEach((p, i) => {
      const [cx, cy] = geo.centre(i);
      text(g, cx, cy + 0.5 + bottom / 2, p.name, { class: "coord card-name" });
    });
  }
  if (layout.style === "mancala") {
    layout.positions.forEach((p, i) => {
      if (p.store) return;
      const [cx, cy] = geo.centre(i);
      const above = cy < top + height / 2;
      text(g, cx, above ? top / 2 - 0.04 : top + height + bottom / 2 + 0.04, p.name, { class: "coord pit-name" });
    });
  }
}

// Square numbers (draughts) in the corner of each square, over the pieces.
function drawCellLabels(g, geo, layout) {
  layout.positions.forEach((p, i) => {
    const [cx, cy] = geo.centre(i);
    text(g, cx - 0.46, cy - 0.46, p.name, { class: "cell-label", "text-anchor": "start" });
  });
}

// A count on its card: a score or the turn total as a number, the die as its pips.
function drawScore(g, geo, layout, pos, count) {
  const [cx, cy] = geo.centre(pos);
  const name = layout.positions[pos].name;
  if (name === "die") {
    el("rect", { x: cx - 0.3, y: cy - 0.3, width: 0.6, height: 0.6, rx: 0.1, class: "die", "data-square": name,
                 "data-face": String(count) }, g);
    const pips = { 1: [[0, 0]], 2: [[-1, -1], [1, 1]], 3: [[-1, -1], [0, 0], [1, 1]],
                   4: [[-1, -1], [1, -1], [-1, 1], [1, 1]], 5: [[-1, -1], [1, -1], [0, 0], [-1, 1], [1, 1]],
                   6: [[-1, -1], [1, -1], [-1, 0], [1, 0], [-1, 1], [1, 1]] }[count] || [];
    for (const [dx, dy] of pips) el("circle", { cx: cx + dx * 0.15, cy: cy + dy * 0.15, r: 0.055, class: "pip" }, g);
    if (!pips.length) text(g, cx, cy, count ? String(count) : "–", { class: "count" });
    return;
  }
  text(g, cx, cy + 0.02, String(count), { class: "score", "data-square": name });
}

function drawPiece(g, geo, layout, pos, piece) {
  const [cx, cy] = geo.centre(pos);
  const colour = piece.colour || layout.colours[piece.owner] || "#888";
  const group = el("g", { class: `piece owner-${piece.owner} kind-${piece.kind}`, "data-square": layout.positions[pos].name }, g);
  if (piece.shape === "disc" && piece.stack) {  // a column (Lasca, Bashni): edge-on discs, top first
    drawColumn(group, cx, cy, piece.stack, layout);
  } else if (piece.shape === "disc") {
    el("circle", { cx, cy: cy + 0.03, r: 0.4, class: "disc-shadow" }, group);
    el("circle", { cx, cy, r: 0.4, fill: colour, stroke: darker(colour), "stroke-width": 0.035 }, group);
    if (layout.style !== "reversi" && layout.style !== "intersections" && layout.style !== "hex") {
      el("circle", { cx, cy, r: 0.29, fill: "none", stroke: darker(colour), "stroke-width": 0.02, opacity: 0.6 }, group);
    }
    if (layout.family === "go") {  // a stone: a soft highlight up and left
      el("ellipse", { cx: cx - 0.12, cy: cy - 0.14, rx: 0.16, ry: 0.1, fill: "#fff",
                      opacity: piece.owner === 0 ? 0.18 : 0.6, transform: `rotate(-35 ${cx - 0.12} ${cy - 0.14})` }, group);
    }
    if (piece.king) drawCrown(group, cx, cy, inkOn(colour));
  } else if (piece.shape === "round") {  // xiangqi, janggi: a disc with the character in its side's ink
    const ink = layout.colours[piece.owner] || "#222";
    el("circle", { cx, cy: cy + 0.03, r: 0.43, class: "disc-shadow" }, group);
    el("circle", { cx, cy, r: 0.43, class: "round-piece", stroke: ink, "stroke-width": 0.03 }, group);
    el("circle", { cx, cy, r: 0.35, fill: "none", stroke: ink, "stroke-width": 0.02 }, group);
    text(group, cx, cy + 0.02, geo.western ? piece.western : piece.text,
         { class: geo.western ? "round-text western" : "round-text", fill: ink });
  } else if (piece.shape === "back") {  // a face-down piece (BanQi): a blank disc, "?" while it turns
    el("circle", { cx, cy: cy + 0.03, r: 0.43, class: "disc-shadow" }, group);
    el("circle", { cx, cy, r: 0.43, class: "back-piece" }, group);
    el("circle", { cx, cy, r: 0.35, fill: "none", class: "back-ring" }, group);
    if (piece.text) text(group, cx, cy + 0.02, piece.text, { class: "round-text" });
  } else if (piece.shape === "fog") {  // a square the viewer cannot see: a cloud (hidden.js)
    drawFog(group, cx, cy);
  } else if (piece.shape === "wedge") {  // shogi: a pentagon pointing at the opponent
    const up = (piece.owner === 0) !== geo.flipped;
    const size = piece.size || 1;  // the king the largest, pawns the smallest
    const points = [[0, -0.45], [0.3, -0.31], [0.37, 0.43], [-0.37, 0.43], [-0.3, -0.31]]
      .map(([x, y]) => `${cx + x * size},${cy + 0.43 - (0.43 - y) * size}`).join(" ");
    const body = el("g", up ? {} : { transform: `rotate(180 ${cx} ${cy})` }, group);
    body.setAttribute("class", up ? "wedge up" : "wedge down");
    el("polygon", { points, class: "wedge-piece" }, body);
    const glyph = geo.western ? piece.western : piece.text;
    const ink = piece.promoted ? " promoted" : "";
    text(body, cx, cy + 0.43 - 0.38 * size, glyph, { class: (geo.western ? "wedge-text western" : "wedge-text") + ink,
                                                    "font-size": ([...glyph].length > 1 ? 0.3 : 0.46) * size });
  } else if (piece.shape === "picture" && drawPicture(group, piece.picture, cx, cy, colour, "#1d1a17", inkOn(colour))) {
    // a chess-family piece drawn by pieces.js; a picture it lacks falls through to the letter token
  } else if (piece.shape === "mark") {
    text(group, cx, cy + 0.03, piece.text, { class: "mark", fill: piece.owner === 0 ? "#1f5fbf" : "#c8322d" });
  } else if (piece.shape === "glyph" && [...piece.text].length > 1) {  // a label (an insignia: "5★", "Col")
    el("circle", { cx, cy, r: 0.42, fill: colour, stroke: darker(colour), "stroke-width": 0.04 }, group);
    text(group, cx, cy + 0.02, piece.text, { class: "token", fill: inkOn(colour), "font-size": 0.3 });
  } else if (piece.shape === "glyph") {
    text(group, cx, cy + 0.04, piece.text + TEXT_STYLE, {
      class: "glyph", fill: colour, stroke: darker(colour), "stroke-width": inkOn(colour) === "#222" ? 0.025 : 0.01,
    });
  } else {
    el("circle", { cx, cy, r: 0.38, fill: colour, stroke: darker(colour), "stroke-width": 0.04 }, group);
    text(group, cx, cy + 0.02, piece.text, { class: "token", fill: inkOn(colour) });
  }
}

// A column seen from the side: one flat disc per piece, the commander on top (at most
// eight shown, the count beside when there are more), a dot on each king.
function drawColumn(g, cx, cy, stack, layout) {
  const shown = stack.slice(0, 8);
  const step = Math.min(0.11, 0.62 / shown.length);
  const bottom = cy + (shown.length - 1) * step / 2;
  for (let k = shown.length - 1; k >= 0; k--) {
    const colour = layout.colours[shown[k].owner] || "#888";
    const y = bottom - (shown.length - 1 - k) * step;
    el("ellipse", { cx, cy: y + 0.05, rx: 0.4, ry: 0.16, fill: darker(colour) }, g);
    el("ellipse", { cx, cy: y, rx: 0.4, ry: 0.16, fill: colour, stroke: darker(colour), "stroke-width": 0.03,
                    class: "column-disc" }, g);
    if (shown[k].king) el("circle", { cx, cy: y, r: 0.06, fill: inkOn(colour), class: "column-king" }, g);
  }
  text(g, cx + 0.34, cy + 0.36, String(stack.length), { class: "column-count" });
}

function drawCrown(g, cx, cy, ink) {
  const s = 0.2;
  const points = [[-1, 0.55], [-1, -0.35], [-0.5, 0.1], [0, -0.6], [0.5, 0.1], [1, -0.35], [1, 0.55]]
    .map(([x, y]) => `${cx + x * s},${cy + y * s}`).join(" ");
  el("polygon", { points, fill: ink, class: "crown" }, g);
}

function drawSeeds(g, geo, layout, pos, count) {
  const [cx, cy] = geo.centre(pos);
  const store = layout.positions[pos].store;
  const seeds = el("g", { class: "seeds" }, g);
  const shown = Math.min(count, store ? 40 : 20);
  // A golden-angle spiral keeps the seeds apart whatever their number.
  const step = Math.min(0.1, 0.27 / Math.sqrt(Math.max(shown, 1)));
  for (let k = 0; k < shown; k++) {
    const angle = k * 2.39996;
    const radius = step * Math.sqrt(k + 0.5);
    const sx = cx + radius * Math.cos(angle) * (store ? 1.1 : 1);
    const sy = cy - 0.04 + radius * Math.sin(angle) * (store ? 2.2 : 1);
    el("circle", { cx: sx, cy: sy, r: 0.065, class: `seed seed-${k % 3}` }, seeds);
  }
}

function drawCount(g, geo, layout, pos, count, small) {
  const [cx, cy] = geo.centre(pos);
  const store = layout.positions[pos].store;
  // The count on a badge at the edge of the pit (at the foot of a store).
  const [bx, by] = store ? [cx, cy + 0.66] : [cx + 0.31, cy + 0.31];
  el("circle", { cx: bx, cy: by, r: small ? 0.2 : 0.17, class: "count-badge" }, g);
  text(g, bx, by + 0.01, String(count), { class: small ? "count small-count" : "count",
                                          "data-square": layout.positions[pos].name });
}

function drawMarksUnder(g, geo, layout, cells, marks) {
  const square = (name, cls) => {
    const pos = geo.index.get(name);
    if (pos === undefined) return;
    const [cx, cy] = geo.centre(pos);
    if (layout.counts) {  // pits and stores are marked by their own outline
      const store = layout.positions[pos].store;
      el("rect", { x: cx - 0.46, y: cy - (store ? 0.96 : 0.46), width: 0.92, height: store ? 1.92 : 0.92,
                   rx: store ? 0.44 : 0.46, class: cls }, g);
      return;
    }
    if (geo.hex) {  // a cell of Hex: its hexagon
      el("polygon", { points: hexPoints(cx, cy, 0.94), class: cls }, g);
      return;
    }
    if (layout.palaces && layout.palaces.length) {  // a point under a round piece: a round mark
      el("circle", { cx, cy, r: 0.48, class: cls }, g);
      return;
    }
    el("rect", { x: cx - 0.5, y: cy - 0.5, width: 1, height: 1, class: cls }, g);
  };
  for (const name of marks.last || []) square(name, "mark-last");
  for (const name of marks.captures || []) square(name, "mark-captured");
  for (const name of marks.check || []) square(name, "mark-check");  // a royal piece in check: a red glow
  for (const name of marks.path || []) square(name, "mark-path");
  if (marks.selected) square(marks.selected, "mark-selected");
}

function drawMarksOver(g, geo, layout, cells, marks) {
  const path = marks.path || [];
  if (path.length > 1) {
    const points = path.map((name) => geo.centre(geo.index.get(name)).join(",")).join(" ");
    el("polyline", { points, class: "path-line" }, g);
  }
  const lastPath = marks.last || [];
  if (lastPath.length > 1 && layout.style !== "mancala") {
    const points = lastPath.map((name) => geo.centre(geo.index.get(name)).join(",")).join(" ");
    el("polyline", { points, class: "last-line" }, g);
  } else if (lastPath.length === 1 && !layout.counts) {
    const pos = geo.index.get(lastPath[0]);
    if (pos !== undefined) {
      const [cx, cy] = geo.centre(pos);
      el("circle", { cx, cy, r: 0.09, class: "last-dot" }, g);
    }
  }
  for (const name of marks.targets || []) {
    const pos = geo.index.get(name);
    if (pos === undefined) continue;
    const [cx, cy] = geo.centre(pos);
    if (layout.counts || cells[pos]) el("circle", { cx, cy, r: 0.44, class: "target-ring", "data-target": name }, g);
    else el("circle", { cx, cy, r: 0.15, class: "target-dot", "data-target": name }, g);
  }
  for (const name of marks.blocked || []) {  // empty cells the mover may not play (renju's forbidden points)
    const pos = geo.index.get(name);
    if (pos === undefined) continue;
    const [cx, cy] = geo.centre(pos);
    const d = 0.14;
    el("path", { d: `M${cx - d},${cy - d}L${cx + d},${cy + d}M${cx - d},${cy + d}L${cx + d},${cy - d}`,
                 class: "blocked-cross", "data-blocked": name }, g);
  }
}

// An SVG of the board for the game list.
export function preview(layout, cells, { western = false } = {}) {
  const svg = document.createElementNS(SVG, "svg");
  drawBoard(svg, layout, cells, { small: true, western });
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", `${layout.name} position`);
  return svg;
}

// A lone piece picture (promotion choices, pieces in hand), seen as on a board turned
// by `flipped`.
export function pieceIcon(layout, piece, { flipped = false, western = false } = {}) {
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", "0 0 1 1");
  svg.setAttribute("class", "piece-icon");
  const fake = { ...layout, positions: [{ name: "icon", x: 0, y: 0 }], width: 1, height: 1, files: [], ranks: [] };
  const geo = new Geometry(fake, { labels: false, flipped, western });
  geo.left = geo.right = geo.top = geo.bottom = 0;
  drawPiece(svg, geo, fake, 0, piece);
  return svg;
}
