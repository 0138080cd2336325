#!/usr/bin/env python3
"""Screenshots of `bailab serve` for docs/serve.md: every game's table in play and the viewer,
at 1280 px and 390 px wide, written to docs/serve/. Needs Playwright for Python and Debian's
chromium (/usr/bin/chromium); downloads no browser.

    cargo build --release && python3 scripts/serve-screenshots.py
"""

import json
import os
import subprocess
import sys
import urllib.request
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
OUT = REPO / "docs" / "serve"
BIN = Path(os.environ.get("CARGO_TARGET_DIR", REPO / "target")) / "release" / "bailab"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
# (game, variant, players, file name part): every game, the fewest seats (2) and the most (8)
TABLES = [("tusac", "classic", 4, "tusac-classic"), ("tusac", "dirtyking26", 6, "tusac-dirtyking26"),
          ("tusac", "sisepai21", 8, "tusac-sisepai21-8p"), ("chan", "standard", 4, "chan-standard"),
          ("chan", "standard", 5, "chan-standard-5p"), ("tienlen", "south", 4, "tienlen-south"),
          ("tienlen", "south", 2, "tienlen-south-2p")]
WIDTHS = [(1280, 900), (390, 844)]


def call(base, method, path, body=None):
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(base + path, data=data, method=method,
                                 headers={"content-type": "application/json"})
    with urllib.request.urlopen(req) as r:
        return json.load(r)


def in_play(base, game, variant, players):
    """A game at the human's turn after a dozen of the agents' moves (the first seed from 5
    whose game is not over by then)."""
    for seed in range(5, 50):
        made = call(base, "POST", "/api/games", {"game": game, "variant": variant,
                                                 "players": players, "seat": 0, "seed": seed})
        gid, state = made["id"], made["state"]
        moves = 0
        while moves < 12 and not state["over"]:
            if state["your_turn"]:
                state = call(base, "POST", f"/api/games/{gid}/act", {"index": 0})
            else:
                state = call(base, "POST", f"/api/games/{gid}/advance")
                moves += 1
        while not state["your_turn"] and not state["over"]:
            state = call(base, "POST", f"/api/games/{gid}/advance")
        if not state["over"]:
            return gid
    raise RuntimeError(f"no game of {game} {variant} {players} in play after 12 moves")


def main():
    from playwright.sync_api import sync_playwright

    server = subprocess.Popen([str(BIN), "serve", "--port", "0", "tests/golden"], cwd=REPO,
                              stdout=subprocess.PIPE, text=True)
    try:
        line = server.stdout.readline()
        base = "http://" + line.split("http://")[1].split("/")[0]
        OUT.mkdir(parents=True, exist_ok=True)
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS)
            for width, height in WIDTHS:
                page = browser.new_page(viewport={"width": width, "height": height})
                page.goto(base + "/")
                page.evaluate("localStorage.setItem('pace', '-1')")
                for game, variant, players, name in TABLES:
                    gid = in_play(base, game, variant, players)
                    page.goto("about:blank")
                    page.goto(f"{base}/play.html#id={gid}")
                    page.wait_for_selector("#hand .card")
                    page.screenshot(path=str(OUT / f"play-{name}-{width}.png"),
                                    full_page=True)
                page.goto(f"{base}/viewer.html#file=0&index=0")
                page.wait_for_selector("#table .seat")
                for _ in range(8):
                    page.keyboard.press("ArrowRight")
                page.screenshot(path=str(OUT / f"viewer-chan-{width}.png"), full_page=True)
                page.goto(base + "/")
                page.wait_for_selector("#records a")
                page.screenshot(path=str(OUT / f"home-{width}.png"), full_page=True)
                page.close()
            browser.close()
    finally:
        server.terminate()
        server.wait()
    print("\n".join(sorted(str(p.relative_to(REPO)) for p in OUT.glob("*.png"))))


if __name__ == "__main__":
    sys.exit(main())
