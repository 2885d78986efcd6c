// Stepping Stones: the table server's ratings page (/ratings): the ratings, the games this
// browser's player key finished here (each reviewed hand by hand and trick by trick, with the hand
// analysis, in the words the server sends, and downloaded as a game record), and the key carried to
// another device.  It words nothing of the game itself: the review's lines are the presenter's
// (docs/protocol.md, "Players and ratings").
// @ts-check
import { el } from "./cards.js";
import { keepKey, keptKey, playerKey } from "./player.js";

/**
 * @typedef {{name: string, rating: number, rated: number, apart: number, computer: boolean}} Rated
 * @typedef {{table: string, when: number, seat: number, place: number, rated: boolean, rating: number | null, names: string[]}} Game
 * @typedef {{name: string | null, rating: number | null, games: Game[]}} Me
 * @typedef {{number: number, cards: [string, string, string][], winner: string | null, text: string | null}} TrickLine
 * @typedef {{number: number, deal: string[], tricks: TrickLine[], summary: string[], analysis: string[], positions: string[][]}} HandReview
 * @typedef {{names: string[], seat: number, hands: HandReview[], result: string[], sheet: string[]}} Review
 */

/** @param {string} id @returns {HTMLElement} */
function $(id) {
  const node = document.getElementById(id);
  if (!node) throw new Error("no #" + id);
  return node;
}

/** A request of the server; its JSON answer, or an Error with the server's one line.
 * @param {string} path @param {object} [body] @returns {Promise<any>} */
async function ask(path, body) {
  const response = await fetch(path, body === undefined ? {} : {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
  });
  const text = await response.text();
  /** @type {any} */ let data = null;
  try { data = JSON.parse(text); } catch (e) { data = null; }
  if (!response.ok) throw new Error(data && data.message ? data.message : "The server answered " + response.status + ".");
  return data;
}

/** @param {unknown} error */
function say(error) {
  $("ratings-error").textContent = error instanceof Error ? error.message : String(error);
}

const PLACES = ["", "first", "second", "third"];

/** @type {{review: Review | null, hand: number, trick: number}} */
const R = { review: null, hand: 0, trick: 0 };

async function showRatings() {
  /** @type {{players: Rated[]}} */
  const ratings = await ask("/players/ratings");
  $("ratings-rows").replaceChildren(...ratings.players.map((p, i) => el("tr", {},
    el("td", { class: "number", text: String(i + 1) }),
    el("td", { text: p.name }),
    el("td", { class: "number", text: String(p.rating) }),
    el("td", { class: "number", text: String(p.rated) }),
    el("td", { class: "number", text: String(p.apart) }))));
  if (!ratings.players.length) $("ratings-rows").replaceChildren(el("tr", {}, el("td", { colspan: "5", text: "Nobody is rated here yet." })));
}

async function showMe() {
  const key = keptKey();
  if (!key) {
    $("you-line").textContent = "This browser has not played at this server yet: your games will be listed here.";
    return;
  }
  /** @type {Me} */
  const me = await ask("/players/me", { key });
  if (me.name === null) {
    $("you-line").textContent = "You have not finished a game at this server yet: your games will be listed here.";
    $("games").replaceChildren();
    return;
  }
  $("you-line").textContent = me.name + (me.rating !== null ? ", rated " + me.rating : ", not rated yet") +
    ": " + me.games.length + (me.games.length === 1 ? " game" : " games") + " finished here.";
  $("games").replaceChildren(...me.games.map((game) => el("li", {},
    el("span", { class: "what", text: new Date(game.when * 1000).toLocaleString() + ": " + game.names.join(", ") +
      " — you placed " + PLACES[game.place] + (game.rated ? (game.rating !== null ? " (rated " + game.rating + ")" : "") : " (counted apart, not rated)") }),
    el("button", { type: "button", onclick: (/** @type {Event} */ event) => busy(event, review(key, game.table)) }, "Review"),
    el("button", { type: "button", onclick: () => download(key, game.table).catch(say) }, "Download"))));
}

/** The button of ``event`` waits, busy, until ``work`` is done: a game's first review waits for its
 * hand analysis, worked out by the server (seconds).
 * @param {Event} event @param {Promise<void>} work */
function busy(event, work) {
  const button = /** @type {HTMLButtonElement} */ (event.currentTarget);
  button.disabled = true;
  button.setAttribute("aria-busy", "true");
  work.catch(say).finally(() => { button.disabled = false; button.removeAttribute("aria-busy"); });
}

/** @param {string} key @param {string} table */
async function download(key, table) {
  const response = await fetch("/players/record", {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ key, table }),
  });
  if (!response.ok) throw new Error("The record could not be had (" + response.status + ").");
  const blob = await response.blob();
  const link = el("a", { href: URL.createObjectURL(blob), download: "stepping-stones-" + table + ".json" });
  document.body.append(link);
  link.click();
  link.remove();
}

/** @param {string} key @param {string} table */
async function review(key, table) {
  R.review = await ask("/players/review", { key, table });
  R.hand = 0;
  R.trick = 0;
  $("review").hidden = false;
  drawReview();
  $("review-heading").scrollIntoView();
}

/** @param {HTMLElement} node @param {string[]} lines */
function lines(node, lines) {
  node.replaceChildren(...lines.map((line) => el("li", { text: line })));
}

function drawReview() {
  const r = R.review;
  if (!r || !r.hands.length) return;
  const hand = r.hands[R.hand];
  $("review-names").textContent = r.names.join(", ");
  $("hand-shown").textContent = "Hand " + hand.number + " of " + r.hands.length;
  lines($("review-deal"), hand.deal);
  const trick = hand.tricks[R.trick];
  $("trick-shown").textContent = trick ? "Trick " + trick.number + " of " + hand.tricks.length : "No tricks";
  lines($("review-trick"), trick ? [...trick.cards.map(([who, card]) => who + ": " + card), ...(trick.text ? [trick.text] : [])] : []);
  lines($("review-position"), hand.positions[R.trick] || []);
  lines($("review-summary"), hand.summary);
  lines($("review-analysis"), hand.analysis);
  lines($("review-result"), r.result);
  lines($("review-sheet"), r.sheet);
  /** @type {HTMLButtonElement} */ ($("hand-back")).disabled = R.hand === 0;
  /** @type {HTMLButtonElement} */ ($("hand-next")).disabled = R.hand === r.hands.length - 1;
  /** @type {HTMLButtonElement} */ ($("trick-back")).disabled = R.trick === 0;
  /** @type {HTMLButtonElement} */ ($("trick-next")).disabled = R.trick >= hand.tricks.length - 1;
}

/** @param {number} hands @param {number} tricks */
function step(hands, tricks) {
  const r = R.review;
  if (!r) return;
  if (hands) {
    R.hand = Math.max(0, Math.min(r.hands.length - 1, R.hand + hands));
    R.trick = 0;
  } else {
    R.trick = Math.max(0, Math.min(r.hands[R.hand].tricks.length - 1, R.trick + tricks));
  }
  drawReview();
}

$("hand-back").addEventListener("click", () => step(-1, 0));
$("hand-next").addEventListener("click", () => step(1, 0));
$("trick-back").addEventListener("click", () => step(0, -1));
$("trick-next").addEventListener("click", () => step(0, 1));
$("review-close").addEventListener("click", () => { $("review").hidden = true; R.review = null; });

$("export").addEventListener("click", () => {
  ask("/players/export", { key: playerKey() }).then((/** @type {{code: string, seconds: number}} */ code) => {
    $("export-code").textContent = code.code;
    $("export-code").setAttribute("aria-label", "Your code: " + code.code.split("").join(" ") + ". It works once, for " + Math.round(code.seconds / 60) + " minutes.");
  }).catch(say);
});

$("import").addEventListener("submit", (event) => {
  event.preventDefault();
  const code = /** @type {HTMLInputElement} */ ($("import-code")).value;
  ask("/players/import", { code }).then((/** @type {{key: string}} */ got) => {
    keepKey(got.key);
    $("import-note").textContent = "This browser now plays as the player of that code.";
    return showMe();
  }).catch(say);
});

showRatings().catch(say);
showMe().catch(say);
