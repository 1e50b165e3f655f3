// Placing pieces from the hand: a piece dragged from the hand onto the board (a set-up
// phase, as in the Game of the Generals, or a drop in shogi), and a random set-up, which
// places the whole hand one legal placement at a time.  Legality stays the server's: a
// drag ends as a click on the square it ends over, and the random set-up picks among the
// legal moves the server sent.

// Start dragging from the hand's buttons (inside `root`): `canDrag(button)` says whether the
// piece may be placed now, `dropAt(kind, event)` is told where the drag ended.
export function bindHandDrag(root, canDrag, dropAt) {
  let drag = null;
  root.addEventListener("pointerdown", (event) => {
    const button = event.target.closest && event.target.closest(".hand-piece");
    if (!button || button.disabled || event.button !== 0 || !canDrag(button)) return;
    drag = { kind: button.dataset.kind, button, x: event.clientX, y: event.clientY, ghost: null };
    event.preventDefault();
  });
  document.addEventListener("pointermove", (event) => {
    if (!drag) return;
    if (!drag.ghost) {
      if (Math.hypot(event.clientX - drag.x, event.clientY - drag.y) < 6) return;
      const icon = drag.button.querySelector("svg");
      drag.ghost = document.createElement("div");
      drag.ghost.className = "hand-ghost";
      if (icon) drag.ghost.appendChild(icon.cloneNode(true));
      document.body.appendChild(drag.ghost);
      drag.button.classList.add("lifted");
    }
    drag.ghost.style.left = `${event.clientX}px`;
    drag.ghost.style.top = `${event.clientY}px`;
  });
  const end = (event, dropped) => {
    const done = drag;
    drag = null;
    if (!done) return;
    done.button.classList.remove("lifted");
    if (done.ghost) {  // (no ghost: the press was a click, which picks the piece)
      done.ghost.remove();
      if (dropped) dropAt(done.kind, event);
    }
  };
  document.addEventListener("pointerup", (event) => end(event, true));
  document.addEventListener("pointercancel", (event) => end(event, false));
}

// Whether the page's player is setting up: the server says so (`placing`: every move of its
// places a piece from the hand and leaves it to place again).
export function settingUp(view, canMove) {
  return canMove && view.placing === true && view.legal.length > 0;
}

// Place the rest of the hand at random, a legal placement at a time: `current()` is the
// view shown, `send(notation)` plays a move and shows the answer. Stops when the phase
// ends, the page may no longer move, or a move is refused.
export async function randomSetup(current, send, canMove) {
  for (let guard = 0; guard < 1000; guard++) {
    const view = current();
    if (!settingUp(view, canMove())) return;
    const moves = view.legal;
    const move = moves[Math.floor(Math.random() * moves.length)];
    const ply = view.ply;
    await send(move.notation);
    if (current().ply <= ply) return;
    if (!current().legal.every((m) => m.drop)) return;  // the last piece placed
  }
}
