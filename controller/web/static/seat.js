// A seat's phone page: the own hand large and sorted, waits (unless the table hides them), the
// Claim / Ready / Mahjong buttons, correcting a misread tile in the own rack, and at the hand's
// end the own explained score and who pays whom. The seat token comes in the link's fragment
// (#token=...), is kept only once the service has accepted it, and is sent as the socket's first
// message and as a Bearer header, never in a URL the server sees.
"use strict";

import {
  api, flashIn, forgetToken, h, keepToken, linkToken, livePage, num, peopleText, personName, replace, signed, storedToken, t, term, tx,
  windWord,
} from "./common.js";
import { pickTile } from "./picker.js";
import { roundWord, seatedNow } from "./results.js";
import { tile, tileName, tiles } from "./tiles.js";
import { myFinal, myRiichiResult, seatNotes, thousands } from "./riichi.js";

const position = Number(location.pathname.split("/").pop());
const KEY = `seat-token-${position}`;
let token = null;
let seat = null;
let fixing = null; // the tile of the own rack being corrected

const $ = (id) => document.getElementById(id);
let seated = null; // who sits at each seat now and their session's score (GET /api/hands)
let placesKey = null;
const playerName = (table, p) => personName((table.players || {})[String(p)], p);

const callWord = (call) => ({ claim: t("Claim"), ready: t("Ready"), mahjong: t("Mahjong") }[call] || call);
const stepWord = (step) => ({ draw: t("draw"), discard: t("discard"), replacement: t("replacement") }[step] || step);

function say(text, ok) { flashIn("flash", text, ok, ok ? 4 : 8); }

function refusal(e, call) {
  const detail = (e && e.message) || "";
  if (e && e.status === 409 && /simulated players/.test(detail)) {
    return t("Simulated players play every seat at this table: a call from this phone is not taken.");
  }
  const text = peopleText(e, "seat");
  return call ? t("{call} not taken: {why}", { call: callWord(call), why: text }) : text;
}

async function declare(call) {
  if (call === "mahjong" && !confirm(t("Call Mahjong? Your hand is then shown to everyone and scored."))) return;
  if (call === "nine_terminals" && !confirm(t("End the hand in an abortive draw (nine terminals)?"))) return;
  try {
    await api(`/api/seats/${position}/declare`, { method: "POST", token, body: { call } });
    say(call === "mahjong" ? t("Mahjong called.") : call === "ready" ? t("Ready called.")
      : call === "nine_terminals" ? term("nine_terminals") : t("Claim called."), true);
  } catch (e) {
    say(refusal(e, call), false);
  }
}

// --- correcting a misread tile in the own rack ---------------------------------------------------

function startFix(code) {
  fixing = code;
  const box = $("fix");
  box.hidden = false;
  replace("fix", h("div", { class: "fix-head" }, tx("The table shows {tile} {name}. It really is:",
    { tile: tile(code, { cls: "inline" }), name: tileName(code) })),
  pickTile((real) => confirmFix(code, real), { label: t("what the tile really is") }),
  h("button", { class: "act secondary", type: "button", onclick: stopFix }, t("Cancel")));
}

function stopFix() {
  fixing = null;
  $("fix").hidden = true;
  replace("fix");
}

async function confirmFix(read, real) {
  if (read === real) return say(t("That is the same tile: pick what it really is."), false);
  if (!confirm(t("Correct your {read} to {real}?", { read: tileName(read), real: tileName(real) }))) return;
  try {
    await api(`/api/seats/${position}/reassign`, { method: "POST", token, body: { tile: read, as: real } });
    say(t("Corrected: {read} is {real}.", { read: tileName(read), real: tileName(real) }), true);
    stopFix();
  } catch (e) {
    say(refusal(e, null), false);
  }
}

// --- the page ------------------------------------------------------------------------------------

function handEl() {
  if (!seat.hand || !seat.hand.length) return h("span", { class: "muted" }, t("no tiles"));
  const row = tiles(seat.hand, { rowCls: "own" });
  for (const node of row.children) {
    node.setAttribute("tabindex", "0");
    node.classList.toggle("fixing", node.dataset.tile === fixing);
    node.addEventListener("click", () => startFix(node.dataset.tile));
  }
  return row;
}

function buttons(hand) {
  const d = hand.discard;
  // A discard already on a claimant's strip is listed there only (not as hand.discard); it can
  // still be claimed by a call that outranks that claim.
  const live = d || (hand.claim && hand.claim.discard);
  const inPlay = hand.phase === "play" || hand.phase === "deal";
  const why = !token ? t("These buttons need the seat's link: scan the seat's code on the operator page.")
    : hand.phase === "over" ? t("The hand is over: the next one starts with the deal.") : !inPlay ? t("No hand is in play.") : null;
  $("claim").disabled = !!why || !(hand.claim_window && live && live.seat !== position);
  $("ready").disabled = !!why || seat.ready || !(seat.waits && seat.waits.length) && seat.waits_shown !== false;
  $("ready").textContent = seat.ready ? t("Ready") + " ✓" : t("Ready");
  const own = seat.riichi;
  if (own) { // riichi: READY is the riichi declaration, possible only when the seat view says so
    $("ready").disabled = !!why || !own.can_riichi || own.declared || own.in_riichi;
    $("ready").textContent = own.in_riichi || own.declared ? t("Riichi") + " ✓" : t("Riichi");
  }
  // nine terminals (option abortive_draws): shown only while the seat may declare it
  $("nine_terminals").hidden = !(own && own.nine_terminals);
  $("nine_terminals").disabled = !!why;
  const nine = term("nine_terminals");
  $("nine_terminals").textContent = nine.charAt(0).toUpperCase() + nine.slice(1);
  $("mahjong").disabled = !!why;
  $("why").textContent = why || "";
}

function myResult(table, result) {
  if ((result.details || {}).riichi) return myRiichiResult(result, (p) => playerName(table, p), position);
  const me = String(position);
  const detail = (result.details || {})[me] || {};
  const score = detail.score;
  const title = result.result === "washout" ? t("Washout: no scores, the same dealer deals again")
    : String(result.winner) === me ? t("You won!") : t("Mahjong: {who}", { who: playerName(table, result.winner) });
  const net = (result.net || {})[me] ?? 0;
  const items = score ? h("ul", { class: "items" }, (score.items || []).map((it) => h("li", {},
    h("span", { class: "item-name" }, term(it.name)),
    h("span", { class: "item-val" }, it.points ? t("{n} pts", { n: it.points }) : "", it.doubles ? ` ${it.doubles}×2` : "")))) : null;
  const formula = score ? h("div", { class: "formula" }, score.limit_hand
    ? t("limit hand: {limit} = {score}", { limit: term(score.limit_hand), score: num(score.score) })
    : t("{points} points × 2^{doubles} = {score}", { points: score.points, doubles: score.doubles, score: num(score.score) })) : null;
  const pays = (result.payments || []).filter((p) => String(p.from) === me || String(p.to) === me)
    .map((p) => h("li", {}, String(p.from) === me ? t("You pay {who} {amount}", { who: playerName(table, p.to), amount: num(p.amount) })
      : t("{who} pays you {amount}", { who: playerName(table, p.from), amount: num(p.amount) })));
  return h("div", { class: "panel over-note" }, h("b", { class: "over-title-s" }, title),
    result.result === "washout" ? null : h("div", { class: "my-score" },
      h("div", {}, t("Your hand scores {n}", { n: num((result.scores || {})[me] ?? 0) })), items, formula,
      pays.length ? h("div", {}, h("h3", {}, t("Who pays whom")), h("ul", { class: "pays" }, pays)) : null,
      h("div", { class: "net-line" }, t("This hand:") + " ", h("span", { class: net >= 0 ? "pos" : "neg" }, signed(net)))));
}

/** The finished hand step by step (/review, issue 25): with this seat's own tiles throughout. */
function reviewLink(held) {
  const index = ((held.table || {}).hands || []).findIndex((x) => x.number === held.number) + 1;
  return index ? h("a", { class: "hand-review", href: `/review/current/${index}#seat=${position}` },
    t("Review this hand step by step")) : null;
}
$("review-all").href = `/review#seat=${position}`;

// The last hand's result stays on the phone until the next hand's first discard (as on the
// board): the seat's own score, items and payments.
let heldResult = null;
function resultToShow(table, hand) {
  if (hand.phase === "over" && hand.result) {
    heldResult = { number: hand.number, result: hand.result, table };
    return heldResult;
  }
  const untouched = !hand.discard && [1, 2, 3, 4].every((p) => {
    const s = (hand.seats || {})[String(p)] || {};
    return !(s.river || []).length && !(s.melds || []).length;
  });
  if (heldResult && heldResult.number !== hand.number && untouched) return heldResult;
  heldResult = null;
  return null;
}

function render() {
  const table = seat.table || {};
  const hand = table.hand || {};
  const pub = (hand.seats || {})[String(position)] || {};
  $("title").textContent = `${playerName(table, position)}${seat.wind ? " · " + windWord(seat.wind) : ""}`;
  replace("handinfo", hand.number ? `${t("Hand {n}", { n: hand.number })} · ${roundWord(hand.prevailing_wind)}` : "");
  const result = hand.phase === "over" ? hand.result : null;
  if (fixing && !(seat.hand || []).includes(fixing)) stopFix();
  replace("hand", handEl());
  replace("melds", (seat.melds || []).map((m) => tiles(m.tiles, { rowCls: "meld" })),
    seat.bonus && seat.bonus.length ? tiles(seat.bonus, { rowCls: "bonus" }) : null);
  $("tap-hint").hidden = !token || !!result || !(seat.hand || []).length;
  // Waits only while the hand is in play, and only when the table shows them.
  $("waits-box").hidden = !!result || seat.waits_shown === false || !hand.number;
  replace("waits", seat.waits && seat.waits.length ? tiles(seat.waits) : h("span", { class: "muted" }, t("not waiting yet")));
  replace("riichi-notes", result || seat.waits_shown === false ? null : seatNotes(seat.riichi, seat.waits, pub.river));
  buttons(hand);
  const held = resultToShow(table, hand);
  const final = table.riichi && table.riichi.final;
  replace("notice", final ? myFinal(final, position) : null, held ? myResult(held.table, held.result) : null,
    held ? reviewLink(held) : null);
  // "My total" is the score of whoever holds this seat now: their own part of the seat.
  const key = JSON.stringify([(table.hands || []).map((x) => x.names), (table.penalties || []).map((x) => x.cancelled), table.names]);
  if (key !== placesKey) {
    placesKey = key;
    api("/api/hands").then((d) => { seated = d.seated; render(); }).catch(() => {});
  }
  const mine = seatedNow(seated, position, (table.names || {})[String(position)]);
  const total = mine ? mine.score : (table.totals || {})[String(position)] ?? 0;
  const d = hand.discard;
  const turn = hand.phase === "play" && hand.turn
    ? `${playerName(table, hand.turn)}${hand.turn === position ? " " + t("(you)") : ""}${hand.step ? " · " + stepWord(hand.step) : ""}`
    : hand.phase === "deal" ? t("dealing") : "–";
  replace("table",
    h("div", { class: "kv" },
      h("span", {}, t("to play")), h("span", {}, turn),
      h("span", {}, t("discard")), h("span", {}, d ? tiles([d.tile], { rowCls: "small" }) : "–"),
      h("span", {}, t("wall")), h("span", {}, `${hand.live_wall ?? "–"}`),
      table.riichi ? [h("span", {}, t("my points")), h("span", { class: "my-points" }, thousands((table.riichi.points || {})[String(position)]))]
        : [h("span", {}, t("my total")), h("span", { class: total >= 0 ? "pos" : "neg" }, signed(total))],
      h("span", {}, t("my discards")), h("span", {}, tiles(pub.river || [], { rowCls: "small" }))));
}

async function start(candidate, fromLink) {
  try {
    await api(`/api/seats/${position}`, { token: candidate });
  } catch (e) {
    if (e.status === 401) {
      forgetToken(KEY);
      noToken(fromLink ? t("This link's token is not the token of this seat: scan the seat's code on the operator page again.")
        : t("This phone's saved link no longer works: scan the seat's code on the operator page again."));
      return;
    }
    replace("notice", h("p", { class: "error panel" }, peopleText(e, "seat")));
    setTimeout(() => start(candidate, fromLink), 3000);
    return;
  }
  token = candidate;
  keepToken(KEY, token);
  livePage(`/ws/seats/${position}`, {
    type: "seat",
    first: { token },
    token: () => token, // shown at the handshake too: a seat is let in even in a crowd
    onView(view) {
      seat = view;
      render();
    },
    onRefused: () => {
      forgetToken(KEY);
      token = null;
      noToken(t("The service no longer accepts this seat's link: scan the seat's code again."));
    },
  });
}

function noToken(message, error = true) {
  replace("notice", h("p", { class: (error ? "error " : "muted ") + "panel" }, message));
  for (const id of ["claim", "ready", "mahjong", "nine_terminals"]) $(id).disabled = true;
  $("why").textContent = t("These buttons need the seat's link: scan the seat's code on the operator page.");
  $("tap-hint").hidden = true;
  $("waits-box").hidden = true;
}

for (const call of ["claim", "ready", "mahjong", "nine_terminals"]) $(call).addEventListener("click", () => declare(call));

const fromLink = linkToken();
const candidate = fromLink || storedToken(KEY);
if (candidate) noToken(t("Connecting…"), false);
else noToken(t("This page needs the seat's link with its token: scan the QR code on the operator page."));
if (candidate) start(candidate, !!fromLink);
