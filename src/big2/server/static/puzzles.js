// The puzzles page: an open-hand position (every hand shown) where one play wins the
// deal. Select your cards and play them; a hint names the kind of play, the answer
// shows the line. Progress (solved, streak) is kept in this browser.
import {$, api, el} from "./dom.js";
import {cardEl, labels, preloadFaces} from "./cards.js";
import {applyText, kindLabel, kindText, t} from "./i18n.js";
import {settingsMenu} from "./settings.js";

const KEY = "big2.puzzles";
let list = null, cur = null, selected = new Set();
let verdict = null;  // {ok, text: () => the sentence in the page's language}
let progress = read();

function read() {
  try {
    const p = JSON.parse(localStorage.getItem(KEY) || "null");
    if (p && Array.isArray(p.solved)) return p;
  } catch (e) { /* a broken entry starts afresh */ }
  return {solved: [], streak: 0, best: 0};
}
function save() { localStorage.setItem(KEY, JSON.stringify(progress)); }

const key = (names) => [...names].sort().join(" ");
const seatName = (s) => s === cur.seat ? t("puzzleYou") : t("puzzleSeat", s);

// A line of play [[seat, "cards"], …] as words, and who goes out first in it.
function lineText(first, line) {
  const left = cur.hands.map(h => h.length);
  const steps = [first, ...line];
  let winner = null;
  const words = steps.map(([s, cards]) => {
    const names = cards ? cards.split(" ") : [];
    left[s] -= names.length;
    if (winner === null && left[s] === 0) winner = s;
    if (!names.length) return s === cur.seat ? t("lineYouPass") : t("lineSeatPasses", seatName(s));
    return s === cur.seat ? t("lineYouPlay", labels(names))
      : t("lineSeatPlays", seatName(s), labels(names));
  });
  const end = winner === cur.seat ? t("lineYouOut") : t("lineSeatOut", seatName(winner));
  return words.join(t("lineSep")) + t("lineEnd", end);
}

function check(names) {
  const play = key(names);
  if (!cur.legal.map(l => key(l ? l.split(" ") : [])).includes(play)) {
    verdict = {ok: false, text: () => t("puzzleIllegal")};
  } else if (play === key(cur.answer ? cur.answer.split(" ") : [])) {
    if (!progress.solved.includes(cur.id)) progress.solved.push(cur.id);
    progress.streak += 1;
    progress.best = Math.max(progress.best, progress.streak);
    verdict = {ok: true, text: () => t("puzzleRight", lineText([cur.seat, cur.answer], cur.line))};
  } else {
    progress.streak = 0;
    verdict = play === key(cur.natural ? cur.natural.split(" ") : [])
      ? {ok: false, text: () => t("puzzleWrongNatural",
                                  lineText([cur.seat, cur.natural], cur.refutation))}
      : {ok: false, text: () => t("puzzleWrong")};
  }
  save();
  selected.clear();
  draw();
}

function draw() {
  applyText(document);
  document.title = `${t("puzzlesTitle")} · ${t("gameName")}`;
  if (list) {
    $("progress").textContent = t("puzzleProgress", progress.solved.length,
                                  list.puzzles.length, progress.streak, progress.best);
  }
  if (!cur) return;
  $("puzzle-title").textContent = t("puzzleTitle", cur.id, t("band_" + cur.band), cur.preset)
    + (progress.solved.includes(cur.id) ? " ✓" : "");
  const seats = $("seats");
  seats.replaceChildren();
  const order = [...Array(cur.players).keys()].map(i => (cur.seat + 1 + i) % cur.players);
  for (const s of order) {  // the others in turn, you last (at the bottom)
    const mine = s === cur.seat;
    const row = el("div", {class: "puzzle-hand" + (mine ? " mine" : ""), "data-seat": s});
    cur.hands[s].forEach((c, i) => {
      const node = cardEl(c, mine && selected.has(i) ? "selected" : "");
      if (mine) {
        node.setAttribute("role", "button");
        node.setAttribute("aria-pressed", selected.has(i) ? "true" : "false");
        node.tabIndex = 0;
        const flip = () => { selected.has(i) ? selected.delete(i) : selected.add(i); draw(); };
        node.addEventListener("click", flip);
        node.addEventListener("keydown", e => {
          if (e.key === " " || e.key === "Enter") { e.preventDefault(); flip(); }
        });
      }
      row.append(node);
    });
    seats.append(el("div", {class: "puzzle-seat" + (mine ? " mine" : "")},
      el("b", {text: `${seatName(s)} · ${t("sCards", cur.hands[s].length)}`}), row));
  }
  $("table").textContent = cur.leading ? t("puzzleYouLead")
    : t("puzzleTable", kindText(cur.last_kind, cur.last_play) || labels(cur.last_play),
        seatName(cur.last_player));
  $("table-cards").replaceChildren(...cur.last_play.map(c => cardEl(c)));
  $("check-btn").disabled = !selected.size;
  $("pass-btn").disabled = !cur.legal.includes("");
  const v = $("verdict");
  v.textContent = verdict ? verdict.text() : "";  // said again in a new language
  v.className = "verdict" + (verdict ? (verdict.ok ? " right" : " wrong") : "");
}

async function open(id) {
  cur = await api(`/api/puzzles/${id}`);
  selected.clear();
  verdict = null;
  history.replaceState(null, "", `#${id}`);
  draw();
}

function next() {
  const band = $("band").value;
  const pool = list.puzzles.filter(p => band === "all" || p.band === band);
  const fresh = pool.filter(p => !progress.solved.includes(p.id));
  const from = fresh.length ? fresh : pool;
  const after = from.find(p => p.id > (cur ? cur.id : 0)) || from[0];
  if (after) open(after.id);
}

async function init() {
  settingsMenu($("bar"), draw);
  const faces = preloadFaces();
  list = await api("/api/puzzles");
  await faces;
  $("check-btn").onclick = () => check([...selected].map(i => cur.hands[cur.seat][i]));
  $("pass-btn").onclick = () => check([]);
  $("hint-btn").onclick = () => {
    verdict = {ok: null, text: () => t("puzzleHint", cur.answer_kind
      ? kindLabel(cur.answer_kind) : t("pass"), cur.own_plays)};
    draw();
  };
  $("answer-btn").onclick = () => {
    progress.streak = 0;
    save();
    verdict = {ok: null, text: () => t("puzzleShown", lineText([cur.seat, cur.answer],
                                                               cur.line))};
    draw();
  };
  $("next-btn").onclick = next;
  $("daily-btn").onclick = () => open(list.daily);
  $("band").onchange = next;
  const wanted = +location.hash.slice(1);
  await open(list.puzzles.some(p => p.id === wanted) ? wanted : list.daily);
  window.big2 = {get puzzle() { return cur; }, get progress() { return progress; }};
}
init();
