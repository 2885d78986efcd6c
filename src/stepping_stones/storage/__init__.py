"""Everything that reads or writes the disk: safe file writes (``files``), the checks every file
read passes (``safety``), game records (``records``), a record's sidecar (``sidecar``), settings
(``settings``), the games folder and its one writer (``games``), save slots and their locks
(``session``) and the game library (``library``, a package split by job).

Inside, in layers (import-linter): library > session > games > records | settings | sidecar >
files | safety.

pydantic lives here, at the boundaries, never in the engine's hot loops.  May import: the engine's
public face, ``explain`` and ``game`` (a saved game is a ``game.choices.Setup`` played by a
``game.match`` seed); never the AI's search, the flow or a front end.
"""
