// The playground page: a Telegram-like client of the local Telegram's control API.
//
// People you play as are users of the local Telegram; the page shows what each of them sees
// (the group and their private chat with the bot), sends their messages, presses the bot's
// buttons as them and opens their hand through inline mode. It holds no game logic: the bot
// does everything, exactly as it would in Telegram.
"use strict";

const STORE_KEY = "uno-playground";
const POLL_MS = 2000; // the live feed redraws at once; this only backs it up

// ------------------------------------------------------------------------- control API

// A request the local Telegram never answers must not freeze the page: the redraw waits for
// the one before it, so a hung one would leave every later change unshown.
const REQUEST_MS = 15000;

async function request(method, path, body) {
  const response = await fetch(path, {
    method,
    headers: body === undefined ? {} : { "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(REQUEST_MS),
  });
  const text = await response.text();
  let data = null;
  try { data = text ? JSON.parse(text) : null; } catch { data = { detail: text }; }
  if (!response.ok) {
    const detail = data && (data.detail || data.error || data.description);
    const error = new Error(`${method} ${path}: ${response.status} ${JSON.stringify(detail)}`);
    error.status = response.status;
    throw error;
  }
  return data;
}

const api = {
  state: () => request("GET", "/control/state"),
  createUser: (first_name, language_code) =>
    request("POST", "/control/users", { first_name, language_code }),
  addMember: (chat_id, user_id) =>
    request("POST", `/control/chats/${chat_id}/members`, { user_id }),
  sendMessage: (user_id, chat_id, text) =>
    request("POST", "/control/messages", { user_id, chat_id, text }),
  pressButton: (user_id, chat_id, message_id, callback_data) =>
    request("POST", "/control/presses", { user_id, chat_id, message_id, callback_data }),
  inlineQuery: (user_id, query, chat_id, offset) =>
    request("POST", "/control/inline_queries", { user_id, query: `@${bot.username} ${query}`, chat_id, offset }),
  chooseInlineResult: (user_id, query_id, result_id, chat_id) =>
    request("POST", "/control/inline_choices", { user_id, query_id, result_id, chat_id }),
  messages: (chat_id) => request("GET", `/control/chats/${chat_id}/messages`),
  openWebApp: (opening) => request("POST", "/control/web_apps", { user_id: me().id, ...opening }),
  sendWebAppData: (launch_id, data) =>
    request("POST", `/control/web_apps/${launch_id}/data`, { user_id: me().id, data }),
  menuButton: (user_id, bot_id) => request("GET", `/control/private/${user_id}/${bot_id}/menu_button`),
  privateMessages: (user_id, bot_id) => request("GET", `/control/private/${user_id}/${bot_id}/messages`),
};

// ------------------------------------------------------------------------- state

// The world (people, the group, the bot) lives in the local Telegram, which `make play`
// sets up; the page remembers only whom you play as, which chat is open and what was read.
let saved = { current: null, open: "group", seen: {} };
let world = { people: [], group: null }; // from /control/state
let bot = null; // the bot's User
let inline = null; // { query, queryId, results, nextOffset, button }
const rendered = new Map(); // message id -> { signature, element }
let renderedChat = null;
let polling = false;
let pollAgain = false;

function save() { localStorage.setItem(STORE_KEY, JSON.stringify(saved)); }

function load() {
  try {
    const data = JSON.parse(localStorage.getItem(STORE_KEY) || "null");
    if (data && typeof data === "object") saved = { ...saved, ...data };
  } catch { /* a broken entry starts afresh */ }
}

const me = () => world.people.find((p) => p.id === saved.current) || world.people[0];

/** The chat open now: the id the control API names it by (a private chat is named by the
 * bot's id), its title and whether it is the private chat with the bot. */
function openChat() {
  if (saved.open === "private" || !world.group) {
    return { id: bot.id, private: true, title: bot.first_name, subtitle: `@${bot.username} · bot` };
  }
  const people = world.group.members.filter((id) => world.people.some((p) => p.id === id)).length;
  return {
    id: world.group.id,
    private: false,
    title: world.group.title,
    subtitle: `${people} ${people === 1 ? "person" : "people"} and @${bot.username}`,
  };
}

/** Read the world: the playground's bot, its people, and the group they play in. */
async function loadWorld() {
  const state = await api.state();
  bot = state.bots.find((b) => b.username === "uno_playground_bot") || state.bots[0] || null;
  if (!bot) throw new Error("the local Telegram has no bot yet");
  world.people = state.users;
  const groups = state.chats.filter((c) => c.type !== "private" && memberIds(c).includes(bot.id));
  world.group = groups[0] ? { ...groups[0], members: memberIds(groups[0]) } : null;
}

function memberIds(chat) {
  const members = chat.members || {};
  return Array.isArray(members) ? members.map(Number) : Object.keys(members).map(Number);
}

// ------------------------------------------------------------------------- set-up

/** Another person to play as: a new user, in the group, who has started the bot. */
async function addPerson(firstName, languageCode) {
  const user = await api.createUser(firstName, languageCode);
  if (world.group) await api.addMember(world.group.id, user.id);
  await api.sendMessage(user.id, bot.id, "/start");
  saved.current = user.id;
  save();
  await loadWorld();
  return user;
}

// ------------------------------------------------------------------------- rendering helpers

const $ = (selector) => document.querySelector(selector);

function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "class") node.className = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

const PALETTE = ["#e17076", "#7bc862", "#65aadd", "#a695e7", "#ee7aae", "#6ec9cb", "#faa774"];

function avatar(user) {
  const name = (user && (user.first_name || user.title)) || "?";
  const id = Math.abs(Number(user && user.id) || 0);
  return el("span", { class: "avatar", style: `background:${PALETTE[id % PALETTE.length]}` },
    Array.from(name)[0].toUpperCase());
}

function displayName(user) {
  return [user.first_name, user.last_name].filter(Boolean).join(" ") || user.username || "?";
}

/** Telegram's entities (offsets in UTF-16 units, as JavaScript strings count) as elements. */
function renderText(text, entities) {
  const sorted = [...(entities || [])].sort((a, b) => a.offset - b.offset || b.length - a.length);
  function build(start, end, list) {
    const fragment = document.createDocumentFragment();
    let position = start;
    let index = 0;
    while (index < list.length) {
      const entity = list[index];
      const entityEnd = entity.offset + entity.length;
      if (entity.offset > position) fragment.append(text.slice(position, entity.offset));
      const inner = [];
      index += 1;
      while (index < list.length && list[index].offset < entityEnd) {
        inner.push(list[index]);
        index += 1;
      }
      const node = wrap(entity);
      node.append(build(entity.offset, entityEnd, inner));
      fragment.append(node);
      position = Math.max(position, entityEnd);
    }
    if (position < end) fragment.append(text.slice(position, end));
    return fragment;
  }
  return build(0, text.length, sorted);
}

function wrap(entity) {
  switch (entity.type) {
    case "bold": return el("b");
    case "italic": return el("i");
    case "underline": return el("u");
    case "strikethrough": return el("s");
    case "code": return el("code");
    case "pre": return el("pre");
    case "spoiler": return el("span", { class: "spoiler" });
    case "blockquote": case "expandable_blockquote": return el("blockquote");
    case "text_link": return el("a", { href: entity.url, target: "_blank", rel: "noopener" });
    case "text_mention": return el("a", { class: "mention", title: `user ${entity.user && entity.user.id}` });
    case "mention": case "bot_command": case "hashtag": return el("a", { class: entity.type });
    default: return el("span", { class: entity.type });
  }
}

let toastTimer = null;
function toast(text) {
  const box = $("#toast");
  box.textContent = text;
  box.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { box.hidden = true; }, 2500);
}

function alertBox(text) {
  $("#alert-text").textContent = text;
  $("#alert-dialog").showModal();
}

function setStatus(text) { $("#status").textContent = text; }

// ------------------------------------------------------------------------- sidebar

function renderPeople() {
  const box = $("#people");
  box.replaceChildren(...world.people.map((person) => el("button", {
    class: `person${person.id === me().id ? " current" : ""}`,
    title: `Play as ${person.first_name}`,
    "data-person": person.id,
    onclick: () => switchPerson(person.id),
  }, avatar(person), el("span", { dir: "auto" }, person.first_name))));
}

function renderChats(previews) {
  const chats = [
    world.group ? { key: "group", title: world.group.title, user: world.group } : null,
    { key: "private", title: `${bot.first_name} (@${bot.username})`, user: bot },
  ].filter(Boolean);
  $("#chats").replaceChildren(...chats.map((chat) => {
    const preview = previews[chat.key] || { text: "", unread: 0 };
    return el("button", {
      class: `chat-item${saved.open === chat.key ? " open" : ""}`,
      role: "listitem",
      "data-chat": chat.key,
      onclick: () => switchChat(chat.key),
    },
    avatar(chat.user),
    el("div", {},
      el("div", { dir: "auto" }, chat.title),
      el("div", { class: "preview muted", dir: "auto" }, preview.text)),
    preview.unread ? el("span", { class: "badge hot" }, preview.unread) : null);
  }));
}

function previewOf(messages, key) {
  const live = messages.filter((m) => !m.deleted);
  const last = live[live.length - 1];
  const seenKey = `${me().id}:${key}`;
  const seen = saved.seen[seenKey] || 0;
  return {
    text: !last ? "" : serviceText(last) || `${last.from ? displayName(last.from) + ": " : ""}${last.text || ""}`,
    unread: live.filter((m) => m.message_id > seen && (!m.from || m.from.id !== me().id)).length,
  };
}

// ------------------------------------------------------------------------- messages

function messageSignature(message) {
  return JSON.stringify([message.text, message.entities, message.reply_markup, message.edit_date,
    message.deleted, me().id]);
}

/** A live countdown under a bot message that shows a turn's time ("⏱ 60s") while its
 * buttons are up: the message was last edited when the turn began. */
function countdown(message) {
  const found = /⏱\s*(\d+)\s*s/.exec(message.text || "");
  if (!found || !message.from || !message.from.is_bot || !message.reply_markup) return null;
  const deadline = ((message.edit_date || message.date) + Number(found[1])) * 1000;
  return el("span", { class: "countdown", "data-deadline": deadline }, "");
}

function tickCountdowns() {
  for (const node of document.querySelectorAll(".countdown")) {
    const left = Math.max(0, Math.round((Number(node.dataset.deadline) - Date.now()) / 1000));
    node.textContent = `⏱ ${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")} left · `;
    node.classList.toggle("late", left <= 10);
  }
}

/** The grey centred line Telegram shows for a change in the chat, or null. */
function serviceText(message) {
  const who = message.from ? displayName(message.from) : "";
  if (message.group_chat_created || message.supergroup_chat_created) return `${who} created the group`;
  if (message.new_chat_members) {
    const names = message.new_chat_members.map(displayName).join(", ");
    return message.new_chat_members.some((u) => u.id === (message.from && message.from.id))
      ? `${names} joined the group` : `${who} added ${names}`;
  }
  if (message.left_chat_member) return `${displayName(message.left_chat_member)} left the group`;
  if (message.pinned_message) return `${who} pinned a message`;
  if (message.new_chat_title) return `${who} renamed the group to “${message.new_chat_title}”`;
  if (message.web_app_data) return `Data from “${message.web_app_data.button_text}” sent to the bot`;
  return null;
}

function renderMessage(message, chat) {
  const service = serviceText(message);
  if (service !== null) return el("div", { class: "service", dir: "auto" }, service);
  const own = message.from && message.from.id === me().id;
  const fromBot = message.from && message.from.is_bot;
  const bubble = el("div", { class: "bubble" });
  if (!chat.private && !own && message.from) {
    bubble.append(el("div", { class: "from", dir: "auto", style: `color:${PALETTE[Math.abs(message.from.id) % PALETTE.length]}` },
      displayName(message.from)));
  }
  if (message.reply_to_message) {
    const quoted = message.reply_to_message;
    bubble.append(el("blockquote", { class: "muted", dir: "auto" },
      `${quoted.from ? displayName(quoted.from) : ""}: ${(quoted.text || "").slice(0, 80)}`));
  }
  const media = renderMedia(message);
  if (media) bubble.append(media);
  bubble.append(el("div", { class: "text", dir: "auto" },
    renderText(message.text || message.caption || "", message.entities || message.caption_entities)));
  const time = new Date((message.edit_date || message.date) * 1000);
  bubble.append(el("div", { class: "meta" },
    countdown(message),
    message.via_bot ? el("span", { class: "via" }, `via @${message.via_bot.username} · `) : null,
    message.edit_date ? "edited " : "",
    time.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit", second: "2-digit" })));
  const wrapBox = el("div", { class: "bubble-wrap" }, bubble);
  const markup = message.reply_markup && message.reply_markup.inline_keyboard;
  if (markup && markup.length) wrapBox.append(renderKeyboard(markup, message, chat));
  return el("div", {
    class: `msg${own ? " own" : ""}${fromBot ? " bot" : ""}`,
    "data-message-id": message.message_id,
  }, message.from ? avatar(message.from) : null, wrapBox);
}

/** A file the bot sent (no bytes are kept: a picture sent by URL is shown from there). */
function renderMedia(message) {
  if (message.sticker) {
    return el("div", { class: "media sticker", "data-media": "sticker", title: "sticker" },
      message.sticker.emoji || "🖼️");
  }
  const kind = ["photo", "animation", "document"].find((k) => message[k]);
  if (!kind) return null;
  const box = el("div", { class: `media ${kind}`, "data-media": kind });
  if (message.media_url && kind !== "document") box.append(el("img", { src: message.media_url, alt: kind }));
  else box.append(`${kind === "document" ? "📄" : "🖼️"} ${(message.document && message.document.file_name) || kind}`);
  return box;
}

function renderKeyboard(rows, message, chat) {
  return el("div", { class: "keyboard" }, rows.map((row) => el("div", { class: "row" },
    row.map((button) => el("button", {
      type: "button",
      dir: "auto",
      title: button.text,
      "data-callback": button.callback_data,
      "data-web-app": button.web_app ? button.web_app.url : undefined,
      onclick: (event) => pressButton(event.currentTarget, button, message, chat),
    }, button.text)))));
}

async function pressButton(node, button, message, chat) {
  if (button.callback_data !== undefined) {
    node.classList.add("busy");
    try {
      const answer = await api.pressButton(me().id, chat.id, message.message_id, button.callback_data);
      if (answer.url) openLink(answer.url);
      else if (answer.text && answer.show_alert) alertBox(answer.text);
      else if (answer.text) toast(answer.text);
    } catch (error) {
      toast(error.message);
    } finally {
      node.classList.remove("busy");
    }
    poll();
  } else if (button.switch_inline_query_current_chat !== undefined) {
    startInline(button.switch_inline_query_current_chat);
  } else if (button.switch_inline_query !== undefined) {
    if (chat.private) await switchChat("group");
    startInline(button.switch_inline_query);
  } else if (button.web_app) {
    openWebApp({ way: "inline_button", chat_id: chat.id, message_id: message.message_id, button_text: button.text },
      button.text);
  } else if (button.url) {
    openLink(button.url, chat);
  } else {
    toast("This button does not work in the playground.");
  }
}

/** A t.me link to a bot's Mini App opens it (a direct link); one to the bot's /start opens
 * the private chat and starts it; others open in a new tab. */
async function openLink(url, chat = openChat()) {
  const app = /^https?:\/\/t\.me\/([A-Za-z0-9_]+)\/([A-Za-z0-9_]+)(\?startapp=[\w-]*)?$/.exec(url);
  if (app) {
    openWebApp({ way: "direct_link", link: url, chat_id: chat.id }, app[2]);
    return;
  }
  const match = /^https?:\/\/t\.me\/([A-Za-z0-9_]+)(?:\?start=([\w-]+))?/.exec(url);
  if (match && bot && match[1].toLowerCase() === bot.username.toLowerCase()) {
    await switchChat("private");
    await api.sendMessage(me().id, bot.id, match[2] ? `/start ${match[2]}` : "/start");
    poll();
    return;
  }
  window.open(url, "_blank", "noopener");
}

async function renderMessages(chat, messages) {
  const box = $("#messages");
  const chatKey = `${me().id}:${chat.private ? "private" : "group"}`;
  if (renderedChat !== chatKey) {
    rendered.clear();
    box.replaceChildren();
    renderedChat = chatKey;
  }
  const atBottom = box.scrollHeight - box.scrollTop - box.clientHeight < 40;
  let added = false;
  for (const message of messages) {
    const key = message.message_id;
    const signature = messageSignature(message);
    const known = rendered.get(key);
    if (known && known.signature === signature) continue;
    if (message.deleted) {
      if (known) known.element.remove();
      rendered.set(key, { signature, element: null });
      continue;
    }
    const element = renderMessage(message, chat);
    if (known && known.element) known.element.replaceWith(element);
    else { box.append(element); added = true; }
    rendered.set(key, { signature, element });
  }
  tickCountdowns();
  if (atBottom || added) box.scrollTop = box.scrollHeight;
  const live = messages.filter((m) => !m.deleted);
  if (live.length) saved.seen[chatKey] = live[live.length - 1].message_id;
}

// ------------------------------------------------------------------------- inline mode

function startInline(query) {
  const input = $("#text");
  input.value = `@${bot.username} ${query}`;
  input.focus();
  runInline();
}

let inlineTimer = null;
function onInput() {
  const text = $("#text").value;
  $("#commands").hidden = !(text === "/");
  if (text === "/") renderCommands();
  clearTimeout(inlineTimer);
  if (inlineQueryText(text) === null) { closeInline(); return; }
  inlineTimer = setTimeout(runInline, 250);
}

function inlineQueryText(text) {
  const prefix = `@${bot.username}`;
  if (!text.toLowerCase().startsWith(prefix.toLowerCase())) return null;
  const rest = text.slice(prefix.length);
  if (rest && !rest.startsWith(" ")) return null;
  return rest.trim();
}

async function runInline(offset = "") {
  const query = inlineQueryText($("#text").value);
  if (query === null) return;
  const chat = openChat();
  $("#inline-results").hidden = false;
  $("#inline-title").textContent = offset ? "loading more…" : "loading…";
  try {
    const answer = await api.inlineQuery(me().id, query, chat.private ? null : chat.id, offset);
    if (!offset || !inline || inline.query !== query) {
      inline = { query, results: [], chatId: chat.id };
    }
    inline.queryId = answer.query_id;
    inline.results = inline.results.concat((answer.results || []).map((r) => ({ ...r, queryId: answer.query_id })));
    inline.nextOffset = answer.next_offset || "";
    inline.button = answer.button || null;
    renderInline(answer.answered);
  } catch (error) {
    $("#inline-title").textContent = error.message;
  }
}

function renderInline(answered) {
  $("#inline-title").textContent = answered ? `@${bot.username}` : `@${bot.username} did not answer`;
  const buttonBox = $("#inline-button");
  buttonBox.replaceChildren();
  if (inline.button) {
    buttonBox.append(el("button", {
      type: "button",
      onclick: () => (inline.button.web_app
        ? openWebApp({ way: "inline_results_button", query_id: inline.queryId }, inline.button.text)
        : openLink(`https://t.me/${bot.username}?start=${inline.button.start_parameter || ""}`)),
    }, inline.button.text));
  }
  $("#inline-list").replaceChildren(...inline.results.map((result) => el("button", {
    type: "button",
    class: "inline-result",
    role: "listitem",
    "data-result-id": result.id,
    onclick: () => chooseInline(result),
  },
  result.thumbnail_url || result.thumb_url
    ? el("img", { src: result.thumbnail_url || result.thumb_url, alt: "" })
    : null,
  el("div", {},
    el("div", { class: "title", dir: "auto" }, result.title || result.id),
    result.description ? el("div", { class: "description", dir: "auto" }, result.description) : null))));
  $("#inline-more").hidden = !inline.nextOffset;
}

async function chooseInline(result) {
  const chat = openChat();
  closeInline();
  $("#text").value = "";
  try {
    await api.chooseInlineResult(me().id, result.queryId, result.id, chat.id);
  } catch (error) {
    toast(error.message);
  }
  poll();
}

function closeInline() {
  inline = null;
  $("#inline-results").hidden = true;
  $("#inline-list").replaceChildren();
  $("#inline-button").replaceChildren();
}

// ------------------------------------------------------------------------- reply keyboard, menu button

/** The reply keyboard the bot shows in the open chat: the last one a bot message set, until
 * a later one removes it (`remove_keyboard`) or it was a one-time keyboard already used. */
function renderReplyKeyboard(messages, chat) {
  const box = $("#reply-keyboard");
  let shown = null;
  for (const message of messages) {
    if (message.deleted || !message.from || !message.from.is_bot || !message.reply_markup) continue;
    if (message.reply_markup.keyboard) shown = message;
    else if (message.reply_markup.remove_keyboard) shown = null;
  }
  box.hidden = !shown;
  if (!shown) { box.replaceChildren(); return; }
  box.replaceChildren(...shown.reply_markup.keyboard.map((row) => el("div", { class: "row" },
    row.map((button) => {
      const text = typeof button === "string" ? button : button.text;
      return el("button", {
        type: "button",
        dir: "auto",
        "data-web-app": button.web_app ? button.web_app.url : undefined,
        onclick: () => (button.web_app
          ? openWebApp({ way: "keyboard_button", chat_id: chat.id, message_id: shown.message_id, button_text: text }, text)
          : sendText(text)),
      }, text);
    }))));
}

/** The private chat's menu button: a Mini App's (setChatMenuButton) beside the commands. */
let menuApp = null;
async function loadMenuButton() {
  menuApp = null;
  if (bot && me()) {
    const button = await api.menuButton(me().id, bot.id).catch(() => null);
    if (button && button.type === "web_app") menuApp = button;
  }
  renderMenuButton();
}

function renderMenuButton() {
  const node = $("#menu-app");
  node.hidden = !(menuApp && openChat().private);
  node.textContent = menuApp ? menuApp.text : "";
}

// ------------------------------------------------------------------------- Mini Apps

// The page plays a Telegram client's part for a Mini App (Telegram's "Mini Apps on
// Telegram"): it loads the app in a phone-sized iframe at the URL the local Telegram built
// (launch parameters in its fragment) and speaks the web clients' postMessage protocol, JSON
// text `{eventType, eventData}` each way. It answers what Telegram's web client A answers:
// web_app_ready, web_app_close, the theme and viewport requests (and a viewport_changed
// unasked once the app loads), iframe_ready (set_custom_style), sendData (from a keyboard
// button's app only), links, the clipboard (no text) and biometry (unavailable); and, as the
// other clients do, web_app_expand, the safe-area requests and the switch back to inline
// mode; full screen (fullscreen_changed: the panel fills the page), the closing behaviour
// (a confirmation before the panel closes while the app asks for one), the vertical swipes
// (kept on the panel for a test to read: the page has no swipe to close), the back button
// (shown in the panel's bar, back_button_pressed when pressed), haptics (the last one kept on
// the panel) and the person's CloudStorage for this bot (web_app_invoke_custom_method, kept
// in this page's localStorage, answered custom_method_invoked as Telegram answers it). The
// rest (colours, the main button) changes nothing here.
let webApp = null; // { launch, expanded, ready, theme, confirmClose }

async function openWebApp(opening, title) {
  try {
    const launch = await api.openWebApp(opening);
    const params = new URLSearchParams(new URL(launch.url).hash.slice(1));
    let theme = {};
    try { theme = JSON.parse(params.get("tgWebAppThemeParams") || "{}"); } catch { /* none */ }
    webApp = { launch, expanded: false, ready: false, theme };
    closeDrawer();
    $("#web-app-title").textContent = title || "Mini App";
    $("#web-app-status").textContent = "loading…";
    const panel = $("#web-app");
    panel.classList.remove("expanded");
    panel.dataset.way = launch.way;
    panel.hidden = false;
    $("#web-app-frame").src = launch.url;
  } catch (error) {
    toast(error.message);
  }
}

function closeWebApp() {
  webApp = null;
  const panel = $("#web-app");
  panel.hidden = true;
  panel.classList.remove("expanded", "fullscreen");
  for (const key of ["confirmClose", "verticalSwipes", "haptic"]) delete panel.dataset[key];
  $("#web-app-back").hidden = true;
  $("#web-app-frame").src = "about:blank";
}

/** The close button: while the app asks for a confirmation (it holds a seat), Telegram
 * asks before closing it, in its own words. */
function askToCloseWebApp() {
  if (webApp && webApp.confirmClose && !window.confirm("Changes that you made may not be saved.")) return;
  closeWebApp();
}

/** The person's CloudStorage for the app's bot, as Telegram keeps it (per person and
 * bot): here in this page's localStorage. Answers what Telegram's methods answer. */
function cloudStorage(method, params) {
  const prefix = `cloud:${bot ? bot.id : 0}:${me() ? me().id : 0}:`;
  const keys = Array.isArray(params.keys) ? params.keys.map(String) : [];
  switch (method) {
    case "saveStorageValue":
      localStorage.setItem(prefix + params.key, String(params.value ?? ""));
      return { result: true };
    case "getStorageValues":
      return { result: Object.fromEntries(keys.map((k) => [k, localStorage.getItem(prefix + k) ?? ""])) };
    case "deleteStorageValues":
      for (const k of keys) localStorage.removeItem(prefix + k);
      return { result: true };
    case "getStorageKeys":
      return { result: Object.keys(localStorage).filter((k) => k.startsWith(prefix)).map((k) => k.slice(prefix.length)) };
    default:
      return { error: "UNKNOWN_METHOD" };
  }
}

function toApp(eventType, eventData) {
  const frame = $("#web-app-frame");
  if (frame.contentWindow) frame.contentWindow.postMessage(JSON.stringify({ eventType, eventData }), "*");
}

function viewport() {
  const frame = $("#web-app-frame");
  return { height: frame.clientHeight, width: frame.clientWidth, is_expanded: webApp.expanded, is_state_stable: true };
}

const NO_INSETS = { top: 0, bottom: 0, left: 0, right: 0 };

async function onAppEvent(eventType, eventData) {
  switch (eventType) {
    case "web_app_ready":
      webApp.ready = true;
      $("#web-app-status").textContent = `@${bot.username} · ready`;
      break;
    case "web_app_expand":
      webApp.expanded = true;
      $("#web-app").classList.add("expanded");
      requestAnimationFrame(() => webApp && toApp("viewport_changed", viewport()));
      break;
    case "web_app_request_viewport": toApp("viewport_changed", viewport()); break;
    case "web_app_request_theme": toApp("theme_changed", { theme_params: webApp.theme }); break;
    case "web_app_request_safe_area": toApp("safe_area_changed", NO_INSETS); break;
    case "web_app_request_content_safe_area": toApp("content_safe_area_changed", NO_INSETS); break;
    case "web_app_close": closeWebApp(); break;
    case "web_app_request_fullscreen":
      if (webApp.fullscreen) { toApp("fullscreen_failed", { error: "ALREADY_FULLSCREEN" }); break; }
      webApp.fullscreen = true;
      $("#web-app").classList.add("fullscreen", "expanded");
      toApp("fullscreen_changed", { is_fullscreen: true });
      requestAnimationFrame(() => webApp && toApp("viewport_changed", viewport()));
      break;
    case "web_app_exit_fullscreen":
      webApp.fullscreen = false;
      $("#web-app").classList.remove("fullscreen");
      toApp("fullscreen_changed", { is_fullscreen: false });
      break;
    case "web_app_setup_closing_behavior":
      webApp.confirmClose = !!(eventData && eventData.need_confirmation);
      $("#web-app").dataset.confirmClose = String(webApp.confirmClose);
      break;
    case "web_app_setup_swipe_behavior":
      $("#web-app").dataset.verticalSwipes = String(!!(eventData && eventData.allow_vertical_swipe));
      break;
    case "web_app_setup_back_button":
      $("#web-app-back").hidden = !(eventData && eventData.is_visible);
      break;
    case "web_app_trigger_haptic_feedback": {
      const haptic = eventData || {};
      $("#web-app").dataset.haptic = [haptic.type, haptic.impact_style || haptic.notification_type].filter(Boolean).join(":");
      break;
    }
    case "web_app_invoke_custom_method": {
      const call = eventData || {};
      toApp("custom_method_invoked", { req_id: call.req_id, ...cloudStorage(String(call.method), call.params || {}) });
      break;
    }
    case "iframe_ready": toApp("set_custom_style", ""); break;
    case "web_app_read_text_from_clipboard":
      toApp("clipboard_text_received", { req_id: (eventData || {}).req_id, data: null });
      break;
    case "web_app_biometry_get_info": toApp("biometry_info_received", { available: false }); break;
    case "web_app_data_send": {
      const launch = webApp.launch;
      if (launch.way !== "keyboard_button") break; // only a keyboard button's app sends data
      closeWebApp();
      try { await api.sendWebAppData(launch.launch_id, String((eventData || {}).data || "")); } catch (error) { toast(error.message); }
      poll();
      break;
    }
    case "web_app_open_link": if (eventData && eventData.url) window.open(eventData.url, "_blank", "noopener"); break;
    case "web_app_open_tg_link":
      if (eventData && eventData.path_full) { closeWebApp(); openLink(`https://t.me${eventData.path_full}`); }
      break;
    case "web_app_switch_inline_query":
      closeWebApp();
      startInline((eventData && eventData.query) || "");
      break;
    default: break; // colours, buttons, haptics: nothing to show here
  }
}

window.addEventListener("message", (event) => {
  if (!webApp || event.source !== $("#web-app-frame").contentWindow) return;
  let message = event.data;
  if (typeof message === "string") {
    try { message = JSON.parse(message); } catch { return; }
  }
  if (message && typeof message.eventType === "string") onAppEvent(message.eventType, message.eventData);
});

// ------------------------------------------------------------------------- the drawer

function openDrawer() {
  $("#app").classList.add("drawer-open");
  $("#drawer-shade").hidden = false;
  $("#drawer-toggle").setAttribute("aria-expanded", "true");
}

function closeDrawer() {
  $("#app").classList.remove("drawer-open");
  $("#drawer-shade").hidden = true;
  $("#drawer-toggle").setAttribute("aria-expanded", "false");
}

// ------------------------------------------------------------------------- commands

/** The bot's command menus, as it registered them (setMyCommands, read from the Bot API
 * call log): Telegram shows the group's menu in groups and the private one in private. */
let commands = { group: [], private: [] };

const parsed = (value) => {
  if (typeof value !== "string") return value;
  try { return JSON.parse(value); } catch { return value; }
};

async function loadCommands() {
  const found = { group: null, private: null };
  for (const call of await request("GET", "/control/calls")) {
    if (String(call.method).toLowerCase() !== "setmycommands" || !call.ok) continue;
    const params = call.params || {};
    if (params.language_code) continue;
    const scope = (parsed(params.scope) || {}).type || "default";
    const list = parsed(params.commands) || [];
    if (scope === "all_group_chats") found.group = list;
    else if (scope === "all_private_chats") found.private = list;
    else if (scope === "default") {
      found.group = found.group || list;
      found.private = found.private || list;
    }
  }
  commands = { group: found.group || [], private: found.private || [] };
}

function renderCommands() {
  const list = openChat().private ? commands.private : commands.group;
  $("#commands").replaceChildren(...(list.length ? list.map(({ command, description }) => el("button", {
    type: "button",
    onclick: () => { $("#text").value = `/${command}`; $("#commands").hidden = true; send(); },
  }, `/${command}`, el("span", { class: "muted", dir: "auto" }, description)))
    : [el("div", { class: "muted" }, "the bot has registered no commands")]));
}

// ------------------------------------------------------------------------- actions

async function send(event) {
  if (event) event.preventDefault();
  const input = $("#text");
  const text = input.value.trim();
  if (!text) return;
  if (inlineQueryText(text) !== null) { runInline(); return; }
  input.value = "";
  $("#commands").hidden = true;
  await sendText(text);
}

async function sendText(text) {
  try {
    await api.sendMessage(me().id, openChat().id, text);
  } catch (error) {
    toast(error.message);
  }
  poll();
}

async function switchPerson(id) {
  saved.current = id;
  save();
  closeInline();
  renderPeople();
  await loadMenuButton();
  await poll();
}

async function switchChat(key) {
  saved.open = key;
  save();
  closeInline();
  closeDrawer();
  await poll();
}

async function askPerson() {
  const dialog = $("#person-dialog");
  $("#person-form").reset();
  dialog.showModal();
  dialog.addEventListener("close", async () => {
    if (dialog.returnValue !== "ok") return;
    const form = new FormData($("#person-form"));
    try {
      await addPerson(String(form.get("first_name")).trim(), String(form.get("language_code")));
      renderPeople();
      await poll();
    } catch (error) {
      toast(error.message);
    }
  }, { once: true });
}

// ------------------------------------------------------------------------- the loop

async function poll() {
  if (!bot) return;
  if (polling) { pollAgain = true; return; }
  polling = true;
  try {
    const chat = openChat();
    const [group, direct] = await Promise.all([
      world.group ? api.messages(world.group.id) : Promise.resolve([]),
      api.privateMessages(me().id, bot.id),
    ]);
    $("#chat-title").textContent = chat.title;
    $("#chat-subtitle").textContent = chat.subtitle;
    await renderMessages(chat, chat.private ? direct : group);
    renderReplyKeyboard(chat.private ? direct : [], chat);
    renderMenuButton();
    renderChats({ group: previewOf(group, "group"), private: previewOf(direct, "private") });
    save();
    setStatus(`playing as ${me().first_name}`);
  } catch (error) {
    setStatus(`lost touch with the local Telegram: ${error.message}`);
    if (error.status === 404) await boot().catch(() => {});
  } finally {
    polling = false;
  }
  if (pollAgain) { pollAgain = false; poll(); }
}

/** Read the world and draw it; `make play` set it up (the bot, a first person, a group). */
async function boot() {
  load();
  await loadWorld();
  if (!world.people.some((p) => p.id === saved.current)) saved.current = world.people.length ? world.people[0].id : null;
  if (!me()) await addPerson("Alex", "en");
  await loadCommands().catch(() => {});
  await loadMenuButton();
  rendered.clear();
  renderedChat = null;
  renderPeople();
  await poll();
}

/** The live feed: any change in the world redraws what is open (a slow poll backs it up). */
function listen() {
  const feed = new EventSource("/control/feed");
  let timer = null;
  feed.onmessage = (event) => {
    let change = {};
    try { change = JSON.parse(event.data); } catch { /* a comment line */ }
    if (change.kind === "reset") { boot().catch(() => {}); return; }
    if (change.kind === "member" || change.kind === "user" || change.kind === "chat") loadWorld().then(renderPeople).catch(() => {});
    if (change.kind === "menu_button") loadMenuButton().catch(() => {});
    clearTimeout(timer);
    timer = setTimeout(poll, 60);
  };
  feed.onerror = () => setStatus("live feed interrupted; retrying…");
}

document.addEventListener("DOMContentLoaded", async () => {
  $("#composer").addEventListener("submit", send);
  $("#text").addEventListener("input", onInput);
  $("#menu").addEventListener("click", async () => {
    const box = $("#commands");
    box.hidden = !box.hidden;
    if (box.hidden) return;
    if (!commands.group.length && !commands.private.length) await loadCommands().catch(() => {});
    renderCommands();
  });
  $("#inline-close").addEventListener("click", () => { closeInline(); $("#text").value = ""; });
  $("#inline-more").addEventListener("click", () => runInline(inline ? inline.nextOffset : ""));
  $("#add-person").addEventListener("click", askPerson);
  $("#drawer-toggle").addEventListener("click", () => ($("#app").classList.contains("drawer-open") ? closeDrawer() : openDrawer()));
  $("#drawer-shade").addEventListener("click", closeDrawer);
  $("#menu-app").addEventListener("click", () =>
    openWebApp({ way: "menu_button", chat_id: bot.id }, menuApp ? menuApp.text : "Mini App"));
  $("#web-app-close").addEventListener("click", askToCloseWebApp);
  $("#web-app-back").addEventListener("click", () => webApp && toApp("back_button_pressed"));
  $("#web-app-frame").addEventListener("load", () => webApp && toApp("viewport_changed", viewport()));
  try {
    await boot();
  } catch (error) {
    setStatus(`cannot reach the local Telegram: ${error.message}`);
  }
  listen();
  setInterval(tickCountdowns, 1000);
  setInterval(() => (bot ? poll() : boot().catch(() => {})), POLL_MS);
});
