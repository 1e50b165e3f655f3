// Hidden information and chance on the board: fog drawn as clouds, own pieces the opponent
// cannot see drawn translucent, face-down pieces turning over when they are flipped, and
// the reveal of the whole board at the end.  Everything drawn here comes from the view the
// server built for this page (fields `fog`, `unseen`, `revealed`, `sides`, `face_down`); the
// page never knows more than its player.

import { el } from "./svg.js";

const FLIP_MS = 560;

// The cloud filter, defined once for the whole document (boards and previews refer to it):
// fractal noise in board units (a square is 1), white puffs over a soft grey.
function cloudFilter() {
  if (document.getElementById("fog-clouds")) return;
  const holder = el("svg", { width: 0, height: 0, "aria-hidden": "true", id: "hidden-defs" });
  holder.style.position = "absolute";
  const defs = el("defs", {}, holder);
  const filter = el("filter", { id: "fog-clouds", x: "-0.05", y: "-0.05", width: "1.1", height: "1.1",
                                "color-interpolation-filters": "sRGB" }, defs);
  el("feTurbulence", { type: "fractalNoise", baseFrequency: "1.3", numOctaves: "3", seed: "11", result: "noise" }, filter);
  el("feColorMatrix", { in: "noise", type: "matrix", result: "puffs",
                        values: "0 0 0 0 1  0 0 0 0 1  0 0 0 0 1  2.6 0 0 0 -0.95" }, filter);
  el("feGaussianBlur", { in: "puffs", stdDeviation: "0.035", result: "soft" }, filter);
  el("feComposite", { in: "soft", in2: "SourceGraphic", operator: "in", result: "clipped" }, filter);
  const merge = el("feMerge", {}, filter);
  el("feMergeNode", { in: "SourceGraphic" }, merge);
  el("feMergeNode", { in: "clipped" }, merge);
  document.body.appendChild(holder);
}

// A square under the fog of war, centred on (cx, cy): a cloud filling the square (clouds of
// neighbouring squares run into one another).
export function drawFog(group, cx, cy) {
  cloudFilter();
  group.classList.add("fogged");
  el("rect", { x: cx - 0.5, y: cy - 0.5, width: 1, height: 1, class: "fog-cloud", filter: "url(#fog-clouds)" }, group);
  el("title", {}, group).textContent = "fog: none of your pieces sees this square";
}

// The last position this page drew, to see which pieces were turned up since.
const drawn = { id: null, ply: -1, cells: [] };

const isBack = (cell) => cell && typeof cell === "object" && cell.shape === "back";
const isFace = (cell) => cell && typeof cell === "object" && cell.shape !== "back" && cell.shape !== "fog";

// After the board is drawn: translucent own pieces, the pieces the end revealed, and the
// flips since the position drawn before (a disc turning over, in every page that sees it).
export function decorateHidden(svg, layout, view) {
  const piece = (name) => svg.querySelector(`.pieces [data-square="${CSS.escape(name)}"]`);
  for (const name of view.unseen || []) {
    const found = piece(name);
    if (found) {
      found.classList.add("unseen");
      el("title", {}, found).textContent = "hidden from the opponent";
    }
  }
  const over = Boolean(view.outcome);
  for (const name of over ? view.revealed || [] : []) {
    const found = piece(name);
    if (found) {
      found.classList.add("revealed");
      el("title", {}, found).textContent = "hidden from you until the end";
    }
  }
  const now = performance.now();
  if (drawn.id === view.id && view.ply > drawn.ply) {
    view.cells.forEach((cell, i) => {
      if (isBack(drawn.cells[i]) && isFace(cell)) turning.push({ id: view.id, name: layout.positions[i].name, start: now });
    });
  }
  if (drawn.id !== view.id || drawn.ply !== view.ply) Object.assign(drawn, { id: view.id, ply: view.ply, cells: view.cells });
  // A board drawn again while a disc turns (another message, a click) takes the turn up where it was.
  turning = turning.filter((flip) => flip.id === view.id && now - flip.start < FLIP_MS);
  for (const flip of turning) turnOver(svg, flip.name, now - flip.start);
}

// The discs turning over now: {id, name, start}.
let turning = [];

// A face-down disc turning over, `elapsed` ms into its turn: its back narrows to an edge,
// then the face widens.
function turnOver(svg, name, elapsed) {
  const face = svg.querySelector(`.pieces [data-square="${CSS.escape(name)}"]`);
  if (!face || !face.isConnected) return;
  const hit = svg.querySelector(`rect.hit[data-square="${CSS.escape(name)}"]`);
  const cx = Number(hit.getAttribute("x")) + 0.5;
  const cy = Number(hit.getAttribute("y")) + 0.5;
  const back = el("g", { class: "piece flip-out", "data-flip": name });
  el("circle", { cx, cy, r: 0.43, class: "back-piece" }, back);
  el("circle", { cx, cy, r: 0.35, fill: "none", class: "back-ring" }, back);
  back.style.animationDelay = `${-elapsed}ms`;
  face.style.animationDelay = `${-elapsed}ms`;
  face.after(back);
  face.classList.add("flip-in");
  face.dataset.flipped = "1";
  setTimeout(() => { back.remove(); face.classList.remove("flip-in"); }, FLIP_MS - elapsed + 60);
}

// The colour a player plays, when the game gives it in play (BanQi): {ink, name} or null
// (undecided); undefined in other games (the player's colour is the layout's).
export function sideOf(view, player) {
  if (!Array.isArray(view.sides)) return undefined;
  return view.sides[player] || null;
}

// The line under the status: who plays which colour (BanQi), and at the end what the
// reveal shows.  Written into `box` (hidden when there is nothing to say).
export function renderHiddenNote(box, layout, view, icon) {
  box.replaceChildren();
  if (Array.isArray(view.sides)) {  // first, who plays which colour
    const named = view.sides.map((side, p) => (side ? `${view.players[p]} plays ${side.name}` : null));
    const line = named.every(Boolean) ? `${named.join(", ")}.` : "Colours undecided: the first flip decides them.";
    box.append(`${line.charAt(0).toUpperCase()}${line.slice(1)} `);
  }
  if (view.outcome && layout.hidden) {
    const strong = document.createElement("strong");
    strong.textContent = "Final position revealed";
    const ringed = (view.revealed || []).length;
    box.append(strong, `: nothing is hidden any more${ringed ? `; the ${ringed} ${ringed === 1 ? "piece" : "pieces"} you could not see until the end are ringed` : ""}. `);
  } else if (view.outcome && Array.isArray(view.face_down)) {
    const strong = document.createElement("strong");
    strong.textContent = "Final position revealed";
    const left = view.face_down.reduce((sum, e) => sum + e.count, 0);
    box.append(strong, left ? `: ${left} pieces were never turned up, drawn from these: ` : ": every piece was turned up. ");
    for (const { piece, count } of view.face_down) {
      const item = document.createElement("span");
      item.className = "face-down-left";
      item.dataset.kind = piece.kind;
      item.dataset.owner = String(piece.owner);
      item.appendChild(icon(piece));
      item.append(`×${count}`);
      box.appendChild(item);
    }
  }
  box.hidden = box.childNodes.length === 0;
}
