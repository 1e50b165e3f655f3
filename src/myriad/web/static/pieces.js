// Piece pictures for the chess family, drawn by the project as SVG paths (no copied
// artwork). Three sets, as their players know them:
//   staunton: the western set (king, queen, rook, bishop, knight, pawn);
//   shatranj: the abstract medieval Islamic set — shah a domed column with a knob, ferz a
//             smaller dome, alfil a dome with two tusks, faras a cone with a single ear,
//             rukh a block split by a V, baidaq a small bead;
//   thai:     the makruk (and sittuyin) set — khun a tiered spire, met a low tiered dome,
//             khon a lotus bud, ma a plain horse head, rua a tall flat-topped tower, bia a
//             flat cowrie disc.
// The server names the picture (layout.py's piece_picture: "<set>-<role>"), chosen from
// the kind's name and movement; a kind it cannot name keeps its letter token.
// Each drawing is in a 100 x 100 box with the piece standing on y = 88.

import { el } from "./svg.js";

// Shapes per picture: each entry is [kind, attrs] with "body" parts filled in the side's
// colour and "line" parts drawn in its ink (details, slits, bands).
const BASE = "M22,88 L78,88 L78,80 Q78,74 70,73 L30,73 Q22,74 22,80 Z";
const PICTURES = {
  // -- staunton --------------------------------------------------------------------------
  "staunton-pawn": [
    ["body", "M28,88 L72,88 L72,81 Q72,76 64,75 Q56,66 57,56 L63,56 L63,50 L57,50 Q64,45 64,36 A14,14 0 1 0 36,36 Q36,45 43,50 L37,50 L37,56 L43,56 Q44,66 36,75 Q28,76 28,81 Z"],
  ],
  "staunton-rook": [
    ["body", "M24,88 L76,88 L76,80 L70,76 L66,44 L72,40 L72,22 L63,22 L63,29 L56,29 L56,22 L44,22 L44,29 L37,29 L37,22 L28,22 L28,40 L34,44 L30,76 L24,80 Z"],
    ["line", "M34,44 L66,44 M31,74 L69,74"],
  ],
  "staunton-bishop": [
    ["body", "M24,88 L76,88 L76,81 Q70,76 60,75 Q58,66 60,60 L64,60 L64,55 L60,55 Q71,46 66,32 Q62,22 50,15 Q38,22 34,32 Q29,46 40,55 L36,55 L36,60 L40,60 Q42,66 40,75 Q30,76 24,81 Z"],
    ["body", "M50,7 A5,5 0 1 1 49.9,7 Z"],
    ["line", "M53,26 L46,40 M36,55 L64,55"],
  ],
  "staunton-knight": [
    ["body", "M26,88 L78,88 L78,80 Q76,60 72,46 Q68,28 52,20 L48,12 L43,21 L37,15 L36,26 Q28,34 24,46 Q21,53 26,57 Q31,60 36,55 Q42,51 48,52 Q40,62 34,73 Q27,77 26,80 Z"],
    ["line", "M40,34 A2.5,2.5 0 1 1 39.9,34 M30,52 L27,53"],
  ],
  "staunton-queen": [
    ["body", "M24,88 L76,88 L76,80 Q70,75 64,74 L72,30 L60,52 L58,24 L50,50 L42,24 L40,52 L28,30 L36,74 Q30,75 24,80 Z"],
    ["body", "M28,30 m-5,0 a5,5 0 1 0 10,0 a5,5 0 1 0 -10,0 M42,24 m-5,0 a5,5 0 1 0 10,0 a5,5 0 1 0 -10,0 M58,24 m-5,0 a5,5 0 1 0 10,0 a5,5 0 1 0 -10,0 M72,30 m-5,0 a5,5 0 1 0 10,0 a5,5 0 1 0 -10,0"],
    ["line", "M36,66 L64,66"],
  ],
  "staunton-king": [
    ["body", "M24,88 L76,88 L76,80 Q70,75 64,74 L68,52 Q82,44 76,34 Q70,26 56,36 L53,32 L47,32 L44,36 Q30,26 24,34 Q18,44 32,52 L36,74 Q30,75 24,80 Z"],
    ["body", "M47,32 L47,22 L41,22 L41,17 L47,17 L47,9 L53,9 L53,17 L59,17 L59,22 L53,22 L53,32 Z"],
    ["line", "M32,52 L68,52 M36,66 L64,66 M50,36 L50,52"],
  ],
  // -- shatranj: abstract pieces, as turned and carved in the medieval sets ------------
  "shatranj-pawn": [
    ["body", "M32,88 L68,88 L68,82 Q68,76 62,75 Q66,66 62,58 Q57,50 50,50 Q43,50 38,58 Q34,66 38,75 Q32,76 32,82 Z"],
  ],
  "shatranj-rook": [
    ["body", "M24,88 L76,88 L76,80 L72,76 L70,40 Q70,28 62,22 L52,44 L48,44 L38,22 Q30,28 30,40 L28,76 L24,80 Z"],
    ["line", "M29,62 L71,62"],
  ],
  "shatranj-knight": [
    ["body", "M26,88 L74,88 L74,80 L70,76 Q70,52 58,40 L64,22 L48,34 Q34,40 30,58 L30,76 L26,80 Z"],
    ["line", "M30,62 L70,62"],
  ],
  "shatranj-alfil": [
    ["body", "M26,88 L74,88 L74,80 L70,76 Q72,54 64,44 L70,24 L58,38 Q50,34 42,38 L30,24 L36,44 Q28,54 30,76 L26,80 Z"],
    ["line", "M30,62 L70,62"],
  ],
  "shatranj-ferz": [
    ["body", "M28,88 L72,88 L72,80 L68,76 Q72,50 56,40 L56,34 L44,34 L44,40 Q28,50 32,76 L28,80 Z"],
    ["body", "M50,22 m-7,0 a7,7 0 1 0 14,0 a7,7 0 1 0 -14,0"],
    ["line", "M31,62 L69,62"],
  ],
  "shatranj-king": [
    ["body", "M22,88 L78,88 L78,80 L74,76 Q78,44 58,32 L58,26 L42,26 L42,32 Q22,44 26,76 L22,80 Z"],
    ["body", "M50,12 m-8,0 a8,8 0 1 0 16,0 a8,8 0 1 0 -16,0"],
    ["line", "M26,62 L74,62 M32,46 L68,46"],
  ],
  // -- thai (makruk, sittuyin) --------------------------------------------------------------
  "thai-pawn": [  // bia: a flat cowrie disc seen from the side
    ["body", "M24,86 Q24,70 50,68 Q76,70 76,86 Z"],
    ["line", "M32,80 Q50,74 68,80"],
  ],
  "thai-rook": [  // rua: a tall tower with a flat top and a collar
    ["body", `${BASE} M32,73 L34,36 L30,30 L30,22 L70,22 L70,30 L66,36 L68,73 Z`],
    ["line", "M31,30 L69,30 M34,36 L66,36"],
  ],
  "thai-knight": [  // ma: a plain horse head on a round base
    ["body", `${BASE} M34,73 Q36,60 42,54 Q34,54 28,50 Q24,44 30,38 L44,24 L46,14 L52,22 Q66,26 68,44 Q70,60 66,73 Z`],
    ["line", "M44,33 A2.5,2.5 0 1 1 43.9,33"],
  ],
  "thai-khon": [  // khon: a lotus bud, pointed
    ["body", `${BASE} M34,73 Q30,56 38,44 Q44,34 50,18 Q56,34 62,44 Q70,56 66,73 Z`],
    ["line", "M36,60 Q50,52 64,60"],
  ],
  "thai-met": [  // met: a low tiered dome
    ["body", `${BASE} M30,73 Q28,60 36,56 L64,56 Q72,60 70,73 Z M38,56 Q38,44 50,40 Q62,44 62,56 Z`],
    ["body", "M50,34 m-5,0 a5,5 0 1 0 10,0 a5,5 0 1 0 -10,0"],
  ],
  "thai-king": [  // khun: a tiered spire
    ["body", `${BASE} M30,73 Q28,62 34,58 L66,58 Q72,62 70,73 Z M36,58 L38,48 L62,48 L64,58 Z M40,48 L42,38 L58,38 L60,48 Z M44,38 L50,12 L56,38 Z`],
  ],
};

// Pictures borrowed across sets where a set has none of its own (a queen in the thai set
// is the met, and so on): the promoted pieces of crazyhouse keep their role's picture.
const FALLBACK = {
  "shatranj-queen": "shatranj-ferz", "shatranj-bishop": "shatranj-alfil",
  "thai-queen": "thai-met", "thai-bishop": "thai-khon", "thai-ferz": "thai-met", "thai-alfil": "thai-khon",
  "staunton-ferz": "shatranj-ferz", "staunton-alfil": "shatranj-alfil", "staunton-khon": "thai-khon",
  "staunton-met": "thai-met", "shatranj-khon": "thai-khon", "shatranj-met": "shatranj-ferz",
};

// The parts of a picture, or null when the project has none (the caller keeps its token).
export function pictureParts(name) {
  return PICTURES[name] || PICTURES[FALLBACK[name]] || null;
}

// Draw picture `name` centred on (cx, cy) of a unit cell, filled with `colour`, outlined
// in `outline`, its details in `ink`; returns false when there is no such picture.
export function drawPicture(group, name, cx, cy, colour, outline, ink) {
  const parts = pictureParts(name);
  if (!parts) return false;
  const g = el("g", { class: `picture picture-${name}`, transform: `translate(${cx - 0.5} ${cy - 0.5}) scale(0.01)` }, group);
  for (const [role, d] of parts) {
    if (role === "body") {
      el("path", { d, fill: colour, stroke: outline, "stroke-width": 3.2, "stroke-linejoin": "round" }, g);
    } else {
      el("path", { d, fill: "none", stroke: ink, "stroke-width": 3, "stroke-linecap": "round" }, g);
    }
  }
  return true;
}
