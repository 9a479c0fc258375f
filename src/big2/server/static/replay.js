// Step through a finished deal, by play or by trick; every hand face up (the
// deal is over). The address (#ply=N) names the position, so it can be shared.
import {$, ICONS, api, el, icon} from "./dom.js";
import {RANKS, cardEl, cardIndex, playEl, preloadFaces, splitCards} from "./cards.js";
import {applyText, kindText, t} from "./i18n.js";
import {layoutSpots, posClass} from "./layout.js";
import {settingsMenu} from "./settings.js";
import {flyIn} from "./cues.js";
import {drawDuplicate, setupDuplicate} from "./duplicate.js";
import {drawReview, setupReview} from "./review.js";

const recordId = location.pathname.split("/").pop();
let rec = null, steps = [], ply = 0, timer = null;

// Each position 0..N of the deal: hands (name lists: two decks can hold two
// cards of a name), the play to beat and who made it, and the trick number.
// A trick ends when every other seat still holding cards has passed, or when
// the lead comes back to the seat that made the last play.
function walk(r) {
  const hands = r.hands.map(h => splitCards(h));
  let last = null, lastBy = null, passes = 0, trick = 1;
  const out = [{hands: hands.map(h => h.slice()), last, lastBy, trick, lead: true}];
  r.actions.forEach(([seat, cards], i) => {
    const others = hands.filter((h, s) => h.length && s !== lastBy).length;
    const lead = i === 0 || (lastBy !== null && (seat === lastBy || passes >= others));
    if (lead && i > 0) { trick++; last = null; passes = 0; }
    if (cards === "pass") passes++;
    else {
      for (const c of splitCards(cards)) {
        const at = hands[seat].indexOf(c);
        if (at >= 0) hands[seat].splice(at, 1);
      }
      last = cards; lastBy = seat; passes = 0;
    }
    out.push({hands: hands.map(h => h.slice()), last, lastBy, trick, lead, seat, cards});
  });
  return out;
}

function show() {
  const n = rec.names.length, step = steps[ply];
  layoutSpots($("felt"), n, $("center"));
  for (let seat = 0; seat < n; seat++) {
    const spot = $("pos-" + seat);
    if (seat === 0) spot.className = "seat-inline pos-" + posClass(0, n);
    const row = el("div", {class: "replay-hand"});
    const order = [...step.hands[seat]].sort((a, b) => cardIndex(a) - cardIndex(b));
    for (const c of order) row.append(cardEl(c));
    const acting = ply < rec.actions.length && rec.actions[ply][0] === seat;
    const count = step.hands[seat].length;
    spot.replaceChildren(el("div", {class: "seat" + (acting ? " turn" : ""), "data-seat": seat,
                                    role: "group", "aria-label": rec.names[seat]},
      el("div", {class: "who"}, el("span", {class: "name", text: rec.names[seat]}),
         el("span", {class: "tag", text: count === 1 ? t("oneCard") : t("nCards", count)})),
      row));
  }
  const trick = $("trick"), by = $("trick-by");
  trick.replaceChildren();
  by.replaceChildren();
  if (ply > 0) {
    // the heading names the cards under it: on a pass, the play still to beat and who
    // made it, with the pass said on a line of its own
    const passed = step.cards === "pass";
    const shown = passed ? step.last : step.cards, bySeat = passed ? step.lastBy : step.seat;
    const who = rec.names[bySeat];
    if (shown) {
      by.append(el("span", {class: "by-name", text: who}), el("span", {class: "by-kind",
        text: kindText(kindOf(shown), splitCards(shown)) || t("playedBy", who)}));
      const play = playEl(shown, "big");
      trick.append(play);
      if (!passed) flyIn(play, document.querySelector(`[data-seat="${step.seat}"]`));
    }
    if (passed) {
      by.append(el("span", {class: "by-pass", text: t("seatPassed", rec.names[step.seat])}));
    }
  } else by.append(el("span", {class: "by-kind", text: t("theDeal")}));
  const done = ply === rec.actions.length;
  $("status").textContent = done && rec.winner !== null
    ? t("wentOutScores", rec.names[rec.winner],
        rec.scores.map((s, i) => `${rec.names[i]} ${s > 0 ? "+" + s : s}`).join(", "))
    : t("trickN", step.trick);
  $("ply").value = ply;
  $("pos").textContent = `${ply} / ${rec.actions.length}`;
  drawReview(ply);
  history.replaceState(null, "", `#ply=${ply}`);
}

// A play's kind from its shape (records carry no kinds; every recorded play was
// legal, so five cards of five ranks are a straight unless one suit makes them a
// flush); plays with jokers get no caption kind.
const WRAPS = ["A2345", "23456", "JQKA2"];
function kindOf(text) {
  const names = splitCards(text);
  if (names.some(n => n === "RJ" || n === "BJ")) return null;
  const counts = {};
  for (const n of names) counts[n[0]] = (counts[n[0]] || 0) + 1;
  const shape = Object.values(counts).sort((a, b) => b - a).join("");
  const byShape = {1: "SINGLE", 2: "PAIR", 3: "TRIPLE", 4: "FOUR_OF_A_KIND", 22: "TWO_PAIRS",
                   32: "FULL_HOUSE", 41: "FOUR_KICKER", 221: "FIVE_TWO_PAIRS", 311: "FIVE_TRIPS",
                   5: "FIVE_OF_A_KIND"};
  if (byShape[shape]) return byShape[shape];
  if (names.length >= 6 && /^2+$/.test(shape)) return "PAIR_RUN";
  if (names.length === 13 && shape === "1".repeat(13)) return "DRAGON";
  if (shape !== "11111") return null;
  const idx = names.map(n => RANKS.indexOf(n[0])).sort((a, b) => a - b);
  const ranks = new Set(names.map(n => n[0]));
  const run = idx[4] - idx[0] === 4 || WRAPS.some(w => [...w].every(r => ranks.has(r)));
  const flush = new Set(names.map(n => n[1])).size === 1;
  return flush ? (run ? "STRAIGHT_FLUSH" : "FLUSH") : "STRAIGHT";
}

// Positions that show the first play of a trick.
function trickStarts() { return steps.map((s, p) => p > 0 && s.lead ? p : -1).filter(p => p > 0); }
function nextTrick() {
  const p = trickStarts().find(q => q > ply);
  go(p === undefined ? rec.actions.length : p);
}
function prevTrick() {
  const before = trickStarts().filter(q => q < ply);
  go(before.length ? before[before.length - 1] : 0);
}

function hashPly() {
  const m = /ply=(\d+)/.exec(location.hash);
  return m ? Math.min(+m[1], rec.actions.length) : 0;
}
function go(to) { ply = Math.max(0, Math.min(rec.actions.length, to)); show(); }
function setIcons() {
  const names = {first: "first", "prev-trick": "prevTrick", prev: "prev", next: "next",
                 "next-trick": "nextTrick", last: "last", "copy-link": "link"};
  for (const [id, name] of Object.entries(names)) $(id).replaceChildren(icon(ICONS[name]));
  $("auto").replaceChildren(icon(ICONS[timer ? "pause" : "play"]),
                            el("span", {text: " " + t(timer ? "stop" : "autoplay")}));
}

function autoplay() {
  if (timer) { clearInterval(timer); timer = null; setIcons(); return; }
  timer = setInterval(() => { if (ply >= rec.actions.length) autoplay(); else go(ply + 1); }, 700);
  setIcons();
}

// The page's heading: the event, the deal and the players, in the chosen language.
function showTitle() {
  const tags = rec.tags || {};
  $("title").textContent = `${t("replayTitle")}: ${tags.Event || ""}`
    + `${tags.Deal ? " · " + t("dealOf", tags.Deal) : ""} · ${rec.names.join(", ")}`;
  document.title = `${$("title").textContent} · ${t("gameName")}`;
}

async function init() {
  settingsMenu($("bar"), () => {
    applyText(document); setIcons();
    if (rec) { showTitle(); show(); drawReview(ply, true); drawDuplicate(); }
  });
  const faces = preloadFaces();
  try { rec = await api(`/api/records/${recordId}`); }
  catch (e) { $("status").textContent = e.message; return; }
  steps = walk(rec);
  showTitle();
  $("dl-txt").href = `/api/records/${recordId}/download?format=txt`;
  $("dl-json").href = `/api/records/${recordId}/download?format=json`;
  $("ply").max = rec.actions.length;
  $("ply").addEventListener("input", (e) => go(+e.target.value));
  $("first").onclick = () => go(0);
  $("last").onclick = () => go(rec.actions.length);
  $("prev").onclick = () => go(ply - 1);
  $("next").onclick = () => go(ply + 1);
  $("prev-trick").onclick = prevTrick;
  $("next-trick").onclick = nextTrick;
  $("auto").onclick = autoplay;
  $("copy-link").onclick = () => {
    if (navigator.clipboard) navigator.clipboard.writeText(location.href).catch(() => {});
  };
  document.addEventListener("keydown", (e) => {
    const keys = {ArrowRight: () => go(ply + 1), ArrowLeft: () => go(ply - 1),
                  ArrowDown: nextTrick, ArrowUp: prevTrick,
                  Home: () => go(0), End: () => go(rec.actions.length)};
    if (keys[e.key] && e.target.tagName !== "INPUT") { e.preventDefault(); keys[e.key](); }
  });
  window.addEventListener("hashchange", () => go(hashPly()));
  ply = hashPly();
  window.big2 = {get ply() { return ply; }, steps, go};
  setupReview(recordId, rec.names, go);
  setupDuplicate(recordId, rec.names, go);
  await faces;  // no blank cards on the first drawing
  show();
}
init();
