// The duplicate replay on the replay page: the same cards dealt again with the strongest
// bot (expert) in the chosen seat and the table's bots in the others. It shows both
// scores side by side, the expert's own deal, and the seat's decisions where the expert,
// asked in that very position, plays otherwise; each of those steps the replay there.
import {$, api, el} from "./dom.js";
import {textCards} from "./cards.js";
import {t} from "./i18n.js";

let result = null, busy = false, names = [], recordId = null, goTo = () => {};

function signed(v) { return (v >= 0 ? "+" : "") + v; }

// Set up the duplicate for record *id* of players *players*; *go(ply)* steps the replay.
// The seat is the review's (one choice for both).
export function setupDuplicate(id, players, go) {
  recordId = id; names = players; goTo = go;
  $("duplicate-btn").onclick = run;
  drawDuplicate();
}

async function run() {
  if (busy) return;
  busy = true; result = null;
  drawDuplicate();
  try {
    result = await api(`/api/records/${recordId}/duplicate`,
                       {method: "POST", body: {seat: +$("review-seat").value}});
  } catch (e) { result = {error: e.message}; }
  busy = false;
  drawDuplicate();
  $("duplicate-status").scrollIntoView({block: "start", behavior: "smooth"});
}

export function drawDuplicate() {
  $("duplicate-btn").disabled = busy;
  $("duplicate-btn").textContent = busy ? t("duplicating") : t("duplicate");
  const status = $("duplicate-status"), list = $("duplicate-list"), deal = $("duplicate-deal");
  list.replaceChildren();
  deal.replaceChildren();
  deal.hidden = true;
  status.classList.remove("error-text");
  if (busy) { status.textContent = t("duplicateWait"); return; }
  if (!result) { status.textContent = t("duplicateAbout"); return; }
  if (result.error) {
    status.textContent = result.error;
    status.classList.add("error-text");
    return;
  }
  const who = names[result.seat];
  status.textContent = t("duplicateSummary", who, signed(result.original), signed(result.replayed),
                         result.differences.length, result.decisions)
    + " · " + t("duplicateBy", result.bot);
  for (const d of result.differences) {
    const li = el("li", {"data-ply": d.ply, class: "differs", tabindex: 0, role: "button",
                         title: t("reviewGo")},
      el("span", {class: "r-ply", text: d.ply + "."}),
      el("span", {class: "r-made"}, textCards(d.made, t("pass"))),
      el("span", {class: "r-best"}, t("duplicateExpert") + " ", textCards(d.expert, t("pass"))));
    const go = () => goTo(d.ply);
    li.addEventListener("click", go);
    li.addEventListener("keydown", (e) => {
      if (e.key === "Enter" || e.key === " ") { e.preventDefault(); go(); }
    });
    list.append(li);
  }
  deal.hidden = false;
  deal.append(el("summary", {text: t("duplicateDeal")}),
    el("ol", {class: "duplicate-actions"}, ...result.actions.map(([seat, cards]) =>
      el("li", {}, el("b", {text: (seat === result.seat ? "expert" : names[seat]) + ": "}),
         textCards(cards, t("pass"))))));
}
