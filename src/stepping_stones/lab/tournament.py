"""Duplicate matches between two AI levels: ``tournament()`` and its typed result.

Each *deal set* is one game's sequence of deals (and its first forehand), game
``number`` of the series ``seed``.  It is played six times: the candidate alone
against two baselines, once in each seat, and two candidates against one
baseline, the baseline in each seat.  Luck of the cards cancels out, so fewer
games tell the levels apart.

The headline figures are the candidate's, from the one-against-two games:
mean game points per game with a 95% confidence interval (over deal sets, as
their three games share their cards; Student's t, so that a few deal sets give
an honestly wide interval), win rate with its own interval (a shared win counts
as a share), and per contract the results and points on each side.  The same
seed gives the same numbers, however the work is spread over processes.

``sides=("one",)`` (``--only one-vs-two``) plays only the three one-against-two
games of each deal set; the result's ``two_vs_one`` is then ``None``.  A level
matched against itself measures nothing and is refused.

``defence`` adds a controlled table: for each contract, that many deals are
declared by the candidate (in the seat whose hand suits the contract best,
with the ranking and trump its bidding would choose) and played twice, against
two candidate defenders and against two baseline defenders.
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass, field
from fractions import Fraction
from typing import (
    Annotated,
    Any,
    Literal,
    TypeVar,
)

from pydantic import Field, TypeAdapter

from ..ai import make_lab_ai
from ..ai.bidding import best_declaration
from ..engine import CONTRACT_SETS, CONTRACTS, NUM_SEATS, Declaration, Game, Goal, Phase, Rules, Seat, deal
from ..game.match import Seeds, drive
from ..storage.rules_json import RulesField
from .simulate import GameStats, Progress, Runner, play_game

WORKERS = 2
_Z95 = 1.959964
# Two-sided 95% quantiles of Student's t for 1 to 30 degrees of freedom.
_T95 = (
    12.706205,
    4.302653,
    3.182446,
    2.776445,
    2.570582,
    2.446912,
    2.364624,
    2.306004,
    2.262157,
    2.228139,
    2.200985,
    2.178813,
    2.160369,
    2.144787,
    2.131450,
    2.119905,
    2.109816,
    2.100922,
    2.093024,
    2.085963,
    2.079614,
    2.073873,
    2.068658,
    2.063899,
    2.059539,
    2.055529,
    2.051831,
    2.048407,
    2.045230,
    2.042272,
)

Side = Literal["one", "two"]  # one candidate against two baselines, or two against one
SIDES: tuple[Side, ...] = ("one", "two")


def t95(df: int) -> float:
    """The two-sided 95% quantile of Student's t with ``df`` degrees of freedom (a table up to 30,
    then the usual expansion around the normal quantile, good to four decimals).

    >>> round(t95(1), 3), round(t95(9), 3), round(t95(60), 3), round(t95(10**6), 3)
    (12.706, 2.262, 2.0, 1.96)
    """
    if df < 1:
        raise ValueError("Student's t needs at least one degree of freedom")
    if df <= len(_T95):
        return _T95[df - 1]
    z = _Z95
    return (
        z
        + (z**3 + z) / (4 * df)
        + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * df**2)
        + (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / (384 * df**3)
    )


@dataclass(frozen=True)
class SeatedGame:
    """One game of a deal set, as plain data: which side it was, where the candidates sat."""

    match: Side
    candidate_seats: tuple[Seat, ...]
    stats: GameStats


def _seatings(
    candidate: str, baseline: str, sides: Sequence[Side] = SIDES
) -> list[tuple[Side, tuple[str, str, str], tuple[Seat, ...]]]:
    """(side, seat levels, candidate seats) for the games of one deal set (six with both sides)."""
    games: list[tuple[Side, tuple[str, str, str], tuple[Seat, ...]]] = []
    if "one" in sides:
        for odd in range(NUM_SEATS):
            levels = tuple(candidate if s == odd else baseline for s in range(NUM_SEATS))
            games.append(("one", (levels[0], levels[1], levels[2]), (odd,)))
    if "two" in sides:
        for odd in range(NUM_SEATS):
            levels = tuple(baseline if s == odd else candidate for s in range(NUM_SEATS))
            games.append(("two", (levels[0], levels[1], levels[2]), tuple(s for s in range(NUM_SEATS) if s != odd)))
    return games


def play_deal_set(job: tuple[Any, ...]) -> list[SeatedGame]:
    """The games of deal set ``number``: ``(candidate, baseline, rules, seed, number[, sides])``,
    all six unless ``sides`` names only one side."""
    candidate, baseline, rules, seed, number = job[:5]
    sides: Sequence[Side] = job[5] if len(job) > 5 else SIDES
    out = []
    for side, levels, candidate_seats in _seatings(candidate, baseline, sides):
        agents = [make_lab_ai(level) for level in levels]
        stats = GameStats.of(play_game(agents, rules, seed, number))
        out.append(SeatedGame(side, candidate_seats, stats))
    return out


@dataclass
class Moments:
    """The count, sum and sum of squares of values added one at a time, kept exactly (the values
    are fractions of game points), so that a mean and its interval need no list of the values."""

    n: int = 0
    total: Fraction = Fraction(0)
    squares: Fraction = Fraction(0)

    def add(self, value: Fraction | float) -> None:
        value = Fraction(value)
        self.n += 1
        self.total += value
        self.squares += value * value

    def mean_ci95(self) -> tuple[float, tuple[float, float]]:
        """The mean and a 95% confidence interval of the mean (Student's t with n - 1 degrees of
        freedom: for a few values it is much wider than the normal one, as it should be)."""
        n = self.n
        mean = self.total / n
        if n < 2:
            return float(mean), (float(mean), float(mean))
        var = (self.squares - self.total * mean) / (n - 1)
        half = t95(n - 1) * math.sqrt(var / n)
        return float(mean), (float(mean) - half, float(mean) + half)


def mean_ci95(values: Iterable[float]) -> tuple[float, tuple[float, float]]:
    """The mean and a 95% confidence interval of the mean of ``values`` (``Moments``).

    >>> mean_ci95([1.0, 3.0])
    (2.0, (-10.706..., 14.706...))
    >>> mean_ci95([2.0])
    (2.0, (2.0, 2.0))
    """
    moments = Moments()
    for v in values:
        moments.add(v)
    return moments.mean_ci95()


@dataclass(frozen=True)
class ContractComparison:
    goal: str
    candidate_mean_result: float | None
    baseline_mean_result: float | None
    candidate_declared: int
    baseline_declared: int
    candidate_mean_points: float
    baseline_mean_points: float


@dataclass(frozen=True)
class SideSummary:
    """The candidate's figures over the games of one side (one-vs-two or two-vs-one)."""

    games: int
    win_rate: float
    win_rate_ci95: tuple[float, float]
    mean_points: float
    ci95: tuple[float, float]
    baseline_mean_points: float
    per_contract: dict[str, ContractComparison]


@dataclass
class _Tally:
    cand_result_sum: int = 0
    cand_declared: int = 0
    base_result_sum: int = 0
    base_declared: int = 0
    cand_points: float = 0.0
    base_points: float = 0.0


@dataclass
class SideTally:
    """One side's figures added up deal set by deal set, in memory that does not grow with the
    number of deal sets."""

    side: Side
    rules: Rules
    games: int = 0
    base_points: float = 0.0
    wins: float = 0.0
    per_set: Moments = field(default_factory=Moments)
    wins_per_set: Moments = field(default_factory=Moments)
    tallies: dict[str, _Tally] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.tallies = {c.id: _Tally() for c in self.rules.contracts}

    def add(self, games_of_set: list[SeatedGame]) -> None:
        set_points = Fraction(0)
        set_wins = Fraction(0)
        counted = 0
        for g in games_of_set:
            if g.match != self.side:
                continue
            self.games += 1
            counted += 1
            cand = g.candidate_seats
            base = [s for s in range(NUM_SEATS) if s not in cand]
            totals = g.stats.totals
            set_points += Fraction(sum(totals[s] for s in cand), len(cand))
            self.base_points += sum(totals[s] for s in base) / len(base)
            won = sum(g.stats.wins[s] for s in cand)
            self.wins += won
            set_wins += Fraction(won)
            for cid, pts in g.stats.points.items():
                self.tallies[cid].cand_points += sum(pts[s] for s in cand) / len(cand)
                self.tallies[cid].base_points += sum(pts[s] for s in base) / len(base)
            for cid, declarer, result, _redo in g.stats.declared:
                tally = self.tallies[cid]
                if declarer in cand:
                    tally.cand_result_sum += result
                    tally.cand_declared += 1
                else:
                    tally.base_result_sum += result
                    tally.base_declared += 1
        self.per_set.add(set_points / counted)
        self.wins_per_set.add(set_wins / counted)

    def summary(self) -> SideSummary:
        games = self.games
        mean, (lo, hi) = self.per_set.mean_ci95()
        _, (win_lo, win_hi) = self.wins_per_set.mean_ci95()

        def avg(total: int, n: int) -> float | None:
            return round(total / n, 3) if n else None

        per_contract = {
            cid: ContractComparison(
                goal=CONTRACTS[cid].goal.value,
                candidate_mean_result=avg(t.cand_result_sum, t.cand_declared),
                baseline_mean_result=avg(t.base_result_sum, t.base_declared),
                candidate_declared=t.cand_declared,
                baseline_declared=t.base_declared,
                candidate_mean_points=round(t.cand_points / games, 3),
                baseline_mean_points=round(t.base_points / games, 3),
            )
            for cid, t in self.tallies.items()
        }
        return SideSummary(
            games=games,
            win_rate=round(self.wins / games, 4),
            win_rate_ci95=(round(max(0.0, win_lo), 4), round(min(1.0, win_hi), 4)),
            mean_points=round(mean, 3),
            ci95=(round(lo, 3), round(hi, 3)),
            baseline_mean_points=round(self.base_points / games, 3),
            per_contract=per_contract,
        )


@dataclass(frozen=True)
class DefenceRow:
    goal: str
    hands: int
    declarer_vs_candidate_defenders: float
    declarer_vs_baseline_defenders: float
    candidate_defence_holds_better: bool


@dataclass(frozen=True)
class TournamentJSON(SideSummary):
    """What ``tournament --json`` prints: the one-vs-two side's figures (the ``SideSummary`` it
    extends) at the top level, then the rest of a ``TournamentResult``; ``defence`` only when it
    was played."""

    candidate: str
    baseline: str
    seed: str
    deal_sets: int
    rules: RulesField
    games_played: int
    two_vs_one: SideSummary | None
    defence: Annotated[dict[str, DefenceRow] | None, Field(exclude_if=lambda v: v is None)] = None


@dataclass(frozen=True)
class TournamentResult:
    candidate: str
    baseline: str
    seed: str
    deal_sets: int
    rules: Rules
    one_vs_two: SideSummary
    two_vs_one: SideSummary | None  # None when only the one-against-two games were played
    defence: dict[str, DefenceRow] | None = None

    @property
    def games_played(self) -> int:
        return (1 if self.two_vs_one is None else 2) * NUM_SEATS * self.deal_sets

    def to_json(self) -> dict[str, Any]:
        """The result as ``tournament --json`` prints it (``TournamentJSON``)."""
        data = TournamentJSON(
            **vars(self.one_vs_two),
            candidate=self.candidate,
            baseline=self.baseline,
            seed=self.seed,
            deal_sets=self.deal_sets,
            rules=self.rules,
            games_played=self.games_played,
            two_vs_one=self.two_vs_one,
            defence=self.defence,
        )
        out: dict[str, Any] = TypeAdapter(TournamentJSON).dump_python(data, mode="json")
        return out


J = TypeVar("J")
R = TypeVar("R")


AHEAD = 8 * WORKERS
"""How many jobs ``run_pool`` hands to its processes ahead of the results taken from it."""


def run_pool(jobs: Iterable[J], fn: Callable[[J], R], progress: Progress | None) -> Iterator[R]:
    """``fn`` over ``jobs`` on ``WORKERS`` processes, results yielded in the order of the jobs.
    At most ``AHEAD`` jobs are in the pool at a time, so a run of any length takes the memory of
    a short one."""
    with ProcessPoolExecutor(max_workers=WORKERS) as pool:
        waiting: deque[Future[R]] = deque()
        todo = iter(jobs)
        while True:
            for job in todo:
                waiting.append(pool.submit(fn, job))
                if len(waiting) >= AHEAD:
                    break
            if not waiting:
                return
            result = waiting.popleft().result()
            if progress is not None:
                progress()
            yield result


def tournament(
    candidate: str,
    baseline: str,
    deals: int,
    seed: str,
    rules: Rules,
    defence: int = 0,
    progress: Progress | None = None,
    runner: Runner | None = None,
    sides: Sequence[Side] = SIDES,
) -> TournamentResult:
    """Run the duplicate match (and the defence table if ``defence`` > 0).  The deal sets run
    through ``runner`` (by default ``run_pool``: local processes); the results are summed in the
    order of the deal sets, so the figures are the same wherever they ran.  ``sides=("one",)``
    plays only the one-against-two games.  Raises ``ValueError`` for a level against itself."""
    if candidate == baseline:
        raise ValueError(
            f"the candidate and the baseline are both {candidate!r}: a level against itself measures nothing"
        )
    if "one" not in sides:
        raise ValueError("the one-against-two games are always played: they give the headline figures")
    # Lazily: the deal sets are made as the runner takes them and added up as they come back.
    jobs: Iterator[tuple[Any, ...]] = (
        (candidate, baseline, rules, seed, d)
        if tuple(sides) == SIDES
        else (candidate, baseline, rules, seed, d, tuple(sides))
        for d in range(deals)
    )
    one = SideTally("one", rules)
    two = SideTally("two", rules)
    for games_of_set in (runner or run_pool)(jobs, play_deal_set, progress):
        one.add(games_of_set)
        if "two" in sides:
            two.add(games_of_set)
    return TournamentResult(
        candidate=candidate,
        baseline=baseline,
        seed=seed,
        deal_sets=deals,
        rules=rules,
        one_vs_two=one.summary(),
        two_vs_one=two.summary() if "two" in sides else None,
        defence=defence_table(candidate, baseline, defence, seed, progress, runner) if defence else None,
    )


# --- the defence table ------------------------------------------------------------


def declared_deal(contract_id: str, seeds: Seeds) -> tuple[Game, Seat]:
    """The first deal of ``seeds`` with ``contract_id`` declared, ready for the first card, and
    its declarer: the seat whose hand suits the contract best declares it, as it would bid it
    (the heuristic model's ranking and trump)."""
    contract = CONTRACTS[contract_id]
    set_name = next(s for s, ids in CONTRACT_SETS.items() if contract_id in ids)
    rules = Rules(set_name)
    cards = deal(seeds.deal(1))
    best: tuple[float, Seat, int, int | None] | None = None  # (key, declarer, ranking, trump)
    for seat in range(NUM_SEATS):
        probe = Game(rules, first_forehand=seat)
        probe.start_hand(cards)
        value, ranking, trump = best_declaration(contract, probe.view(seat).own_cards)
        key = value if contract.goal is Goal.WIN else -value
        if best is None or key > best[0]:
            best = (key, seat, ranking, trump)
    assert best is not None
    _, declarer, ranking, trump = best
    game = Game(rules, first_forehand=declarer)
    game.start_hand(cards)
    game.bid(Declaration(contract, ranking, trump))
    return game, declarer


def play_defence_hand(job: tuple[str, str, str, str, int]) -> tuple[int, int]:
    """One deal of ``contract_id`` declared by ``declarer_level``; its result against both defences."""
    contract_id, declarer_level, baseline, seed, number = job
    seeds = Seeds(f"{seed}:defence:{contract_id}:{number}")
    results = []
    for defender_level in (declarer_level, baseline):
        game, declarer = declared_deal(contract_id, seeds)
        agents = [make_lab_ai(declarer_level if s == declarer else defender_level) for s in range(NUM_SEATS)]
        drive(game, agents, seeds, stop=lambda g: g.phase is not Phase.PLAY)
        results.append(game.log[-1].result)
    return results[0], results[1]


def defence_table(
    candidate: str,
    baseline: str,
    hands: int,
    seed: str,
    progress: Progress | None = None,
    runner: Runner | None = None,
) -> dict[str, DefenceRow]:
    contract_ids = list(CONTRACTS)
    jobs = ((cid, candidate, baseline, seed, n) for cid in contract_ids for n in range(hands))
    results = (runner or run_pool)(jobs, play_defence_hand, progress)
    sums = {cid: [0, 0] for cid in contract_ids}
    for i, (own_result, other_result) in enumerate(results):  # in the order of the jobs
        cid = contract_ids[i // hands]
        sums[cid][0] += own_result
        sums[cid][1] += other_result
    table = {}
    for cid in contract_ids:
        own = sums[cid][0] / hands
        other = sums[cid][1] / hands
        win = CONTRACTS[cid].goal is Goal.WIN
        table[cid] = DefenceRow(
            goal=CONTRACTS[cid].goal.value,
            hands=hands,
            declarer_vs_candidate_defenders=round(own, 3),
            declarer_vs_baseline_defenders=round(other, 3),
            candidate_defence_holds_better=(own < other) if win else (own > other),
        )
    return table
