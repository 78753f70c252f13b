// The table: follows the game's stream (server-sent events, resumed by version), draws the
// seats, the pile, the hand and the decisions the engine's view lists as legal, and sends a
// press as a move. Everything it shows comes from the viewer's own view.
(function () {
  "use strict";
  const tg = window.Telegram.WebApp;
  const { cardSvg, named, COLOURS } = window.UnoCards;
  const $ = (selector) => document.querySelector(selector);

  // The page's own words: only what it says before the table arrives and the marks it
  // draws. Everything about the game (moves, cards, decisions, results) is in the table's
  // `words`, made by the server from the chat's own screens in the viewer's language.
  const WORDS = {
    en: {
      connecting: "Connecting…", reconnecting: "Reconnecting…", noGame: "No game to show.",
      refused: "Not allowed", turn: "{name} to play", yourTurn: "Your turn",
      ai: "AI", away: "away", frozen: "frozen", out: "knocked out", spectator: "Watching",
      stale: "The game moved on", illegal: "Not allowed now", slow: "Slow down",
      lobby: "Waiting for the game to start", over: "Game over", cards: "{n} cards", card: "{n} card",
      drawPile: "draw pile",
      busyPerson: "Too many tables open: close one.", busyGame: "Too many are watching this table: wait a little.",
    },
    fa: {
      connecting: "در حال اتصال…", reconnecting: "اتصال دوباره…", noGame: "بازی‌ای برای نمایش نیست.",
      refused: "مجاز نیست", turn: "نوبت {name}", yourTurn: "نوبت شما",
      ai: "هوش مصنوعی", away: "غایب", frozen: "یخ‌زده", out: "حذف‌شده", spectator: "تماشاگر",
      stale: "بازی جلو رفت", illegal: "الان مجاز نیست", slow: "آهسته‌تر",
      lobby: "در انتظار شروع بازی", over: "پایان بازی", cards: "{n} کارت", card: "{n} کارت",
      drawPile: "دسته‌ی کارت",
      busyPerson: "میزهای زیادی باز کردین: یکی رو ببندین.", busyGame: "آدم‌های زیادی دارن این میز رو می‌بینن: یه کم صبر کنین.",
    },
    gu: {
      connecting: "જોડાઈ રહ્યું છે…", reconnecting: "ફરી જોડાઈ રહ્યું છે…", noGame: "બતાવવા માટે કોઈ રમત નથી.",
      refused: "મંજૂરી નથી", turn: "{name}નો વારો", yourTurn: "તમારો વારો",
      ai: "AI", away: "ગેરહાજર", frozen: "ફ્રીઝ", out: "નોકઆઉટ", spectator: "જોઈ રહ્યા છો",
      stale: "રમત આગળ વધી ગઈ", illegal: "હમણાં મંજૂરી નથી", slow: "ધીમે કરો",
      lobby: "રમત શરૂ થવાની રાહ જોવાય છે", over: "રમત પૂરી", cards: "{n} કાર્ડ", card: "{n} કાર્ડ",
      drawPile: "ડ્રો પાઈલ",
      busyPerson: "ઘણાં ટેબલ ખુલ્લાં છે: એક બંધ કરો.", busyGame: "આ ટેબલ ઘણા લોકો જોઈ રહ્યા છે: થોડી રાહ જુઓ.",
    },
  };
  // Digits as the bot writes them (services/presentation/locales/numerals.py): Persian its own,
  // Gujarati and English Latin ones.
  const DIGITS = { fa: "۰۱۲۳۴۵۶۷۸۹" };
  const user = tg.initDataUnsafe.user || {};
  let lang = "en";
  let words = WORDS.en;
  // The language the bot speaks to this person: the server's (their /language choice)
  // once the table arrives, their Telegram app's until then.
  function speak(language) {
    lang = WORDS[language] ? language : "en";
    words = WORDS[lang];
    document.documentElement.lang = lang;
    document.documentElement.dir = lang === "fa" ? "rtl" : "ltr";
  }
  speak((user.language_code || "en").slice(0, 2));
  const digits = (text) => (DIGITS[lang] ? String(text).replace(/[0-9]/g, (d) => DIGITS[lang][d]) : String(text));
  const say = (key, values = {}) => String(words[key] || key).replace(/\{(\w+)\}/g, (_, k) => (k === "n" ? digits(values[k] ?? "") : values[k] ?? ""));

  const gameId = tg.initDataUnsafe.start_param || new URLSearchParams(window.location.search).get("game") || "";
  let table = null;
  // The server's clock less this device's (ms), from the last table: every clock counts to
  // the server's deadline, whatever time the device thinks it is.
  let clockOffset = 0;
  const serverNow = () => Date.now() + clockOffset;
  // The version a move is on its way for: a second tap on the same table is not sent, but
  // a tap on a newer one is, even when the table came back before the first move's answer.
  let sendingAt = null;

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

  function renderSeats(view) {
    const list = $("#seats");
    list.replaceChildren();
    const infos = table.game.seats;
    view.seats.forEach((seat) => {
      const info = infos[seat.seat] || {};
      const marks = [];
      if (info.ai) marks.push(say("ai"));
      if (info.away) marks.push(say("away"));
      if (seat.frozen) marks.push("🧊 " + say("frozen"));
      if (seat.knocked_out) marks.push("☠ " + say("out"));
      if (seat.declared_uno) marks.push("🔔 UNO");
      else if (view.uno_window === seat.seat) marks.push("⚠️");
      // UNO Flip: the sides of this player's cards that the table sees (RULES.md §3)
      const backs = element("span", { class: "backs" });
      for (const code of seat.back_faces || []) backs.append(cardSvg(code, null, cardName(code)));
      list.append(element("li", {
        class: "seat" + (seat.seat === view.current && !finished(table) ? " current" : "") + (seat.seat === table.seat ? " me" : ""),
        "data-seat": seat.seat,
        "data-knocked-out": seat.knocked_out ? "1" : null,
        "data-frozen": seat.frozen ? "1" : null,
      },
      element("span", { class: "name" }, (info.ai ? "🤖 " : "") + seat.name),
      element("span", { class: "count", "data-cards": seat.cards }, say(seat.cards === 1 ? "card" : "cards", { n: seat.cards })),
      element("span", { class: "marks" }, marks.join(" · ")),
      element("span", { class: "score" }, digits(seat.score)),
      backs));
    });
  }

  function cardName(code) {
    const card = table.words.cards && table.words.cards[code];
    return card ? card.name : code;
  }

  // A card's picture and, for an action or a wild, its whole name beneath it (wrapped,
  // never cut: the picture has no room for "Yellow Skip Everyone").
  function cardWithCaption(code, chosen) {
    const name = cardName(code);
    const parts = [cardSvg(code, chosen, name)];
    if (named(code)) parts.push(element("span", { class: "caption" }, name));
    return parts;
  }

  function renderCentre(view) {
    const w = table.words;
    $("#pile").replaceChildren(...cardWithCaption(view.top, view.color));
    $("#pile").dataset.top = view.top;
    const colour = view.color && COLOURS[view.color];
    $("#colour").textContent = colour ? w.colour : "";
    $("#colour").dataset.colour = view.color || "";
    $("#head").textContent = w.head || "";
    $("#direction").textContent = view.direction === 1 ? "↻" : "↺";
    $("#direction").dataset.direction = String(view.direction);
    const owed = view.pending && view.pending.kind === "respond_to_draw" ? view.pending.amount : 0;
    $("#owed").dataset.owed = String(owed);
    $("#draw-pile").textContent = w.pile || "";
    $("#catch").textContent = w.catch || "";
    // UNO Flip: the side in play, and the draw pile's top card as the table sees it
    document.body.dataset.side = view.side || "light";
    const back = view.draw_pile_back;
    $("#draw-back").replaceChildren(...(back ? cardWithCaption(back, null) : []));
    $("#draw-back").dataset.code = back || "";
    $("#draw-back").hidden = !back;
  }

  // Over (somebody won) or ended early: nothing is owed any more.
  function finished(next) {
    const view = next.view;
    return next.game.status === "over" || next.game.status === "ended" || (view && view.winner !== null && view.winner !== undefined);
  }

  function renderTurn() {
    if (!table || !table.view) return;
    const view = table.view;
    const turn = $("#turn");
    if (finished(table) || !view.pending) {
      turn.textContent = finished(table) ? say("over") : "";
      delete turn.dataset.left;
      return;
    }
    const owing = view.pending.player;
    const who = owing === table.seat ? say("yourTurn") : say("turn", { name: seatName(owing) });
    if (typeof table.deadline !== "number") {
      turn.textContent = who;
      delete turn.dataset.left;
      return;
    }
    const left = Math.max(0, Math.ceil((table.deadline - serverNow()) / 1000));
    turn.dataset.left = String(left);
    turn.textContent = `${who} · ⏱ ${digits(left)}`;
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
        title: cardName(code),
      }, ...cardWithCaption(code, null));
      hand.append(button);
    });
    const decisions = $("#decisions");
    decisions.replaceChildren();
    for (const code of view.legal || []) {
      if (code.startsWith("p.")) continue;
      const attrs = { class: "decision", "data-action": code, onclick: () => send(code) };
      if (code.startsWith("c.")) attrs["data-colour"] = code.slice(2);
      const button = element("button", attrs, (table.words.actions || {})[code] || code);
      const colour = code.startsWith("c.") && COLOURS[code.slice(2)];
      if (colour) { // a colour's button in that colour
        button.style.background = colour.fill;
        button.style.color = colour.ink || "#fff";
      }
      decisions.append(button);
    }
    $("#why").textContent = table.words.why || "";
  }

  function renderLog(lines) {
    const log = $("#log");
    for (const line of lines) log.append(element("li", { class: "fresh" }, line));
    while (log.children.length > 6) log.firstElementChild.remove();
  }

  // The game's end stays shown; a round's scores until the next round's first move.
  function renderResult(words) {
    const result = $("#result");
    if (words.game_over) {
      result.textContent = words.game_over;
      result.dataset.over = "1";
      result.hidden = false;
      return;
    }
    const last = (words.results || []).at(-1);
    if (last) {
      result.textContent = last.text;
      result.dataset.round = String(last.round);
      result.hidden = false;
    } else if ((words.lines || []).length) {
      result.hidden = true;
    }
  }

  // Nothing is left to press once the game is over: no hand, no decision.
  function clearHand() {
    $("#hand").replaceChildren();
    $("#decisions").replaceChildren();
    $("#why").textContent = "";
  }

  function render(next) {
    table = next;
    if (typeof next.now === "number") clockOffset = next.now - Date.now();
    next.words = next.words || {}; // a replica older than the table's words sends none
    if (next.words.lang && next.words.lang !== lang) speak(next.words.lang);
    document.body.dataset.version = String(next.version);
    document.body.dataset.role = next.seat === null ? "spectator" : "player";
    document.body.dataset.variant = next.game.variant;
    renderLog(next.words.lines || []);
    renderResult(next.words);
    if (!next.view) {
      status(say("lobby"));
      $("#table").hidden = true;
      return;
    }
    const over = finished(next);
    // who owes the game's next decision (a test, like a person, reads it off the page)
    document.body.dataset.owing = over ? "" : String(next.view.pending ? next.view.pending.player : next.view.current);
    if (over) document.body.dataset.over = "1";
    // out of the game (kicked): the table as a spectator sees it, and why (the server's words)
    status(over ? say("over") : next.removed ? next.removed.words : next.seat === null ? say("spectator") : "");
    $("#table").hidden = false;
    renderSeats(next.view);
    renderCentre(next.view);
    renderTurn();
    if (next.seat === null || over) clearHand();
    else renderHand(next.view);
  }

  async function send(action) {
    if (!table || sendingAt === table.version) return;
    const version = table.version;
    sendingAt = version;
    try {
      const response = await fetch(`/v1/games/${encodeURIComponent(gameId)}/moves`, {
        method: "POST",
        headers: { "Content-Type": "application/json", Authorization: `tma ${tg.initData}` },
        body: JSON.stringify({ action, version }),
      });
      if (!response.ok) {
        const body = await response.json().catch(() => ({}));
        const key = { stale_version: "stale", illegal: "illegal", slow_down: "slow" }[body.error] || "refused";
        document.body.dataset.refused = String(Number(document.body.dataset.refused || 0) + 1);
        // the server's own words when it has them (a catch someone else made first; out of
        // the game: kicked or gone from the group), in our language
        notice(body.say || body.words || say(key));
      } else if (tg.HapticFeedback) {
        tg.HapticFeedback.impactOccurred("light");
      }
    } finally {
      if (sendingAt === version) sendingAt = null;
    }
  }

  // The stream opens with a ticket, never with initData in its URL (proxies log URLs): each
  // connect and each reconnect first trades initData, in a header, for a ticket good for
  // this game, once, for a couple of minutes. The page reconnects by itself (an
  // EventSource would retry with its spent ticket), from the version it last showed.
  const RETRY_MS = 1000;
  const BUSY_RETRY_MS = 5000;

  async function connect() {
    if (!gameId) { window.UnoGames.show(tg, status); return; } // the menu button's launch
    let response;
    try {
      response = await fetch(`/v1/games/${encodeURIComponent(gameId)}/tickets`, {
        method: "POST",
        headers: { Authorization: `tma ${tg.initData}` },
      });
    } catch (error) {
      setTimeout(connect, RETRY_MS); // the server is out of reach: try again
      return;
    }
    const body = await response.json().catch(() => ({}));
    if (!response.ok) {
      const busy = body.error === "too_many_streams";
      const key = busy ? (body.limit === "game" ? "busyGame" : "busyPerson")
        : { slow_down: "slow", no_game: "noGame" }[body.error] || "refused";
      if (response.status === 429 || response.status >= 500) {
        status(response.status === 429 ? say(key) : say(table ? "reconnecting" : "connecting"));
        setTimeout(connect, busy ? BUSY_RETRY_MS : Math.max(RETRY_MS, body.retry_after_ms || 0));
      } else {
        status(say(key)); // not this person's table: nothing to wait for
      }
      return;
    }
    const since = table ? `&since=${table.version}` : "";
    const source = new EventSource(
      `/v1/games/${encodeURIComponent(gameId)}/stream?ticket=${encodeURIComponent(body.ticket)}${since}`);
    source.addEventListener("table", (event) => render(JSON.parse(event.data)));
    source.addEventListener("gone", () => {
      source.close();
      status(say("over"));
      document.body.dataset.over = "1";
      clearHand();
      $("#turn").textContent = say("over");
    });
    // out of the game for leaving its group: no more tables, and no reconnecting
    source.addEventListener("removed", (event) => {
      source.close();
      clearHand();
      status(JSON.parse(event.data).words);
    });
    source.onerror = () => { // the stream dropped, or was refused: a new ticket, again
      source.close();
      status(say("reconnecting"));
      setTimeout(connect, RETRY_MS);
    };
    source.onopen = () => {
      if (table) status(table.removed ? table.removed.words : table.seat === null ? say("spectator") : "");
    };
  }

  tg.ready();
  tg.expand();
  setInterval(renderTurn, 250); // a second's change shows within a quarter of it
  if (gameId) status(say("connecting"));
  connect();
})();
