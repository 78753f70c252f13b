// What the page asks of Telegram's client through its SDK (Telegram.WebApp, vendored):
// full screen on phones, vertical swipes off and a confirmation before closing while the
// viewer holds a seat, the BackButton, haptics, and the person's own settings kept in
// Telegram's CloudStorage. Each call is made only where the client's version has it, so
// an older client simply goes without.
const tg = window.Telegram.WebApp;

export { tg };

const has = (version) => tg.isVersionAtLeast(version);
const PHONES = new Set(["android", "ios", "android_x"]);

/** Ready, expanded, and on a phone full screen (the table wants all of it). */
export function start() {
  tg.ready();
  tg.expand();
  if (PHONES.has(tg.platform) && has("8.0") && !tg.isFullscreen) {
    try { tg.requestFullscreen(); } catch { /* the client said no: the expanded view stays */ }
  }
}

let seated = null;
/** While the viewer holds a seat a stray swipe must not close the table, and closing it
 * asks first; a spectator's table closes as any page does. */
export function holdSeat(holding) {
  if (holding === seated) return;
  seated = holding;
  if (has("6.2")) (holding ? tg.enableClosingConfirmation : tg.disableClosingConfirmation).call(tg);
  if (has("7.7")) (holding ? tg.disableVerticalSwipes : tg.enableVerticalSwipes).call(tg);
}

/** Telegram's BackButton running `onBack`, or hidden (null). */
let backHandler = null;
export function backButton(onBack) {
  if (!has("6.1")) return;
  if (backHandler) tg.BackButton.offClick(backHandler);
  backHandler = onBack;
  if (onBack) {
    tg.BackButton.onClick(onBack);
    tg.BackButton.show();
  } else {
    tg.BackButton.hide();
  }
}

/** A haptic for what happened: a play (impact), your turn, a catch (success), a refusal
 * (error). */
export function haptic(kind) {
  if (!has("6.1")) return;
  const feedback = tg.HapticFeedback;
  if (kind === "play") feedback.impactOccurred("light");
  else if (kind === "turn") feedback.notificationOccurred("warning");
  else if (kind === "catch") feedback.notificationOccurred("success");
  else if (kind === "refused") feedback.notificationOccurred("error");
}

/** The person's own setting `key` (Telegram's CloudStorage: the same on each of their
 * devices; this device's storage on a client without it). */
export function loadSetting(key) {
  return new Promise((resolve) => {
    if (!has("6.9")) { resolve(localStorage.getItem(`uno:${key}`) || ""); return; }
    try {
      tg.CloudStorage.getItem(key, (error, value) => resolve(error ? "" : value || ""));
    } catch { resolve(""); }
  });
}

export function saveSetting(key, value) {
  if (!has("6.9")) { localStorage.setItem(`uno:${key}`, value); return; }
  try { tg.CloudStorage.setItem(key, value); } catch { /* kept for this visit only */ }
}

/** Telegram's light or dark, as the page's colour scheme. */
export function followTheme() {
  const apply = () => { document.documentElement.dataset.scheme = tg.colorScheme || "light"; };
  apply();
  tg.onEvent("themeChanged", apply);
}
