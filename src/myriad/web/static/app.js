// The Myriad page: the game list, a game being played, and the controls.
// The server is the referee: this page shows the legal moves it was sent, lets the player
// pick one by clicks or drags, and sends the chosen move's notation back.

import { drawBoard, preview, pieceIcon, Geometry } from "./board.js";
import { initReview, renderReview, reviewFrame, reviewFrom, reviewing, viewSeen } from "./review.js";
import { initRecords } from "./records.js";
import { capturedBox, checkNote, endLine } from "./feedback.js";
import { setupAnalysis, renderAnalysis } from "./analysis.js";
import { decorateBoard, statusNote, barCount, firstRow, movesPlayed, numbered } from "./conventions.js";
import { decorateHidden, renderHiddenNote, sideOf } from "./hidden.js";
import { bindHandDrag, randomSetup, settingUp } from "./setup.js";
import { bindTimeControl, clockFor, readTimeControl } from "./clock.js";
import { followRematch, initOffers, renderOffers } from "./offers.js";

const $ = (id) => document.getElementById(id);
const LEVELS = ["human", "easy", "medium", "strong", "custom"];

const app = {
  catalog: null,
  layouts: new Map(),
  view: null,        // the game as the server last described it
  layout: null,
  flipped: false,
  entry: [],         // squares clicked so far for the move being entered
  drop: null,        // the kind of the piece picked from the hand to drop, or null
  western: localStorage.getItem("myriad.western") === "1",  // letters on pieces written as characters
  pdnNumbers: localStorage.getItem("myriad.pdn") === "1",  // draughts written algebraically: show PDN numbers
  ws: null,
  wsGame: null,
  muted: localStorage.getItem("myriad.muted") === "1",
  audio: null,
  drag: null,
  geometry: null,
};

// -- talking to the server ------------------------------------------------------------------

// Who this browser is: a secret made once and kept, sent with every request. The server
// lets its holder create games and change or delete the games it created.
function clientSecret() {
  let secret = localStorage.getItem("myriad.client");
  if (!/^[0-9a-f]{64}$/.test(secret || "")) {
    const bytes = crypto.getRandomValues(new Uint8Array(32));
    secret = [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
    localStorage.setItem("myriad.client", secret);
  }
  return secret;
}

// The seat keys this browser holds for a game: a list by seat, a token or null. The server
// hands them out once, when the game is made; an invitation link carries one of them.
function keysFor(id) {
  try {
    const keys = JSON.parse(localStorage.getItem(`myriad.keys.${id}`) || "[]");
    return Array.isArray(keys) ? keys.map((k) => (typeof k === "string" && k ? k : null)) : [];
  } catch { return []; }  // a damaged entry is no key at all
}

function saveKeys(id, keys) {
  localStorage.setItem(`myriad.keys.${id}`, JSON.stringify(keys.map((k) => k || null)));
}

// The key to act with: the seat to move's when held (a move needs it), else any held.
// Every request about a game sends it, and so does the game's WebSocket: in a game with
// hidden information the server shows each seat its own view, and a page without a key
// the public one.
function seatKey(view) { return keyOf(view.id, view.to_move); }

function keyOf(id, toMove = null) {
  const keys = keysFor(id);
  return (toMove !== null && keys[toMove]) || keys.find(Boolean) || null;
}

class ApiError extends Error {
  constructor(message, status = 0) { super(message); this.status = status; }
}

const sleep = (ms) => new Promise((done) => { setTimeout(done, ms); });

// One JSON request. `seat` is a seat key, sent with every request about a game. A 503 (the store
// is busy) is tried once more after the server's Retry-After, unless the server is read-only.
async function api(method, path, body, seat = null) {
  const options = { method, headers: { "X-Myriad-Client": clientSecret() } };
  if (seat) options.headers["X-Myriad-Seat"] = seat;
  if (body === undefined && method !== "GET") body = {};
  if (body !== undefined) {
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  let response;
  for (let attempt = 0; ; attempt++) {
    try {
      response = await fetch(path, options);
    } catch (err) {
      throw new ApiError(`the server cannot be reached (${err.message})`);
    }
    const header = response.headers.get("Retry-After");
    const wait = header === null ? NaN : Number(header);
    if (response.status !== 503 || attempt > 0 || readOnly() || !(wait >= 0)) break;
    showMessage(`The server is busy: trying again in ${wait} s…`, "notice");
    await sleep(Math.min(wait, 30) * 1000);  // a longer wait is left to the person
  }
  if (response.status === 204) return null;
  let data = null;
  try { data = await response.json(); } catch { /* not JSON */ }
  if (!response.ok) {
    throw new ApiError((data && data.error) || `${response.status} ${response.statusText}`, response.status);
  }
  return data;
}

function readOnly() { return Boolean(app.catalog && app.catalog.read_only); }

function showMessage(text, kind = "error") {
  const box = $("message");
  if (!text) { box.hidden = true; box.textContent = ""; return; }
  box.textContent = text;
  box.className = `message ${kind}`;
  box.hidden = false;
}

// -- start and routing ----------------------------------------------------------------------

async function start() {
  setSoundButton();
  try {
    app.catalog = await api("GET", "/api/catalog");
  } catch (err) {
    showMessage(`Cannot load the games: ${err.message}`);
    return;
  }
  for (const layout of app.catalog.games) app.layouts.set(layout.id, layout);
  showBanner();
  buildNewGameForm();
  buildFamilyFilter();
  bindControls();
  initReview({ view: () => app.view, seatKey, render: () => { if (app.view) render(); }, message: showMessage,
               fetchJson: (path, key) => api("GET", path, undefined, key) });
  initRecords({ catalog: () => app.catalog, message: showMessage, createFromRecord: (body) => createGame(body, "/api/records"),
                opened: (view) => { reviewFrom(view.id, 0); location.hash = `#/game/${view.id}`; } });
  initOffers({ api, keysFor, saveKeys, showMessage, show, keepMessage: () => { app.keepMessage = true; } });
  // The address is data: each parameter goes to the server as a string, which checks it.
  const query = new URLSearchParams(location.search);
  if (query.has("game_id")) await acceptInvitation(query);
  else if (query.has("position")) await openFromUrl(query);
  window.addEventListener("hashchange", route);
  await route();
}

// The server's word for everyone (e.g. that it is read-only), above everything else.
function showBanner() {
  let text = app.catalog.banner || "";
  if (!text && readOnly()) text = "The server is read-only for now: games can be watched, not started or played.";
  $("banner").textContent = text;
  $("banner").hidden = !text;
  $("start-game").disabled = readOnly();
  $("open-position-button").disabled = readOnly();
}

// `/?game_id=<id>#seat=<key>`: a seat of a game handed over by its owner. The key leaves
// the address bar at once and joins those already held for the game, at the seat the
// server says it opens.
async function acceptInvitation(query) {
  const id = query.get("game_id");
  const key = new URLSearchParams(location.hash.slice(1)).get("seat");
  const damaged = !/^[\w-]{1,64}$/.test(id) || (key !== null && !/^[\w-]{1,200}$/.test(key));
  history.replaceState(null, "", damaged ? location.pathname : `${location.pathname}#/game/${id}`);
  app.keepMessage = true;
  if (damaged) return showMessage("The invitation link is damaged: copy it again, whole.");
  if (!key) return;  // no key: the game is watched
  let view;
  try {
    view = await api("GET", `/api/games/${encodeURIComponent(id)}`, undefined, key);
  } catch {
    return;  // opening the game says why it cannot be
  }
  if (!Number.isInteger(view.seat)) {
    return showMessage("This invitation is not (or no longer) for a seat of this game: you can watch it.", "notice");
  }
  const keys = keysFor(id);
  while (keys.length <= view.seat) keys.push(null);
  keys[view.seat] = key;
  saveKeys(id, keys);
  app.keepMessage = false;
}

async function openFromUrl(query) {
  const body = { position: query.get("position") };
  if (query.get("game")) body.game = query.get("game");
  if (query.get("seats")) body.seats = query.get("seats").split(",");
  else if (body.game && app.layouts.has(body.game)) body.seats = app.layouts.get(body.game).players.map(() => "human");
  try {
    const view = await createGame(body);
    history.replaceState(null, "", `${location.pathname}#/game/${view.id}`);
  } catch (err) {
    history.replaceState(null, "", `${location.pathname}${location.hash}`);
    showMessage(`Cannot open the position from the address: ${err.message}`);
    app.keepMessage = true;
  }
}

// Start a game; the seat keys the server gives (this once only) are kept for it.
async function createGame(body, path = "/api/games") {
  const view = await api("POST", path, body);
  if (Array.isArray(view.keys)) saveKeys(view.id, view.keys);
  return view;
}

async function route() {
  const match = location.hash.match(/^#\/game\/([\w-]+)/);
  if (!app.keepMessage) showMessage("");
  app.keepMessage = false;
  if (match) await openGame(match[1]);
  else await showList();
}

// -- the game list --------------------------------------------------------------------------

function seatLabel(seat) {
  if (seat === "human") return "human";
  if (app.catalog.levels[seat]) return `bot (${seat})`;
  return `bot: ${seat}`;
}

function buildNewGameForm() {
  const select = $("game-select");
  select.replaceChildren();
  for (const family of app.catalog.families) {
    const group = document.createElement("optgroup");
    group.label = family;
    for (const layout of app.catalog.games.filter((g) => g.family === family)) {
      const option = new Option(layout.name, layout.id);
      group.appendChild(option);
    }
    select.appendChild(group);
  }
  select.value = localStorage.getItem("myriad.game") || "chess";
  if (!select.value) select.selectedIndex = 0;
  select.addEventListener("change", buildSeats);
  select.addEventListener("change", () => bindTimeControl(app.layouts.get(select.value)));
  buildSeats();
  bindTimeControl(app.layouts.get(select.value));
  $("new-game-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    await startNewGame();
  });
}

function buildSeats() {
  const layout = app.layouts.get($("game-select").value);
  const box = $("seats");
  box.replaceChildren();
  let saved = null;
  try { saved = JSON.parse(localStorage.getItem(`myriad.seats.${layout.id}`) || "null"); } catch { /* forgotten */ }
  if (!Array.isArray(saved) || !saved.every((s) => typeof s === "string")) saved = null;
  layout.players.forEach((player, index) => {
    const row = document.createElement("div");
    row.className = "seat";
    const label = document.createElement("label");
    label.className = "field";
    label.textContent = player;
    const select = document.createElement("select");
    select.className = "seat-select";
    select.dataset.player = String(index);
    for (const level of LEVELS) select.appendChild(new Option(level === "human" ? "human" : level === "custom" ? "custom bot spec…" : `bot: ${level}`, level));
    const custom = document.createElement("input");
    custom.className = "seat-spec";
    custom.placeholder = "e.g. mcts:playouts=2000";
    custom.spellcheck = false;
    const seat = saved && saved[index] ? saved[index] : index === 0 ? "human" : "medium";
    if (LEVELS.includes(seat)) select.value = seat;
    else { select.value = "custom"; custom.value = seat; }
    custom.hidden = select.value !== "custom";
    select.addEventListener("change", () => { custom.hidden = select.value !== "custom"; });
    label.appendChild(select);
    row.append(label, custom);
    box.appendChild(row);
  });
}

function chosenSeats() {
  return [...document.querySelectorAll("#seats .seat")].map((row) => {
    const level = row.querySelector("select").value;
    return level === "custom" ? row.querySelector("input").value.trim() : level;
  });
}

async function startNewGame() {
  const game = $("game-select").value;
  const seats = chosenSeats();
  const body = { game, seats, movetime: Number($("movetime").value), public: $("new-public").checked };
  const clock = readTimeControl();
  if (clock) body.clock = clock;
  const position = $("start-position").value.trim();
  if (position) body.position = position;
  try {
    const view = await createGame(body);
    localStorage.setItem("myriad.game", game);
    localStorage.setItem(`myriad.seats.${game}`, JSON.stringify(seats));
    $("start-position").value = "";
    location.hash = `#/game/${view.id}`;
  } catch (err) {
    showMessage(`Cannot start the game: ${err.message}`);
  }
}

function buildFamilyFilter() {
  const select = $("family-filter");
  for (const family of app.catalog.families) select.appendChild(new Option(family, family));
  select.value = localStorage.getItem("myriad.family") || "";
  select.addEventListener("change", () => {
    localStorage.setItem("myriad.family", select.value);
    loadList();
  });
}

async function showList() {
  closeSocket();
  app.view = null;
  $("game-view").hidden = true;
  $("list-view").hidden = false;
  document.title = "Myriad";
  await loadList();
}

async function loadList() {
  const family = $("family-filter").value;
  let data;
  try {
    data = await api("GET", `/api/games${family ? `?family=${encodeURIComponent(family)}` : ""}`);
  } catch (err) {
    showMessage(`Cannot list the games: ${err.message}`);
    return;
  }
  const mine = $("games-list");
  const others = $("public-list");
  mine.replaceChildren();
  others.replaceChildren();
  for (const game of data.games) {
    if (!app.layouts.has(game.game)) continue;
    const own = game.mine === true;  // the server's word: this client made it
    (own ? mine : others).appendChild(gameCard(game, own));
  }
  $("no-games").hidden = mine.children.length > 0;
  $("public-games").hidden = others.children.length === 0;
}

// One game of the list; only its owner gets a delete button.
function gameCard(game, own) {
  const layout = app.layouts.get(game.game);
  const item = document.createElement("li");
  item.className = "game-card";
  item.dataset.id = game.id;
  item.dataset.game = game.game;
  const link = document.createElement("a");
  link.href = `#/game/${encodeURIComponent(game.id)}`;
  link.className = "card-link";
  link.appendChild(preview(layout, game.cells, { western: app.western }));
  const info = document.createElement("div");
  info.className = "card-info";
  const seats = game.players.map((p, i) => `${p}: ${seatLabel(game.seats[i])}`).join(" · ");
  info.innerHTML = `<strong></strong><span class="seats-line"></span><span class="status-line"></span>`;
  info.querySelector("strong").textContent = game.name;
  info.querySelector(".seats-line").textContent = seats;
  const listed = own && game.public ? " · public" : "";
  info.querySelector(".status-line").textContent = `${game.status} · ${movesPlayed(game.ply, game.players.length)}${listed}`;
  link.appendChild(info);
  item.appendChild(link);
  if (own) {
    const remove = document.createElement("button");
    remove.type = "button";
    remove.className = "remove";
    remove.title = "Delete this game";
    remove.textContent = "✕";
    remove.addEventListener("click", async () => {
      try {
        await api("DELETE", `/api/games/${encodeURIComponent(game.id)}`);
        localStorage.removeItem(`myriad.keys.${game.id}`);
        item.remove();
        $("no-games").hidden = $("games-list").children.length > 0;
      } catch (err) { showMessage(err.message); }
    });
    item.appendChild(remove);
  }
  return item;
}

// -- a game ---------------------------------------------------------------------------------

async function openGame(id) {
  let view;
  try {
    const key = keyOf(id);
    view = await api("GET", `/api/games/${encodeURIComponent(id)}`, undefined, key);
    // Two seats held here (one browser for both players): the view of the seat to move.
    if (seatKey(view) !== key) view = await api("GET", `/api/games/${encodeURIComponent(id)}`, undefined, seatKey(view));
  } catch (err) {
    showMessage(`Cannot open the game: ${err.message}`);
    location.hash = "#/";
    return;
  }
  $("list-view").hidden = true;
  $("game-view").hidden = false;
  app.view = null;
  app.layout = app.layouts.get(view.game);
  // The board is seen from the one human seat this browser plays (or, watching, the one
  // human seat of the game).
  const humans = view.seats.map((s, i) => (s === "human" ? i : -1)).filter((i) => i >= 0);
  const held = humans.filter((i) => keysFor(view.id)[i]);
  const seen = held.length > 0 ? held : humans;
  app.flipped = seen.length === 1 && seen[0] === 1;
  app.entry = [];
  app.drop = null;
  app.refused = false;
  $("rules-text").textContent = app.layout.rules || "No rules text for this game.";
  $("game-title").textContent = app.layout.name;
  document.title = `${app.layout.name} · Myriad`;
  show(view);
  openSocket(id);
}

function openSocket(id) {
  closeSocket();
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${scheme}://${location.host}/api/games/${encodeURIComponent(id)}/ws`);
  app.ws = ws;
  app.wsGame = id;
  app.wsKey = null;
  app.wsSeated = false;
  // The seat key goes in a message, never in the URL (which reaches logs); until the server
  // answers it, views sent for nobody (a watcher's) are not shown.
  ws.addEventListener("open", () => { if (app.ws === ws) sendSeat(ws, app.view ? seatKey(app.view) : keyOf(id)); });
  ws.addEventListener("message", (event) => {
    const message = JSON.parse(event.data);
    if (message.seated) app.wsSeated = true;
    if (app.wsKey && !app.wsSeated) return;
    if (message.type === "state" && app.view && message.game.id === app.view.id) show(message.game);
  });
  ws.addEventListener("close", () => {
    if (app.ws !== ws) return;
    app.ws = null;
    // The server went away (a restart): try again while this game is open.
    setTimeout(() => { if (app.wsGame === id && app.view && app.view.id === id && !app.ws) reconnect(id); }, 1500);
  });
}

async function reconnect(id) {
  try {
    const view = await api("GET", `/api/games/${encodeURIComponent(id)}`, undefined,
                           app.view && app.view.id === id ? seatKey(app.view) : keyOf(id));
    if (app.view && app.view.id === id) { show(view, true); openSocket(id); }
  } catch {
    setTimeout(() => { if (app.wsGame === id && !app.ws) reconnect(id); }, 3000);
  }
}

// Tell the game's WebSocket whose view to send (null: a watcher's).
function sendSeat(ws, key) {
  if (ws.readyState !== WebSocket.OPEN || key === app.wsKey) return;
  app.wsKey = key;
  app.wsSeated = false;
  ws.send(JSON.stringify({ type: "seat", key }));
}

function closeSocket() {
  app.wsGame = null;
  if (app.ws) { const ws = app.ws; app.ws = null; ws.close(); }
}

// Show a view of the game (ignoring one older than what is shown, unless `force`).
function show(view, force = false) {
  const previous = app.view;
  if (previous && previous.id === view.id && view.version < previous.version && !force) return;
  const moved = previous && previous.id === view.id && view.ply !== previous.ply;
  // A game's owner never changes, but only answers to this client's requests can say who
  // it is (the socket sends no header, so its views say false): keep what a GET said.
  view.owner = view.owner === true || Boolean(previous && previous.id === view.id && previous.owner);
  app.view = view;
  if (view.owner) releaseClaimed(view);
  followRematch(previous, view);  // the other player started a rematch: go with it
  if (app.ws && app.wsGame === view.id) sendSeat(app.ws, seatKey(view));  // the seat to move's view
  if (moved || !previous || previous.ply !== view.ply || previous.version !== view.version) {
    app.entry = [];
    app.drop = null;
  }
  if (moved && view.ply > previous.ply) playSound();
  viewSeen(previous, view);
  render();
}

// The owner's page lets go of a seat whose invitation another browser took up (the friend
// plays it now), keeping at least one seat of its own.
function releaseClaimed(view) {
  const keys = keysFor(view.id);
  for (const seat of view.claimed || []) {
    if (!keys[seat] || keys.filter(Boolean).length < 2) continue;
    keys[seat] = null;
    saveKeys(view.id, keys);
  }
}

// May this page enter a move now? Only with the key of the seat to move, and only while
// the server accepts moves.
function canMove() {
  const view = app.view;
  return Boolean(view && view.human_turn && !readOnly() && !app.refused && !reviewing() && keysFor(view.id)[view.to_move]);
}

function render() {
  const view = app.view;
  const layout = app.layout;
  const frame = reviewFrame();  // an earlier position, while reviewing
  const marks = frame ? { last: frame.last ? frame.last.path : [], captures: frame.last ? frame.last.captures : [] }
    : currentMarks();
  const keys = keysFor(view.id);
  const playing = keys.some(Boolean) && !app.refused;
  app.geometry = drawBoard($("board"), layout, frame ? frame.cells : view.cells, boardOptions(marks));
  // (an earlier position under review gets the square numbers, not the game's marks and counts)
  decorateBoard($("board"), app.geometry, layout, frame ? {} : view, app.pdnNumbers);
  $("notation-settings").hidden = !layout.square_numbers;
  $("pdn-numbers").checked = app.pdnNumbers;
  decorateHidden($("board"), layout, frame ? {} : view);
  $("board").classList.toggle("interactive", canMove());
  renderBars();
  renderHands();
  renderSetupButton();
  $("board-settings").hidden = !layout.written;
  $("western").checked = app.western;
  renderStatus();
  renderMoves();
  renderMoveButtons();
  // Someone watching gets no undo or redo: they act on the players' seats.
  $("undo").hidden = !playing || Boolean(view.clock);  // (a game on the clock takes nothing back)
  $("redo").hidden = !playing || Boolean(view.clock);
  $("undo").disabled = !view.can_undo || readOnly();
  $("redo").disabled = !view.can_redo || readOnly();
  $("watching").hidden = playing || !view.seats.includes("human");
  const position = (frame || view).position;  // the position on the board, reviewed or in play
  $("position-text").value = position;
  $("export").href = `/api/games/${encodeURIComponent(view.id)}/record`;
  const link = `${location.pathname}?game=${encodeURIComponent(view.game)}&position=${encodeURIComponent(position)}`;
  $("position-link").href = link;
  // Settings are the owner's alone.
  const allBots = view.seats.every((s) => s !== "human");
  $("bot-controls").hidden = !allBots || !view.owner;
  if (allBots) {
    $("speed").value = String(closestSpeed(view.delay));
    $("pause").textContent = view.paused ? "Resume" : "Pause";
  }
  $("owner-controls").hidden = !view.owner;
  $("public-game").checked = Boolean(view.public);
  $("public-game").disabled = readOnly();
  renderInvitations(keys);
  renderReview();
  document.querySelector(".board-wrap").classList.toggle("flipped-view", app.flipped);
  renderAnalysis(view);
  renderOffers(view, readOnly());
}

// For every human seat this browser holds a key for, a link that hands the seat to a friend.
function renderInvitations(keys) {
  const view = app.view;
  const list = $("invite-list");
  list.replaceChildren();
  view.seats.forEach((seat, index) => {
    if (seat !== "human" || !keys[index]) return;
    const url = new URL(location.pathname, location.origin);
    url.searchParams.set("game_id", view.id);
    url.hash = `seat=${keys[index]}`;
    const item = document.createElement("li");
    const link = document.createElement("a");
    link.className = "invite";
    link.dataset.player = String(index);
    link.href = url.href;
    link.textContent = `Invite a friend to play ${view.players[index]}`;
    link.addEventListener("click", (event) => { event.preventDefault(); copyInvitation(url.href); });
    item.appendChild(link);
    list.appendChild(item);
  });
  if (view.owner) {  // the seats handed over: their invitations were opened elsewhere
    for (const seat of view.claimed || []) {
      if (keys[seat]) continue;
      const item = document.createElement("li");
      item.className = "claimed";
      item.textContent = `${cap(view.players[seat])}: played from the browser that opened its invitation`;
      list.appendChild(item);
    }
  }
  if (list.children.length) {  // and one for watchers: the game's own address, no key
    const watch = new URL(`${location.pathname}#/game/${view.id}`, location.origin).href;
    const item = document.createElement("li");
    const link = document.createElement("a");
    link.className = "watch-link";
    link.href = watch;
    link.textContent = "Link for watchers";
    link.addEventListener("click", (event) => { event.preventDefault(); copyText(watch).then((ok) => { if (ok) showMessage("Link for watchers copied.", "notice"); }); });
    item.appendChild(link);
    list.appendChild(item);
  }
  $("invites").hidden = list.children.length === 0;
}

// Moves made with a button, not on the board: a pass, a dice game's roll and hold.  The
// first is the #pass button, the others are made next to it; each carries its notation.
function renderMoveButtons() {
  const view = app.view;
  const buttons = canMove() ? view.legal.filter((m) => m.path.length === 0) : [];
  document.querySelectorAll(".actions .extra-move").forEach((b) => b.remove());
  const pass = $("pass");
  pass.hidden = buttons.length === 0;
  if (!buttons.length) return;
  const label = (m) => (m.notation === "pass" ? "Pass" : cap(m.notation));
  pass.textContent = label(buttons[0]);
  pass.dataset.notation = buttons[0].notation;
  let after = pass;
  for (const move of buttons.slice(1)) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "extra-move";
    button.dataset.notation = move.notation;
    button.textContent = label(move);
    button.addEventListener("click", () => send(move.notation));
    after.after(button);
    after = button;
  }
}

function closestSpeed(delay) {
  const options = [...$("speed").options].map((o) => Number(o.value));
  return options.reduce((best, v) => (Math.abs(v - delay) < Math.abs(best - delay) ? v : best), options[0]);
}

// The player seen from below (the first, or the second when flipped) on the bottom bar;
// the others on the top bar, each with its colour, name and seat.
function renderBars() {
  const view = app.view;
  const count = view.players.length;
  const bottomPlayer = app.flipped && count > 1 ? 1 : 0;
  const others = [...Array(count).keys()].filter((p) => p !== bottomPlayer);
  for (const [id, players] of [["bar-top", others], ["bar-bottom", [bottomPlayer]]]) {
    const bar = $(id);
    bar.hidden = players.length === 0;
    bar.replaceChildren();
    bar.classList.toggle("many", players.length > 1);
    let anyToMove = false;
    for (const player of players) {
      const group = document.createElement("span");
      group.className = "player";
      const swatch = document.createElement("span");
      swatch.className = "swatch";
      const side = sideOf(view, player);  // a colour given in play (BanQi), or undecided
      swatch.style.background = side === undefined ? app.layout.colours[player] : side ? side.ink : "transparent";
      swatch.classList.toggle("undecided", side === null);
      const name = document.createElement("span");
      name.className = "player-name";
      name.textContent = view.players[player] + (side === undefined ? "" : side ? ` (${side.name})` : " (undecided)");
      const seat = document.createElement("span");
      seat.className = "seat-name";
      seat.textContent = seatLabel(view.seats[player]);
      group.append(swatch, name, seat);
      const taken = capturedBox(view, player, app.layout, { flipped: app.flipped, western: app.western });
      if (taken) group.appendChild(taken);
      const count = barCount(view, player);
      if (count) group.appendChild(count);
      const clock = clockFor(view, player);
      if (clock) group.appendChild(clock);
      const toMove = !view.outcome && view.to_move === player;
      group.classList.toggle("to-move", toMove);
      anyToMove = anyToMove || toMove;
      const state = botState(view);
      if (toMove && state) {
        const thinking = document.createElement("span");
        thinking.className = "thinking";
        thinking.textContent = state;
        group.appendChild(thinking);
      }
      bar.appendChild(group);
    }
    bar.classList.toggle("to-move", anyToMove);
  }
}

function boardOptions(marks) {
  return { flipped: app.flipped, marks, western: app.western };
}

// The pieces each player holds (shogi, crazyhouse): the opponent's above the board, the
// bottom player's below, each kind with its count. The player to move picks one to drop.
function renderHands() {
  const view = app.view;
  const hands = (reviewFrame() || view).hands;  // an earlier position's, while reviewing
  const shown = Array.isArray(hands);
  $("hand-top").hidden = !shown;
  $("hand-bottom").hidden = !shown;
  if (!shown) { app.drop = null; return; }
  const bottomPlayer = app.flipped && view.players.length > 1 ? 1 : 0;
  fillHand($("hand-top"), bottomPlayer === 0 ? 1 : 0, hands);
  fillHand($("hand-bottom"), bottomPlayer, hands);
}

function fillHand(box, player, hands) {
  const view = app.view;
  box.replaceChildren();
  box.dataset.player = String(player);
  const held = hands[player] || [];
  if (!held.length) {
    const empty = document.createElement("span");
    empty.className = "hand-empty";
    empty.textContent = `${cap(view.players[player] || "")}: no pieces in hand`;
    box.appendChild(empty);
  }
  for (const { piece, count } of held) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "hand-piece";
    button.dataset.owner = String(player);
    button.dataset.kind = piece.kind;
    button.dataset.count = String(count);
    button.title = `${view.players[player]}: ${piece.kind} × ${count}`;
    button.setAttribute("aria-label", button.title);
    const droppable = player === view.to_move && dropMoves(piece.kind).length > 0;
    button.disabled = !droppable;
    button.classList.toggle("selected", droppable && app.drop === piece.kind);
    button.setAttribute("aria-pressed", String(droppable && app.drop === piece.kind));
    button.appendChild(pieceIcon(app.layout, piece, { flipped: app.flipped, western: app.western }));
    const badge = document.createElement("span");
    badge.className = "hand-count";
    badge.textContent = String(count);
    button.appendChild(badge);
    button.addEventListener("click", () => pickFromHand(piece.kind));
    box.appendChild(button);
  }
}

// The legal drops of a kind of piece from the hand of the player to move.
function dropMoves(kind) {
  return canMove() ? app.view.legal.filter((m) => m.drop && m.drop.kind === kind) : [];
}

function pickFromHand(kind) {
  if (!dropMoves(kind).length) return;
  app.entry = [];
  app.drop = app.drop === kind ? null : kind;
  showMessage("");
  render();
}

// What the bot to move is doing: waiting for a worker, thinking, or nothing to say.
function botState(view) {
  if (view.bot === "queued") return `bot is queued (${view.queue || 0} ahead)`;
  if (view.bot === "thinking" || (view.bot === undefined && view.thinking)) return "thinking…";
  return "";
}

function renderStatus() {
  const view = app.view;
  const status = $("status");
  let text;
  if (view.outcome) {
    text = endLine(view);
  } else if (view.chance) {
    text = "Rolling…";
  } else if (canMove()) {
    // "Your move" when this browser plays one seat only; two seats here: name the side.
    const keys = keysFor(view.id);
    const mine = view.seats.filter((s, i) => s === "human" && keys[i]).length;
    text = mine === 1 ? `Your move (${view.to_move_name})` : `${cap(view.to_move_name)} to move`;
    if (app.entry.length > 0) text += ` · ${app.entry.join(" → ")}`;
    else if (app.drop) text += ` · drop the ${app.drop}`;
  } else if (view.human_turn) {
    text = `${cap(view.to_move_name)} to move`;
  } else if (view.paused) {
    text = `${cap(view.to_move_name)} to move · paused`;
  } else {
    const state = botState(view);
    text = `${cap(view.to_move_name)} (bot) to move${state ? ` · ${state}` : ""}`;
  }
  text += checkNote(view);
  const note = statusNote(view, canMove(), app.pdnNumbers ? app.layout.square_numbers : null);
  if (note) text += ` · ${note}`;
  status.textContent = text;
  status.classList.toggle("over", Boolean(view.outcome));
  status.classList.toggle("in-check", Boolean(checkNote(view)));
  renderHiddenNote(hiddenNoteBox(), app.layout, view, (piece) => pieceIcon(app.layout, piece, { western: app.western }));
  if (view.notice) showMessage(view.notice, "notice");
}

function cap(s) { return s.charAt(0).toUpperCase() + s.slice(1); }

// A row per round of moves, a column per player, and one more for chance (a die's rolls).
function renderMoves() {
  const view = app.view;
  const body = $("moves").querySelector("tbody");
  body.replaceChildren();
  const players = view.players.length + (view.history.some((e) => e.by === "chance") || view.chance ? 1 : 0);
  let row = null;
  const first = firstRow(view);
  let number = first.number - 1;
  let column = players;
  view.history.forEach((entry, ply) => {
    if (!row || entry.player <= column) {
      number += 1;
      row = document.createElement("tr");
      const head = document.createElement("th");
      head.textContent = `${number}.`;
      row.appendChild(head);
      for (let p = 0; p < players; p++) row.appendChild(document.createElement("td"));
      body.appendChild(row);
    }
    if (ply === 0 && first.secondFirst && entry.player === 1) row.children[1].classList.add("skipped");  // "23. … Nf6"
    column = entry.player;
    const cell = row.children[1 + entry.player];
    cell.textContent = app.pdnNumbers ? numbered(entry.notation, app.layout) : entry.notation;
    cell.title = entry.by === "human" || entry.by === "chance" ? entry.by : `bot (${entry.by})`;
    if (entry.by === "chance") cell.classList.add("chance");
    if (ply === view.history.length - 1) cell.classList.add("last");
    cell.dataset.ply = String(ply + 1);  // the position after it, for review
  });
  const wrap = $("moves").parentElement;
  wrap.scrollTop = wrap.scrollHeight;
}

// -- entering a move ------------------------------------------------------------------------

function startsWith(path, prefix) {
  return prefix.every((name, i) => path[i] === name);
}

function candidates(prefix = app.entry) {
  if (!canMove()) return [];
  return app.view.legal.filter((m) => !m.drop && m.path.length >= prefix.length && m.path.length > 0
                               && startsWith(m.path, prefix));
}

function currentMarks() {
  const view = app.view;
  const marks = { last: view.last ? view.last.path : [], captures: view.last ? view.last.captures : [],
                  check: view.check || [] };
  if (app.drop) {  // a piece picked from the hand: where it may be dropped
    marks.targets = [...new Set(dropMoves(app.drop).map((m) => m.path[0]))];
  } else if (app.entry.length > 0) {
    marks.selected = app.entry[0];
    marks.path = app.entry;
    const next = new Set();
    for (const m of candidates()) if (m.path.length > app.entry.length) next.add(m.path[app.entry.length]);
    marks.targets = [...next];
  } else if (canMove() && view.legal.length && view.legal.every((m) => m.path.length <= 1)) {
    // Placement and sowing games: the playable cells are marked, unless nearly every
    // cell is playable (gomoku, tic-tac-toe), where marks would only hide the board.
    const cells = [...new Set(view.legal.filter((m) => m.path.length === 1).map((m) => m.path[0]))];
    if (cells.length * 2 <= app.layout.positions.length) marks.targets = cells;
    else {
      // A few empty cells that are not playable (renju's forbidden points for Black) get a cross.
      const playable = new Set(cells);
      const blocked = app.layout.positions.map((p, i) => (view.cells[i] ? null : p.name))
        .filter((name) => name !== null && !playable.has(name));
      if (blocked.length * 4 <= cells.length) marks.blocked = blocked;
    }
  }
  return marks;
}

function squareClicked(name) {
  if (!canMove()) return;
  if (app.drop) {
    const kind = app.drop;
    app.drop = null;
    const drops = dropMoves(kind).filter((m) => m.path[0] === name);
    if (drops.length > 0) return finish(drops);
    if (candidates([name]).length === 0) {  // not a piece of one's own either: say why
      showMessage(`The ${kind} cannot be dropped on ${name}.`);
      return render();
    }
  }
  const prefix = app.entry;
  if (prefix.length === 0) {
    const here = candidates([name]);
    if (here.length === 0) return refuseStart(name);
    showMessage("");
    if (here.every((m) => m.path.length === 1)) return finish(here);
    app.entry = [name];
    return render();
  }
  if (prefix.length === 1 && name === prefix[0]) { app.entry = []; return render(); }
  const extended = candidates([...prefix, name]);
  if (extended.length > 0) {
    app.entry = [...prefix, name];
    const complete = extended.filter((m) => m.path.length === app.entry.length);
    const longer = extended.filter((m) => m.path.length > app.entry.length);
    if (longer.length === 0) return finish(complete);
    return render();
  }
  // A click on the last square of a longer path: take it if it names one path.
  const ending = candidates().filter((m) => m.path[m.path.length - 1] === name);
  const paths = new Set(ending.map((m) => m.path.join(" ")));
  if (ending.length > 0 && paths.size === 1) return finish(ending);
  // Another piece that can move: select it instead.
  app.entry = [];
  if (candidates([name]).length > 0 && prefix.length === 1) return squareClicked(name);
  showMessage(`${[...prefix, name].join("–")} is not a legal move.`);
  render();
}

// A click that cannot start a move: say why, unless it was a click on nothing in particular.
function refuseStart(name) {
  const view = app.view;
  if (app.layout.gravity) return dropInColumn(name);
  const pos = app.layout.positions.findIndex((p) => p.name === name);
  const cell = view.cells[pos];
  const onBoard = view.legal.filter((m) => !m.drop);
  const placing = onBoard.length > 0 && onBoard.every((m) => m.path.length <= 1);
  if (placing) showMessage(`${name} is not a legal move here.`);
  else if (cell && typeof cell === "object" && cell.owner === view.to_move) showMessage(`The ${cell.kind} on ${name} has no legal move.`);
}

function dropInColumn(name) {
  const layout = app.layout;
  const clicked = layout.positions.find((p) => p.name === name);
  if (!clicked) return;
  const column = app.view.legal.filter((m) => {
    if (m.path.length !== 1) return false;
    const p = layout.positions.find((q) => q.name === m.path[0]);
    return p && p.x === clicked.x;
  });
  if (column.length === 1) finish(column);
  else showMessage(`No legal move in column ${name.replace(/[0-9]+$/, "")}.`);
}

function finish(moves) {
  if (moves.length === 1) return send(moves[0].notation);
  choose(moves);
}

// Several legal moves share the squares clicked: ask which. A move that may promote or not
// (shogi) asks "Promote?" with the two pieces; a pawn reaching the last rank, which piece.
function choose(moves) {
  const box = $("promotion-choices");
  box.replaceChildren();
  const promoting = moves.filter((m) => m.promotion);
  const optional = promoting.length >= 1 && moves.length === promoting.length + 1;  // or stay as it is
  const named = (kind) => kind.replace(/-/g, " ");
  $("promotion-title").textContent = optional ? "Promote?" : promoting.length === moves.length ? "Promote to" : "Which move?";
  const icon = (piece) => pieceIcon(app.layout, piece, { flipped: app.flipped, western: app.western });
  for (const move of moves) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "choice";
    button.dataset.notation = move.notation;
    const start = app.layout.positions.findIndex((p) => p.name === move.path[0]);
    const before = start >= 0 ? app.view.cells[start] : null;
    if (move.promotion) button.appendChild(icon(move.promotion));
    else if (optional && before && typeof before === "object") button.appendChild(icon(before));
    if (optional) {
      button.dataset.choice = move.promotion ? "promote" : "keep";
      button.title = `${move.notation}: ${move.promotion ? named(move.promotion.kind) : `stays a ${before && named(before.kind)}`}`;
    }
    const label = document.createElement("span");
    if (optional && !move.promotion) label.textContent = "Keep";
    else if (optional && promoting.length === 1) label.textContent = "Promote";
    else label.textContent = move.promotion ? named(move.promotion.kind) : move.notation;
    button.appendChild(label);
    button.addEventListener("click", () => { $("promotion").hidden = true; send(move.notation); });
    box.appendChild(button);
  }
  $("promotion").hidden = false;
}

async function send(notation) {
  const view = app.view;
  app.entry = [];
  try {
    const next = await api("POST", `/api/games/${encodeURIComponent(view.id)}/moves`,
                           { move: notation, ply: view.ply }, seatKey(view));
    showMessage("");
    show(next);
  } catch (err) {
    if (err.status === 403) refused(err);
    else showMessage(`Move not played: ${err.message}`);
    try { show(await api("GET", `/api/games/${encodeURIComponent(view.id)}`, undefined, seatKey(view)), true); } catch { render(); }
  }
}

// The server refused a seat's key (none held, or an old one): this page only watches now.
function refused(err) {
  app.refused = true;
  showMessage(`You are watching this game: only its players can move here (${err.message}).`, "notice");
  app.keepMessage = false;
}

// Pointer input on the board: a click selects, a drag from a piece to a square moves it.
function boardPoint(event) {
  const svg = $("board");
  const matrix = svg.getScreenCTM();
  if (!matrix) return [-1, -1];
  const point = new DOMPoint(event.clientX, event.clientY).matrixTransform(matrix.inverse());
  return [point.x, point.y];
}

function squareAt(event) {
  if (!app.geometry) return null;
  const pos = app.geometry.positionAt(...boardPoint(event));
  return pos >= 0 ? app.layout.positions[pos].name : null;
}

function bindBoard() {
  const svg = $("board");
  svg.addEventListener("pointerdown", (event) => {
    if (!canMove() || event.button !== 0) return;
    const name = squareAt(event);
    if (!name) return;
    const movable = app.entry.length === 0 && candidates([name]).some((m) => m.path.length > 1);
    app.drag = { from: name, x: event.clientX, y: event.clientY, moved: false, movable, ghost: null };
    if (movable) svg.setPointerCapture(event.pointerId);
    event.preventDefault();
  });
  svg.addEventListener("pointermove", (event) => {
    const drag = app.drag;
    if (!drag || !drag.movable) return;
    if (!drag.moved && Math.hypot(event.clientX - drag.x, event.clientY - drag.y) < 6) return;
    if (!drag.moved) {
      drag.moved = true;
      const piece = svg.querySelector(`.pieces [data-square="${CSS.escape(drag.from)}"]`);
      if (piece) {
        drag.ghost = piece.cloneNode(true);
        drag.ghost.classList.add("ghost");
        piece.classList.add("lifted");
        svg.appendChild(drag.ghost);
      }
      app.entry = [drag.from];
      const marks = currentMarks();
      app.geometry = drawBoard(svg, app.layout, app.view.cells, boardOptions(marks));
      const again = svg.querySelector(`.pieces [data-square="${CSS.escape(drag.from)}"]`);
      if (again) again.classList.add("lifted");
      if (drag.ghost) svg.appendChild(drag.ghost);
    }
    if (drag.ghost) {
      const [x, y] = boardPoint(event);
      const [cx, cy] = app.geometry.centre(app.geometry.index.get(drag.from));
      drag.ghost.setAttribute("transform", `translate(${x - cx} ${y - cy})`);
    }
  });
  const end = (event) => {
    const drag = app.drag;
    app.drag = null;
    if (!drag) return;
    const name = squareAt(event);
    if (drag.moved) {
      if (name && name !== drag.from) { app.entry = [drag.from]; squareClicked(name); }
      else render();
      return;
    }
    if (name) squareClicked(name);
  };
  svg.addEventListener("pointerup", end);
  svg.addEventListener("pointercancel", () => { app.drag = null; if (app.view) render(); });
}

// -- controls -------------------------------------------------------------------------------

// The note under the status about hidden information (hidden.js), made once.
function hiddenNoteBox() {
  let box = $("hidden-note");
  if (!box) {
    box = document.createElement("p");
    box.id = "hidden-note";
    box.className = "hidden-note";
    $("status").after(box);
  }
  return box;
}

// A set-up phase (every legal move a placement from the hand): a button that places the
// rest of the hand at random (setup.js), made once next to the bottom hand.
function renderSetupButton() {
  let button = $("random-setup");
  const shown = Boolean(app.view) && settingUp(app.view, canMove());
  if (!button && !shown) return;
  if (!button) {
    button = document.createElement("button");
    button.type = "button";
    button.id = "random-setup";
    button.textContent = "Random set-up";
    button.title = "Place the rest of your pieces at random";
    button.addEventListener("click", async () => {
      button.disabled = true;
      try { await randomSetup(() => app.view, send, canMove); } finally { button.disabled = false; }
    });
    $("hand-bottom").after(button);
  }
  button.hidden = !shown;
}

function bindControls() {
  bindBoard();
  setupAnalysis(api, () => app.view, () => (app.view ? keyOf(app.view.id, app.view.to_move) : null),
    // (a hidden game is analysed only in force, from the seat's own view)
    () => { const frame = reviewFrame(); return frame && !app.layout.hidden ? frame.position : null; });
  // A piece dragged from the hand onto a square: placed as by a click on it, then the square.
  bindHandDrag(document, () => canMove(), (kind, event) => {
    const name = squareAt(event);
    if (!name || !dropMoves(kind).length) return;
    app.entry = [];
    app.drop = kind;
    squareClicked(name);
  });
  $("flip").addEventListener("click", () => { app.flipped = !app.flipped; render(); });
  $("undo").addEventListener("click", () => gameAction("undo"));
  $("redo").addEventListener("click", () => gameAction("redo"));
  $("pass").addEventListener("click", () => {
    const pass = app.view && app.view.legal.find((m) => m.path.length === 0);
    if (pass) send(pass.notation);
  });
  $("new-game").addEventListener("click", () => {
    if (app.view) {
      $("game-select").value = app.view.game;
      localStorage.setItem(`myriad.seats.${app.view.game}`, JSON.stringify(app.view.seats));
      buildSeats();
      $("movetime").value = app.view.movetime;
    }
    location.hash = "#/";
  });
  $("rules-toggle").addEventListener("click", () => {
    const panel = $("rules");
    panel.hidden = !panel.hidden;
    $("rules-toggle").setAttribute("aria-expanded", String(!panel.hidden));
  });
  $("copy-position").addEventListener("click", copyPosition);
  $("open-position-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const text = $("open-position").value.trim();
    if (!text || !app.view) return;
    try {
      const view = await createGame({ game: app.view.game, position: text, seats: app.view.seats,
                                      movetime: app.view.movetime });
      $("open-position").value = "";
      showMessage("");
      location.hash = `#/game/${view.id}`;
    } catch (err) {
      showMessage(`Position not opened: ${err.message}`);
    }
  });
  $("speed").addEventListener("change", () => configure({ delay: Number($("speed").value) }));
  $("pause").addEventListener("click", () => configure({ paused: !app.view.paused }));
  $("public-game").addEventListener("change", () => configure({ public: $("public-game").checked }));
  $("promotion-cancel").addEventListener("click", () => { $("promotion").hidden = true; app.entry = []; app.drop = null; render(); });
  $("western").addEventListener("change", () => {
    app.western = $("western").checked;
    localStorage.setItem("myriad.western", app.western ? "1" : "0");
    if (app.view) render();
  });
  $("pdn-numbers").addEventListener("change", () => {
    app.pdnNumbers = $("pdn-numbers").checked;
    localStorage.setItem("myriad.pdn", app.pdnNumbers ? "1" : "0");
    if (app.view) render();
  });
  $("sound").addEventListener("click", () => {
    app.muted = !app.muted;
    localStorage.setItem("myriad.muted", app.muted ? "1" : "0");
    setSoundButton();
  });
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && app.view) { $("promotion").hidden = true; app.entry = []; app.drop = null; render(); }
  });
}

async function gameAction(what) {
  if (!app.view) return;
  try {
    show(await api("POST", `/api/games/${encodeURIComponent(app.view.id)}/${what}`, undefined, seatKey(app.view)));
    showMessage("");
  } catch (err) {
    if (err.status === 403) { refused(err); render(); } else showMessage(err.message);
  }
}

async function configure(settings) {
  try {
    show(await api("PATCH", `/api/games/${encodeURIComponent(app.view.id)}`, settings, seatKey(app.view)));
  } catch (err) {
    showMessage(err.message);
    if (app.view) render();  // e.g. the public box back to what the server holds
  }
}

async function copyPosition() {
  if (await copyText($("position-text").value)) return showMessage("Position copied.", "notice");
  $("position-text").select();
  showMessage("Position selected: press Ctrl+C (or ⌘C) to copy.", "notice");
}

async function copyInvitation(url) {
  if (await copyText(url)) showMessage("Invitation link copied: send it to the friend who plays that seat.", "notice");
  else showMessage(`Invitation link (copy it from here): ${url}`, "notice");
}

// Copy to the clipboard; false when the browser does not allow it.
async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

// -- sound ----------------------------------------------------------------------------------

const SPEAKER = '<svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true"><path d="M3 9v6h4l5 4V5L7 9H3z" fill="currentColor"/>';
const WAVES = '<path d="M15.5 8.5a5 5 0 0 1 0 7M18 6a8.5 8.5 0 0 1 0 12" stroke="currentColor" stroke-width="2" fill="none" stroke-linecap="round"/>';
const CROSS = '<path d="M16 9l6 6M22 9l-6 6" stroke="currentColor" stroke-width="2" stroke-linecap="round"/>';

function setSoundButton() {
  const button = $("sound");
  button.innerHTML = `${SPEAKER}${app.muted ? CROSS : WAVES}</svg>`;
  button.setAttribute("aria-pressed", String(!app.muted));
  button.title = app.muted ? "Sound off (click to turn on)" : "Sound on (click to mute)";
}

function playSound() {
  if (app.muted) return;
  try {
    app.audio = app.audio || new AudioContext();
    const ctx = app.audio;
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    osc.type = "triangle";
    osc.frequency.value = 520;
    gain.gain.setValueAtTime(0.18, ctx.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, ctx.currentTime + 0.09);
    osc.connect(gain).connect(ctx.destination);
    osc.start();
    osc.stop(ctx.currentTime + 0.1);
  } catch { /* no audio on this device */ }
}

export { app, Geometry };
start();
