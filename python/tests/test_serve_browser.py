"""`bailab serve` in a real browser: Debian's chromium, headless, driven by Playwright for Python
(no browser is downloaded). The tests open a committed record of every game and variant and step
to its end, play a whole game of every game by clicking against greedy and check the downloaded
record with `bailab check`, and look for another seat's hidden cards in a seat's page.

They skip when /usr/bin/chromium or Playwright is missing, unless BAILAB_REQUIRE_BROWSER=1 (CI),
when they fail instead.
"""

import json
import os
import subprocess
import urllib.request
from pathlib import Path

import pytest

from conftest import REPO, bailab_bin

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
REQUIRED = os.environ.get("BAILAB_REQUIRE_BROWSER") == "1"
GOLDEN = sorted((REPO / "tests" / "golden").glob("*.json"))
GAMES = [("tusac", "classic", 4), ("tusac", "sisepai21", 3), ("chan", "standard", 4),
         ("tienlen", "south", 4)]


def _missing():
    if not Path(CHROMIUM).exists():
        return f"{CHROMIUM} is missing (apt-get install chromium)"
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "playwright is missing (pip install playwright)"
    return None


@pytest.fixture(scope="module")
def browser():
    why = _missing()
    if why:
        if REQUIRED:
            pytest.fail(f"BAILAB_REQUIRE_BROWSER=1 but {why}")
        pytest.skip(why)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


@pytest.fixture(scope="module")
def server():
    proc = subprocess.Popen([bailab_bin(), "serve", "--port", "0", "tests/golden"], cwd=REPO,
                            stdout=subprocess.PIPE, text=True)
    line = proc.stdout.readline()
    assert "http://" in line, line
    yield "http://" + line.split("http://")[1].split("/")[0]
    proc.terminate()
    assert proc.wait(timeout=30) == 0


@pytest.fixture
def page(browser):
    p = browser.new_page(viewport={"width": 1280, "height": 900})
    yield p
    p.close()


def api(base, method, path, body=None):
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(base + path, data=data, method=method,
                                 headers={"content-type": "application/json"})
    with urllib.request.urlopen(req) as r:
        return json.load(r)


def test_every_committed_record_steps_to_its_payouts(server, page):
    records = api(server, "GET", "/api/records")["files"]
    assert len(records) == len(GOLDEN), [f["path"] for f in records]
    seen = set()
    for f in records:
        want = json.loads(Path(f["path"]).read_text())
        seen.add((want["game"], want["variant"], want["players"]))
        page.goto("about:blank")
        page.goto(f"{server}/viewer.html#file={f['file']}&index=0")
        page.wait_for_selector("#table .seat")
        total = int(page.text_content("#position").split("/")[1])
        assert total > 0
        page.click("#next")
        page.keyboard.press("ArrowRight")
        page.keyboard.press("ArrowLeft")
        assert page.text_content("#position").startswith("step 1 ")
        page.keyboard.press("End")
        assert page.text_content("#position") == f"step {total} / {total}"
        payouts = page.locator("table.payouts td.num").all_text_contents()
        assert [int(p) for p in payouts] == want["outcome"]["payouts"], f["path"]
        # every hand shown, then one seat's view only
        assert page.locator(".seat .hand-shown").count() == want["players"]
        page.select_option("#seat", "0")
        assert page.locator(".seat .hand-shown").count() == 0
    variants = {(g, v) for g, v, _ in seen}
    assert {("tusac", v) for v in ("classic", "4sac", "sisepai21", "dirtyking26")} <= variants
    assert {("chan", "standard"), ("tienlen", "south")} <= variants


@pytest.mark.parametrize("game,variant,players", GAMES)
def test_a_whole_game_played_by_clicking_checks(server, page, tmp_path, game, variant, players):
    page.goto(server + "/")
    page.evaluate("localStorage.setItem('pace', '0')")
    page.select_option("#game", game)
    page.select_option("#variant", variant)
    page.fill("#players", str(players))
    page.dispatch_event("#players", "change")
    page.select_option("#seat", "1")
    page.fill("#agents", "greedy")
    page.fill("#seed", "11")
    page.click("#play")
    page.wait_for_selector("#status")
    for _ in range(3000):
        page.wait_for_function(
            "() => ['your turn', 'game over'].includes(document.querySelector('#status').textContent)"
            " && !document.querySelector('#error').textContent",
            timeout=60_000)
        if page.text_content("#status") == "game over":
            break
        before = page.locator("#log li").count()
        buttons = page.locator("#actions button.action[data-index]")
        buttons.nth(buttons.count() - 1).click()
        page.wait_for_function(
            f"() => document.querySelectorAll('#log li').length > {before}"
            " || document.querySelector('#error').textContent", timeout=60_000)
        assert page.text_content("#error") == ""
    assert page.text_content("#status") == "game over"
    assert page.locator("table.payouts td.num").count() == players
    with page.expect_download() as download:
        page.click("#download")
    record = tmp_path / "record.json"
    download.value.save_as(record)
    out = subprocess.run([bailab_bin(), "check", str(record)], capture_output=True, text=True)
    assert out.returncode == 0 and "1 ok, 0 failed" in out.stdout, out.stdout + out.stderr
    assert json.loads(record.read_text())["agents"][1] == "human"
    page.click("#again")
    page.wait_for_function("() => document.querySelector('#title').textContent.includes('seat 2')")


HIDDEN_TABLES = [("tusac", "classic", 4), ("tusac", "4sac", 4), ("tusac", "sisepai21", 3),
                 ("tusac", "dirtyking26", 6), ("tusac", "sisepai21", 8), ("chan", "standard", 5),
                 ("chan", "standard", 2),
                 ("tienlen", "south", 4), ("tienlen", "south", 2)]


@pytest.mark.parametrize("game,variant,players", HIDDEN_TABLES)
def test_a_seats_page_shows_no_hidden_card_of_another_seat(server, page, game, variant, players):
    made = api(server, "POST", "/api/games",
               {"game": game, "variant": variant, "players": players, "seat": 0, "seed": 3})
    gid, state = made["id"], made["state"]
    while not state["your_turn"]:
        state = api(server, "POST", f"/api/games/{gid}/advance")
    page.goto(f"{server}/play.html#id={gid}")
    page.wait_for_selector("#hand .card")
    shown = page.eval_on_selector_all("[data-card]", "els => els.map(e => e.dataset.card)")
    text = page.content()
    mine = page.eval_on_selector_all("#hand [data-card]", "els => els.map(e => e.dataset.card)")
    # the other seats' hands, from the replay of this very deal (every hand, by the engine)
    while not state["over"]:
        if state["your_turn"]:
            state = api(server, "POST", f"/api/games/{gid}/act", {"index": 0})
        else:
            state = api(server, "POST", f"/api/games/{gid}/advance")
    record = api(server, "GET", f"/api/games/{gid}/record")
    steps = api(server, "POST", "/api/steps", record)["steps"]
    # the first decision of seat 0 whose hand is the one on the page: the state it showed
    start = next(s for s in steps if s["to_move"] == 0 and s["seats"][0]["hand"] == mine)
    public = set()
    for k in range(1, players):
        view = dict(start["seats"][k])
        view.pop("hand")
        public |= {c for c in json.dumps(view).replace('"', " ").split()
                   if c in set(record["deck"].split())}
    deck = set(record["deck"].split())
    hands = {c for k in range(1, players)
             for c in json.dumps(start["seats"][k]["hand"]).replace('"', " ").split() if c in deck}
    hidden = hands - public - set(mine)
    assert hidden, "some cards are hidden in other hands"
    assert not hidden & set(shown), f"the page shows {sorted(hidden & set(shown))}"
    for c in hidden:
        assert f'data-card="{c}"' not in text


def test_a_run_folder_links_its_games_to_the_viewer(browser, tmp_path):
    """A tiny `bailab run` with records = true, served from the command line: the home page
    links the run, its page (bailab report's sections) links each game of records.jsonl, and
    the link opens that game in the viewer, which steps to its payouts."""
    exp = tmp_path / "tiny.toml"
    exp.write_text('name = "tiny"\ngame = "tienlen"\nvariant = "south"\n'
                   'agents = ["greedy", "random"]\ndeals = 2\nseed = 5\nrecords = true\n')
    run = tmp_path / "run"
    out = subprocess.run([bailab_bin(), "run", str(exp), "--output", str(run)],
                         capture_output=True, text=True, cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    records = [json.loads(line) for line in (run / "records.jsonl").read_text().splitlines()]
    assert len(records) == 2 * 2, "2 deals, 2 rotations of 2 seats"
    proc = subprocess.Popen([bailab_bin(), "serve", "--port", "0", str(run)], cwd=tmp_path,
                            stdout=subprocess.PIPE, text=True)
    try:
        base = "http://" + proc.stdout.readline().split("http://")[1].split("/")[0]
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        page.goto(base + "/")
        page.click("#runs a")
        page.wait_for_selector("#games ol.games a")
        assert page.locator("#games ol.games a").count() == len(records)
        assert "summary" in page.content().lower()
        page.locator("#games ol.games a").nth(1).click()
        page.wait_for_selector("#table .seat")
        assert "viewer.html" in page.url and "index=1" in page.url
        page.keyboard.press("End")
        total = page.text_content("#position").split("/")[1].strip()
        assert page.text_content("#position") == f"step {total} / {total}"
        payouts = page.locator("table.payouts td.num").all_text_contents()
        assert [int(p) for p in payouts] == records[1]["outcome"]["payouts"]
        page.close()
    finally:
        proc.terminate()
        assert proc.wait(timeout=30) == 0
