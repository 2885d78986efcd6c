"""The remote flow's promises without a server: an action made while the connection is down is
said not to be sent and is not sent later; the last card of a hand plays itself; the person's own
seat taken by a computer is told at once, and the computer's cards as its."""

from __future__ import annotations

import pytest

from stepping_stones.ai import make_ai
from stepping_stones.engine import CARD_NAMES, Phase, Rules, WrongPhaseError, cards_of
from stepping_stones.flow import HandSummary, PersonTurn
from stepping_stones.flow.game_flow import UNDO_OFF, UNDONE
from stepping_stones.flow.presenter import present
from stepping_stones.game.match import Match, Seeds, Step
from stepping_stones.net.client import BACK, LOST
from stepping_stones.net.protocol import SeatFacts, StateMessage, Welcome
from stepping_stones.net.remote import UNDO_TOKEN, RemoteFlow, TableTurn
from stepping_stones.net.wire import legal_actions

SEAT = 1


def _match(until) -> Match:
    match = Match.new(
        Rules("standard", short_game=True), [make_ai("random")] * 3, Seeds("remote-flow"), players=("Ann", "Bo", "Cy")
    )
    while not until(match.game):
        assert match.step() is not Step.OVER
    return match


def _state(game, seq: int, stand_in: bool = False, stood: tuple[int, ...] = ()) -> StateMessage:
    """The server's state for ``SEAT``: a computer sits for it (``stand_in``), and made moves for it
    in the hands ``stood``."""
    view = game.view(SEAT)
    seats = [
        SeatFacts(
            name=n,
            kind="human",
            level=None,
            connected=True,
            stand_in=stand_in and s == SEAT,
            stood_in=list(stood) if s == SEAT else [],
        )
        for s, n in enumerate(game.players)
    ]
    return StateMessage.model_construct(
        seq=seq, started=True, seats=seats, help=False, view=view, legal=legal_actions(view), waiting=None
    )


def _flow(sent: list[tuple[str, int]], **kw) -> RemoteFlow:
    welcome = Welcome(
        table="t" * 16, code="AAAAA-AAAAA", seat=SEAT, name="Bo", secret=None, opener=False, timeout=120.0
    )
    return RemoteFlow(welcome, lambda move, seq: sent.append((move, seq)), file_games=False, **kw)


def _my_play(game) -> bool:
    return game.phase is Phase.PLAY and game.to_act == SEAT


def test_a_card_played_while_the_connection_is_down_is_said_not_sent_and_never_sent_later():
    game = _match(_my_play).game
    sent: list[tuple[str, int]] = []
    flow = _flow(sent)
    flow.receive(_state(game, 40))
    card = next(iter(cards_of(game.view(SEAT).legal_cards)))
    flow.notice(f"{LOST}; trying again")
    assert isinstance(flow.next_step(), TableTurn)  # not asked while nothing can be sent
    with pytest.raises(WrongPhaseError, match="was not sent"):  # refused, as any move the flow cannot make
        flow.play(card)
    assert sent == [] and "was not sent" in (flow.state.refusal or "")
    flow.notice(BACK)
    assert flow.my_turn
    flow.play(card)
    assert sent == [(CARD_NAMES[card], 40)]
    flow.unsent(CARD_NAMES[card])  # the send itself failed: said, and asked again only once back
    assert "was not sent" in (flow.state.refusal or "") and not flow.my_turn
    flow.notice(BACK)
    assert flow.my_turn and sent == [(CARD_NAMES[card], 40)]


def test_the_last_card_plays_itself_online_as_in_a_local_game():
    game = _match(lambda g: _my_play(g) and g.state.hands[SEAT].bit_count() == 1).game
    for auto in (True, False):
        sent: list[tuple[str, int]] = []
        flow = _flow(sent, auto_last_card=auto)
        flow.receive(_state(game, 77))
        step = flow.next_step()
        last = CARD_NAMES[game.state.hands[SEAT].bit_length() - 1]
        assert (sent == [(last, 77)] and isinstance(step, TableTurn)) if auto else sent == []


def test_the_computer_taking_the_seat_is_told_at_once_and_its_cards_are_its_own():
    match = _match(_my_play)
    sent: list[tuple[str, int]] = []
    flow = _flow(sent, take_back="type back")
    flow.receive(_state(match.game, 10))
    flow.receive(_state(match.game, 10, stand_in=True))
    assert flow.state.log[-1].text.startswith("You did not answer in 120 s: a computer plays your seat")
    assert not flow.my_turn
    assert flow.stand_in_lines() == []  # a computer sits for the person, but has made no move for them
    assert match.step() is not Step.OVER  # the computer's card for the seat
    number = match.game.view(SEAT).hand_number
    flow.receive(_state(match.game, 11, stand_in=True, stood=(number,)))
    assert flow.state.log[-1].text.startswith(("The computer (for you) plays", "Trick"))
    assert "The computer (for you)" in flow.state.log[-1].text
    flow.receive(_state(match.game, 11, stood=(number,)))
    assert flow.state.log[-1].text == "You play your own seat again."
    assert flow.stand_in_lines() == [f"A computer played for you in hand {number}: this result is not all yours."]


def test_the_state_says_it_is_your_turn_and_how_long_the_servers_clock_leaves():
    game = _match(_my_play).game
    now = [100.0]
    welcome = Welcome(
        table="t" * 16, code="AAAAA-AAAAA", seat=SEAT, name="Bo", secret=None, opener=False, timeout=120.0
    )
    flow = RemoteFlow(welcome, lambda move, seq: None, file_games=False, clock=lambda: now[0])
    value = _state(game, 40).model_dump()
    # the server's clock had run 33 s already (the client came back): the client counts from its word
    value["waiting"] = {"seat": SEAT, "name": "Bo", "connected": True, "computer": False, "seconds": 87.0}
    flow.receive(StateMessage.model_validate(value))
    assert present(flow.state).status == "Your turn: 87 s left."
    now[0] += 30.0
    flow.tick()
    assert present(flow.state).status == "Your turn: 57 s left."
    now[0] += 95.0
    flow.tick()
    assert present(flow.state).status == "Your turn: time is up, a computer plays next."


def test_another_players_clock_is_shown_and_a_summary_open_says_the_clock_waits():
    game = _match(_my_play).game
    now = [0.0]
    flow = _flow([])
    flow.clock = lambda: now[0]
    value = _state(game, 40).model_dump()
    other = (SEAT + 1) % 3
    value["waiting"] = {"seat": other, "name": "Cy", "connected": True, "computer": False, "seconds": 40.0}
    flow.receive(StateMessage.model_validate(value))
    shown = present(flow.state)
    assert shown.status == "Waiting for Cy: 40 s left."
    assert [s.seconds for s in shown.seats] == [None, 40, None]
    value["waiting"] = {"seat": SEAT, "name": "Bo", "connected": True, "computer": False, "seconds": 200.0}
    value["waiting"]["reading"] = True
    flow.receive(StateMessage.model_validate(value))
    assert present(flow.state).status == "Your turn: close the summary to start your clock (200 s left)."


def test_the_final_lines_take_the_servers_word_for_the_hands_a_computer_played():
    game = _match(_my_play).game
    flow = _flow([])
    value = _state(game, 40).model_dump()
    value["seats"][(SEAT + 1) % 3]["stood_in"] = [5, 6, 7, 9]  # the seat after the person's: Cy
    flow.receive(StateMessage.model_validate(value))
    assert flow.stand_in_lines() == ["A computer played for Cy in hands 5 to 7, 9: this result is not all theirs."]


def test_a_returning_client_is_told_the_hand_in_play_not_the_finished_ones_again():
    """Plain mode, after a return, got hand 3's tricks and then the summaries of hands 1 and 2."""
    game = _match(lambda g: len(g.log) == 3 and g.phase is Phase.PLAY).game
    flow = _flow([])
    flow.receive(_state(game, 90))
    told = [e.text for e in flow.state.log]
    assert told[0] == "2 hands are finished: the sheet has them."
    assert not any(t.startswith(("Hand 1 ", "Hand 2 ")) for t in told)
    assert any(t.startswith("Hand 3 is dealt") for t in told)
    assert isinstance(flow.next_step(), TableTurn | PersonTurn)  # no old summary comes up


def test_a_new_hand_is_told_after_the_summary_of_the_last_one():
    """ "Hand 2 is dealt" came before "Hand 1 is over": the deal waits for the summary."""
    match = _match(lambda g: g.phase is Phase.PLAY and len(g.log) == 1)
    flow = _flow([])
    flow.receive(_state(match.game, 5))
    while len(match.game.log) == 1 or match.game.phase is not Phase.BIDDING:
        assert match.step() is not Step.OVER
    flow.receive(_state(match.game, 60))
    assert not any(e.text.startswith("Hand 2 is dealt") for e in flow.state.log)
    step = flow.next_step()
    assert isinstance(step, HandSummary) and step.number == 1
    flow.summary_seen()
    assert any(e.text.startswith("Hand 2 is dealt") for e in flow.state.log)  # told once it is closed


def test_plain_mode_says_the_prompt_again_after_anything_told_while_it_waited():
    """ "Ann lost the connection." came after the prompt, and no new prompt followed: the last
    line must always be what may be typed."""
    import io
    import queue
    import threading

    from stepping_stones.plain.remote import TYPED, RemotePlain, Typing

    game = _match(_my_play).game
    sent: list[tuple[str, int]] = []
    flow = _flow(sent)
    flow.receive(_state(game, 40))
    card = legal_actions(game.view(SEAT))[0]
    released = threading.Event()

    class Out(io.StringIO):
        def write(self, text: str) -> int:
            done = super().write(text)
            lines = self.getvalue().splitlines()
            if any("lost the connection" in line for line in lines) and lines[-1].startswith("legal:"):
                released.set()  # the prompt came again after the news: now the person types
            return done

    class Input:
        def readline(self) -> str:
            released.wait(30)
            return card + "\n"

    class Inbox:
        def __init__(self) -> None:
            self.inbox: queue.Queue[object] = queue.Queue()

        def get(self, timeout: float | None = None) -> object:
            return self.inbox.get(timeout=timeout)

        def send(self, move: str, seq: int) -> None:
            sent.append((move, seq))

    connection = Inbox()
    flow.send = connection.send
    out = Out()
    table = RemotePlain(flow, connection, Typing(Input(), lambda: connection.inbox.put(TYPED)), out)
    left = _state(game, 40).model_dump()
    left["seats"][(SEAT + 1) % 3]["connected"] = False  # Cy's connection drops while Bo is asked
    connection.inbox.put(StateMessage.model_validate(left))
    table.ask(flow.state.view)
    lines = out.getvalue().splitlines()
    lost = next(i for i, line in enumerate(lines) if "Cy lost the connection" in line)
    assert any(line.startswith("legal:") for line in lines[lost + 1 :])
    assert sent == [(card, 40)]


def test_undo_at_a_table_with_one_person_is_sent_and_shown_and_refused_elsewhere():
    """The flow offers undo by the one rule (``PlayerView.undo_point``) where the server allows it
    (``help``: one person at the table), sends it, and says the game is assisted; where other
    people play, it refuses in the server's words without sending anything."""
    match = _match(_my_play)
    game = match.game
    card = next(iter(cards_of(game.view(SEAT).legal_cards)))
    match.apply(card)
    for help_ in (True, False):
        sent: list[tuple[str, int]] = []
        flow = _flow(sent)
        flow.receive(_state(game, 90).model_copy(update={"help": help_}))
        shown = present(flow.state)
        assert flow.state.can_undo is help_ and shown.undo is help_
        assert flow.undo() is help_
        if help_:
            assert sent == [(UNDO_TOKEN, 90)] and flow.state.assisted
            assert flow.state.log[-1].text == UNDONE
        else:
            assert sent == [] and flow.state.refusal == UNDO_OFF and UNDO_OFF in shown.notes
