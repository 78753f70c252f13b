// Telegram.WebApp for this page: the part of Telegram's client SDK the table uses, written
// to the "Mini Apps on Telegram" documentation (Telegram's own telegram-web-app.js is served
// only from telegram.org, and the page fetches nothing from elsewhere).
//
// Launch parameters come in the URL fragment (tgWebAppData = initData, tgWebAppThemeParams,
// tgWebAppStartParam). Calls to the client ("events") go to whichever bridge the client
// gives: window.TelegramWebviewProxy.postEvent on the phone apps, window.external.notify on
// the desktop app, postMessage to the parent frame on the web clients; the client's own
// events come back through window.Telegram.WebView.receiveEvent or a message to the frame.
(function () {
  "use strict";
  const fragment = new URLSearchParams(window.location.hash.slice(1));
  const query = new URLSearchParams(window.location.search);
  const initData = fragment.get("tgWebAppData") || "";
  const handlers = {};

  function parse(text, fallback) {
    try { return JSON.parse(text); } catch { return fallback; }
  }

  function postEvent(eventType, eventData) {
    const data = eventData === undefined ? "" : JSON.stringify(eventData);
    if (window.TelegramWebviewProxy && window.TelegramWebviewProxy.postEvent) {
      window.TelegramWebviewProxy.postEvent(eventType, data);
    } else if (window.external && "notify" in window.external) {
      window.external.notify(JSON.stringify({ eventType, eventData }));
    } else if (window.parent !== window) {
      window.parent.postMessage(JSON.stringify({ eventType, eventData }), "*");
    }
  }

  const unsafe = {};
  for (const [key, value] of new URLSearchParams(initData)) {
    unsafe[key] = key === "user" || key === "receiver" || key === "chat" ? parse(value, null) : value;
  }

  const webApp = {
    initData,
    initDataUnsafe: unsafe,
    version: fragment.get("tgWebAppVersion") || "6.0",
    platform: fragment.get("tgWebAppPlatform") || "unknown",
    themeParams: parse(fragment.get("tgWebAppThemeParams") || "{}", {}),
    colorScheme: "light",
    isExpanded: false,
    viewportHeight: window.innerHeight,
    startParam: fragment.get("tgWebAppStartParam") || query.get("tgWebAppStartParam") || "",
    ready() { postEvent("web_app_ready"); },
    expand() { postEvent("web_app_expand"); },
    close() { postEvent("web_app_close"); },
    onEvent(type, handler) { (handlers[type] = handlers[type] || []).push(handler); },
    offEvent(type, handler) { handlers[type] = (handlers[type] || []).filter((h) => h !== handler); },
    HapticFeedback: {
      impactOccurred(style) { postEvent("web_app_trigger_haptic_feedback", { type: "impact", impact_style: style }); },
    },
  };

  function applyTheme(theme) {
    webApp.themeParams = theme || {};
    const root = document.documentElement.style;
    for (const [key, value] of Object.entries(webApp.themeParams)) {
      root.setProperty(`--tg-theme-${key.replace(/_/g, "-")}`, value);
    }
    const bg = webApp.themeParams.bg_color || "#ffffff";
    const rgb = parseInt(bg.slice(1), 16);
    const luma = 0.299 * (rgb >> 16) + 0.587 * ((rgb >> 8) & 255) + 0.114 * (rgb & 255);
    webApp.colorScheme = luma < 128 ? "dark" : "light";
    document.documentElement.dataset.scheme = webApp.colorScheme;
  }

  function receive(eventType, eventData) {
    if (eventType === "theme_changed") applyTheme((eventData || {}).theme_params);
    if (eventType === "viewport_changed" && eventData) {
      webApp.isExpanded = !!eventData.is_expanded;
      if (eventData.height) {
        webApp.viewportHeight = eventData.height;
        document.documentElement.style.setProperty("--tg-viewport-height", `${eventData.height}px`);
      }
    }
    const name = { theme_changed: "themeChanged", viewport_changed: "viewportChanged" }[eventType] || eventType;
    for (const handler of handlers[name] || []) handler.call(webApp, eventData);
  }

  window.addEventListener("message", (event) => {
    const message = typeof event.data === "string" ? parse(event.data, null) : event.data;
    if (message && typeof message.eventType === "string") receive(message.eventType, message.eventData);
  });
  window.Telegram = { WebApp: webApp, WebView: { receiveEvent: receive, postEvent } };
  applyTheme(webApp.themeParams);
  postEvent("iframe_ready", { reload_supported: false });
  postEvent("web_app_request_theme");
  postEvent("web_app_request_viewport");
})();
