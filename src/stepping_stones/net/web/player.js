// Stepping Stones: this browser's player key for this server (docs/online.md, "Players, and
// ratings"), shared by the table's page (app.js) and the ratings page (ratings.js).
// @ts-check

const PLAYER_KEY = "stepping-stones.player"; // {key}: localStorage is per origin, so one key a server
const OLD_KEYS = "stepping-stones.player-before"; // the keys an import replaced, newest last (at most 5)
const KEY_FORM = /^[A-Za-z0-9_-]{43}$/;

/** The kept key, or null. @returns {string | null} */
export function keptKey() {
  try {
    const kept = JSON.parse(localStorage.getItem(PLAYER_KEY) || "null");
    return kept && typeof kept.key === "string" && KEY_FORM.test(kept.key) ? kept.key : null;
  } catch (e) { return null; }
}

/** Keep ``key`` as this browser's key; the one it replaces is kept aside. @param {string} key */
export function keepKey(key) {
  if (!KEY_FORM.test(key)) return;
  try {
    const before = keptKey();
    if (before && before !== key) {
      const old = JSON.parse(localStorage.getItem(OLD_KEYS) || "[]");
      const list = Array.isArray(old) ? old.filter((k) => typeof k === "string") : [];
      localStorage.setItem(OLD_KEYS, JSON.stringify([...list, before].slice(-5)));
    }
    localStorage.setItem(PLAYER_KEY, JSON.stringify({ key }));
  } catch (e) { /* private mode: the key lasts as long as the page */ }
}

/** This browser's player key, made on first use: 256 bits from the browser's generator in URL-safe
 * base64 (43 characters), as the terminal clients make theirs.  The server keeps only its digest.
 * @returns {string} */
export function playerKey() {
  const kept = keptKey();
  if (kept) return kept;
  const bytes = new Uint8Array(32);
  crypto.getRandomValues(bytes);
  const key = btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  keepKey(key);
  return key;
}
