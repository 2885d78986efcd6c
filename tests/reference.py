"""A second, deliberately naive implementation of the rules, for differential tests.

Written straight from docs/rules.md (the rules as this program plays them), with
strings and lists and no shared code with the engine (it imports nothing from
stepping_stones), so that a mistake
in the fast engine is unlikely to be repeated here.  It replays a record's
JSON data and returns the replay facts, or (hand, action) of the first
illegal action.
"""

from __future__ import annotations

SETS = {
    "standard": ["win-no-trump", "win-pick-trump", "lose-no-trump", "lose-pick-trump"],
    "advanced": ["win-pick-trump", "win-last-6", "may-trump", "must-beat"],
}
CUT = {"standard": "win-no-trump", "advanced": "win-pick-trump"}
WIN = {"win-no-trump", "win-pick-trump", "win-last-6", "may-trump"}
PICKS = {"win-pick-trump", "lose-pick-trump", "may-trump"}


class Illegal(Exception):
    def __init__(self, hand, action):
        super().__init__(f"hand {hand}, {action}")
        self.where = (hand, action)


def power(card, ranking):
    r = int(card[1:])
    return r if ranking == 9 else 10 - r


def legal_cards(hand, trick, contract, ranking, trump):
    if not trick:
        return list(hand)
    led = trick[0][0]
    same = [c for c in hand if c[0] == led]
    if not same:
        return list(hand)
    if contract == "may-trump":
        if led != trump:
            return same + [c for c in hand if c[0] == trump]
        return same
    if contract == "must-beat":
        best = max(power(c, ranking) for c in trick if c[0] == led)
        higher = [c for c in same if power(c, ranking) > best]
        return higher or same
    return same


def trick_winner(cards, ranking, trump):
    trumps = [i for i, c in enumerate(cards) if trump is not None and c[0] == trump]
    pool = trumps or [i for i, c in enumerate(cards) if c[0] == cards[0][0]]
    return max(pool, key=lambda i: power(cards[i], ranking))


def places(values, win):
    pts = [3, 1, -1]
    out = []
    for v in values:
        better = sum(1 for w in values if (w > v if win else w < v))
        same = sum(1 for w in values if w == v)
        out.append(sum(pts[better : better + same]) // same)
    return out


def replay(data):
    rules = data["rules"]
    contracts = list(SETS[rules["contract_set"]])
    if rules["short_game"]:
        contracts.remove(rules["omit"] or CUT[rules["contract_set"]])
    tokens = rules["redo_tokens"]
    sheet = {c: [None, None, None] for c in contracts}
    token_left = [tokens] * 3
    forehand = data["first_forehand"]
    out_hands = []

    def open_for(p):
        return [c for c in contracts if sheet[c][p] is None]

    def finished():
        return all(None not in row for row in sheet.values())

    for hn, hand in enumerate(data["hands"], 1):
        if finished():
            raise Illegal(hn, "bid 1")
        holding = [h.split() for h in hand["deal"]]
        order = [forehand, (forehand + 1) % 3, (forehand + 2) % 3]
        declared = None
        puddle = False
        passes = 0
        for bn, text in enumerate(hand["bids"], 1):
            where = (hn, f"bid {bn}")
            if declared is not None:
                raise Illegal(*where)
            if passes < 3:
                p = order[passes]
                in_puddle = False
            else:
                cands = [q for q in order if open_for(q)]
                p = cands[0]
                in_puddle = True
            can_redo = tokens and token_left[p] and any(sheet[c][p] is not None for c in contracts)
            if text == "pass":
                if in_puddle:
                    raise Illegal(*where)
                passes += 1
                continue
            if not open_for(p) and not can_redo:
                raise Illegal(*where)
            parts = text.split(" ")
            cid, rk = parts[0], parts[1] if len(parts) > 1 else None
            rest = parts[2:]
            redo = bool(rest) and rest[-1] == "redo"
            if redo:
                rest = rest[:-1]
            if cid not in contracts or rk not in ("9", "1"):
                raise Illegal(*where)
            if cid in PICKS:
                if len(rest) != 1 or rest[0] not in ("C", "K", "L", "B"):
                    raise Illegal(*where)
                trump = rest[0]
            else:
                if rest:
                    raise Illegal(*where)
                trump = None
            if redo:
                if in_puddle or not can_redo or sheet[cid][p] is None:
                    raise Illegal(*where)
                token_left[p] = False
            elif sheet[cid][p] is not None:
                raise Illegal(*where)
            declared = (p, cid, int(rk), trump, redo)
            puddle = in_puddle
        cards = hand["play"].split()
        if declared is None:
            if cards:
                raise Illegal(hn, "play 1")
            if hn != len(data["hands"]):
                raise Illegal(hn + 1, "bid 1")
            break
        p, cid, rk, trump, redo = declared
        leader = p
        winners = []
        trick = []
        seats = []
        for cn, c in enumerate(cards, 1):
            if len(winners) == 12:
                raise Illegal(hn, f"play {cn}")
            seat = (leader + len(trick)) % 3
            if c not in holding[seat] or c not in legal_cards(holding[seat], trick, cid, rk, trump):
                raise Illegal(hn, f"play {cn}")
            holding[seat].remove(c)
            trick.append(c)
            seats.append(seat)
            if len(trick) == 3:
                leader = seats[trick_winner(trick, rk, trump)]
                winners.append(leader)
                trick, seats = [], []
        count = None
        if len(winners) == 12:
            counted = winners[6:] if cid == "win-last-6" else winners
            count = sum(1 for w in counted if w == p)
            old = sheet[cid][p]
            if old is None or (count > old if cid in WIN else count < old):
                sheet[cid][p] = count
        out_hands.append(
            {
                "declarer": p,
                "contract": cid,
                "ranking": rk,
                "trump": trump,
                "redo": redo,
                "puddle": puddle,
                "forehand": forehand,
                "trick_winners": winners,
                "count": count,
            }
        )
        if count is None:
            if hn != len(data["hands"]):
                raise Illegal(hn + 1, "bid 1")
            break
        for step in (1, 2, 3):
            q = (forehand + step) % 3
            if open_for(q):
                forehand = q
                break

    points = {}
    totals = [0, 0, 0]
    firsts = [0, 0, 0]
    for c in contracts:
        row = sheet[c]
        if None in row:
            points[c] = None
            continue
        pts = places(row, c in WIN)
        points[c] = pts
        best = max(row) if c in WIN else min(row)
        for s in range(3):
            totals[s] += pts[s]
            firsts[s] += row[s] == best
    complete = finished()
    winners_ = []
    if complete:
        top = max(totals)
        tied = [s for s in range(3) if totals[s] == top]
        most = max(firsts[s] for s in tied)
        winners_ = [s for s in tied if firsts[s] == most]
    return {
        "complete": complete,
        "hands": out_hands,
        "sheet": sheet,
        "points": points,
        "totals": totals,
        "firsts": firsts,
        "winners": winners_,
    }
