// Stepping Stones: the lobby on the home page, and a table watched by its watch link (/w/CODE).
// Both follow the server over a websocket of their own (docs/protocol.md, "The lobby",
// "Watching"); the words are the server's presenter's (a lobby line per table; what a watcher is
// shown, "shown": flow.presenter.WatchPresentation as JSON); the page draws them and words nothing
// but its own labels.
// @ts-check
import { cardFace, el } from "./cards.js";

/**
 * @typedef {import("./app.js").SeatLine} SeatLine
 * @typedef {import("./app.js").TrickLine} TrickLine
 * @typedef {{phase: string, title: string, contract: string, status: string, seats: SeatLine[], bids: string[], trick: TrickLine | null, tricks: TrickLine[], deals: string[][], summary: string[], result: string[], sheet: string[], watching: string | null, over: boolean}} WatchPresentation
 * @typedef {{code: string, line: string}} ListedTable
 */

const VERSION = 4;
const STOPPING = new Set(["unknown-code", "expired", "bad-message", "table-full"]);

/** @param {string} id @returns {HTMLElement} */
function $(id) {
  const node = document.getElementById(id);
  if (!node) throw new Error("the page has no #" + id);
  return node;
}

/** The server's websocket; a table's own path (``/t/<table>/ws``) once the server named it (``moved``). */
function socketUrl(/** @type {string | null} */ table) {
  return (location.protocol === "https:" ? "wss://" : "ws://") + location.host + (table ? "/t/" + table + "/ws" : "/ws");
}

/**
 * A websocket that says ``hello`` on opening, hands each message to ``onMessage``, and opens
 * again a few seconds after it closes, until ``stop``.
 * @param {Record<string, any>} hello @param {(message: any) => void} onMessage
 */
function follow(hello, onMessage) {
  /** @type {{stopped: boolean, ws: WebSocket | null, timer: number, tries: number, table: string | null}} */
  const state = { stopped: false, ws: null, timer: 0, tries: 0, table: null };
  const open = () => {
    let ws;
    try { ws = new WebSocket(socketUrl(state.table)); } catch (e) { again(); return; }
    state.ws = ws;
    ws.onopen = () => { state.tries = 0; ws.send(JSON.stringify(hello)); };
    ws.onmessage = (event) => {
      let message;
      try { message = JSON.parse(String(event.data)); } catch (e) { return; }
      if (message.type === "moved" && !state.table && /^[0-9a-f]{16}$/.test(message.table)) {
        // another server process holds the table: the same hello on its own path, at once
        state.table = message.table;
        state.ws = null; // its close is no lost connection
        ws.close();
        open();
        return;
      }
      if (message.type === "error" && STOPPING.has(message.code)) state.stopped = true;
      onMessage(message);
    };
    ws.onclose = () => { if (state.ws === ws) again(); };
  };
  const again = () => {
    if (state.stopped) return;
    state.tries += 1;
    state.timer = window.setTimeout(open, Math.min(10000, 500 * 2 ** Math.min(state.tries, 5)));
  };
  open();
  return () => {
    state.stopped = true;
    clearTimeout(state.timer);
    const ws = state.ws;
    state.ws = null;
    if (ws) ws.close();
  };
}

// --- the lobby: the listed tables with a free seat, on the home page --------------------------------

/** @type {(() => void) | null} */
let stopLobby = null;

/**
 * Follow the lobby while the home page is on show: each listed table in the presenter's line, with
 * a button that sits the person down there (``sit``, with the table's invite code).
 * @param {(code: string) => void} sit
 */
export function followLobby(sit) {
  if (stopLobby) return;
  stopLobby = follow({ type: "lobby", version: VERSION }, (message) => {
    if (message.type !== "lobby") return;
    /** @type {ListedTable[]} */
    const tables = message.tables;
    $("open-none").hidden = tables.length > 0;
    $("open-list").replaceChildren(...tables.map((table) => el("li", { class: "open-table" },
      el("p", { text: table.line }),
      el("button", { type: "button", class: "primary", "data-code": table.code, text: "Sit down", onclick: () => sit(table.code) }))));
  });
}

/** Stop following the lobby (the person sits down, or leaves the home page). */
export function leaveLobby() {
  if (stopLobby) stopLobby();
  stopLobby = null;
}

// --- watching a table: /w/CODE ----------------------------------------------------------------------

/** Watch the table of the watch code ``code``: what everyone sees, drawn as the server words it. @param {string} code */
export function watchTable(code) {
  for (const screen of document.querySelectorAll("main.screen")) /** @type {HTMLElement} */ (screen).hidden = screen.id !== "watch";
  $("watch-status").textContent = "Connecting…";
  follow({ type: "watch", version: VERSION, code, page: true }, (message) => {
    if (message.type === "watched" && message.shown) renderWatch(message.shown);
    else if (message.type === "felt") renderWatchFelt(message);
    else if (message.type === "error" || message.type === "version") $("watch-status").textContent = message.message;
  });
}

/** @param {string[]} lines @param {string} tag */
const lines = (lines, tag) => lines.map((line) => el(tag, { text: line }));

/** What the watch page shows, and when it came (performance.now()): its clock counts down from there.
 * @type {{shown: WatchPresentation | null, at: number, timer: number}} */
const W = { shown: null, at: 0, timer: 0 };

/** The clock of the seat waited for, counting down from when the shown came, as the players' page
 * counts it (app.js, ``tick``): the seat's seconds and the status line's. */
function tickWatch() {
  const p = W.shown;
  if (!p) return;
  const gone = (performance.now() - W.at) / 1000;
  const left = (/** @type {number} */ from) => Math.max(0, Math.ceil(from - gone));
  const waited = p.seats.find((seat) => seat.seconds !== null);
  const status = waited && waited.seconds !== null ? p.status.replace(waited.seconds + " s", left(waited.seconds) + " s") : p.status;
  if ($("watch-status").textContent !== status) $("watch-status").textContent = status;
  for (const node of document.querySelectorAll("#watch-seats .clock[data-from]")) {
    const text = left(Number(/** @type {HTMLElement} */ (node).dataset.from)) + " s";
    if (node.textContent !== text) node.textContent = text;
  }
}

/** The club's logo on the felt, and its name, as the players see them (``net/logos.py``).
 * @param {{club: string | null, logo: string | null}} felt */
function renderWatchFelt(felt) {
  const logo = /** @type {HTMLImageElement} */ ($("watch-logo"));
  if (felt.logo) logo.src = felt.logo; else logo.removeAttribute("src");
  logo.hidden = !felt.logo;
  logo.alt = felt.club || "";
  $("watch-club").textContent = felt.club || "";
}

/** @param {WatchPresentation} p */
function renderWatch(p) {
  W.shown = p;
  W.at = performance.now();
  if (!W.timer) W.timer = window.setInterval(tickWatch, 250);
  $("watch-title").textContent = p.title;
  $("watch-contract").textContent = p.contract;
  $("watch-status").textContent = p.status;
  $("watch-watching").textContent = p.watching || "";
  $("watch-seats").replaceChildren(...p.seats.map((seat) => el("li", { class: "seat" + (seat.acting ? " acting" : "") },
    el("strong", { text: seat.label }),
    el("span", { class: "kind", text: " " + seat.words + (seat.rating !== null ? ", rated " + seat.rating : "") }),
    ...seat.tags.map((tag) => el("span", { class: "tag", text: tag })),
    el("span", { class: "facts", text: " Cards: " + seat.cards + ", tricks: " + seat.tricks + (seat.acting ? ", " + seat.acting : "") }),
    seat.seconds !== null ? el("span", { class: "clock", "data-from": String(seat.seconds), text: seat.seconds + " s" }) : null)));
  $("watch-bids").replaceChildren(...lines(p.bids, "li")); // on the felt while they are said; then the contract line says it
  $("watch-bids").hidden = p.phase !== "bidding" || !p.bids.length;
  const done = p.trick === null && p.tricks.length ? p.tricks[p.tricks.length - 1] : null;
  const trick = p.trick || done;
  $("watch-trick").replaceChildren(...(trick ? trick.cards : []).map(([who, card, words]) => el("div",
    { class: "played" + (done && who === done.winner ? " won" : "") },
    cardFace(card, "div", { role: "img", "aria-label": who + ": " + words }), el("span", { class: "by", text: who }))));
  $("watch-last").textContent = done && done.text ? done.text : "";
  $("watch-summary").replaceChildren(...lines(p.summary, "p"));
  $("watch-result").replaceChildren(...lines(p.result, "p"));
  $("watch-sheet").replaceChildren(...lines(p.sheet, "li"));
  $("watch-deals").replaceChildren(...p.deals.map((deal) => el("li", {}, ...lines(deal, "p"))));
  tickWatch();
}
