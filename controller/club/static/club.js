"use strict";
// The club pages: plain DOM, no network beyond this service. Their words come from the table's
// catalogs through static/i18n.js (a module the page imports first: window.i18n).
const i18n = () => window.i18n;
function t(message, values) { return i18n().t(message, values); }
function tn(one, many, n, values) { return i18n().tn(one, many, n, values); }
function term(name) { return i18n().term(name); }
function num(n) { return i18n().num(n); }
function el(tag, attrs, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  for (const k of kids) e.append(k instanceof Node ? k : document.createTextNode(String(k)));
  return e;
}
async function getJSON(url, opts) {
  const r = await fetch(url, opts);
  const body = await r.json().catch(() => ({}));
  if (!r.ok) {
    const d = body.detail;  // a list of field errors (422) is said as its first one
    const first = Array.isArray(d) && d.length ? `${(d[0].loc || []).slice(-1)[0] ?? "input"}: ${d[0].msg}` : null;
    throw new Error(typeof d === "string" ? d : first || t("error {n}", {n: r.status}));
  }
  return body;
}
function playerLink(name) { return el("a", {href: "/player/" + encodeURIComponent(name)}, name); }
// An anonymous seat ("Seat 1 at green") is nobody's page.
function nameCell(label, part) {
  const anonymous = part ? part.name === null : /^Seat [1-4]( at |$)/.test(label);
  return anonymous ? seatWords(label) : playerLink(label);
}
/** The service's label of an unnamed holder ("Seat 1", "Seat 1 at green") in the page's words. */
function seatWords(label) {
  const m = /^Seat ([1-4])(?: at (.+))?$/.exec(label || "");
  if (!m) return label;
  return m[2] ? t("Seat {n} at {table}", {n: m[1], table: m[2]}) : t("Seat {n}", {n: m[1]});
}
function pts(v) { return v === null || v === undefined ? t("provisional") : num(Math.round(v * 100) / 100); }
function when(s) { return s ? i18n().when(s) : ""; }

// Tile faces come from the table's own tiles.js (loaded as a module by the page: window.faces).
function tileRow(codes, cls) {
  const f = window.faces;
  if (!f) return el("span", {class: "tiles " + (cls || "")}, codes.join(" "));
  const row = f.tiles(codes);
  if (cls) row.classList.add(...cls.split(" "));
  return row;
}
const WINDS = () => ({east: t("E"), south: t("S"), west: t("W"), north: t("N")});
// Only what lies open at the table: the discards, the sets, the bonus tiles; the rack as a count.
function seatBoard(tb, p) {
  const b = (tb.board || {})[p];
  const box = el("div", {class: "seat-tiles"});
  if (!b) return box;
  const sets = el("span", {class: "sets"});
  b.melds.forEach((m, i) => sets.append(tileRow(m, "meld" + ((b.concealed || []).includes(i) ? " concealed" : ""))));
  if (b.forming.length) sets.append(tileRow(b.forming, "meld forming"));
  if (b.bonus.length) sets.append(tileRow(b.bonus, "bonus"));
  sets.append(el("span", {class: "rack", title: t("tiles in the rack (concealed)")}, t("{n} in hand", {n: b.concealed_count})));
  box.append(sets);
  if (b.river.length) box.append(el("div", {class: "river"}, tileRow(b.river, "river-tiles")));
  return box;
}
function tableCard(tb) {
  const card = el("div", {class: "card" + (tb.online ? "" : " offline"), "data-table": tb.table});
  const head = el("h3", {}, tb.table, el("span", {class: "online"}, tb.online ? t("online") : t("offline")));
  if (tb.url) head.append(el("a", {class: "board-link", href: tb.url, target: "_blank", rel: "noopener"}, t("board") + " ›"));
  card.append(head);
  const round = {east: t("East round"), south: t("South round"), west: t("West round"), north: t("North round")}[tb.prevailing_wind] || "";
  const info = tb.hand ? [t("Hand {n}", {n: tb.hand}), round, t("wall {n}", {n: tb.wall ?? "-"}), tb.phase === "over" ? t("hand over") : ""]
    .filter(Boolean).join(" · ") : t("no hand yet");
  card.append(el("div", {class: "hand-info"}, info));
  if (tb.turn) card.append(el("div", {class: "whose-turn"}, t("{who} ({wind}) to play", {who: seatWords(tb.turn_name), wind: term(tb.turn_wind)})));
  if (tb.discard) card.append(el("div", {class: "pad"}, t("on the pad:") + " ", tileRow([tb.discard.tile], "pad-tile")));
  const rows = el("div", {class: "seats"});
  for (const p of ["1", "2", "3", "4"]) {
    // The person sitting there now with their own score in this session; a seat whose holder
    // changed lists the earlier holders' parts under it (each hand belongs to whoever held it).
    const name = tb.players[p];
    const place = (tb.places || []).find(x => x.seat === p);
    const wind = ((tb.board || {})[p] && tb.dealer) ? ["east", "south", "west", "north"][(Number(p) - tb.dealer + 4) % 4] : null;
    const row = el("div", {class: "seat-row" + (String(tb.turn) === p ? " turn" : ""), "data-seat": p});
    row.append(el("div", {class: "seat-head"},
      el("span", {class: "place"}, place ? place.place + "." : ""),
      wind ? el("span", {class: "wind", title: term(wind)}, WINDS()[wind]) : "",
      el("span", {class: "who"}, nameCell(name)),
      el("span", {class: "n", "data-total": name}, tb.totals[name])));
    for (const part of place ? place.holders : []) {
      if (part.label.toLowerCase() === name.toLowerCase()) continue;
      row.append(el("div", {class: "earlier"},
        t("earlier: {who} ({hands}) {score}", {who: seatWords(part.label), hands: tn("{n} hand", "{n} hands", part.hands), score: part.score})));
    }
    row.append(seatBoard(tb, p));
    rows.append(row);
  }
  card.append(rows);
  if (tb.places && tb.places.length) card.append(el("div", {class: "provisional"},
    tb.finished ? t("session over") : t("places provisional: the session is under way")));
  return card;
}
function showTables(tables) {
  const box = document.getElementById("tables");
  box.replaceChildren(...tables.map(tableCard));
  window.lastTables = tables;  // for tests and the benchmark
  window.lastTablesAt = Date.now() / 1000;
}
async function showStandings() {
  const s = await getJSON("/api/club/standings");
  document.getElementById("season").textContent = s.season;
  document.querySelector("#tonight tbody").replaceChildren(...s.tonight.map(r =>
    el("tr", {}, el("td", {}, r.rank), el("td", {}, playerLink(r.name)), el("td", {class: "n"}, r.hands),
      el("td", {class: "n"}, r.won), el("td", {class: "n"}, r.score))));
  document.querySelector("#league tbody").replaceChildren(...s.league.standings.map(r =>
    el("tr", {}, el("td", {}, r.rank), el("td", {}, playerLink(r.name)), el("td", {class: "n"}, r.sessions),
      el("td", {class: "n"}, pts(r.points)), el("td", {class: "n"}, r.score))));
  // Four places a session (one per seat); a seat whose holder changed lists each holder's part.
  document.querySelector("#sessions tbody").replaceChildren(...s.league.sessions.slice().reverse().map(x =>
    el("tr", {class: x.finished ? "" : "provisional"}, el("td", {}, x.table), el("td", {}, when(x.started) + (x.finished ? "" : " " + t("(under way)"))),
      el("td", {}, x.places.map(p => `${p.place}. ` + p.holders.map(hh =>
        `${seatWords(hh.label)} (${pts(hh.points)}, ${hh.score})`).join(" + ")).join(" · ")))));
}
async function showRound() {
  const tt = (await getJSON("/api/club/tournament")).tournament;
  const box = document.getElementById("round");
  const rnd = tt && tt.rounds_played.length ? tt.rounds_played[tt.rounds_played.length - 1] : null;
  if (!rnd) { box.textContent = ""; return; }
  const left = rnd.ends_at - Date.now() / 1000;
  box.textContent = left > 0 ? t("Round {n}: {time} left", {n: rnd.round, time: `${Math.floor(left / 60)}:${String(Math.floor(left % 60)).padStart(2, "0")}`})
    : t("Round {n}: time is up", {n: rnd.round});
}
function clubPage() {
  getJSON("/api/club/tables").then(showTables);
  showRound().catch(() => {});
  setInterval(() => showRound().catch(() => {}), 5000);
  showStandings();
  let standingsDue = false;
  const connect = () => {
    const ws = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws/club");
    ws.onmessage = (m) => {
      const data = JSON.parse(m.data);
      showTables(data.tables);
      if (!standingsDue) { standingsDue = true; setTimeout(() => { standingsDue = false; showStandings(); }, 1000); }
    };
    ws.onclose = () => setTimeout(connect, 2000);
  };
  connect();
  setInterval(() => { document.getElementById("clock").textContent = clock(Date.now() / 1000, true); }, 1000);
}

// The balance after each hand, drawn at the width the page gives it (readable on a phone).
function chart(svg, points) {
  svg.replaceChildren();
  const ns = "http://www.w3.org/2000/svg";
  if (!points.length) return;
  const W = Math.max(280, svg.clientWidth || 600), H = 220, left = 48, right = 10, top = 12, bottom = 26;
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  const vals = points.map(p => p.balance);
  const lo = Math.min(0, ...vals), hi = Math.max(0, ...vals), span = (hi - lo) || 1;
  const x = i => left + i * (W - left - right) / Math.max(1, points.length - 1);
  const y = v => top + (hi - v) * (H - top - bottom) / span;
  const mk = (tag, attrs, text) => { const e = document.createElementNS(ns, tag);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
    if (text !== undefined) e.textContent = text; svg.append(e); return e; };
  mk("line", {x1: left, x2: W - right, y1: y(0), y2: y(0), stroke: "#999"});
  mk("polyline", {points: points.map((p, i) => `${x(i)},${y(p.balance)}`).join(" "),
    fill: "none", stroke: "#1f4d3a", "stroke-width": 2.5});
  points.forEach((p, i) => mk("circle", {cx: x(i), cy: y(p.balance), r: 3.5, fill: "#1f4d3a"}));
  for (const v of new Set([hi, 0, lo])) mk("text", {x: left - 6, y: y(v) + 5, "font-size": 14, "text-anchor": "end"}, v);
  mk("text", {x: left, y: H - 6, "font-size": 14}, t("hand {n}", {n: 1}));
  mk("text", {x: W - right, y: H - 6, "font-size": 14, "text-anchor": "end"}, t("hand {n}", {n: points.length}));
}
function sourceWords(s) {
  return {wall: t("self-drawn"), replacement: t("self-drawn (replacement)"), dealt: t("dealt complete"),
    discard: t("on a discard"), robbed_kong: t("robbing a kong")}[s] || s || "";
}
/** The 404 page of a name nobody played under: the name said back. */
function noPlayerPage() {
  const who = decodeURIComponent(location.pathname.split("/").pop());
  document.getElementById("missing").textContent = t("Nobody called “{name}” has played at this club.", {name: who});
}
async function playerPage() {
  const name = decodeURIComponent(location.pathname.split("/").pop());
  document.getElementById("name").textContent = name;
  let p;
  try { p = await getJSON("/api/club/players/" + encodeURIComponent(name)); }
  catch (e) { document.getElementById("stats").replaceWith(el("p", {class: "err"}, e.message)); return; }
  document.getElementById("name").textContent = p.name;
  const s = p.statistics;
  const rows = [[t("Sessions"), p.sessions.length], [t("Hands played"), s.hands], [t("Hands won"), s.won],
    [t("Self-drawn"), s.self_drawn], [t("Dealt in"), s.dealt_in],
    [t("Average hand won"), p.average_won ?? "–"], [t("Best hand"), s.largest], [t("Limit hands"), s.limit_hands]];
  const keys = ["sessions", "hands", "won", "self_drawn", "dealt_in", "average_won", "largest", "limit_hands"];
  document.querySelector("#stats tbody").replaceChildren(...rows.map(([l, v], i) =>
    el("tr", {}, el("th", {}, l), el("td", {class: "n", "data-stat": keys[i]}, v))));
  const best = document.getElementById("best");
  best.replaceChildren(p.best ? el("div", {},
    el("p", {}, t("{score} at {table}, hand {n} ({how})", {score: p.best.score, table: p.best.table, n: p.best.number, how: sourceWords(p.best.win_source)}) +
      (p.best.limit_hand ? " · " + t("limit hand: {name}", {name: term(p.best.limit_hand)}) : "")),
    el("ul", {class: "patterns"}, ...p.best.patterns.map(x => el("li", {}, term(x))))) : el("p", {}, t("no hand won yet")));
  document.querySelector("#won tbody").replaceChildren(...p.hands_won.slice().reverse().map(w =>
    el("tr", {}, el("td", {}, w.review ? el("a", {href: w.review, title: t("step through this hand on its table")},
      `${w.table} #${w.number}`) : `${w.table} #${w.number}`), el("td", {class: "n"}, w.score),
      el("td", {}, sourceWords(w.win_source)), el("td", {class: "pat"}, w.patterns.map(term).join(", ")))));
  const svg = document.getElementById("chart");
  chart(svg, p.balance);
  let due = null;
  window.addEventListener("resize", () => { clearTimeout(due); due = setTimeout(() => chart(svg, p.balance), 100); });
  document.querySelector("#psessions tbody").replaceChildren(...p.sessions.slice().reverse().map(x =>
    el("tr", {}, el("td", {}, x.table), el("td", {}, when(x.started)), el("td", {class: "n"}, x.places.join(" + ")),
      el("td", {class: "n"}, pts(x.points)), el("td", {class: "n"}, x.score))));
  window.playerShown = p;
}

function adminHeaders() {
  return {"Authorization": "Bearer " + (sessionStorage.getItem("clubToken") || ""),
          "Content-Type": "application/json"};
}
function say(id, text, ok) {
  const m = document.getElementById(id);
  m.textContent = text; m.className = "msg " + (ok ? "ok" : "bad");
}
function clock(s, withSeconds = false) {
  const options = withSeconds ? {hour: "2-digit", minute: "2-digit", second: "2-digit"} : {hour: "2-digit", minute: "2-digit"};
  const pseudo = i18n().lang() === "en-XA";
  const text = new Intl.DateTimeFormat(pseudo ? "en" : i18n().lang(), options).format(new Date(s * 1000));
  return pseudo ? `⟦${text}⟧` : text;
}
function planTables(tt) {
  const box = document.getElementById("plan");
  if (!tt) { box.replaceChildren(el("p", {}, t("no tournament yet"))); return; }
  const admin = !document.getElementById("admin").hidden;
  const out = [el("p", {}, t("{players} players at {tables} tables, {rounds} rounds of {minutes} minutes; pairs meeting twice: {twice}",
    {players: tt.players.length, tables: tt.tables.length, rounds: tt.rounds, minutes: tt.minutes, twice: tt.repeats.pairs_meeting_twice}))];
  tt.plan.forEach((rnd, i) => {
    const played = tt.rounds_played[i];
    const head = el("div", {class: "round-head"}, el("h3", {}, t("Round {n}", {n: i + 1})),
      el("span", {class: "timer"}, played ? `${clock(played.started)} – ${clock(played.ends_at)}` : t("{n} minutes, not started", {n: tt.minutes})));
    if (admin && !played && i === tt.rounds_played.length) {
      const b = el("button", {type: "button", "data-start": i + 1}, t("Start round {n}", {n: i + 1}));
      b.onclick = () => getJSON(`/api/club/tournament/rounds/${i + 1}`, {method: "POST", headers: adminHeaders()})
        .then(() => { say("plan-msg", t("Round {n} started: every table shows its timer.", {n: i + 1}), true); loadPlan(); })
        .catch(e => say("plan-msg", e.message, false));
      head.append(b);
    }
    const seats = el("tbody", {}, ...rnd.map((names, k) => el("tr", {}, el("th", {}, tt.tables[k]),
      ...names.map(n => el("td", {}, n)))));
    out.push(head, el("div", {class: "scroll"}, el("table", {class: "seating", "data-round": i + 1},
      el("thead", {}, el("tr", {}, el("th", {}, t("Table")), el("th", {}, t("East")), el("th", {}, t("South")), el("th", {}, t("West")), el("th", {}, t("North")))), seats)));
    if (played) out.push(el("div", {class: "scroll"}, el("table", {class: "results", "data-round": i + 1},
      el("thead", {}, el("tr", {}, el("th", {}, "#"), el("th", {}, t("Player")), el("th", {class: "n"}, t("Table points")), el("th", {class: "n"}, t("Score")))),
      el("tbody", {}, ...played.ranking.map((r, j) => el("tr", {}, el("td", {}, j + 1), el("td", {}, r.name),
        el("td", {class: "n"}, pts(r.table_points)), el("td", {class: "n"}, r.score)))))));
  });
  box.replaceChildren(...out);
  document.querySelector("#final tbody").replaceChildren(...tt.final.map(r => el("tr", {},
    el("td", {}, r.rank), el("td", {}, r.name), el("td", {}, r.ema), el("td", {}, r.country),
    el("td", {class: "n"}, r.table_points), el("td", {class: "n"}, r.score))));
}
async function loadPlan() {
  const tt = (await getJSON("/api/club/tournament")).tournament;
  planTables(tt);
  window.tournamentShown = tt;
}
async function tournamentPage() {
  window.addEventListener("hashchange", () => location.reload());  // a #token= link opened here
  const fromLink = location.hash.match(/token=([^&]+)/);
  if (fromLink) {  // the link `mahjong-table club` prints: keep the token, drop it from the address
    sessionStorage.setItem("clubToken", decodeURIComponent(fromLink[1]));
    history.replaceState(null, "", location.pathname);
  }
  const loadRoster = async () => {
    const r = await getJSON("/api/club/admin/roster", {headers: adminHeaders()});
    document.getElementById("roster").replaceChildren(...r.players.map(p =>
      el("li", {}, `${p.name}${p.ema ? " · " + t("EMA") + " " + p.ema : ""}${p.country ? " · " + p.country : ""}`)));
  };
  const enter = async (why) => {
    try { await loadRoster(); }
    catch (e) {
      sessionStorage.removeItem("clubToken");
      document.getElementById("admin").hidden = true; document.getElementById("login").hidden = false;
      say("login-msg", why === "typed" ? t("Wrong token: that is not this club's admin token.") :
        why === "link" ? t("The link's token is not this club's admin token.") : e.message, false);
      return;
    }
    document.getElementById("admin").hidden = false; document.getElementById("login").hidden = true;
    loadPlan().catch(() => {});
  };
  document.getElementById("login-form").onsubmit = (ev) => {
    ev.preventDefault();
    const typed = document.getElementById("token").value.trim();
    if (!typed) { say("login-msg", t("Paste the admin token first."), false); return; }
    sessionStorage.setItem("clubToken", typed);
    enter("typed");
  };
  // enabled only now: a login sent before this handler was a plain submit that reloaded the page
  document.querySelector("#login-form button").disabled = false;
  document.getElementById("logout").onclick = () => {
    sessionStorage.removeItem("clubToken");
    document.getElementById("admin").hidden = true; document.getElementById("login").hidden = false;
    say("login-msg", t("Logged out."), true); loadPlan().catch(() => {});
  };
  document.getElementById("add-player").onsubmit = async (ev) => {
    ev.preventDefault();
    const f = new FormData(ev.target);
    try {
      await getJSON("/api/club/roster", {method: "POST", headers: adminHeaders(),
        body: JSON.stringify({name: f.get("name"), ema: f.get("ema"), country: f.get("country")})});
      say("roster-msg", t("{name} is on the roster.", {name: f.get("name")}), true); ev.target.reset(); loadRoster();
    } catch (e) { say("roster-msg", e.message, false); }
  };
  document.getElementById("new-t").onsubmit = async (ev) => {
    ev.preventDefault();
    const f = new FormData(ev.target);
    const body = {players: f.get("players").split("\n").map(s => s.trim()).filter(Boolean),
      rounds: Number(f.get("rounds")), minutes: Number(f.get("minutes")),
      tables: f.get("tables").split(",").map(s => s.trim()).filter(Boolean)};
    try {
      await getJSON("/api/club/tournament", {method: "POST", headers: adminHeaders(), body: JSON.stringify(body)});
      say("new-msg", t("Seating plan made: {players} players, {rounds} rounds.", {players: body.players.length, rounds: body.rounds}), true);
      ev.target.reset(); loadPlan();
    } catch (e) { say("new-msg", e.message, false); }
  };
  if (sessionStorage.getItem("clubToken")) await enter(fromLink ? "link" : "saved");
  else loadPlan().catch(() => {});
  showRound().catch(() => {});
  setInterval(() => showRound().catch(() => {}), 5000);
  // the rounds' results as the tables play them (drawn again only when they changed)
  setInterval(() => getJSON("/api/club/tournament").then((r) => {
    if (JSON.stringify(r.tournament) !== JSON.stringify(window.tournamentShown)) {
      planTables(r.tournament);
      window.tournamentShown = r.tournament;
    }
  }).catch(() => {}), 5000);
}
