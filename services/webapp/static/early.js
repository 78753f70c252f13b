// The page's first two questions to the server, asked the moment the page starts: its
// words and, for a table, the stream's ticket. Telegram's SDK and the page's modules take
// a while to arrive and run on a slow phone; the answers travel meanwhile, and app.js
// takes them up (only when it finds the same initData the SDK read, else it asks again).
// A classic script with no imports, loaded async: it waits for nothing and nothing waits
// for it.
(() => {
  let initData = new URLSearchParams(window.location.hash.slice(1)).get("tgWebAppData");
  if (!initData) {
    // a reload inside Telegram: the SDK's own copy of the launch's parameters
    try {
      initData = (JSON.parse(window.sessionStorage.getItem("__telegram__initParams")) || {}).tgWebAppData;
    } catch { /* no storage: the page asks for itself */ }
  }
  if (!initData) return;
  const game = new URLSearchParams(initData).get("start_param")
    || new URLSearchParams(window.location.search).get("game") || "";
  const headers = { Authorization: `tma ${initData}` };
  const ask = (url, options) => fetch(url, { headers, ...options }).catch(() => null);
  window.unoEarly = {
    initData,
    game,
    words: ask("/v1/me/words"),
    ticket: game ? ask(`/v1/games/${encodeURIComponent(game)}/tickets`, { method: "POST" }) : null,
  };
})();
