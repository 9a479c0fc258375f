// The table page: one WebSocket, state from the server, clicks and keys back.
import {$, api, el, forgetSeat, replaceIfChanged, saveSeat, savedSeat, setPlayerName, setting}
  from "./dom.js";
import {backEl, cardEl, cardsKey, labels, playEl, preloadFaces, splitCards, textCards}
  from "./cards.js";
import {applyText, cardName, kindText, t} from "./i18n.js";
import {layoutSpots, relPos} from "./layout.js";
import {settingsMenu} from "./settings.js";
import {DEAL_CARD_MS, DEAL_STEP_MS, dealIn, flyIn, played, sound, turnCue} from "./cues.js";
import {S, countText, game, myTurn, nameOf, you} from "./tablestate.js";
import {H, clearSelection, focusHandOnTurn, handKey, playSelected, positionsOf, renderHand,
        reshow, selectedNames, setLegal} from "./hand.js";
import {renderPanel, revealEl, teams} from "./panel.js";
import {renderSide} from "./side.js";
import {bubbleEl, onReaction, renderReactions} from "./reactions.js";
import {reasonText} from "./whys.js";

let ws = null, retries = 0, nextId = 1, timerBase = null;
let messageUntil = 0, sticky = false, sentSince = false, lastShownPlay = null;
let lastChange = null;  // the last play, pass, next or start sent: offered again if not saved
let sentForState = false;  // a play or pass sent since the last state (not sent twice)
let autoPassTimer = null, wasMyTurn = false;
let passedForYou = false;  // "Nothing beats it — passed for you" is on show
const AUTO_PASS_MS = 600;  // long enough to see the play you cannot beat

function connect() {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  ws = new WebSocket(`${proto}://${location.host}/ws/${encodeURIComponent(S.tableId)}`);
  ws.onopen = () => {
    retries = 0;
    const saved = savedSeat(S.tableId);
    ws.send(JSON.stringify({type: "hello", token: saved ? saved.token : null}));
    setConn("online", true);
  };
  ws.onmessage = (ev) => onMessage(JSON.parse(ev.data));
  ws.onclose = () => {
    setConn("reconnecting", false);
    retries += 1;
    setTimeout(connect, Math.min(5000, 300 * 2 ** retries));
  };
}
let connKey = "connecting";
function setConn(key, ok) {
  connKey = key;
  const c = $("conn");
  c.textContent = t(key);
  c.classList.toggle("ok", ok);
}
S.send = (msg) => {
  if (!ws || ws.readyState !== WebSocket.OPEN) { flash(t("notConnected"), true); return; }
  msg.id = nextId++;
  if (msg.type === "play" || msg.type === "pass") {
    sentSince = true; sticky = false; sentForState = true;
  }
  if (["play", "pass", "next", "start"].includes(msg.type)) lastChange = msg;
  ws.send(JSON.stringify(msg));
};

function onMessage(msg) {
  if (msg.type === "state") {
    const before = S.state;
    S.state = msg;
    sentForState = false;
    timerBase = performance.now();
    if (!sticky) flash("");  // a hint, error or note is about the state before
    noticeBotMove(before, msg);
    sounds(before, msg);
    render();
  } else if (msg.type === "reaction") {
    onReaction(msg, () => { if (S.state && facesReady) renderSeats(); });
  } else if (msg.type === "hint") {
    H.selected = positionsOf(msg.cards);
    const why = reasonText(msg.why);
    const late = msg.fallback ? t("hintFallback", msg.fallback.asked, msg.fallback.seconds) : "";
    flash((msg.cards.length ? t("hintIs", labels(msg.cards), msg.bot || "")
      : t("hintPass", msg.bot || "")) + (why ? t("hintWhy", why) : "") + late);
    renderHand();
  } else if (msg.type === "error") {
    if (msg.message.startsWith("unknown seat token")) forgetSeat(S.tableId);
    sentSince = false;
    if (msg.retry) notSaved(msg.id);
    else flash(msg.message, true);
  }
}

// A change the server could not store: it has sent the table back as it stands (the
// state before this error); say so and offer to send the same change again.
function notSaved(id) {
  flash(t("notSaved"), true);
  messageUntil = 0;  // kept until the next state or the retry
  const change = lastChange && lastChange.id === id ? lastChange : null;
  if (!change) return;
  const again = {...change};
  delete again.id;
  $("message").append(" ", el("button", {id: "retry-btn", class: "retry", text: t("retry"),
    onclick: () => { flash(""); S.send(again); }}));
}

// Sounds for what changed (when switched on): the last new play or pass, or the deal's
// end; your turn's sound comes with the turn cue.
function sounds(before, now) {
  if (!before || !before.game || !now.game || before.table.deal !== now.table.deal) return;
  if (now.game.winner !== null && before.game.winner === null) { sound("end"); return; }
  if (now.game.plies > before.game.plies && now.game.log.length) {
    sound(now.game.log[now.game.log.length - 1][1] ? "play" : "pass");
  }
}

// A play by your seat you did not send: the timer ran out and a bot played for you.
function noticeBotMove(before, now) {
  const g = now.game, me = now.you;
  if (!g || me === null || !before || !before.game || before.table.deal !== now.table.deal) {
    return;
  }
  const fresh = g.log.slice(Math.max(0, g.log.length - (g.plies - before.game.plies)));
  for (const [seat, cards] of fresh) {
    if (seat !== me) continue;
    if (!sentSince) {
      // kept over the next states (bots play on at once) until you act, or 8 s
      flash(cards ? t("timesUp", labels(splitCards(cards))) : t("timesUpPass"), true);
      messageUntil = performance.now() + 8000;
      sticky = true;
    }
    sentSince = false;
  }
}

function flash(text, isError) {
  const m = $("message");
  m.textContent = text;
  m.classList.toggle("error", !!isError);
  messageUntil = text ? performance.now() + 6000 : 0;
  sticky = false;
  passedForYou = false;
}
S.flash = flash;

// The cards' images arrive before the first state is drawn (no blank faces).
let facesReady = false;
preloadFaces().then(() => { facesReady = true; render(); });

function render() {
  if (!S.state || !facesReady) return;
  const tb = S.state.table, g = game();
  applyText(document);
  setConn(connKey, $("conn").classList.contains("ok"));
  turnCue(myTurn(), tb.name, t("yourTurn"), t("gameName"));
  $("title").textContent = tb.name;
  $("deal").textContent = tb.deal
    ? (tb.deals ? t("dealOfN", tb.deal, tb.deals) : t("dealOf", tb.deal)) : t("waiting");
  setLegal(g);
  reshow();
  renderSeats(); renderCenter();
  const handRedrawn = renderHand();
  renderPanel(join); renderSide(); tick();
  renderReactions();
  dealing(g, handRedrawn);
  if (myTurn() && !wasMyTurn) {
    if (passedForYou) flash("");  // about the turn before: not this one
    focusHandOnTurn();
    controlsInView();
  }
  wasMyTurn = myTurn();
  autoPass();
}

// A new deal's hand is dealt in (cues.js): when this page saw the table before the
// deal (waiting, or the last deal's end), or opened it before anyone played. A redraw
// while the cards are on their way carries the animation on (a hand that was not drawn
// again, *redrawn* false, has its animations running still).
let seenDeal = null, dealStart = null;
function dealing(g, redrawn) {
  const deal = S.state.table.deal, fresh = g && g.hand && you() !== null;
  if (fresh && seenDeal !== deal && (seenDeal !== null || g.plies === 0)) {
    dealStart = performance.now();
  }
  if (fresh) seenDeal = deal;
  else if (seenDeal === null && S.state.table.status !== "playing") seenDeal = -1;
  if (dealStart === null) return;
  const cards = [...document.querySelectorAll("#hand .card")];
  const elapsed = performance.now() - dealStart;
  const on = redrawn ? dealIn(cards, $("center"), elapsed)
    : elapsed < (cards.length - 1) * DEAL_STEP_MS + DEAL_CARD_MS;
  if (!on) dealStart = null;
}

// Your turn brings Play, Pass and Hint into view where they fell below the fold (a phone
// with a long note over the hand; the page scrolled down to the scores).
function controlsInView() {
  const c = $("controls"), r = c.getBoundingClientRect();
  if (r.height && (r.bottom > innerHeight || r.top < 0)) c.scrollIntoView({block: "end"});
}

// Forced passes: when pass is your only legal play, pass for you after a moment (the
// "Pass automatically" setting, on unless switched off; kept in localStorage).
function onlyPass() {
  const g = game();
  return myTurn() && !!g.legal && g.legal.length === 1 && g.legal[0] === "";
}
function autoPass() {
  clearTimeout(autoPassTimer);
  if (!onlyPass() || !setting("autoPass", true)) return;
  const at = `${S.state.table.deal}:${game().plies}`;
  autoPassTimer = setTimeout(() => {
    if (sentForState || !onlyPass() || !setting("autoPass", true)
        || `${S.state.table.deal}:${game().plies}` !== at) return;
    S.send({type: "pass"});
    flash(t("autoPassed"));
    sticky = true;  // kept over the bots' plays that follow, like "Time's up", until your turn
    passedForYou = true;
  }, AUTO_PASS_MS);
}

function renderSeats() {
  const n = S.state.table.players;
  layoutSpots($("felt"), n, $("center"));
  for (let seat = 0; seat < n; seat++) {  // a seat as it was stays as it is
    const rel = relPos(seat, you(), n);
    replaceIfChanged($("pos-" + rel), seatEl(seat, rel));
  }
  $("pos-0").className = "seat-inline pos-bottom";
  $("me").classList.toggle("watching", you() === null);
}

const MINI_FAN_MAX = 10;  // card backs drawn for a seat's hand at most (the count says the rest)

function seatEl(seat, rel) {
  const tb = S.state.table, g = game(), info = tb.seats[seat];
  const count = g ? g.counts[seat] : null;
  const turn = g && g.to_move === seat && tb.status === "playing";
  const name = info.open ? t("openSeat") : nameOf(seat);
  const partner = teams() && you() !== null && seat === (you() + 2) % 4;
  const label = [name, partner ? t("partner") : null, count !== null ? countText(count) : null,
                 turn ? t("toMove") : null];
  const box = el("div", {class: "seat" + (turn ? " turn" : "") + (seat === you() ? " mine" : ""),
                         "data-seat": seat, role: "group",
                         "aria-label": label.filter(Boolean).join(", ")});
  box.append(el("div", {class: "who"},
    el("span", {class: "name", text: name}),
    info.bot ? el("span", {class: "tag", text: t("bot")}) : null,
    partner ? el("span", {class: "tag partner", text: t("partner")}) : null,
    !info.bot && !info.open && !info.connected
      ? el("span", {class: "tag away", text: t("away")}) : null,
    g && g.passed[seat] ? el("span", {class: "tag", text: t("outOfTrick")}) : null));
  const reveal = rel !== 0 ? revealEl(seat) : null;
  if (reveal) box.append(reveal);
  else if (count !== null && (rel !== 0 || you() === null)) {  // a spectator: every seat's count
    const fan = el("div", {class: "mini-fan", "aria-hidden": "true"});
    for (let i = 0; i < Math.min(count, MINI_FAN_MAX); i++) fan.append(backEl("mini"));
    box.append(el("div", {class: "count-row"}, fan,
      el("span", {class: "count", "data-count": count, text: countText(count)})));
  }
  if (count === 1 && !(g && g.winner !== null)) {
    box.append(el("div", {class: "warn", text: t("oneLeft")}));
  }
  if (g && g.winner === seat) box.append(el("div", {class: "won", text: t("wentOut")}));
  const bubble = bubbleEl(seat);
  if (bubble) box.append(bubble);
  if (g && rel !== 0) {  // what this seat did in the current trick
    const mine = g.trick.filter(a => a[0] === seat);
    if (mine.length) {
      const last = mine[mine.length - 1][1];
      box.append(el("div", {class: "did"}, textCards(last, t("passed"))));
    }
  }
  if (turn) {
    box.append(el("div", {class: "timer"}, el("div", {class: "timer-bar"}),
                  el("span", {class: "timer-text"})));
  }
  return box;
}

function renderCenter() {
  const g = game(), tb = S.state.table, trick = $("trick"), by = $("trick-by");
  const status = $("status");
  by.replaceChildren(); status.textContent = "";
  status.className = "status";
  if (!g || !g.last_play) replaceIfChanged(trick);
  if (!g) {
    status.textContent = tb.status === "waiting" ? t("waitingDots") : "";
    lastShownPlay = null;
    return;
  }
  if (g.last_play) {
    const play = playEl(g.last_play, "big");
    const names = splitCards(g.last_play);
    by.append(el("span", {class: "by-name", text: nameOf(g.last_player)}),
              el("span", {class: "by-kind", text: kindText(g.last_kind, names)}));
    // a play slides in once, when it is new (not on a pass, a reconnect or a redraw);
    // the play on show stays as it is drawn till then
    const key = `${tb.deal}:${g.last_player}:${g.last_play}`;
    if (lastShownPlay !== null && key !== lastShownPlay) {
      trick.replaceChildren(play);
      const from = document.querySelector(`.seat[data-seat="${g.last_player}"]`);
      flyIn(play, g.last_player === you() ? $("hand") : from);
    } else replaceIfChanged(trick, play);
    lastShownPlay = key;
    by.setAttribute("aria-label", t("playedKind", nameOf(g.last_player),
      kindText(g.last_kind, names) || names.map(cardName).join(", ")));
  } else if (g.winner === null) {
    by.append(el("span", {class: "by-kind", text: t(g.plies === 0 ? "newDeal" : "newTrick")}));
    lastShownPlay = `${tb.deal}::`;
  }
  if (tb.status === "playing" && g.to_move !== null) {
    if (myTurn()) {
      const must = splitCards(g.must_contain);
      status.textContent = g.leading
        ? (must.length ? t("yourLeadWith", must.map(cardName).join(" / ")) : t("yourLead"))
        : t("yourTurnBeat");
      status.className = "status you";
    } else status.textContent = t("toPlay", nameOf(g.to_move));
  } else if (g.winner !== null) {
    status.textContent = t("playerWentOut", nameOf(g.winner));
    status.className = "status you";
  }
}

async function join(seat, name) {
  name = (name || "").trim();
  if (!name) { flash(t("typeNameJoin"), true); $("join-name").focus(); return; }
  setPlayerName(name);
  try {
    const r = await api(`/api/tables/${encodeURIComponent(S.tableId)}/join`,
                        {method: "POST", body: {seat, name}});
    saveSeat(S.tableId, r.seat, r.token);
    ws.onclose = null;
    ws.close();
    connect();
  } catch (e) { flash(e.message, true); }
}

function tick() {
  const st = S.state;
  if (!st) return;
  const elapsed = (performance.now() - timerBase) / 1000;
  const bar = document.querySelector(".timer-bar"), text = document.querySelector(".timer-text");
  if (bar && st.turn_left !== null) {
    const left = Math.max(0, st.turn_left - elapsed);
    bar.style.width = (100 * left / st.table.turn_time) + "%";
    bar.classList.toggle("low", left < 5);
    text.textContent = Math.ceil(left) + "s";
  } else if (bar) { bar.style.width = "100%"; text.textContent = ""; }
  const nextIn = document.querySelector(".next-in");
  if (nextIn && st.next_deal_in !== null) {
    nextIn.textContent = t("nextIn", Math.ceil(Math.max(0, st.next_deal_in - elapsed)));
  }
  if (messageUntil && performance.now() > messageUntil) flash("");
}
setInterval(tick, 250);

function pass() {
  if (myTurn() && !$("pass-btn").disabled && !sentForState) S.send({type: "pass"});
}
function hint() { if (myTurn()) S.send({type: "hint"}); }
function sort() {
  H.sortBy = H.sortBy === "rank" ? "suit" : "rank";
  if (S.state) { reshow(); renderHand(); }
}
$("play-btn").addEventListener("click", playSelected);
$("pass-btn").addEventListener("click", pass);
$("hint-btn").addEventListener("click", hint);
$("clear-btn").addEventListener("click", clearSelection);
$("sort-btn").addEventListener("click", sort);
let resizeTimer = null;
window.addEventListener("resize", () => {
  clearTimeout(resizeTimer);
  resizeTimer = setTimeout(() => { if (S.state) renderHand(); }, 100);
});
// Keys: on a card Space/Enter select and the arrows move (hand.js); anywhere
// else Enter plays, and Shift+Enter plays from a card too.
document.addEventListener("keydown", (ev) => {
  if (["INPUT", "SELECT", "TEXTAREA"].includes(ev.target.tagName)) return;
  if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
  if (handKey(ev)) return;
  const k = ev.key.toLowerCase();
  const onButton = ev.target.tagName === "BUTTON" || ev.target.tagName === "A";
  if (k === "enter" && (!onButton || ev.shiftKey)) { ev.preventDefault(); playSelected(); }
  else if (k === "p") pass();
  else if (k === "h") hint();
  else if (k === "s") sort();
  else if (k === "escape") clearSelection();
  else if (k === "n") { const b = $("next-btn"); if (b && !b.disabled) b.click(); }
  else if (k === "arrowleft" || k === "arrowright" || k === "arrowup") {
    const first = document.querySelector("#hand .card[tabindex='0']");
    if (first) { ev.preventDefault(); first.focus(); }
  }
});
settingsMenu($("bar"), render);
applyText(document);

// For the tests and the curious: the page's state, read-only.
window.big2 = {
  get state() { return S.state; }, get shown() { return H.shown; },
  get selected() { return H.selected; }, get sounds() { return played.slice(); },
  myTurn, selectedNames, cardsKey, splitCards,
  render, renderHand, reshow,
  setShown(names) { H.shown = names; H.selected = new Set(); renderHand(); },
  cardEl,
};
connect();
