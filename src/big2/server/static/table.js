// The table page: one WebSocket, state from the server, clicks and keys back.
"use strict";
const tableId = decodeURIComponent(location.pathname.split("/").pop());
// The hand as shown (names in display order; two decks can hold two cards of a
// name) and the selection as positions in it. A new state or a re-sort keeps
// the selection by name: each selected name goes to a shown card of that name.
let ws = null, state = null, shown = [], selected = new Set(), sortBy = "rank";
let retries = 0, nextId = 1, timerBase = null, shownRecords = -1, shownMessageUntil = 0;
let legalCounts = [], legalKeys = new Set();
const $ = (id) => document.getElementById(id);

function connect() {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  ws = new WebSocket(`${proto}://${location.host}/ws/${encodeURIComponent(tableId)}`);
  ws.onopen = () => {
    retries = 0;
    const saved = savedSeat(tableId);
    ws.send(JSON.stringify({type: "hello", token: saved ? saved.token : null}));
    setConn("online", true);
  };
  ws.onmessage = (ev) => onMessage(JSON.parse(ev.data));
  ws.onclose = () => {
    setConn("reconnecting…", false);
    retries += 1;
    setTimeout(connect, Math.min(5000, 300 * 2 ** retries));
  };
}
function setConn(text, ok) { const c = $("conn"); c.textContent = text; c.classList.toggle("ok", ok); }
function send(msg) {
  if (!ws || ws.readyState !== WebSocket.OPEN) { flash("not connected"); return; }
  msg.id = nextId++;
  ws.send(JSON.stringify(msg));
}

function onMessage(msg) {
  if (msg.type === "state") { state = msg; timerBase = performance.now(); render(); }
  else if (msg.type === "hint") {
    selected = positionsOf(msg.cards);
    flash(msg.cards.length ? "Hint: " + msg.cards.map(cardLabel).join(" ") : "Hint: pass");
    renderHand();
  } else if (msg.type === "error") {
    if (msg.message.startsWith("unknown seat token")) forgetSeat(tableId);
    flash(msg.message, true);
  }
}

function flash(text, isError) {
  const m = $("message");
  m.textContent = text;
  m.classList.toggle("error", !!isError);
  shownMessageUntil = performance.now() + 4000;
}

// -- helpers over the state ---------------------------------------------------
function you() { return state ? state.you : null; }
function game() { return state ? state.game : null; }
function myTurn() {
  const g = game();
  return !!g && you() !== null && g.to_move === you() && state.table.status === "playing";
}
function nameOf(seat) { return state.table.seats[seat].name || `Seat ${seat + 1}`; }
// Seats sit around the table in seat order, counter-clockwise: seat + 1 is on your
// right (the next to play counter-clockwise; clockwise play goes to your left).
function relPos(seat) {
  const n = state.table.players, me = you() === null ? 0 : you();
  return (seat - me + n) % n;
}
// The spot of each other seat (rel 1 .. n-1), counter-clockwise from your right.
// Up to 4 players: right, top, left; 5 to 8: a ring of right/left sides (high and
// low with 7 or 8) and a top row of two or three.
const SPOTS = {
  2: ["top"], 3: ["right", "left"], 4: ["right", "top", "left"],
  5: ["r", "tr", "tl", "l"], 6: ["r", "tr", "t", "tl", "l"],
  7: ["rl", "rh", "tr", "tl", "lh", "ll"], 8: ["rl", "rh", "tr", "t", "tl", "lh", "ll"],
};
function posClass(rel, n) { return rel === 0 ? "bottom" : SPOTS[n][rel - 1]; }

// -- rendering -----------------------------------------------------------------
function render() {
  const t = state.table, g = game();
  document.title = `${t.name} · Big Two`;
  $("title").textContent = t.name;
  $("deal").textContent = t.deal ? `deal ${t.deal}${t.deals ? " of " + t.deals : ""}` : "waiting";
  const legal = (g && g.legal) || [];
  // plays compared as multisets of names: the server lists them by card number
  legalKeys = new Set(legal.map(k => cardsKey(splitCards(k))));
  legalCounts = legal.filter(k => k).map(k => nameCounts(k.split(" ")));
  reshow();
  renderSeats(); renderCenter(); renderHand(); renderPanel(); renderSide(); tick();
}

// -- the hand and the selection (positions in `shown`) --------------------------
function selectedNames() { return [...selected].sort((a, b) => a - b).map(i => shown[i]); }
// Positions of shown cards for *names* (a name twice: two cards of that name).
function positionsOf(names) {
  const out = new Set();
  for (const name of names) {
    const i = shown.findIndex((c, j) => c === name && !out.has(j));
    if (i >= 0) out.add(i);
  }
  return out;
}
// Show the current hand (sorted), keeping the selected names selected.
function reshow() {
  const keep = selectedNames();
  shown = sortedHand();
  selected = positionsOf(keep);
}

function renderSeats() {
  const t = state.table, n = t.players, felt = $("felt");
  felt.classList.toggle("many", n > 4);
  felt.dataset.players = n;
  // one spot per other seat, made to fit the table (2 to 8 seats)
  const spots = [...felt.querySelectorAll(":scope > .seat-spot")];
  for (let p = spots.length + 1; p < n; p++) {
    const spot = el("div", {class: "seat-spot", id: "pos-" + p});
    felt.insertBefore(spot, $("center"));
    spots.push(spot);
  }
  spots.forEach((s, i) => { if (i + 1 >= n) s.remove(); });
  $("pos-0").replaceChildren();
  for (let seat = 0; seat < n; seat++) {
    const rel = relPos(seat);
    const spot = $("pos-" + rel);
    spot.replaceChildren(seatEl(seat, rel));
    spot.className = (rel ? "seat-spot " : "seat-inline ") + "pos-" + posClass(rel, n);
  }
  $("me").classList.toggle("watching", you() === null);
}

const MINI_FAN_MAX = 10;  // card backs drawn for a seat's hand at most (the count says the rest)

function seatEl(seat, rel) {
  const t = state.table, g = game(), info = t.seats[seat];
  const count = g ? g.counts[seat] : null;
  const turn = g && g.to_move === seat && t.status === "playing";
  const box = el("div", {class: "seat" + (turn ? " turn" : "") + (seat === you() ? " mine" : ""),
                         "data-seat": seat});
  const who = el("div", {class: "who"},
    el("span", {class: "name", text: info.open ? "open seat" : nameOf(seat)}),
    info.bot ? el("span", {class: "tag", text: "bot"}) : null,
    !info.bot && !info.open && !info.connected ? el("span", {class: "tag away", text: "away"}) : null,
    g && g.passed[seat] ? el("span", {class: "tag", text: "out of trick"}) : null);
  box.append(who);
  if (count !== null && rel !== 0) {
    const fan = el("div", {class: "mini-fan"});
    for (let i = 0; i < Math.min(count, MINI_FAN_MAX); i++) fan.append(backEl("mini"));
    box.append(el("div", {class: "count-row"}, fan,
      el("span", {class: "count", "data-count": count, text: `${count} card${count === 1 ? "" : "s"}`})));
  }
  if (count === 1 && !(g && g.winner !== null)) box.append(el("div", {class: "warn", text: "⚠ one card left!"}));
  if (g && g.winner === seat) box.append(el("div", {class: "won", text: "★ went out"}));
  // what this seat did in the current trick
  if (g && rel !== 0) {
    const mine = g.trick.filter(a => a[0] === seat);
    if (mine.length) {
      const last = mine[mine.length - 1][1];
      box.append(el("div", {class: "did"}, last ? textCards(last) : el("span", {class: "pass", text: "passed"})));
    }
  }
  if (turn) box.append(el("div", {class: "timer"}, el("div", {class: "timer-bar"}), el("span", {class: "timer-text"})));
  return box;
}

function renderCenter() {
  const g = game(), t = state.table, trick = $("trick"), by = $("trick-by"), status = $("status");
  trick.replaceChildren(); by.textContent = ""; status.textContent = "";
  if (!g) {
    status.textContent = t.status === "waiting" ? "Waiting for players…" : "";
    return;
  }
  if (g.last_play) {
    trick.append(playEl(g.last_play, "big"));
    by.textContent = `${nameOf(g.last_player)} played`;
  } else if (g.winner === null) {
    by.textContent = g.plies === 0 ? "New deal" : "New trick";
  }
  if (t.status === "playing" && g.to_move !== null) {
    if (myTurn()) {
      status.textContent = g.leading
        ? (g.must_contain ? `Your lead — include ${splitCards(g.must_contain).map(cardLabel).join(" or ")}` : "Your lead — play anything")
        : "Your turn — beat it or pass";
      status.className = "status you";
    } else {
      status.textContent = `${nameOf(g.to_move)} to play`;
      status.className = "status";
    }
  } else if (g.winner !== null) {
    status.textContent = `${nameOf(g.winner)} went out!`;
    status.className = "status you";
  }
}

function sortedHand() {
  const g = game(); if (!g || !g.hand) return [];
  const hand = g.hand.slice();  // the server sends it weakest first under the rules
  if (sortBy === "suit") {
    const order = (state.rules.all.suit_order || "DCHS");
    const suit = (c) => isJoker(c) ? 4 : order.indexOf(c[1]);  // jokers last
    const pos = new Map(hand.map((c, i) => [c, i]));
    hand.sort((a, b) => suit(a) - suit(b) || pos.get(a) - pos.get(b));
  }
  return hand;
}

// Whether some legal play holds the selected cards and the card at position *i*.
function canExtend(i) {
  const want = nameCounts([...selectedNames(), shown[i]]);
  return legalCounts.some(m => [...want].every(([name, k]) => (m.get(name) || 0) >= k));
}

// Rows and overlap for *n* cards: one row if each card can show its corner,
// else two or three rows.
function handLayout(n) {
  const hand = $("hand");
  const w = parseFloat(getComputedStyle(hand).getPropertyValue("--card-w")) || 76;
  const avail = Math.max(w * 3, hand.clientWidth - 4);
  const minStep = w * 0.4, maxStep = w * 0.58;
  let rows = 1;
  while (rows < 3 && w + (Math.ceil(n / rows) - 1) * minStep > avail) rows++;
  const per = Math.max(1, Math.ceil(n / rows));
  const step = per > 1 ? Math.max(w * 0.25, Math.min(maxStep, (avail - w) / (per - 1))) : maxStep;
  return {per, overlap: Math.floor(step - w)};
}

function renderHand() {
  const hand = $("hand"), turn = myTurn();
  hand.replaceChildren();
  const {per, overlap} = handLayout(shown.length);
  hand.style.setProperty("--overlap", overlap + "px");
  let row = null;
  shown.forEach((c, i) => {
    if (i % per === 0) { row = el("div", {class: "hand-row"}); hand.append(row); }
    const sel = selected.has(i);
    const dim = turn && !sel && !canExtend(i);
    const node = cardEl(c, (sel ? "selected " : "") + (dim ? "dim" : ""));
    node.dataset.pos = i;
    node.setAttribute("role", "button");
    node.setAttribute("aria-pressed", sel ? "true" : "false");
    node.tabIndex = 0;
    node.addEventListener("click", () => toggle(i));
    row.append(node);
  });
  if (you() === null) hand.append(el("div", {class: "watch-note", text: "You are watching: no hand is shown to spectators."}));
  const key = cardsKey(selectedNames());
  $("play-btn").disabled = !(turn && selected.size && legalKeys.has(key));
  $("pass-btn").disabled = !(turn && legalKeys.has(""));
  $("hint-btn").disabled = !turn;
  $("sort-btn").textContent = "";
  $("sort-btn").append(`Sort: ${sortBy}`, " ", el("kbd", {text: "S"}));
  $("controls").classList.toggle("hidden", you() === null);
}

function toggle(i) {
  const turn = myTurn();
  if (selected.has(i)) selected.delete(i);
  else if (!turn || canExtend(i)) selected.add(i);
  else { flash("no legal play contains those cards together", true); return; }
  renderHand();
}

function renderPanel() {
  const panel = $("panel"), t = state.table, g = game();
  panel.replaceChildren();
  let show = false;
  if (t.status === "waiting") {
    show = true;
    const link = location.origin + "/t/" + tableId;
    panel.append(el("h2", {text: "Waiting for players"}),
      el("p", {text: "Share this link with friends:"}),
      el("div", {class: "share"}, el("input", {readonly: true, value: link, id: "share-link"}),
        el("button", {onclick: () => { navigator.clipboard && navigator.clipboard.writeText(link); flash("link copied"); }, text: "Copy"})));
    if (you() !== null) panel.append(el("p", {}, el("button", {class: "primary", id: "start-btn", text: "Start now — bots take the open seats", onclick: () => send({type: "start"})})));
  }
  if (you() === null && t.open.length) {
    show = true;
    const name = el("input", {id: "join-name", placeholder: "your name", maxlength: 24, value: playerName()});
    const seats = el("div", {class: "seat-buttons"});
    for (const s of t.open) seats.append(el("button", {class: "primary join-seat", "data-seat": s, text: `Sit in seat ${s + 1}`,
      onclick: () => join(s, name.value)}));
    panel.append(el("h2", {text: "Take a seat"}), name, seats);
  }
  if (g && g.winner !== null && (t.status === "between" || t.status === "over")) {
    show = true;
    const over = t.status === "over";
    panel.append(el("h2", {text: over ? "Match over" : `${nameOf(g.winner)} wins the deal`}));
    const tbl = el("table", {class: "result"});
    tbl.append(el("tr", {}, el("th", {text: "Player"}), el("th", {text: "Cards left"}), el("th", {text: "Deal"}), el("th", {text: "Total"})));
    const order = [...Array(t.players).keys()].sort((a, b) => state.totals[b] - state.totals[a]);
    for (const s of order) tbl.append(el("tr", {class: s === you() ? "mine" : ""}, el("td", {text: nameOf(s)}),
      el("td", {text: g.counts[s]}), el("td", {text: fmt(g.scores[s])}), el("td", {text: fmt(state.totals[s])})));
    panel.append(tbl);
    if (over) {
      panel.append(el("p", {text: `${nameOf(order[0])} wins the match.`}), el("p", {}, el("a", {href: "/", class: "button", text: "Back to the lobby"})));
    } else if (you() !== null) {
      const me = t.seats[you()];
      panel.append(el("p", {}, el("button", {class: "primary", id: "next-btn", disabled: me.ready, text: me.ready ? "Waiting for the others…" : "Next deal",
        onclick: () => send({type: "next"})}), " ", el("span", {class: "muted next-in"})));
    } else {
      panel.append(el("p", {class: "muted next-in"}));
    }
  }
  panel.classList.toggle("hidden", !show);
}

function fmt(n) { return n > 0 ? "+" + n : String(n); }

function renderSide() {
  const t = state.table, n = t.players;
  const tbl = el("table", {class: "scores"});
  const head = el("tr", {}, el("th", {text: "#"}));
  for (let s = 0; s < n; s++) head.append(el("th", {class: s === you() ? "mine" : "", text: nameOf(s)}));
  tbl.append(head);
  state.results.forEach((r, i) => {
    const row = el("tr", {}, el("td", {text: i + 1}));
    r.forEach(v => row.append(el("td", {text: fmt(v)})));
    tbl.append(row);
  });
  const tot = el("tr", {class: "total"}, el("td", {text: "Σ"}));
  state.totals.forEach(v => tot.append(el("td", {text: fmt(v)})));
  tbl.append(tot);
  $("scores").replaceChildren(tbl);

  const log = $("log"); log.replaceChildren();
  const g = game();
  if (g) for (const [seat, cards] of g.log) log.append(el("li", {}, el("b", {text: nameOf(seat) + ": "}), textCards(cards)));
  log.scrollTop = log.scrollHeight;

  const rules = $("rules"); rules.replaceChildren(el("p", {}, el("b", {text: state.rules.name})));
  const opts = Object.entries(state.rules.options);
  if (!opts.length) rules.append(el("p", {class: "muted", text: "The default game: 3♦ leads, suits ♦<♣<♥<♠, Hong Kong straights, classic scoring."}));
  else { const ul = el("ul", {class: "opts"}); for (const [k, v] of opts) ul.append(el("li", {text: `${k.replaceAll("_", " ")}: ${Array.isArray(v) ? v.join(", ") || "none" : v}`})); rules.append(ul); }
  rules.append(el("p", {class: "muted", text: t.turn_time ? `Turn timer: ${t.turn_time}s (then a bot plays for you)` : "No turn timer"}));

  if (state.results.length !== shownRecords) { shownRecords = state.results.length; loadRecords(); }
}

async function loadRecords() {
  const list = await api(`/api/tables/${encodeURIComponent(tableId)}/records`).catch(() => []);
  const ul = $("records"); ul.replaceChildren();
  if (!list.length) { ul.append(el("li", {class: "muted", text: "none yet"})); return; }
  for (const r of list) ul.append(el("li", {}, `Deal ${r.deal}: ${r.names[r.winner] || "?"} won `,
    el("a", {href: `/replay/${r.id}`, text: "replay"}), " · ",
    el("a", {href: `/api/records/${r.id}/download`, text: "download"})));
}

async function join(seat, name) {
  name = (name || "").trim();
  if (!name) { flash("type your name first", true); $("join-name").focus(); return; }
  setPlayerName(name);
  try {
    const r = await api(`/api/tables/${encodeURIComponent(tableId)}/join`, {method: "POST", body: {seat, name}});
    saveSeat(tableId, r.seat, r.token);
    ws.onclose = null; ws.close(); connect();
  } catch (e) { flash(e.message, true); }
}

function tick() {
  if (!state) return;
  const elapsed = (performance.now() - timerBase) / 1000;
  const bar = document.querySelector(".timer-bar"), text = document.querySelector(".timer-text");
  if (bar && state.turn_left !== null) {
    const left = Math.max(0, state.turn_left - elapsed);
    bar.style.width = (100 * left / state.table.turn_time) + "%";
    bar.classList.toggle("low", left < 5);
    text.textContent = Math.ceil(left) + "s";
  } else if (bar) { bar.style.width = "100%"; text.textContent = ""; }
  const nextIn = document.querySelector(".next-in");
  if (nextIn && state.next_deal_in !== null) nextIn.textContent = `next deal in ${Math.ceil(Math.max(0, state.next_deal_in - elapsed))}s`;
  if (shownMessageUntil && performance.now() > shownMessageUntil) { $("message").textContent = ""; shownMessageUntil = 0; }
}
setInterval(tick, 250);

function playSelected() {
  const key = cardsKey(selectedNames());
  if (!myTurn() || !selected.size || !legalKeys.has(key)) return;
  send({type: "play", cards: key.split(" ")});  // a name twice: both copies
  selected.clear();
}
$("play-btn").addEventListener("click", playSelected);
$("pass-btn").addEventListener("click", () => { if (myTurn()) send({type: "pass"}); selected.clear(); });
$("hint-btn").addEventListener("click", () => send({type: "hint"}));
$("clear-btn").addEventListener("click", () => { selected.clear(); renderHand(); });
$("sort-btn").addEventListener("click", () => {
  sortBy = sortBy === "rank" ? "suit" : "rank";
  if (state) { reshow(); renderHand(); }
});
let resizeTimer = null;
window.addEventListener("resize", () => {
  clearTimeout(resizeTimer);
  resizeTimer = setTimeout(() => { if (state) renderHand(); }, 100);
});
document.addEventListener("keydown", (ev) => {
  if (ev.target.tagName === "INPUT" || ev.ctrlKey || ev.metaKey || ev.altKey) return;
  const k = ev.key.toLowerCase();
  if (k === "enter") { ev.preventDefault(); playSelected(); }
  else if (k === "p") { if (!$("pass-btn").disabled) $("pass-btn").click(); }
  else if (k === "h") { if (!$("hint-btn").disabled) send({type: "hint"}); }
  else if (k === "s") $("sort-btn").click();
  else if (k === "escape") { selected.clear(); renderHand(); }
  else if (k === "n") { const b = $("next-btn"); if (b && !b.disabled) b.click(); }
});
connect();
