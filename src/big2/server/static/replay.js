// Step through a finished deal: every hand is shown (the deal is over).
"use strict";
const recordId = location.pathname.split("/").pop();
const $ = (id) => document.getElementById(id);
let rec = null, ply = 0, timer = null;

// The seats' spots, counter-clockwise from the right (as on the table page).
const SPOTS = {
  2: ["top"], 3: ["right", "left"], 4: ["right", "top", "left"],
  5: ["r", "tr", "tl", "l"], 6: ["r", "tr", "t", "tl", "l"],
  7: ["rl", "rh", "tr", "tl", "lh", "ll"], 8: ["rl", "rh", "tr", "t", "tl", "lh", "ll"],
};
function posClass(rel, n) { return rel === 0 ? "bottom" : SPOTS[n][rel - 1]; }

function spots(n) {
  const felt = $("felt");
  felt.classList.toggle("many", n > 4);
  felt.dataset.players = n;
  for (let p = 1; p < n; p++) {
    if (!$("pos-" + p)) felt.insertBefore(el("div", {class: "seat-spot", id: "pos-" + p}), felt.querySelector(".center"));
  }
}

function show() {
  const n = rec.names.length;
  // hands as lists of names: with two decks a hand can hold two cards of a name
  const hands = rec.hands.map(h => splitCards(h));
  let last = null, lastBy = null, passes = 0;
  for (let i = 0; i < ply; i++) {
    const [seat, cards] = rec.actions[i];
    if (cards === "pass") { passes++; } else { splitCards(cards).forEach(c => { const i = hands[seat].indexOf(c); if (i >= 0) hands[seat].splice(i, 1); }); last = cards; lastBy = seat; passes = 0; }
  }
  for (let seat = 0; seat < n; seat++) {
    const spot = $("pos-" + seat);
    spot.className = (seat ? "seat-spot " : "") + "pos-" + posClass(seat, n);
    const row = el("div", {class: "replay-hand"});
    const order = [...hands[seat]].sort((a, b) => cardIndex(a) - cardIndex(b));
    for (const c of order) row.append(cardEl(c));
    const acting = ply < rec.actions.length && rec.actions[ply][0] === seat;
    spot.replaceChildren(el("div", {class: "seat" + (acting ? " turn" : "")},
      el("div", {class: "who"}, el("span", {class: "name", text: rec.names[seat]}), el("span", {class: "tag", text: `${hands[seat].length} cards`})), row));
  }
  $("trick").replaceChildren();
  if (ply > 0) {
    const [seat, cards] = rec.actions[ply - 1];
    $("trick-by").textContent = `${rec.names[seat]} ${cards === "pass" ? "passed" : "played"}`;
    if (cards !== "pass") $("trick").append(playEl(cards, "big"));
    else if (last) $("trick").append(playEl(last, "big"));
  } else $("trick-by").textContent = "The deal";
  const done = ply === rec.actions.length;
  $("status").textContent = done && rec.winner !== null
    ? `${rec.names[rec.winner]} went out. Scores: ` + rec.scores.map((s, i) => `${rec.names[i]} ${s > 0 ? "+" + s : s}`).join(", ")
    : "";
  $("ply").value = ply;
  $("pos").textContent = `${ply} / ${rec.actions.length}`;
}

function go(to) { ply = Math.max(0, Math.min(rec.actions.length, to)); show(); }

async function init() {
  try { rec = await api(`/api/records/${recordId}`); }
  catch (e) { $("status").textContent = e.message; return; }
  const tags = rec.tags || {};
  $("title").textContent = `Replay: ${tags.Event || "deal"}${tags.Deal ? " · deal " + tags.Deal : ""} · ${rec.names.join(", ")}`;
  $("dl-txt").href = `/api/records/${recordId}/download?format=txt`;
  $("dl-json").href = `/api/records/${recordId}/download?format=json`;
  $("ply").max = rec.actions.length;
  spots(rec.names.length);
  $("ply").addEventListener("input", (e) => go(+e.target.value));
  $("first").onclick = () => go(0); $("last").onclick = () => go(rec.actions.length);
  $("prev").onclick = () => go(ply - 1); $("next").onclick = () => go(ply + 1);
  $("auto").onclick = () => {
    if (timer) { clearInterval(timer); timer = null; $("auto").textContent = "Autoplay"; return; }
    $("auto").textContent = "Stop";
    timer = setInterval(() => { if (ply >= rec.actions.length) { $("auto").click(); } else go(ply + 1); }, 700);
  };
  document.addEventListener("keydown", (e) => {
    if (e.key === "ArrowRight") go(ply + 1); else if (e.key === "ArrowLeft") go(ply - 1);
    else if (e.key === "Home") go(0); else if (e.key === "End") go(rec.actions.length);
  });
  show();
}
init();
