"""The expert's settings in one object: its card play's search (``expert.py``) and its bidding
plan (``planning.py``).

``ExpertAI(params=...)`` plays with them; the defaults are the expert's settings.  The lab tunes
a copy (``with_settings(["margin=0.2"])``, as ``scripts/bid_screen.py --param margin=0.2``) and
gives it to the seats it tests, so a tuning run changes nothing global: the other seats, and
any other game in the process, keep the defaults.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, fields, replace
from typing import Any

from ..engine import TRICKS


@dataclass(frozen=True)
class ExpertParams:
    # --- card play (expert.py) ---
    exact_tricks: int = TRICKS  # solve exactly when this many tricks (the current one included) are left
    lose_exact_tricks: int = 6  # ... in a Lose contract (at most ``exact_tricks``); before, the horizon search
    lookahead: int = 1  # the fallback: search the current trick and this many more, then count winners
    lose_lookahead: int | None = 0  # its lookahead in a Lose contract (None: ``lookahead``)
    candidates: int = 64  # layouts dealt before weighing them by the bidding
    layouts: int = 48  # layouts drawn by weight and searched
    min_layouts: int = 6  # searched even past the budget ...
    node_budget: int = 300_000  # ... positions per decision; no new layout is started past this
    hard_factor: int = 3  # a decision's exact search still running at this many budgets is stopped
    layout_factor: int = 1  # a layout whose exact search reaches this many budgets is left out
    min_exact: int = 4  # fewer layouts solved exactly within the hard limit: fall back to the horizon
    horizon_budget: int = 120_000  # the fallback's budget (at most the decision's) ...
    horizon_factor: int = 2  # ... and its hard limit, in budgets
    trick_weight: float = 0.05  # when playing for points: a counted trick's weight beside a sheet point
    # --- bidding (planning.py) ---
    offer_share: float = 0.75  # a player offered the bid declares with (open contracts) / (this * hands left)
    max_declare: float = 0.95  # ... at most this often
    margin: float = 0.02  # declaring must beat waiting by this many points (a bias against moving on noise)
    own_model: str = "expert"  # whose play the model of this seat's own results is fitted from (model.MODEL_FILES)

    def with_settings(self, settings: list[str]) -> ExpertParams:
        """A copy with ``name=value`` settings (the value as JSON: ``margin=0.2``,
        ``lose_lookahead=null``).  Raises ``ValueError`` naming what is wrong."""
        known = {f.name: f for f in fields(self)}
        changes: dict[str, Any] = {}
        for setting in settings:
            name, equals, raw = setting.partition("=")
            name = name.strip()
            if not equals:
                raise ValueError(f"{setting!r} is not name=value")
            if name not in known:
                raise ValueError(f"the expert has no setting {name!r} (choose from {', '.join(known)})")
            try:
                value: Any = json.loads(raw)
            except ValueError:
                raise ValueError(f"{name}: {raw!r} is not a JSON value") from None
            default = getattr(ExpertParams(), name)
            allowed: tuple[type, ...] = (int, float) if isinstance(default, float) else (type(default),)
            if default is None or name == "lose_lookahead":
                allowed = (int, type(None))
            if not isinstance(value, allowed) or isinstance(value, bool):
                kinds = {int: "a whole number", float: "a number", str: "a string", type(None): "null"}
                raise ValueError(f"{name}: {raw!r} is not {' or '.join(kinds[t] for t in allowed)}")
            changes[name] = float(raw) if isinstance(default, float) else value  # a JSON number, as a float
        return replace(self, **changes)


DEFAULT_PARAMS = ExpertParams()
