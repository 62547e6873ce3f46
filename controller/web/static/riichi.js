// What the board and the seat page add for a riichi session (RULES.md section 11): the dora
// indicators, the honba and deposit counters, each seat's points (a tap shows the difference to
// each other seat), who is in riichi (the riichi discard sideways in the river), the result of a
// hand (yaku with han, fu, the limit, the payments; after a draw only "tenpai"/"noten"), the
// hanchan's final table (points, places, uma, results), and a seat's own waits with furiten and
// "no yaku" warnings and whether riichi is possible now. Other rule sets never reach this file.
"use strict";

import { h, num, signed, t, term, tx } from "./common.js";
import { sortTiles, tiles } from "./tiles.js";

export const thousands = (n) => num(n);
export const isRiichi = (view) => !!(view && view.riichi);

/** The counters and indicators for the centre of the board. */
export function riichiCounters(r, hand) {
  const over = hand && hand.phase === "over";
  const ura = r.ura_dora_indicators || [];
  return h("div", { class: "riichi-info" },
    h("div", { class: "dora-box", title: t("dora indicators (the dora is the next tile of each)") },
      h("span", { class: "r-label" }, term("dora")),
      tiles(r.dora_indicators || [], { rowCls: "dora-tiles", cls: "dora" }),
      over && ura.length ? h("span", { class: "r-label" }, t("ura")) : null,
      over && ura.length ? tiles(ura, { rowCls: "dora-tiles ura", cls: "dora" }) : null),
    h("div", { class: "counters" },
      h("span", { class: "counter honba", title: t("honba: {a} more per win ({b} from each payer)", { a: num(300), b: num(100) }) },
        tx("{n} honba", { n: h("b", {}, `${r.honba ?? 0}`) })),
      h("span", { class: "counter sticks", title: t("riichi deposits on the table ({n} each)", { n: num(1000) }) },
        r.riichi_sticks === 1 ? tx("{n} riichi stick", { n: h("b", {}, "1") })
          : tx("{n} riichi sticks", { n: h("b", {}, `${r.riichi_sticks ?? 0}`) }))),
    r.ura_due ? h("div", { class: "muted ura-due" }, t("waiting for the ura indicators")) : null);
}

/** A seat's points, and the difference to each other seat while it is tapped open. */
export function pointsEl(r, pos, names, open, toggle) {
  const pts = (r.points || {})[String(pos)] ?? 0;
  const diffs = open ? h("div", { class: "diffs", role: "note" }, [1, 2, 3, 4].filter((q) => q !== pos).map((q) => {
    const d = ((r.points || {})[String(q)] ?? 0) - pts;
    const who = names(q).split(" · ")[0];
    return h("div", { class: "diff", "data-seat": q }, `${who}: `,
      h("b", { class: d > 0 ? "neg" : d < 0 ? "pos" : "" }, d === 0 ? t("level") : d > 0 ? t("{n} ahead", { n: thousands(d) }) : t("{n} behind", { n: thousands(-d) })));
  })) : null;
  return [h("button", { class: "points linkish", type: "button", title: t("points (tap: the difference to each other seat)"),
    "aria-expanded": open ? "true" : "false", onclick: (e) => { e.stopPropagation(); toggle(pos); } }, thousands(pts)), diffs];
}

/** The seat's riichi flag (double riichi said so). */
export function riichiFlag(r, pos) {
  if (!(r.riichi || []).includes(pos)) return null;
  const double = (r.double_riichi || []).includes(pos);
  return h("span", { class: "flag riichi", title: t("in riichi: {n} on the table, the hand locked", { n: num(1000) }) },
    double ? term("double riichi") : term("riichi"));
}

/** Turn the riichi discard in the river row sideways. */
export function markRiichiDiscard(row, r, pos) {
  const at = (r.riichi_river || {})[String(pos)];
  const node = at === null || at === undefined ? null : row.children[at];
  if (!node) return;
  node.classList.add("sideways");
  node.title += " " + t("(the riichi discard)");
}

/** A draw: the seat's word instead of its tiles (a hand is never shown at a draw). */
export function tenpaiWord(r, pos) {
  const word = (r.tenpai || {})[String(pos)];
  return word ? h("span", { class: `flag ${word}` }, word === "tenpai" ? t("tenpai") : term(word)) : null;
}

function hanLine(score) {
  const limit = score.limit_hand ? ` · ${term(score.limit_hand)}` : "";
  return t("{han} han {fu} fu", { han: score.doubles, fu: score.points }) + `${limit} = ${thousands(score.score)}`;
}

/** One winner's yaku, each with its tiles and han, and han, fu, the limit and the score. */
export function yakuList(score, withTiles = true) {
  if (!score) return null;
  return h("div", { class: "score riichi-score" },
    h("ul", { class: "items" }, (score.items || []).map((it) => h("li", {},
      h("span", { class: "item-name" }, term(it.name)),
      withTiles && it.tiles && it.tiles.length ? tiles(it.tiles, { rowCls: "mini" }) : null,
      h("span", { class: "item-val" }, t("{n} han", { n: it.points }))))),
    h("div", { class: "formula" }, hanLine(score)));
}

function payer(names, p) { return String(p) === "0" ? t("the table's riichi sticks") : names(p); }

function paymentsEl(result, names) {
  const pays = (result.payments || []).map((p) => h("li", {}, String(p.from) === "0"
    ? t("{who} takes {amount} from the table's riichi sticks", { who: names(p.to), amount: thousands(p.amount) })
    : t("{payer} pays {payee} {amount}", { payer: payer(names, p.from), payee: names(p.to), amount: thousands(p.amount) })));
  return pays.length ? h("div", { class: "payments" }, h("h3", {}, t("Who pays whom")), h("ul", {}, pays)) : null;
}

/** The riichi facts of a result: a live result's details.riichi, or the hand record itself. */
const infoOf = (result) => (result.details || {}).riichi || result;

function winnersOf(result) {
  const info = infoOf(result);
  return (info.winners && info.winners.length ? info.winners : result.winner ? [result.winner] : []).map(String);
}

/** The title of a riichi hand's result. */
export function riichiTitle(result, names) {
  const won = winnersOf(result);
  const abortive = infoOf(result).abortive;
  if (abortive) return t("Abortive draw: {what}", { what: term(abortive) });
  if (result.result === "washout") return t("Exhaustive draw");
  if (result.result === "chombo") return t("Chombo: the hand is replayed");
  if (result.result === "nagashi_mangan") return t("Nagashi mangan: {who}", { who: won.map(names).join(", ") });
  if (result.result !== "mahjong") return term(result.result || "");
  const who = won.map(names).join(", ");
  return result.win_source === "discard" ? t("Ron: {who} on {discarder}'s discard", { who, discarder: names(result.discarder) })
    : result.win_source === "robbed_kong" ? t("Ron: {who} on {discarder}'s kong", { who, discarder: names(result.discarder) })
      : t("Tsumo: {who}", { who });
}

function seatLine(result, names, p, won) {
  const d = (result.details || {})[p] || {};
  const net = (result.net || {})[p] ?? 0;
  const tenpai = d.tenpai ?? (infoOf(result).tenpai || []).map(String).includes(p);
  const draw = (result.result === "washout" || result.result === "nagashi_mangan") && !infoOf(result).abortive;
  const word = draw
    ? h("span", { class: `flag ${tenpai ? "tenpai" : "noten"}` }, tenpai ? t("tenpai") : term("noten")) : null;
  return h("div", { class: "res-seat" + (won.includes(p) ? " winner" : ""), "data-seat": p },
    h("div", { class: "res-head" }, h("b", {}, names(p)), word,
      h("span", { class: net >= 0 ? "pos" : "neg" }, signed(net))),
    won.includes(p) && d.hand ? h("div", { class: "res-tiles" }, tiles(sortTiles(d.hand), { rowCls: "mini" }),
      (d.melds || []).map((m) => tiles(m.tiles || [], { rowCls: "mini" }))) : null,
    won.includes(p) ? yakuList(d.score) || h("div", { class: "muted" }, t("scores {n}", { n: thousands((result.scores || {})[p] ?? 0) })) : null);
}

/** The explained result of a riichi hand (a draw shows only tenpai/noten, never a tile). */
export function riichiResult(result, names, prefix = "", note = null) {
  const won = winnersOf(result);
  const info = infoOf(result);
  const ura = info.ura_dora_indicators || [];
  return h("section", { class: "result riichi-result" }, h("h2", {}, prefix + riichiTitle(result, names)),
    note ? h("div", { class: "res-note" }, note) : null,
    h("div", { class: "res-indicators" }, term("dora") + " ", tiles(info.dora_indicators || [], { rowCls: "mini" }),
      ura.length ? [" " + t("ura") + " ", tiles(ura, { rowCls: "mini" })] : null,
      " · " + t("{honba} honba · {sticks} sticks before the hand", { honba: info.honba ?? 0, sticks: info.riichi_sticks ?? 0 })),
    h("div", { class: "res-grid" }, ["1", "2", "3", "4"].map((p) => seatLine(result, names, p, won))),
    paymentsEl(result, names));
}

/** The places from the final points: tied seats share the better place. */
export function places(points) {
  const out = {};
  for (const p of Object.keys(points)) out[p] = 1 + Object.values(points).filter((v) => v > points[p]).length;
  return out;
}

/** The hanchan's end: points (deposits to first place), places, uma and results in thousands. */
export function finalTable(final, names) {
  const place = places(final.points || {});
  const rows = ["1", "2", "3", "4"].sort((a, b) => place[a] - place[b]).map((p) => {
    const res = (final.result || {})[p] ?? 0;
    const pen = (final.penalties || {})[p] ?? 0;
    return h("tr", { "data-seat": p }, h("td", { class: "place" }, `${place[p]}.`),
      h("th", {}, names(p).split(" · ")[0]), h("td", {}, thousands(final.points[p])),
      h("td", {}, signed((final.uma || {})[p] ?? 0)), h("td", {}, pen ? signed(pen) : ""),
      h("td", { class: res >= 0 ? "pos" : "neg" }, h("b", {}, signed(res))));
  });
  return h("section", { class: "final" }, h("h2", {}, t("The hanchan is over")),
    h("table", { class: "stats final-table" },
      h("thead", {}, h("tr", {}, h("th", {}, t("place")), h("th", {}, ""), h("th", {}, t("points")),
        h("th", { title: t("uma: +15 / +5 / -5 / -15, shared when tied") }, t("uma")),
        h("th", { title: t("chombo penalties") }, t("penalty")), h("th", { title: t("in thousands") }, t("result")))),
      h("tbody", {}, rows)),
    final.deposits ? h("p", { class: "muted" }, t("{n} in riichi sticks went to first place", { n: thousands(final.deposits) })) : null);
}

// --- the seat page ------------------------------------------------------------------------------

function furitenWhy(own, waits, river) {
  const mine = (waits || []).filter((t) => (river || []).includes(t));
  if (own.in_riichi && !mine.length) return t("in riichi you let a winning tile pass: furiten for the rest of the hand");
  return mine.length ? t("one of your waits is among your own discards") : t("you let a winning tile pass (until your next draw or call)");
}

/** The seat's riichi notes: furiten, no yaku, a win now, riichi possible, riichi, dead, kuikae. */
export function seatNotes(own, waits, river) {
  if (!own) return [];
  const note = (cls, head, ...rest) => h("div", { class: `r-note ${cls}`, role: cls === "warn" ? "alert" : null }, h("b", {}, head), ...rest);
  return [
    own.dead ? note("warn dead", t("Dead hand:") + " ", t("no call, no riichi and no win for the rest of this hand.")) : null,
    own.furiten ? note("warn furiten", t("Furiten:") + " ", t("you cannot win on a discard ({why}); a tsumo is allowed.", { why: furitenWhy(own, waits, river) })) : null,
    (own.no_yaku || []).length ? note("warn no-yaku", t("No yaku:") + " ", tx("a win on {tiles} now would have no yaku (mahjong_without_yaku): calling Mahjong makes your hand dead.",
      { tiles: tiles(own.no_yaku, { rowCls: "small" }) })) : null,
    (own.ron_on || []).length ? note("ok ron", t("Ron:") + " ", tx("{tiles} on the pad wins for you: call Mahjong.", { tiles: tiles(own.ron_on, { rowCls: "small" }) })) : null,
    own.nine_terminals ? note("ok nine", term("nine_terminals").replace(/^./, (c) => c.toUpperCase()) + ": ", t("you may end the hand in an abortive draw: press the button below.")) : null,
    own.tsumo ? note("ok tsumo", t("Tsumo:") + " ", t("your hand is complete with a yaku: call Mahjong.")) : null,
    own.can_riichi && !own.declared ? note("ok can-riichi", t("Riichi possible now:") + " ", tx("press Riichi, then discard one of {tiles}.",
      { tiles: tiles(own.riichi_discards || [], { rowCls: "small" }) })) : null,
    own.declared ? note("ok declared", t("Riichi declared:") + " ", tx("now discard one of {tiles}.", { tiles: tiles(own.riichi_discards || [], { rowCls: "small" }) })) : null,
    own.in_riichi ? note("neutral in-riichi", t("In riichi:") + " ", t("discard the tile you draw; no calls.")) : null,
    (own.kuikae || []).length ? note("warn kuikae", t("Kuikae:") + " ", tx("you may not discard {tiles} now.", { tiles: tiles(own.kuikae, { rowCls: "small" }) })) : null,
  ];
}

/** The seat's own result of a riichi hand: its yaku or tenpai/noten, its payments, its net. */
export function myRiichiResult(result, names, position) {
  const me = String(position);
  const won = winnersOf(result);
  const d = (result.details || {})[me] || {};
  const net = (result.net || {})[me] ?? 0;
  const draw = (result.result === "washout" || result.result === "nagashi_mangan") && !infoOf(result).abortive;
  const pays = (result.payments || []).filter((p) => String(p.from) === me || String(p.to) === me)
    .map((p) => h("li", {}, String(p.from) === "0" ? t("You take {amount} from the riichi sticks", { amount: thousands(p.amount) })
      : String(p.from) === me ? t("You pay {who} {amount}", { who: names(p.to), amount: thousands(p.amount) })
        : t("{who} pays you {amount}", { who: names(p.from), amount: thousands(p.amount) })));
  return h("div", { class: "panel over-note riichi-over" },
    h("b", { class: "over-title-s" }, won.includes(me) && result.result === "mahjong" ? t("You won!") : riichiTitle(result, names)),
    draw ? h("div", { class: "my-tenpai" }, d.tenpai ? t("You were tenpai.") : t("You were noten.")) : null,
    won.includes(me) ? yakuList(d.score, false) : null,
    pays.length ? h("div", {}, h("h3", {}, t("Who pays whom")), h("ul", { class: "pays" }, pays)) : null,
    h("div", { class: "net-line" }, t("This hand:") + " ", h("span", { class: net >= 0 ? "pos" : "neg" }, signed(net))));
}

/** The seat's place and result at the hanchan's end. */
export function myFinal(final, position) {
  const me = String(position);
  const place = places(final.points || {})[me];
  return h("div", { class: "panel my-final" }, h("b", { class: "over-title-s" }, t("The hanchan is over")),
    h("div", {}, tx("Place {place} · {points} points · uma {uma} · result {result}", { place, points: thousands(final.points[me]),
      uma: signed(final.uma[me]), result: h("b", {}, signed(final.result[me])) })));
}

