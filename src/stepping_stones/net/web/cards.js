// Stepping Stones: how the page draws a card: its rank, its suit's own mark in inline SVG and the
// record's suit letter (colour is never the only cue); a card's back; and the page's elements.
// @ts-check

/**
 * An element with its attributes (``text``: its text; ``class``; ``on...``: a listener) and
 * children.
 * @param {string} tag
 * @param {Record<string, any> | null} [props]
 * @param {...(Node | string | null | undefined)} children
 * @returns {HTMLElement}
 */
export function el(tag, props, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children) if (child !== null && child !== undefined) node.append(child);
  return node;
}

const SVG = "http://www.w3.org/2000/svg";

/**
 * @param {string} tag
 * @param {Record<string, string>} attrs
 * @param {...Element} children
 * @returns {SVGElement}
 */
function svg(tag, attrs, ...children) {
  const node = /** @type {SVGElement} */ (document.createElementNS(SVG, tag));
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  for (const child of children) node.append(child);
  return node;
}

/**
 * Each suit's mark (blossom, koi, lantern, bridge), by the record's suit letter.
 * @param {string} suit
 * @returns {SVGElement}
 */
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

/**
 * A card's face, from its record spelling (``K4``): the rank, the suit's mark and letter.
 * @param {string} card
 * @param {string} tag
 * @param {Record<string, any>} [props]
 * @returns {HTMLElement}
 */
export function cardFace(card, tag, props) {
  const suit = card[0];
  return el(tag, { ...props, class: `card suit-${suit} ${props && props.class ? props.class : ""}`.trim(), "data-card": card },
    el("span", { class: "rank", "aria-hidden": "true", text: card.slice(1) }),
    suitMark(suit),
    el("span", { class: "letter", "aria-hidden": "true", text: suit }));
}

/**
 * ``count`` card backs, fanned: another player's hand.
 * @param {number} count
 * @returns {HTMLElement}
 */
export function cardBacks(count) {
  const backs = [];
  for (let i = 0; i < count; i++) backs.push(el("span", { class: "back" }));
  return el("span", { class: "backs", "data-count": String(count), "aria-hidden": "true" }, ...backs);
}
