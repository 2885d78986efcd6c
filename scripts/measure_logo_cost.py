"""What checking a club's logo costs (``net/logos.felt_logo``): CPU seconds (``time.process_time``)
and the growth of the peak memory (``VmHWM``, reset through ``/proc/self/clear_refs``: Linux) of a
fresh process, for the largest images a table's opener may
send and for a decompression bomb.

    python scripts/measure_logo_cost.py

Each image is made here with Pillow (a gradient with mild noise: a picture that compresses like a
photograph, under the 5 MB limit), written to a temporary folder, then checked in a process of its
own (three times; the median CPU time).  The note that quotes the figures:
docs/lab/2026-12-07-logo-cost.md."""

from __future__ import annotations

import argparse
import io
import subprocess
import sys
import tempfile
from pathlib import Path

CHILD = """
import statistics, sys, time
from stepping_stones.net.logos import LogoRefused, felt_logo
data = open(sys.argv[1], "rb").read()
import PIL.Image, PIL.PngImagePlugin, PIL.JpegImagePlugin, PIL.WebPImagePlugin  # loaded before the peak is reset
def rss(field):
    return next(int(l.split()[1]) for l in open("/proc/self/status") if l.startswith(field))
open("/proc/self/clear_refs", "w").write("5")  # Linux: the peak (VmHWM) starts again from now
before = rss("VmHWM:")
times, outcome = [], ""
for _ in range(3):
    start = time.process_time()
    try:
        outcome = f"{len(felt_logo(data)):,} bytes out"
    except LogoRefused as exc:
        outcome = f"refused ({exc})"
    times.append(time.process_time() - start)
grew = (rss("VmHWM:") - before) / 1024
print(f"{len(data) / 1e6:5.2f} MB in, {statistics.median(times):.3f} s CPU, peak +{grew:.0f} MiB: {outcome}")
"""


def _picture(kind: str, size: tuple[int, int], **save: object) -> bytes:
    from PIL import Image

    base = Image.linear_gradient("L").resize(size).convert("RGB")
    noise = Image.effect_noise(size, 6).convert("RGB")
    out = io.BytesIO()
    Image.blend(base, noise, 0.15).save(out, format=kind, **save)
    return out.getvalue()


def _bomb() -> bytes:
    from PIL import Image

    out = io.BytesIO()
    Image.new("1", (30_000, 30_000)).save(out, format="PNG", optimize=True)
    return out.getvalue()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument(
        "--only", action="append", help="measure only this case (its name, as printed); may be repeated"
    )
    args = parser.parse_args()
    cases = {
        "JPEG 5000x5000": lambda: _picture("JPEG", (5000, 5000), quality=80),
        "PNG 3000x3000": lambda: _picture("PNG", (3000, 3000), optimize=True),
        "WEBP 5000x5000": lambda: _picture("WEBP", (5000, 5000), quality=80),
        "WEBP 4000x3000": lambda: _picture("WEBP", (4000, 3000), quality=80),
        "JPEG 4000x3000": lambda: _picture("JPEG", (4000, 3000), quality=80),
        "PNG 1000x500": lambda: _picture("PNG", (1000, 500)),
        "bomb PNG 30000x30000": _bomb,
    }
    unknown = [name for name in args.only or () if name not in cases]
    if unknown:
        parser.error(f"no case called {unknown[0]!r}: the cases are {', '.join(cases)}")
    with tempfile.TemporaryDirectory() as folder:
        for name, make in cases.items():
            if args.only and name not in args.only:
                continue
            path = Path(folder) / "logo"
            path.write_bytes(make())
            line = subprocess.run(
                [sys.executable, "-c", CHILD, str(path)], capture_output=True, text=True, check=True
            ).stdout.strip()
            print(f"{name:22} {line}")


if __name__ == "__main__":
    main()
