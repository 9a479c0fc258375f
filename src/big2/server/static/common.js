// Shared helpers for the big2 pages: cards, names, fetch.
"use strict";
const RANKS = "3456789TJQKA2";
const SUITS = "DCHS";
const SUIT_SYMBOLS = {D: "♦", C: "♣", H: "♥", S: "♠"};

const JOKERS = {RJ: {index: 52, label: "Red Joker"}, BJ: {index: 53, label: "Black Joker"}};

function isJoker(name) { return Object.prototype.hasOwnProperty.call(JOKERS, name); }
// The first deck's card number of a name: 3D 0 ... 2S 51, jokers after the 2s (RJ 52, BJ 53).
function cardIndex(name) {
  return isJoker(name) ? JOKERS[name].index : RANKS.indexOf(name[0]) * 4 + SUITS.indexOf(name[1]);
}
function cardLabel(name) {
  if (isJoker(name)) return JOKERS[name].label;
  return (name[0] === "T" ? "10" : name[0]) + SUIT_SYMBOLS[name[1]];
}
// A colour class for a card's text: suit-D/C/H/S, joker-R (red) or joker-B (black).
function cardClass(name) { return isJoker(name) ? "joker-" + name[0] : "suit-" + name[1]; }
// A play as a multiset of names, as one string: sorted by card, a name twice for two copies.
function cardsKey(names) {
  return names.slice().sort((a, b) => cardIndex(a) - cardIndex(b)).join(" ");
}
// How many times each name occurs (two decks hold two copies of a card).
function nameCounts(names) {
  const counts = new Map();
  for (const n of names) counts.set(n, (counts.get(n) || 0) + 1);
  return counts;
}
function splitCards(text) { return text ? text.split(" ") : []; }

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") node.className = v;
    else if (k === "text") node.textContent = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children) if (c !== null && c !== undefined) node.append(c);
  return node;
}

// One card face as an element with data-card; the SVG comes from /cards/NAME.svg.
function cardEl(name, extraClass) {
  const img = el("img", {src: `/cards/${name}.svg`, alt: cardLabel(name), draggable: "false"});
  return el("span", {class: "card " + (extraClass || ""), "data-card": name}, img);
}
function backEl(extraClass) {
  return el("span", {class: "card back " + (extraClass || "")},
            el("img", {src: "/cards/back.svg", alt: "card back", draggable: "false"}));
}
function playEl(text, extraClass) {
  const row = el("div", {class: "play " + (extraClass || "")});
  for (const c of splitCards(text)) row.append(cardEl(c));
  return row;
}
function textCards(text) {
  if (!text) return el("span", {class: "pass", text: "pass"});
  const span = el("span", {class: "cards-text"});
  for (const c of splitCards(text)) {
    span.append(el("span", {class: cardClass(c), text: cardLabel(c)}), " ");
  }
  return span;
}

async function api(path, options) {
  const opts = Object.assign({headers: {"Content-Type": "application/json"}}, options || {});
  if (opts.body && typeof opts.body !== "string") opts.body = JSON.stringify(opts.body);
  const res = await fetch(path, opts);
  const data = await res.json().catch(() => ({}));
  if (!res.ok) {
    let msg = data.detail;
    if (Array.isArray(msg)) msg = msg.map(d => `${(d.loc || []).slice(1).join(".")}: ${d.msg}`).join("; ");
    throw new Error(msg || res.statusText);
  }
  return data;
}

function seatKey(tableId) { return "big2.seat." + tableId; }
function savedSeat(tableId) {
  try { return JSON.parse(localStorage.getItem(seatKey(tableId)) || "null"); } catch (e) { return null; }
}
function saveSeat(tableId, seat, token) {
  localStorage.setItem(seatKey(tableId), JSON.stringify({seat, token}));
}
function forgetSeat(tableId) { localStorage.removeItem(seatKey(tableId)); }
function playerName() { return localStorage.getItem("big2.name") || ""; }
function setPlayerName(name) { localStorage.setItem("big2.name", name); }
