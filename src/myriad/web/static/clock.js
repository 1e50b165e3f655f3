// Clocks: the time control chosen in the new-game form, and each player's clock beside its
// bar. The server keeps the clocks and sends each player's main time and byo-yomi periods
// left, and whose clock runs; this page only counts the running one down from when the view
// arrived. It never decides a flag fall: the server announces it.

const $ = (id) => document.getElementById(id);

// Presets of the form: minutes + seconds of increment.
const PRESETS = { "1+0": [1, 0], "3+2": [3, 2], "5+3": [5, 3], "15+10": [15, 10] };
const LOW_SECONDS = 20;       // a clock at or under this (or a tenth of its base) looks low

const arrived = new WeakMap();  // view -> performance.now() when first drawn
let current = null;             // the view whose clocks are on the page
let ticking = null;

// The time control of the new-game form: null (none), or what the server reads.
export function readTimeControl() {
  const kind = $("clock-kind").value;
  if ($("clock-field").hidden) return null;
  const number = (id) => Number($(id).value);
  if (kind === "none") return null;
  if (kind in PRESETS) {
    const [minutes, increment] = PRESETS[kind];
    return { kind: "fischer", base: minutes * 60, increment };
  }
  if (kind === "fischer") return { kind, base: number("clock-base") * 60, increment: number("clock-increment") };
  return { kind: "byoyomi", base: number("clock-base") * 60, periods: number("clock-periods"), period: number("clock-period") };
}

// Show the fields of the chosen kind (custom Fischer: base and increment; byo-yomi: main
// time, periods and their seconds), and name byo-yomi for the games that use it. Clocks are
// for two-player games (`layout`: the chosen game's).
export function bindTimeControl(layout) {
  const select = $("clock-kind");
  $("clock-field").hidden = !layout || layout.players.length !== 2;
  const byoyomi = select.querySelector('option[value="byoyomi"]');
  byoyomi.textContent = /^(shogi|janggi|go)/.test(layout ? layout.id : "") ? "byo-yomi (this game's own)" : "byo-yomi";
  const sync = () => {
    const kind = select.value;
    $("clock-custom").hidden = kind !== "fischer" && kind !== "byoyomi";
    $("clock-increment-field").hidden = kind !== "fischer";
    $("clock-periods-field").hidden = kind !== "byoyomi";
    $("clock-period-field").hidden = kind !== "byoyomi";
  };
  select.onchange = sync;
  sync();
}

// "4:05", "0:09.3" under ten seconds, "1:02:00" past an hour.
export function formatSeconds(seconds) {
  const s = Math.max(0, seconds);
  if (s < 10) return `0:0${s.toFixed(1)}`;
  const whole = Math.floor(s);
  const h = Math.floor(whole / 3600);
  const m = Math.floor((whole % 3600) / 60);
  const sec = String(whole % 60).padStart(2, "0");
  return h ? `${h}:${String(m).padStart(2, "0")}:${sec}` : `${m}:${sec}`;
}

// What a player's clock shows now: { text, extra, low, out }.
export function clockReading(view, player, now = performance.now()) {
  const clock = view.clock;
  const control = clock.control;
  let main = clock.main[player];
  let periods = clock.periods[player];
  if (clock.running === player) main -= (now - (arrived.get(view) ?? now)) / 1000;
  if (control.kind === "fischer") {
    const low = main <= Math.max(LOW_SECONDS, control.base / 10);
    return { text: formatSeconds(main), extra: "", low, out: main <= 0 };
  }
  if (main > 0) {
    return { text: formatSeconds(main), extra: `+ ${periods}×${control.period}s`, low: false, out: false };
  }
  const over = -main;
  const used = Math.floor(over / control.period);
  periods -= used;
  if (periods <= 0) return { text: formatSeconds(0), extra: "", low: true, out: true };
  const left = control.period - (over - used * control.period);
  return { text: formatSeconds(left), extra: `${periods}×${control.period}s`, low: periods === 1, out: false };
}

// The clock of `player` for its bar (null when the game has no clock).
export function clockFor(view, player) {
  if (!view.clock) return null;
  if (!arrived.has(view)) arrived.set(view, performance.now());
  current = view;
  const box = document.createElement("span");
  box.className = "clock";
  box.dataset.player = String(player);
  box.innerHTML = '<span class="clock-time"></span><span class="clock-extra"></span>';
  paint(box, view, player);
  if (!ticking) ticking = setInterval(tick, 100);
  return box;
}

function paint(box, view, player) {
  const reading = clockReading(view, player);
  const running = view.clock.running === player && !view.outcome;
  box.querySelector(".clock-time").textContent = reading.text;
  box.querySelector(".clock-extra").textContent = reading.extra;
  box.classList.toggle("running", running);
  box.classList.toggle("low", reading.low);
  box.classList.toggle("out", reading.out);
  box.title = `${view.players[player]}: ${view.clock.control.label}${running ? " (running)" : ""}`;
}

function tick() {
  const boxes = document.querySelectorAll(".player-bar .clock");
  if (!current || !boxes.length) { clearInterval(ticking); ticking = null; return; }
  for (const box of boxes) paint(box, current, Number(box.dataset.player));
}
