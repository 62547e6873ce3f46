"use strict";
// The club pages: plain DOM, no network beyond this service.
function el(tag, attrs, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  for (const k of kids) e.append(k instanceof Node ? k : document.createTextNode(String(k)));
  return e;
}
async function getJSON(url, opts) {
  const r = await fetch(url, opts);
  const body = await r.json().catch(() => ({}));
  if (!r.ok) throw new Error(typeof body.detail === "string" ? body.detail : `error ${r.status}`);
  return body;
}
function playerLink(name) { return el("a", {href: "/player/" + encodeURIComponent(name)}, name); }
// An anonymous seat ("Seat 1 at green") is nobody's page.
function nameCell(label, part) {
  const anonymous = part ? part.name === null : /^Seat [1-4]( at |$)/.test(label);
  return anonymous ? label : playerLink(label);
}
function pts(v) { return v === null || v === undefined ? "provisional" : String(Math.round(v * 100) / 100); }
function when(t) { return t ? new Date(t * 1000).toLocaleString() : ""; }

function tableCard(t) {
  const card = el("div", {class: "card" + (t.online ? "" : " offline"), "data-table": t.table});
  card.append(el("h3", {}, t.table, el("span", {class: "online"}, t.online ? "online" : "offline")));
  const info = t.hand ? `Hand ${t.hand} · wall ${t.wall ?? "-"}${t.phase === "over" ? " · over" : ""}` : "no hand yet";
  card.append(el("div", {class: "hand-info"}, info));
  const rows = el("tbody");
  for (const p of ["1", "2", "3", "4"]) {
    // The person sitting there now with their own score in this session; a seat whose holder
    // changed lists the earlier holders' parts under it (each hand belongs to whoever held it).
    const name = t.players[p];
    const place = (t.places || []).find(x => x.seat === p);
    const tr = el("tr", {class: String(t.turn) === p ? "turn" : "", "data-seat": p},
      el("td", {class: "n"}, place ? place.place + "." : ""), el("td", {}, nameCell(name)),
      el("td", {class: "n", "data-total": name}, t.totals[name]));
    rows.append(tr);
    for (const part of place ? place.holders : []) {
      if (part.label.toLowerCase() === name.toLowerCase()) continue;
      rows.append(el("tr", {class: "earlier", "data-seat": p}, el("td", {}, ""),
        el("td", {}, `earlier: ${part.label} (${part.hands} ${part.hands === 1 ? "hand" : "hands"})`),
        el("td", {class: "n"}, part.score)));
    }
  }
  card.append(el("table", {}, rows));
  if (t.places && t.places.length) card.append(el("div", {class: "provisional"},
    t.finished ? "session over" : "places provisional: the session is under way"));
  if (t.turn) card.append(el("div", {class: "whose-turn"}, `${t.turn_name} (${t.turn_wind}) to play`));
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
    el("tr", {class: x.finished ? "" : "provisional"}, el("td", {}, x.table), el("td", {}, when(x.started) + (x.finished ? "" : " (under way)")),
      el("td", {}, x.places.map(p => `${p.place}. ` + p.holders.map(hh =>
        `${hh.label} (${pts(hh.points)}, ${hh.score})`).join(" + ")).join(" · ")))));
}
async function showRound() {
  const t = (await getJSON("/api/club/tournament")).tournament;
  const box = document.getElementById("round");
  const rnd = t && t.rounds_played.length ? t.rounds_played[t.rounds_played.length - 1] : null;
  if (!rnd) { box.textContent = ""; return; }
  const left = rnd.ends_at - Date.now() / 1000;
  box.textContent = left > 0 ? `Round ${rnd.round}: ${Math.floor(left / 60)}:${String(Math.floor(left % 60)).padStart(2, "0")} left`
    : `Round ${rnd.round}: time is up`;
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
  setInterval(() => { document.getElementById("clock").textContent = new Date().toLocaleTimeString(); }, 1000);
}

function chart(svg, points) {
  svg.replaceChildren();
  const ns = "http://www.w3.org/2000/svg";
  if (!points.length) return;
  const vals = points.map(p => p.balance);
  const lo = Math.min(0, ...vals), hi = Math.max(0, ...vals), span = (hi - lo) || 1;
  const x = i => 40 + i * 550 / Math.max(1, points.length - 1);
  const y = v => 185 - (v - lo) * 170 / span;
  const mk = (tag, attrs) => { const e = document.createElementNS(ns, tag);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v); svg.append(e); return e; };
  mk("line", {x1: 40, x2: 590, y1: y(0), y2: y(0), stroke: "#999"});
  mk("polyline", {points: points.map((p, i) => `${x(i)},${y(p.balance)}`).join(" "),
    fill: "none", stroke: "#1f4d3a", "stroke-width": 2});
  points.forEach((p, i) => mk("circle", {cx: x(i), cy: y(p.balance), r: 3, fill: "#1f4d3a"}));
  for (const [v, label] of [[hi, hi], [lo, lo]]) {
    const t = mk("text", {x: 2, y: y(v) + 4, "font-size": 11}); t.textContent = label;
  }
}
async function playerPage() {
  const name = decodeURIComponent(location.pathname.split("/").pop());
  document.getElementById("name").textContent = name;
  const p = await getJSON("/api/club/players/" + encodeURIComponent(name));
  const s = p.statistics;
  const labels = [["hands", "Hands played"], ["won", "Hands won"], ["self_drawn", "Self-drawn"],
    ["dealt_in", "Dealt in"], ["largest", "Largest hand"], ["limit_hands", "Limit hands"]];
  document.querySelector("#stats tbody").replaceChildren(...labels.map(([k, l]) =>
    el("tr", {}, el("th", {}, l), el("td", {class: "n", "data-stat": k}, s[k]))));
  chart(document.getElementById("chart"), p.balance);
  document.querySelector("#psessions tbody").replaceChildren(...p.sessions.map(x =>
    el("tr", {}, el("td", {}, x.table), el("td", {}, when(x.started)), el("td", {class: "n"}, x.places.join(" + ")),
      el("td", {class: "n"}, pts(x.points)), el("td", {class: "n"}, x.score))));
}

function adminHeaders() {
  return {"Authorization": "Bearer " + (sessionStorage.getItem("clubToken") || ""),
          "Content-Type": "application/json"};
}
async function tournamentPage() {
  const msg = document.getElementById("msg");
  const say = (text) => { msg.textContent = text; };
  const loadRoster = async () => {
    const r = await getJSON("/api/club/admin/roster", {headers: adminHeaders()});
    document.getElementById("roster").replaceChildren(...r.players.map(p =>
      el("li", {}, `${p.name} ${p.ema ? "· EMA " + p.ema : ""} ${p.country ? "· " + p.country : ""}`)));
  };
  const loadPlan = async () => {
    const t = (await getJSON("/api/club/tournament")).tournament;
    const box = document.getElementById("plan");
    if (!t) { box.textContent = "no tournament yet"; return; }
    box.replaceChildren(el("p", {}, `${t.players.length} players, ${t.rounds} rounds; pairs meeting twice: ${t.repeats.pairs_meeting_twice}`));
    t.plan.forEach((rnd, i) => {
      const played = t.rounds_played[i];
      const head = el("h3", {}, `Round ${i + 1}`);
      if (!played && i === t.rounds_played.length) {
        const b = el("button", {}, "Start round " + (i + 1));
        b.onclick = () => getJSON(`/api/club/tournament/rounds/${i + 1}`, {method: "POST", headers: adminHeaders()})
          .then(loadPlan).catch(e => say(e.message));
        head.append(" ", b);
      }
      box.append(head, el("p", {}, rnd.map((tbl, k) => `${t.tables[k]}: ${tbl.join(", ")}`).join(" | ")));
      if (played) box.append(el("p", {}, "Ends " + when(played.ends_at) + " · " +
        played.ranking.map(r => `${r.name} ${r.table_points === null ? "provisional" : r.table_points}/${r.score}`).join(", ")));
    });
    box.append(el("h3", {}, "Final"), el("ol", {}, ...t.final.map(r => el("li", {}, `${r.name}: ${r.table_points} table points, ${r.score}`))));
  };
  document.getElementById("save-token").onclick = async () => {
    sessionStorage.setItem("clubToken", document.getElementById("token").value.trim());
    try { await loadRoster(); document.getElementById("login-msg").textContent = "logged in"; }
    catch (e) { sessionStorage.removeItem("clubToken"); document.getElementById("login-msg").textContent = "wrong token"; }
  };
  document.getElementById("add-player").onsubmit = async (ev) => {
    ev.preventDefault();
    const f = new FormData(ev.target);
    try { await getJSON("/api/club/roster", {method: "POST", headers: adminHeaders(),
      body: JSON.stringify({name: f.get("name"), ema: f.get("ema"), country: f.get("country")})}); loadRoster(); }
    catch (e) { say(e.message); }
  };
  document.getElementById("new-t").onsubmit = async (ev) => {
    ev.preventDefault();
    const f = new FormData(ev.target);
    const body = {players: f.get("players").split("\n").map(s => s.trim()).filter(Boolean),
      rounds: Number(f.get("rounds")), minutes: Number(f.get("minutes")),
      tables: f.get("tables").split(",").map(s => s.trim()).filter(Boolean)};
    try { await getJSON("/api/club/tournament", {method: "POST", headers: adminHeaders(), body: JSON.stringify(body)}); loadPlan(); }
    catch (e) { say(e.message); }
  };
  if (sessionStorage.getItem("clubToken")) loadRoster().catch(() => {});
  loadPlan();
}
