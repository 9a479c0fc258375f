// Where the seats sit around the felt, shared by the table and the replay.
// Seats go counter-clockwise in seat order: seat + 1 is on your right (the
// next to play counter-clockwise; clockwise play goes to your left).
import {el} from "./dom.js";

// The spot of each other seat (rel 1 .. n-1), counter-clockwise from your right.
// Up to 4 players: right, top, left; 5 to 8: a ring of right/left sides (high and
// low with 7 or 8) and a top row of two or three.
const SPOTS = {
  2: ["top"], 3: ["right", "left"], 4: ["right", "top", "left"],
  5: ["r", "tr", "tl", "l"], 6: ["r", "tr", "t", "tl", "l"],
  7: ["rl", "rh", "tr", "tl", "lh", "ll"], 8: ["rl", "rh", "tr", "t", "tl", "lh", "ll"],
};
export function posClass(rel, n) { return rel === 0 ? "bottom" : SPOTS[n][rel - 1]; }

// A seat's place relative to the viewer's (0: the viewer, at the bottom).
export function relPos(seat, me, n) { return (seat - (me === null ? 0 : me) + n) % n; }

// Make the felt hold exactly n - 1 other spots (#pos-1 …) before *before*, and
// class each: "seat-spot pos-right" and so on. Returns the spots by rel.
export function layoutSpots(felt, n, before) {
  felt.classList.toggle("many", n > 4);
  felt.dataset.players = n;
  const spots = [...felt.querySelectorAll(":scope > .seat-spot")];
  for (let p = spots.length + 1; p < n; p++) {
    const spot = el("div", {class: "seat-spot", id: "pos-" + p});
    felt.insertBefore(spot, before);
    spots.push(spot);
  }
  spots.forEach((s, i) => { if (i + 1 >= n) s.remove(); });
  const out = [];
  for (let rel = 1; rel < n; rel++) {
    const spot = document.getElementById("pos-" + rel);
    spot.className = "seat-spot pos-" + posClass(rel, n);
    out[rel] = spot;
  }
  return out;
}
