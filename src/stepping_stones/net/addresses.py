"""What counts as a web address wherever one is given (``join --server``, ``serve --public-url``):
an http:// or https:// URL with a host.  Each caller words its own refusal."""

from __future__ import annotations

from typing import Literal

from yarl import URL

Problem = Literal["not a URL", "not http"]


def http_address(text: str) -> URL | Problem:
    """``text`` as a URL, or what is wrong with it: not a URL at all, or not http(s) with a host.

    >>> http_address("http://127.0.0.1:8765").port, http_address("ftp://x"), http_address("http://[")
    (8765, 'not http', 'not a URL')
    """
    try:
        url = URL(text)
    except ValueError:
        return "not a URL"
    if url.scheme not in ("http", "https") or not url.host:
        return "not http"
    return url
