// The referees' dashboard: every table live from the server's event stream; a referee's
// session token lives only in this page's memory (a reload logs out).
"use strict";
(function () {
  const tables = new Map();     // table name -> summary
  const cards = new Map();      // table name -> card element
  const pendingShown = [];      // feed items waiting to be painted (their `sent`, for timing)
  window.dashboardLatencies = []; // [sent, ms from it to this page painting it], each feed line
  let clockOffset = 0;          // server time - this page's time, seconds
  let broker = null;
  let standings = [];
  let open = null;              // the table shown in detail
  let token = null;
  let account = null;
  let record = null;            // {table, entries, views} once fetched
  let dirty = new Set();
  let orderDirty = true;
  let orderStale = false;       // a table moved on: re-sorted every few seconds, not each event
  let frame = 0;

  const $ = (id) => document.getElementById(id);
  const now = () => Date.now() / 1000 + clockOffset;
  const cap = (s) => String(s || "").replace(/(^|[\s-])\w/g, (c) => c.toUpperCase());
  const NO_BOARD = "The table publishes no board positions: a referee's replay shows the board.";
  function el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = text;
    return e;
  }
  function ago(t) {
    const s = Math.max(0, Math.round(now() - t));
    if (s < 90) return s + " s ago";
    if (s < 5400) return Math.round(s / 60) + " min ago";
    return Math.round(s / 3600) + " h ago";
  }
  function players(t) {
    return Object.entries(t.players || {}).map(([side, name]) => cap(side) + ": " + name).join(" · ");
  }
  function waiting(t) {
    if (!t.waiting_for) return "";
    const name = (t.players || {})[t.waiting_for];
    return "Waiting for " + cap(t.waiting_for) + (name ? " (" + name + ")" : "");
  }
  function order(a, b) {
    const key = (t) => t.alert ? [0, t.alert_at || t.heard_at] :
      t.finished ? [2, 0] : [1, t.moved_at];
    const ka = key(a), kb = key(b);
    return ka[0] - kb[0] || ka[1] - kb[1] || a.number - b.number;
  }

  function schedule() {
    if (!frame) frame = requestAnimationFrame(render);
  }
  function render() {
    frame = 0;
    for (const name of dirty) renderCard(tables.get(name));
    dirty.clear();
    if (orderDirty) {
      orderDirty = false;
      const box = $("tables");
      const sorted = [...tables.values()].sort(order);
      sorted.forEach((t, i) => {
        const card = cards.get(t.table);
        if (box.children[i] !== card) box.insertBefore(card, box.children[i] || null);
      });
      renderAlerts(sorted.filter((t) => t.alert));
    }
    // Timed at the next frame's start: the frame holding this change has been painted.
    const shown = pendingShown.splice(0);
    const first = window.dashboardPainted === undefined && tables.size > 0;
    if (first) window.dashboardPainted = null;
    if (shown.length || first) requestAnimationFrame(() => {
      if (first) window.dashboardPainted = performance.now();
      const painted = Date.now();
      for (const sent of shown) {
        if (window.dashboardLatencies.length < 200000) window.dashboardLatencies.push([sent, painted - sent]);
      }
    });
  }
  function renderAlerts(alerting) {
    const box = $("alerts");
    box.replaceChildren(...alerting.map((t) => {
      const b = el("button", "alert", t.alert_text || ("Table " + t.number + " calls the referee"));
      b.dataset.table = t.table;
      b.appendChild(el("small", "", "Called " + ago(t.alert_at || t.heard_at) + ": tap to open the table"));
      b.addEventListener("click", () => show(t.table));
      return b;
    }));
  }
  function renderCard(t) {
    if (!t) return;
    let card = cards.get(t.table);
    if (!card) {
      card = el("article", "card");
      card.dataset.table = t.table;
      card.addEventListener("click", () => show(card.dataset.table));
      cards.set(t.table, card);
      $("tables").appendChild(card);
    }
    fillCard(card, t);
  }
  function fillCard(card, t) {
    const silent = now() - t.heard_at > 120;
    card.className = "card" + (t.alert ? " alerting" : "") + (t.finished ? " finished" : "") +
      (silent && !t.finished ? " silent" : "");
    const head = el("h2", "", "Table " + t.number);
    head.appendChild(el("span", "game", t.title));
    const parts = [head];
    if (t.alert) parts.push(el("div", "line stage", "⚠ Calls the referee"));
    const who = players(t);
    if (who) parts.push(el("div", "line", who));
    parts.push(el("div", "line stage", t.finished ? (t.result ? t.result.charAt(0).toUpperCase() + t.result.slice(1) : "Finished") : (t.stage || "Not started")));
    if (!t.finished && t.waiting_for) parts.push(el("div", "line waiting", waiting(t)));
    if (t.score) parts.push(el("div", "line", "Score: " + t.score));
    if (t.discrepancies) {
      const d = el("div", "line");
      d.appendChild(el("span", "badge", t.discrepancies + (t.discrepancies === 1 ?
        " open discrepancy" : " open discrepancies")));
      parts.push(d);
    }
    if (t.last_ruling) parts.push(el("div", "line muted", "Last ruling, entry " + t.last_ruling.entry +
      ": " + t.last_ruling.text + cited(t.last_ruling.text, t.last_ruling.rule)));
    if (t.last_seal) parts.push(el("div", "line muted", sealName(t.last_seal)));
    if (t.last_line) parts.push(el("div", "line last", t.last_line));
    const heard = el("div", "line heard" + (silent ? " late" : ""), "Last heard " + ago(t.heard_at));
    heard.dataset.heard = t.heard_at;
    parts.push(heard);
    card.replaceChildren(...parts);
  }
  function sealName(seal) {     // as the table's screen shows it: "Seal of week 2: K7Q2-M9XD"
    const label = String(seal.label || "");
    const of = !label ? "entry " + seal.entry : label.toLowerCase() === "game" ? "the game" : label;
    return "Seal of " + of + ": " + seal.code;
  }
  function renderStandings() {
    const body = $("standings").querySelector("tbody");
    body.replaceChildren(...standings.map((r) => {
      const tr = el("tr");
      tr.append(el("td", "", r.player), el("td", "", r.won), el("td", "", r.played));
      return tr;
    }));
    $("standings").hidden = standings.length === 0;
    $("no-standings").hidden = standings.length > 0;
  }
  function renderBroker() {
    const b = $("broker");
    if (!broker) return;
    b.className = "broker" + (broker.connected ? "" : " down");
    b.textContent = broker.connected ? "Broker connected" :
      "Broker unreachable since " + new Date(broker.since * 1000).toLocaleTimeString() +
      ": tables keep playing and resend when it is back";
  }

  function takeTable(t) {
    const before = tables.get(t.table);
    tables.set(t.table, t);
    dirty.add(t.table);
    if (!before || before.alert !== t.alert || before.finished !== t.finished) orderDirty = true;
    else if (before.moved_at !== t.moved_at) orderStale = true;
    if (open === t.table) { renderDetailCard(); refreshBoard(); }
  }
  let boardTimer = null;
  function refreshBoard() {   // the open table's board follows its status, at most once a second
    if (boardTimer) return;
    boardTimer = setTimeout(async () => {
      boardTimer = null;
      const name = open;
      if (!name) return;
      try {
        const data = await call("GET", "/api/table?table=" + encodeURIComponent(name));
        if (open === name) $("board").textContent = data.board || NO_BOARD;
      } catch (e) { /* the next status asks again */ }
    }, 1000);
  }
  function takeFeed(item) {
    const sent = Date.parse(item.sent);
    if (!isNaN(sent)) pendingShown.push(sent);
    if (open === item.table) addFeed(item, true);
  }
  function cited(text, rule) {   // a feed line ends with its rule already: never cite it twice
    return rule && !text.includes("(" + rule + ")") ? " (" + rule + ")" : "";
  }
  function addFeed(item, first) {
    const li = el("li");
    li.value = item.entry;
    for (const l of item.lines) {
      const line = el("div", "", l.text);
      const rule = cited(l.text, l.rule);
      if (rule) line.appendChild(el("span", "rule", rule));
      li.appendChild(line);
    }
    const box = $("feed");
    if (first) box.insertBefore(li, box.firstChild); else box.appendChild(li);
  }

  function connect() {
    const source = new EventSource("/api/stream");
    source.addEventListener("snapshot", (e) => {
      const s = JSON.parse(e.data);
      clockOffset = s.now - Date.now() / 1000;
      $("title").textContent = "Referees' dashboard: " + s.event;
      broker = s.broker; renderBroker();
      tables.clear();
      s.tables.forEach(takeTable);
      standings = s.standings; renderStandings();
      orderDirty = true; schedule();
      document.body.dataset.ready = "yes";
    });
    source.addEventListener("table", (e) => { takeTable(JSON.parse(e.data)); schedule(); });
    source.addEventListener("feed", (e) => { takeFeed(JSON.parse(e.data)); schedule(); });
    source.addEventListener("standings", (e) => { standings = JSON.parse(e.data); renderStandings(); });
    source.addEventListener("broker", (e) => { broker = JSON.parse(e.data); renderBroker(); });
  }

  async function call(method, path, body) {
    const headers = {"Content-Type": "application/json"};
    if (token) headers["X-Referee-Session"] = token;
    const r = await fetch(path, {method, headers, body: body ? JSON.stringify(body) : undefined});
    const data = await r.json();
    if (r.status === 401) loggedOut(data.error);
    if (!r.ok) throw new Error(data.error || "the dashboard did not answer");
    return data;
  }

  async function show(name) {
    open = name;
    record = null;
    $("overview").hidden = true;
    $("detail").hidden = false;
    $("verified").textContent = ""; $("verified").className = "verified";
    $("record-tools").hidden = true;
    $("replay").textContent = ""; $("explain").textContent = "";
    renderDetailCard();
    const data = await call("GET", "/api/table?table=" + encodeURIComponent(name));
    if (open !== name) return;
    $("board").textContent = data.board || NO_BOARD;
    $("feed").replaceChildren();
    data.feed.slice().reverse().forEach((item) => addFeed(item, false));
    window.scrollTo(0, 0);
  }
  function renderDetailCard() {
    const t = tables.get(open);
    if (!t) return;
    $("detail-title").textContent = "Table " + t.number + ": " + t.title;
    const card = el("div", "card");
    fillCard(card, t);
    card.firstChild.remove();
    if ((t.seals || []).length > 1) {
      const all = el("div", "line muted", "Every seal: ");
      all.textContent += t.seals.map((seal) => sealName(seal).replace(/^Seal of /, "")).join(" · ");
      card.appendChild(all);
    }
    $("detail-card").replaceChildren(card);
  }
  function hideDetail() {
    open = null;
    $("detail").hidden = true;
    $("overview").hidden = false;
  }

  function loggedIn(data) {
    token = data.token; account = data.account;
    $("login").hidden = true;
    $("session").hidden = false;
    $("session-name").textContent = "Referee " + account.replace(/^referee-/, "");
    $("login-error").hidden = true;
    $("referee-tools").hidden = false;
    $("referee-hint").hidden = true;
  }
  function loggedOut(message) {
    token = null; account = null; record = null;
    $("login").hidden = false;
    $("session").hidden = true;
    $("referee-tools").hidden = true;
    $("record-tools").hidden = true;
    $("referee-hint").hidden = false;
    $("replay").textContent = ""; $("explain").textContent = "";
    if (message) { $("login-error").textContent = message; $("login-error").hidden = false; }
  }
  $("login").addEventListener("submit", async (e) => {
    e.preventDefault();
    $("login-button").disabled = true;
    try {
      const data = await call("POST", "/api/login",
        {name: $("login-name").value, password: $("login-password").value});
      loggedIn(data);
    } catch (err) {
      $("login-error").textContent = err.message; $("login-error").hidden = false;
    } finally {
      $("login-password").value = "";
      $("login-button").disabled = false;
    }
  });
  $("logout").addEventListener("click", async () => {
    try { await call("POST", "/api/logout"); } catch (err) { /* ended already */ }
    loggedOut(null);
  });
  $("detail-close").addEventListener("click", hideDetail);
  $("fetch").addEventListener("click", async () => {
    const v = $("verified");
    v.className = "verified"; v.textContent = "Asking the table for its record…";
    $("fetch").disabled = true;
    try {
      const data = await call("POST", "/api/record", {table: open});
      record = data;
      v.className = "verified " + (data.holds ? "holds" : "refused");
      v.textContent = (data.holds ? "✔ " : "✘ ") + data.verified;
      if (data.holds) {
        $("replay-view").replaceChildren(...data.views.map((name) => {
          const o = el("option", "", cap(name)); o.value = name; return o;
        }));
        $("replay-view").value = "public";  // hidden pieces only when the referee asks
        for (const id of ["replay-at", "replay-slider"]) $(id).max = data.entries;
        $("explain-n").max = data.entries;
        $("replay-at").value = data.entries; $("replay-slider").value = data.entries;
        $("record-tools").hidden = false;
        await replay();
      }
    } catch (err) {
      v.className = "verified refused"; v.textContent = err.message;
    } finally {
      $("fetch").disabled = false;
    }
  });
  async function replay() {
    const at = $("replay-at").value;
    try {
      const data = await call("GET", "/api/replay?table=" + encodeURIComponent(open) +
        "&at=" + encodeURIComponent(at) + "&view=" + encodeURIComponent($("replay-view").value));
      $("replay").textContent = data.text;
    } catch (err) { $("replay").textContent = err.message; }
  }
  $("replay-form").addEventListener("submit", (e) => { e.preventDefault(); replay(); });
  $("replay-slider").addEventListener("change", () => { $("replay-at").value = $("replay-slider").value; replay(); });
  $("replay-at").addEventListener("change", () => { $("replay-slider").value = $("replay-at").value; });
  $("explain-form").addEventListener("submit", async (e) => {
    e.preventDefault();
    try {
      const data = await call("GET", "/api/explain?table=" + encodeURIComponent(open) +
        "&n=" + encodeURIComponent($("explain-n").value));
      $("explain").textContent = data.text;
    } catch (err) { $("explain").textContent = err.message; }
  });

  setInterval(() => {
    if (orderStale) { orderStale = false; orderDirty = true; schedule(); }
  }, 5000);
  setInterval(() => {            // "last heard N s ago" and "called N s ago" move on by themselves
    if ($("alerts").children.length) renderAlerts([...tables.values()].filter((t) => t.alert).sort(order));
    for (const span of document.querySelectorAll(".heard")) {
      const t = Number(span.dataset.heard);
      span.textContent = "Last heard " + ago(t);
      span.classList.toggle("late", now() - t > 120);
    }
  }, 1000);
  renderStandings();
  connect();
})();
