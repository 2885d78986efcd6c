"""The networked table (``stepping-stones host``, ``stepping-stones table``): one server holds the
games, people and bots join them over a websocket, computer players fill the empty seats.

- ``door``: who may come in (the ``Host`` and ``Origin`` checks and the headers), shared with the
  browser server (``serve``);
- ``protocol``: the messages, versioned, each a pydantic model checked at the boundary, and the one
  codec of a ``PlayerView`` to JSON and back (docs/protocol.md);
- ``tables``: the authoritative table (the engine's ``Game``, the AI seats, invite codes, seat
  secrets, stand-ins for dropped players) and ``TableStore``, where tables live between actions;
- ``limits``: what a server holds and what one client may cost (the defaults of ``host``'s flags);
- ``server``: the aiohttp server with the door and the limits;
- ``client``: the small async client that ``table new``, the bot and the front ends use (it applies
  version 2's deltas and hands on whole states).

It sits between the front ends and the flow: it may import the layers below it (the flow,
storage, the game, the AI, the engine's public face) and aiohttp; it never imports a front end,
the lab or Textual, and only the command line and the front ends import it.  Importing the
package itself loads nothing: each module is imported by name.
"""
