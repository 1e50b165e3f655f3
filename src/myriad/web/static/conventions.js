// Each game as its players know it: what the server's `view.conventions` says (see
// web/conventions.py), shown on the page. A compulsory capture is marked on the pieces
// that can take and said in the status; a forced pass is explained; the reversi family's
// disc counts go in the player bars; mancala stores (and Toguz Kumalak's tuzdyks) carry
// their owner's name and count; the move list is numbered from the position's own move
// number.

import { SVG, el } from "./svg.js";

function cap(s) { return s ? s.charAt(0).toUpperCase() + s.slice(1) : s; }

function conventions(view) { return (view && view.conventions) || {}; }

// Marks drawn over the board (after drawBoard, before the invisible hit cells keep working:
// the group is inserted under them).
export function decorateBoard(svg, geo, layout, view, pdnNumbers = false) {
  const c = conventions(view);
  const hits = svg.querySelector("g.hits");
  const g = document.createElementNS(SVG, "g");
  g.setAttribute("class", "conventions");
  svg.insertBefore(g, hits);
  if (pdnNumbers && layout.square_numbers) {  // each square's PDN number in its corner
    for (const [name, number] of Object.entries(layout.square_numbers)) {
      const pos = geo.index.get(name);
      if (pos === undefined) continue;
      const [cx, cy] = geo.centre(pos);
      const label = el("text", { x: cx - 0.46, y: cy - 0.46, "text-anchor": "start", class: "cell-label pdn-number",
                                 "data-square": name }, g);
      label.textContent = String(number);
    }
  }
  for (const name of (view.human_turn && c.must_capture) || []) {  // the pieces that can take
    const pos = geo.index.get(name);
    if (pos === undefined) continue;
    const [cx, cy] = geo.centre(pos);
    el("circle", { cx, cy, r: 0.46, class: "must-capture", "data-square": name }, g);
  }
  for (const store of c.stores || []) {
    const pos = geo.index.get(store.name);
    if (pos === undefined) continue;
    const [cx, cy] = geo.centre(pos);
    const owner = cap(view.players[store.owner] || "");
    if (store.claimed) {  // a tuzdyk: written across its (empty) house, "White's / tuzdyk"
      const label = el("text", { x: cx, y: cy - 0.1, "text-anchor": "middle", "data-store": store.name,
                                 class: "store-label tuzdyk-label" }, g);
      for (const [k, line] of [`${owner}'s`, "tuzdyk"].entries()) {
        el("tspan", { x: cx, dy: k ? 0.19 : 0 }, label).textContent = line;
      }
      continue;
    }
    const label = el("text", { x: cx, y: geo.top / 2, "text-anchor": "middle", "dominant-baseline": "central",
                               "data-store": store.name, class: "store-label" }, g);
    label.textContent = `${owner}: ${store.count}`;
  }
}

// What the status line adds for the side to move: a compulsory capture, a forced pass;
// squares by their PDN numbers when `numbers` (a layout's square_numbers) is given.
export function statusNote(view, canMove, numbers = null) {
  const c = conventions(view);
  if (!view.human_turn || view.outcome) return "";
  if (c.must_pass) {
    return canMove ? "No legal move: you must pass (press Pass)" : "No legal move: must pass";
  }
  if (c.must_capture && c.must_capture.length) {
    const who = c.must_capture.length === 1 ? "the piece on" : "the pieces on";
    const squares = c.must_capture.map((name) => (numbers && name in numbers ? numbers[name] : name));
    return `A capture is compulsory: ${who} ${squares.join(", ")} ${c.must_capture.length === 1 ? "must" : "can"} take`;
  }
  return "";
}

// A player's count for the player bar (the reversi family's discs), or null.
export function barCount(view, player) {
  const counts = conventions(view).piece_counts;
  if (!counts) return null;
  const span = document.createElement("span");
  span.className = "disc-count";
  span.dataset.player = String(player);
  span.textContent = `${counts[player]} ${counts[player] === 1 ? "disc" : "discs"}`;
  return span;
}

// The number of the first row of the move list and whether the game started with the
// second player to move where the first player normally starts (the position's own move
// number: a FEN at move 23 with Black to move starts "23. … Nf6").
export function firstRow(view) {
  const c = conventions(view);
  return { number: c.first_move || 1, secondFirst: view.players.length === 2 && Boolean(c.starts_mid_round) };
}

// A move written with algebraic squares (c3-d4, c3:e5:g3) in PDN numbers (22-18, 22x15x8),
// for a board whose layout gives each square's number; other texts unchanged.
export function numbered(notation, layout) {
  const numbers = layout.square_numbers;
  if (!numbers) return notation;
  const squares = notation.split(/[-:x]/);
  if (squares.length < 2 || !squares.every((s) => s in numbers)) return notation;
  return squares.map((s) => numbers[s]).join(/[:x]/.test(notation) ? "x" : "-");
}

// "N moves" for the game list: moves counted as players count them, a round of every
// player's turn being one move (a ply count would double a chess game's length).
export function movesPlayed(plies, players) {
  const moves = Math.ceil(plies / Math.max(1, players));
  return `${moves} ${moves === 1 ? "move" : "moves"}`;
}
