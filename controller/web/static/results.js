// End-of-hand and session panels: every hand with its explained score, payments, totals,
// the running balance chart (inline SVG) and per-player statistics.
"use strict";

import { h, num, signed, t, term, tn, WIND_NAMES, windWord } from "./common.js";
import { sortTiles, tiles } from "./tiles.js";
import { riichiResult, riichiTitle, thousands } from "./riichi.js";

/** How a Mahjong was won (the result's win_source) in words. */
export function sourceWord(source) {
  return { wall: t("self-drawn"), replacement: t("on a replacement tile"), dealt: t("dealt complete"),
    discard: t("on a discard"), robbed_kong: t("robbing a kong") }[source] || source || "";
}
const COLOURS = ["#e07a5f", "#3d85c6", "#81b29a", "#f2cc8f"];
const SVGNS = "http://www.w3.org/2000/svg";

function meldRow(melds) {
  return (melds || []).map((m) => tiles(m.tiles || [], { cls: m.concealed ? "hidden-kong" : "" }));
}

/** An mcr score as its players read it: each fan with its value, the total, flowers apart. */
function fanItems(score) {
  const fans = (score.items || []).filter((it) => it.name !== "Flower Tiles");
  const flowers = (score.items || []).find((it) => it.name === "Flower Tiles");
  const line = (it) => h("li", {}, h("span", { class: "item-name" }, term(it.name)),
    it.tiles && it.tiles.length ? tiles(it.tiles, { rowCls: "mini" }) : null,
    h("span", { class: "item-val" }, `${it.points}`));
  const base = fans.reduce((n, it) => n + it.points, 0);
  return h("div", { class: "score" }, h("ul", { class: "items" }, fans.map(line)),
    flowers ? h("ul", { class: "items flowers" }, line(flowers)) : null,
    h("div", { class: "formula" }, flowers
      ? t("{base} fans + {flowers} flowers = {score}", { base, flowers: flowers.points, score: num(score.score) })
      : tn("{n} fan", "{n} fans", score.score)));
}

function scoreItems(score) {
  if (!score) return null;
  if (score.unit === "fans") return fanItems(score);
  const items = (score.items || []).map((it) => h("li", {},
    h("span", { class: "item-name" }, term(it.name)),
    it.tiles && it.tiles.length ? tiles(it.tiles, { rowCls: "mini" }) : null,
    h("span", { class: "item-val" },
      it.points ? t("{n} pts", { n: it.points }) : "", it.doubles ? ` ${it.doubles}×2` : "")));
  return h("div", { class: "score" },
    h("ul", { class: "items" }, items),
    h("div", { class: "formula" }, score.limit_hand
      ? t("limit hand: {limit} = {score}", { limit: term(score.limit_hand), score: num(score.score) })
      : t("{points} points × 2^{doubles} = {score}", { points: score.points, doubles: score.doubles, score: num(score.score) })));
}

/** A player's concealed tiles: arranged into sets as scored when possible, else sorted. */
function handTiles(d) {
  const arrangement = (d.score && d.score.arrangement) || [];
  const exposed = new Set((d.melds || []).map((m) => [...m.tiles].sort().join()));
  const concealedGroups = arrangement.filter((g) => !exposed.delete([...g].sort().join()));
  const leftover = (d.score && d.score.leftover) || [];
  if (concealedGroups.length) {
    return [...concealedGroups.map((g) => tiles(g, { rowCls: "mini group" })),
      leftover.length ? tiles(sortTiles(leftover), { rowCls: "mini leftover" }) : null];
  }
  return tiles(sortTiles(d.hand || []), { rowCls: "mini" });
}

/** The explained result of one hand: every player's tiles and score, payments, nets. */
export function resultPanel(result, names, prefix = "", note = null) {
  if (!result) return null;
  // riichi: a live result carries details.riichi; a hand record (the history) its honba
  if ((result.details || {}).riichi || (result.honba ?? null) !== null) return riichiResult(result, names, prefix, note);
  const winner = result.winner;
  const how = result.win_source
    ? ` (${sourceWord(result.win_source)}${result.discarder
      ? ", " + t("discard of {who}", { who: names(result.discarder) }) : ""})` : "";
  const title = prefix + (result.result === "washout" ? t("Washout: no scores, same dealer")
    : t("Mahjong: {who}", { who: names(winner) }) + how);
  const seats = ["1", "2", "3", "4"].map((p) => {
    const d = (result.details || {})[p] || {};
    const score = (result.scores || {})[p] ?? 0;
    const net = (result.net || {})[p] ?? 0;
    return h("div", { class: "res-seat" + (String(winner) === p ? " winner" : "") },
      h("div", { class: "res-head" }, h("b", {}, names(p)),
        h("span", { class: "pill" }, num(score)), h("span", { class: net >= 0 ? "pos" : "neg" }, signed(net))),
      h("div", { class: "res-tiles" }, handTiles(d), meldRow(d.melds),
        d.bonus && d.bonus.length ? tiles(d.bonus, { rowCls: "mini" }) : null),
      scoreItems(d.score));
  });
  const pays = (result.payments || []).map((p) => h("li", {},
    t("{payer} pays {payee} {amount}", { payer: names(p.from), payee: names(p.to), amount: num(p.amount) })));
  return h("section", { class: "result" }, h("h2", {}, title), note ? h("div", { class: "res-note" }, note) : null,
    h("div", { class: "res-grid" }, seats),
    pays.length ? h("div", { class: "payments" }, h("h3", {}, t("Who pays whom")), h("ul", {}, pays)) : null);
}

/** The prevailing wind's round in words ("East round"). */
export function roundWord(wind) {
  return { east: t("East round"), south: t("South round"), west: t("West round"), north: t("North round") }[wind] || "";
}

/** A label the service gives an unnamed seat's holder ("Seat 2") in the page's words. */
export function seatWords(label) {
  const m = /^Seat ([1-4])$/.exec(label || "");
  return m ? t("Seat {n}", { n: m[1] }) : label;
}

const DASHES = ["", "9 4", "3 3", "12 4 3 4"];

/** Round-number ticks between lo and hi (about five). */
function ticks(lo, hi) {
  const raw = (hi - lo) / 4 || 1;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((k) => k * mag).find((k) => k >= raw) || raw;
  const out = [];
  for (let v = Math.ceil(lo / step) * step; v <= hi; v += step) out.push(Math.round(v) || 0);
  return out;
}

/**
 * Running balance per player after each hand, as an inline SVG line chart: hand numbers on
 * the x axis, values on the y axis; each line has its own colour and dash and is shifted a
 * little, so a line that runs along another is never hidden behind it.
 */
export function balanceChart(stats, names, base = 0) {
  // base: riichi's start points (30,000), the balance being points; else 0, the nets' sum
  const series = ["1", "2", "3", "4"].map((p) => [0, ...((stats[p] || {}).balance || [])].map((v) => base + v));
  const n = series[0].length;
  const W = 560, H = 240, left = base ? 60 : 48, right = 16, top = 10, bottom = 42;
  const all = series.flat();
  const lo = Math.min(base, ...all), hi = Math.max(base, ...all), span = hi - lo || 1;
  const x = (i) => left + (i * (W - left - right)) / Math.max(1, n - 1);
  const y = (v) => top + ((hi - v) * (H - top - bottom)) / span;
  const svg = document.createElementNS(SVGNS, "svg");
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  svg.setAttribute("class", "chart");
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", t("running balance per player after each hand"));
  const add = (name, attrs, content) => {
    const node = document.createElementNS(SVGNS, name);
    for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
    if (content !== undefined) node.textContent = content;
    svg.appendChild(node);
    return node;
  };
  for (const v of ticks(lo, hi)) {
    add("line", { x1: left, x2: W - right, y1: y(v), y2: y(v), class: v === base ? "axis zero" : "grid" });
    add("text", { x: left - 6, y: y(v) + 4, class: "tick", "text-anchor": "end" }, String(v));
  }
  const every = Math.max(1, Math.ceil((n - 1) / 12));
  for (let i = 0; i < n; i += every) {
    add("text", { x: x(i), y: H - bottom + 16, class: "tick hand-tick", "text-anchor": "middle" }, String(i));
  }
  add("text", { x: (left + W - right) / 2, y: H - 4, class: "tick", "text-anchor": "middle" }, t("hand"));
  series.forEach((s, k) => {
    const shift = (k - 1.5) * 2.2; // side by side where lines coincide
    const d = s.map((v, i) => `${i ? "L" : "M"}${x(i).toFixed(1)},${(y(v) + shift).toFixed(1)}`).join(" ");
    add("path", { d, fill: "none", stroke: COLOURS[k], "stroke-width": 3, "stroke-dasharray": DASHES[k],
      "stroke-linejoin": "round", class: `line seat${k + 1}` });
    s.forEach((v, i) => add("circle", { cx: x(i), cy: y(v) + shift, r: i === n - 1 ? 4.5 : 2.4, fill: COLOURS[k] }));
  });
  const legend = h("div", { class: "legend" }, ["1", "2", "3", "4"].map((p, k) =>
    h("span", {}, h("i", { style: `background:${COLOURS[k]}` }), names(p).split(" · ")[0],
      h("b", {}, ` ${base ? thousands(series[k][n - 1]) : signed(series[k][n - 1])}`))));
  return h("div", { class: "chart-box" }, svg, legend);
}

/** Who sits at seat ``p`` now and their score in the session (``seated`` of GET /api/hands:
 *  the one computation the club's cards use too), or null while it is not loaded or names
 *  another holder than ``name`` (the page reloads it). */
export function seatedNow(seated, p, name) {
  const now = (seated || {})[String(p)];
  if (!now) return null;
  const key = (x) => (x ? x.trim().toLowerCase() : null);
  return key(now.name) === key(name) ? now : null;
}

/** A seat's label for per-seat numbers (its chart line): its holders in turn when the holder
 *  changed ("Seat 1 → Ann Lee"), else ``fallback(p)``. */
export function seatHolders(places, fallback) {
  return (p) => {
    const place = (places || []).find((x) => x.seat === String(p));
    return place && place.holders.length > 1 ? place.holders.map((x) => seatWords(x.label)).join(" → ") : fallback(p);
  };
}

function numbers(part) {
  const n = part.numbers || [];
  if (!n.length) return t("no hand");
  const runs = [];
  for (const x of n) {
    const last = runs[runs.length - 1];
    if (last && x === last[1] + 1) last[1] = x; else runs.push([x, x]);
  }
  const list = runs.map(([a, b]) => (a === b ? `${a}` : `${a}–${b}`)).join(", ");
  return tn("hand {list}", "hands {list}", n.length, { list });
}

/** Who held a seat: each holder's part (its hands and score) when the holder changed. */
function holdersCell(place, label) {
  if (!place || place.holders.length < 2) return h("th", {}, label);
  return h("th", { class: "holders" }, place.holders.map((x) =>
    h("div", { class: "holder", "data-holder": x.label }, `${seatWords(x.label)} ${signed(x.score)} (${numbers(x)})`)));
}

/** Totals and statistics per seat; the place of each seat and, when a seat's holder changed,
 *  each holder's part (a hand belongs to whoever held the seat when it was played). */
export function statsTable(data, names) {
  const short = (p) => names(p).split(" · ")[0];
  // riichi (RULES.md 11): each seat's points (30,000 and its nets) and its result in thousands
  const riichi = (data.places || []).some((x) => x.final_points != null);
  const rows = ["1", "2", "3", "4"].map((p) => {
    const s = data.statistics[p] || {};
    const place = (data.places || []).find((x) => x.seat === p);
    const total = place ? place.score : (data.totals || {})[p] ?? 0;
    const rank = place ? `${place.place}.` + (!riichi && place.points !== null && place.points !== undefined
      ? " " + t("{n} pt", { n: num(place.points) }) : "") : "";
    const sums = riichi && place
      ? [h("td", { class: "r-pts" }, thousands(place.final_points)),
        h("td", { class: "r-res " + (place.result >= 0 ? "pos" : "neg") }, signed(place.result))]
      : [h("td", { class: total >= 0 ? "pos" : "neg" }, signed(total))];
    return h("tr", { "data-seat": p }, h("td", { class: "place" }, rank), holdersCell(place, short(p)), sums,
      h("td", {}, s.won ?? 0), h("td", {}, s.self_drawn ?? 0), h("td", {}, s.dealt_in ?? 0),
      h("td", {}, riichi ? thousands(s.largest) : s.largest ?? 0), h("td", {}, s.limit_hands ?? 0));
  });
  const heads = riichi
    ? [h("th", { title: t("30,000 and the hands' nets (the deposits on the table apart; first place takes them at the end)") }, t("points")),
      h("th", { title: t("in thousands: (points − 30,000) / 1,000, the uma, −20 a chombo; provisional until the hanchan is over") }, t("result"))]
    : [h("th", {}, t("total"))];
  return h("table", { class: "stats" + (riichi ? " riichi-stats" : "") },
    h("thead", {}, h("tr", {}, h("th", { title: riichi ? t("place by points") : t("place (rank points once the session is over)") }, t("place")), h("th", {}, ""), heads, h("th", { title: t("hands won") }, t("won")),
      h("th", { title: t("self-drawn wins") }, t("self-drawn")), h("th", { title: t("discards that gave a Mahjong") }, t("dealt in")),
      h("th", { title: t("largest hand") }, t("largest")), h("th", { title: t("limit hands") }, t("limits")))),
    h("tbody", {}, rows));
}

/** Labels for a finished hand: the names and seat winds of THAT hand (it carries them),
 *  not the live ones; a seat without a recorded name keeps today's label's name. A record
 *  without winds has them from its own dealer (the dealer is east). */
export function handLabels(hand, current) {
  return (p) => {
    const key = String(p);
    const name = (hand.names && hand.names[key] && hand.names[key] !== `Seat ${key}` ? hand.names[key] : null)
      || current(p).split(" · ")[0];
    let wind = hand.winds && hand.winds[key];
    if (!wind && hand.dealer) wind = WIND_NAMES[((Number(p) - Number(hand.dealer)) % 4 + 4) % 4];
    return wind ? `${name} · ${windWord(wind)}` : current(p);
  };
}

/** The hand history: one line per hand, click to open its explained result; `review(i)`
 *  (if given) is the address of the i-th hand's step-by-step review (/review, issue 25). */
/** A riichi hand as players name it: its round and dealer ("East 2": the round's second dealer,
 * position 2, as position 1 deals first in each round), and its honba. */
function riichiHandWords(hand) {
  const n = hand.dealer;
  const round = { east: t("East {n}", { n }), south: t("South {n}", { n }), west: t("West {n}", { n }),
    north: t("North {n}", { n }) }[hand.prevailing_wind] || "";
  return [round, hand.honba ? t("{n} honba", { n: hand.honba }) : null];
}

export function historyList(data, current, review = null) {
  // newest first, numbered as played: the list counts down (hand n is item n)
  return h("ol", { class: "history", reversed: true }, data.hands.map((hand, i) => [hand, i + 1]).reverse().map(([hand, index]) => {
    const names = handLabels(hand, current);
    // riichi (a record with its honba): several winners, chombo, draws said as the board says them
    const line = (hand.honba ?? null) !== null && hand.result ? riichiTitle(hand, names)
      : hand.result === "mahjong"
        ? t("{who} won {score}", { who: names(hand.winner), score: num((hand.scores || {})[String(hand.winner)] ?? 0) })
        : hand.result === "washout" ? t("washout") : t("in play");
    const body = h("div", { class: "hist-body" });
    const item = h("li", { "data-hand": hand.number }, h("button", { class: "linkish", onclick: () => {
      if (body.childNodes.length) body.replaceChildren(); else body.replaceChildren(resultPanel(hand, names));
    } }, [t("Hand {n}", { n: hand.number }),
      ...((hand.honba ?? null) !== null ? riichiHandWords(hand) : [roundWord(hand.prevailing_wind)]), line]
      .filter(Boolean).join(" · ")),
    review ? h("a", { class: "hand-review", href: review(index), title: t("step through this hand") }, t("review")) : null, body);
    return item;
  }));
}
