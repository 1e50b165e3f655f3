// Analysis on demand: the "Analyse" button asks the server for a bot's evaluation and best
// line in the shown position (never played), drawn as an evaluation bar beside the board
// and a line of moves in the Analysis panel. `analysePosition` takes any position text of
// the game (an earlier position under review, say).

const $ = (id) => document.getElementById(id);

const state = {
  api: null,        // the page's JSON request function: api(method, path, body, seat)
  view: () => null, // the game as the page shows it now
  seat: () => null, // the seat key to send (a hidden game is analysed from the caller's seat)
  shown: () => null, // the position text on the board when it is not the game's (under review)
  result: null,     // the last answer, for the position it was asked about
  busy: false,
};

// Connect the controls; `api`, `currentView` and `seatKey` are the page's own;
// `shownPosition` gives the reviewed position's text, or null for the game's own.
export function setupAnalysis(api, currentView, seatKey, shownPosition = () => null) {
  state.api = api;
  state.view = currentView;
  state.seat = seatKey;
  state.shown = shownPosition;
  $("analyse").addEventListener("click", () => {
    const view = state.view();
    if (view) analysePosition(view.id, state.shown());
  });
}

// Ask for the analysis of `position` (a text in the game's notation; null: the game's
// position in force) of game `gameId`, show it, and return the answer (null on a refusal,
// which the panel shows in words).
export async function analysePosition(gameId, position = null) {
  if (state.busy) return null;
  state.busy = true;
  $("analyse").disabled = true;
  $("analysis-text").textContent = "Analysing…";
  $("analysis-text").classList.remove("error", "hint");
  const body = {};
  if (position) body.position = position;
  const spec = $("analysis-spec").value.trim();
  if (spec) body.spec = spec;
  body.seconds = Number($("analysis-seconds").value) || 3;
  try {
    const answer = await state.api("POST", `/api/games/${encodeURIComponent(gameId)}/analysis`, body, state.seat());
    state.result = answer;
    return answer;
  } catch (err) {
    state.result = { error: err.message };
    return null;
  } finally {
    state.busy = false;
    $("analyse").disabled = false;
    renderAnalysis(state.view());
  }
}

// Draw the last answer if it is about the position shown, else hide the bar (the position
// moved on: an old evaluation would mislead).
export function renderAnalysis(view) {
  const bar = $("eval-bar");
  const result = state.result;
  const text = $("analysis-text");
  const shown = view ? state.shown() : null;
  $("analyse").hidden = !view || (Boolean(view.outcome) && !shown);
  $("analysis").hidden = !view;
  if (state.busy) return;
  if (!result || !view) { bar.hidden = true; hint(text); return; }
  if (result.error) {
    bar.hidden = true;
    text.textContent = `No analysis: ${result.error}`;
    text.classList.remove("hint");
    text.classList.add("error");
    state.result = null;
    return;
  }
  if (result.position !== (shown || view.position)) {
    bar.hidden = true;
    state.result = null;
    hint(text);
    return;
  }
  text.classList.remove("error", "hint");
  const line = result.line.length ? result.line.join(" ") : result.move;
  const depth = result.depth ? `, depth ${result.depth}` : "";
  const nodes = result.nodes ? `, ${result.nodes.toLocaleString("en")} nodes` : "";
  text.replaceChildren();
  const score = document.createElement("strong");
  score.className = "analysis-score";
  score.textContent = result.text;
  const best = document.createElement("span");
  best.className = "analysis-line";
  best.textContent = ` ${result.player} plays ${result.move} · line: ${line}`;
  const who = document.createElement("span");
  who.className = "hint analysis-bot";
  who.textContent = ` (${result.bot}${depth}${nodes}, ${result.seconds} s)`;
  text.append(score, best, who);
  if (result.bar === null || result.bar === undefined) { bar.hidden = true; return; }
  bar.hidden = false;
  // The first player's share fills from its own side of the board (below unless flipped).
  const fill = $("eval-fill");
  fill.style.height = `${(100 * result.bar).toFixed(1)}%`;
  const flipped = document.querySelector(".board-wrap").classList.contains("flipped-view");
  fill.style.top = flipped ? "0" : "";
  fill.style.bottom = flipped ? "" : "0";
  $("eval-number").textContent = result.text;
  bar.title = `${view.players[0]}'s share: ${Math.round(100 * result.bar)}% (${result.text})`;
  bar.setAttribute("aria-label", bar.title);
}

function hint(text) {
  text.classList.remove("error");
  text.textContent = "Analyse asks a bot for its evaluation and best line here; no move is played.";
  text.classList.add("hint");
}
