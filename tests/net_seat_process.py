"""A seat's client in a process of its own, for the tests that kill it: ``python net_seat_process.py
URL KEEP [CODE NAME]``.  With a code it takes a seat and keeps it in the file KEEP; without, it
takes back the seat kept there.  Then it plays random legal moves until the game is over, writing
one JSON line per state it is sent (``seq``, ``hand``, ``plays``, ``own``) and ``over`` at the
end."""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path
from random import Random

from stepping_stones.engine import cards_of, record_cards
from stepping_stones.net.client import SeatClient, play_randomly
from stepping_stones.net.protocol import StateMessage


def _say(state: StateMessage) -> None:
    view = state.view
    line = (
        {
            "seq": state.seq,
            "hand": view.hand_number,
            "phase": view.phase.value,
            "plays": record_cards(view.plays),
            "own": record_cards(cards_of(view.own_cards)),
        }
        if view is not None
        else {"seq": state.seq, "hand": 0}
    )
    print(json.dumps(line), flush=True)


async def main(url: str, keep: Path, code: str | None, name: str | None) -> None:
    client = SeatClient(url, code=code, name=name, keep=keep) if code else SeatClient.resume(keep)
    async with client:
        welcome = await client.join()
        print(json.dumps({"seat": welcome.seat}), flush=True)
        await play_randomly(client, Random(), on_state=_say)
    print("over", flush=True)


if __name__ == "__main__":
    args = sys.argv[1:]
    asyncio.run(main(args[0], Path(args[1]), *(args[2:4] if len(args) >= 4 else (None, None))))
