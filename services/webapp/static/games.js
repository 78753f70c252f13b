// Opened from the bot's menu button (no game in the launch): the person's current games,
// each a link to its table. The launch parameters (the URL's fragment) go along, so the
// table's page is the same launch, proven by the same initData.
(function () {
  "use strict";
  const WORDS = {
    en: { mine: "Your games", none: "You are in no game now.", lobby: "waiting to start", playing: "playing" },
    fa: { mine: "بازی‌های شما", none: "الان در هیچ بازی‌ای نیستید.", lobby: "در انتظار شروع", playing: "در حال بازی" },
  };

  async function show(tg, lang, status) {
    const words = WORDS[lang] || WORDS.en;
    const list = document.querySelector("#games");
    const response = await fetch("/v1/me/games", { headers: { Authorization: `tma ${tg.initData}` } });
    if (!response.ok) { status((await response.json()).message || String(response.status)); return; }
    const { games } = await response.json();
    status(games.length ? words.mine : words.none);
    for (const game of games) {
      const link = document.createElement("a");
      link.href = `/?game=${encodeURIComponent(game.game_id)}${window.location.hash}`;
      link.className = "game-link";
      link.dataset.game = game.game_id;
      link.textContent = `${game.players.join(", ")} · ${game.variant} · ${words[game.status] || game.status}`;
      const item = document.createElement("li");
      item.append(link);
      list.append(item);
    }
    list.hidden = false;
  }

  window.UnoGames = { show };
})();
