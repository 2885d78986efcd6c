"""The game in a web browser (``stepping-stones serve``): textual-serve, one app process per tab,
behind a door that lets in only the page's own origin, with limits on what a tab may cost.

- the door (``net.door``, shared with the table server): the names the server answers to, the
  origin a websocket must come from, the headers;
- ``tabs``: one tab's app process and the checks on what the page sends it;
- ``server``: textual-serve's server with both, and the messages a person reads.

It may import the layers below it (the door of ``net``, the session and settings, ``safety``);
nothing imports it but the command line.
"""

from ..net.door import Door, DoorError, is_loopback
from .server import TITLE, GameServer, serve
from .tabs import Limits

__all__ = ["TITLE", "Door", "DoorError", "GameServer", "Limits", "is_loopback", "serve"]
