// Quick reactions at a friends' table: four fixed ones (never free text), sent to the
// server, which rate-limits them and shows them to everyone as a bubble at the seat.
import {$, el, icon} from "./dom.js";
import {t} from "./i18n.js";
import {S, you} from "./tablestate.js";

export const EMOTES = {thumbs: "👍", wow: "😮", laugh: "😂", gg: "GG"};
// 👍 is drawn (many systems without a colour emoji font have no glyph for it; the
// faces are in common fonts such as DejaVu Sans)
const THUMB = ["M2 21h4V9H2v12zm21-10c0-1.1-.9-2-2-2h-6.3l1-4.6v-.3c0-.4-.2-.8-.4-1.1L14.2 2 "
  + "7.6 8.6C7.2 9 7 9.5 7 10v9c0 1.1.9 2 2 2h9c.8 0 1.5-.5 1.8-1.2l3-7c.1-.2.2-.5.2-.8v-1z"];
function face(key) {
  return key === "thumbs" ? el("span", {class: "face", "data-face": EMOTES[key]}, icon(THUMB))
    : el("span", {class: "face", text: EMOTES[key]});
}
const SHOW_MS = 3000;  // how long a bubble stays
const shown = new Map();  // seat -> {reaction, until}

// Whether you sit at a table with another person (bots get no reactions).
export function friendsTable() {
  const st = S.state;
  return !!st && you() !== null && st.table.seats.some((s, i) => i !== you() && !s.bot);
}

// The row of reaction buttons under your hand, shown at a friends' table.
export function renderReactions() {
  const bar = $("reactions");
  bar.classList.toggle("hidden", !friendsTable());
  bar.setAttribute("aria-label", t("reactions"));
  if (bar.childElementCount) return;
  for (const key of Object.keys(EMOTES)) {
    bar.append(el("button", {class: "react", "data-reaction": key, title: t("react_" + key),
      "aria-label": t("react_" + key), onclick: () => S.send({type: "react", reaction: key})},
      face(key)));
  }
}

// A reaction from the server: shown at its seat for a while (*redraw* draws the seats).
export function onReaction(msg, redraw) {
  if (!Object.hasOwn(EMOTES, msg.reaction)) return;  // only the fixed set is ever drawn
  shown.set(msg.seat, {reaction: msg.reaction, until: performance.now() + SHOW_MS});
  redraw();
  setTimeout(redraw, SHOW_MS + 50);
}

// The bubble for *seat*'s last reaction, or null when it has gone.
export function bubbleEl(seat) {
  const b = shown.get(seat);
  if (!b || performance.now() > b.until) return null;
  return el("div", {class: "bubble", "data-reaction": b.reaction, role: "status",
                    "aria-label": t("react_" + b.reaction)}, face(b.reaction));
}
