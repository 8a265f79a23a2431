// The phone page of one seat (companion/phones/protocol.py says what goes on the socket).
// The seat and its secret come in the URL's fragment (#s=2&k=...), which the browser never
// sends to the server; they are kept in this phone's storage and the fragment is removed
// from the address bar. The page times each press (short, or long once held
// long_press_ms, sent at that moment) and numbers it; a press stays queued, and in the
// phone's storage, until the kiosk acknowledges it, and is sent again after a reconnect.
"use strict";
(function () {
  const store = window.localStorage;
  const $ = (id) => document.getElementById(id);
  const KEY = "companion.pad";

  function randomId() {
    const bytes = new Uint8Array(16);
    crypto.getRandomValues(bytes);
    return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  }

  function load() {
    try { return JSON.parse(store.getItem(KEY)) || {}; } catch (e) { return {}; }
  }
  const pad = load();
  const hash = new URLSearchParams(location.hash.slice(1));
  if (hash.has("s") && hash.has("k")) {
    const seat = Number(hash.get("s"));
    if (pad.seat !== seat || pad.secret !== hash.get("k")) {
      pad.seat = seat; pad.secret = hash.get("k"); pad.queue = [];
    }
    history.replaceState(null, "", location.pathname);
  }
  pad.device = pad.device || randomId();
  pad.next = pad.next || 0;
  pad.queue = pad.queue || [];
  function save() { store.setItem(KEY, JSON.stringify(pad)); }
  save();

  let ws = null;
  let welcome = null;
  let words = {};
  let retry = 250;
  let stopped = false;
  let light = "off";
  let lightSince = 0;
  let ackUntil = 0;
  let lightTimer = null;

  function say(key) { return words[key] || ""; }
  function state(text, gone) {
    const el = $("state");
    el.textContent = text;
    el.classList.toggle("gone", !!gone);
  }

  // --- the light: the pad's table of states and patterns, on the phone's clock ---------
  function level(now) {
    const [, pattern] = welcome.lights[light];
    const tick = welcome.tick_ms;
    let lvl = Number(pattern[Math.floor(now / tick) % pattern.length]);
    if (lvl === 0 && now - lightSince < tick) lvl = Math.max(...pattern.split("").map(Number));
    return lvl;
  }
  function drawLight() {
    clearTimeout(lightTimer);
    if (!welcome) return;
    const now = Date.now();
    const el = $("light");
    if (now < ackUntil) {
      el.style.background = "#ffffff";
    } else {
      const [colour] = welcome.lights[light];
      const lvl = level(now);
      const rgb = [1, 3, 5].map((i) => Math.floor(parseInt(colour.substr(i, 2), 16) * lvl / 9));
      el.style.background = `rgb(${rgb.join(",")})`;
    }
    el.dataset.light = light;
    const named = (welcome.light_names || {})[light] || "";
    el.setAttribute("aria-label", named);
    $("light-name").textContent = light === "off" ? "" : named;
    const [, pattern] = welcome.lights[light];
    if (new Set(pattern).size > 1 || now < ackUntil) {
      const tick = welcome.tick_ms;
      lightTimer = setTimeout(drawLight, now < ackUntil ? ackUntil - now : tick - (now % tick));
    }
  }

  // --- the socket -------------------------------------------------------------------
  function connect() {
    if (stopped || ws || pad.secret === undefined) return;
    state(say("connecting") || "…");
    const socket = new WebSocket(`ws://${location.host}/ws`);
    ws = socket;
    socket.onopen = () => {
      socket.send(JSON.stringify({ t: "hello", seat: pad.seat, secret: pad.secret,
                                   device: pad.device }));
    };
    socket.onmessage = (event) => { retry = 250; receive(JSON.parse(event.data)); };
    socket.onclose = (event) => {
      if (ws === socket) ws = null;
      setButtons(false);
      if (event.code === 4001) { stopped = true; state(say("refused") || "refused", true); return; }
      if (event.code === 4002) {
        stopped = true;
        const why = { gone: "gone", superseded: "superseded" }[event.reason] || "replaced";
        state(say(why), true);
        return;
      }
      state(say("connecting") || "…", true);
      setTimeout(connect, retry);
      retry = Math.min(retry * 2, 2000);
    };
  }

  function send(message) {
    if (ws && ws.readyState === WebSocket.OPEN && welcome && welcome.t === "welcome") {
      ws.send(JSON.stringify(message));
    }
  }

  function receive(m) {
    switch (m.t) {
      case "welcome":
      case "waiting":
        welcome = m;
        words = m.words;
        document.documentElement.lang = m.lang;
        document.title = `${m.name} · ${say("title")}`;
        document.documentElement.style.setProperty("--seat", m.colour);
        $("name").textContent = m.name;
        setLight(m.light);
        if (m.t === "waiting") {
          state(say(m.why === "vote" ? "vote" : "waiting"));
          setButtons(false);
          return;
        }
        state(say("paired"));
        $("handover").hidden = true;
        pad.queue = pad.queue.filter((p) => m.last_seq === null || p.seq > m.last_seq);
        save();
        setButtons(true);
        for (const p of pad.queue) send(p);
        break;
      case "ack":
        pad.queue = pad.queue.filter((p) => p.seq !== m.seq);
        save();
        document.body.dataset.acked = String(m.seq);
        break;
      case "light":
        setLight(m.light);
        break;
      case "view":
        showView(m);
        break;
      case "private":
        showPrivate(m.private);
        break;
      case "bgstats":
        $("bgstats").hidden = !m.url;
        if (m.url) { $("bgstats").href = m.url; $("bgstats").textContent = say("bgstats"); }
        break;
      case "handover":
        $("handover-text").textContent = say("handover");
        $("give").textContent = say("give");
        $("handover").hidden = false;
        break;
      case "bye":
        break;
    }
  }

  function setLight(name) {
    if (name !== light) { light = name; lightSince = Date.now(); ackUntil = 0; }
    drawLight();
  }

  function showView(v) {
    $("turn").hidden = !v.your_turn && !v.todo;
    $("turn-title").textContent = v.your_turn ? say("your_turn") : "";
    $("todo").textContent = v.todo || "";
    $("reply").hidden = !v.reply;
    $("reply").textContent = v.reply || "";
    $("help").textContent = v.help || "";
    const list = $("figures");
    list.replaceChildren();
    $("figures-title").textContent = say("figures");
    $("figures-title").hidden = v.figures.length === 0;
    for (const [label, value] of v.figures) {
      const dt = document.createElement("dt");
      dt.textContent = label;
      const dd = document.createElement("dd");
      dd.textContent = value;
      list.append(dt, dd);
    }
  }

  let sure = false;
  function showPrivate(p) {
    const box = $("private");
    box.hidden = !p;
    sure = false;
    $("confirm").classList.remove("sure");
    if (!p) return;
    $("private-title").textContent = p.locked ? say("locked") : say("confirm");
    // a locked ballot is only that; one entered on the seat's wired pad is not shown here
    $("ballot").textContent = p.locked ? "" : p.elsewhere ? say("elsewhere") : p.ballot || "—";
    $("ballot").classList.toggle("note", !p.locked && !!p.elsewhere);
    $("behind").textContent = p.behind || "";
    const button = $("confirm");
    button.hidden = p.locked || !p.choice;
    button.textContent = `${say("lock")} ${p.ballot || ""}`;
    button.dataset.button = p.button || "";
  }

  // --- presses: timed here, as a pad times its own ------------------------------------
  function press(button, kind) {
    const p = { t: "press", seq: pad.next++, button, kind };
    pad.queue.push(p);
    save();
    ackUntil = Date.now() + (welcome ? welcome.ack_ms : 120);
    drawLight();
    send(p);
  }

  function setButtons(on) {
    for (const b of document.querySelectorAll(".pad")) b.disabled = !on;
  }

  for (const el of document.querySelectorAll(".pad")) {
    let timer = null;
    let held = false;
    const button = el.dataset.button;
    const end = (event) => {
      if (timer === null) return;
      clearTimeout(timer);
      timer = null;
      el.classList.remove("down");
      if (!held && event.type === "pointerup") press(button, "short");
    };
    el.addEventListener("pointerdown", (event) => {
      event.preventDefault();
      if (timer !== null || el.disabled) return;
      el.setPointerCapture(event.pointerId);
      held = false;
      el.classList.add("down");
      timer = setTimeout(() => { held = true; press(button, "long"); },
                         welcome ? welcome.long_press_ms : 700);
    });
    el.addEventListener("pointerup", end);
    el.addEventListener("pointercancel", end);
    el.addEventListener("contextmenu", (event) => event.preventDefault());
  }

  $("confirm").addEventListener("click", () => {
    const button = $("confirm");
    if (!sure) { sure = true; button.classList.add("sure"); return; }
    sure = false;
    button.classList.remove("sure");
    if (button.dataset.button) press(button.dataset.button, "long");
  });
  $("give").addEventListener("click", () => {
    send({ t: "handover" });
    $("handover").hidden = true;
  });
  // A phone that slept may hold a socket that is already dead (the kiosk closed it when
  // its pings went unanswered): back in view after a while, start afresh at once.
  let hiddenAt = 0;
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "hidden") { hiddenAt = Date.now(); return; }
    if (stopped) return;
    if (ws && Date.now() - hiddenAt > 3000) {
      const old = ws;
      ws = null;
      old.onclose = null;
      old.onmessage = null;
      old.close();
    }
    if (!ws) { retry = 250; connect(); }
  });
  setButtons(false);
  if (pad.secret === undefined) {  // opened without a seat's code: no words from the kiosk yet
    const fr = (navigator.language || "").toLowerCase().startsWith("fr");
    state(fr ? "Scannez le code de votre place sur l'écran de la table."
             : "Scan your seat's code on the table's screen.", true);
  }
  connect();
})();
