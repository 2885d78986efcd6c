// Stepping Stones: what the page draws from plain values: the cards (a card is its rank, its
// suit's own mark in inline SVG and the record's suit letter), the bids, the scoresheet and the
// tricks.

export const SUITS = ["C", "K", "L", "B"];
export const SUIT_NAMES = { C: "Cherry Blossoms", K: "Koi", L: "Stone Lanterns", B: "Bridges" };

export function el(tag, props, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children) if (child !== null && child !== undefined) node.append(child);
  return node;
}

const SVG = "http://www.w3.org/2000/svg";
function svg(tag, attrs, ...children) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  for (const child of children) node.append(child);
  return node;
}

// Each suit has a mark of its own (blossom, koi, lantern, bridge), so colour is never the only cue.
export function suitMark(suit) {
  const parts = [];
  if (suit === "C") {
    for (let i = 0; i < 5; i++) {
      const a = (Math.PI * 2 * i) / 5 - Math.PI / 2;
      parts.push(svg("circle", { cx: (12 + 5.2 * Math.cos(a)).toFixed(2), cy: (12 + 5.2 * Math.sin(a)).toFixed(2), r: "4.3" }));
    }
    parts.push(svg("circle", { cx: "12", cy: "12", r: "2.2", class: "hole" }));
  } else if (suit === "K") {
    parts.push(svg("path", { d: "M2 12 C6 4.5 14 4.5 17.5 12 C14 19.5 6 19.5 2 12 Z M16.5 12 L23 6.5 L21.5 12 L23 17.5 Z" }));
    parts.push(svg("circle", { cx: "6.5", cy: "10.5", r: "1.4", class: "hole" }));
  } else if (suit === "L") {
    parts.push(svg("path", { d: "M12 1.5 L22 8 H2 Z M5.5 9 H18.5 V16 H5.5 Z M9 16 H15 V19.5 H9 Z M4.5 19.5 H19.5 V22.5 H4.5 Z" }));
    parts.push(svg("rect", { x: "9", y: "10.8", width: "6", height: "3.4", class: "hole" }));
  } else {
    parts.push(svg("path", { d: "M1 21 V13 C5 6.5 19 6.5 23 13 V21 H19 C18 15 6 15 5 21 Z M1 6.5 H23 V8.5 H1 Z" }));
  }
  return svg("svg", { viewBox: "0 0 24 24", class: "mark", "aria-hidden": "true", focusable: "false" }, ...parts);
}

export function cardWords(card) { return SUIT_NAMES[card[0]] + " " + card.slice(1); }

export function cardFace(card, tag, props) {
  const suit = card[0];
  const node = el(tag, { ...props, class: `card suit-${suit} ${props && props.class ? props.class : ""}`.trim(), "data-card": card },
    el("span", { class: "rank", "aria-hidden": "true", text: card.slice(1) }),
    suitMark(suit),
    el("span", { class: "letter", "aria-hidden": "true", text: suit }));
  return node;
}

// The scoresheet: a row per contract, a column per player (``order``: the person first), the
// tricks written and the points once scored, the totals and the firsts.
export function sheetParts(v, words, order, nameOf) {
  if (!v || !words) return [el("p", { text: "The sheet is on its way." })];
  const head = el("tr", {}, el("th", { scope: "col", text: "Contract" }), ...order.map((s) => el("th", { scope: "col", text: nameOf(s) })));
  const rows = words.contracts.map((c) => {
    const row = v.sheet[c.id];
    const pts = words.points[c.id];
    return el("tr", {}, el("th", { scope: "row", text: c.label }), ...order.map((s) => el("td", {
      text: row[s] === null ? "·" : String(row[s]) + (pts ? " (" + (pts[s] > 0 ? "+" : "") + pts[s] + ")" : ""),
    })));
  });
  const totals = el("tr", { class: "totals" }, el("th", { scope: "row", text: "Points" }), ...order.map((s) => el("td", { text: String(words.totals[s]) })));
  const firsts = el("tr", {}, el("th", { scope: "row", text: "Firsts" }), ...order.map((s) => el("td", { text: String(words.firsts[s]) })));
  return [el("h2", { text: "Scoresheet" }),
    el("div", { class: "scroll" }, el("table", { class: "sheet" }, el("caption", { class: "sr-only", text: "Tricks written for each contract, with points once scored" }),
      el("thead", {}, head), el("tbody", {}, ...rows, totals, firsts))),
    el("p", { class: "small", text: "Win contracts: more tricks is better; Lose contracts: fewer. Once all three have a result, they pay +3, +1 and −1." })];
}

// The tricks of the hand shown, each with its cards, its winner marked, and why it won.
export function tricksParts(words, nameOf) {
  if (!words || !words.tricks.length) return [el("h2", { text: "Tricks" }), el("p", { text: "No card has been played in this hand yet." })];
  return [el("h2", { text: "Tricks of hand " + words.shown }), el("ol", { class: "tricks" }, ...words.tricks.map((t) => el("li", {},
    el("span", { class: "trick-cards" }, ...t.cards.map(([seat, card]) => el("span", { class: "mini" + (t.finished && seat === t.winner ? " won" : "") },
      cardFace(card, "span", { class: "small-card", role: "img", "aria-label": cardWords(card) }), el("span", { text: nameOf(seat) })))),
    el("p", { class: "why", text: t.text || "In play." }))))];
}

// The legal bids as buttons: Pass, then each contract with a row per ranking (and redo), one
// button per trump suit or one for the ranking; ``bid(token)`` makes the bid.
export function bidParts(words, inPuddle, bid) {
  const groups = [];
  const pass = words.bids.find((b) => b.contract === null);
  const intro = el("div", { class: "bid-group" }, el("h3", { text: inPuddle ? "You are in the puddle: declare" : "Declare a contract, or pass" }));
  if (pass) intro.append(el("button", { type: "button", class: "bid pass", "data-bid": pass.bid, onclick: () => bid(pass.bid), text: "Pass" }));
  groups.push(intro);
  for (const contract of words.contracts) {
    const bids = words.bids.filter((b) => b.contract === contract.id);
    if (!bids.length) continue;
    const rows = new Map();
    for (const b of bids) {
      const parts = b.bid.split(" ");
      const redo = parts.includes("redo");
      const trump = parts.find((t) => SUITS.includes(t)) || null;
      const key = parts[1] + " high" + (redo ? ", spending your redo token" : "");
      if (!rows.has(key)) rows.set(key, []);
      rows.get(key).push(el("button", {
        type: "button", class: "bid" + (trump ? " trump suit-" + trump : ""), "data-bid": b.bid, "aria-label": b.text,
        onclick: () => bid(b.bid),
      }, trump ? suitMark(trump) : null, trump ? SUIT_NAMES[trump] : key));
    }
    const group = el("div", { class: "bid-group" }, el("h3", { text: contract.name + (/^(Win|Lose) /.test(contract.name) ? "" : " (a " + contract.goal + " contract)") }));
    for (const [key, buttons] of rows) {
      const trumps = buttons.some((button) => button.classList.contains("trump"));
      if (trumps) group.append(el("div", { class: "bid-row" }, el("span", { class: "bid-label", text: key + ":" }), ...buttons));
      else group.append(...buttons);
    }
    groups.push(group);
  }
  return groups;
}
