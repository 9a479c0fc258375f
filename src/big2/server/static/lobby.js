// The lobby: create a table, list open ones, join or watch.
"use strict";
let meta = null;
const $ = (id) => document.getElementById(id);

async function init() {
  for (const c of ["2S", "AH", "KC", "QD", "JS"]) $("hero-fan").append(cardEl(c));
  $("your-name").value = playerName();
  meta = await api("/api/options");
  for (const name of Object.keys(meta.presets)) $("preset").append(el("option", {value: name, text: name}));
  $("players").addEventListener("change", () => { seatChoices(); decksFor(); });
  $("preset").addEventListener("change", () => { const d = meta.presets[$("preset").value]; $("deals").value = d.match_deals ?? 4; });
  seatChoices();
  options();
  $("create").addEventListener("submit", create);
  refresh();
  setInterval(refresh, 4000);
}

function botChoices() {
  const levels = Object.keys(meta.levels);
  const others = meta.bots.filter(b => !levels.includes(b));
  return [["human", "friend (open seat)"], ...levels.map(l => [l, `${l} bot`]), ...others.map(b => [b, `${b} bot`])];
}

function seatChoices() {
  const n = +$("players").value, box = $("seat-choices");
  const old = [...box.querySelectorAll("select")].map(s => s.value);
  box.replaceChildren();
  for (let s = 1; s < n; s++) {
    const sel = el("select", {id: "seat-" + s, "aria-label": `seat ${s + 1}`});
    for (const [v, label] of botChoices()) sel.append(el("option", {value: v, text: label}));
    sel.value = old[s - 1] || (meta.levels.hard ? "hard" : "medium");
    box.append(el("div", {class: "form-row"}, el("label", {for: "seat-" + s, text: `Seat ${s + 1}`}), sel));
  }
}

// 5 to 8 players play with two decks: fill in decks = 2 (unless chosen by hand)
// and say so; a one-deck table of more than four is refused by the server.
let autoDecks = false;
function decksFor() {
  const n = +$("players").value, decks = $("opt-decks");
  if (!decks) return;
  if (n > 4 && decks.value === "") { decks.value = "2"; autoDecks = true; }
  else if (n <= 4 && autoDecks && decks.value === "2") { decks.value = ""; autoDecks = false; }
  $("players-note").textContent = n > 4 ? "two decks (house rules: decks)" : "";
}

function options() {
  const box = $("options");
  for (const o of meta.options) {
    if (["players", "match_deals"].includes(o.name)) continue;
    let input;
    if (o.choices && !o.multi) {
      input = el("select", {id: "opt-" + o.name, title: o.help});
      input.append(el("option", {value: "", text: "(preset)"}));
      for (const c of o.choices) input.append(el("option", {value: JSON.stringify(c), text: String(c)}));
    } else if (o.multi) {
      input = el("input", {id: "opt-" + o.name, title: o.help, placeholder: "(preset) e.g. " + (o.choices || []).join(",")});
    } else {
      input = el("input", {id: "opt-" + o.name, type: "number", min: o.min, max: o.max, placeholder: "(preset)", title: o.help});
    }
    box.append(el("div", {class: "form-row"}, el("label", {for: "opt-" + o.name, text: o.name.replaceAll("_", " "), title: o.help}), input));
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
  if (!name) { $("create-error").textContent = "Type your name."; return; }
  setPlayerName(name);
  const n = +$("players").value;
  const seats = [null];
  for (let s = 1; s < n; s++) { const v = $("seat-" + s).value; seats.push(v === "human" ? null : v); }
  try {
    const t = await api("/api/tables", {method: "POST", body: {
      name: $("table-name").value, preset: $("preset").value, players: n, seats,
      deals: +$("deals").value || 0, turn_time: +$("turn-time").value, options: chosenOptions()}});
    const j = await api(`/api/tables/${t.id}/join`, {method: "POST", body: {seat: 0, name}});
    saveSeat(t.id, j.seat, j.token);
    location.href = "/t/" + t.id;
  } catch (e) { $("create-error").textContent = "Cannot create the table: " + e.message; }
}

async function joinSeat(id, seat) {
  const name = $("your-name").value.trim();
  if (!name) { $("your-name").focus(); $("create-error").textContent = "Type your name first, then join."; return; }
  setPlayerName(name);
  try {
    const j = await api(`/api/tables/${id}/join`, {method: "POST", body: {seat, name}});
    saveSeat(id, j.seat, j.token);
    location.href = "/t/" + id;
  } catch (e) { alert(e.message); refresh(); }
}

function deckText(t) {
  const parts = [];
  if (t.decks > 1) parts.push(`${t.decks} decks`);
  if (t.jokers && t.jokers !== "none") parts.push(`${t.jokers} jokers`);
  return parts.length ? " (" + parts.join(", ") + ")" : "";
}

async function refresh() {
  const list = await api("/api/tables").catch(() => null);
  if (!list) return;
  const ul = $("tables"); ul.replaceChildren();
  if (!list.length) ul.append(el("li", {class: "muted", text: "No open tables yet: create one."}));
  for (const t of list) {
    const seats = t.seats.map(s => s.open ? "open" : (s.bot ? `${s.name}` : s.name)).join(" · ");
    const actions = el("div", {class: "actions"});
    const mine = savedSeat(t.id);
    if (mine) actions.append(el("a", {class: "button primary", href: "/t/" + t.id, text: "Back to my seat"}));
    else for (const s of t.open) actions.append(el("button", {class: "primary", text: `Join seat ${s + 1}`, onclick: () => joinSeat(t.id, s)}));
    actions.append(el("a", {class: "button", href: "/t/" + t.id, text: "Watch"}));
    ul.append(el("li", {"data-table": t.id},
      el("div", {}, el("b", {text: t.name}), ` · ${t.rules}${deckText(t)} · ${t.players} players · ${t.status === "waiting" ? "waiting for players" : "deal " + t.deal + (t.deals ? "/" + t.deals : "")}`),
      el("div", {class: "seats", text: seats}), actions));
  }
  const recent = await api("/api/records").catch(() => []);
  const r = $("recent"); r.replaceChildren();
  if (!recent.length) r.append(el("li", {class: "muted", text: "none yet"}));
  for (const d of recent.slice(0, 8)) r.append(el("li", {}, `${d.names.join(", ")} — ${d.names[d.winner]} won `,
    el("a", {href: "/replay/" + d.id, text: "replay"})));
}
init();
