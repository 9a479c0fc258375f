// Cards: names, labels, faces as elements (the SVGs of /cards/NAME.svg), and
// the four-colour deck (♦ blue, ♣ green), recoloured here from the same SVGs.
import {el, setting} from "./dom.js";
import {cardName} from "./i18n.js";

export const RANKS = "3456789TJQKA2";
export const SUITS = "DCHS";
const SUIT_SYMBOLS = {D: "♦", C: "♣", H: "♥", S: "♠"};
const JOKERS = {RJ: 52, BJ: 53};

export function isJoker(name) { return Object.prototype.hasOwnProperty.call(JOKERS, name); }
// The first deck's card number of a name: 3D 0 ... 2S 51, jokers after the 2s.
export function cardIndex(name) {
  return isJoker(name) ? JOKERS[name] : RANKS.indexOf(name[0]) * 4 + SUITS.indexOf(name[1]);
}
// A short label: 10♥, Q♠; jokers by name.
export function cardLabel(name) {
  if (isJoker(name)) return cardName(name);
  return (name[0] === "T" ? "10" : name[0]) + SUIT_SYMBOLS[name[1]];
}
// A colour class for a card's text: suit-D/C/H/S, joker-R (red) or joker-B (black).
export function cardClass(name) { return isJoker(name) ? "joker-" + name[0] : "suit-" + name[1]; }
// A play as a multiset of names, as one string: sorted by card, a name twice for two copies.
export function cardsKey(names) {
  return names.slice().sort((a, b) => cardIndex(a) - cardIndex(b)).join(" ");
}
// How many times each name occurs (two decks hold two copies of a card).
export function nameCounts(names) {
  const counts = new Map();
  for (const n of names) counts.set(n, (counts.get(n) || 0) + 1);
  return counts;
}
export function splitCards(text) { return text ? text.split(" ") : []; }
export function labels(names) { return names.map(cardLabel).join(" "); }

// -- the four-colour deck -------------------------------------------------------------
const FOUR = {D: ["#d0021b", "#0b5cc6"], C: ["#111111", "#12813a"]};
const recoloured = new Map();  // name -> data: URL (CSP allows data: images)
let fourColor = setting("fourColor", false);
export function isFourColor() { return fourColor; }
export function setFourColor(on) {
  fourColor = on;
  document.body.classList.toggle("four-color", on);
  for (const img of document.querySelectorAll("img[data-face]")) {
    img.src = faceSrc(img.dataset.face);
  }
}

function faceSrc(name) {
  const swap = fourColor && !isJoker(name) && FOUR[name[1]];
  if (!swap) return `/cards/${name}.svg`;
  if (recoloured.has(name)) return recoloured.get(name);
  fetch(`/cards/${name}.svg`).then(r => r.text()).then(svg => {
    const [from, to] = swap;
    const url = "data:image/svg+xml," + encodeURIComponent(svg.replaceAll(from, to));
    recoloured.set(name, url);
    for (const img of document.querySelectorAll(`img[data-face="${name}"]`)) img.src = url;
  }).catch(() => {});
  return `/cards/${name}.svg`;
}

// One card face as an element with data-card.
export function cardEl(name, extraClass) {
  const img = el("img", {src: faceSrc(name), alt: cardLabel(name), draggable: "false",
                         "data-face": name});
  return el("span", {class: "card " + (extraClass || ""), "data-card": name}, img);
}
export function backEl(extraClass) {
  return el("span", {class: "card back " + (extraClass || ""), "aria-hidden": "true"},
            el("img", {src: "/cards/back.svg", alt: "", draggable: "false"}));
}
// A play as a row of faces, its label the cards' names.
export function playEl(text, extraClass) {
  const names = splitCards(text);
  const row = el("div", {class: "play " + (extraClass || ""), role: "img",
                         "aria-label": names.map(cardName).join(", ")});
  for (const c of names) row.append(cardEl(c));
  return row;
}
// A play as coloured text (10♥ Q♠), or "pass".
export function textCards(text, passWord) {
  if (!text) return el("span", {class: "pass", text: passWord || "pass"});
  const span = el("span", {class: "cards-text"});
  for (const c of splitCards(text)) {
    span.append(el("span", {class: cardClass(c), text: cardLabel(c)}), " ");
  }
  return span;
}

// -- preloading -----------------------------------------------------------------
// Every face and the back, fetched and decoded before the first hand is drawn (a
// first hand drawn before its images arrive shows blank cards for a moment). The
// images are kept so the browser keeps them decoded; *ms* caps the wait (a slow or
// failed image does not hold the table back for ever). Should decode() reject for an
// image that is still loading, its load (or error) event ends that image's wait.
const preloaded = [];
export function preloadFaces(ms = 10000) {
  const names = [...RANKS].flatMap(r => [...SUITS].map(s => r + s)).concat(["RJ", "BJ", "back"]);
  const loads = names.map(name => {
    const img = new Image();
    const settled = new Promise(done => { img.onload = img.onerror = done; });
    img.src = `/cards/${name}.svg`;
    preloaded.push(img);
    return img.decode().catch(() => settled);
  });
  return Promise.race([Promise.all(loads), new Promise(done => setTimeout(done, ms))]);
}
