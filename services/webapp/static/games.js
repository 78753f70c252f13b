// Opened from the bot's menu button (no game in the launch): the person's current games,
// each a link to its table. The launch parameters (the URL's fragment) go along, so the
// table's page is the same launch, proven by the same initData. Its words (the variants'
// names among them) come from the server, in the language the bot speaks to the person.
export async function showGames(tg, status) {
  const list = document.querySelector("#games");
  const response = await fetch("/v1/me/games", { headers: { Authorization: `tma ${tg.initData}` } });
  if (!response.ok) { status((await response.json()).message || String(response.status)); return; }
  const { games, words } = await response.json();
  document.documentElement.lang = words.lang;
  document.documentElement.dir = words.dir;
  status(games.length ? words.mine : words.none);
  for (const game of games) {
    const link = document.createElement("a");
    link.href = `/?game=${encodeURIComponent(game.game_id)}${window.location.hash}`;
    link.className = "game-link";
    link.dataset.game = game.game_id;
    link.dataset.variant = game.variant;
    link.textContent = `${game.players.join(", ")} · ${game.variant_name} · ${words[game.status] || game.status}`;
    // the table opened from the list goes back to it with Telegram's BackButton
    link.addEventListener("click", () => sessionStorage.setItem("uno:from-list", "1"));
    const item = document.createElement("li");
    item.append(link);
    list.append(item);
  }
  list.hidden = false;
}
