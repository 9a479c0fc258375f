// Feedback outside the cards: the tab title and favicon on your turn, short
// sounds (WebAudio, off by default) for your turn, a play, a pass and the deal's
// end, and the play and dealing animations (none when the player prefers reduced
// motion).
import {setting} from "./dom.js";

function iconUrl(turn) {
  const dot = turn ? '<circle cx="50" cy="50" r="13" fill="#e4572e" stroke="#fff" '
    + 'stroke-width="4"/>' : "";
  const svg = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64">'
    + '<rect x="6" y="2" width="44" height="60" rx="6" fill="#fff" stroke="#1f6b43" '
    + 'stroke-width="4"/><path d="M28 12c5 8 14 12 14 20a7 7 0 0 1-12 4l2 10h-8l2-10a7 7 0 0 '
    + '1-12-4c0-8 9-12 14-20z" fill="#111"/>' + dot + "</svg>";
  return "data:image/svg+xml," + encodeURIComponent(svg);
}

// The game's name in each language: a table named after it is not named twice in the title.
const GAME_NAMES = ["big two", "大老二", "锄大地", "鋤大地", "鋤大d", "锄大d"];

// The tab title: "Table · Big Two", or the table's name alone when it is the game's name
// (a table keeps the default name "Big Two": not "Big Two · Big Two").
export function tabTitle(table, gameName) {
  const name = (table || "").trim();
  if (!name) return gameName;
  const low = name.toLowerCase();
  return GAME_NAMES.includes(low) || low === gameName.toLowerCase() ? name
    : `${name} · ${gameName}`;
}

let shownTurn = null;
// Title "● Your turn · Table" and a red dot on the favicon while *turn*.
export function turnCue(turn, title, turnWord, gameName = "Big Two") {
  document.title = turn ? `● ${turnWord} · ${title}` : tabTitle(title, gameName);
  if (turn === shownTurn) return;
  shownTurn = turn;
  let link = document.querySelector("link[rel=icon]");
  if (!link) {
    link = document.createElement("link");
    link.rel = "icon";
    document.head.append(link);
  }
  link.href = iconUrl(turn);
  link.dataset.turn = turn ? "1" : "0";
  if (turn) beep();
}

let audio = null;
// Make the audio context while the player's click switches the sound on:
// browsers start audio only from a user gesture.
export function unlockAudio() {
  try {
    audio = audio || new AudioContext();
    audio.resume();
  } catch (e) { /* no audio: stay silent */ }
}

// The sounds, each a short tone or two (frequency Hz, start s, length s): your turn,
// a play, a pass and the deal's end.
const TONES = {
  turn: [[880, 0, 0.25]],
  play: [[520, 0, 0.07]],
  pass: [[300, 0, 0.09]],
  end: [[660, 0, 0.16], [990, 0.14, 0.3]],
};
export const played = [];  // the sounds made, by kind (for the tests)

// Sound *kind* when the sound setting is on (off by default).
export function sound(kind) {
  if (!setting("sound", false) || !TONES[kind]) return;
  try {
    unlockAudio();
    const now = audio.currentTime;
    for (const [freq, at, len] of TONES[kind]) {
      const osc = audio.createOscillator(), gain = audio.createGain();
      osc.type = "sine";
      osc.frequency.value = freq;
      gain.gain.setValueAtTime(0.0001, now + at);
      gain.gain.exponentialRampToValueAtTime(0.15, now + at + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, now + at + len);
      osc.connect(gain).connect(audio.destination);
      osc.start(now + at);
      osc.stop(now + at + len + 0.05);
    }
    played.push(kind);
    if (kind === "turn") window.big2Beeps = (window.big2Beeps || 0) + 1;  // counted for the tests
  } catch (e) { /* no audio device: stay silent */ }
}
export function beep() { sound("turn"); }

export function reducedMotion() {
  return window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

// Slide *node* in from *from* (an element, e.g. the seat that played) to its place.
export function flyIn(node, from) {
  if (reducedMotion() || !node.animate) return;
  const to = node.getBoundingClientRect();
  let dx = 0, dy = 40;
  if (from) {
    const f = from.getBoundingClientRect();
    dx = f.x + f.width / 2 - (to.x + to.width / 2);
    dy = f.y + f.height / 2 - (to.y + to.height / 2);
  }
  node.animate([{transform: `translate(${dx}px, ${dy}px) scale(.6)`, opacity: 0.3},
                {transform: "none", opacity: 1}], {duration: 260, easing: "ease-out"});
}

// Deal *cards* (your hand's card elements) in from *from* (the felt's centre), one
// after another, *elapsed* ms into the deal (a redraw while dealing carries on where
// it was); nothing moves when the player prefers reduced motion. Returns how many
// cards are still on their way.
export const DEAL_STEP_MS = 45, DEAL_CARD_MS = 240;
export function dealIn(cards, from, elapsed = 0) {
  if (reducedMotion() || !from) return 0;
  const f = from.getBoundingClientRect();
  let n = 0;
  cards.forEach((node, i) => {
    if (!node.animate || elapsed >= i * DEAL_STEP_MS + DEAL_CARD_MS) return;
    const to = node.getBoundingClientRect();
    const dx = f.x + f.width / 2 - (to.x + to.width / 2);
    const dy = f.y + f.height / 2 - (to.y + to.height / 2);
    const a = node.animate(
      [{transform: `translate(${dx}px, ${dy}px) rotate(-8deg) scale(.5)`, opacity: 0},
       {transform: "none", opacity: 1}],
      {duration: DEAL_CARD_MS, delay: i * DEAL_STEP_MS, easing: "ease-out", fill: "backwards",
       id: "deal"});
    a.currentTime = elapsed;
    n++;
  });
  return n;
}
