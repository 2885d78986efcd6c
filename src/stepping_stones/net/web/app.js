// Stepping Stones: the table server's own web page.  It speaks the table protocol (version 3,
// docs/protocol.md) over /ws with "page" in its hello: the server runs the seat's flow and sends
// what the person is shown ("shown": flow.presenter.Presentation as JSON), and the page sends
// back what the person did ("do").  The page draws what it is shown and nothing else: it keeps
// no rules and words nothing but its own labels (the buttons, the headings, the connection).
// @ts-check
import { cardBacks, cardFace, el } from "./cards.js";
import { playerKey } from "./player.js";
import { followLobby, leaveLobby, watchTable } from "./watch.js";
import { animateTrick, chatRefused, renderChat, setupLife, turnSignal } from "./life.js";

/**
 * What the server sends a page (``flow.presenter``; tests/test_web.py checks these fields
 * against the Python dataclasses).
 * @typedef {{seat: number, name: string, label: string, words: string, cards: number, tricks: number, tags: string[], acting: string | null, seconds: number | null, rating: number | null}} SeatLine
 * @typedef {{card: string, words: string, legal: boolean, why_not: string | null}} CardLine
 * @typedef {{bid: string, text: string, contract: string | null, group: string, row: string, short: string, suit: string | null}} BidLine
 * @typedef {{left: number, prompt: string, text: string}} ClaimOffer
 * @typedef {{number: number, cards: [string, string, string][], winner: string | null, text: string | null}} TrickLine
 * @typedef {{seat: number, name: string, seconds: number, mine: boolean, reading: boolean, text: string}} ClockLine
 * @typedef {{phase: string, title: string, contract: string, progress: string, status: string, prompt: string | null, my_turn: boolean, clock: ClockLine | null, seats: SeatLine[], hand: CardLine[], bids: BidLine[], said: string[], claim: ClaimOffer | null, trick: TrickLine | null, tricks: TrickLine[], message: string | null, refused: boolean, stand_in: string | null, summary_hand: number | null, summary: string[], result: string[], sheet: string[], events: [number, string][], hints: boolean, undo: boolean, notes: string[], over: boolean, online: boolean, you: string, watching: string | null}} Presentation
 * @typedef {{seats: string[], start: boolean, note: string}} Lobby
 * @typedef {import("./life.js").Chat} Chat
 * @typedef {{club: string | null, logo: string | null}} Felt
 * @typedef {{again: string | null, analysis: string[], lobby: Lobby | null, chat: Chat, felt: Felt | null}} PageExtra
 * @typedef {{type: "welcome", code: string, table: string, seat: number, name: string, secret: string | null, opener: boolean, timeout: number, watch: string | null}} Welcome
 * @typedef {{secret: string, name: string, table: string, live: boolean, at: number}} Kept
 */

const VERSION = 4;
const SEATS_KEY = "stepping-stones.seats"; // invite code -> Kept: one seat per table
const OLD_SEAT_KEY = "stepping-stones.seat"; // the one seat an older page kept
const NAME_KEY = "stepping-stones.name";
const KEPT_MOST = 20; // the tables whose seats are kept (the newest)
const GONE_AFTER = 20000; // ms without the server before the page says it is gone
const STOPPING = new Set(["unknown-code", "bad-secret", "table-full", "name-taken", "replaced", "expired"]);

/** @param {string} id @returns {HTMLElement} */
function $(id) {
  const node = document.getElementById(id);
  if (!node) throw new Error("the page has no #" + id);
  return node;
}
const input = (/** @type {string} */ id) => /** @type {HTMLInputElement} */ ($(id));
const choice = (/** @type {string} */ id) => /** @type {HTMLSelectElement} */ ($(id));
const link = (/** @type {string} */ id) => /** @type {HTMLAnchorElement} */ ($(id));

const S = {
  /** @type {WebSocket | null} */ ws: null,
  /** @type {Record<string, any> | null} */ hello: null,
  /** @type {Welcome | null} */ welcome: null,
  /** @type {Presentation | null} */ shown: null,
  /** @type {PageExtra | null} */ page: null,
  at: 0, // when the shown came (performance.now()): the clock counts down from there
  code: "", // the table's invite code
  table: "", // the table's id, once known: the websocket goes to its own path (a proxy finds its process)
  stopped: false,
  retries: 0,
  /** @type {number | null} */ lostAt: null,
  goneSaid: false,
  retryTimer: 0,
  told: -1, // the number of the last event told on this connection (-1: none came yet)
  fresh: true, // no connection has been seated since the page was loaded
  said: "", // the status and prompt last told
  /** @type {number | null} */ summaryTold: null,
  resultTold: false,
  messageTold: "",
  /** @type {Map<number, string>} */ log: new Map(),
  /** @type {string | null} */ openPanel: null,
  sentAt: -1e9, // when a card or bid was sent (performance.now()): a second tap meanwhile is not sent
  askedAgain: false,
  /** @type {number | null} */ analysisFor: null,
  turn: "", // the turn last drawn (its prompt): a new one brings the hand into view
};

// --- storage: a seat's secret per table (localStorage is per origin) --------------------------

/** @param {string} key */
function load(key) {
  try { return JSON.parse(localStorage.getItem(key) || "null"); } catch (e) { return null; }
}
/** @param {string} key @param {any} value */
function save(key, value) {
  try {
    if (value === null) localStorage.removeItem(key); else localStorage.setItem(key, JSON.stringify(value));
  } catch (e) { /* private mode: the seat is kept for this page only */ }
}
/** @param {string | null | undefined} text */
function normalCode(text) {
  const letters = String(text || "").toUpperCase().replace(/[^A-Z0-9]/g, "");
  return letters.length === 10 ? letters.slice(0, 5) + "-" + letters.slice(5) : letters;
}

/** The seats kept in this browser, by invite code. @returns {Record<string, Kept>} */
function keptSeats() {
  const stored = load(SEATS_KEY);
  /** @type {Record<string, Kept>} */
  const seats = stored && typeof stored === "object" && !Array.isArray(stored) ? stored : {};
  const old = load(OLD_SEAT_KEY);
  if (old) {
    if (old.code && old.secret && !seats[normalCode(old.code)]) {
      seats[normalCode(old.code)] = { secret: old.secret, name: old.name || "", table: old.table || "", live: true, at: 0 };
      save(SEATS_KEY, seats);
    }
    save(OLD_SEAT_KEY, null);
  }
  return seats;
}

/** @param {string} code @param {Partial<Kept>} facts */
function keepSeat(code, facts) {
  const seats = keptSeats();
  seats[code] = { ...seats[code], ...facts, at: Date.now() };
  const newest = Object.entries(seats).sort((a, b) => b[1].at - a[1].at).slice(0, KEPT_MOST);
  save(SEATS_KEY, Object.fromEntries(newest));
}

/** @param {string} code */
function dropSeat(code) {
  const seats = keptSeats();
  delete seats[code];
  save(SEATS_KEY, seats);
}

/** The table with a game in play that going to ``code`` would leave: the one on show, else the
 * newest kept. @param {string} code @returns {string | null} */
function inPlayElsewhere(code) {
  if (S.code && S.code !== code && S.shown && !S.shown.over) return S.code;
  const newest = Object.entries(keptSeats()).sort((a, b) => b[1].at - a[1].at)[0];
  return newest && newest[0] !== code && newest[1].live ? newest[0] : null;
}

/** Whether to go to table ``code``: asked when it leaves a game in play; if not, back to that
 * game. @param {string} code */
function mayLeaveFor(code) {
  const other = inPlayElsewhere(code);
  if (other === null) return true;
  if (window.confirm(`Your game at table ${other} is still in play. Leave it for table ${code}? (Your seat there is kept.)`)) return true;
  const kept = keptSeats()[other];
  if (kept && S.code !== other) resume(other, kept);
  else history.replaceState(null, "", "/t/" + other);
  return false;
}

// --- speaking -----------------------------------------------------------------------------------

/** @param {(string | null | undefined)[]} lines */
function announce(lines) {
  const live = $("live");
  for (const line of lines) if (line) live.append(el("p", { text: line }));
  while (live.childElementCount > 100) live.firstElementChild?.remove(); // what was said is in the log
}

/** @param {string} text */
function banner(text) {
  const node = $("banner");
  node.textContent = text;
  node.hidden = !text;
}

// --- the connection -------------------------------------------------------------------------------

function socketUrl() {
  return (location.protocol === "https:" ? "wss://" : "ws://") + location.host + (S.table ? "/t/" + S.table + "/ws" : "/ws");
}

/** @param {Record<string, any>} hello */
function connect(hello) {
  S.hello = hello;
  S.stopped = false;
  clearTimeout(S.retryTimer);
  let ws;
  try { ws = new WebSocket(socketUrl()); } catch (e) { lost(); return; }
  S.ws = ws;
  ws.onopen = () => ws.send(JSON.stringify(hello));
  ws.onmessage = (event) => { if (S.ws === ws) receive(String(event.data)); };
  ws.onclose = () => { if (S.ws === ws) { S.ws = null; lost(); } };
}

/** @param {Record<string, any>} message */
function send(message) {
  if (S.ws && S.ws.readyState === WebSocket.OPEN) S.ws.send(JSON.stringify(message));
}

/** What the person did, in the words of what they were shown. @param {string} what @param {Record<string, any>} [more] */
function act(what, more) {
  send({ type: "do", what, ...more });
}

function lost() {
  if (S.stopped) return;
  const kept = keptSeats()[S.code];
  if (!kept || !kept.secret || !(S.welcome || (S.hello && S.hello.secret))) {
    showError("The server cannot be reached. Is stepping-stones host running?");
    return;
  }
  if (S.lostAt === null) {
    S.lostAt = Date.now();
    banner("The connection to the server was lost; trying again.");
    announce(["The connection to the server was lost; trying again."]);
  } else if (Date.now() - S.lostAt > GONE_AFTER && !S.goneSaid) {
    S.goneSaid = true;
    const text = "The server is gone: it cannot be reached. The page keeps trying every few seconds.";
    banner(text);
    announce([text]);
  }
  const delay = Math.min(5000, 250 * 2 ** Math.min(S.retries, 5));
  S.retries += 1;
  S.retryTimer = window.setTimeout(() => connect({ type: "hello", version: VERSION, secret: kept.secret, page: true }), delay);
}

/** @param {string} data */
function receive(data) {
  let message;
  try { message = JSON.parse(data); } catch (e) { return; }
  if (message.type === "welcome") welcomed(message);
  else if (message.type === "shown") shownCame(message.shown, message.page);
  else if (message.type === "error") refused(message.code, message.message);
  else if (message.type === "moved" && !S.table && /^[0-9a-f]{16}$/.test(message.table)) moved(message.table);
  else if (message.type === "version") { S.stopped = true; showError(message.message); }
}

/** The hello on /ws found its table held by another server process behind a proxy: the same hello
 * again on the table's own path, which the proxy sends there. @param {string} table */
function moved(table) {
  const ws = S.ws;
  S.ws = null; // its close is no lost connection
  if (ws) ws.close();
  S.table = table;
  if (S.hello) connect(S.hello);
}

/** @param {Welcome} message */
function welcomed(message) {
  const back = S.lostAt !== null;
  S.welcome = message;
  S.table = message.table;
  S.code = message.code;
  S.lostAt = null; S.goneSaid = false; S.retries = 0; S.told = -1; S.log = new Map();
  banner("");
  const kept = keptSeats()[message.code];
  const secret = message.secret || (kept ? kept.secret : "");
  if (secret) keepSeat(message.code, { secret, name: message.name, table: message.table, live: true });
  save(NAME_KEY, message.name);
  const path = "/t/" + message.code;
  if (location.pathname !== path || location.search) history.replaceState(null, "", path);
  if (back) announce(["Back at the table."]);
}

/** @param {Presentation | null} shown @param {PageExtra} page */
function shownCame(shown, page) {
  S.shown = shown;
  S.page = page;
  S.at = performance.now();
  S.sentAt = -1e9;
  if (shown) {
    const kept = keptSeats()[S.code];
    if (kept && kept.live === shown.over) keepSeat(S.code, { live: !shown.over });
  }
  tell();
  render();
  if (S.askedAgain && page.again) goTo(page.again);
}

/** Say what is new: each event once, by its number; the status and prompt when they change; a
 * summary, the result, a message as they come. */
function tell() {
  const shown = S.shown;
  if (!shown) return;
  const lines = [];
  const events = shown.events;
  for (const [number, text] of events) S.log.set(number, text);
  if (S.told < 0) { // the connection's first: a page just loaded tells the newest event only
    const newest = events.length ? events[events.length - 1] : null;
    if (S.fresh && newest) lines.push(newest[1]);
    S.told = newest ? newest[0] : 0;
    S.fresh = false;
  } else {
    for (const [number, text] of events) if (number > S.told) { lines.push(text); S.told = number; }
  }
  if (shown.summary_hand !== null && S.summaryTold !== shown.summary_hand) lines.push(...shown.summary);
  S.summaryTold = shown.summary_hand;
  if (shown.over && shown.summary_hand === null && !S.resultTold) { S.resultTold = true; lines.push(...shown.result); }
  if (shown.message && shown.message !== S.messageTold) lines.push(shown.message);
  S.messageTold = shown.message || "";
  const said = [shown.status, shown.prompt].filter(Boolean).join(" ");
  if (said !== S.said) { S.said = said; lines.push(said); }
  announce(lines);
}

/** @param {string} code @param {string} text */
function refused(code, text) {
  if (code === "chat-refused") { chatRefused(text); return; } // the chat's own note
  if (!STOPPING.has(code) && !(code === "bad-message" && !S.welcome)) {
    showMessage(text, true); // the server's own words
    return;
  }
  S.stopped = true;
  if (code === "bad-secret" || code === "expired") dropSeat(S.code);
  if (code === "expired" && S.shown && S.shown.over) {
    // a finished game's table closing after its grace: the result stays on show, the link to a
    // table asked for with "again" too; the button that would ask has no connection any more
    $("again").hidden = true;
    banner(text);
    announce([text]);
    return;
  }
  if (code === "replaced") {
    banner("This seat was taken back in another window or tab: play it there, or reload this page to take it here.");
    return;
  }
  if (S.hello && S.hello.code) { showJoin(S.code, text); return; }
  showHome();
  banner(text);
}

/** @param {string} text */
function showError(text) {
  banner(text);
  if ($("table").hidden && $("lobby").hidden) showHome();
}

// --- drawing ----------------------------------------------------------------------------------------

/** @param {string} id */
function showScreen(id) {
  for (const s of ["home", "join", "lobby", "table", "watch"]) $(s).hidden = s !== id;
  if (id !== "home") leaveLobby();
  $("chat").hidden = id !== "lobby" && id !== "table"; // a seated person's chat, before the start too
}

function render() {
  if (!S.welcome) return;
  const shown = S.shown;
  if (!shown) { renderLobby(S.page ? S.page.lobby : null); return; }
  showScreen("table");
  renderTable(shown, /** @type {PageExtra} */ (S.page));
}

/** @param {Lobby | null} lobby */
function renderLobby(lobby) {
  showScreen("lobby");
  const code = S.code;
  const address = location.origin + "/t/" + code;
  $("invite").textContent = address;
  link("invite").href = address;
  $("invite-code").textContent = code;
  $("lobby-seats").replaceChildren(...(lobby ? lobby.seats : []).map((line) => el("li", { text: line })));
  $("lobby-start").hidden = !(lobby && lobby.start);
  $("lobby-note").textContent = lobby ? lobby.note : "";
  const watch = S.welcome && S.welcome.watch ? location.origin + "/w/" + S.welcome.watch : "";
  $("watch-link").textContent = watch;
  link("watch-link").href = watch || "/";
  if (S.page) renderChat(S.page.chat);
}

/** @param {Presentation} p @param {PageExtra} page */
function renderTable(p, page) {
  $("title").textContent = p.title;
  $("contract").textContent = p.contract;
  $("progress").textContent = p.progress;
  $("stand-in").hidden = !p.stand_in;
  $("stand-in-text").textContent = p.stand_in || "";
  renderSeat($("seat-me"), p.seats[0], true);
  renderSeat($("seat-left"), p.seats[1], false);
  renderSeat($("seat-right"), p.seats[2], false);
  renderTrick(p);
  $("status").classList.toggle("yours", p.my_turn);
  $("watching").textContent = p.watching || "";
  $("prompt").textContent = p.prompt || "";
  showMessage(p.message || "", p.refused);
  renderBids(p);
  renderHand(p);
  $("hint").hidden = !p.hints;
  $("undo").hidden = !p.undo;
  $("life").hidden = p.over; // no turn comes any more
  renderClaim(p);
  renderSummary(p, page);
  renderResult(p, page);
  $("help-notes").replaceChildren(...p.notes.map((note) => el("p", { text: note })));
  renderPanels(p);
  tick();
  const turn = p.my_turn && p.summary_hand === null ? p.prompt || "yes" : "";
  if (turn && turn !== S.turn) bringIntoView();
  S.turn = turn;
  renderChat(page.chat);
  turnSignal(Boolean(turn), page.chat);
  renderFelt(page.felt);
}

/** The club's logo on the felt, and its name (``net/logos.py``). @param {Felt | null} felt */
function renderFelt(felt) {
  const logo = /** @type {HTMLImageElement} */ ($("felt-logo"));
  const src = felt && felt.logo ? felt.logo : "";
  if (logo.getAttribute("src") !== src) { if (src) logo.src = src; else logo.removeAttribute("src"); }
  logo.hidden = !src;
  logo.alt = felt && felt.club ? felt.club : "";
  $("felt-club").textContent = felt && felt.club ? felt.club : "";
}

/** @param {HTMLElement} node @param {SeatLine} seat @param {boolean} mine */
function renderSeat(node, seat, mine) {
  node.className = "seat" + (mine ? " mine" : "") + (seat.acting ? " acting" : "");
  const parts = [
    el("p", { class: "who", title: seat.name }, el("strong", { text: seat.label }),
      seat.rating !== null ? el("span", { class: "rating", text: "Rated " + seat.rating }) : null),
    el("p", { class: "facts" },
      el("span", { class: "kind", text: seat.words }),
      ...seat.tags.map((tag) => el("span", { class: "tag", text: tag })),
      el("span", { class: "tricks", text: "Tricks: " + seat.tricks })),
    seat.acting || seat.seconds !== null
      ? el("p", { class: "turn" }, seat.acting ? el("span", { text: seat.acting }) : null,
        seat.seconds !== null ? el("span", { class: "clock", "data-from": String(seat.seconds) }) : null)
      : null,
    !mine && seat.cards ? el("p", { class: "hand-backs", "aria-label": "Cards: " + seat.cards, role: "img" }, cardBacks(seat.cards)) : null];
  node.replaceChildren(...parts.filter((part) => part !== null));
}

/** @param {Presentation} p */
function renderTrick(p) {
  // the trick on the table; between tricks, the one just taken, its winner marked, with why
  const done = p.trick === null && p.tricks.length ? p.tricks[p.tricks.length - 1] : null;
  const line = p.trick || done;
  const slot = (/** @type {string} */ who) => ["bottom", "left", "right"][Math.max(0, p.seats.findIndex((s) => s.label === who))];
  $("trick").classList.toggle("done", Boolean(done));
  $("trick").replaceChildren(...(line ? line.cards : []).map(([who, card, words]) => el("div",
    { class: "played slot-" + slot(who) + (done && who === done.winner ? " won" : "") },
    cardFace(card, "div", { role: "img", "aria-label": who + ": " + words }),
    el("span", { class: "by", text: who }))));
  $("last-trick").textContent = done && done.text ? done.text : "";
  animateTrick($("trick"), line ? line.number : 0, done && done.winner ? slot(done.winner) : null);
}

/** @param {Presentation} p */
function renderBids(p) {
  const box = $("bidding");
  box.hidden = !p.bids.length || p.summary_hand !== null;
  const key = JSON.stringify(p.bids);
  if (box.dataset.key === key) return;
  box.dataset.key = key;
  // under each contract its heading, then a row a ranking with a button a trump (the presenter's
  // words; a button's name is the whole bid)
  /** @type {Map<string, {box: HTMLElement, rows: Map<string, HTMLElement>}>} */
  const groups = new Map();
  for (const bid of p.bids) {
    let group = groups.get(bid.group);
    if (!group) {
      group = { box: el("div", { class: "bid-group" }), rows: new Map() };
      if (bid.contract !== null) group.box.append(el("p", { class: "bid-contract", text: bid.group }));
      groups.set(bid.group, group);
    }
    const each = bid.row !== "" && bid.short !== bid.row; // a button a trump: the ranking heads the row
    let row = group.rows.get(each ? bid.row : "");
    if (!row) {
      row = el("div", { class: "bid-choices" });
      group.rows.set(each ? bid.row : "", row);
      group.box.append(
        each ? el("div", { class: "bid-row" }, el("span", { class: "bid-ranking", text: bid.row }), row) : row,
      );
    }
    row.append(el("button", {
      type: "button", class: "bid" + (bid.contract === null ? " pass" : "") + (bid.suit ? " suit-" + bid.suit : ""),
      "data-bid": bid.bid, "aria-label": bid.text, title: bid.text, text: bid.short,
      onclick: () => { if (mayAct()) act("bid", { bid: bid.bid }); },
    }));
  }
  const boxes = [...groups.values()].map((group) => group.box);
  box.replaceChildren(...(boxes.length ? [el("h2", { class: "bid-title", text: "Your bid" }), ...boxes] : []));
}

/** @param {Presentation} p */
function renderHand(p) {
  const hand = $("hand");
  const active = document.activeElement;
  const focused = active instanceof HTMLElement && hand.contains(active) ? active.dataset.card : null;
  const buttons = p.hand.map((line, i) => {
    const why = "why-" + line.card;
    const button = cardFace(line.card, "button", {
      type: "button", "aria-label": line.words, "aria-disabled": line.legal ? null : "true",
      "aria-describedby": line.why_not ? why : null,
      class: line.legal ? "legal" : line.why_not ? "off" : "idle",
      onclick: () => cardPressed(line), onkeydown: (/** @type {KeyboardEvent} */ event) => handKey(event, i),
    });
    if (line.why_not) button.append(el("span", { id: why, class: "sr-only", text: line.why_not }));
    return button;
  });
  hand.replaceChildren(...buttons);
  hand.classList.toggle("turn", p.hand.some((line) => line.legal)); // a phone keeps it in view on the turn to play only
  hand.dataset.cards = p.hand.map((line) => line.card).join(" "); // the hand drawn, for the tests to wait on
  if (focused) {
    const target = hand.querySelector(`[data-card="${focused}"]`) || hand.querySelector("button.legal") || hand.querySelector("button");
    if (target instanceof HTMLElement) target.focus({ preventScroll: true });
  }
}

/** A card or bid may be sent: none was in the last moment, unanswered (a double tap sends one). */
function mayAct() {
  const now = performance.now();
  if (now - S.sentAt < 1500) return false;
  S.sentAt = now;
  return true;
}

/** The line over the table: a refusal is drawn as one, a hint or its note plainly.
 * @param {string} text @param {boolean} refusal */
function showMessage(text, refusal) {
  $("message").textContent = text;
  $("message").classList.toggle("refusal", refusal);
}

/** @param {CardLine} line */
function cardPressed(line) {
  if (line.legal) {
    if (mayAct()) act("play", { card: line.card });
  } else if (line.why_not) {
    showMessage(line.why_not, true);
  }
}

/** @param {KeyboardEvent} event @param {number} index */
function handKey(event, index) {
  const buttons = /** @type {HTMLElement[]} */ ([...$("hand").querySelectorAll("button.card")]);
  let next = null;
  if (event.key === "ArrowRight" || event.key === "ArrowDown") next = buttons[Math.min(buttons.length - 1, index + 1)];
  else if (event.key === "ArrowLeft" || event.key === "ArrowUp") next = buttons[Math.max(0, index - 1)];
  else if (event.key === "Home") next = buttons[0];
  else if (event.key === "End") next = buttons[buttons.length - 1];
  if (next) { event.preventDefault(); next.focus(); }
}

/** On a new turn of the person's, their cards or bids come into view (a phone's fold). */
function bringIntoView() {
  const target = $("bidding").hidden ? $("hand").querySelector("button.legal") : $("bidding");
  if (target) target.scrollIntoView({ block: "nearest" });
}

/** @param {Presentation} p */
function renderClaim(p) {
  const claim = p.claim;
  $("claim-box").hidden = !claim;
  if (!claim) return;
  $("claim-label").textContent = claim.text;
  const select = choice("claim-count");
  select.title = claim.prompt;
  const key = String(claim.left);
  if (select.dataset.key === key) return;
  select.dataset.key = key;
  const options = [el("option", { value: String(claim.left), text: "all (" + claim.left + ")" }), el("option", { value: "0", text: "none" })];
  for (let n = claim.left - 1; n >= 1; n--) options.push(el("option", { value: String(n), text: String(n) }));
  select.replaceChildren(...options);
}

/** @param {Presentation} p @param {PageExtra} page */
function renderSummary(p, page) {
  const box = $("summary");
  const number = p.summary_hand;
  const opening = box.hidden && number !== null;
  box.hidden = number === null;
  if (number === null) return;
  $("summary-lines").replaceChildren(...p.summary.map((line) => el("p", { text: line })));
  const analysis = S.analysisFor === number ? page.analysis : [];
  $("analysis-lines").replaceChildren(...analysis.map((line) => el("p", { text: line })));
  if (opening) $("summary-close").focus({ preventScroll: true });
}

/** @param {Presentation} p @param {PageExtra} page */
function renderResult(p, page) {
  const box = $("result");
  const opening = box.hidden && p.over && p.summary_hand === null;
  box.hidden = !p.over || p.summary_hand !== null;
  if (box.hidden) return;
  $("result-lines").replaceChildren(...p.result.map((line) => el("p", { text: line })));
  $("result-sheet").replaceChildren(...p.sheet.map((line) => el("li", { text: line })));
  $("again").hidden = Boolean(page.again);
  $("again-link").hidden = !page.again;
  if (page.again) link("again-link").href = againAddress(page.again);
  if (opening) $("again").focus({ preventScroll: true });
}

/** The new table's link, where the person sits with the same name. @param {string} code */
function againAddress(code) {
  const name = S.welcome ? S.welcome.name : "";
  return "/t/" + encodeURIComponent(code) + "?name=" + encodeURIComponent(name);
}

/** @param {string} code */
function goTo(code) {
  S.askedAgain = false;
  location.assign(againAddress(code));
}

/** The clocks, counting down from when the shown came: the status line's seconds and each seat's. */
function tick() {
  const p = S.shown;
  if (!p) return;
  const gone = (performance.now() - S.at) / 1000;
  const left = (/** @type {number} */ from) => Math.max(0, Math.ceil(from - gone));
  let status = p.status;
  if (p.clock) status = status.replace(p.clock.seconds + " s", left(p.clock.seconds) + " s");
  if ($("status").textContent !== status) $("status").textContent = status;
  for (const node of document.querySelectorAll("#table .clock[data-from]")) {
    const text = left(Number(/** @type {HTMLElement} */ (node).dataset.from)) + " s";
    if (node.textContent !== text) node.textContent = text;
  }
}

// --- panels: the sheet, the tricks, the log -------------------------------------------------------

/** @param {Presentation} p */
function renderPanels(p) {
  $("sheet-lines").replaceChildren(...p.sheet.map((line) => el("li", { text: line })));
  const tricks = p.trick ? [...p.tricks, p.trick] : p.tricks;
  $("tricks-list").replaceChildren(...tricks.map((t) => el("li", { value: String(t.number) },
    el("span", { class: "trick-cards" }, ...t.cards.map(([who, card, words]) => el("span", { class: "mini" + (who === t.winner ? " won" : "") },
      cardFace(card, "span", { class: "small-card", role: "img", "aria-label": words }), el("span", { class: "by", text: who })))),
    t.text ? el("p", { class: "why", text: t.text }) : null)));
  const numbers = [...S.log.keys()].sort((a, b) => a - b).slice(-200);
  $("log-list").replaceChildren(...numbers.map((n) => el("li", { value: String(n), text: S.log.get(n) })));
  if (S.openPanel === "log") $("panel-log").scrollTop = $("panel-log").scrollHeight;
}

/** @param {string} name */
function togglePanel(name) {
  S.openPanel = S.openPanel === name ? null : name;
  for (const button of document.querySelectorAll("[data-panel]")) {
    const panel = /** @type {HTMLElement} */ (button).dataset.panel || "";
    const on = panel === S.openPanel;
    button.setAttribute("aria-expanded", on ? "true" : "false");
    $("panel-" + panel).hidden = !on;
  }
  if (S.openPanel) $("panel-" + S.openPanel).scrollIntoView({ block: "nearest" });
}

// --- opening and joining tables -------------------------------------------------------------------

function setupFromForm() {
  const who = /** @type {HTMLInputElement} */ (document.querySelector('input[name="who"]:checked')).value;
  const level = choice("level").value;
  const seats = who === "solo" ? ["open", level, level] : who === "one" ? ["open", "open", level] : ["open", "open", "open"];
  return {
    rules: { contract_set: choice("set").value, short_game: input("short").checked, omit: null, redo_tokens: input("redo").checked },
    seats, level, names: [null, null, null], seed: null, listed: input("listed").checked,
  };
}

/** The club's logo chosen on the form, sent first (``POST /logos``): the setup with its name.
 * @param {Record<string, any>} setup */
function withLogo(setup) {
  const club = input("club").value.trim();
  if (club) setup.club = club;
  const file = input("logo").files;
  if (!file || !file.length) return Promise.resolve(setup);
  return fetch("/logos", { method: "POST", body: file[0] })
    .then((r) => r.json().then((json) => ({ ok: r.ok, json })))
    .then(({ ok, json }) => {
      if (!ok) throw new Error(json.message || "the server refused the logo");
      setup.logo = json.logo;
      return setup;
    });
}

/** @param {Record<string, any>} setup @param {string} name */
function openTable(setup, name) {
  $("new-error").textContent = "";
  save(NAME_KEY, name);
  return withLogo(setup)
    .then((full) => fetch("/tables", { method: "POST", body: JSON.stringify(full), headers: { "Content-Type": "application/json" } }))
    .then((r) => r.json().then((json) => ({ ok: r.ok, json })))
    .then(({ ok, json }) => {
      if (!ok) throw new Error(json.message || "the server refused the table");
      sitDown(json.code, name);
    })
    .catch((e) => { showScreen("home"); $("new-error").textContent = "The table could not be opened: " + e.message; });
}

function resetTable() {
  if (S.ws) { const ws = S.ws; S.ws = null; ws.close(); }
  clearTimeout(S.retryTimer);
  Object.assign(S, {
    welcome: null, table: "", shown: null, page: null, lostAt: null, retries: 0, told: -1, said: "", summaryTold: null,
    resultTold: false, messageTold: "", log: new Map(), sentAt: -1e9, fresh: true, askedAgain: false, analysisFor: null, turn: "",
  });
  $("live").replaceChildren();
}

/** @param {string} code @param {string} name */
function sitDown(code, name) {
  leaveLobby();
  resetTable();
  S.code = normalCode(code);
  connect({ type: "hello", version: VERSION, code: S.code, name, page: true, key: playerKey() });
}

/** @param {string} code @param {Kept} kept */
function resume(code, kept) {
  resetTable();
  S.code = code;
  if (location.pathname !== "/t/" + code) history.replaceState(null, "", "/t/" + code);
  banner("Taking your seat back at " + code + "…");
  S.table = kept.table || "";
  connect({ type: "hello", version: VERSION, secret: kept.secret, page: true });
}

/** @param {string} code @param {string} [note] */
function showJoin(code, note) {
  S.code = code;
  showScreen("join");
  $("join-code-shown").textContent = code;
  input("join-name").value = load(NAME_KEY) || "";
  $("join-error").textContent = note || "";
  input("join-name").focus();
}

function showHome() {
  showScreen("home");
  followLobby(sitFromLobby);
  input("name").value = load(NAME_KEY) || "";
  const live = Object.entries(keptSeats()).filter(([, kept]) => kept.live).sort((a, b) => b[1].at - a[1].at);
  $("back").hidden = !live.length;
  $("back-list").replaceChildren(...live.map(([code]) => el("li", {},
    el("a", { class: "button", href: "/t/" + code, text: "Back to table " + code }))));
}

/** Sit down at a listed table of the lobby, under the name typed on the home page. @param {string} code */
function sitFromLobby(code) {
  const name = input("name").value.trim();
  if (!name) { $("open-error").textContent = "Type your name (A new table, below) first."; input("name").focus(); return; }
  if (!mayLeaveFor(code)) return;
  history.pushState(null, "", "/t/" + code);
  sitDown(code, name);
}

/** Where the address points: a table (kept, or to join), a table to watch, or the home page. */
function route() {
  const watching = location.pathname.match(/^\/w\/([A-Za-z0-9-]{1,20})$/);
  if (watching) { leaveLobby(); watchTable(normalCode(watching[1])); return; }
  const match = location.pathname.match(/^\/t\/([A-Za-z0-9-]{1,20})$/);
  if (!match) { showHome(); return; }
  const code = normalCode(match[1]);
  const kept = keptSeats()[code];
  if (kept && kept.secret) { resume(code, kept); return; }
  if (!mayLeaveFor(code)) return;
  const name = (new URLSearchParams(location.search).get("name") || "").trim().slice(0, 40);
  if (name) sitDown(code, name); else showJoin(code);
}

function start() {
  $("new-table").addEventListener("submit", (event) => {
    event.preventDefault();
    const name = input("name").value.trim();
    if (name) openTable(setupFromForm(), name);
  });
  $("join-code").addEventListener("submit", (event) => {
    event.preventDefault();
    const code = normalCode(input("code").value);
    if (!code) return;
    history.pushState(null, "", "/t/" + code);
    route();
  });
  $("join-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const name = input("join-name").value.trim();
    if (name && S.code) sitDown(S.code, name);
  });
  $("start").addEventListener("click", () => act("start"));
  $("copy").addEventListener("click", () => {
    const address = link("invite").href;
    if (navigator.clipboard) navigator.clipboard.writeText(address).then(() => { $("copy").textContent = "Copied"; }, () => {});
  });
  for (const button of document.querySelectorAll("[data-panel]")) {
    button.addEventListener("click", () => togglePanel(/** @type {HTMLElement} */ (button).dataset.panel || ""));
  }
  $("take-back").addEventListener("click", () => act("back"));
  $("summary-close").addEventListener("click", () => {
    act("seen");
    const first = $("hand").querySelector("button.legal");
    if (first instanceof HTMLElement) first.focus({ preventScroll: true });
  });
  $("analysis").addEventListener("click", () => {
    const number = S.shown ? S.shown.summary_hand : null;
    if (number === null) return;
    S.analysisFor = number;
    $("analysis-lines").replaceChildren(el("p", { text: "Analysing the hand: it can take a few seconds." }));
    act("analysis", { count: number });
  });
  $("claim").addEventListener("click", () => act("claim", { count: Number(choice("claim-count").value) }));
  $("hint").addEventListener("click", () => act("hint"));
  $("undo").addEventListener("click", () => act("undo"));
  $("again").addEventListener("click", () => {
    if (S.page && S.page.again) { goTo(S.page.again); return; }
    S.askedAgain = true;
    act("again");
  });
  setupLife(send);
  window.addEventListener("popstate", () => { resetTable(); route(); });
  window.setInterval(tick, 250);
  if (window.matchMedia("(min-width: 1100px) and (min-height: 600px)").matches) togglePanel("tricks");
  route();
}

if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start); else start();
