"""``stepping-stones nginx``: the nginx configuration that docs/online.md shows, that the tests run
in front of one process (test_net_proxy.py) and of two (shards_support.py), and that the load test
runs (``net/nginx.py``, written once)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from test_net_proxy import NGINX

DOCS = Path(__file__).parent.parent / "docs" / "online.md"


def _nginx(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "stepping_stones", "nginx", *args], capture_output=True, text=True, timeout=60
    )


def _block(section: str) -> str:
    text = DOCS.read_text().split(section, 1)[1]
    return text.split("```nginx\n", 1)[1].split("```", 1)[0]


@pytest.mark.parametrize(
    ("section", "servers"),
    [("## Behind a reverse proxy", ["127.0.0.1:8765"]), ("## Past one process", ["127.0.0.1:8765", "127.0.0.1:8766"])],
)
def test_the_documented_configuration_is_what_the_command_prints(section, servers):
    printed = _nginx("--public-url", "https://tables.example.org", *servers)
    assert printed.returncode == 0, printed.stderr
    assert _block(section) == printed.stdout


def test_several_servers_are_hashed_on_the_table_and_one_that_fails_is_skipped_for_a_moment_only():
    printed = _nginx("--public-url", "http://tables.example.org:8080", "127.0.0.1:8765", "[::1]:8766").stdout
    lines = [line.split("#", 1)[0].strip() for line in printed.splitlines()]
    assert "hash $table consistent;" in lines
    assert "server 127.0.0.1:8765 max_fails=1 fail_timeout=5s;" in lines
    assert "server [::1]:8766 max_fails=1 fail_timeout=5s;" in lines
    assert "listen 8080;" in lines and "server_name tables.example.org;" in lines
    assert not any("ssl" in line for line in lines)


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["--public-url", "ftp://x", "127.0.0.1:8765"], "nginx: --public-url 'ftp://x' must be an http:// or https://"),
        (["--public-url", "https://x/path", "127.0.0.1:8765"], "must be only a scheme, a host and a port"),
        (["--public-url", "https://x", "127.0.0.1"], "'127.0.0.1' is not ADDRESS:PORT"),
        (["--public-url", "https://x", "127.0.0.1:70000"], "'127.0.0.1:70000' is not ADDRESS:PORT"),
        (["--public-url", "https://x", "127.0.0.1:1;evil"], "'127.0.0.1:1;evil' is not ADDRESS:PORT"),
        (["--public-url", "https://x", "a b:1"], "'a b:1' is not ADDRESS:PORT"),
    ],
)
def test_what_is_not_an_address_is_refused_in_one_line(args, said):
    printed = _nginx(*args)
    assert printed.returncode == 2 and printed.stdout == ""
    assert said in printed.stderr and "Traceback" not in printed.stderr


@pytest.mark.skipif(NGINX is None, reason="nginx is not installed (Debian: apt-get install nginx-light)")
@pytest.mark.parametrize("servers", [["127.0.0.1:8765"], ["127.0.0.1:8765", "127.0.0.1:8766", "[::1]:8767"]])
def test_nginx_itself_accepts_what_the_command_prints(tmp_path, servers):
    assert NGINX is not None
    site = _nginx("--public-url", "http://tables.example.org:8080", *servers).stdout
    conf = tmp_path / "nginx.conf"
    temps = (
        "client_body_temp_path body; proxy_temp_path proxy; fastcgi_temp_path f; uwsgi_temp_path u; scgi_temp_path s;"
    )
    conf.write_text(f"error_log stderr;\npid nginx.pid;\nevents {{ }}\nhttp {{\n{temps}\n{site}}}\n")
    checked = subprocess.run([NGINX, "-t", "-p", str(tmp_path), "-c", str(conf)], capture_output=True, text=True)
    assert checked.returncode == 0, checked.stderr
