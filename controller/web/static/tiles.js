// Tile pictures drawn as inline SVG (no web fonts needed: the Pi has no mahjong glyph font).
// tile("5b") -> an element; tile(null, {back: true}) -> a face-down tile. Codes as RULES.md.
"use strict";

const NS = "http://www.w3.org/2000/svg";
const SUIT_COLOURS = { b: "#1f7a3a", c: "#1d3f8f", d: "#b3261e" };
const WIND_LETTERS = { ew: "E", sw: "S", ww: "W", nw: "N" };
const NAMES = {
  b: "bamboo", c: "characters", d: "dots", ew: "east wind", sw: "south wind", ww: "west wind",
  nw: "north wind", rd: "red dragon", gd: "green dragon", wd: "white dragon",
  f: ["plum", "orchid", "chrysanthemum", "bamboo"], s: ["spring", "summer", "autumn", "winter"],
};
// Pip positions on a 30 x 40 face, as on real tiles.
const PIPS = {
  1: [[15, 20]], 2: [[15, 11], [15, 29]], 3: [[8, 9], [15, 20], [22, 31]],
  4: [[9, 11], [21, 11], [9, 29], [21, 29]], 5: [[8, 9], [22, 9], [15, 20], [8, 31], [22, 31]],
  6: [[9, 9], [21, 9], [9, 20], [21, 20], [9, 31], [21, 31]],
  7: [[7, 7], [15, 10], [23, 13], [9, 24], [21, 24], [9, 33], [21, 33]],
  8: [[9, 6], [21, 6], [9, 15], [21, 15], [9, 25], [21, 25], [9, 34], [21, 34]],
  9: [[7, 8], [15, 8], [23, 8], [7, 20], [15, 20], [23, 20], [7, 32], [15, 32], [23, 32]],
};

function el(name, attrs, parent) {
  const node = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
  if (parent) parent.appendChild(node);
  return node;
}

function text(svg, x, y, size, fill, content, weight) {
  const t = el("text", {
    x, y, "font-size": size, fill, "text-anchor": "middle", "dominant-baseline": "central",
    "font-family": "DejaVu Sans, Arial, sans-serif", "font-weight": weight || "bold",
  }, svg);
  t.textContent = content;
  return t;
}

function tileName(code) {
  if (!code) return "face-down tile";
  const n = code[0], s = code[1];
  if (NAMES[code]) return NAMES[code];
  if (s === "f" || s === "s") return `${NAMES[s][Number(n) - 1]} (${s === "f" ? "flower" : "season"} ${n})`;
  return `${n} ${NAMES[s]}`;
}

function drawFace(svg, code) {
  const n = Number(code[0]), s = code[1];
  if (s === "d") {
    const r = n === 1 ? 9 : n >= 7 ? 3.6 : 4.3;
    for (const [x, y] of PIPS[n]) {
      el("circle", { cx: x, cy: y, r, fill: "none", stroke: SUIT_COLOURS.d, "stroke-width": 1.6 }, svg);
      el("circle", { cx: x, cy: y, r: r * 0.42, fill: n % 2 ? SUIT_COLOURS.d : "#1d3f8f" }, svg);
    }
  } else if (s === "b") {
    if (n === 1) {
      el("path", { d: "M15 6 C7 12 7 26 15 34 C23 26 23 12 15 6 Z", fill: SUIT_COLOURS.b }, svg);
      el("circle", { cx: 15, cy: 14, r: 2.2, fill: "#b3261e" }, svg);
    } else {
      for (const [x, y] of PIPS[n]) {
        el("rect", { x: x - 1.8, y: y - 4.5, width: 3.6, height: 9, rx: 1.4,
          fill: n % 3 === 0 && y === 20 ? "#b3261e" : SUIT_COLOURS.b }, svg);
      }
    }
  } else if (s === "c") {
    text(svg, 15, 15, 20, SUIT_COLOURS.c, String(n));
    text(svg, 15, 32, 8.5, "#b3261e", "CHAR");
  } else if (s === "f" || s === "s") {
    text(svg, 15, 15, 17, s === "f" ? "#b0337a" : "#c05a00", s === "f" ? "\u273F" : "\u2600", "normal");
    text(svg, 15, 32, 10, "#333", `${s === "f" ? "F" : "S"}${n}`);
  }
}

function drawHonour(svg, code) {
  if (WIND_LETTERS[code]) {
    text(svg, 15, 17, 22, "#1b1b1b", WIND_LETTERS[code]);
    text(svg, 15, 34, 7, "#555", "WIND");
  } else if (code === "rd") {
    el("rect", { x: 8, y: 10, width: 14, height: 12, fill: "none", stroke: "#b3261e", "stroke-width": 2.6 }, svg);
    el("rect", { x: 13.6, y: 5, width: 2.8, height: 30, fill: "#b3261e" }, svg);
  } else if (code === "gd") {
    text(svg, 15, 19, 22, "#1f7a3a", "G");
    el("path", { d: "M7 33 Q15 28 23 33", stroke: "#1f7a3a", "stroke-width": 2, fill: "none" }, svg);
  } else if (code === "wd") {
    el("rect", { x: 6, y: 7, width: 18, height: 26, rx: 1.5, fill: "none", stroke: "#1d3f8f", "stroke-width": 2.2 }, svg);
    el("rect", { x: 9.5, y: 10.5, width: 11, height: 19, fill: "none", stroke: "#1d3f8f", "stroke-width": 1 }, svg);
  }
}

/** A tile element: code like "5b", or null with {back: true} for a face-down tile. */
export function tile(code, opts = {}) {
  const wrap = document.createElement("span");
  wrap.className = "tile" + (opts.back || !code ? " back" : "") + (opts.cls ? " " + opts.cls : "");
  const label = opts.back || !code ? "face-down tile" : `${code}: ${tileName(code)}`;
  wrap.title = label;
  wrap.setAttribute("role", "img");
  wrap.setAttribute("aria-label", label);
  const svg = el("svg", { viewBox: "0 0 30 40", "aria-hidden": "true" });
  el("rect", { x: 0.5, y: 0.5, width: 29, height: 39, rx: 3.5, class: "face" }, svg);
  if (!(opts.back || !code)) {
    if (WIND_LETTERS[code] || code[1] === "d" && code.length === 2 && "rgw".includes(code[0])) drawHonour(svg, code);
    else drawFace(svg, code);
  }
  wrap.appendChild(svg);
  return wrap;
}

/** A row of tiles in a span. */
export function tiles(codes, opts = {}) {
  const row = document.createElement("span");
  row.className = "tiles" + (opts.rowCls ? " " + opts.rowCls : "");
  for (const c of codes) row.appendChild(tile(c, opts));
  return row;
}

/** Face-down tiles: up to `show` backs and the count. */
export function backs(count, show = 14) {
  const row = document.createElement("span");
  row.className = "tiles backs";
  for (let i = 0; i < Math.min(count, show); i++) row.appendChild(tile(null, { back: true }));
  const n = document.createElement("span");
  n.className = "count";
  n.textContent = `${count}`;
  n.title = `${count} concealed tiles`;
  row.appendChild(n);
  return row;
}

const ORDER = ["b", "c", "d"];
const HONOURS = ["ew", "sw", "ww", "nw", "rd", "gd", "wd"];
/** Tiles in the usual order: bamboo, characters, dots, winds, dragons, bonus tiles. */
export function sortTiles(codes) {
  const key = (c) => {
    if (HONOURS.includes(c)) return 100 + HONOURS.indexOf(c);
    if (c[1] === "f" || c[1] === "s") return 200 + (c[1] === "s" ? 10 : 0) + Number(c[0]);
    return ORDER.indexOf(c[1]) * 10 + Number(c[0]);
  };
  return [...codes].sort((a, b) => key(a) - key(b));
}

export { tileName };
