// The table page: four seats from above, the discard pad, timers, violations, and at the end
// of a hand every hand with its score. Live over /ws; reconnects by itself. On a big screen
// (1600 px and wider, or ?tv) it is the TV mode: tiles large enough to read from two metres.
"use strict";

import {
  api, h, livePage, num, personName, replace, rulesetWord, secondsLeft, seatLabel, signed, t, term, violationText, windLetter, windWord,
} from "./common.js";
import {
  balanceChart, historyList, resultPanel, roundWord, seatedNow, seatHolders, sourceWord, statsTable,
} from "./results.js";
import { backs, sortTiles, tile, tiles } from "./tiles.js";
import {
  finalTable, markRiichiDiscard, pointsEl, riichiCounters, riichiFlag, riichiTitle, tenpaiWord,
} from "./riichi.js";

let view = null;
let handsSeen = -1;
let places = null; // the session's places by holder (GET /api/hands)
let seated = null; // who sits at each seat now and their score in the session (GET /api/hands)
// Violations stay on screen for a while: the next accepted event clears last_violation.
const VIOLATION_SECONDS = 20;
let violations = [];
// The result of the last finished hand stays until the next hand's first discard.
let shownResult = null;
// Whose discard went to the river last, to mark it there once the pad is empty again.
let rivers = {};
let lastRiver = null;
// riichi: the seat whose points were tapped open (the difference to each other seat).
let diffsOf = null;
function toggleDiffs(pos) {
  diffsOf = diffsOf === pos ? null : pos;
  render();
}

const names = (p) => seatLabel(view, p);
const tenths = (x) => num(x, { minimumFractionDigits: 1, maximumFractionDigits: 1 });
const secondsText = (left) => (left < 0 ? t("over {s} s", { s: tenths(-left) }) : t("{s} s", { s: tenths(left) }));
const stepWord = (step) => ({ draw: t("draw"), discard: t("discard"), replacement: t("replacement") }[step] || step);
/** A zone as the public view names it (rack:2, melds:3, discard, river, wall) in words. */
function zoneWord(zone) {
  const [kind, pos] = String(zone).split(":");
  if (pos) return kind === "rack" ? t("{who}'s rack", { who: names(Number(pos)).split(" · ")[0] })
    : t("{who}'s meld strip", { who: names(Number(pos)).split(" · ")[0] });
  return { discard: t("the discard pad"), river: t("the river"), wall: t("the wall"), dora: t("the dora pad") }[zone] || zone;
}

function tvMode() {
  const tv = new URLSearchParams(location.search).has("tv") || window.innerWidth >= 1600;
  document.body.classList.toggle("tv", tv);
  fitHeadings();
}

/** The session table's headings wrap between words; only when its words do not fit the box
 *  (a long language on a narrow screen) do they break inside a word (.squeeze, style.css). */
function fitHeadings() {
  const table = document.querySelector("#stats table");
  if (!table) return;
  table.classList.remove("squeeze");
  if (table.offsetWidth > table.parentElement.clientWidth + 1) table.classList.add("squeeze");
}
tvMode();
window.addEventListener("resize", tvMode);

function meldEl(m) {
  const codes = m.tiles || [];
  if (m.concealed && codes.length === 4) {
    // A declared concealed kong lies with its two outer tiles face down.
    const row = h("span", { class: "tiles meld concealed-kong", title: t("concealed kong of {tile}", { tile: term(codes[0]) }) });
    codes.forEach((c, i) => row.appendChild(tile(i === 0 || i === 3 ? null : c, { back: i === 0 || i === 3 })));
    return row;
  }
  return tiles(codes, { rowCls: `meld ${m.kind || ""}` });
}

function riverEl(pos, seat) {
  const row = tiles(seat.river || [], { rowCls: "river-tiles" });
  if (view.riichi) markRiichiDiscard(row, view.riichi, pos);
  if (lastRiver === pos && row.lastChild) {
    row.lastChild.classList.add("last");
    row.lastChild.title += " " + t("(the last discard)");
  }
  return row;
}

function seatHead(pos, seat, hand) {
  const isTurn = hand.turn === pos && hand.phase === "play";
  // The score of whoever holds the seat now: their part, not the seat's earlier holders'.
  const mine = seatedNow(seated, pos, (view.names || {})[String(pos)]);
  const seatTotal = ((view.totals || {})[String(pos)]) ?? 0;
  const total = mine ? mine.score : seatTotal;
  const r = view.riichi;
  return h("div", { class: "seat-head" },
    h("span", { class: "wind", title: windWord(seat.wind) }, windLetter(seat.wind)),
    h("span", { class: "seat-name" }, personName(seat.name, pos)),
    r ? pointsEl(r, pos, names, diffsOf === pos, toggleDiffs)
      : h("span", { class: "total " + (total >= 0 ? "pos" : "neg"), title: t("the seat: {total}", { total: signed(seatTotal) }) }, signed(total)),
    isTurn ? h("span", { class: "flag turn" }, hand.step ? t("to play · {step}", { step: stepWord(hand.step) }) : t("to play")) : null,
    hand.dealer === pos ? h("span", { class: "flag dealer", title: t("dealer") }, t("dealer")) : null,
    r ? riichiFlag(r, pos) : seat.ready ? h("span", { class: "flag ready" }, t("ready")) : null,
    r && hand.phase === "over" ? tenpaiWord(r, pos) : null,
    seat.dead ? h("span", { class: "flag dead", title: t("dead hand: no further part in this hand") }, t("dead hand")) : null,
    seat.replacements_due ? h("span", { class: "flag" }, t("replacement due ×{n}", { n: seat.replacements_due })) : null);
}

/** The winners of a result: riichi's several rons, else the one winner. */
const won = (result) => (((result.details || {}).riichi || {}).winners || [result.winner]).map(String);

function seatPanel(pos, seat, hand) {
  // Once the hand is over every hand is shown face up, with its score and net.
  const result = hand.phase === "over" && hand.result ? hand.result : null;
  const detail = result ? (result.details || {})[String(pos)] : null;
  const net = result ? (result.net || {})[String(pos)] ?? 0 : 0;
  // riichi: a winner's hand only, without the classical score/net pill (the result panel
  // says han, fu, the points and who pays whom; the seat's points are in its head)
  const concealed = detail && view.riichi && detail.hand
    ? h("span", {}, tiles(sortTiles(detail.hand), { rowCls: "revealed" }))
    : detail && !view.riichi
      ? h("span", {}, tiles(sortTiles(detail.hand || []), { rowCls: "revealed" }),
        h("span", { class: "pill" }, `${(result.scores || {})[String(pos)] ?? 0}`),
        h("span", { class: "net " + (net >= 0 ? "pos" : "neg") }, signed(net)))
      : backs(seat.concealed_count || 0);
  return [
    seatHead(pos, seat, hand),
    h("div", { class: "row concealed" + (result && won(result).includes(String(pos)) ? " winner" : "") }, concealed),
    h("div", { class: "row melds" }, (seat.melds || []).map(meldEl),
      seat.forming && seat.forming.length ? tiles(seat.forming, { rowCls: "forming", cls: "forming" }) : null,
      seat.bonus && seat.bonus.length ? tiles(seat.bonus, { rowCls: "bonus" }) : null),
    h("div", { class: "row river", title: t("discards gone dead") }, riverEl(pos, seat)),
  ];
}

function timerEl(label, deadline, total) {
  const left = secondsLeft(deadline);
  if (left === null) return null;
  const frac = Math.max(0, Math.min(1, left / (total || 10)));
  return h("div", { class: "timer" + (left < 0 ? " over" : ""), "data-deadline": deadline, "data-total": total || 10 },
    h("span", { class: "t-label" }, label), h("span", { class: "t-val" }, secondsText(left)),
    h("span", { class: "t-bar" }, h("i", { style: `width:${(frac * 100).toFixed(0)}%` })));
}

function noteViolation(hand) {
  const v = hand.last_violation;
  const now = Date.now() / 1000;
  violations = violations.filter((x) => now - x.at < VIOLATION_SECONDS);
  if (v && !violations.some((x) => x.line === v.line && x.rule === v.rule)) {
    violations.unshift({ ...v, at: now });
    violations = violations.slice(0, 3);
  }
}

function violationEls() {
  return violations.map((v) => h("div", { class: "violation", role: "alert" },
    h("b", {}, term(v.rule)), h("span", { class: "v-rule" }, ` (${v.rule})`),
    h("div", {}, `${v.seat ? names(v.seat) + ": " : ""}${violationText(v)}`)));
}

function putBack(hand) {
  const items = hand.out_of_place || [];
  if (!items.length) return null;
  return h("div", { class: "putback" }, h("b", {}, t("Put back:") + " "),
    items.map((m) => h("span", {}, m.tile ? tile(m.tile, { cls: "inline" }) : t("a tile"), ` ${zoneWord(m.zone)} → ${zoneWord(m.back_to)} `)));
}

function wallEl(hand) {
  return h("div", { class: "walls" },
    h("div", { class: "wall-count", title: t("tiles left to draw in the live wall") },
      h("span", { class: "wall-n" }, `${hand.live_wall ?? "–"}`), h("span", { class: "wall-l" }, t("in the wall"))),
    h("span", { class: "muted" }, t("dead wall {n}", { n: hand.dead_wall ?? "–" })));
}

function centre(hand) {
  const d = hand.discard;
  noteViolation(hand);
  if (hand.phase === "over" && hand.result && view.riichi) {
    return [h("div", { class: "over" }, h("div", { class: "over-title" }, riichiTitle(hand.result, names))),
      riichiCounters(view.riichi, hand), violationEls()];
  }
  if (hand.phase === "over" && hand.result) {
    const r = hand.result;
    return [h("div", { class: "over" },
      h("div", { class: "over-title" }, r.result === "washout" ? t("Washout") : t("Mahjong!")),
      r.result === "washout" ? h("div", {}, t("no scores, same dealer"))
        : h("div", { class: "over-who" }, names(r.winner), h("div", { class: "muted" }, r.win_source === "discard"
          ? t("on {who}'s discard", { who: names(r.discarder) }) : r.win_source === "robbed_kong"
            ? t("on {who}'s kong", { who: names(r.discarder) }) : (r.win_source === "wall" ? t("self-drawn") : sourceWord(r.win_source))))),
    violationEls()];
  }
  return [
    hand.phase === "deal" ? h("div", { class: "dealing" }, t("{who} deals", { who: names(hand.dealer) })) : null,
    h("div", { class: "pad" + (hand.claim_window ? " open" : "") },
      d ? tile(d.tile, { cls: "big last" }) : h("span", { class: "muted" }, t("discard pad")),
      d ? h("div", { class: "pad-from" }, t("from {who}", { who: names(d.seat) })) : null,
      // The discard on a claimant's strip is drawn there (in its forming tiles), not on the pad.
      !d && hand.claim && hand.claim.on_strip
        ? h("div", { class: "pad-from" }, t("{who}'s discard on {claimant}'s strip", { who: names(hand.claim.discard.seat), claimant: names(hand.claim.seat) })) : null,
      hand.claim_window ? h("div", { class: "claim" }, t("claim window open")) : null,
      (hand.claimants || []).map((c) => h("div", { class: "claimant" }, t("{who} calls {call}", { who: names(c.seat), call: term(c.call) })))),
    hand.claim_window ? timerEl(t("claim"), (hand.timers || {}).claim_deadline, (view.service || {}).claim_seconds || 3) : null,
    timerEl(t("turn"), (hand.timers || {}).turn_deadline, (view.service || {}).turn_seconds || 10),
    view.riichi ? riichiCounters(view.riichi, hand) : null,
    wallEl(hand),
    putBack(hand),
    violationEls(),
  ];
}

function headline(hand) {
  const ruleset = (view.session || {}).ruleset || "";
  // Whose turn it is is said only once play has begun: during the deal nobody plays yet.
  const now = hand.phase === "over" ? t("over") : hand.phase === "deal" ? t("dealing")
    : hand.turn ? t("{who} to play", { who: names(hand.turn) }) : "";
  return [t("Hand {n}", { n: hand.number ?? "–" }), roundWord(hand.prevailing_wind), rulesetWord(ruleset), now]
    .filter(Boolean).join(" · ");
}

/** Track which seat's river grew last (its newest tile is the last discard). */
function noteRivers(hand) {
  const now = {};
  for (const p of [1, 2, 3, 4]) {
    const n = (((hand.seats || {})[String(p)] || {}).river || []).length;
    now[p] = n;
    if (rivers.number === hand.number && n > (rivers[p] || 0)) lastRiver = p;
  }
  if (rivers.number !== hand.number) lastRiver = null;
  if (hand.discard) lastRiver = null; // the live discard on the pad is the last one
  rivers = { ...now, number: hand.number };
}

/** The result on screen: this hand's once over; the previous one until the first discard. */
function resultToShow(hand) {
  if (hand && hand.phase === "over" && hand.result) {
    const frozen = Object.fromEntries([1, 2, 3, 4].map((p) => [String(p), names(p)]));
    shownResult = { number: hand.number, result: hand.result, labels: (p) => frozen[String(p)] || t("Seat {n}", { n: p }) };
    return shownResult;
  }
  const untouched = hand && !hand.discard && [1, 2, 3, 4].every((p) =>
    !((((hand.seats || {})[String(p)] || {}).river || []).length)
    && !((((hand.seats || {})[String(p)] || {}).melds || []).length));
  if (shownResult && hand && shownResult.number !== hand.number && untouched) return shownResult;
  if (!hand || shownResult && shownResult.number !== hand.number) shownResult = null;
  return null;
}

function render() {
  const hand = view.hand;
  if (!view.session || !view.session.active) replace("handinfo", t("no session running"));
  if (!hand) {
    replace("centre", h("div", { class: "muted" }, view.session && view.session.active ? t("waiting for the deal") : t("no session")));
    for (const p of [1, 2, 3, 4]) replace(`seat${p}`, h("div", { class: "muted" }, t("Seat {n}", { n: p })));
  } else {
    replace("handinfo", headline(hand));
    noteRivers(hand);
    for (const p of [1, 2, 3, 4]) {
      const seat = (hand.seats || {})[String(p)] || { position: p };
      const node = replace(`seat${p}`, seatPanel(p, seat, hand));
      node.classList.toggle("turn", hand.turn === p && hand.phase === "play");
      node.classList.toggle("dealer", hand.dealer === p);
    }
    replace("centre", centre(hand));
  }
  const shown = resultToShow(hand);
  const earlier = shown && hand && shown.number !== hand.number;
  const final = view.riichi && view.riichi.final;
  replace("result", final ? finalTable(final, names) : null, shown ? resultPanel(shown.result, earlier ? shown.labels : names,
    earlier ? t("Hand {n}", { n: shown.number }) + " · " : "", earlier ? t("Hand {n} is being dealt", { n: hand.number }) : null) : null);
  document.body.classList.toggle("showing-result", !!shown || !!final);
  // Reload the hands and places when a hand ends, a penalty or a name changes, or a
  // correction gives a hand to another holder.
  const count = JSON.stringify([(view.hands || []).map((x) => x.names), (view.penalties || []).map((x) => x.cancelled), view.names]);
  if (count !== handsSeen) {
    handsSeen = count;
    loadSession();
  }
}

async function loadSession() {
  try {
    const data = await api("/api/hands");
    const again = JSON.stringify([places, seated]) !== JSON.stringify([data.places, data.seated]);
    places = data.places;
    seated = data.seated;
    if (again) render();
    replace("stats", statsTable(data, names));
    fitHeadings();
    replace("chart", data.hands.length ? balanceChart(data.statistics, seatHolders(data.places, names),
      view && view.riichi ? 30000 : 0) : null);
    replace("history", data.hands.length ? historyList(data, names, (i) => `/review/current/${i}`) : h("p", { class: "muted" }, t("No hand has finished yet.")));
  } catch (e) {
    replace("history", h("p", { class: "error" }, t("Cannot load the hands: {why}", { why: e.message })));
  }
}

// Countdowns tick locally between pushes.
setInterval(() => {
  for (const node of document.querySelectorAll(".timer[data-deadline]")) {
    const left = secondsLeft(Number(node.dataset.deadline));
    node.classList.toggle("over", left < 0);
    node.querySelector(".t-val").textContent = secondsText(left);
    node.querySelector(".t-bar i").style.width = `${Math.max(0, Math.min(100, (left / Number(node.dataset.total)) * 100)).toFixed(0)}%`;
  }
}, 200);

livePage("/ws", {
  type: "table",
  onView(table) {
    view = table;
    render();
  },
});
