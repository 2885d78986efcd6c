"""A club's logo on the felt (``net/logos.py``): hostile images get one clear refusal (a
decompression bomb, a huge or animated image, another format, a damaged file, one too large), a
good one is written again as a small PNG without its metadata, served, shown to the table's
seats, and deleted with its table; ``host --logo`` refuses a bad file in one line."""

from __future__ import annotations

import asyncio
import io
from pathlib import Path
from random import Random

import aiohttp
import pytest
from PIL import Image, PngImagePlugin

from net_support import WAIT, Clock, new_table, running
from stepping_stones.cli import main
from stepping_stones.net.client import SeatClient, open_table, play_randomly
from stepping_stones.net.limits import Limits
from stepping_stones.net.logos import FELT_SIDE, MAX_BYTES, LogoRefused, felt_logo
from stepping_stones.net.protocol import Felt


def _image(kind: str = "PNG", size: tuple[int, int] = (600, 300), mode: str = "RGB", **save) -> bytes:
    out = io.BytesIO()
    Image.new(mode, size, (200, 30, 30) if mode == "RGB" else 0).save(out, format=kind, **save)
    return out.getvalue()


def _bomb() -> bytes:
    """A PNG of 30,000 x 30,000 one-bit pixels: some tens of kilobytes that decode to 900 million."""
    return _image("PNG", (30_000, 30_000), mode="1", optimize=True)


def _animated() -> bytes:
    out = io.BytesIO()
    frames = [Image.new("RGB", (40, 40), c) for c in ((255, 0, 0), (0, 0, 255))]
    frames[0].save(out, format="PNG", save_all=True, append_images=frames[1:])
    return out.getvalue()


def test_a_good_logo_is_made_small_and_loses_its_metadata():
    info = PngImagePlugin.PngInfo()
    info.add_text("Comment", "gps 51.5N 0.1W, the owner's secret")
    for data in (_image("PNG", pnginfo=info), _image("JPEG"), _image("WEBP")):
        png = felt_logo(data)
        with Image.open(io.BytesIO(png)) as shown:
            assert shown.format == "PNG" and max(shown.size) == FELT_SIDE and shown.size == (FELT_SIDE, FELT_SIDE // 2)
            assert not shown.text
        assert b"secret" not in png


@pytest.mark.parametrize(
    ("make", "words"),
    [
        (_bomb, "pixels"),
        (lambda: _image("PNG", (12_000, 10)), "12,000 x 10 pixels"),
        (_animated, "animated"),
        (lambda: _image("GIF"), "PNG, JPEG or WebP"),
        (lambda: b"<svg xmlns='http://www.w3.org/2000/svg' onload='alert(1)'/>", "PNG, JPEG or WebP"),
        (lambda: _image("PNG")[:200], "damaged"),
        (lambda: b"", "empty"),
        (lambda: _image("PNG")[:8] + b"\0" * (MAX_BYTES + 1), "at most 5 MB"),
    ],
    ids=["bomb", "huge", "animated", "gif", "svg", "truncated", "empty", "oversize"],
)
def test_a_hostile_image_gets_one_clear_refusal(make, words):
    with pytest.raises(LogoRefused) as refused:
        felt_logo(make())
    line = str(refused.value)
    assert words in line and "\n" not in line and len(line) < 200


def test_the_server_checks_serves_shows_and_deletes_a_logo(tmp_path):
    clock = Clock()
    limits = Limits(tables_per_minute=4)

    async def scenario() -> Path:
        async with running(tmp_path / "server", limits=limits, clock=clock) as (_server, url):
            async with aiohttp.ClientSession() as session:
                for data, status, words in (
                    (_bomb(), 400, "pixels"),
                    (_image("GIF"), 400, "PNG, JPEG or WebP"),
                    (b"\0" * (MAX_BYTES + 10), 413, "at most 5 MB"),
                ):
                    async with session.post(url + "/logos", data=data) as r:
                        assert r.status == status and words in (await r.json())["message"]
                async with session.post(url + "/logos", data=_image(), headers={"Origin": "http://evil.example"}) as r:
                    assert r.status == 403
                async with session.post(url + "/logos", data=_image(), headers={"Host": "evil.example"}) as r:
                    assert r.status == 403
                async with session.post(url + "/logos", data=_image()) as r:  # the address's fourth
                    assert r.status == 200
                async with session.post(url + "/logos", data=_image()) as r:  # its fifth in a minute: refused
                    assert r.status == 429 and "too many logos" in (await r.json())["message"]
                clock.now += 60  # a minute later
                async with session.post(url + "/logos", data=_image()) as r:
                    assert r.status == 200
                    logo = (await r.json())["logo"]
                unknown = new_table(logo="0" * 32, club="Koi Club").model_dump()
                async with session.post(url + "/tables", json=unknown) as r:
                    assert r.status == 400 and "no logo of that name" in (await r.json())["message"]
                async with session.get(url + "/logo/../tables.png") as r:
                    assert r.status == 404
            opened = await open_table(url, new_table(("open", "open", "random"), logo=logo, club="Koi Club"))
            bots = [SeatClient(url, code=opened.code, name=n) for n in ("Ann", "Bo")]
            for bot in bots:
                await bot.join()
            async with asyncio.timeout(WAIT):
                while not isinstance(felt := await bots[0].receive(), Felt):
                    pass
            assert felt == Felt(club="Koi Club", logo=f"/logo/{logo}.png")
            async with aiohttp.ClientSession() as session, session.get(url + felt.logo) as r:
                assert r.status == 200 and r.content_type == "image/png"
                with Image.open(io.BytesIO(await r.read())) as shown:
                    assert max(shown.size) == FELT_SIDE
            kept = tmp_path / "server" / "logos" / f"{logo}.png"
            assert kept.stat().st_mode & 0o777 == 0o600 and kept.parent.stat().st_mode & 0o777 == 0o700
            async with asyncio.timeout(WAIT):
                await asyncio.gather(*(play_randomly(b, Random(i)) for i, b in enumerate(bots)))
            for bot in bots:
                await bot.close()
        return kept  # stopped: every change, the filing too, is done

    kept = asyncio.run(scenario())
    assert not kept.exists()  # the game filed: its table and its logo gone
    assert not list((tmp_path / "server" / "logos").glob("*.json"))


def test_host_refuses_a_bad_logo_in_one_line(tmp_path, capsys):
    bomb = tmp_path / "bomb.png"
    bomb.write_bytes(_bomb())
    assert main(["host", "--data-dir", str(tmp_path / "d"), "--logo", str(bomb)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "host: --logo" in err and "pixels" in err
    assert main(["host", "--data-dir", str(tmp_path / "d"), "--logo", str(tmp_path / "none.png")]) == 2
    assert "no such file" in capsys.readouterr().err


def test_watchers_see_the_club_s_logo_and_the_terminal_watchers_its_line(tmp_path):
    """The logo is on the felt for everyone at the table, spectators included: a watcher is sent
    the table's ``felt`` before what everyone sees, and the terminal's watchers show the club's
    line as the seats' clients say it."""
    from stepping_stones.net.client import watch_table
    from stepping_stones.net.protocol import Watched
    from stepping_stones.net.remote import club_line
    from stepping_stones.net.watching import watch_presentation
    from stepping_stones.tui.watching import watch_text

    async def scenario() -> list[object]:
        async with running(tmp_path / "server") as (_server, url):
            async with aiohttp.ClientSession() as session, session.post(url + "/logos", data=_image()) as r:
                logo = (await r.json())["logo"]
            opened = await open_table(url, new_table(("open", "open", "random"), logo=logo, club="Koi Club"))
            plain = await open_table(url, new_table(("open", "open", "random")))
            got: list[object] = []
            for table in (opened, plain):
                async with asyncio.timeout(WAIT):
                    async for message in watch_table(url, table.watch or ""):
                        got.append(message)
                        if isinstance(message, Watched):
                            break
            return [logo, *got]

    logo, felt, watched, plain_watched = asyncio.run(scenario())
    assert felt == Felt(club="Koi Club", logo=f"/logo/{logo}.png")
    assert isinstance(watched, Watched) and isinstance(plain_watched, Watched)  # no felt without a club
    line = club_line("Koi Club")
    assert line == "At the table of Koi Club."
    assert watch_text(watch_presentation(watched), line).plain.startswith(line + "\n")


def test_with_two_processes_a_table_keeps_its_logo_whichever_process_opens_holds_or_serves_it(proxied):
    """Two processes on PostgreSQL (``shards_support.proxied``), each asked as nginx asks it (the
    public Host, the client's address forwarded), since nginx sends the requests without a table in
    their path to either: a logo sent to one, a table opened with it on the other, taken up by the
    first when a seat comes back to it on the table's own path, where it shows the logo and the
    club; and the image served by both (before, each process kept the logos in its own data folder:
    "no logo of that name", or a felt without its logo)."""
    first, second = (f"http://127.0.0.1:{port}" for port in proxied.ports)
    as_nginx = {"Host": proxied.public.split("//", 1)[1], "X-Forwarded-For": "127.0.0.1"}

    async def scenario() -> None:
        async with aiohttp.ClientSession(headers=as_nginx) as session:
            async with session.post(first + "/logos", data=_image()) as r:
                assert r.status == 200, await r.text()
                logo = (await r.json())["logo"]
            opened = await open_table(second, new_table(logo=logo, club="Koi Club"), session)
            assert proxied.holder(opened.table) == proxied.ports[1]
            ann = SeatClient(first, code=opened.code, name="Ann", session=session, retry_seconds=WAIT)
            ann.url = ann.url.with_path(f"/t/{opened.table}/ws")  # as a client that keeps its table
            try:
                await ann.join()
                async with asyncio.timeout(WAIT):
                    while not isinstance(felt := await ann.receive(), Felt):
                        pass
                assert proxied.holder(opened.table) == proxied.ports[0]  # taken up from the other
                assert felt == Felt(club="Koi Club", logo=f"/logo/{logo}.png")
            finally:
                await ann.close()
            for server in (first, second):
                async with session.get(server + felt.logo) as r:
                    assert r.status == 200 and r.content_type == "image/png"

    asyncio.run(scenario())


def test_the_shared_store_keeps_a_logo_while_a_table_shows_it(postgres_dsn):
    """``PostgresLogos``: a logo sent is there for every process; a table's choice is kept until the
    table is gone; then the logos no table shows go, once they were sent long enough ago that no
    table about to be opened may still name them."""
    from stepping_stones.net.pgstore import PostgresLogos

    logos = PostgresLogos(postgres_dsn)
    try:
        a, b = "a" * 32, "b" * 32
        logos.put(a, b"A")
        logos.put(b, b"B")
        logos.keep("t1", a, "Koi Club")
        logos.keep("t2", a, None)
        assert logos.of_many(["t1", "t2", "t3"]) == {"t1": (a, "Koi Club"), "t2": (a, None)}
        assert logos.known(a) and logos.image(b) == b"B" and not logos.known("c" * 32)
        logos.forget("t1", 600.0)  # b was sent just now: a table about to be opened may name it
        assert logos.of_many(["t1", "t2"]) == {"t2": (a, None)}
        assert logos.image(a) == b"A" and logos.known(b)
        logos.forget("t2", 0.0)
        assert not logos.known(a) and not logos.known(b)
    finally:
        logos.close()
