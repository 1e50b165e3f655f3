// Opening a game record: a PGN, PDN, SGF or move-list paste, or a file read here (the server
// gets its text, never its name), sent with the game chosen to POST /api/records. The
// server replays it with the rules and makes it a game of this browser's, every seat human;
// the page opens it at its start, to step through it (and play on from any unfinished end).

const $ = (id) => document.getElementById(id);

// The largest file read into the form (the server refuses bodies over 512 KiB, and JSON
// writes a record's line breaks and quotes with two characters).
const MAX_FILE = 400 * 1024;

// Bind the form; `ctx`: catalog(), createFromRecord(body) -> view, opened(view), message(text, kind).
export function initRecords(ctx) {
  const select = $("record-game");
  select.replaceChildren(new Option("as its Game tag says", ""));
  for (const family of ctx.catalog().families) {
    const group = document.createElement("optgroup");
    group.label = family;
    for (const layout of ctx.catalog().games.filter((g) => g.family === family)) {
      group.appendChild(new Option(layout.name, layout.id));
    }
    select.appendChild(group);
  }
  select.value = localStorage.getItem("myriad.record-game") || "chess";
  $("record-file").addEventListener("change", async () => {
    const file = $("record-file").files[0];
    if (!file) return;
    if (file.size > MAX_FILE) {
      ctx.message(`${file.name} is too large to open here (${Math.round(file.size / 1024)} KiB; at most ${MAX_FILE / 1024} KiB).`);
      $("record-file").value = "";
      return;
    }
    $("record-text").value = await file.text();
  });
  $("record-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const text = $("record-text").value;
    if (!text.trim()) { ctx.message("Paste a record or choose a file first."); return; }
    const body = { text, index: Math.max(1, Math.trunc(Number($("record-index").value) || 1)) };
    if (select.value) body.game = select.value;
    try {
      const view = await ctx.createFromRecord(body);
      localStorage.setItem("myriad.record-game", select.value);
      $("record-text").value = "";
      $("record-file").value = "";
      ctx.message("");
      ctx.opened(view);
    } catch (err) {
      ctx.message(`Record not opened: ${err.message}`);
    }
  });
}
