// Stepping Stones: the table server's own web page.  It speaks the table protocol (version 2,
// docs/protocol.md) over /ws as the terminal clients do, holds only what the server sends its
// seat, and asks POST /words for the sentences (plain mode's), the reasons and the summaries.
import { SUITS, bidParts, cardFace, cardWords, el, sheetParts, tricksParts } from "/web/cards.js";

(() => {
  const VERSION = 2;
  const SEAT_KEY = "stepping-stones.seat";
  const NAME_KEY = "stepping-stones.name";
  const SETUP_KEY = "stepping-stones.setup";
  const GONE_AFTER = 20000; // ms without the server before the page says it is gone
  const $ = (id) => document.getElementById(id);

  const S = {
    ws: null, welcome: null, state: null, n: 0, resyncAsked: false, hello: null, stopped: false,
    retries: 0, lostAt: null, retryTimer: null, sent: null, words: null, wordsSeq: -1,
    wordsBusy: false, wordsAgain: null, told: {}, toldReady: false, summarized: null, summaryShown: null,
    resultShown: false, hint: null, analysis: null, log: [], openPanel: null, focusCard: null, claimIn: null, claimHeld: false,
  };

  // --- storage: the seat's secret, per server (localStorage is per origin) ----------------------

  function load(key) {
    try { return JSON.parse(localStorage.getItem(key) || "null"); } catch (e) { return null; }
  }
  function save(key, value) {
    try {
      if (value === null) localStorage.removeItem(key); else localStorage.setItem(key, JSON.stringify(value));
    } catch (e) { /* private mode: the seat is kept for this page only */ }
  }
  function normalCode(text) {
    const letters = String(text || "").toUpperCase().replace(/[^A-Z0-9]/g, "");
    return letters.length === 10 ? letters.slice(0, 5) + "-" + letters.slice(5) : letters;
  }

  // --- the seat's view --------------------------------------------------------------------------

  const split = (text) => (text ? text.split(" ") : []);
  const view = () => (S.state ? S.state.view : null);
  const mySeat = () => (S.welcome ? S.welcome.seat : 0);
  const nameOf = (seat) => { const v = view(); return seat === mySeat() ? "You" : (v ? v.players[seat] : "?"); };
  // a finished hand's summary comes before the next turn, as in the terminal
  const summaryPending = () => Boolean(S.state && S.state.view && S.summarized !== null && S.state.view.history.length > S.summarized);
  const myTurn = () => Boolean(S.state && S.state.legal.length && S.sent === null && S.state.view && !summaryPending());

  function sortedHand(v) {
    const ranking = v.declaration ? Number(v.declaration.split(" ")[1]) : 9;
    return split(v.own_cards).sort((a, b) => {
      const sa = SUITS.indexOf(a[0]); const sb = SUITS.indexOf(b[0]);
      if (sa !== sb) return sa - sb;
      return ranking === 1 ? Number(a.slice(1)) - Number(b.slice(1)) : Number(b.slice(1)) - Number(a.slice(1));
    });
  }

  function seatWords(facts) {
    if (facts.kind === "open") return "open seat";
    if (facts.kind === "computer") return "computer";
    if (facts.stand_in) return "away, computer plays";
    return facts.connected ? "person" : "person, away";
  }

  // --- speaking ---------------------------------------------------------------------------------

  function announce(lines) {
    const live = $("live");
    for (const line of lines) {
      if (!line) continue;
      live.append(el("p", { text: line }));
      S.log.push(line);
    }
    while (live.childElementCount > 30) live.firstElementChild.remove();
    if (S.log.length > 400) S.log.splice(0, S.log.length - 400);
    if (S.openPanel === "log") renderLog();
  }

  function banner(text) {
    const node = $("banner");
    node.textContent = text || "";
    node.hidden = !text;
  }

  // --- the connection ---------------------------------------------------------------------------

  function socketUrl() {
    return (location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws";
  }

  function connect(hello) {
    S.hello = hello;
    S.stopped = false;
    clearTimeout(S.retryTimer);
    let ws;
    try { ws = new WebSocket(socketUrl()); } catch (e) { lost(); return; }
    S.ws = ws;
    ws.onopen = () => ws.send(JSON.stringify(S.hello));
    ws.onmessage = (event) => { if (S.ws === ws) receive(event.data); };
    ws.onclose = () => { if (S.ws === ws) { S.ws = null; lost(); } };
  }

  function send(message) {
    if (S.ws && S.ws.readyState === WebSocket.OPEN) S.ws.send(JSON.stringify(message));
  }

  function lost() {
    if (S.stopped) return;
    const kept = load(SEAT_KEY);
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
    S.retryTimer = setTimeout(() => connect({ type: "hello", version: VERSION, secret: kept.secret }), delay);
  }

  function receive(data) {
    let message;
    try { message = JSON.parse(data); } catch (e) { return; }
    switch (message.type) {
      case "welcome": return welcomed(message);
      case "state": S.state = message; S.n = message.n; S.resyncAsked = false; return changed();
      case "delta": return delta(message);
      case "error": return refused(message);
      case "version": S.stopped = true; return showError(message.message);
      default: return undefined;
    }
  }

  function delta(message) {
    if (!S.state || message.n !== S.n + 1) {
      if (!S.resyncAsked) { S.resyncAsked = true; send({ type: "resync" }); }
      return;
    }
    Object.assign(S.state, message.state);
    if (message.view && S.state.view) Object.assign(S.state.view, message.view);
    S.n = message.n;
    changed();
  }

  function welcomed(message) {
    const back = S.lostAt !== null;
    S.welcome = message;
    S.lostAt = null; S.goneSaid = false; S.retries = 0; S.sent = null;
    banner("");
    if (message.secret) {
      save(SEAT_KEY, { secret: message.secret, code: message.code, table: message.table, name: message.name });
    }
    save(NAME_KEY, message.name);
    const path = "/t/" + message.code;
    if (location.pathname !== path || location.search) history.replaceState(null, "", path);
    if (back) announce(["Back at the table."]);
  }

  const STOPPING = new Set(["unknown-code", "bad-secret", "table-full", "name-taken", "replaced", "expired", "bad-message"]);

  function refused(message) {
    if (["illegal", "stale", "not-your-turn", "claim-refused"].includes(message.code)) {
      S.sent = null;
      S.claimIn = null;
      $("refusal").textContent = message.message;
      render();
      return;
    }
    if (!STOPPING.has(message.code) || (message.code === "bad-message" && S.welcome)) {
      $("refusal").textContent = message.message;
      return;
    }
    S.stopped = true;
    if (message.code === "bad-secret" || message.code === "expired") save(SEAT_KEY, null);
    if (message.code === "replaced") {
      banner("This seat was taken back in another window or tab: play it there, or reload this page to take it here.");
      return;
    }
    if (message.code === "bad-secret" && S.joinCode) {
      S.welcome = null; S.state = null;
      showJoin(S.joinCode, "This browser's seat is no longer at that table. Sit down again with your name.");
      return;
    }
    showError(message.message);
  }

  function showError(text) {
    const onJoin = !$("join").hidden;
    if (onJoin) { $("join-error").textContent = text; return; }
    if (!$("home").hidden) { $("new-error").textContent = text; return; }
    banner(text);
  }

  // --- what changed -----------------------------------------------------------------------------

  function changed() {
    const st = S.state;
    if (S.sent !== null && S.sent !== st.seq) S.sent = null;
    if (S.claimIn !== null && st.view && st.view.history.some((h) => h.number === S.claimIn)) {
      S.claimIn = null; // the claimed hand was played out: the claim held, said after its cards
      S.claimHeld = true;
    }
    if (st.view && S.summarized === null) S.summarized = st.view.history.length; // a reload: no old summaries
    render();
    askWords({});
  }

  function askWords(extra) {
    const v = view();
    if (!v) return;
    if (S.wordsBusy) { S.wordsAgain = { ...(S.wordsAgain || {}), ...extra }; return; }
    S.wordsBusy = true;
    const seq = S.state.seq;
    const asked = Date.now();
    const since = Math.max(0, Math.min(v.history.length, S.summarized === null ? v.history.length : S.summarized + 1));
    const body = JSON.stringify({ view: v, since, ...extra });
    fetch("/words", { method: "POST", body, headers: { "Content-Type": "application/json" } })
      .then((r) => r.json().then((json) => ({ ok: r.ok, json })))
      .then(({ ok, json }) => { if (ok) heard(json, seq, extra); })
      .catch(() => {})
      .finally(() => setTimeout(() => { // at most ten a second: the server holds each address to a rate
        S.wordsBusy = false;
        const again = S.wordsAgain;
        S.wordsAgain = null;
        if (again !== null) askWords(again);
        else if (S.state && S.state.seq !== seq) askWords({});
      }, Math.max(0, 100 - (Date.now() - asked))));
  }

  function heard(words, seq, extra) {
    S.words = words;
    S.wordsSeq = seq;
    const fresh = [];
    const byHand = {};
    for (const event of words.events) (byHand[event.hand] = byHand[event.hand] || []).push(event.text);
    for (const [hand, texts] of Object.entries(byHand)) {
      const done = S.told[hand] || 0;
      if (!S.toldReady) { S.told[hand] = texts.length; S.log.push(...texts); continue; }
      if (texts.length > done) { fresh.push(...texts.slice(done)); S.told[hand] = texts.length; }
    }
    if (!S.toldReady) {
      S.toldReady = true;
      const last = words.events[words.events.length - 1];
      if (last) fresh.push(last.text);
    }
    if (S.claimHeld) {
      S.claimHeld = false;
      fresh.push("Claim accepted: the hand was played out along a perfect line; its summary says what each side took.");
    }
    if (extra.hint) {
      const hint = words.hint;
      S.hint = hint ? { ...hint, seq } : { text: words.heavy || "There is no hint for this position.", seq };
      fresh.push(S.hint.text);
    }
    if (extra.analysis) {
      S.analysis = { hand: extra.analysis, lines: words.analysis || [words.heavy || "No analysis."] };
      fresh.push(...S.analysis.lines);
    }
    const v = view();
    if (v && v.history.length > S.summarized && words.summaries[String(S.summarized + 1)] && S.summaryShown !== S.summarized + 1) {
      S.summaryShown = S.summarized + 1;
      fresh.push(...words.summaries[String(S.summaryShown)]);
    }
    if (words.result.length && !S.resultShown) { S.resultShown = true; fresh.push(...words.result); }
    if (myTurn() && seq === S.state.seq && S.turnSaid !== seq) { S.turnSaid = seq; fresh.push(turnLine()); }
    announce(fresh);
    render();
    document.body.dataset.heard = String(seq); // the words of the state numbered seq are drawn
  }

  function turnLine() {
    const v = view();
    if (!v) return "";
    if (v.phase === "bidding") return v.in_puddle ? "You are in the puddle and must declare one of your open contracts." : "You are to bid: declare a contract, or pass.";
    const trickCards = split(v.plays).length % 3;
    return trickCards ? "You are to play to trick " + (v.trick_winners.length + 1) + "."
      : "You are to lead trick " + (v.trick_winners.length + 1) + ".";
  }

  // --- acting -----------------------------------------------------------------------------------

  function act(move, isBid) {
    if (!myTurn()) return;
    S.sent = S.state.seq;
    S.hint = null;
    $("refusal").textContent = "";
    send({ type: "action", seq: S.state.seq, bid: isBid ? move : null, card: isBid ? null : move });
    render();
  }

  function cardPressed(card) {
    const reason = cardReason(card);
    if (reason) { $("refusal").textContent = reason; return; }
    S.focusCard = card;
    act(card, false);
  }

  function cardReason(card) {
    const v = view();
    const st = S.state;
    if (!v || v.phase === "over") return "The game is over.";
    if (summaryPending()) return "Hand " + (S.summarized + 1) + " is over: close its summary first.";
    if (v.phase !== "play") return "Cards are played once the bidding is over.";
    if (S.sent !== null) return "Your card is on its way to the server.";
    if (!st.legal.length) {
      const w = st.waiting;
      return w ? "It is not your turn: the table waits for " + w.name + "." : "It is not your turn.";
    }
    if (st.legal.includes(card)) return null;
    if (S.words && S.wordsSeq === st.seq && S.words.refusals[card]) return S.words.refusals[card];
    return "You may not play " + card + " now.";
  }

  // --- drawing ----------------------------------------------------------------------------------

  function showScreen(id) {
    for (const s of ["home", "join", "lobby", "table"]) $(s).hidden = s !== id;
  }

  function render() {
    const st = S.state;
    if (!st || !S.welcome) return;
    document.body.dataset.seq = String(st.seq); // the state drawn (with data-heard: its words drawn too)
    if (!st.started || !st.view) { renderLobby(); return; }
    showScreen("table");
    renderTable();
  }

  function renderLobby() {
    showScreen("lobby");
    const link = location.origin + "/t/" + S.welcome.code;
    $("invite").textContent = link;
    $("invite").href = link;
    $("invite-code").textContent = S.welcome.code;
    const list = $("lobby-seats");
    list.replaceChildren(...S.state.seats.map((facts, seat) => el("li", {
      text: "Seat " + (seat + 1) + ": " + (seat === mySeat() ? "you" : (facts.name || "open")) + " (" + seatWords(facts) + ")",
    })));
    const open = S.state.seats.filter((f) => f.kind === "open").length;
    $("lobby-start").hidden = !(S.welcome.opener && open > 0);
    $("lobby-note").textContent = open ? "The game starts when every seat is taken." : "Everyone is here: the game starts.";
  }

  function renderSeat(node, seat, v) {
    const facts = S.state.seats[seat];
    const played = v.phase === "play" ? v.play_seats.filter((s) => s === seat).length : 0;
    const left = v.phase === "play" || v.phase === "bidding" ? 12 - played : 0;
    const tricks = v.trick_winners.filter((s) => s === seat).length;
    const acting = v.to_act === seat && (v.phase === "play" || v.phase === "bidding");
    const tags = [];
    if (v.declarer === seat) tags.push("declarer");
    if (v.forehand === seat && v.phase !== "over") tags.push("forehand");
    node.className = "seat" + (seat === mySeat() ? " mine" : "") + (acting ? " acting" : "");
    node.replaceChildren(...[
      el("p", { class: "who" }, el("strong", { text: seat === mySeat() ? "You" : v.players[seat] }),
        el("span", { class: "kind", text: " " + (seat === mySeat() ? "" : seatWords(facts)) })),
      v.phase === "over" ? null : el("p", { class: "facts", text: (seat === mySeat() ? "" : left + " cards · ") + tricks + (tricks === 1 ? " trick" : " tricks") + (tags.length ? " · " + tags.join(", ") : "") }),
      acting ? el("p", { class: "turn", text: v.phase === "bidding" ? "to bid" : "to play" }) : null].filter(Boolean));
  }

  function renderTable() {
    const st = S.state;
    const v = st.view;
    const me = mySeat();
    const words = S.words;
    const total = v.rules && v.rules.short_game ? 9 : 12;
    $("hand-line").textContent = v.phase === "over" ? "The game is over" : "Hand " + v.hand_number + " of " + total + (v.rules.redo_tokens ? " (and redos)" : "");
    let contract = "";
    if (v.phase === "bidding") contract = v.in_puddle ? "The puddle: " + nameOf(v.bidder) + " must declare" : "Bidding";
    else if (v.declaration && words && words.declaration && words.shown === v.hand_number) contract = nameOf(v.declarer) + (v.declarer === me ? " declared " : " declared ") + words.declaration;
    else if (v.declaration) contract = nameOf(v.declarer) + " declared " + v.declaration;
    $("contract-line").textContent = contract;
    renderSeat($("seat-left"), (me + 1) % 3, v);
    renderSeat($("seat-right"), (me + 2) % 3, v);
    renderSeat($("seat-me"), me, v);
    renderTrick(v);
    renderStatus(st, v);
    renderBidding(st, v);
    renderHand(st, v);
    renderSummary(v);
    const hintButton = $("hint");
    hintButton.hidden = !st.help || v.phase === "over";
    const notes = words ? words.notes : null;
    $("help-hints").textContent = st.help ? "Hints: the Hint button asks the expert for your turn (worked out from what you see)." : (notes ? notes.hints_off : "");
    $("help-undo").textContent = notes ? notes.undo_off : "";
    $("hint-text").textContent = S.hint && S.hint.seq === st.seq ? S.hint.text : "";
    renderClaim(st, v);
    if (S.openPanel) renderPanel(S.openPanel);
  }

  function renderClaim(st, v) {
    // A claim of the rest, on the seat's turn to play: the words say how many tricks are left.
    const box = $("claim-box");
    const words = S.words && S.wordsSeq === st.seq ? S.words : null;
    const claim = words && v.phase === "play" && myTurn() ? words.claim : null;
    box.hidden = !claim;
    if (!claim) return;
    $("claim-label").textContent = claim.text;
    const select = $("claim-count");
    const key = st.seq + ":" + claim.left;
    if (select.dataset.key === key) return;
    select.dataset.key = key;
    const options = [el("option", { value: String(claim.left), text: "all (" + claim.left + ")" }),
      el("option", { value: "0", text: "none" })];
    for (let n = claim.left - 1; n >= 1; n--) options.push(el("option", { value: String(n), text: String(n) }));
    select.replaceChildren(...options);
    select.title = claim.prompt;
  }

  function claimPressed() {
    if (!myTurn() || !S.words || !S.words.claim) return;
    S.sent = S.state.seq;
    S.claimIn = S.state.view.hand_number;
    S.hint = null;
    $("refusal").textContent = "";
    send({ type: "claim", seq: S.state.seq, tricks: Number($("claim-count").value) });
    announce(["Claim sent: the server checks it with all the cards in view."]);
    render();
  }

  function slotOf(seat) {
    const me = mySeat();
    return seat === me ? "bottom" : seat === (me + 1) % 3 ? "left" : "right";
  }

  function renderTrick(v) {
    // the cards of the trick in play; between tricks, the trick just won, with why it won
    const plays = split(v.plays);
    const n = plays.length % 3;
    const words = S.words;
    const current = words && words.shown === v.hand_number && v.phase === "play";
    const done = words ? words.tricks.filter((t) => t.finished) : [];
    const fresh = words && (current ? done.length === v.trick_winners.length : words.shown === v.history.length);
    let cards = [];
    let last = null;
    if (n) cards = plays.slice(-n).map((c, i) => [v.play_seats[plays.length - n + i], c]);
    else if (fresh && done.length) { last = done[done.length - 1]; cards = last.cards; }
    const trick = $("trick");
    trick.classList.toggle("done", Boolean(last));
    trick.replaceChildren(...cards.map(([seat, card]) => el("div", { class: "played slot-" + slotOf(seat) + (last && seat === last.winner ? " won" : "") },
      cardFace(card, "div", { role: "img", "aria-label": nameOf(seat) + ": " + cardWords(card) }),
      el("span", { class: "by", text: nameOf(seat) }))));
    const shownDone = fresh && done.length ? done[done.length - 1] : null;
    $("last-trick").textContent = shownDone ? shownDone.text : "";
  }

  function renderStatus(st, v) {
    let text = "";
    if (v.phase === "over") text = "The game is over.";
    else if (summaryPending()) text = "Hand " + (S.summarized + 1) + " is over.";
    else if (myTurn()) text = turnLine();
    else if (S.sent !== null) text = "Sent; waiting for the server.";
    else if (st.waiting) {
      const w = st.waiting;
      text = "Waiting for " + w.name + (w.computer ? " (a computer)" : !w.connected ? " (not connected: the table waits for them to come back)" : "") + ".";
    }
    $("status").textContent = text;
    $("status").classList.toggle("yours", myTurn());
  }

  function renderBidding(st, v) {
    const box = $("bidding");
    const show = v.phase === "bidding" && myTurn();
    box.hidden = !show;
    if (!show) { box.replaceChildren(); return; }
    const words = S.words && S.wordsSeq === st.seq ? S.words : null;
    if (!words) { box.replaceChildren(el("p", { text: "Your bids are coming…" })); return; }
    const key = st.seq + ":" + words.bids.length;
    if (box.dataset.key === key) return;
    box.dataset.key = key;
    const groups = bidParts(words, v.in_puddle, (bid) => act(bid, true));
    box.replaceChildren(...groups);
  }

  function renderHand(st, v) {
    const hand = $("hand");
    const cards = sortedHand(v);
    const focused = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.card : null;
    const hinted = S.hint && S.hint.seq === st.seq ? S.hint.action : null;
    const buttons = cards.map((card, i) => {
      const reason = cardReason(card);
      const id = "why-" + card;
      const button = cardFace(card, "button", {
        type: "button", "aria-label": cardWords(card), "aria-disabled": reason ? "true" : null,
        "aria-describedby": reason ? id : null, class: (reason ? "off" : "legal") + (hinted === card ? " hinted" : ""),
        onclick: () => cardPressed(card), onkeydown: (event) => handKey(event, i),
      });
      if (reason) button.append(el("span", { id, class: "sr-only", text: reason }));
      return button;
    });
    hand.replaceChildren(...buttons);
    hand.classList.toggle("bidding-now", v.phase === "bidding");
    const again = focused || S.focusCard;
    if (again) {
      const target = hand.querySelector(`[data-card="${again}"]`) || hand.querySelector("button.legal") || hand.querySelector("button");
      if (target && (focused || document.activeElement === document.body)) target.focus({ preventScroll: true });
    }
  }

  function handKey(event, index) {
    const buttons = [...$("hand").querySelectorAll("button.card")];
    let next = null;
    if (event.key === "ArrowRight" || event.key === "ArrowDown") next = buttons[Math.min(buttons.length - 1, index + 1)];
    else if (event.key === "ArrowLeft" || event.key === "ArrowUp") next = buttons[Math.max(0, index - 1)];
    else if (event.key === "Home") next = buttons[0];
    else if (event.key === "End") next = buttons[buttons.length - 1];
    if (next) { event.preventDefault(); next.focus(); }
  }

  function renderSummary(v) {
    const words = S.words;
    const box = $("summary");
    const number = S.summarized + 1;
    const lines = words && v.history.length >= number ? words.summaries[String(number)] : null;
    if (!lines) { box.hidden = true; }
    else {
      if (box.hidden) setTimeout(() => $("summary-close").focus({ preventScroll: true }), 0);
      box.hidden = false;
      $("summary-title").textContent = "The summary of hand " + number;
      $("summary-lines").replaceChildren(...lines.map((line) => el("p", { text: line })));
      const analysis = S.analysis && S.analysis.hand === number ? S.analysis.lines : [];
      $("analysis-lines").replaceChildren(...analysis.map((line) => el("p", { text: line })));
      $("summary-close").textContent = v.phase === "over" && number === v.history.length ? "To the result" : "Next hand";
    }
    const result = $("result");
    const over = v.phase === "over" && words && words.result.length;
    result.hidden = !over || !box.hidden;
    if (over) $("result-lines").replaceChildren(...words.result.map((line) => el("p", { text: line })));
  }

  // --- panels: the sheet, the tricks, the log ------------------------------------------------------

  function renderPanel(name) {
    if (name === "sheet") renderSheet();
    else if (name === "tricks") renderTricks();
    else if (name === "log") renderLog();
  }

  function renderSheet() {
    const me = mySeat();
    $("panel-sheet").replaceChildren(...sheetParts(view(), S.words, [me, (me + 1) % 3, (me + 2) % 3], nameOf));
  }

  function renderTricks() {
    $("panel-tricks").replaceChildren(...tricksParts(S.words, nameOf));
  }

  function renderLog() {
    const box = $("panel-log");
    box.replaceChildren(el("h2", { text: "What happened" }), el("ol", {}, ...S.log.slice(-150).map((line) => el("li", { text: line }))));
    box.scrollTop = box.scrollHeight;
  }

  function togglePanel(name) {
    S.openPanel = S.openPanel === name ? null : name;
    for (const button of document.querySelectorAll("[data-panel]")) {
      const on = button.dataset.panel === S.openPanel;
      button.setAttribute("aria-expanded", on ? "true" : "false");
      $("panel-" + button.dataset.panel).hidden = !on;
    }
    if (S.openPanel) { renderPanel(S.openPanel); $("panel-" + S.openPanel).scrollIntoView({ block: "nearest" }); }
  }

  // --- opening and joining tables --------------------------------------------------------------------

  function setupFromForm() {
    const who = document.querySelector('input[name="who"]:checked').value;
    const level = $("level").value;
    const seats = who === "solo" ? ["open", level, level] : who === "one" ? ["open", "open", level] : ["open", "open", "open"];
    return {
      rules: { contract_set: $("set").value, short_game: $("short").checked, omit: null, redo_tokens: $("redo").checked },
      seats, level, names: [null, null, null], seed: null,
    };
  }

  function openTable(setup, name) {
    $("new-error").textContent = "";
    save(SETUP_KEY, setup);
    save(NAME_KEY, name);
    return fetch("/tables", { method: "POST", body: JSON.stringify(setup), headers: { "Content-Type": "application/json" } })
      .then((r) => r.json().then((json) => ({ ok: r.ok, json })))
      .then(({ ok, json }) => {
        if (!ok) throw new Error(json.message || "the server refused the table");
        sitDown(json.code, name);
      })
      .catch((e) => { showScreen("home"); $("new-error").textContent = "The table could not be opened: " + e.message; });
  }

  function resetTable() {
    if (S.ws) { const ws = S.ws; S.ws = null; ws.close(); }
    Object.assign(S, {
      welcome: null, state: null, n: 0, sent: null, words: null, wordsSeq: -1, told: {}, toldReady: false,
      summarized: null, summaryShown: null, resultShown: false, hint: null, analysis: null, log: [], lostAt: null, retries: 0, claimIn: null, claimHeld: false,
    });
    $("live").replaceChildren();
  }

  function sitDown(code, name) {
    resetTable();
    S.joinCode = normalCode(code);
    connect({ type: "hello", version: VERSION, code: S.joinCode, name });
  }

  function showJoin(code, note) {
    showScreen("join");
    $("join-title").textContent = "Join the table " + code;
    $("join-name").value = load(NAME_KEY) || "";
    $("join-error").textContent = note || "";
    $("join-name").focus();
  }

  function showHome() {
    showScreen("home");
    $("name").value = load(NAME_KEY) || "";
    const kept = load(SEAT_KEY);
    $("back").hidden = !kept;
    if (kept) $("back-button").textContent = "Back to your table " + kept.code;
  }

  function resume(kept) {
    resetTable();
    banner("Taking your seat back at " + kept.code + "…");
    S.joinCode = kept.code;
    S.welcome = null;
    connect({ type: "hello", version: VERSION, secret: kept.secret });
  }

  function start() {
    $("new-table").addEventListener("submit", (event) => {
      event.preventDefault();
      const name = $("name").value.trim();
      if (!name) return;
      openTable(setupFromForm(), name);
    });
    $("join-code").addEventListener("submit", (event) => {
      event.preventDefault();
      const code = normalCode($("code").value);
      history.pushState(null, "", "/t/" + code);
      showJoin(code);
    });
    $("join-form").addEventListener("submit", (event) => {
      event.preventDefault();
      const name = $("join-name").value.trim();
      if (name) sitDown(S.joinCode, name);
    });
    $("back-button").addEventListener("click", () => { const kept = load(SEAT_KEY); if (kept) resume(kept); });
    $("start").addEventListener("click", () => send({ type: "start" }));
    $("copy").addEventListener("click", () => {
      const link = $("invite").href;
      if (navigator.clipboard) navigator.clipboard.writeText(link).then(() => { $("copy").textContent = "Copied"; }, () => {});
    });
    for (const button of document.querySelectorAll("[data-panel]")) button.addEventListener("click", () => togglePanel(button.dataset.panel));
    $("summary-close").addEventListener("click", () => {
      S.summarized += 1;
      S.analysis = null;
      render();
      askWords({});
      const first = $("hand").querySelector("button.legal") || $("status");
      if (first && first.focus) first.focus({ preventScroll: true });
    });
    $("analysis").addEventListener("click", () => { announce(["Analysing the hand: it can take a few seconds."]); askWords({ analysis: S.summarized + 1 }); });
    $("claim").addEventListener("click", claimPressed);
    $("hint").addEventListener("click", () => {
      if (!myTurn()) { const notes = S.words && S.words.notes; $("hint-text").textContent = notes ? notes.hint_out_of_turn : ""; return; }
      $("hint-text").textContent = "Hint: thinking it over...";
      askWords({ hint: true });
    });
    $("again").addEventListener("click", () => {
      const setup = load(SETUP_KEY);
      const name = (S.welcome && S.welcome.name) || load(NAME_KEY);
      save(SEAT_KEY, null);
      if (setup && name) openTable(setup, name); else { resetTable(); history.pushState(null, "", "/"); showHome(); }
    });

    if (window.matchMedia("(min-width: 1100px) and (min-height: 600px)").matches) togglePanel("tricks");
    const match = location.pathname.match(/^\/t\/([A-Za-z0-9-]{1,20})$/);
    const kept = load(SEAT_KEY);
    if (match) {
      const code = normalCode(match[1]);
      S.joinCode = code;
      const name = new URLSearchParams(location.search).get("name");
      if (kept && normalCode(kept.code) === code) resume(kept);
      else if (name && name.trim()) sitDown(code, name.trim().slice(0, 24));
      else showJoin(code);
    } else {
      showHome();
    }
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start); else start();
})();
