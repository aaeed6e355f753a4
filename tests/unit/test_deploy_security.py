"""The deployment's sketch and the pinned toolchain: behind nginx every route, the events' websocket included,
gets the client's address with the one trusted hop the site is told about; setuptools is past CVE-2024-6345."""

from __future__ import annotations

import re
import subprocess
import sys
from importlib.metadata import version
from pathlib import Path

from packaging.version import Version

ROOT = Path(__file__).resolve().parents[2]
FIXED_SETUPTOOLS = Version("70.0.0")  # CVE-2024-6345 (package_index code injection) is fixed from 70.0.0 on


def _locations(conf: str) -> dict[str, str]:
    return {m.group(1): m.group(2) for m in re.finditer(r"location\s+(\S+)\s*\{(.*?)\n\s*\}", conf, re.S)}


def test_every_proxied_route_passes_the_clients_address() -> None:
    locations = _locations((ROOT / "deploy" / "nginx.conf").read_text(encoding="utf-8"))
    assert {"/_event", "/"} <= set(locations)
    for path, body in locations.items():
        if "proxy_pass" in body:
            assert re.search(r"proxy_set_header\s+X-Forwarded-For\s+\$proxy_add_x_forwarded_for;", body), path
            assert re.search(r"proxy_set_header\s+Host\s+\$host;", body), path


def test_the_site_behind_the_proxy_trusts_exactly_one_hop() -> None:
    unit = (ROOT / "deploy" / "discard-web.service").read_text(encoding="utf-8")
    [hops] = re.findall(r"^Environment=REFLEX_TRUSTED_PROXY_HOPS=(\d+)$", unit, re.M)
    assert hops == "1"
    # Reflex reads it: the websocket's client address is the last X-Forwarded-For entry, the one nginx appended.
    probe = "import reflex as rx; print(rx.Config(app_name='probe').trusted_proxy_hops)"
    done = subprocess.run(
        [sys.executable, "-c", probe],
        env={"REFLEX_TRUSTED_PROXY_HOPS": hops, "PATH": "/usr/bin:/bin", "REFLEX_CHECK_LATEST_VERSION": "0"},
        capture_output=True, text=True, check=True, cwd="/",
    )  # fmt: skip
    assert done.stdout.strip().splitlines()[-1] == "1"


def test_setuptools_is_pinned_and_installed_past_the_fix() -> None:
    lock = (ROOT / "requirements.lock").read_text(encoding="utf-8")
    [pinned] = re.findall(r"^setuptools==(\S+)$", lock, re.M)
    assert Version(pinned) >= FIXED_SETUPTOOLS
    assert Version(version("setuptools")) >= FIXED_SETUPTOOLS
    build = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    [floor] = re.findall(r'requires = \["setuptools>=([\d.]+)"\]', build)
    assert Version(floor) >= FIXED_SETUPTOOLS
