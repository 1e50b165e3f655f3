// What the page says about a position besides the pieces: the captured material beside
// a player's bar, and the words for check and for the end of a game. The server computes
// both (the view's `check`, `captured` and `end`); this module only shows them.

import { pieceIcon } from "./board.js";

// The pieces `player` has taken, as small icons with counts, and "+N" when its material
// is ahead; null when the game shows no captured material or nothing is taken yet.
export function capturedBox(view, player, layout, { flipped = false, western = false } = {}) {
  const taken = view.captured && view.captured[player];
  if (!taken || (!taken.pieces.length && !taken.advantage)) return null;
  const box = document.createElement("span");
  box.className = "captured";
  box.dataset.player = String(player);
  const names = [];
  for (const { piece, count } of taken.pieces) {
    for (let i = 0; i < Math.min(count, 8); i++) {
      const icon = pieceIcon(layout, piece, { flipped, western });
      icon.classList.add("captured-piece");
      icon.dataset.kind = piece.kind;
      box.appendChild(icon);
    }
    if (count > 8) {
      const more = document.createElement("span");
      more.className = "captured-more";
      more.textContent = `×${count}`;
      box.appendChild(more);
    }
    names.push(`${count} ${piece.kind}`);
  }
  if (taken.advantage) {
    const plus = document.createElement("span");
    plus.className = "advantage";
    plus.textContent = `+${taken.advantage}`;
    box.appendChild(plus);
  }
  box.title = `${view.players[player]} has taken ${names.join(", ") || "nothing"}`;
  box.setAttribute("aria-label", box.title);
  return box;
}

// " · Check" when the side to move has a royal piece in check, else "".
export function checkNote(view) {
  return !view.outcome && Array.isArray(view.check) && view.check.length ? " · Check" : "";
}

// The status line at the end: "Game over: White wins by checkmate".
export function endLine(view) {
  return `Game over: ${view.end || "the game has ended"}`;
}
