// Your hand: its order, the selection (positions in the shown hand), the dimmed
// cards, and selecting by click, Space or Enter, with the arrow keys to move.
import {$, el, replaceIfChanged} from "./dom.js";
import {cardEl, cardsKey, isJoker, labels, nameCounts, splitCards} from "./cards.js";
import {cardName, t} from "./i18n.js";
import {S, game, myTurn, you} from "./tablestate.js";

// The hand as shown (names in display order; two decks can hold two cards of a
// name) and the selection as positions in it. A new state or a re-sort keeps
// the selection by name: each selected name goes to a shown card of that name.
export const H = {shown: [], selected: new Set(), sortBy: "rank", focus: null};
let legalCounts = [], legalKeys = new Set();

export function setLegal(g) {
  const legal = (g && g.legal) || [];
  // plays compared as multisets of names: the server lists them by card number
  legalKeys = new Set(legal.map(k => cardsKey(splitCards(k))));
  legalCounts = legal.filter(k => k).map(k => nameCounts(k.split(" ")));
}
export function isLegal(names) { return legalKeys.has(cardsKey(names)); }

export function selectedNames() {
  return [...H.selected].sort((a, b) => a - b).map(i => H.shown[i]);
}
// Positions of shown cards for *names* (a name twice: two cards of that name).
export function positionsOf(names) {
  const out = new Set();
  for (const name of names) {
    const i = H.shown.findIndex((c, j) => c === name && !out.has(j));
    if (i >= 0) out.add(i);
  }
  return out;
}
// Show the current hand (sorted), keeping the selected names selected.
export function reshow() {
  const keep = selectedNames();
  H.shown = sortedHand();
  H.selected = positionsOf(keep);
  if (H.focus !== null && H.focus >= H.shown.length) H.focus = H.shown.length - 1;
}

function sortedHand() {
  const g = game();
  if (!g || !g.hand) return [];
  const hand = g.hand.slice();  // the server sends it weakest first under the rules
  if (H.sortBy === "suit") {
    const order = (S.state.rules.all.suit_order || "DCHS");
    const suit = (c) => isJoker(c) ? 4 : order.indexOf(c[1]);  // jokers last
    const pos = new Map(hand.map((c, i) => [c, i]));
    hand.sort((a, b) => suit(a) - suit(b) || pos.get(a) - pos.get(b));
  }
  return hand;
}

// Whether some legal play holds *names* (with their copies).
function someLegalHolds(names) {
  const want = nameCounts(names);
  return legalCounts.some(m => [...want].every(([name, k]) => (m.get(name) || 0) >= k));
}
function canExtend(i) { return someLegalHolds([...selectedNames(), H.shown[i]]); }

// Rows and overlap for *n* cards: one row if each card can show a strip a finger can
// tap (TAP px, or 40% of a card if wider), else two or three rows.
const TAP = 40;
function handLayout(n) {
  const hand = $("hand");
  const w = cardWidth(hand);
  const avail = Math.max(w * 3, hand.clientWidth - 4);
  const minStep = Math.min(w, Math.max(w * 0.4, TAP)), maxStep = Math.max(w * 0.6, minStep);
  let rows = 1;
  while (rows < 3 && w + (Math.ceil(n / rows) - 1) * minStep > avail) rows++;
  const per = Math.max(1, Math.ceil(n / rows));
  const step = per > 1 ? Math.max(w * 0.25, Math.min(maxStep, (avail - w) / (per - 1))) : maxStep;
  return {per, overlap: Math.floor(step - w)};
}

// The card width the CSS gives (--card-w may be a clamp() of the viewport).
function cardWidth(hand) {
  const probe = el("div", {class: "card-probe"});
  probe.style.width = "var(--card-w)";
  hand.append(probe);
  const w = probe.getBoundingClientRect().width || 76;
  probe.remove();
  return w;
}

export function renderHand() {
  const hand = $("hand"), turn = myTurn(), g = game(), playing = !!(g && g.hand);
  hand.classList.toggle("hidden", !g);  // before the layout, which measures the hand
  const hadFocus = hand.contains(document.activeElement);
  const {per, overlap} = handLayout(H.shown.length);
  if (hand.style.getPropertyValue("--overlap") !== overlap + "px") {
    hand.style.setProperty("--overlap", overlap + "px");
  }
  const focus = H.focus === null ? 0 : H.focus;
  const rows = [];
  let row = null;
  H.shown.forEach((c, i) => {
    if (i % per === 0) {
      row = el("div", {class: "hand-row", role: "presentation"});
      rows.push(row);
    }
    const sel = H.selected.has(i);
    const dim = turn && !sel && !canExtend(i);
    const node = cardEl(c, (sel ? "selected " : "") + (dim ? "dim" : ""));
    node.dataset.pos = i;
    node.setAttribute("role", "button");
    node.setAttribute("aria-pressed", sel ? "true" : "false");
    node.setAttribute("aria-label", cardName(c));
    node.tabIndex = i === focus ? 0 : -1;  // one tab stop; the arrow keys move in the hand
    node.addEventListener("click", () => { H.focus = i; toggle(i); });
    row.append(node);
  });
  if (g && you() === null) rows.push(el("div", {class: "watch-note", text: t("watching")}));
  // the hand as it was (a bot's play, a tick of the timer) stays: its cards are not drawn again
  const redrawn = replaceIfChanged(hand, ...rows);
  if (hadFocus) focusCard(focus);
  $("play-btn").disabled = !(turn && H.selected.size && isLegal(selectedNames()));
  $("pass-btn").disabled = !(turn && isLegal([]));
  $("hint-btn").disabled = !turn;
  $("sort-text").textContent = t(H.sortBy === "rank" ? "sortRank" : "sortSuit");
  const live = S.state.table.status === "playing";  // no controls while waiting or between deals
  $("controls").classList.toggle("hidden", you() === null || !playing || !live);
  return redrawn;
}

function focusCard(i) {
  const node = document.querySelector(`#hand [data-pos="${i}"]`);
  if (node) node.focus();
}

// Select or unselect the card at *i*. A card no legal play holds together with
// the selection starts a new selection if some legal play holds it.
export function toggle(i) {
  if (H.selected.has(i)) H.selected.delete(i);
  else if (!myTurn() || canExtend(i)) H.selected.add(i);
  else if (someLegalHolds([H.shown[i]])) H.selected = new Set([i]);
  else { S.flash(t("noLegalWith", labels([H.shown[i]])), true); return; }
  renderHand();
}

export function clearSelection() { H.selected.clear(); renderHand(); }

export function playSelected() {
  const names = selectedNames();
  if (!myTurn() || !H.selected.size || !isLegal(names)) return false;
  S.send({type: "play", cards: cardsKey(names).split(" ")});  // a name twice: both copies
  H.selected.clear();
  return true;
}

// Keys on a focused card: Space/Enter select, ←/→ (Home/End) move, ↑ selects, ↓ unselects.
// Returns whether the key was used.
export function handKey(ev) {
  const pos = ev.target.dataset ? ev.target.dataset.pos : undefined;
  if (pos === undefined || ev.shiftKey) return false;
  const i = +pos, n = H.shown.length;
  const moves = {ArrowLeft: i - 1, ArrowRight: i + 1, Home: 0, End: n - 1};
  if (ev.key === " " || ev.key === "Enter") toggle(i);
  else if (ev.key === "ArrowUp") { if (!H.selected.has(i)) toggle(i); }
  else if (ev.key === "ArrowDown") { if (H.selected.has(i)) toggle(i); }
  else if (ev.key in moves) {
    H.focus = Math.max(0, Math.min(n - 1, moves[ev.key]));
    for (const c of document.querySelectorAll("#hand .card")) c.tabIndex = -1;
    const node = document.querySelector(`#hand [data-pos="${H.focus}"]`);
    node.tabIndex = 0;
    node.focus();
  } else return false;
  ev.preventDefault();
  return true;
}

// Your turn has come: put the focus in the hand (on its tab stop) when it was on
// nothing or on a button of the controls (a clicked Pass or Play keeps it, and Tab
// would go on to Hint, Clear, Sort… and never back to the cards). Focus elsewhere
// (a menu, a field, a link) is left alone.
export function focusHandOnTurn() {
  const a = document.activeElement;
  if (a && a !== document.body && !a.closest("#controls")) return;
  const card = document.querySelector("#hand .card[tabindex='0']");
  if (card) card.focus({preventScroll: true});
}
