"""The engine's names for its ints (issue 17): ``Card``, ``Seat`` and ``Mask`` are aliases of
``int`` -- free at run time, unlike ``NewType`` -- and part of the engine's public face."""

from stepping_stones import engine


def test_card_seat_and_mask_are_int_itself():
    assert engine.Card is int and engine.Seat is int and engine.Mask is int


def test_they_are_exported_by_the_engine():
    assert {"Card", "Seat", "Mask"} <= set(engine.__all__)
    assert {"Card", "Seat", "Mask"} <= set(dir(engine))
