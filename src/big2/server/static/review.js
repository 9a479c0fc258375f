// The game review on the replay page: choose a seat, the server's expert search judges
// each of its decisions (expected points of the play made against the best play
// found, a mark for inaccuracies and mistakes, one sentence of why), and each line
// steps the replay to that play.
import {$, api, el} from "./dom.js";
import {textCards} from "./cards.js";
import {t} from "./i18n.js";
import {reasonText} from "./whys.js";

let result = null, busy = false, names = [], recordId = null, goTo = () => {};

// Signed as the terminal review writes it (+0.0 for nothing gained or lost).
function fmt(v) { return (v >= 0 ? "+" : "") + v.toFixed(1); }

// Set up the review box for record *id* of players *players*; *go(ply)* steps the replay.
export function setupReview(id, players, go) {
  recordId = id; names = players; goTo = go;
  const seat = $("review-seat");
  seat.replaceChildren(...players.map((n, i) => el("option", {value: i, text: n})));
  $("review-btn").onclick = run;
  draw();
}

async function run() {
  if (busy) return;
  busy = true; result = null;
  draw();
  try {
    result = await api(`/api/records/${recordId}/review`,
                       {method: "POST", body: {seat: +$("review-seat").value}});
  } catch (e) { result = {error: e.message}; }
  busy = false;
  draw();
  // the results open below the controls, often below the fold: bring them into view
  $("review-status").scrollIntoView({block: "start", behavior: "smooth"});
}

// A line tapped steps the board: bring the board into view where it has scrolled away
// (on a phone the list lies below it), so the step is seen.
function boardInView() {
  const felt = $("felt"), r = felt.getBoundingClientRect();
  if (r.top < 0 || r.bottom > innerHeight) {  // whole where it fits, else from its top
    felt.scrollIntoView({block: r.height <= innerHeight ? "nearest" : "start"});
  }
}

// Mark the line of the replay's position *ply*; with *all*, draw the box again first
// (a language switch).
let at = null;
export function drawReview(ply, all) {
  at = ply;
  if (all) draw();
  for (const li of document.querySelectorAll("#review-list li")) {
    li.classList.toggle("here", +li.dataset.ply === ply);
  }
}

function draw() {
  $("review-btn").disabled = busy;
  $("review-btn").textContent = busy ? t("reviewing") : t("review");
  const status = $("review-status"), list = $("review-list");
  list.replaceChildren();
  status.classList.remove("error-text");
  if (busy) { status.textContent = t("reviewWait"); return; }
  if (!result) { status.textContent = t("reviewAbout"); return; }
  if (result.error) {
    status.textContent = result.error;
    status.classList.add("error-text");
    return;
  }
  const marks = {inaccuracy: 0, mistake: 0};
  for (const d of result.decisions) if (d.mark) marks[d.mark]++;
  status.textContent = t("reviewSummary", names[result.seat], result.decisions.length,
                         marks.inaccuracy, marks.mistake)
    + (result.bot ? " · " + t("reviewBy", result.bot) : "")
    + (result.complete ? "" : " " + t("reviewPartial", result.seconds));
  for (const d of result.decisions) {
    const li = el("li", {"data-ply": d.ply, class: d.mark || "good", tabindex: 0,
                         role: "button", title: t("reviewGo")},
      el("span", {class: "r-ply", text: d.ply + "."}),
      el("span", {class: "r-made"}, textCards(d.made, t("pass")), " ",
         el("b", {text: fmt(d.made_value)})),
      d.mark ? el("span", {class: "r-mark", text: t("mark_" + d.mark, fmt(-d.loss))})
        : el("span", {class: "r-mark", text: d.made === d.best ? t("reviewBest") : ""}));
    if (d.made !== d.best) {
      li.append(el("span", {class: "r-best"}, t("reviewBestFound") + " ",
        textCards(d.best, t("pass")), " ", el("b", {text: fmt(d.best_value)})));
    }
    if (d.why && d.mark) {
      li.append(el("span", {class: "r-why", text: reasonText(d.reason) || d.why}));
    }
    const go = () => { goTo(d.ply); boardInView(); };
    li.addEventListener("click", go);
    li.addEventListener("keydown", (e) => {
      if (e.key === "Enter" || e.key === " ") { e.preventDefault(); go(); }
    });
    list.append(li);
  }
  if (at !== null) drawReview(at);
}
