"""Every sentence a card hint says about the trick in play is true: each fact it states holds in
the position, and each "so" follows from the facts stated.  The reasons are read back from the
words (as a person reads them) and held against the engine's own trick resolution, played out
over every way the others could finish the trick, in the real layout and in others the view
allows."""

from __future__ import annotations

import random
import re

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from conftest import ALL_RULES, random_game
from stepping_stones.ai import ExpertAI
from stepping_stones.ai.expert import CardReckoning
from stepping_stones.ai.hints import Hint, card_hint, hint_for, role
from stepping_stones.engine import (
    CARD_NAMES,
    NUM_SEATS,
    SUIT_MASKS,
    SUIT_NAMES,
    SUIT_OF,
    Game,
    HandState,
    Phase,
    PlayerView,
    cards_of,
    parse_card,
)

GONE = re.compile(
    r"(?:the ((?:[CKLB][1-9])(?: and [CKLB][1-9])*) (?:is|are) gone|every higher (\S+(?: \S+)?) card is gone)"
)
TAKES = re.compile(
    r"(so )?(it wins this trick|the declarer takes this trick|your partner takes this trick"
    r"|the defender on your (?:left|right) takes this trick)"
)
COUNTED = re.compile(r"it wins this trick, your (\d+)(?:st|nd|rd|th) counted trick")


def _rank(card: int) -> int:
    return int(CARD_NAMES[card][1])


def _higher(card: int, ranking: int) -> set[int]:
    """The cards of ``card``'s suit above it, read from the names and the ranking."""
    suit, rank = SUIT_OF[card], _rank(card)
    return {c for c in range(36) if SUIT_OF[c] == suit and (_rank(c) > rank if ranking == 9 else _rank(c) < rank)}


def _winners(state: HandState) -> set[int]:
    """Who takes the trick in play, over every legal way the seats still to play can finish it."""
    if state.in_trick == 0:  # the trick just ended: the engine wrote down its winner
        return {state.winners[-1]}
    out = set()
    for c in cards_of(state.legal_mask()):
        state.push(c)
        out |= _winners(state)
        state.pop()
    return out


def _layouts(game: Game, view: PlayerView, rng: random.Random) -> list[HandState]:
    """The real card play, and three others where the unseen cards are dealt out again."""
    state = game.state
    assert state is not None
    states = [state.copy()]
    others = [s for s in range(NUM_SEATS) if s != view.seat]
    unseen = list(cards_of(view.unseen_cards))
    for _ in range(3):
        rng.shuffle(unseen)
        k = view.cards_left(others[0])
        hidden = {others[0]: sum(1 << c for c in unseen[:k]), others[1]: sum(1 << c for c in unseen[k:])}
        states.append(view.state_with(hidden))
    return states


def check_reason(game: Game, view: PlayerView, hint: Hint, rng: random.Random) -> None:
    """Every trick fact in ``hint.reason`` (and its ``brief``) holds, and every "so" follows."""
    card = hint.action
    assert isinstance(card, int)
    declaration = view.declaration
    assert declaration is not None
    ranking, trump = declaration.ranking, declaration.trump
    real = game.state.copy()
    real.push(card)
    winning_seat = real.winning()[0] if real.in_trick else real.winners[-1]
    finished = real.in_trick == 0
    ends = {frozenset(_winners(_push(state, card))) for state in _layouts(game, view, rng)}
    certain = {next(iter(e)) for e in ends if len(e) == 1}
    certain_taker = certain.pop() if len(certain) == 1 and all(len(e) == 1 for e in ends) else None

    for text in (hint.reason, hint.brief):
        named: set[int] | None = None
        gone = GONE.search(text)
        if gone:
            # The "gone" clause is said of a card that is winning the trick, with others to play ...
            assert winning_seat == view.seat and not finished, (text, view)
            higher = _higher(card, ranking)
            if gone.group(1):
                named = {parse_card(t) for t in gone.group(1).split(" and ")}
            else:
                assert gone.group(2) == SUIT_NAMES[SUIT_OF[card]], text
                named = higher
            # ... and each card it names is higher, of the same suit, and played before this trick.
            assert named and named <= higher, (text, view)
            before = view.played_mask & ~sum(1 << c for _, c in view.current_trick())
            assert all(before >> c & 1 for c in named), (text, view)
        trumps_out = trump is not None and bool(view.unseen_cards & SUIT_MASKS[trump])
        if "the others still hold trumps" in text:
            assert trumps_out and SUIT_OF[card] != trump, text
        for so, taker in TAKES.findall(text):
            # The conclusion holds whatever the others hold ...
            assert certain_taker is not None, (text, view, ends)
            if taker == "it wins this trick":
                assert certain_taker == view.seat, (text, view)
            else:
                assert certain_taker != view.seat and taker == f"{role(view, certain_taker)} takes this trick", text
            if so:
                # ... and a "so" follows from the facts said: the card is winning, every card of
                # its suit that could beat it is gone, and no trump can.
                assert taker == "it wins this trick" and named == _higher(card, ranking), text
                assert trump is None or SUIT_OF[card] == trump or not trumps_out, text
        counted = COUNTED.search(text)
        if counted:
            assert view.seat == view.declarer and declaration.contract.counted_mask >> len(view.trick_winners) & 1
            assert int(counted.group(1)) == view.count() + 1, text


def _push(state: HandState, card: int) -> HandState:
    state.push(card)
    return state


def _play_position(seed: int, rules_index: int, cut: int) -> Game:
    game = random_game(seed, ALL_RULES[rules_index], stop_after=cut)
    assume(game.phase is Phase.PLAY)
    return game


positions = {
    "seed": st.integers(min_value=0, max_value=2**32 - 1),
    "rules_index": st.integers(0, len(ALL_RULES) - 1),
    "cut": st.integers(4, 400),
}


@settings(max_examples=150, deadline=None)
@given(**positions)
def test_every_legal_cards_trick_words_are_true(seed, rules_index, cut):
    """The words for any card the expert might choose, with its counts equal to the others'."""
    game = _play_position(seed, rules_index, cut)
    view = game.view(game.to_act)
    legal = list(cards_of(view.legal_cards))
    assume(len(legal) > 1)
    rng = random.Random(seed)
    wants_more = (view.seat == view.declarer) == view.declaration.contract.is_win
    for card in legal:
        values = dict.fromkeys(legal, 5.0)
        reckoning = CardReckoning(view.seat, view.declarer, wants_more, values, {}, 10, True, card)
        check_reason(game, view, card_hint(view, reckoning), rng)


@settings(max_examples=25, deadline=None)
@given(**positions)
def test_the_hints_own_reason_is_true(seed, rules_index, cut):
    """``hint_for`` as the app and the ``hint`` command call it (a small search, for time)."""
    game = _play_position(seed, rules_index, cut)
    view = game.view(game.to_act)
    hint = hint_for(view, expert=ExpertAI(layouts=4, node_budget=2000))
    check_reason(game, view, hint, random.Random(seed))


def _trick_position(hands: tuple[str, str, str], contract: int, ranking: int, trump: int | None, cards: str) -> Game:
    from stepping_stones.engine import Declaration, Rules, mask_of

    game = Game(Rules("standard"), first_forehand=0)
    game.start_hand(tuple(mask_of(parse_card(t) for t in hand.split()) for hand in hands))
    contract_ = game.rules.contracts[contract]
    game.bid(Declaration(contract_, ranking, trump))
    for t in cards.split():
        game.play(parse_card(t))
    return game


def test_a_discard_is_never_said_to_stand_above_gone_cards():
    """The issue's case: a discard is not a card above gone ones, and another seat's taking the
    trick does not follow from cards of its suit being gone."""
    # Win Tricks (No Trump), 1 high.  Trick 1: C1 C2 C3, won by the declarer (seat 0), who
    # leads L9; seat 1 takes it with L1, and seat 2, without Stone Lanterns, discards.
    game = _trick_position(
        (
            "C1 L9 L8 L7 K1 K2 K3 K4 B1 B2 B3 B4",
            "C2 L1 L2 L3 L4 L5 L6 K5 K6 B5 B6 B7",
            "C3 C4 C5 C6 C7 C8 C9 K7 K8 K9 B8 B9",
        ),
        0,
        1,
        None,
        "C1 C2 C3 L9 L1",
    )
    view = game.view(2)
    assert view.to_act == 2 and view.legal_cards == view.dealt_cards & ~view.played_mask
    legal = list(cards_of(view.legal_cards))
    for card in legal:
        hint = card_hint(view, CardReckoning(2, 0, False, dict.fromkeys(legal, 5.0), {}, 10, True, card))
        check_reason(game, view, hint, random.Random(0))
        assert "gone" not in hint.reason and "so " not in hint.reason
        assert hint.reason.startswith("your partner takes this trick; ")
