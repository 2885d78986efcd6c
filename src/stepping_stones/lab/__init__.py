"""The lab: what the people who develop and study the AI run -- simulations, duplicate
tournaments, speed measurements and the bidding model's calibration.

Each is a library function returning a typed result (a dataclass that pydantic's
``TypeAdapter`` dumps as ``--json`` prints it); the ``stepping-stones`` commands in ``cli/`` only parse
arguments and print.  Every game here is played through ``match.drive``.
"""
