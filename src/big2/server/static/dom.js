// DOM, fetch and storage helpers shared by the pages (ES module, no globals).

export const $ = (id) => document.getElementById(id);

// An element: attrs "class", "text", "onX" (listeners), others as attributes
// (null, undefined and false are left out; true is an empty attribute).
export function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  setAttrs(node, attrs);
  for (const c of children) if (c !== null && c !== undefined) node.append(c);
  return node;
}

function setAttrs(node, attrs) {
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") node.setAttribute("class", v);
    else if (k === "text") node.textContent = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v === true ? "" : v);
  }
}

// Put *nodes* in *parent* in place of its children unless they are the same markup as
// what is there: then the elements on the page stay (a new state that leaves a seat or
// your hand as it was draws nothing again: no layout, paint or card images redrawn, and
// their animations run on instead of starting over). Returns whether it replaced them.
export function replaceIfChanged(parent, ...nodes) {
  const box = document.createElement("div");
  box.append(...nodes);
  if (box.innerHTML === parent.innerHTML) return false;
  parent.replaceChildren(...box.childNodes);
  return true;
}

const SVG_NS = "http://www.w3.org/2000/svg";
// An inline SVG icon from path data (24 × 24 box), drawn in the text colour.
export function icon(paths, label) {
  const svg = document.createElementNS(SVG_NS, "svg");
  setAttrs(svg, {viewBox: "0 0 24 24", width: "20", height: "20", class: "icon",
                 "aria-hidden": label ? null : "true", role: label ? "img" : null});
  if (label) svg.append(Object.assign(document.createElementNS(SVG_NS, "title"),
                                      {textContent: label}));
  for (const d of paths) {
    const p = document.createElementNS(SVG_NS, "path");
    p.setAttribute("d", d);
    p.setAttribute("fill", "currentColor");
    svg.append(p);
  }
  return svg;
}

// The replay and autoplay icons (no font has U+23EE/U+23ED, so none is text).
export const ICONS = {
  first: ["M5 5h2.5v14H5z", "M19 5v14L8.5 12z"],
  last: ["M16.5 5H19v14h-2.5z", "M5 5v14l10.5-7z"],
  prev: ["M17 5v14L6 12z"],
  next: ["M7 5v14l11-7z"],
  prevTrick: ["M12 5v14L2 12z", "M22 5v14l-10-7z"],
  nextTrick: ["M2 5v14l10-7z", "M12 5v14l10-7z"],
  play: ["M7 4v16l13-8z"],
  pause: ["M6 4h4v16H6z", "M14 4h4v16h-4z"],
  link: ["M10.6 13.4a1 1 0 0 1 0-1.4l3.5-3.5a1 1 0 1 1 1.4 1.4L12 13.4a1 1 0 0 1-1.4 0z",
         "M8 11l1.4 1.4-2.8 2.8a2 2 0 0 0 2.8 2.8l2.8-2.8L13.6 16.6l-2.8 2.8a4 4 0 0 1-5.6-5.6z",
         "M16 13l-1.4-1.4 2.8-2.8a2 2 0 0 0-2.8-2.8L11.8 8.8 10.4 7.4l2.8-2.8a4 4 0 0 1 5.6 5.6z"],
};

// JSON over fetch; a refused request throws an Error with the server's reason.
export async function api(path, options) {
  const opts = Object.assign({headers: {"Content-Type": "application/json"}}, options || {});
  if (opts.body && typeof opts.body !== "string") opts.body = JSON.stringify(opts.body);
  const res = await fetch(path, opts);
  const data = await res.json().catch(() => ({}));
  if (!res.ok) {
    let msg = data.detail;
    if (Array.isArray(msg)) {
      msg = msg.map(d => `${(d.loc || []).slice(1).join(".")}: ${d.msg}`).join("; ");
    }
    throw new Error(msg || res.statusText);
  }
  return data;
}

// -- what the browser keeps: seat tokens, the player's name, settings --------------
function seatKey(tableId) { return "big2.seat." + tableId; }
export function savedSeat(tableId) {
  try { return JSON.parse(localStorage.getItem(seatKey(tableId)) || "null"); } catch (e) {
    return null;
  }
}
export function saveSeat(tableId, seat, token) {
  localStorage.setItem(seatKey(tableId), JSON.stringify({seat, token}));
}
export function forgetSeat(tableId) { localStorage.removeItem(seatKey(tableId)); }
export function playerName() { return localStorage.getItem("big2.name") || ""; }
export function setPlayerName(name) { localStorage.setItem("big2.name", name); }
export function setting(name, fallback) {
  const v = localStorage.getItem("big2." + name);
  return v === null ? fallback : JSON.parse(v);
}
export function setSetting(name, value) {
  localStorage.setItem("big2." + name, JSON.stringify(value));
}
