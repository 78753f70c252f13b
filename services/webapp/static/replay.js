// The replay of a finished game: every position the server replayed from the game's export
// (GET /v1/games/{id}/replay), every hand shown, stepped through a move or a round at a
// time, or played at a chosen speed; and the check of its deals (…/replay/verdict). Every
// word comes from the server, in the person's language; the page keeps only a fallback for
// a refusal that came before any.
(function () {
  "use strict";
  const tg = window.Telegram.WebApp;
  const $ = (id) => document.getElementById(id);
  const query = new URLSearchParams(location.search);
  const gameId = (tg.initDataUnsafe && tg.initDataUnsafe.start_param) || query.get("game") || "";
  const cards = window.UnoCards || null;
  const COLOUR_SQUARES = { R: "🟥", Y: "🟨", G: "🟩", B: "🟦", P: "🟪", T: "🟦", O: "🟧", V: "🟪" };

  let replay = null;
  let at = 0;
  let timer = null;

  function headers() {
    return { Authorization: `tma ${tg.initData}` };
  }

  function refuse(text) {
    $("board").hidden = true;
    $("status").hidden = false;
    $("status").textContent = text;
    document.body.dataset.state = "refused";
    performance.mark("replay-refused");
  }

  function cardOf(code, chosen) {
    const words = (replay.cards || {})[code] || {};
    if (cards) {
      const key = `${code}|${chosen || ""}`;
      if (!drawn.has(key)) drawn.set(key, cards.cardSvg(code, chosen, words.name || code));
      return drawn.get(key).cloneNode(true);
    }
    const span = document.createElement("span");
    span.className = "plain-card";
    span.textContent = words.label || code;
    return span;
  }

  // Each seat's row, made once: a step rewrites only what changed in it.
  let seatRows = null;

  function buildSeats() {
    seatRows = replay.seats.map((seat, i) => {
      const li = document.createElement("li");
      li.dataset.seat = String(i);
      const who = document.createElement("div");
      who.className = "who";
      const hand = document.createElement("div");
      hand.className = "hand";
      li.append(who, hand);
      return { li, who, hand, key: null };
    });
    $("seats").replaceChildren(...seatRows.map((row) => row.li));
  }

  // A card's picture is drawn once per face and copied after that.
  const drawn = new Map();

  function roundOf(number) {
    return replay.rounds.find((r) => r.round === number) || replay.rounds[0];
  }

  function paint() {
    const p = replay.positions[at];
    const w = p.words;
    const view = p.view;
    const round = roundOf(view.round || p.round);
    $("head").textContent = w.head || "";
    $("step").textContent = w.step || "";
    $("fingerprint").textContent = `🔒 ${round.fingerprint}`;
    $("fingerprint").title = round.commitment;
    $("colour").textContent = view.color ? `${COLOUR_SQUARES[view.color] || ""} ${w.colour || ""}` : "";
    $("owing").textContent = w.owing || "";
    $("draw-pile").textContent = w.pile || "";
    $("catch").textContent = w.catch || "";
    const top = `${view.top}|${view.color || ""}`;
    if ($("pile").dataset.top !== top) {
      $("pile").dataset.top = top;
      $("pile").replaceChildren(cardOf(view.top, view.color));
    }
    $("lines").replaceChildren(...(w.lines || []).map((line) => {
      const li = document.createElement("li");
      li.textContent = line;
      return li;
    }));
    $("result").textContent = [...(w.results || []), w.game_over || ""].filter(Boolean).join("\n\n");
    const owing = view.pending ? view.pending.player : null;
    if (!seatRows) buildSeats();
    replay.seats.forEach((seat, i) => {
      const row = seatRows[i];
      const shown = view.seats[i] || {};
      row.li.className = i === owing ? "owing" : "";
      const marks = [shown.declared_uno ? "🔔" : "", shown.knocked_out ? "☠" : "", shown.frozen ? "🧊" : ""].join("");
      row.who.textContent = `${seat.ai ? "🤖 " : ""}${seat.name} · ${shown.score || 0} ${marks}`.trim();
      // Only a hand that changed is drawn again: a move changes one or two.
      const hand = p.hands[i] || [];
      const key = hand.join(" ");
      if (row.key !== key) {
        row.key = key;
        row.hand.replaceChildren(...hand.map((code) => cardOf(code, null)));
      }
    });
    $("position").value = String(at);
    $("first").disabled = $("back").disabled = $("previous-round").disabled = at === 0;
    const last = replay.positions.length - 1;
    $("forward").disabled = $("next-round").disabled = at === last;
    document.body.dataset.position = String(at);
  }

  function go(index) {
    const last = replay.positions.length - 1;
    at = Math.max(0, Math.min(last, index));
    paint();
  }

  function roundStart(index) {
    return roundOf(replay.positions[index].view.round || replay.positions[index].round).first;
  }

  function nextRound() {
    const current = replay.positions[at].view.round;
    const later = replay.rounds.find((r) => r.round > current);
    go(later ? later.first : replay.positions.length - 1);
  }

  function previousRound() {
    const start = roundStart(at);
    if (at > start) return go(start);
    const current = replay.positions[at].view.round;
    const earlier = [...replay.rounds].reverse().find((r) => r.round < current);
    go(earlier ? earlier.first : 0);
  }

  function stop() {
    if (timer !== null) clearInterval(timer);
    timer = null;
    $("play").textContent = `▷ ${replay.words.play}`;
  }

  function play() {
    if (timer !== null) return stop();
    if (at === replay.positions.length - 1) go(0);
    $("play").textContent = `‖ ${replay.words.pause}`;
    timer = setInterval(() => {
      if (at >= replay.positions.length - 1) return stop();
      go(at + 1);
    }, Number($("speed").value));
  }

  async function verify() {
    const words = replay.words;
    $("verify").disabled = true;
    $("verdict").textContent = words.checking;
    try {
      const answer = await fetch(`/v1/games/${encodeURIComponent(gameId)}/replay/verdict`, { headers: headers() });
      const body = await answer.json();
      if (!answer.ok) {
        $("verdict").textContent = body.words || body.message || String(answer.status);
        return;
      }
      $("verdict").textContent = body.words;
      document.body.dataset.verdict = body.valid ? "valid" : "invalid";
      $("verdict-rounds").replaceChildren(...body.rounds.map((r) => {
        const li = document.createElement("li");
        li.textContent = r.words;
        li.dataset.ok = String(r.ok);
        return li;
      }));
    } finally {
      $("verify").disabled = false;
    }
  }

  function label(id, text) {
    $(id).setAttribute("aria-label", text);
    $(id).title = text;
  }

  async function start() {
    tg.ready();
    tg.expand();
    if (!gameId) return refuse("There is no replay of this game.");
    let answer;
    try {
      answer = await fetch(`/v1/games/${encodeURIComponent(gameId)}/replay`, { headers: headers() });
    } catch (e) {
      return refuse("The replay cannot be reached now.");
    }
    const body = await answer.json().catch(() => ({}));
    if (!answer.ok) return refuse(body.words || body.message || `${answer.status}`);
    replay = body;
    const words = replay.words;
    document.documentElement.lang = words.lang;
    document.documentElement.dir = words.dir;
    $("title").textContent = `🎞 ${words.title} · ${words.variant}`;
    label("first", words.first);
    label("previous-round", words.previous_round);
    label("back", words.back);
    label("forward", words.forward);
    label("next-round", words.next_round);
    $("play").textContent = `▷ ${words.play}`;
    $("speed-label").textContent = `${words.speed} `;
    $("verify").textContent = words.verify;
    $("position").max = String(replay.positions.length - 1);
    $("status").hidden = true;
    $("board").hidden = false;
    document.body.dataset.state = "ready";
    $("first").onclick = () => { stop(); go(0); };
    $("back").onclick = () => { stop(); go(at - 1); };
    $("forward").onclick = () => { stop(); go(at + 1); };
    $("previous-round").onclick = () => { stop(); previousRound(); };
    $("next-round").onclick = () => { stop(); nextRound(); };
    $("play").onclick = play;
    $("speed").onchange = () => { if (timer !== null) { stop(); play(); } };
    $("position").oninput = () => { stop(); go(Number($("position").value)); };
    $("verify").onclick = verify;
    document.addEventListener("keydown", (event) => {
      if (event.key === "ArrowRight") { stop(); go(at + 1); }
      if (event.key === "ArrowLeft") { stop(); go(at - 1); }
    });
    paint();
    // What bench/replay.py times: the page opened to its first position painted.
    performance.mark("replay-first-position");
  }

  start();
})();
