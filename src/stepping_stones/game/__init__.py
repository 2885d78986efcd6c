"""The game above the rules: the choices a new game starts from (``choices``) and the one match
driver that seats players and runs hands (``match``), shared by the app, plain mode, the lab and
the tests.

May import: the engine's public face (``stepping_stones.engine``) and the AI (``ai``); nothing
that stores or draws.  Imported by ``storage``, ``flow``, the front ends, ``lab`` and ``cli``.
"""
