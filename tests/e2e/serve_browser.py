#!/usr/bin/env python3
"""`panoply serve` in a real headless Chromium (Debian's, driven by Playwright): real clicks
and drags on the page, assertions on what the page shows, screenshots under
tests/e2e/results/. Usage: serve_browser.py ADDRESS RESULTS_DIR GAME_FILE, where ADDRESS is the
one `panoply serve` printed (with its token) and GAME_FILE the file it keeps the game in. Each
scenario prints one line; the exit code is 1 when any fails."""

import http.server
import re
import sys
import tempfile
import threading
import time
import traceback
from pathlib import Path

from playwright.sync_api import sync_playwright, expect

ADDRESS, RESULTS, GAME_FILE = sys.argv[1], sys.argv[2], Path(sys.argv[3])
BASE = ADDRESS.split("/?")[0]
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]


def open_game(page, variant, seats=None, budget=None):
    """Loads the page on `variant`, starts a new game, sets who plays each seat."""
    page.goto(f"{BASE}/?variant={variant}")
    page.wait_for_selector("body[data-ready='1']")
    # A game with moves is on: the address only offers the new game.
    if page.locator("#offer").is_visible():
        page.click("#offer-new")
    expect(page.locator("#variant")).to_have_value(variant)
    if budget:
        page.select_option("#budget", label=budget)
    if seats:
        set_seats(page, seats)
    page.click("#new-game")
    # An engine that moves first may already have moved when the page shows the new game.
    if not seats or seats[0] != "engine":
        expect(page.locator("#moves .ply")).to_have_count(0)


def set_seats(page, seats):
    for i, who in enumerate(seats):
        select = page.locator(f'#seats select[data-seat="{i}"]')
        if select.input_value() != who:
            select.select_option(who)
            expect(page.locator(f'#seats select[data-seat="{i}"]')).to_have_value(who)


def click_move(page, frm, to):
    page.click(f'[data-cell="{frm}"]')
    expect(page.locator(f'circle.target[data-target="{to}"]')).to_have_count(1)
    page.click(f'[data-cell="{to}"]')


def plies(page):
    return page.locator("#moves .ply").count()


def kind_at(page, cell):
    return page.locator(f'[data-at="{cell}"] .piece').get_attribute("data-kind")


def set_position(page, position):
    page.fill("#position", position)
    page.click("#setup")
    expect(page.locator("#position")).to_have_value(position)


def shot(page, name):
    page.screenshot(path=f"{RESULTS}/{name}.png")


def cwda_game_to_mate(page):
    open_game(page, "cwda-fide-clobberers", seats=["human", "human"])
    click_move(page, "f2", "f3")
    # One move by dragging the piece instead of two clicks.
    expect(page.locator("#to-move")).to_have_text("Black")
    page.drag_and_drop('[data-cell="e7"]', '[data-cell="e5"]')
    expect(page.locator("#moves .ply")).to_have_count(2)
    click_move(page, "g2", "g4")
    click_move(page, "d8", "h4")
    expect(page.locator("#result")).to_have_text("Black wins by checkmate")
    expect(page.locator("#rule")).to_contain_text("checkmate")
    moves = page.locator("#moves .ply").all_inner_texts()
    assert moves == ["f2f3", "e7e5", "g2g4", "d8h4"], moves
    # A click after the end does nothing: no targets are offered.
    page.click('[data-cell="a2"]')
    expect(page.locator("circle.target")).to_have_count(0)
    pgn = page.request.get(f"{BASE}/api/game.pgn").text()
    assert '[Result "0-1"]' in pgn and "2. g2g4 d8h4" in pgn, pgn
    # Stepping back through the move list.
    page.click("#back")
    expect(page.locator("#viewing")).to_contain_text("after 3 of 4 moves")
    expect(page.locator('[data-at="h4"]')).to_have_count(0)
    expect(page.locator('[data-at="d8"]')).to_have_count(1)
    page.click("#last")
    expect(page.locator("#viewing")).to_be_hidden()
    shot(page, "cwda-mate")
    return "Black mates in cwda-fide-clobberers (clicks and a drag), result and rule shown, PGN 0-1"


def promotion_picker(page):
    open_game(page, "cwda-nutty-rookies", seats=["human", "human"])
    set_position(page, "4k3/P7/8/8/8/8/8/4K3 w - - 0 1")
    click_move(page, "a7", "a8")
    expect(page.locator("#picker")).to_be_visible()
    choices = page.locator("#picker-choices button")
    expect(choices).to_have_count(4)
    shot(page, "promotion-picker")
    page.click('#picker-choices button[data-choice="G"]')
    expect(page.locator("#picker")).to_be_hidden()
    expect(page.locator('[data-at="a8"] .piece')).to_have_attribute("data-kind", "G")
    return "promotion picker offered 4 Nutty pieces, the chosen one (G) stands on a8"


def cyclical_type_change(page):
    open_game(page, "cyclical", seats=["human", "human"])
    before = kind_at(page, "g1")
    page.hover('[data-cell="g1"]')
    expect(page.locator("#cell-name")).to_contain_text("g1")
    page.click('[data-cell="g1"]')
    page.hover('[data-cell="f3"]')
    expect(page.locator("#cell-name")).to_contain_text("g1f3: the Knight arrives as")
    shot(page, "cyclical-arrival-hint")
    page.click('[data-cell="f3"]')
    expect(page.locator("#moves .ply")).to_have_count(1)
    after = kind_at(page, "f3")
    assert after and after != before, (before, after)
    shot(page, "cyclical-type-change")
    return f"Cyclical: the piece left g1 as {before} and arrived on f3 as {after}"


MISSIONARY = "k5/6/6/6/6/6/6/6|6/6/1K4/6/6/6/6/6|6/6/6/6/6/6/6/6|6/6/6/6/6/6/6/6|" \
             "6/6/6/6/6/6/6/6|1R4/6/6/6/6/6/6/6[RB] w - - 0 1"


def missionary_drop(page):
    open_game(page, "missionary", seats=["human", "human"])
    expect(page.locator("rect.cell")).to_have_count(288)
    page.locator("#play").screenshot(path=f"{RESULTS}/missionary-board.png")
    page.hover('[data-cell="wd2"]')
    expect(page.locator("#cell-name")).to_contain_text("wd2")
    set_position(page, MISSIONARY)
    expect(page.locator('[data-hand="0"] .held')).to_have_count(2)
    # The drop picker: an empty cell where two kinds may drop.
    page.click('[data-cell="wc5"]')
    expect(page.locator("#picker-choices button")).to_have_count(2)
    page.click('#picker-choices button[data-choice="R"]')
    expect(page.locator('[data-at="wc5"] .piece')).to_have_attribute("data-kind", "R")
    expect(page.locator('[data-hand="0"] .held')).to_have_count(1)
    # Take it back and drop from the hand instead: click the Bishop in hand, then a cell.
    page.click("#undo")
    expect(page.locator('[data-hand="0"] .held')).to_have_count(2)
    page.click('[data-hand="0"] .held[data-token="B"]')
    expect(page.locator("circle.target")).not_to_have_count(0)
    page.click('[data-cell="xd4"]')
    expect(page.locator('[data-at="xd4"] .piece')).to_have_attribute("data-kind", "B")
    shot(page, "missionary-drop")
    return "Missionary: drop picker (R on wc5), undo, drop from the hand (B on xd4)"


def aof5_position(pieces, rest):
    """An Armies of Faith position string: levels 1..4, rows z..s, files a..j."""
    grid = {}
    for cell, token in pieces.items():
        grid[(ord(cell[0]) - ord("a"), ord(cell[1]) - ord("s"), int(cell[2:]) - 1)] = token
    levels = []
    for z in range(4):
        rows = []
        for y in reversed(range(8)):
            cells, empty = [], 0
            for x in range(10):
                token = grid.get((x, y, z))
                if token is None:
                    empty += 1
                    continue
                if empty:
                    cells.append(str(empty))
                    empty = 0
                cells.append(token)
            if empty:
                cells.append(str(empty))
            rows.append(",".join(cells))
        levels.append("/".join(rows))
    return "|".join(levels) + " " + rest


# The four Kings, a Catholic Rook on az4 looking down at the Islamic King on az2, and a
# Byzantine Knight on az3 in between; Byzantium to move.
AOF5_MATE = aof5_position({"js2": "cK", "jz2": "pK", "az2": "iK", "as2": "bK", "az4": "cR",
                           "az3": "bN", "dv1": "iN"}, "b cpib - 0 1")


def aof5_three_engines(page):
    # From the start: the person plays the Catholics, the engine the three other armies.
    open_game(page, "aof5", seats=["human", "engine", "engine", "engine"], budget="500 nodes")
    expect(page.locator("rect.cell")).to_have_count(320)
    # A skill level per engine army: the Protestants at 3, the Byzantines at 0 (weakest).
    for seat, level in ((1, "3"), (3, "0")):
        with page.expect_request(lambda r: r.url.endswith("/api/seats") and r.method == "POST") as sent:
            page.locator(f'#seats select[data-level="{seat}"]').select_option(level)
        expect(page.locator(f'#seats select[data-level="{seat}"]')).to_have_value(level)
    assert sent.value.post_data_json == {"levels": [20, 3, 20, 0]}, sent.value.post_data_json
    assert page.request.get(f"{BASE}/api/state").json()["levels"] == [20, 3, 20, 0]
    for round_number in (1, 2):
        state = page.request.get(f"{BASE}/api/state").json()
        assert state["side"] == 0, state["side"]
        cells = state["geometry"]["cells"]
        move = "gt1ft1" if round_number == 1 else next(
            m for m in state["legal"] if m["from"] is not None and m["promo"] is None)
        if isinstance(move, str):
            move = next(m for m in state["legal"] if m["move"] == move)
        click_move(page, cells[move["from"]], cells[move["to"]])
        expect(page.locator("#moves .ply")).to_have_count(4 * round_number, timeout=60000)
        expect(page.locator("#to-move")).to_have_text("Catholic", timeout=60000)
    # The last move of every army is marked, in its colour.
    for army in range(4):
        expect(page.locator(f'rect.last-move[data-player="{army}"]')).not_to_have_count(0)
    expect(page.locator("#scores .bar")).to_have_count(4)
    expect(page.locator("#scores .bar .pawns").first).to_contain_text("pawns")
    shot(page, "aof5-start-catholic-view")
    page.locator("#play").screenshot(path=f"{RESULTS}/aof5-board.png")
    page.select_option("#view-from", label="Islamic")
    shot(page, "aof5-islamic-view")
    page.select_option("#view-from", label="Catholic")
    return ("AoF5: 2 rounds, the person Catholic and the engine 3 armies at levels 3, 20, 0; "
            "last moves of 4 armies marked")


def aof5_checkmate_announced(page):
    # The person plays Byzantium: moving the Knight away opens the Catholic Rook's line to the
    # Islamic King, and the Catholics checkmate at the start of their turn.
    open_game(page, "aof5", seats=["human"] * 4, budget="500 nodes")
    set_position(page, AOF5_MATE)
    set_seats(page, ["engine", "engine", "engine", "human"])
    expect(page.locator("#to-move")).to_have_text("Byzantine")
    click_move(page, "az3", "bx3")
    expect(page.locator("#announce")).to_contain_text("Catholic checkmates Islamic")
    expect(page.locator("#announce")).to_contain_text("promoted")
    expect(page.locator("#events li")).to_have_count(1)
    expect(page.locator("#armies-playing")).to_have_text("armies playing: Catholic, Protestant, Byzantine",
                                                         timeout=60000)
    # The engine plays Catholic and Protestant (Islam is out), then it is the person's turn.
    expect(page.locator("#to-move")).to_have_text("Byzantine", timeout=60000)
    shot(page, "aof5-checkmate")
    return "AoF5: checkmate of Islam announced with its promotions, 3 armies left, engines moved"


def analysis(page):
    open_game(page, "chess", seats=["human", "human"])
    page.select_option("#multipv", "2")
    page.click("#analyse")
    expect(page.locator("#thinking tbody tr")).to_have_count(2, timeout=30000)
    expect(page.locator("#best-arrow")).to_have_count(1, timeout=30000)
    # The evaluation bar shows the engine's score in pawns (White's view).
    expect(page.locator("#eval-bar")).to_be_visible()
    expect(page.locator("#eval-text")).to_have_text(re.compile(r"^([+\u2212]\d+\.\d\d|-?M\d+)$"))
    shot(page, "analysis")
    page.click("#pause")
    expect(page.locator("#engine-state")).to_contain_text("idle", timeout=30000)
    assert plies(page) == 0
    page.select_option("#multipv", "1")
    return "analysis: 2 MultiPV lines and the best-move arrow shown live, stopped by Pause"


def second_tab_shares_the_game(page):
    open_game(page, "chess", seats=["human", "human"])
    other = page.context.new_page()
    other.goto(f"{BASE}/")
    other.wait_for_selector("body[data-ready='1']")
    click_move(page, "e2", "e4")
    # The server pushes the change; the second tab shows the move without being touched.
    expect(other.locator("#moves .ply")).to_have_text(["e2e4"])
    expect(other.locator('[data-at="e4"] .piece')).to_have_attribute("data-kind", "P")
    click_move(other, "e7", "e5")
    expect(page.locator("#moves .ply")).to_have_text(["e2e4", "e7e5"])
    other.close()
    return "a second tab sees the same game: moves made in either appear in both"


def check_shown_and_typed_moves(page):
    open_game(page, "chess", seats=["human", "human"])
    expect(page.locator("#status")).to_have_attribute("aria-live", "polite")
    # FIDE pieces are figurines; the legend lists the six kinds.
    expect(page.locator("#board .piece.figurine")).to_have_count(32)
    expect(page.locator("#legend li")).to_have_count(6)
    set_position(page, "4k3/8/8/8/8/8/8/4RK2 b - - 0 1")
    expect(page.locator("rect.check")).to_have_count(1)
    expect(page.locator('rect.check[data-check="e8"]')).to_have_count(1)
    expect(page.locator("#in-check")).to_have_text("check: Black")
    shot(page, "check-shown")
    # A typed move that is not legal is refused with the server's message, the game unchanged.
    page.fill("#move-input", "e8e7")
    page.press("#move-input", "Enter")
    expect(page.locator("#move-error")).to_be_visible()
    expect(page.locator("#move-error")).to_contain_text("e8e7")
    assert plies(page) == 0
    page.fill("#move-input", "e8d7")
    page.press("#move-input", "Enter")
    expect(page.locator("#moves .ply")).to_have_text(["e8d7"])
    expect(page.locator("#move-error")).to_be_hidden()
    expect(page.locator("rect.check")).to_have_count(0)
    expect(page.locator("#to-move")).to_have_text("White")
    page.fill("#move-input", "e1e7")
    page.press("#move-input", "Enter")
    expect(page.locator('rect.check[data-check="d7"]')).to_have_count(1)
    shot(page, "typed-move-check")
    return "check marked on e8 and d7, typed moves played (e8d7, e1e7), an illegal one refused"


def fairy_legend(page):
    open_game(page, "cwda-nutty-rookies", seats=["human", "human"])
    # Nutty Knights against the FIDE army: fairy pieces keep their codes, with a legend of
    # the kinds on the board.
    state = page.request.get(f"{BASE}/api/state").json()
    on_board = sorted({kind for _, _, kind in state["board"]["pieces"]})
    expect(page.locator("#legend li")).to_have_count(len(on_board))
    fairy = next(state["kinds"][i] for i in on_board if state["kinds"][i]["name"] not in
                 ("King", "Queen", "Rook", "Bishop", "Knight", "Pawn"))
    item = page.locator(f'#legend li[data-legend="{fairy["token"]}"]')
    expect(item).to_contain_text(fairy["name"])
    assert fairy["name"] in item.get_attribute("title"), item.get_attribute("title")
    shot(page, "legend")
    return f"legend of {len(on_board)} kinds, fairy {fairy['name']} ({fairy['token']}) described"


def timed_game_on_time(page):
    open_game(page, "chess", seats=["engine", "human"])
    # A control chosen on the page: both clocks shown, White's (the engine's) runs.
    page.select_option("#time-control", label="1 min")
    page.click("#new-game")
    expect(page.locator("#clocks")).to_be_visible()
    expect(page.locator("#clocks .clock")).to_have_count(2)
    # The engine plays on its own clock, and then the person's clock ticks.
    expect(page.locator("#moves .ply")).to_have_count(1, timeout=30000)
    black = page.locator('#clocks .clock[data-side="1"] .time')
    first = black.inner_text()
    page.wait_for_timeout(1300)
    assert black.inner_text() != first, first
    shot(page, "clocks-ticking")
    # A tiny control: the engine (White) moves, the person lets Black's 2 s run out.
    answer = page.request.post(f"{BASE}/api/new", data={"clock": {"base": 2000, "increment": 0}})
    assert answer.ok, answer.text()
    expect(page.locator("#moves .ply")).to_have_count(1, timeout=10000)
    expect(page.locator("#result")).to_have_text("White wins by time forfeit", timeout=10000)
    expect(black).to_have_text("0:00.0")
    shot(page, "timed-game-flag")
    page.select_option("#time-control", label="untimed")
    return "clocks shown and ticking (1 min), engine moved on its clock, Black lost on time (2 s)"


def aof5_rotation(page):
    open_game(page, "aof5", seats=["human"] * 4)
    state = page.request.get(f"{BASE}/api/state").json()
    views = set()
    for army, name in enumerate(state["names"]):
        page.select_option("#view-from", label=name)
        views.add(page.locator("#board").get_attribute("data-view"))
        # The army's pieces stand in the lower half of the board as drawn.
        below = page.evaluate("""(army) => {
            const svg = document.getElementById("board-svg").getBoundingClientRect();
            const ys = [...document.querySelectorAll(`.piece[data-player="${army}"]`)]
                .map((p) => { const r = p.getBoundingClientRect(); return r.top + r.height / 2; });
            return ys.reduce((a, b) => a + b, 0) / ys.length > svg.top + svg.height / 2;
        }""", army)
        assert below, f"{name}: pieces not at the bottom"
        page.locator("#play").screenshot(path=f"{RESULTS}/aof5-view-{name.lower()}.png")
    assert len(views) == 4, views
    page.select_option("#view-from", label=state["names"][0])
    return f"AoF5: four views ({', '.join(sorted(views))}), each army's pieces at the bottom"


FOREIGN_PAGE = """<!doctype html><title>another site</title>
<iframe id="frame" src="{board}/?variant=shatranj" width="600" height="400"></iframe>
<button id="open" onclick="window.open('{board}/?variant=shatranj')">open</button>"""


def foreign_page_server():
    """A page of another site on another local port: it frames the board's address with
    another variant and opens it in a new window."""
    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            body = FOREIGN_PAGE.format(board=BASE).encode()
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def another_page_cannot_replace_the_game(page):
    open_game(page, "chess", seats=["human", "human"])
    click_move(page, "e2", "e4")
    expect(page.locator("#moves .ply")).to_have_count(1)
    kept = GAME_FILE.read_text()
    server = foreign_page_server()
    foreign = page.context.new_page()
    try:
        foreign.goto(f"http://127.0.0.1:{server.server_address[1]}/")
        with foreign.expect_popup() as opened:
            foreign.click("#open")
        popup = opened.value
        popup.wait_for_selector("body[data-ready='1']")
        # The new window shows the game that is on and only offers the other variant.
        expect(popup.locator("#offer")).to_be_visible()
        expect(popup.locator("#offer-variant")).to_have_text("shatranj")
        expect(popup.locator("#variant")).to_have_value("chess")
        expect(popup.locator("#moves .ply")).to_have_text(["e2e4"])
        shot(popup, "address-offers-new-game")
        # The frame is refused by the browser (frame-ancestors 'none', X-Frame-Options).
        frame = foreign.frame_locator("#frame")
        time.sleep(1.5)
        assert frame.locator("body[data-ready='1']").count() == 0, "the board shown in a frame"
        popup.close()
    finally:
        foreign.close()
        server.shutdown()
    state = page.evaluate("fetch('/api/state').then((r) => r.json())")
    assert (state["variant"], state["ply"]) == ("chess", 1), (state["variant"], state["ply"])
    assert GAME_FILE.read_text() == kept, "the kept game changed"
    expect(page.locator("#moves .ply")).to_have_text(["e2e4"])
    return "another page framing or opening /?variant=shatranj: the game and its file unchanged"


def main():
    failures = 0
    with sync_playwright() as p, tempfile.TemporaryDirectory() as profile:
        browser = p.chromium.launch_persistent_context(
            profile, executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS,
            viewport={"width": 1500, "height": 950})
        page = browser.new_page()
        page.set_default_timeout(20000)
        # The printed address signs the browser in (a cookie) and leads to the page.
        page.goto(ADDRESS)
        page.wait_for_selector("body[data-ready='1']")
        assert "token" not in page.url, page.url
        errors = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        scenarios = [cwda_game_to_mate, promotion_picker, cyclical_type_change, missionary_drop,
                     aof5_three_engines, aof5_checkmate_announced, analysis,
                     second_tab_shares_the_game, check_shown_and_typed_moves, fairy_legend,
                     timed_game_on_time, aof5_rotation, another_page_cannot_replace_the_game]
        for scenario in scenarios:
            start = time.time()
            try:
                print(f"ok   {scenario(page)} ({time.time() - start:.1f} s)", flush=True)
            except Exception:
                failures += 1
                name = getattr(scenario, "__name__", "scenario")
                print(f"FAIL {name}:\n{traceback.format_exc()}", flush=True)
                shot(page, f"FAILED-{name}")
        if errors:
            failures += 1
            print("FAIL errors in the page:", errors)
        browser.close()
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
