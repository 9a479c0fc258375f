// The panel over the felt: waiting for players, taking a seat, and the deal's
// end (every hand face up, each score explained, the next deal's countdown).
import {$, api, el, playerName, saveSeat, savedSeat} from "./dom.js";
import {cardEl} from "./cards.js";
import {t} from "./i18n.js";
import {S, fmt, game, nameOf, you} from "./tablestate.js";

// Why a seat scored what it did, from big2.scoring.explain's fields, in plain words:
// "10 cards left · counted ×2: 10 or more of the 13 cards still in hand · doubled for
// holding a 2" (How to play's Scoring section has the rules).
// Under teams (*side*: the cards left on this seat's side and on the other) the seat's
// own cards left and the sides' counts, which decide the score.
export function scoreWhy(line, side) {
  if (side) {
    return [line.left === 0 ? t("sWentOut") : line.left === 1 ? t("sOneCard")
      : t("sCards", line.left),
            t("sTeams", side[0], side[1])].join(" · ");
  }
  if (line.adjusted) return t("sAdjusted", line.adjusted.replaceAll("-", " "));
  if (line.method === "ranking") return t("sPlace", (line.place || 0) + 1);
  if (line.collects.length) return t("sCollects", line.collects.join(" + "));
  if (line.left === 0) return t("sWentOut");
  const parts = [line.left === 1 ? t("sOneCard") : t("sCards", line.left)];
  if (line.per_card === 3) parts.push(t("sWhole", line.whole));
  else if (line.per_card === 2) parts.push(t("sMost", Math.ceil(line.whole * 0.7), line.whole));
  if (line.method === "count" && line.twos) parts.push(t("sTwosCount", line.twos));
  if (line.method === "classic") {
    // repeated doublings said once: "×8 three 2s held"
    if (line.twos) parts.push(line.twos === 1 ? t("sTwo") : t("sTwos", 2 ** line.twos, line.twos));
    if (line.bombs) {
      parts.push(line.bombs === 1 ? t("sBomb") : t("sBombs", 2 ** line.bombs, line.bombs));
    }
    if (line.winning_play) parts.push(t(line.winning_play === "two" ? "sOnTwo" : "sOnBomb"));
  }
  return parts.join(" · ");
}

export function renderPanel(join) {
  const panel = $("panel"), st = S.state, tb = st.table, g = game();
  panel.replaceChildren();
  let show = false;
  if (tb.status === "waiting") {
    show = true;
    const link = location.origin + "/t/" + S.tableId;
    const copy = () => {
      if (navigator.clipboard) navigator.clipboard.writeText(link).catch(() => {});
      S.flash(t("linkCopied"));
    };
    panel.append(el("h2", {text: t("waitingDots")}), el("p", {text: t("shareLink")}),
      el("div", {class: "share"},
        el("input", {readonly: true, value: link, id: "share-link", "aria-label": t("shareLink")}),
        el("button", {onclick: copy, text: t("copy")})));
    if (you() !== null) {
      panel.append(el("p", {}, el("button", {class: "primary", id: "start-btn",
        text: t("startNow"), onclick: () => S.send({type: "start"})})));
    }
  }
  if (you() === null && tb.open.length) {
    show = true;
    const name = el("input", {id: "join-name", placeholder: t("yourName"), maxlength: 24,
                              value: playerName(), "aria-label": t("yourName")});
    const seats = el("div", {class: "seat-buttons"});
    for (const s of tb.open) {
      seats.append(el("button", {class: "primary join-seat", "data-seat": s,
        text: t("sitIn", s + 1), onclick: () => join(s, name.value)}));
    }
    panel.append(el("h2", {text: t("takeSeat")}), name, seats);
  }
  if (g && g.winner !== null && (tb.status === "between" || tb.status === "over")) {
    show = true;
    dealEnd(panel, g, tb.status === "over");
  }
  panel.classList.toggle("hidden", !show);
  panel.classList.toggle("end", show && !!(g && g.winner !== null));
}

// Partners sit opposite under the teams house rule (four players).
export function teams() { return !!(S.state.rules.options || {}).teams; }
const partnersOf = (s) => [s, (s + 2) % 4].sort((a, b) => a - b);

function dealEnd(panel, g, over) {
  const st = S.state, n = st.table.players;
  const sides = teams() && g.scores.some(v => v > 0);  // a tie goes to a shoot-out
  const won = sides ? partnersOf(g.scores.findIndex(v => v > 0)) : null;
  panel.append(el("h2", {text: over ? t("matchOver")
    : won ? t("sideWinsDeal", won.map(nameOf).join(t("and"))) : t("winsDeal", nameOf(g.winner))}));
  // one row per seat, best first: name, deal and total; the cards left face up
  // and why they scored what they did
  const list = el("div", {class: "result", role: "table"});
  list.append(el("div", {class: "result-row head", role: "row"},
    el("span", {class: "r-name", text: t("player")}),
    el("span", {class: "r-why", text: t("cardsLeft") + " · " + t("why")}),
    el("span", {class: "r-num", text: t("deal")}), el("span", {class: "r-num", text: t("total")})));
  const end = g.end;
  // best first: by the deal's score, or at the match's end by the totals, with each
  // seat's place (tied totals share one)
  const places = matchPlaces(st);
  const order = [...Array(n).keys()].sort(over ? (a, b) => places[a] - places[b]
    : (a, b) => g.scores[b] - g.scores[a]);
  for (const s of order) {
    const cards = end ? end.hands[s] : [];
    const reveal = el("div", {class: "reveal", "data-seat": s});
    for (const c of cards) reveal.append(cardEl(c, "tiny"));
    list.append(el("div", {class: "result-row" + (s === you() ? " mine" : ""), role: "row",
                           "data-seat": s},
      el("span", {class: "r-name"},
         over ? el("span", {class: "place", "data-place": places[s],
                            text: t("placeN", ordinal(places[s]), places[s])}) : null,
         over ? " " : null, nameOf(s)),
      el("div", {class: "r-why"}, cards.length ? reveal : null,
         el("span", {class: "why", text: end ? scoreWhy(end.lines[s], teams() ? sideLeft(end, s)
           : null) : ""})),
      el("span", {class: "r-num", text: fmt(g.scores[s])}),
      el("span", {class: "r-num", text: fmt(st.totals[s])})));
  }
  panel.append(list);
  if (over) {
    const first = [...Array(n).keys()].filter(s => places[s] === 1);
    const saved = savedSeat(S.tableId);
    const side = teams() && first.length === 2 && first[1] === (first[0] + 2) % 4;
    const result = first.length === 1 ? t("winsMatch", nameOf(first[0]))
      : side ? t("sideWinsMatch", first.map(nameOf).join(t("and")))
      : t("tieMatch", first.map(nameOf).join(t("and")), fmt(st.totals[first[0]]));
    panel.append(el("p", {class: "match-result", text: result}),
      el("p", {class: "next-row"},
        you() !== null && saved ? el("button", {class: "primary", id: "rematch-btn",
          text: t("rematch"), onclick: () => rematch(saved.token)}) : null,
        el("a", {href: "/", class: "button", text: t("backToLobby")})));
  } else if (you() !== null) {
    const me = st.table.seats[you()];
    panel.append(el("p", {class: "next-row"}, el("button", {class: "primary", id: "next-btn",
      disabled: me.ready, text: me.ready ? t("waitingOthers") : t("nextDeal") + " (N)",
      onclick: () => S.send({type: "next"})}), " ", el("span", {class: "next-in"})));
  } else {
    panel.append(el("p", {class: "next-row"}, el("span", {class: "next-in"})));
  }
}

// The cards left on seat *s*'s side and on the other side at the deal's end.
function sideLeft(end, s) {
  const left = (x) => end.lines[x].left + end.lines[(x + 2) % 4].left;
  return [left(s), left((s + 1) % 4)];
}

// Each seat's place in the match by total, 1 the best; tied totals share a place
// (the server sends them; a state stored before it did is worked out the same way).
export function matchPlaces(st) {
  return st.places || st.totals.map(v => 1 + st.totals.filter(x => x > v).length);
}

// 1st, 2nd, 3rd, 4th… (English; the Chinese form takes the number).
function ordinal(n) {
  const teen = n % 100 >= 11 && n % 100 <= 13;
  return n + (teen ? "th" : ({1: "st", 2: "nd", 3: "rd"}[n % 10] || "th"));
}

// The other seats' remaining cards face up in their spots (the deal is over).
export function revealEl(seat) {
  const g = game();
  if (!g || !g.end || !g.end.hands[seat].length) return null;
  const row = el("div", {class: "reveal", "data-seat": seat});
  for (const c of g.end.hands[seat]) row.append(cardEl(c, "mini-face"));
  return row;
}

// A new match with the same seats (the server makes it once; each player who asks
// takes their own seat in it) and off to it.
async function rematch(token) {
  const btn = $("rematch-btn");
  if (btn) btn.disabled = true;
  try {
    const r = await api(`/api/tables/${encodeURIComponent(S.tableId)}/rematch`,
                        {method: "POST", body: {token}});
    saveSeat(r.table, r.seat, r.token);
    location.href = "/t/" + encodeURIComponent(r.table);
  } catch (e) {
    S.flash(e.message, true);
    if (btn) btn.disabled = false;
  }
}
