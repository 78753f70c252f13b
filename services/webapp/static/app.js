// The table: follows the game's stream (server-sent events, resumed by version), draws the
// seats, the pile, the hand and the decisions the engine's view lists as legal, and sends a
// press as a move. Everything it shows comes from the viewer's own view.
(function () {
  "use strict";
  const tg = window.Telegram.WebApp;
  const { cardSvg, COLOURS } = window.UnoCards;
  const $ = (selector) => document.querySelector(selector);

  const WORDS = {
    en: {
      connecting: "Connecting…", reconnecting: "Reconnecting…", noGame: "No game to show.",
      refused: "Not allowed", draw: "Draw", keep: "Keep it", challenge: "Challenge",
      accept: "Take the cards", uno: "UNO!", catch: "Catch {name}!", swap: "Swap with {name}",
      colour: { R: "Red", Y: "Yellow", G: "Green", B: "Blue", P: "Pink", T: "Teal", O: "Orange", V: "Violet" },
      turn: "{name} to play", yourTurn: "Your turn", owed: "Draw {n} owed", cw: "↻ clockwise",
      ccw: "↺ anticlockwise", ai: "AI", away: "away", frozen: "frozen", out: "out", spectator: "Watching",
      stale: "The game moved on", illegal: "Not allowed now", slow: "Slow down", lobby: "Waiting for the game to start",
      over: "Game over", cards: "{n} cards", played: "{name} plays {card}", drew: "{name} draws {n}",
      named: "{name} names {colour}", skipped: "{name} is skipped", calls: "{name}: UNO!",
      caught: "{name} catches {target}", reversed: "Direction changes", started: "Round {n}",
      ended: "Round won by {name}", kept: "{name} keeps the card",
    },
    fa: {
      connecting: "در حال اتصال…", reconnecting: "اتصال دوباره…", noGame: "بازی‌ای برای نمایش نیست.",
      refused: "مجاز نیست", draw: "برداشتن", keep: "نگه دار", challenge: "چالش",
      accept: "کارت‌ها را بردار", uno: "اونو!", catch: "{name} را بگیر!", swap: "جابه‌جایی با {name}",
      colour: { R: "قرمز", Y: "زرد", G: "سبز", B: "آبی", P: "صورتی", T: "فیروزه‌ای", O: "نارنجی", V: "بنفش" },
      turn: "نوبت {name}", yourTurn: "نوبت شما", owed: "{n} کارت بدهکار", cw: "↻ ساعتگرد",
      ccw: "↺ پادساعتگرد", ai: "هوش مصنوعی", away: "غایب", frozen: "یخ‌زده", out: "بیرون", spectator: "تماشاگر",
      stale: "بازی جلو رفت", illegal: "الان مجاز نیست", slow: "آهسته‌تر", lobby: "در انتظار شروع بازی",
      over: "پایان بازی", cards: "{n} کارت", played: "{name} {card} بازی کرد", drew: "{name} {n} کارت برداشت",
      named: "{name} رنگ {colour} را گفت", skipped: "نوبت {name} سوخت", calls: "{name}: اونو!",
      caught: "{name} {target} را گرفت", reversed: "جهت عوض شد", started: "دور {n}",
      ended: "برندهٔ دور: {name}", kept: "{name} کارت را نگه داشت",
    },
  };
  const user = tg.initDataUnsafe.user || {};
  const lang = (user.language_code || "en").slice(0, 2) === "fa" ? "fa" : "en";
  const words = WORDS[lang];
  document.documentElement.lang = lang;
  document.documentElement.dir = lang === "fa" ? "rtl" : "ltr";
  const say = (key, values = {}) => String(words[key] || key).replace(/\{(\w+)\}/g, (_, k) => values[k] ?? "");

  const gameId = tg.startParam || new URLSearchParams(window.location.search).get("game") || "";
  let table = null;
  let turnStarted = 0;
  let sending = false;

  function status(text) { $("#status").textContent = text; }

  function notice(text) {
    const node = $("#notice");
    node.textContent = text;
    node.hidden = !text;
    if (text) setTimeout(() => { if (node.textContent === text) node.hidden = true; }, 2500);
  }

  function element(tag, attrs = {}, ...children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs)) {
      if (key === "onclick") node.addEventListener("click", value);
      else if (value !== undefined && value !== null && value !== false) node.setAttribute(key, value === true ? "" : value);
    }
    for (const child of children) node.append(child);
    return node;
  }

  function seatName(seat) {
    const s = table && table.game.seats[seat];
    return s ? s.name : `#${seat}`;
  }

  function eventLine(event) {
    const e = event.event;
    const name = seatName(e.player);
    switch (e.type) {
      case "played": return say("played", { name, card: e.card });
      case "drew": return say("drew", { name, n: e.count });
      case "kept": return say("kept", { name });
      case "color_chosen": return say("named", { name, colour: words.colour[e.color] || e.color });
      case "skipped": return say("skipped", { name });
      case "uno_called": return say("calls", { name });
      case "caught": return say("caught", { name, target: seatName(e.target) });
      case "reversed": return say("reversed");
      case "round_started": return say("started", { n: e.round });
      case "round_ended": return say("ended", { name: seatName(e.winner) });
      default: return null;
    }
  }

  function renderSeats(view) {
    const list = $("#seats");
    list.replaceChildren();
    const infos = table.game.seats;
    view.seats.forEach((seat) => {
      const info = infos[seat.seat] || {};
      const marks = [];
      if (info.ai) marks.push(say("ai"));
      if (info.away) marks.push(say("away"));
      if (seat.frozen) marks.push(say("frozen"));
      if (seat.knocked_out) marks.push(say("out"));
      if (seat.declared_uno) marks.push("UNO");
      list.append(element("li", {
        class: "seat" + (seat.seat === view.current ? " current" : "") + (seat.seat === table.seat ? " me" : ""),
        "data-seat": seat.seat,
      },
      element("span", { class: "name" }, seat.name),
      element("span", { class: "count", "data-cards": seat.cards }, say("cards", { n: seat.cards })),
      element("span", { class: "marks" }, marks.join(" · ")),
      element("span", { class: "score" }, String(seat.score))));
    });
  }

  function renderCentre(view) {
    $("#pile").replaceChildren(cardSvg(view.top, view.color));
    $("#pile").dataset.top = view.top;
    const colour = view.color && COLOURS[view.color];
    $("#colour").textContent = colour ? words.colour[view.color] : "";
    $("#colour").dataset.colour = view.color || "";
    $("#direction").textContent = view.direction === 1 ? say("cw") : say("ccw");
    const owed = view.pending && view.pending.amount ? view.pending.amount : 0;
    $("#owed").textContent = owed ? say("owed", { n: owed }) : "";
    $("#owed").dataset.owed = String(owed);
  }

  function renderTurn() {
    if (!table || !table.view) return;
    const view = table.view;
    if (view.winner !== null && view.winner !== undefined) {
      $("#turn").textContent = say("over");
      return;
    }
    const left = Math.max(0, Math.ceil(table.game.turn_seconds - (Date.now() - turnStarted) / 1000));
    const who = view.current === table.seat ? say("yourTurn") : say("turn", { name: seatName(view.current) });
    $("#turn").textContent = `${who} · ${left}s`;
  }

  function decisionLabel(code) {
    const [head, arg] = code.split(".");
    switch (head) {
      case "d": return say("draw");
      case "k": return say("keep");
      case "c": return words.colour[arg] || arg;
      case "ch": return say("challenge");
      case "a": return say("accept");
      case "u": return say("uno");
      case "x": return say("catch", { name: seatName(Number(arg)) });
      case "s": return say("swap", { name: seatName(Number(arg)) });
      default: return code;
    }
  }

  function renderHand(view) {
    const legal = new Set(view.legal || []);
    const hand = $("#hand");
    hand.replaceChildren();
    (view.hand || []).forEach((code) => {
      const playable = legal.has(`p.${code}`);
      const button = element("button", {
        class: "hand-card" + (playable ? " playable" : ""),
        "data-code": code,
        disabled: !playable,
        onclick: () => send(`p.${code}`),
      }, cardSvg(code));
      hand.append(button);
    });
    const decisions = $("#decisions");
    decisions.replaceChildren();
    for (const code of view.legal || []) {
      if (code.startsWith("p.")) continue;
      const attrs = { class: "decision", "data-action": code, onclick: () => send(code) };
      if (code.startsWith("c.")) attrs["data-colour"] = code.slice(2);
      decisions.append(element("button", attrs, decisionLabel(code)));
    }
  }

  function renderLog(events) {
    const log = $("#log");
    for (const event of events) {
      const line = eventLine(event);
      if (line) log.append(element("li", { class: "fresh" }, line));
    }
    while (log.children.length > 6) log.firstElementChild.remove();
  }

  function render(next) {
    const previous = table;
    table = next;
    if (!previous || !previous.view || !next.view || previous.view.current !== next.view.current || previous.version !== next.version) {
      turnStarted = Date.now();
    }
    document.body.dataset.version = String(next.version);
    document.body.dataset.role = next.seat === null ? "spectator" : "player";
    if (!next.view) {
      status(say("lobby"));
      $("#table").hidden = true;
      return;
    }
    status(next.seat === null ? say("spectator") : "");
    $("#table").hidden = false;
    renderSeats(next.view);
    renderCentre(next.view);
    renderTurn();
    renderLog(next.events);
    if (next.seat === null) {
      $("#hand").replaceChildren();
      $("#decisions").replaceChildren();
    } else {
      renderHand(next.view);
    }
  }

  async function send(action) {
    if (!table || sending) return;
    sending = true;
    try {
      const response = await fetch(`/v1/games/${encodeURIComponent(gameId)}/moves`, {
        method: "POST",
        headers: { "Content-Type": "application/json", Authorization: `tma ${tg.initData}` },
        body: JSON.stringify({ action, version: table.version }),
      });
      if (!response.ok) {
        const body = await response.json().catch(() => ({}));
        const key = { stale_version: "stale", illegal: "illegal", slow_down: "slow" }[body.error] || "refused";
        notice(say(key));
      } else if (tg.HapticFeedback) {
        tg.HapticFeedback.impactOccurred("light");
      }
    } finally {
      sending = false;
    }
  }

  function connect() {
    if (!gameId) { window.UnoGames.show(tg, lang, status); return; } // the menu button's launch
    status(say("connecting"));
    const url = `/v1/games/${encodeURIComponent(gameId)}/stream?init_data=${encodeURIComponent(tg.initData)}`;
    const source = new EventSource(url);
    source.addEventListener("table", (event) => render(JSON.parse(event.data)));
    source.addEventListener("gone", () => { source.close(); status(say("over")); });
    // EventSource reconnects by itself, sending the last id (the version) it saw.
    source.onerror = () => { if (source.readyState !== EventSource.CLOSED) status(say("reconnecting")); };
    source.onopen = () => { if (table) status(table.seat === null ? say("spectator") : ""); };
  }

  tg.ready();
  tg.expand();
  setInterval(renderTurn, 1000);
  connect();
})();
