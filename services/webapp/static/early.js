// The page's first questions to the server, asked the moment the page starts: its words
// and, for a table, the stream's ticket and then the stream itself. Telegram's SDK and
// the page's modules take a while to arrive and run on a slow phone; the answers travel
// meanwhile, and app.js takes them up (only when it finds the same initData the SDK read,
// else it asks again). A small classic script with no imports, first in the page's head
// and run there: an async one waits for the main thread, busy with the SDK, and asks late.
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
  const ticket = game ? ask(`/v1/games/${encodeURIComponent(game)}/tickets`, { method: "POST" }) : null;
  window.unoEarly = { initData, game, words: ask("/v1/me/words"), ticket, stream: ticket && follow(ticket) };

  // The stream opened as soon as the ticket is there; what it says before app.js is
  // ready is held for it. Refused, or dropped before then: closed, and app.js starts over.
  async function follow(answer) {
    try {
      const response = await answer;
      if (!response || !response.ok) return null;
      const { ticket: pass } = await response.clone().json();
      const source = new EventSource(
        `/v1/games/${encodeURIComponent(game)}/stream?ticket=${encodeURIComponent(pass)}`);
      const held = [];
      const hold = (event) => held.push(event);
      const kinds = ["table", "gone", "removed"];
      for (const kind of kinds) source.addEventListener(kind, hold);
      source.addEventListener("error", () => source.close());
      const release = () => { for (const kind of kinds) source.removeEventListener(kind, hold); };
      return { source, held, release };
    } catch {
      return null;
    }
  }
})();
