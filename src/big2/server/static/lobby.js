// The lobby: create a table, list open ones, join or watch.
import {$, api, el, playerName, saveSeat, savedSeat, setPlayerName} from "./dom.js";
import {cardEl} from "./cards.js";
import {applyText, t} from "./i18n.js";
import {settingsMenu} from "./settings.js";

let meta = null, tables = [], recent = [], more = false;
const PAGE = 10;  // tables shown at first, and added by "Show more"
let shown = PAGE;

async function init() {
  for (const c of ["2S", "AH", "KC", "QD", "JS"]) $("hero-fan").append(cardEl(c));
  // on a phone the open tables come first and the form is folded
  if (window.matchMedia("(max-width: 600px)").matches) $("new-table").open = false;
  $("your-name").value = playerName();
  settingsMenu($("bar"), redraw);
  meta = await api("/api/options");
  for (const name of Object.keys(meta.presets)) {
    $("preset").append(el("option", {value: name, text: name}));
  }
  $("players").addEventListener("change", () => { seatChoices(); decksFor(); });
  $("preset").addEventListener("change", () => {
    $("how-link").href = "/how?preset=" + encodeURIComponent($("preset").value);
    $("deals").value = meta.presets[$("preset").value].match_deals ?? 4;
  });
  $("seat-choices").addEventListener("change", timerDefault);
  $("turn-time").addEventListener("change", () => { timerChosen = true; });
  seatChoices();
  options();
  $("create").addEventListener("submit", create);
  let typing = null;
  $("find").addEventListener("input", () => {
    clearTimeout(typing);
    typing = setTimeout(() => { shown = PAGE; refresh(); }, 250);
  });
  $("open-only").addEventListener("change", () => { shown = PAGE; refresh(); });
  $("more-tables").addEventListener("click", () => { shown += PAGE; refresh(); });
  placeholders();
  refresh();
  setInterval(refresh, 4000);
}

function placeholders() {
  $("find").placeholder = t("findTable");
  $("find").setAttribute("aria-label", t("findTable"));
}

function redraw() {
  applyText(document);
  placeholders();
  document.title = t("lobbyTitle");
  if (meta) { seatChoices(); decksFor(); }
  showTables();
}

function botChoices() {
  const levels = Object.keys(meta.levels);
  const others = meta.bots.filter(b => !levels.includes(b));
  return [["human", t("friendSeat")], ...levels.map(l => [l, t("botLevel", t(l))]),
          ...others.map(b => [b, t("botLevel", b)])];
}

function seatChoices() {
  const n = +$("players").value, box = $("seat-choices");
  const old = [...box.querySelectorAll("select")].map(s => s.value);
  box.replaceChildren();
  for (let s = 1; s < n; s++) {
    const sel = el("select", {id: "seat-" + s, "aria-label": t("seatN", s + 1)});
    for (const [v, label] of botChoices()) sel.append(el("option", {value: v, text: label}));
    sel.value = old[s - 1] || (meta.levels.hard ? "hard" : "medium");
    box.append(el("div", {class: "form-row"},
                  el("label", {for: "seat-" + s, text: t("seatN", s + 1)}), sel));
  }
  timerDefault();
}

// The turn timer is off by default when you are the only person at the table (bots
// wait for no one), 30 s when a friend's seat is open; a time chosen by hand is kept.
let timerChosen = false;
function timerDefault() {
  if (timerChosen) return;
  const friends = [...$("seat-choices").querySelectorAll("select")].some(s => s.value === "human");
  $("turn-time").value = friends ? "30" : "0";
}

// 5 to 8 players play with two decks: fill in decks = 2 (unless chosen by hand)
// and say so; a one-deck table of more than four is refused by the server.
let autoDecks = false;
function decksFor() {
  const n = +$("players").value, decks = $("opt-decks");
  if (!decks) return;
  if (n > 4 && decks.value === "") { decks.value = "2"; autoDecks = true; }
  else if (n <= 4 && autoDecks && decks.value === "2") { decks.value = ""; autoDecks = false; }
  $("players-note").textContent = n > 4 ? t("twoDecks") : "";
}

function options() {
  const box = $("options");
  for (const o of meta.options) {
    if (["players", "match_deals"].includes(o.name)) continue;
    let input;
    const id = "opt-" + o.name;
    if (o.choices && !o.multi) {
      input = el("select", {id, title: o.help});
      input.append(el("option", {value: "", text: "(preset)"}));
      for (const c of o.choices) {
        input.append(el("option", {value: JSON.stringify(c), text: String(c)}));
      }
    } else if (o.multi) {
      input = el("input", {id, title: o.help,
                           placeholder: "(preset) e.g. " + (o.choices || []).join(",")});
    } else {
      input = el("input", {id, type: "number", min: o.min, max: o.max, placeholder: "(preset)",
                           title: o.help});
    }
    box.append(el("div", {class: "form-row"},
      el("label", {for: id, text: o.name.replaceAll("_", " "), title: o.help}), input));
  }
  const decks = $("opt-decks");
  if (decks) decks.addEventListener("input", () => { autoDecks = false; });
}

function chosenOptions() {
  const out = {};
  for (const o of meta.options) {
    const input = $("opt-" + o.name);
    if (!input || input.value === "") continue;
    if (o.choices && !o.multi) out[o.name] = JSON.parse(input.value);
    else if (o.multi) out[o.name] = input.value.split(",").map(s => s.trim()).filter(Boolean);
    else out[o.name] = parseInt(input.value, 10);
  }
  return out;
}

async function create(ev) {
  ev.preventDefault();
  const name = $("your-name").value.trim();
  if (!name) { $("create-error").textContent = t("typeName"); return; }
  setPlayerName(name);
  const n = +$("players").value;
  const seats = [null];
  for (let s = 1; s < n; s++) {
    const v = $("seat-" + s).value;
    seats.push(v === "human" ? null : v);
  }
  try {
    const tb = await api("/api/tables", {method: "POST", body: {
      name: $("table-name").value, preset: $("preset").value, players: n, seats,
      deals: +$("deals").value || 0, turn_time: +$("turn-time").value,
      options: chosenOptions()}});
    const j = await api(`/api/tables/${tb.id}/join`, {method: "POST", body: {seat: 0, name}});
    saveSeat(tb.id, j.seat, j.token);
    location.href = "/t/" + tb.id;
  } catch (e) { $("create-error").textContent = t("cannotCreate", e.message); }
}

async function joinSeat(id, seat) {
  const name = $("your-name").value.trim();
  if (!name) {
    $("new-table").open = true;
    $("your-name").focus();
    $("create-error").textContent = t("typeNameFirst");
    return;
  }
  setPlayerName(name);
  try {
    const j = await api(`/api/tables/${id}/join`, {method: "POST", body: {seat, name}});
    saveSeat(id, j.seat, j.token);
    location.href = "/t/" + id;
  } catch (e) { $("create-error").textContent = e.message; refresh(); }
}

function deckText(tb) {
  const parts = [];
  if (tb.decks > 1) parts.push(`${tb.decks} decks`);
  if (tb.jokers && tb.jokers !== "none") parts.push(`${tb.jokers} jokers`);
  return parts.length ? " (" + parts.join(", ") + ")" : "";
}

// The lobby's tables: the newest *shown* of those matching the filter (one more is
// asked for, to know whether "Show more" has more to show).
async function refresh() {
  const q = new URLSearchParams({limit: String(shown + 1)});
  const find = $("find").value.trim();
  if (find) q.set("find", find);
  if ($("open-only").checked) q.set("open", "true");
  const list = await api("/api/tables?" + q).catch(() => null);
  if (!list) return;
  more = list.length > shown;
  tables = list.slice(0, shown);
  recent = await api("/api/records").catch(() => []);
  showTables();
}

function showTables() {
  const ul = $("tables");
  if (!meta && !tables.length) return;
  ul.replaceChildren();
  const filtered = $("find").value.trim() || $("open-only").checked;
  if (!tables.length) {
    ul.append(el("li", {class: "muted", text: t(filtered ? "noMatch" : "noTables")}));
  }
  $("more-tables").classList.toggle("hidden", !more);
  for (const tb of tables) {
    const seats = tb.seats.map(s => s.open ? t("openSeat") : s.name).join(" · ");
    const actions = el("div", {class: "actions"});
    if (savedSeat(tb.id)) {
      actions.append(el("a", {class: "button primary", href: "/t/" + tb.id,
                              text: t("backToSeat")}));
    } else {
      for (const s of tb.open) {
        actions.append(el("button", {class: "primary", text: t("joinSeat", s + 1),
                                     onclick: () => joinSeat(tb.id, s)}));
      }
    }
    actions.append(el("a", {class: "button", href: "/t/" + tb.id, text: t("watch")}));
    const when = tb.status === "waiting" ? t("waitingForPlayers")
      : (tb.deals ? t("dealOfN", tb.deal, tb.deals) : t("dealOf", tb.deal));
    ul.append(el("li", {"data-table": tb.id},
      el("div", {}, el("b", {text: tb.name}),
         ` · ${tb.rules}${deckText(tb)} · ${t("nPlayers", tb.players)} · ${when}`),
      el("div", {class: "seats", text: seats}), actions));
  }
  const r = $("recent");
  r.replaceChildren();
  if (!recent.length) r.append(el("li", {class: "muted", text: t("noneYet")}));
  for (const d of recent.slice(0, 8)) {
    r.append(el("li", {}, `${d.names.join(", ")} — ${t("won", d.names[d.winner])} `,
      el("a", {href: "/replay/" + d.id, text: t("replay")})));
  }
}
init();
