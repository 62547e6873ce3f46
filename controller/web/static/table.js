// The table page: four seats from above, the discard pad, timers, violations, and at the end
// of a hand every hand with its score. Live over /ws; reconnects by itself.
"use strict";

import { api, h, liveSocket, replace, secondsLeft, seatLabel, signed, statusBadge, syncClock } from "./common.js";
import { balanceChart, historyList, resultPanel, statsTable } from "./results.js";
import { backs, sortTiles, tile, tiles } from "./tiles.js";

let view = null;
let handsSeen = -1;
// Violations stay on screen for a while: the next accepted event clears last_violation.
const VIOLATION_SECONDS = 20;
let violations = [];

const names = (p) => seatLabel(view, p);

function meldEl(m) {
  const codes = m.tiles || [];
  if (m.concealed && codes.length === 4) {
    // A declared concealed kong lies with its two outer tiles face down.
    const row = h("span", { class: "tiles meld concealed-kong", title: `concealed kong of ${codes[0]}` });
    codes.forEach((c, i) => row.appendChild(tile(i === 0 || i === 3 ? null : c, { back: i === 0 || i === 3 })));
    return row;
  }
  return tiles(codes, { rowCls: `meld ${m.kind || ""}` });
}

function seatPanel(pos, seat, hand) {
  const isTurn = hand.turn === pos && hand.phase === "play";
  const flags = [
    hand.dealer === pos ? h("span", { class: "flag dealer", title: "dealer" }, "dealer") : null,
    seat.ready ? h("span", { class: "flag ready" }, "ready") : null,
    seat.dead ? h("span", { class: "flag dead", title: "dead hand: no further part in this hand" }, "dead hand") : null,
    seat.replacements_due ? h("span", { class: "flag" }, `replacement due ×${seat.replacements_due}`) : null,
  ];
  const total = ((view.totals || {})[String(pos)]) ?? 0;
  // Once the hand is over every hand is shown face up, with its score and net.
  const result = hand.phase === "over" && hand.result ? hand.result : null;
  const detail = result ? (result.details || {})[String(pos)] : null;
  const concealed = detail
    ? h("span", {}, tiles(sortTiles(detail.hand || []), { rowCls: "revealed" }),
      h("span", { class: "pill" }, `${(result.scores || {})[String(pos)] ?? 0}`),
      h("span", { class: "net " + (((result.net || {})[String(pos)] ?? 0) >= 0 ? "pos" : "neg") },
        signed((result.net || {})[String(pos)] ?? 0)))
    : backs(seat.concealed_count || 0);
  return [
    h("div", { class: "seat-head" },
      h("span", { class: "wind", title: seat.wind || "" }, (seat.wind || "?")[0].toUpperCase()),
      h("span", { class: "seat-name" }, seat.name || `Seat ${pos}`),
      h("span", { class: "total " + (total >= 0 ? "pos" : "neg") }, signed(total)),
      isTurn ? h("span", { class: "flag turn" }, hand.step ? `turn · ${hand.step}` : "turn") : null, flags),
    h("div", { class: "row concealed" + (result && String(result.winner) === String(pos) ? " winner" : "") }, concealed),
    h("div", { class: "row melds" }, (seat.melds || []).map(meldEl),
      seat.forming && seat.forming.length ? tiles(seat.forming, { rowCls: "forming", cls: "forming" }) : null,
      seat.bonus && seat.bonus.length ? tiles(seat.bonus, { rowCls: "bonus" }) : null),
    h("div", { class: "row river", title: "discards gone dead" }, tiles(seat.river || [], { rowCls: "small" })),
  ];
}

function timerEl(label, deadline, total) {
  const left = secondsLeft(deadline);
  if (left === null) return null;
  const frac = Math.max(0, Math.min(1, left / (total || 10)));
  return h("div", { class: "timer" + (left < 0 ? " over" : ""), "data-deadline": deadline, "data-total": total || 10 },
    h("span", { class: "t-label" }, label), h("span", { class: "t-val" }, left < 0 ? `over ${(-left).toFixed(1)} s` : `${left.toFixed(1)} s`),
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
    h("b", {}, v.rule.replaceAll("_", " ")), h("span", { class: "v-rule" }, ` (${v.rule})`),
    h("div", {}, `${v.seat ? names(v.seat) + ": " : ""}${v.message || ""}`)));
}

function putBack(hand) {
  const items = hand.out_of_place || [];
  if (!items.length) return null;
  return h("div", { class: "putback" }, h("b", {}, "Put back: "),
    items.map((m) => h("span", {}, m.tile ? tile(m.tile, { cls: "inline" }) : "a tile", ` ${m.zone} → ${m.back_to} `)));
}

function centre(hand) {
  const d = hand.discard;
  noteViolation(hand);
  if (hand.phase === "over" && hand.result) {
    const r = hand.result;
    return [h("div", { class: "over" },
      h("div", { class: "over-title" }, r.result === "washout" ? "Washout" : "Mahjong!"),
      r.result === "washout" ? h("div", {}, "no scores, same dealer")
        : h("div", {}, names(r.winner), h("div", { class: "muted" }, r.win_source === "discard" || r.win_source === "robbed_kong"
          ? `on ${names(r.discarder)}'s ${r.win_source === "discard" ? "discard" : "kong"}` : (r.win_source === "wall" ? "self-drawn" : r.win_source || "")))),
    violationEls()];
  }
  return [
    h("div", { class: "pad" + (hand.claim_window ? " open" : "") },
      d ? tile(d.tile, { cls: "big" }) : h("span", { class: "muted" }, "discard pad"),
      d ? h("div", { class: "pad-from" }, `from ${names(d.seat)}`) : null,
      // The discard on a claimant's strip is drawn there (in its forming tiles), not on the pad.
      !d && hand.claim && hand.claim.on_strip
        ? h("div", { class: "pad-from" }, `${names(hand.claim.discard.seat)}'s discard on ${names(hand.claim.seat)}'s strip`) : null,
      hand.claim_window ? h("div", { class: "claim" }, "claim window open") : null,
      (hand.claimants || []).map((c) => h("div", { class: "claimant" }, `${names(c.seat)} calls ${c.call}`))),
    hand.claim_window ? timerEl("claim", (hand.timers || {}).claim_deadline, (view.service || {}).claim_seconds || 3) : null,
    timerEl("turn", (hand.timers || {}).turn_deadline, (view.service || {}).turn_seconds || 10),
    h("div", { class: "walls" }, h("span", {}, `wall ${hand.live_wall ?? "–"}`), h("span", {}, `dead wall ${hand.dead_wall ?? "–"}`)),
    putBack(hand),
    violationEls(),
  ];
}

function render() {
  const hand = view.hand;
  const halted = document.getElementById("halted");
  const service = view.service || {};
  halted.hidden = !service.halted;
  halted.textContent = service.halted ? `Not recording moves: ${service.halted}` : "";
  if (!view.session || !view.session.active) {
    replace("handinfo", "no session running");
  }
  if (!hand) {
    replace("centre", h("div", { class: "muted" }, view.session && view.session.active ? "waiting for the deal" : "no session"));
    for (const p of [1, 2, 3, 4]) replace(`seat${p}`, h("div", { class: "muted" }, `Seat ${p}`));
  } else {
    const ruleset = (view.session || {}).ruleset || "";
    replace("handinfo", `Hand ${hand.number ?? "–"} · ${hand.prevailing_wind || "?"} round · ${ruleset}`
      + (hand.phase === "over" ? " · over" : hand.turn ? ` · ${names(hand.turn)} to play` : ""));
    for (const p of [1, 2, 3, 4]) {
      const seat = (hand.seats || {})[String(p)] || { position: p };
      const node = replace(`seat${p}`, seatPanel(p, seat, hand));
      node.classList.toggle("turn", hand.turn === p && hand.phase === "play");
      node.classList.toggle("dealer", hand.dealer === p);
    }
    replace("centre", centre(hand));
  }
  replace("result", hand && hand.phase === "over" && hand.result ? resultPanel(hand.result, names) : null);
  const count = (view.hands || []).length;
  if (count !== handsSeen) {
    handsSeen = count;
    loadSession();
  }
}

async function loadSession() {
  try {
    const data = await api("/api/hands");
    replace("stats", statsTable(data, names));
    replace("chart", data.hands.length ? balanceChart(data.statistics, names) : null);
    replace("history", data.hands.length ? historyList(data, names) : h("p", { class: "muted" }, "No hand has finished yet."));
  } catch (e) {
    replace("history", h("p", { class: "error" }, `Cannot load the hands: ${e.message}`));
  }
}

// Countdowns tick locally between pushes.
setInterval(() => {
  for (const node of document.querySelectorAll(".timer[data-deadline]")) {
    const left = secondsLeft(Number(node.dataset.deadline));
    node.classList.toggle("over", left < 0);
    node.querySelector(".t-val").textContent = left < 0 ? `over ${(-left).toFixed(1)} s` : `${left.toFixed(1)} s`;
    node.querySelector(".t-bar i").style.width = `${Math.max(0, Math.min(100, (left / Number(node.dataset.total)) * 100)).toFixed(0)}%`;
  }
}, 200);

liveSocket("/ws", {
  onMessage(msg) {
    if (msg.type !== "table") return;
    syncClock(msg.server_time);
    view = msg.table;
    render();
  },
  onStatus: (s) => statusBadge("conn", s),
});
