"""Everything that reads or writes the disk: safe file writes (``files``), the checks every file
read passes (``safety``), game records (``records``), settings (``settings``), save slots and their
locks (``session``) and the game library (``library``).

pydantic lives here, at the boundaries, never in the engine's hot loops.  May import: the engine's
public face, ``explain`` and ``game`` (a saved game is a ``game.choices.Setup`` played by a
``game.match`` seed); never the AI's search, the flow or a front end.
"""
