// Stepping Stones: the table's life on the page, and its chat.  On the person's turn the tab's
// title and icon change, a generated beep sounds (off by default: one switch) and, while the tab
// is hidden, a notification is shown (permission is asked only from a tap on its button).  A
// card played moves to the trick and the trick towards its winner, briefly, unless the person
// asked for reduced motion.  The chat panel draws what the server shows (the quick phrases, the
// lines said, the mute buttons, the opener's switch: flow.presenter.chat_words) as text only.
// @ts-check
import { el } from "./cards.js";

/**
 * The chat panel as the server shows it (net/pageseat.py, ``PageSeat.chat``).
 * @typedef {{seat: number, name: string, muted: boolean, label: string}} MuteChoice
 * @typedef {{quick: string[], most: number, on: boolean, note: string, switch: string, title: string, notice: string, lines: string[], seats: MuteChoice[]}} Chat
 */

const SOUND_KEY = "stepping-stones.sound";
const NOTIFY_KEY = "stepping-stones.notify";
const TURN_ICON = "/web/icon-turn.svg";

const L = {
  /** @type {(message: Record<string, any>) => void} */ send: () => {},
  turn: false, // the person's turn, as last drawn
  title: "", // the page's own title and icon, for when the turn is over
  icon: "",
  /** @type {AudioContext | null} */ audio: null,
  beeps: 0,
  /** @type {Chat | null} */ chat: null,
  chatKey: "",
  trick: -1, // the trick whose cards were drawn arriving
  /** @type {Set<string>} */ arrived: new Set(),
  taken: -1, // the trick drawn moving to its winner
};

/** @param {string} id @returns {HTMLElement} */
function $(id) {
  const node = document.getElementById(id);
  if (!node) throw new Error("the page has no #" + id);
  return node;
}

/** @param {string} key */
function stored(key) {
  try { return localStorage.getItem(key) === "true"; } catch (e) { return false; }
}

/** @param {string} key @param {boolean} on */
function store(key, on) {
  try { localStorage.setItem(key, on ? "true" : "false"); } catch (e) { /* private mode: for this page only */ }
}

function iconLink() {
  return /** @type {HTMLLinkElement | null} */ (document.querySelector('link[rel="icon"]'));
}

/** The page's switches and the chat's form, sending with ``send``. @param {(message: Record<string, any>) => void} send */
export function setupLife(send) {
  L.send = send;
  L.title = document.title;
  const icon = iconLink();
  L.icon = icon ? icon.href : "";
  const sound = /** @type {HTMLInputElement} */ ($("sound"));
  sound.checked = stored(SOUND_KEY);
  sound.addEventListener("change", () => { store(SOUND_KEY, sound.checked); if (sound.checked) beep(); });
  const notify = $("notify");
  notify.setAttribute("aria-pressed", String(stored(NOTIFY_KEY) && "Notification" in window && Notification.permission === "granted"));
  notify.addEventListener("click", () => {
    if (!("Notification" in window)) { $("notify-note").textContent = "This browser shows no notifications."; return; }
    const wanted = notify.getAttribute("aria-pressed") !== "true";
    if (!wanted) { store(NOTIFY_KEY, false); notify.setAttribute("aria-pressed", "false"); return; }
    Notification.requestPermission().then((answer) => { // asked from this tap only
      store(NOTIFY_KEY, answer === "granted");
      notify.setAttribute("aria-pressed", String(answer === "granted"));
      $("notify-note").textContent = answer === "granted" ? "" : "Notifications are blocked for this page in the browser's settings.";
    });
  });
  $("chat-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const field = /** @type {HTMLInputElement} */ ($("chat-text"));
    const text = field.value.trim();
    if (text) { L.send({ type: "chat", text }); field.value = ""; }
  });
  $("chat-switch").addEventListener("click", () => { if (L.chat) L.send({ type: "chat-switch", on: !L.chat.on }); });
}

/** A short beep made here (no sound file): the person's turn. */
function beep() {
  const Context = window.AudioContext;
  if (!Context) return;
  if (!L.audio) L.audio = new Context();
  const audio = L.audio;
  const now = audio.currentTime;
  const tone = audio.createOscillator();
  const gain = audio.createGain();
  tone.frequency.value = 660;
  gain.gain.setValueAtTime(0.0001, now);
  gain.gain.exponentialRampToValueAtTime(0.2, now + 0.02);
  gain.gain.exponentialRampToValueAtTime(0.0001, now + 0.25);
  tone.connect(gain).connect(audio.destination);
  tone.start(now);
  tone.stop(now + 0.3);
  L.beeps += 1;
  document.documentElement.dataset.beeps = String(L.beeps); // how many, for the tests to read
}

/** The person's turn has come or gone: the title, the icon, the beep, the notification.
 * @param {boolean} yours @param {Chat | null} chat */
export function turnSignal(yours, chat) {
  if (yours === L.turn || !chat) return;
  L.turn = yours;
  document.title = yours ? chat.title : L.title;
  const icon = iconLink();
  if (icon) icon.href = yours ? TURN_ICON : L.icon;
  if (!yours) return;
  if (/** @type {HTMLInputElement} */ ($("sound")).checked) beep();
  if (document.hidden && stored(NOTIFY_KEY) && "Notification" in window && Notification.permission === "granted") {
    new Notification(chat.notice, { icon: TURN_ICON, tag: "stepping-stones-turn" });
  }
}

/** @param {Chat} chat */
export function renderChat(chat) {
  L.chat = chat;
  const key = JSON.stringify(chat);
  if (key === L.chatKey) return;
  L.chatKey = key;
  const lines = $("chat-lines");
  lines.replaceChildren(...chat.lines.map((line) => el("li", { text: line })));
  lines.scrollTop = lines.scrollHeight;
  $("chat-quick").replaceChildren(...chat.quick.map((phrase) => el("button", {
    type: "button", text: phrase, disabled: !chat.on, onclick: () => L.send({ type: "chat", text: phrase }),
  })));
  const field = /** @type {HTMLInputElement} */ ($("chat-text"));
  field.maxLength = chat.most;
  field.disabled = !chat.on;
  /** @type {HTMLButtonElement} */ ($("chat-send")).disabled = !chat.on;
  $("chat-note").textContent = chat.note;
  $("chat-mutes").replaceChildren(...chat.seats.map((seat) => el("button", {
    type: "button", text: seat.label, "aria-pressed": String(seat.muted), "data-seat": String(seat.seat),
    onclick: () => L.send({ type: "mute", seat: seat.seat, on: !seat.muted }),
  })));
  $("chat-switch").hidden = !chat.switch;
  $("chat-switch").textContent = chat.switch;
}

/** The server did not say the person's line: its words. @param {string} text */
export function chatRefused(text) {
  $("chat-note").textContent = text;
}

/** The trick just drawn in ``node``: each card new to it moves in from its player's side, and a
 * finished trick moves towards its winner's side, once; nothing moves for reduced motion.
 * @param {HTMLElement} node @param {number} number @param {string | null} winner the winner's slot */
export function animateTrick(node, number, winner) {
  if (window.matchMedia("(prefers-reduced-motion: reduce)").matches) return;
  if (number !== L.trick) { L.trick = number; L.arrived = new Set(); }
  for (const played of node.querySelectorAll(".played")) {
    const face = played.querySelector("[data-card]");
    const card = face instanceof HTMLElement ? face.dataset.card || "" : "";
    if (!L.arrived.has(card)) {
      L.arrived.add(card);
      if (winner === null) played.classList.add("arrive");
    }
    if (winner !== null) played.classList.add(L.taken === number ? "taken-still" : "taken", "to-" + winner);
  }
  if (winner !== null) L.taken = number;
}
