// The puzzles page: a position where one play goes out first whatever the others do.
// An open-hand puzzle shows every hand; a hidden-hand one only yours, the others'
// counts and the cards played. Select your cards and play them: the server answers
// with the line after it (the answer's winning line, or the others' refutation, on
// the hands it is played on), which is stepped on the cards. Progress (solved,
// streak) is kept in this browser. Seats are numbered from 1, as at the table.
import {$, ICONS, api, el, icon} from "./dom.js";
import {backEl, cardEl, labels, preloadFaces} from "./cards.js";
import {reducedMotion} from "./cues.js";
import {applyText, kindLabel, kindText, t} from "./i18n.js";
import {settingsMenu} from "./settings.js";

const KEY = "big2.puzzles";
const STEP_MS = 1100;  // a step of the line, played by itself
let list = null, cur = null, selected = new Set();
let verdict = null;  // {ok, text: () => the sentence in the page's language}
let shown = null;    // the line on the board: {res (the server's answer), step, steps}
let timer = null;
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
const split = (text) => text ? text.split(" ") : [];
const seatName = (s) => s === cur.seat ? t("puzzleYou") : t("puzzleSeat", s + 1);
const cardsLeft = (n) => n === 1 ? t("sOneCard") : t("sCards", n);

// One step of a line as words: "Seat 3 plays 7♦", "you pass".
function stepText([s, cards]) {
  const names = split(cards);
  if (!names.length) return s === cur.seat ? t("lineYouPass") : t("lineSeatPasses", seatName(s));
  return s === cur.seat ? t("lineYouPlay", labels(names))
    : t("lineSeatPlays", seatName(s), labels(names));
}
function outText(winner) {
  return winner === cur.seat ? t("lineYouOut") : t("lineSeatOut", seatName(winner));
}
// A whole line [[seat, "cards"], …] as words, to who goes out first in it.
function lineText(res) {
  return steps(res).map(stepText).join(t("lineSep")) + t("lineEnd", outText(res.winner));
}
const steps = (res) => [[cur.seat, res.play], ...res.line];

// -- trying a play --------------------------------------------------------------------
async function tryPlay(names) {
  const play = key(names);
  if (!cur.legal.map(l => key(split(l))).includes(play)) {
    verdict = {ok: false, text: () => t("puzzleIllegal")};  // (the streak stands)
    draw();
    return;
  }
  const res = await after(names);
  if (res.correct) {
    if (!progress.solved.includes(cur.id)) progress.solved.push(cur.id);
    progress.streak += 1;
    progress.best = Math.max(progress.best, progress.streak);
    verdict = {ok: true, text: () => t("puzzleRight", lineText(res))};
  } else {
    progress.streak = 0;
    verdict = {ok: false, text: () => t("puzzleWrongLine", lineText(res))
      + (res.other_deal ? " " + t("puzzleOtherDeal") : "")};
  }
  save();
  showLine(res);
}

function after(names) {
  const play = names.length ? names.join(" ") : "pass";
  return api(`/api/puzzles/${cur.id}/after?play=${encodeURIComponent(play)}`);
}

async function showAnswer() {
  const res = await after(split(cur.answer));
  progress.streak = 0;
  save();
  verdict = {ok: null, text: () => t("puzzleShown", lineText(res))};
  showLine(res);
}

// -- the line, stepped on the cards -----------------------------------------------------
function showLine(res) {
  selected.clear();
  shown = {res, step: 0};
  draw();
  verdictIntoView();
  if (!reducedMotion()) play();
}

function verdictIntoView() {  // the verdict and the steps under it, on screen
  $("stepper").scrollIntoView({block: "nearest"});
  $("verdict").scrollIntoView({block: "nearest"});
}

function play() {
  stop();
  timer = setInterval(() => {
    if (!shown || shown.step >= steps(shown.res).length) return stop();
    shown.step += 1;
    draw();
  }, STEP_MS);
}
function stop() { if (timer) clearInterval(timer); timer = null; }

function go(step) {
  stop();
  if (!shown) return;
  shown.step = Math.max(0, Math.min(step, steps(shown.res).length));
  draw();
}

// Every seat's cards on the board now: the position's, or the line's after its steps.
function handsNow() {
  if (!shown) return cur.hands.map((h, s) => s === cur.seat || !cur.hidden ? h : null);
  const hands = shown.res.hands.map(h => [...h]);
  for (const [s, cards] of steps(shown.res).slice(0, shown.step)) {
    const gone = new Set(split(cards));
    hands[s] = hands[s].filter(c => !gone.has(c));
  }
  return hands;
}

// The play on the table now, and its words.
function tableNow() {
  if (shown && shown.step > 0) {
    const done = steps(shown.res).slice(0, shown.step), all = steps(shown.res).length;
    const text = t("puzzleStep", shown.step, all, stepText(done[done.length - 1]))
      + (shown.step === all ? t("lineSep") + outText(shown.res.winner) : "");
    return {cards: shown.res.tables[shown.step - 1], text};  // none: the trick was won
  }
  const text = cur.leading ? t("puzzleYouLead")
    : t("puzzleTable", kindText(cur.last_kind, cur.last_play) || labels(cur.last_play),
        seatName(cur.last_player));
  return {cards: cur.last_play, text};
}

// -- drawing ------------------------------------------------------------------------------
function seatRow(s, hand) {
  const mine = s === cur.seat, live = mine && !shown;
  const row = el("div", {class: "puzzle-hand" + (mine ? " mine" : ""), "data-seat": s});
  if (hand === null) {  // a hidden hand: its count, as backs
    for (let i = 0; i < cur.counts[s]; i++) row.append(backEl());
  } else {
    hand.forEach((c, i) => {
      const node = cardEl(c, live && selected.has(i) ? "selected" : "");
      if (live) {
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
  }
  const count = hand === null ? cur.counts[s] : hand.length;
  const head = el("b", {text: `${seatName(s)} · ${count ? cardsLeft(count) : t("puzzleOut")}`});
  const played = cur.hidden && cur.played[s].length
    ? el("span", {class: "puzzle-played muted", text: t("puzzlePlayed", labels(cur.played[s]))})
    : null;
  return el("div", {class: "puzzle-seat" + (mine ? " mine" : ""), "data-seat": s}, head, played,
            row);
}

const presetName = (p) => t("preset_" + p) === "preset_" + p ? p : t("preset_" + p);
const SUIT = {D: "♦", C: "♣", H: "♥", S: "♠"};
const rank = (r) => r === "T" ? "10" : r;

// The rules that decide, in words, with a link to How to play for the preset.
function rulesLine(r) {
  const parts = [t("puzzleRulesOf", presetName(r.preset)), t("puzzlePlayers", r.players),
    t("puzzleSuits", [...r.suits].map(s => SUIT[s]).join(" < ")),
    t("puzzleStraights", r.straights.map(q => rank(q[0]) + "–" + rank(q[q.length - 1]))
      .join(", "))];
  if (r.finish.length) {
    parts.push(t("puzzleFinish", r.finish.map(f => t("finish_" + f)).join(t("and"))));
  }
  parts.push(t("howFive_" + r.five_compare));
  return [el("span", {text: parts.join(" · ") + " "}),
          el("a", {href: `/how?preset=${encodeURIComponent(r.preset)}&players=${r.players}`,
                   id: "how-link",
                   text: t("puzzleHowLink")})];
}

function draw() {
  applyText(document);
  document.title = `${t("puzzlesTitle")} · ${t("gameName")}`;
  $("about").textContent = (cur && cur.hidden ? t("puzzlesAboutHidden") : t("puzzlesAbout"))
    + " " + t("puzzleDefinition");
  if (list) {
    $("progress").textContent = t("puzzleProgress", progress.solved.length,
                                  list.puzzles.length, progress.streak, progress.best);
  }
  if (!cur) return;
  $("puzzle-title").textContent = t("puzzleTitle", cur.id, t("band_" + cur.band),
                                    presetName(cur.preset))
    + (cur.hidden ? " · " + t("puzzleHidden") : "")
    + (progress.solved.includes(cur.id) ? " ✓" : "");
  $("rules").replaceChildren(...rulesLine(cur.rules));
  const hands = handsNow();
  const order = [...Array(cur.players).keys()].map(i => (cur.seat + 1 + i) % cur.players);
  $("seats").replaceChildren(...order.map(s => seatRow(s, hands[s])));  // you last
  const table = tableNow();
  $("table").textContent = table.text;
  $("table-cards").replaceChildren(...table.cards.map(c => cardEl(c)));
  $("check-btn").disabled = !selected.size || !!shown;
  $("pass-btn").disabled = !cur.legal.includes("") || !!shown;
  const v = $("verdict");
  v.textContent = verdict ? verdict.text() : "";  // said again in a new language
  v.className = "verdict" + (verdict ? (verdict.ok ? " right" : verdict.ok === false
    ? " wrong" : "") : "");
  const stepper = $("stepper");
  stepper.hidden = !shown;
  if (shown) {
    const all = steps(shown.res).length;
    $("step-first").disabled = $("step-back").disabled = shown.step === 0;
    $("step-next").disabled = $("step-last").disabled = shown.step === all;
    $("retry-btn").hidden = shown.res.correct || verdict.ok === null;
  }
}

async function open(id) {
  stop();
  cur = await api(`/api/puzzles/${id}`);
  selected.clear();
  verdict = null;
  shown = null;
  const band = $("band");
  if (band.value !== "all" && band.value !== cur.band) band.value = "all";  // it names this one
  history.replaceState(null, "", `#${id}`);
  draw();
}

function next() {
  const band = $("band").value;
  const pool = list.puzzles.filter(p => band === "all" || p.band === band);
  const fresh = pool.filter(p => !progress.solved.includes(p.id));
  const from = fresh.length ? fresh : pool;
  const later = from.find(p => p.id > (cur ? cur.id : 0)) || from[0];
  if (later) open(later.id);
}

async function init() {
  settingsMenu($("bar"), draw);
  const faces = preloadFaces();
  list = await api("/api/puzzles");
  await faces;
  $("check-btn").onclick = () => tryPlay([...selected].map(i => cur.hands[cur.seat][i]));
  $("pass-btn").onclick = () => tryPlay([]);
  $("hint-btn").onclick = () => {
    verdict = {ok: null, text: () => t("puzzleHint", cur.answer_kind
      ? kindLabel(cur.answer_kind) : t("pass"), cur.own_plays)};
    draw();
    verdictIntoView();
  };
  $("answer-btn").onclick = showAnswer;
  $("next-btn").onclick = next;
  $("daily-btn").onclick = () => open(list.daily);
  $("band").onchange = next;
  for (const [id, name] of [["step-first", "first"], ["step-back", "prev"],
                            ["step-next", "next"], ["step-last", "last"]]) {
    $(id).replaceChildren(icon(ICONS[name]));
  }
  $("step-first").onclick = () => go(0);
  $("step-back").onclick = () => go(shown.step - 1);
  $("step-next").onclick = () => go(shown.step + 1);
  $("step-last").onclick = () => go(Infinity);
  $("retry-btn").onclick = () => { stop(); shown = null; verdict = null; draw(); };
  const wanted = +location.hash.slice(1);
  await open(list.puzzles.some(p => p.id === wanted) ? wanted : list.daily);
  window.big2 = {get puzzle() { return cur; }, get progress() { return progress; },
                 get line() { return shown; }};
}
init();
