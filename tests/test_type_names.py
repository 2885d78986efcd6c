"""The engine's names for its ints (issue 17): ``Card``, ``Seat`` and ``Mask`` say in a signature
which int it takes, cost nothing at run time (the engine's cards, seats and sets are plain ints),
and are part of the engine's public face."""

from stepping_stones import engine


def test_the_engines_cards_seats_and_sets_are_plain_ints():
    game = engine.Game(engine.Rules(), first_forehand=1)
    assert type(engine.parse_card("K4")) is int and type(engine.mask_of([0, 5])) is int
    assert type(game.forehand) is int  # a Seat
    assert engine.card_name(engine.parse_card("K4")) == "K4"  # a plain int is taken where a Card is asked


def test_they_are_exported_by_the_engine():
    assert {"Card", "Seat", "Mask"} <= set(engine.__all__)
    assert {"Card", "Seat", "Mask"} <= set(dir(engine))
