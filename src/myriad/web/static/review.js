// Reviewing a game: the board shows an earlier position while the game itself goes on.
// A click on a move in the list, the arrow keys, Home and End, or the buttons under the
// list choose the position; "Back to the game" (or End) returns to the game as it is.
// Positions come from the server (GET /api/games/{id}/position?ply=n), which shows each
// page only what its seat may see; they are kept per game while its moves stay the same.
// While reviewing, the board takes no moves, and a move arriving over the WebSocket does
// not pull the page back: the bar says the game has moved on.

const $ = (id) => document.getElementById(id);

const review = {
  ctx: null,        // what the page lends: view(), seatKey(view), fetchJson(path, key), render()
  gameId: null,
  ply: null,        // the ply shown, null: the game as it is
  frame: null,      // the position shown while reviewing (the last one fetched for `ply`)
  frames: new Map(),  // `${key}|${ply}` -> position
  seenPly: 0,       // the game's ply when the review began (to tell that it moved on since)
  pending: null,    // {id, ply}: review the next game opened from this ply (a record just opened)
};

// Bind the controls once; `ctx` gives the page's view, its requests and its redraw.
export function initReview(ctx) {
  review.ctx = ctx;
  $("review-first").addEventListener("click", () => goTo(0));
  $("review-prev").addEventListener("click", () => step(-1));
  $("review-next").addEventListener("click", () => step(1));
  $("review-last").addEventListener("click", backToGame);
  $("review-back").addEventListener("click", backToGame);
  $("moves").addEventListener("click", (event) => {
    const cell = event.target.closest("td[data-ply]");
    if (cell) goTo(Number(cell.dataset.ply));
  });
  document.addEventListener("keydown", onKey);
}

// Whether the board shows an earlier position.
export function reviewing() { return review.ply !== null; }

// The position shown while reviewing ({cells, hands, last, ...}), else null.
export function reviewFrame() { return reviewing() ? review.frame : null; }

// Open the game `id` at `ply` (a record just opened is stepped through from its start).
export function reviewFrom(id, ply) { review.pending = { id, ply }; }

// A new view of the game arrived (a move, an undo, another game opened): keep reviewing
// the same ply while it still exists and its moves are the same.
export function viewSeen(previous, view) {
  if (!previous || review.gameId !== view.id) {  // another game, or this one opened again
    review.gameId = view.id;
    review.frames.clear();
    review.ply = null;
    review.frame = null;
    const pending = review.pending;
    review.pending = null;
    if (pending && pending.id === view.id && pending.ply < view.ply) {
      review.seenPly = view.ply;
      review.ply = pending.ply;
      load(pending.ply);
    }
    return;
  }
  if (Boolean(previous.outcome) !== Boolean(view.outcome)) review.frames.clear();  // a hidden game shows all at its end
  else {
    const same = samePrefix(previous.history, view.history);
    for (const key of [...review.frames.keys()]) if (Number(key.split("|")[1]) > same) review.frames.delete(key);
  }
  if (review.ply === null) return;
  if (review.ply >= view.ply) { leave(); return; }  // taken back to (or before) the position reviewed
  if (!review.frames.has(frameKey(review.ply))) load(review.ply);
}

// How many moves two histories share from the start.
function samePrefix(a, b) {
  let n = 0;
  while (n < a.length && n < b.length && a[n].notation === b[n].notation) n += 1;
  return n;
}

function frameKey(ply) {
  const view = review.ctx.view();
  return `${(view && review.ctx.seatKey(view)) || ""}|${ply}`;
}

// Show the position after `ply` moves (the game as it is at its last ply).
export function goTo(ply) {
  const view = review.ctx.view();
  if (!view) return;
  const target = Math.max(0, Math.min(view.ply, Math.trunc(ply)));
  if (target === view.ply) { backToGame(); return; }
  if (review.ply === null) review.seenPly = view.ply;
  review.ply = target;
  load(target);
}

function step(delta) {
  const view = review.ctx.view();
  if (!view) return;
  goTo((review.ply === null ? view.ply : review.ply) + delta);
}

export function backToGame() {
  if (review.ply === null) return;
  leave();
  review.ctx.render();
}

function leave() {
  review.ply = null;
  review.frame = null;
}

// Fetch the position (unless kept) and draw it if it is still the one wanted.
async function load(ply) {
  const key = frameKey(ply);
  const kept = review.frames.get(key);
  if (kept) { review.frame = kept; review.ctx.render(); return; }
  const view = review.ctx.view();
  if (review.frame === null) review.ctx.render();  // the bar at once; the board once the position is here
  let frame;
  try {
    frame = await review.ctx.fetchJson(`/api/games/${encodeURIComponent(view.id)}/position?ply=${ply}`,
                                       review.ctx.seatKey(view));
  } catch (err) {
    review.ctx.message(`Cannot show that position: ${err.message}`);
    if (review.ply === ply && review.frame === null) leave();
    review.ctx.render();
    return;
  }
  const now = review.ctx.view();
  if (!now || now.id !== frame.id) return;
  review.frames.set(key, frame);
  if (review.ply === ply) { review.frame = frame; review.ctx.render(); }
}

function onKey(event) {
  if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return;
  if ($("game-view").hidden || !$("promotion").hidden || !review.ctx.view()) return;
  if (event.target.closest && event.target.closest("input, textarea, select, [contenteditable]")) return;
  const view = review.ctx.view();
  const at = review.ply === null ? view.ply : review.ply;
  const actions = { ArrowLeft: () => goTo(at - 1), ArrowRight: () => goTo(at + 1),
                    Home: () => goTo(0), End: backToGame };
  if (!actions[event.key]) return;
  event.preventDefault();
  actions[event.key]();
}

// The review bar, the buttons under the move list and the move reviewed in the list.
export function renderReview() {
  const view = review.ctx.view();
  const ply = review.ply;
  const at = ply === null ? view.ply : ply;
  $("review-first").disabled = at === 0;
  $("review-prev").disabled = at === 0;
  $("review-next").disabled = ply === null;
  $("review-last").disabled = ply === null;
  $("board").classList.toggle("reviewing", ply !== null);
  const drawn = reviewFrame();
  $("board").dataset.ply = String(drawn ? drawn.ply : view.ply);  // the position drawn (one is being fetched)
  const bar = $("review-bar");
  bar.hidden = ply === null;
  for (const cell of document.querySelectorAll("#moves td.reviewed")) cell.classList.remove("reviewed");
  if (ply === null) return;
  const status = $("status");  // the line under the board speaks of the game itself
  status.textContent = `In the game: ${status.textContent}`;
  const cell = document.querySelector(`#moves td[data-ply="${ply}"]`);
  if (cell) {
    cell.classList.add("reviewed");
    cell.scrollIntoView({ block: "nearest" });
  }
  const entry = ply > 0 ? view.history[ply - 1] : null;
  let text = `Reviewing the start (${view.ply} ${view.ply === 1 ? "move" : "moves"} played)`;
  if (entry) text = `Reviewing ${moveNumber(cell)}${entry.notation} (move ${ply} of ${view.ply})`;
  const frame = review.frame && review.frame.ply === ply ? review.frame : null;
  if (!frame) text += " · loading…";
  else if (frame.outcome) text += ` · ${frame.outcome.winner ? `${frame.outcome.winner} wins` : "draw"} (${frame.outcome.reason})`;
  else text += ` · ${cap(frame.to_move_name)} to move`;
  const movedOn = view.ply > review.seenPly;
  if (movedOn) text += ` · the game has moved on (${view.ply - review.seenPly} new ${view.ply - review.seenPly === 1 ? "move" : "moves"})`;
  $("review-text").textContent = text;
  bar.classList.toggle("moved-on", movedOn);
}

// The number of a move as the list writes it: "3. " for the first of its row, "3… " after.
function moveNumber(cell) {
  const head = cell && cell.parentElement.querySelector("th");
  if (!head) return "";
  const first = cell.parentElement.querySelector("td") === cell;
  return `${head.textContent.replace(/\.$/, "")}${first ? ". " : "… "}`;
}

function cap(text) { return text ? text.charAt(0).toUpperCase() + text.slice(1) : text; }
