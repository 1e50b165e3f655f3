// Resign, draw offers and rematches between people. The server decides: this page shows the
// buttons a seat may use (the seats this browser holds keys for), the other side's draw
// offer with Accept and Decline, and, once the game is over, a rematch. A rematch is a new
// game with the seats rotated (swapped for two players); each seat key this browser holds
// opens, in the rematch, the seat its holder now plays, so both players follow without a
// new invitation, and a watcher gets a link.

const $ = (id) => document.getElementById(id);

let deps = null;  // { api, keysFor, saveKeys, showMessage, keepMessage, show }
let armed = null;  // the game whose Resign button was clicked once
let shown = null;  // what renderOffers drew last: { view, readOnly }

// Give this module the page's helpers (called once, at start).
export function initOffers(helpers) { deps = helpers; }

// The seat this browser acts with for an offer: one it holds a key for (with two held,
// the seat to move's).
function mySeat(view) {
  const keys = deps.keysFor(view.id);
  if (keys[view.to_move]) return view.to_move;
  const held = keys.findIndex(Boolean);
  return held >= 0 ? held : null;
}

async function act(view, what, body) {
  const seat = mySeat(view);
  const key = seat === null ? null : deps.keysFor(view.id)[seat];
  try {
    const answer = await deps.api("POST", `/api/games/${encodeURIComponent(view.id)}/${what}`, body, key);
    if (what === "rematch") follow(view, answer.id);
    else deps.show(answer);
  } catch (err) { deps.showMessage(err.message); }
}

function button(id, text, onClick, title = "") {
  const b = document.createElement("button");
  b.type = "button";
  b.id = id;
  b.textContent = text;
  if (title) b.title = title;
  b.addEventListener("click", onClick);
  return b;
}

// The controls under the board for `view` (two human players or a human against a bot).
export function renderOffers(view, readOnly) {
  shown = { view, readOnly };
  const box = $("offers");
  box.replaceChildren();
  const seat = mySeat(view);
  const twoPlayers = view.players.length === 2;
  if (!view.outcome && seat !== null && twoPlayers && !readOnly) {
    const other = 1 - seat;
    const humanOpponent = view.seats[other] === "human";
    if (view.draw_offer === other) {
      const note = document.createElement("span");
      note.className = "draw-offer";
      note.textContent = `${view.players[other]} offers a draw`;
      box.append(note, button("accept-draw", "Accept draw", () => act(view, "draw", { action: "accept" })),
                 button("decline-draw", "Decline", () => act(view, "draw", { action: "decline" })));
    } else if (humanOpponent) {
      const offered = view.draw_offer === seat;
      const offer = button("offer-draw", offered ? "Draw offered" : "½ Offer draw",
                           () => act(view, "draw", { action: "offer" }), "The next move withdraws the offer");
      offer.disabled = offered;
      box.append(offer);
    }
    // Two clicks resign: the first asks "Really resign?" for a few seconds.
    const sure = armed === view.id;
    const resign = button("resign", sure ? "Really resign?" : "⚑ Resign", () => {
      if (armed === view.id) { armed = null; act(view, "resign", {}); return; }
      armed = view.id;
      renderOffers(view, readOnly);
      setTimeout(() => { if (armed === view.id) { armed = null; renderOffers(shown.view, shown.readOnly); } }, 4000);
    });
    resign.classList.toggle("armed", sure);
    box.append(resign);
  } else if (!view.outcome && view.draw_offer !== null && view.draw_offer !== undefined && twoPlayers) {
    const note = document.createElement("span");
    note.className = "draw-offer";
    note.textContent = `${view.players[view.draw_offer]} offers a draw`;
    box.append(note);
  }
  if (view.outcome) {
    if (view.rematch) {
      const link = document.createElement("a");
      link.id = "rematch-link";
      link.href = `#/game/${view.rematch}`;
      link.textContent = seat !== null ? "Go to the rematch →" : "Watch the rematch →";
      // (a player who missed it live takes its keys along now)
      if (seat !== null) link.addEventListener("click", (event) => { event.preventDefault(); follow(view, view.rematch); });
      box.append(link);
    } else if (seat !== null && !readOnly) {
      box.append(button("rematch", "↻ Rematch", () => act(view, "rematch", {}),
                        "A new game with the seats swapped, on the same clock"));
    }
  }
  box.hidden = box.children.length === 0;
}

// Carry this browser's keys of `view` to the rematch `id` (each key to the seat its holder
// now plays) and open it.
function follow(view, id) {
  const old = deps.keysFor(view.id);
  const count = view.players.length;
  if (old.some(Boolean) && !deps.keysFor(id).some(Boolean)) {
    const keys = Array.from({ length: count }, (_, p) => old[(p - 1 + count) % count] || null);
    deps.saveKeys(id, keys);
  }
  location.hash = `#/game/${id}`;
}

// A view arrives: when the rematch of the game shown has just been made (by the other
// player), a player follows it at once.
export function followRematch(previous, view) {
  if (!previous || previous.id !== view.id || previous.rematch || !view.rematch) return;
  if (mySeat(view) === null) return;
  deps.showMessage(`A rematch has started: you now play ${rematchSeatName(view)}.`, "notice");
  deps.keepMessage();
  follow(view, view.rematch);
}

function rematchSeatName(view) {
  const count = view.players.length;
  const seat = mySeat(view);
  return view.players[(seat + 1) % count];
}
