"""Ratings (net/ratings.py, net/players.py): OpenSkill's Plackett-Luce updates from a finished
game's places on the sheet, checked against the library's own functions; the players' store (a
game settled once, games counted apart, a level in two seats); and whole games at a server on
loopback that rate their people and show the ratings at the table."""

from __future__ import annotations

import asyncio
import itertools
from random import Random

import pytest
from openskill.models import PlackettLuce

from net_support import WAIT, new_table, next_state, running
from stepping_stones.engine import winners
from stepping_stones.net.client import SeatClient, open_table, play_randomly
from stepping_stones.net.codes import digest
from stepping_stones.net.players import Finished, Sitter, SqlitePlayerStore, new_key
from stepping_stones.net.ratings import Skill, computer_id, fresh, places, rate, shown


def _openskill(skills: list[Skill], ranks: list[int]) -> list[Skill]:
    """What the library itself makes of a game of three teams of one."""
    model = PlackettLuce()
    teams = [[model.rating(mu=s.mu, sigma=s.sigma)] for s in skills]
    return [Skill(t[0].mu, t[0].sigma) for t in model.rate(teams, ranks=ranks)]


@pytest.mark.parametrize("placed", [(1, 2, 3), (3, 1, 2), (1, 1, 3), (2, 1, 2), (1, 1, 1)])
def test_a_game_of_three_players_is_rated_as_openskill_rates_it(placed):
    rng = Random(sum(placed))
    skills = [Skill(rng.uniform(15, 35), rng.uniform(1, 8.5)) for _ in range(3)]
    after = rate(["a", "b", "c"], dict(zip("abc", skills, strict=True)), placed)
    expected = _openskill(skills, list(placed))
    assert [after[p] for p in "abc"] == pytest.approx(expected)
    assert after != dict(zip("abc", skills, strict=True))  # a game moves every rating


def test_a_level_in_two_seats_takes_the_mean_of_its_two_seats_new_ratings():
    ann, expert = Skill(27.0, 6.0), Skill(31.0, 3.0)
    after = rate(["ann", "expert", "expert"], {"ann": ann, "expert": expert}, [2, 1, 3])
    one, two, three = _openskill([ann, expert, expert], [2, 1, 3])
    assert after["ann"] == pytest.approx(one)
    assert after["expert"].mu == pytest.approx((two.mu + three.mu) / 2)
    assert after["expert"].sigma == pytest.approx((two.sigma + three.sigma) / 2)


def test_the_places_follow_the_sheet_s_winner_rule():
    for totals in itertools.product(range(-2, 3), repeat=3):
        for firsts in itertools.product(range(2), repeat=3):
            placed = places(totals, firsts)
            assert {s for s in range(3) if placed[s] == 1} == set(winners(totals, firsts))
            for a, b in itertools.permutations(range(3), 2):  # better on the sheet, a better place
                if (totals[a], firsts[a]) > (totals[b], firsts[b]):
                    assert placed[a] < placed[b]
                elif (totals[a], firsts[a]) == (totals[b], firsts[b]):
                    assert placed[a] == placed[b]


def test_the_shown_rating_is_openskill_s_ordinal_scaled():
    assert shown(fresh()) == 1000
    model = PlackettLuce()
    for mu, sigma in [(30.0, 2.0), (20.0, 8.0), (25.0, 1.0)]:
        assert shown(Skill(mu, sigma)) == round(model.rating(mu=mu, sigma=sigma).ordinal(3.0, 40.0, 1000.0))


def _game(table: str, keys: list[str | None], levels: list[str | None], placed: tuple[int, ...], rated=True):
    seats = tuple(Sitter(key, level, name) for key, level, name in zip(keys, levels, ("Ann", "Bo", "Cy"), strict=True))
    return Finished(table, f"table-{table}.json", 1_700_000_000, seats, placed, rated)


@pytest.fixture(params=["sqlite", "postgresql"])
def player_store(request, tmp_path):
    """The players' store of each kind, one contract: the data folder's SQLite file, and the
    shared store's PostgreSQL (``net/pgstore.py, PostgresPlayerStore``); a second store on the same place is another
    process's."""
    made = []

    def new():
        if request.param == "sqlite":
            store = SqlitePlayerStore(tmp_path / "players.sqlite3")
        else:
            from stepping_stones.net.pgstore import PostgresPlayerStore

            if not made:
                new.dsn = request.getfixturevalue("postgres_dsn")
            store = PostgresPlayerStore(new.dsn)
        made.append(store)
        return store

    yield new
    for store in made:
        store.close()


def test_the_store_rates_a_game_once_as_openskill_does_and_lists_it_for_its_people(player_store):
    store = player_store()
    ann, bo = digest(new_key()), digest(new_key())
    game = _game("a" * 16, [ann, bo, None], [None, None, "expert"], (2, 1, 3))
    assert store.settle(game)
    expected = _openskill([fresh()] * 3, [2, 1, 3])
    ann_id, bo_id = store.player_of(ann), store.player_of(bo)
    assert ann_id and bo_id and ann_id != bo_id
    assert store.rating(ann_id) == shown(expected[0])
    assert store.rating(bo_id) == shown(expected[1])
    assert store.rating(computer_id("expert")) == shown(expected[2])
    assert not store.settle(game)  # filed again after a crash: not rated twice
    assert store.rating(ann_id) == shown(expected[0])
    (played,) = store.games(ann_id, 10)
    assert (played.place, played.seat, played.rated, played.rating) == (2, 0, True, shown(expected[0]))
    assert played.names == ("Ann", "Bo", "Cy") and store.record(ann_id, "a" * 16) == ("table-aaaaaaaaaaaaaaaa.json", 0)
    assert store.record(bo_id, "b" * 16) is None
    top = store.top(10)
    assert [r.name for r in top] == sorted(
        ["Ann", "Bo", "Computer (expert)"],
        key=lambda n: (
            -{"Ann": shown(expected[0]), "Bo": shown(expected[1]), "Computer (expert)": shown(expected[2])}[n]
        ),
    )
    # the next game starts from the ratings the first one made
    second = _game("b" * 16, [ann, bo, None], [None, None, "expert"], (1, 3, 2))
    assert store.settle(second)
    again = _openskill(expected, [1, 3, 2])
    assert store.rating(ann_id) == shown(again[0]) and store.rating(computer_id("expert")) == shown(again[2])
    # another process on the same store sees the same players, and the game settled
    other = player_store()
    assert other.player_of(ann) == ann_id and other.rating(ann_id) == shown(again[0])
    assert not other.settle(second) and other.name(bo_id) == "Bo"
    other.add_key(ann_id, digest("another device"))
    assert store.player_of(digest("another device")) == ann_id


def test_a_game_counted_apart_moves_no_rating_and_is_counted(player_store):
    store = player_store()
    ann = digest(new_key())
    assert store.settle(_game("c" * 16, [ann, None, None], [None, "random", "random"], (1, 2, 3), rated=False))
    ann_id = store.player_of(ann)
    assert ann_id is not None and store.rating(ann_id) is None
    assert store.rating(computer_id("random")) is None
    (played,) = store.games(ann_id, 10)
    assert not played.rated and played.rating is None
    # a person without a key: nobody is rated either, whatever the flag says
    assert store.settle(_game("d" * 16, [ann, None, None], [None, None, "random"], (1, 2, 3)))
    assert store.rating(ann_id) is None
    assert store.top(10) == []


def test_the_store_is_its_owner_s_only(tmp_path):
    SqlitePlayerStore(tmp_path / "server" / "players.sqlite3").close()
    assert (tmp_path / "server" / "players.sqlite3").stat().st_mode & 0o077 == 0


def test_whole_games_rate_the_person_with_a_key_and_the_table_shows_the_ratings(tmp_path):
    key = new_key()

    async def games():
        async with running(tmp_path) as (server, url):
            finals = []
            for number in range(2):
                opened = await open_table(url, new_table(("open", "random", "random")))
                async with SeatClient(url, code=opened.code, name="Ann", key=key) as client:
                    await client.join()
                    first = await next_state(client)
                    async with asyncio.timeout(WAIT):
                        final = await play_randomly(client, Random(number))
                    rated = await next_state(client, lambda s: s.seats[0].rating is not None)
                finals.append((first, final, rated))
            store = server.tables.players
            assert store is not None
            player = store.player_of(digest(key))
            assert player is not None
            return finals, store.rating(player), store.rating(computer_id("random")), store.games(player, 10)

    finals, ann, computer, played = asyncio.run(games())
    (first1, _final1, rated1), (first2, _final2, rated2) = finals
    assert [s.rating for s in first1.seats] == [None, None, None]  # nobody rated yet
    assert rated1.seats[1].rating == rated1.seats[2].rating is not None  # the game made them
    assert [s.rating for s in first2.seats] == [s.rating for s in rated1.seats]  # shown at the next table
    assert [s.rating for s in rated2.seats] == [ann, computer, computer]
    assert len(played) == 2 and all(g.rated for g in played)


@pytest.mark.parametrize("same", [False, True], ids=["no key", "one key twice"])
def test_a_person_without_a_key_or_a_key_in_two_seats_leaves_the_game_unrated(tmp_path, same):
    async def game():
        async with running(tmp_path) as (_server, url):
            opened = await open_table(url, new_table(("open", "open", "random")))
            key = new_key()
            one = SeatClient(url, code=opened.code, name="Ann", key=key)
            two = SeatClient(url, code=opened.code, name="Bo", key=key if same else None)
            async with one, two:
                await one.join()
                await two.join()
                async with asyncio.timeout(WAIT):
                    await asyncio.gather(play_randomly(one, Random(1)), play_randomly(two, Random(2)))
        return one.key  # the server has stopped: the game it filed is settled

    key = asyncio.run(game())
    store = SqlitePlayerStore(tmp_path / "players.sqlite3")
    ann = store.player_of(digest(key or ""))
    assert store.top(10) == [] and ann is not None
    played = store.games(ann, 10)
    assert len(played) == (2 if same else 1)  # a key that sat twice has the game in both seats
    assert not any(g.rated for g in played) and played[0].names[:2] == ("Ann", "Bo")


def test_a_bad_key_in_a_hello_is_refused_in_one_line(tmp_path):
    async def hello():
        async with running(tmp_path) as (_server, url):
            opened = await open_table(url, new_table(("open", "random", "random")))
            async with SeatClient(url, code=opened.code, name="Ann", key="not a key") as client:
                with pytest.raises(Exception) as caught:
                    await client.join()
            return caught.value

    refusal = asyncio.run(hello())
    assert "a player key is 43 letters" in str(refusal)


def test_the_rating_beside_the_names_is_the_presenter_s_for_every_front_end():
    import io
    from types import SimpleNamespace

    from stepping_stones.engine import Game, Rules
    from stepping_stones.flow import TableState
    from stepping_stones.flow.presenter import present, seat_caption
    from stepping_stones.plain.remote import introduce
    from stepping_stones.tui.drawing import Scene, table_canvas
    from stepping_stones.tui.render import Look

    game = Game(Rules(), ["Ann", "Kenji", "Bo"], 0)
    game.deal_hand(Random(3))
    state = TableState.of(game.view(0), seats=("person", "computer", "person, away"), ratings=(1012, 1130, None))
    assert [s.rating for s in present(state).seats] == [1012, 1130, None]  # the page's
    assert [seat_caption(state, s) for s in range(3)] == ["person, rated 1012", "computer, rated 1130", "person, away"]
    canvas = table_canvas(Scene(state, Look()), 76, 16).plain  # the app's table
    assert "(computer, rated 1130)" in canvas and "(person, away)" in canvas
    out = io.StringIO()
    introduce(SimpleNamespace(state=state), out)  # plain mode's first lines
    assert "Kenji (computer, rated 1130) and Bo (person, away)" in out.getvalue()
    unrated = TableState.of(game.view(0), seats=("person", "computer", "person"))
    assert [seat_caption(unrated, s) for s in range(3)] == ["person", "computer", "person"]
    assert [s.rating for s in present(unrated).seats] == [None, None, None]


def test_the_lobbies_say_the_seats_ratings_before_the_start():
    from stepping_stones.net.protocol import SeatFacts
    from stepping_stones.plain.remote import seats_line
    from stepping_stones.tui.online import seat_lines

    seats = [
        SeatFacts(name="Ann", kind="human", level=None, connected=True, stand_in=False, rating=1012),
        SeatFacts(name="Hana", kind="computer", level="expert", connected=True, stand_in=False, rating=1130),
        SeatFacts(name=None, kind="open", level=None, connected=False, stand_in=False),
    ]
    line = seats_line(seats, 0)  # plain mode's
    assert line == "Seats: seat 1: you (person, rated 1012); seat 2: Hana (computer, rated 1130); seat 3: open."
    assert "Hana (computer, rated 1130)" in seat_lines(None, 0).plain + seat_lines(_state(seats), 0).plain


def _state(seats):
    from stepping_stones.net.protocol import StateMessage

    return StateMessage(seq=0, started=False, seats=seats, help=False, view=None, legal=[], waiting=None)


def test_plain_mode_says_the_ratings_the_finished_game_made():
    """The app's table and the page show the ratings beside the names as they change; plain mode
    says them once the server has rated the finished game, in the presenter's words."""
    import io
    from types import SimpleNamespace

    from stepping_stones.ai import make_ai
    from stepping_stones.engine import Game, Rules
    from stepping_stones.flow import TableState
    from stepping_stones.flow.presenter import ratings_news
    from stepping_stones.game.match import Seeds, drive
    from stepping_stones.plain.remote import RemotePlain

    game = Game(Rules(short_game=True), ["Ann", "Kenji", "Bo"], 0)
    playing = TableState.of(game.view(0), seats=("person", "computer", "person"), ratings=(1012, 1130, None))
    seeds = Seeds.series("ratings-news", 0)
    drive(game, [make_ai("random")] * 3, seeds)
    over = TableState.of(game.view(0), seats=("person", "computer", "person"), ratings=(1012, 1130, None))
    rated = TableState.of(game.view(0), seats=("person", "computer", "person"), ratings=(1030, 1121, 995))
    assert ratings_news(playing, playing) is None and ratings_news(playing, over) is None  # not over, not moved
    news = "The ratings after this game: you 1030 (was 1012), Kenji 1121 (was 1130), Bo 995."
    assert ratings_news(over, rated) == news
    out = io.StringIO()
    plain = RemotePlain(SimpleNamespace(state=over, subscribe=lambda _tell: None), None, None, out)
    plain.tell(rated)
    assert out.getvalue().splitlines()[-1] == news


def test_two_processes_settling_two_games_of_one_player_at_once_lose_no_rating(postgres_dsn):
    """Two processes on one PostgreSQL store settle, at the same moment, two games in which Ann
    played: each must rate her from the rating the other made (a row lock), not both from the one
    before (the later write would undo the earlier game).  The test holds Ann's row until both
    settlements wait for it, then lets them go."""
    import threading

    import psycopg

    from stepping_stones.net.pgstore import PostgresPlayerStore

    first, second = PostgresPlayerStore(postgres_dsn), PostgresPlayerStore(postgres_dsn)
    ann, bo, cy = digest(new_key()), digest(new_key()), digest(new_key())
    ann_id = first.join(ann, "Ann")
    one = _game("1" * 16, [ann, bo, None], [None, None, "expert"], (1, 2, 3))
    two = _game("2" * 16, [ann, cy, None], [None, None, "random"], (3, 1, 2))
    settled: list[bool] = []
    with (
        psycopg.connect(postgres_dsn, autocommit=True) as holder,
        psycopg.connect(postgres_dsn, autocommit=True) as look,
    ):
        with holder.transaction():
            holder.execute("SELECT 1 FROM players WHERE id = %s FOR UPDATE", (ann_id,))
            threads = [
                threading.Thread(target=lambda s=s, g=g: settled.append(s.settle(g)))
                for s, g in ((first, one), (second, two))
            ]
            for thread in threads:
                thread.start()
            waiting = 0
            for _ in range(int(WAIT * 100)):  # until both wait for a lock, each on its own connection
                row = look.execute(
                    "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' "
                    "AND application_name = 'stepping-stones players'"
                ).fetchone()
                waiting = row[0] if row else 0
                if waiting == 2:
                    break
                look.execute("SELECT pg_sleep(0.01)")
            assert waiting == 2
        for thread in threads:
            thread.join(WAIT)
    assert settled == [True, True]
    # in one order or the other, each game rated from the rating the other left
    start = {ann_id: fresh(), "b": fresh(), "c": fresh(), "e": fresh(), "r": fresh()}
    a1 = rate([ann_id, "b", "e"], start, one.places)[ann_id]
    a12 = rate([ann_id, "c", "r"], {**start, ann_id: a1}, two.places)[ann_id]
    a2 = rate([ann_id, "c", "r"], start, two.places)[ann_id]
    a21 = rate([ann_id, "b", "e"], {**start, ann_id: a2}, one.places)[ann_id]
    assert first.rating(ann_id) in (shown(a12), shown(a21))
    assert first.rating(ann_id) not in (shown(a1), shown(a2))
    assert {g.table for g in second.games(ann_id, 10)} == {"1" * 16, "2" * 16}
    assert [r.rated for r in first.top(10) if r.name == "Ann"] == [2]
    first.close()
    second.close()


def test_a_seat_s_rating_is_looked_up_off_the_server_s_loop(tmp_path):
    """When someone sits down, their rating is read from the players' store, which may be a
    database across the network: while that read waits, the server's loop serves everyone else
    (another table is opened meanwhile).  On the loop, the read held every table up."""
    import threading

    gate = threading.Event()
    waits: list[bool] = []  # whether each read had to give up waiting for the test

    class SlowStore(SqlitePlayerStore):
        def player_of(self, key: str) -> str | None:
            waits.append(not gate.wait(5.0))
            return super().player_of(key)

    async def scenario() -> None:
        async with running(tmp_path) as (server, url):
            server.tables.players = SlowStore(tmp_path / "slow.sqlite3")
            opened = await open_table(url, new_table(("open", "random", "random")))
            async with SeatClient(url, code=opened.code, name="Ann", key=new_key()) as ann:
                joining = asyncio.ensure_future(ann.join())
                await open_table(url, new_table(("open", "random", "random")))  # the loop answers meanwhile
                gate.set()
                async with asyncio.timeout(WAIT):
                    await joining

    asyncio.run(scenario())
    assert waits and not any(waits), waits
