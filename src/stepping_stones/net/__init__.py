"""The networked table (``stepping-stones host``, ``stepping-stones table``): one server holds the
games, people and bots join them over a websocket, computer players fill the empty seats.

- ``door``: who may come in (the ``Host`` and ``Origin`` checks and the headers), shared with the
  browser server (``serve``);
- ``protocol``: the messages, versioned, each a pydantic model checked at the boundary, and their
  reading and writing (whole states, and the deltas after them) (docs/protocol.md);
- ``wire``: a seat's view on the wire, derived from the engine's own annotations of ``PlayerView``
  (one schema, nothing restated), and ``turned``, which numbers a view's seats from its own;
- ``seatview``: the engine's checks on what a seat has seen (``refusal_of``);
- ``codes``: invite codes, seat secrets and their digest;
- ``journal``: what is kept of a table (``TableFile``, ``JournalMove``) and where (``TableStore``,
  ``FileTableStore``), read back by ``read_table``;
- ``table``: one authoritative table, pure logic (the engine's ``Game``, the AI seats, the seats'
  people and the computers that stand in for the ones who do not answer);
- ``tables``: every table of a server (``Tables``): keeping, telling each seat, the computers'
  turns, sweeps, filing finished games;
- ``limits``: what a server holds and what one client may cost (the defaults of ``host``'s flags);
- ``server``: the aiohttp server with the door and the limits;
- ``chat``: a table's chat (lines cleaned and held to a rate, the opener's switch, mutes), never
  kept; ``logos``: a club's logo on the felt, checked and re-encoded, kept with its table;
- ``client``: the small async client that ``table new``, the bot and the front ends use (it applies
  the deltas and hands on whole states).

It sits between the front ends and the flow: it may import the layers below it (the flow,
storage, the game, the AI, the engine's public face) and aiohttp; it never imports a front end,
the lab or Textual, and only the command line and the front ends import it.  Importing the
package itself loads nothing: each module is imported by name.
"""
