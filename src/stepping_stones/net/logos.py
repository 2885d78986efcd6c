"""A club's logo on the felt: checked, re-encoded, kept with its table and deleted with it.

Whoever opens a table may send a logo first (``POST /logos``: the image's bytes, at most
``MAX_BYTES``), and name it in the table's request (``NewTable.logo``, with the club's name in
``NewTable.club``); ``host --logo FILE`` gives every table without one of its own the host's.  An
image is read by Pillow from what its header says, before a pixel is decoded: only PNG, JPEG and
WebP, at most ``MAX_PIXELS`` pixels and ``MAX_SIDE`` a side (a decompression bomb says it is huge,
and is refused there), one frame (no animation); then decoded (a malformed file is refused) and
written again as a PNG of at most ``FELT_SIDE`` a side, with nothing of the original's metadata.
Each refusal is one line (``LogoRefused``).

A logo is kept under its digest in the data folder's ``logos/``; a table's logo and club are kept
beside it (``logos/TABLE.json``) while the table lives (a restart finds them), and both go when
the table goes, the image once no table of the server uses it.  ``GET /logo/DIGEST.png`` serves
it, under the page's content security policy (``img-src 'self'``).  On a store that several
processes share (``SharedLogos``: ``pgstore.PostgresLogos``), the logos and the tables' choice of
them are kept there instead, so that a logo sent to one process serves a table opened on another,
and a table keeps its logo when another process takes it up; the host's own (``--logo``) stays in
each process's folder.
"""

from __future__ import annotations

import hashlib
import io
import json
import re
import time
import warnings
from collections import OrderedDict
from collections.abc import Callable
from pathlib import Path
from typing import Final, Protocol

from ..engine import SteppingStonesError

__all__ = ["FELT_SIDE", "MAX_BYTES", "LogoRefused", "Logos", "felt_logo"]

MAX_BYTES: Final = 5 * 1024 * 1024
"""The largest logo a table's opener may send, in bytes."""
MAX_PIXELS: Final = 12_000_000
"""The most pixels a logo may have (a phone's 12-megapixel photograph): past them it is refused
from its header, before it is decoded (a decompression bomb is a small file that says it is huge).
Decoding is what costs: a WebP of 25 million pixels took some 380 MiB, one of 12 million some
180 MiB (docs/lab/2026-12-07-logo-cost.md); one logo is decoded at a time."""
MAX_SIDE: Final = 10_000
FELT_SIDE: Final = 256
"""The largest side of a logo as the felt shows it, in pixels."""
FORMATS: Final = ("PNG", "JPEG", "WEBP")
PENDING_KEPT: Final = 64  # logos sent and not yet named by a table (the oldest forgotten first)
PENDING_SECONDS: Final = 600.0
DIGEST: Final = re.compile(r"[0-9a-f]{32}")
DEFAULT: Final = "default"


class LogoRefused(SteppingStonesError, ValueError):
    """A logo that is not taken, in one line."""


def felt_logo(data: bytes) -> bytes:
    """``data`` (a PNG, JPEG or WebP) as the felt shows it: a PNG of at most ``FELT_SIDE`` a side,
    without metadata.  Raises ``LogoRefused`` with one reason."""
    from PIL import Image, UnidentifiedImageError

    if len(data) > MAX_BYTES:
        raise LogoRefused(f"a logo is at most {MAX_BYTES // (1024 * 1024)} MB; this one is {len(data):,} bytes")
    if not data:
        raise LogoRefused("the logo is empty: send a PNG, JPEG or WebP image")
    with warnings.catch_warnings():
        warnings.simplefilter("error", Image.DecompressionBombWarning)
        try:
            image = Image.open(io.BytesIO(data), formats=FORMATS)  # the header only
        except UnidentifiedImageError:
            raise LogoRefused("a logo is a PNG, JPEG or WebP image, and this is none of them") from None
        except (Image.DecompressionBombError, Image.DecompressionBombWarning):
            raise LogoRefused(f"the logo says it has far too many pixels (at most {MAX_PIXELS:,})") from None
        except Exception as exc:  # a header Pillow cannot read: said by its kind
            raise LogoRefused(f"the logo cannot be read ({type(exc).__name__})") from None
        with image:
            width, height = image.size
            if width < 1 or height < 1 or width > MAX_SIDE or height > MAX_SIDE or width * height > MAX_PIXELS:
                raise LogoRefused(
                    f"the logo is {width:,} x {height:,} pixels: at most {MAX_SIDE:,} a side and {MAX_PIXELS:,} in all"
                )
            if getattr(image, "n_frames", 1) != 1:
                raise LogoRefused("the logo is animated: send a single still image")
            try:  # decoded here (a JPEG at a reduced scale: draft mode), and made small
                image.thumbnail((FELT_SIDE, FELT_SIDE))
                still = image.convert("RGBA")
            except (Image.DecompressionBombError, Image.DecompressionBombWarning):
                raise LogoRefused(f"the logo has far too many pixels (at most {MAX_PIXELS:,})") from None
            except Exception as exc:  # truncated, corrupt: said by its kind, never a traceback
                raise LogoRefused(f"the logo is damaged and cannot be read ({type(exc).__name__})") from None
    out = io.BytesIO()
    still.save(out, format="PNG", optimize=True)
    return out.getvalue()


class SharedLogos(Protocol):
    """The logos in a store that several processes share (``pgstore.PostgresLogos`` says what each
    does); each raises ``OSError`` when the store fails."""

    def put(self, digest: str, png: bytes) -> None: ...

    def image(self, digest: str) -> bytes | None: ...

    def known(self, digest: str) -> bool: ...

    def keep(self, table: str, digest: str | None, club: str | None) -> None: ...

    def of_many(self, tables: list[str]) -> dict[str, tuple[str | None, str | None]]: ...

    def forget(self, table: str, unnamed_seconds: float) -> None: ...


class Logos:
    """The logos of one server, in ``folder``, or in ``shared`` (see the module's docstring)."""

    def __init__(
        self, folder: Path, clock: Callable[[], float] = time.monotonic, shared: SharedLogos | None = None
    ) -> None:
        self.folder = folder
        self.clock = clock
        self.shared = shared
        self.pending: OrderedDict[str, tuple[bytes, float]] = OrderedDict()  # digest -> (png, when sent)
        self.tables: dict[str, tuple[str | None, str | None]] = {}  # table id -> (digest, club)

    def sent(self, png: bytes) -> str:
        """A checked logo sent before its table is opened: its digest, good for ``PENDING_SECONDS``."""
        digest = hashlib.sha256(png).hexdigest()[:32]
        now = self.clock()
        self.pending[digest] = (png, now)
        self.pending.move_to_end(digest)
        while len(self.pending) > PENDING_KEPT or next(iter(self.pending.values()))[1] < now - PENDING_SECONDS:
            self.pending.popitem(last=False)
        if self.shared is not None:  # for a table opened on another process (raises OSError)
            self.shared.put(digest, png)
        return digest

    def known(self, digest: str) -> bool:
        if digest in self.pending or (DIGEST.fullmatch(digest) is not None and self._path(digest).is_file()):
            return True
        try:
            return self.shared is not None and DIGEST.fullmatch(digest) is not None and self.shared.known(digest)
        except OSError:
            return False

    def _path(self, digest: str) -> Path:
        return self.folder / f"{digest}.png"

    def _write(self, name: str, png: bytes) -> None:
        """A logo written whole or not at all, its owner's alone (in a folder that is too)."""
        import os
        import tempfile

        from ..storage.files import private_folder

        private_folder(self.folder)
        fd, temp = tempfile.mkstemp(dir=self.folder, suffix=".part")  # made 0600
        try:
            with os.fdopen(fd, "wb") as out:
                out.write(png)
            os.replace(temp, self._path(name))
        except BaseException:
            Path(temp).unlink(missing_ok=True)
            raise

    def set_default(self, png: bytes, club: str | None) -> None:
        """``host --logo FILE`` (``--club NAME``): every table without a logo of its own shows it
        (``png`` empty: the club's name alone)."""
        if png:
            self._write(DEFAULT, png)
        self.tables[DEFAULT] = (DEFAULT if png else None, club)

    def keep(self, table: str, digest: str | None, club: str | None) -> None:
        """The table ``table`` shows the logo ``digest`` (sent before) and the club's name."""
        from ..storage.files import atomic_write, private_folder

        if digest is None and club is None:  # nothing to look for when its people are shown the felt
            self.tables[table] = (None, None)
            return
        if self.shared is not None:  # the image is there since it was sent (raises OSError)
            self.shared.keep(table, digest, club)
            self.tables[table] = (digest, club)
            return
        if digest is not None:
            found = self.pending.get(digest)
            if found is not None and not self._path(digest).is_file():
                self._write(digest, found[0])
        private_folder(self.folder)
        atomic_write(self.folder / f"{table}.json", json.dumps({"logo": digest, "club": club}))
        self.tables[table] = (digest, club)

    def of(self, table: str) -> tuple[str | None, str | None]:
        """The logo's digest (or ``default``) and the club's name a table shows (the host's when
        it has none of its own)."""
        found = self.tables.get(table)
        if found is None and self.shared is not None:  # once a table is taken up by this process
            try:
                self.read([table])
                found = self.tables[table]
            except OSError:
                found = (None, None)  # asked again at the next hello
        if found is None:
            found = (None, None)
            try:
                kept = json.loads((self.folder / f"{table}.json").read_text(encoding="utf-8"))
                logo, club = kept.get("logo"), kept.get("club")
                if (logo is None or DIGEST.fullmatch(str(logo))) and (club is None or isinstance(club, str)):
                    found = (logo, club)
            except (OSError, ValueError, AttributeError):
                pass
            self.tables[table] = found
        default = self.tables.get(DEFAULT, (None, None))
        return found[0] or default[0], found[1] or default[1]

    def read(self, tables: list[str]) -> None:
        """What the shared store keeps of those ``tables`` this process has not read yet, in one
        query (``of`` then finds it).  Raises ``OSError``."""
        if self.shared is None:
            return
        unread = [table for table in tables if table not in self.tables]
        if unread:
            found = self.shared.of_many(unread)
            for table in unread:
                self.tables[table] = found.get(table, (None, None))

    def image(self, name: str) -> bytes | None:
        """The PNG of the logo ``name`` (a digest, or ``default``), if this server has it."""
        if name != DEFAULT and DIGEST.fullmatch(name) is None:
            return None
        try:
            if self.shared is not None and name != DEFAULT:
                return self.shared.image(name)
            return self._path(name).read_bytes()
        except OSError:
            return None

    def drop(self, table: str) -> None:
        """Another process holds the table now: what this one knew of it goes, what is kept stays."""
        self.tables.pop(table, None)

    def forget(self, table: str) -> None:
        """The table is gone: its logo goes with it, once no other table shows it."""
        digest, _club = self.tables.pop(table, (None, None))
        if self.shared is not None:  # raises OSError
            self.shared.forget(table, PENDING_SECONDS)
            return
        (self.folder / f"{table}.json").unlink(missing_ok=True)
        if digest is None or digest == DEFAULT:
            return
        shown = any(d == digest for d, _c in self.tables.values())
        if not shown:  # a table resumed but not asked for yet is found by its file
            shown = any(digest in p.read_text(encoding="utf-8", errors="replace") for p in self.folder.glob("*.json"))
        if not shown:
            self._path(digest).unlink(missing_ok=True)
