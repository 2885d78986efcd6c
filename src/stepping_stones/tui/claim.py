"""The claim dialog: the person says how many of the remaining tricks that count their side takes
(``all``, ``none`` or a number); the table then asks its flow, whose referee checks it
(``ai/claims.py``).  Nothing here judges a claim: the dialog only reads the number."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.widgets import Input, Static

from ..ai.claims import ClaimError, claim_prompt, parse_claim, tricks_left
from ..engine import Contract
from .dialogs import Dialog


class ClaimScreen(Dialog[int]):
    """Type ``all``, ``none`` or a number, then Enter: answers the number of tricks (Escape: no
    claim).  Something else is refused in the dialog, which stays open."""

    def __init__(self, contract: Contract, trick_number: int, side: str) -> None:
        super().__init__()
        self.contract = contract
        self.trick_number = trick_number
        self.side = side

    def body(self) -> ComposeResult:
        prompt = claim_prompt(self.contract, self.trick_number)
        yield Static(
            Text.assemble(
                ("Claim the rest\n\n", "bold"),
                f"How many of the tricks left do {self.side} take? Type {prompt}, then Enter "
                "(Escape: no claim).\n"
                f"In a {'Win' if self.contract.is_win else 'Lose'} contract that means at "
                f"{'least' if self.contract.is_win else 'most'} that many. The computer checks it on every "
                "card: if it holds whatever the others play, the hand ends at once; if not, it is refused "
                "and you play on (one refused claim a trick).",
            ),
            id="claim-text",
        )
        yield Input(placeholder="all, none or a number", max_length=8, compact=True, id="claim-input")
        yield Static("", id="claim-error")

    def on_mount(self) -> None:
        self.query_one("#claim-input", Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        try:
            tricks = parse_claim(event.value, tricks_left(self.contract, self.trick_number))
        except ClaimError as exc:
            text = str(exc)
            self.query_one("#claim-error", Static).update(Text(text[0].upper() + text[1:] + "."))
            return
        self.dismiss(tricks)
