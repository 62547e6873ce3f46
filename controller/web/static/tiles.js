// Tile faces drawn as inline SVG by this project (no web font, no network: the Pi has no
// Chinese font). Character tiles show the Chinese numeral over 萬, winds and dragons their
// characters, each stroke drawn here as a path; a small index letter sits in the corner as on
// many sets. The order and the names of the tiles come from the service (GET /api/tiles, from
// controller/tiles.py), never from a copy in this file.
// tile("5b") -> an element; tile(null, {back: true}) -> a face-down tile. Codes as RULES.md.
"use strict";

import { lang, t, term, tn } from "./i18n.js";

const NS = "http://www.w3.org/2000/svg";
const RED = "#b3261e", GREEN = "#1f7a3a", BLUE = "#1d3f8f", INK = "#1b1b1b";

// The tile set as the service has it: {order: [...codes], names: {code: "5 bamboo"}, groups}.
let SET = { order: [], names: {}, groups: {} };
try {
  const res = await fetch("/api/tiles", { headers: { Accept: "application/json" } });
  if (res.ok) SET = await res.json();
} catch (_) { /* the service is restarting: codes are shown as names until the next load */ }
export const TILE_SET = SET;

// Strokes on a 100 x 100 box: the Chinese numerals 一..九, 萬, the winds 東南西北, 中 and 發.
const STROKES = {
  1: ["M8 52H92"],
  2: ["M22 30H78", "M8 72H92"],
  3: ["M20 18H80", "M26 50H74", "M8 84H92"],
  4: ["M14 20V88", "M14 20H86V88", "M14 86H86", "M40 22C40 48 34 60 24 66", "M60 22V56C60 62 64 64 70 64H84"],
  5: ["M14 14H86", "M46 14L38 86", "M22 48H72V88", "M8 88H92"],
  6: ["M44 4L56 20", "M8 36H92", "M38 52L16 90", "M62 52L86 88"],
  7: ["M8 52L92 36", "M40 6V76C40 86 46 90 56 90H90V74"],
  8: ["M40 16C40 52 30 74 8 90", "M58 16C62 56 74 76 94 88"],
  9: ["M42 6V40C40 66 28 82 8 92", "M10 36H66V80C66 88 72 92 80 92H94V76"],
  wan: ["M8 14H92", "M32 2V26", "M68 2V26", "M22 32H78V56H22Z", "M50 32V56", "M22 44H78",
    "M12 64V98", "M12 64H88V90C88 98 82 98 76 96", "M50 58V84", "M30 90L46 74L68 86"],
  ew: ["M8 26H92", "M50 4V98", "M22 38H78V66H22Z", "M22 52H78", "M46 68C38 80 26 88 8 94", "M54 68C62 80 74 88 92 94"],
  sw: ["M8 16H92", "M50 2V30", "M16 34V98", "M16 34H84V90C84 98 78 98 72 96", "M34 44L44 56", "M66 44L56 56",
    "M28 62H72", "M26 76H74", "M50 62V96"],
  ww: ["M6 12H94", "M16 30V94", "M16 30H84V94", "M16 92H84", "M40 12V48C40 58 32 66 18 72", "M60 12V62C60 68 64 70 84 70"],
  nw: ["M36 6V92", "M8 42H36", "M6 86L36 72", "M64 6V82C64 90 68 94 76 94H94V78", "M64 46L92 28"],
  rd: ["M14 30V68", "M14 30H86V68", "M14 66H86", "M50 2V98"],
  gd: ["M10 14L32 10L24 26", "M20 18L40 34", "M62 6L68 18", "M56 20H88", "M70 20L92 40", "M58 34L40 42",
    "M10 50H40V64H14V78H40V90C40 98 34 98 26 94", "M58 46V58C58 62 60 64 64 64H82V48",
    "M54 72H88C80 84 68 92 52 98", "M60 76C68 86 78 92 94 96"],
};
const INDEX = { ew: "E", sw: "S", ww: "W", nw: "N" };
// Pip positions on a 30 x 40 face, as on real tiles, with the colours most sets use.
const PIPS = {
  1: [[15, 20]], 2: [[15, 11], [15, 29]], 3: [[8, 9], [15, 20], [22, 31]],
  4: [[9, 11], [21, 11], [9, 29], [21, 29]], 5: [[8, 9], [22, 9], [15, 20], [8, 31], [22, 31]],
  6: [[9, 9], [21, 9], [9, 20], [21, 20], [9, 31], [21, 31]],
  7: [[7, 7], [15, 10], [23, 13], [9, 24], [21, 24], [9, 33], [21, 33]],
  8: [[9, 6], [21, 6], [9, 15], [21, 15], [9, 25], [21, 25], [9, 34], [21, 34]],
  9: [[7, 8], [15, 8], [23, 8], [7, 20], [15, 20], [23, 20], [7, 32], [15, 32], [23, 32]],
};
const DOT_COLOURS = {
  2: [GREEN, BLUE], 3: [BLUE, RED, GREEN], 4: [BLUE, GREEN, GREEN, BLUE], 5: [BLUE, GREEN, RED, GREEN, BLUE],
  6: [GREEN, GREEN, RED, RED, RED, RED], 7: [GREEN, GREEN, GREEN, RED, RED, RED, RED],
  8: Array(8).fill(BLUE), 9: [BLUE, BLUE, BLUE, RED, RED, RED, GREEN, GREEN, GREEN],
};

function el(name, attrs, parent) {
  const node = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
  if (parent) parent.appendChild(node);
  return node;
}

function text(svg, x, y, size, fill, content, anchor = "middle") {
  const t = el("text", {
    x, y, "font-size": size, fill, "text-anchor": anchor, "dominant-baseline": "central",
    "font-family": "DejaVu Sans, Arial, sans-serif", "font-weight": "bold",
  }, svg);
  t.textContent = content;
  return t;
}

/** Draw a character's strokes into the box (x, y, w, h) of the 30 x 40 face. */
function strokes(svg, key, x, y, w, h, colour, weight = 9) {
  const g = el("g", {
    transform: `translate(${x} ${y}) scale(${w / 100} ${h / 100})`, fill: "none", stroke: colour,
    "stroke-width": weight, "stroke-linecap": "round", "stroke-linejoin": "round",
  }, svg);
  for (const d of STROKES[key]) el("path", { d }, g);
}

function index(svg, label, colour) {
  text(svg, 2.4, 5.6, 6, colour || INK, label, "start");
}

function bambooStick(svg, x, y, colour, angle = 0) {
  const g = el("g", { transform: `rotate(${angle} ${x} ${y})` }, svg);
  el("rect", { x: x - 1.9, y: y - 5, width: 3.8, height: 10, rx: 1.6, fill: colour }, g);
  el("line", { x1: x - 1.9, x2: x + 1.9, y1: y, y2: y, stroke: "#fbf7ea", "stroke-width": 0.8 }, g);
  el("line", { x1: x, x2: x, y1: y - 3.8, y2: y + 3.8, stroke: "#ffffff66", "stroke-width": 0.6 }, g);
}

function bird(svg) {
  el("path", { d: "M9 36 L15 26 L21 36 M12 37 L15 27 L18 37", stroke: RED, "stroke-width": 1.3, fill: "none" }, svg);
  el("ellipse", { cx: 15, cy: 21, rx: 6, ry: 7.5, fill: GREEN }, svg);
  el("path", { d: "M11 19 C14 17 18 20 19 25 C16 24 13 23 11 19 Z", fill: "#7fbf6a" }, svg);
  el("circle", { cx: 15, cy: 10.5, r: 3.6, fill: RED }, svg);
  el("path", { d: "M18 10 L22.5 11 L18 12.2 Z", fill: "#c98a00" }, svg);
  el("circle", { cx: 16, cy: 10, r: 0.9, fill: "#fff" }, svg);
}

function drawBamboo(svg, n) {
  if (n === 1) return bird(svg);
  const red = (i) => (n === 5 && i === 2) || (n === 7 && i === 0) || (n === 9 && i % 3 === 1);
  if (n === 8) {  // the M over the W of the eight of bamboo
    const at = [[8, 11, 25], [13, 11, -25], [17, 11, 25], [22, 11, -25], [8, 29, -25], [13, 29, 25], [17, 29, -25], [22, 29, 25]];
    for (const [x, y, a] of at) bambooStick(svg, x, y, GREEN, a);
    return;
  }
  PIPS[n].forEach(([x, y], i) => bambooStick(svg, x, y, red(i) ? RED : n === 2 || n === 4 ? (i % 3 ? BLUE : GREEN) : GREEN));
}

function drawDots(svg, n) {
  if (n === 1) {
    el("circle", { cx: 15, cy: 21, r: 11, fill: "none", stroke: GREEN, "stroke-width": 2 }, svg);
    el("circle", { cx: 15, cy: 21, r: 7.5, fill: "none", stroke: BLUE, "stroke-width": 2.4, "stroke-dasharray": "2.2 1.4" }, svg);
    el("circle", { cx: 15, cy: 21, r: 4, fill: RED }, svg);
    el("circle", { cx: 15, cy: 21, r: 1.6, fill: "#fbf7ea" }, svg);
    return;
  }
  const r = n >= 7 ? 3.7 : n >= 4 ? 4.3 : 5;
  PIPS[n].forEach(([x, y], i) => {
    const c = DOT_COLOURS[n][i];
    el("circle", { cx: x, cy: y, r, fill: "none", stroke: c, "stroke-width": 1.5 }, svg);
    el("circle", { cx: x, cy: y, r: r * 0.45, fill: c }, svg);
  });
}

function drawCharacters(svg, n) {
  index(svg, String(n), RED);
  strokes(svg, n, 7.5, 3.5, 15, 14, INK, 11);
  strokes(svg, "wan", 6.5, 20, 17, 17, RED, 9);
}

function drawBonus(svg, n, flower) {
  const colour = flower ? "#b0337a" : "#c05a00";
  index(svg, String(n), colour);
  if (flower) {
    for (let k = 0; k < 5; k++) {
      const a = (k * 72 - 90) * Math.PI / 180;
      el("circle", { cx: 15 + 5 * Math.cos(a), cy: 17 + 5 * Math.sin(a), r: 3.6, fill: colour }, svg);
    }
    el("circle", { cx: 15, cy: 17, r: 2.4, fill: "#f2c14e" }, svg);
  } else {
    el("circle", { cx: 15, cy: 17, r: 5, fill: colour }, svg);
    for (let k = 0; k < 8; k++) {
      const a = k * 45 * Math.PI / 180;
      el("line", { x1: 15 + 7 * Math.cos(a), y1: 17 + 7 * Math.sin(a), x2: 15 + 10 * Math.cos(a), y2: 17 + 10 * Math.sin(a),
        stroke: colour, "stroke-width": 1.6, "stroke-linecap": "round" }, svg);
    }
  }
  text(svg, 15, 33.5, 6, "#444", flower ? "FLOWER" : "SEASON"); // the tile's own print
}

function drawHonour(svg, code) {
  if (INDEX[code]) {
    index(svg, INDEX[code], INK);
    strokes(svg, code, 5.5, 8, 19, 26, INK, 8.5);
  } else if (code === "rd") {
    strokes(svg, "rd", 6, 6, 18, 28, RED, 10);
  } else if (code === "gd") {
    strokes(svg, "gd", 5, 7, 20, 26, GREEN, 7.5);
  } else if (code === "wd") {
    el("rect", { x: 6, y: 7, width: 18, height: 26, rx: 1.5, fill: "none", stroke: BLUE, "stroke-width": 2.2 }, svg);
    el("rect", { x: 9.5, y: 10.5, width: 11, height: 19, fill: "none", stroke: BLUE, "stroke-width": 1 }, svg);
  }
}

function drawFace(svg, code) {
  const n = Number(code[0]), s = code[1];
  if (code.length !== 2 || STROKES[code] || code === "wd") return drawHonour(svg, code);
  // Pips leave the top-left corner to the index, as on sets that print one.
  const pips = () => el("g", { transform: "translate(3.4 3.6) scale(0.87 0.89)" }, svg);
  if (s === "b") { index(svg, String(n), GREEN); return drawBamboo(n === 1 ? svg : pips(), n); }
  if (s === "d") { index(svg, String(n), BLUE); return drawDots(n === 1 ? svg : pips(), n); }
  if (s === "c") return drawCharacters(svg, n);
  if (s === "f" || s === "s") return drawBonus(svg, n, s === "f");
  return text(svg, 15, 20, 10, INK, code);
}

/** The tile in words, as the service names it (GET /api/tiles). */
export function tileName(code) {
  if (!code) return t("face-down tile");
  return SET.names[code] ? term(SET.names[code]) : code;
}

/** A tile element: code like "5b", or null with {back: true} for a face-down tile. */
export function tile(code, opts = {}) {
  const back = opts.back || !code;
  const wrap = document.createElement("span");
  wrap.className = "tile" + (back ? " back" : "") + (opts.cls ? " " + opts.cls : "");
  const label = back ? t("face-down tile") : `${code}: ${tileName(code)}`;
  wrap.title = label;
  wrap.setAttribute("role", "img");
  wrap.setAttribute("aria-label", label);
  if (!back) wrap.dataset.tile = code;
  const svg = el("svg", { viewBox: "0 0 30 40", "aria-hidden": "true" });
  el("rect", { x: 0.5, y: 0.5, width: 29, height: 39, rx: 3.5, class: "face" }, svg);
  if (!back) drawFace(svg, code);
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
  n.title = tn("{n} concealed tile", "{n} concealed tiles", count);
  row.appendChild(n);
  return row;
}

/** Tiles in the service's order: bamboo, characters, dots, winds, dragons, bonus tiles. */
export function sortTiles(codes) {
  const at = (c) => { const i = SET.order.indexOf(c); return i < 0 ? 999 : i; };
  return [...codes].sort((a, b) => at(a) - at(b) || (a < b ? -1 : a > b ? 1 : 0));
}

/** A tile's name as words are written: "North Wind", "5 Bamboo". */
export function tileWords(code) {
  const name = tileName(code);
  return lang() === "en" ? name.replace(/\b[a-z]/g, (c) => c.toUpperCase()) : name;
}

// The tile codes in a sentence (as controller/game/privacy.py finds them).
// (Letters of any script around it make it part of a word: "dîšçárd" holds no rd.)
const TILE_CODE = /(?<![\p{L}\p{N}])([1-9][bcd]|[eswn]w|[rgw]d|[1-4][fs])(?![\p{L}\p{N}])/gu;

/** A sentence with each tile code shown as its face and name ("took the discard 🀃 North
 *  Wind"): the page's words never show a code. */
export function saying(text) {
  const span = document.createElement("span");
  let at = 0;
  for (const m of String(text).matchAll(TILE_CODE)) {
    if (!SET.names[m[1]]) continue;
    span.append(text.slice(at, m.index), tile(m[1], { cls: "inline" }), " " + tileWords(m[1]));
    at = m.index + m[0].length;
  }
  span.append(String(text).slice(at));
  return span;
}
