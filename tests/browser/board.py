#!/usr/bin/env python3
"""The board of `arbiter serve` in a real browser (Debian's chromium, driven by Selenium):
the seeds' scenarios, done the way a learner does them — clicks, keys and the text box —
and checked by what the page shows. Usage: board.py URL [SCREENSHOT_DIR].

Exit status 0 when every scenario passed; otherwise the failed scenario is named on stderr
(and its screenshot saved)."""

import os
import sys
import time
import traceback

from selenium import webdriver
from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException, TimeoutException
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

URL = sys.argv[1]
SHOTS = sys.argv[2] if len(sys.argv) > 2 else None
WAIT = 20  # seconds: generous, CI machines are loaded


def browser():
    o = Options()
    for a in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
              "--disable-background-networking", "--disable-component-update", "--disable-sync",
              "--no-first-run", "--disable-extensions", "--lang=en-US"]:
        o.add_argument(a)
    o.binary_location = os.environ.get("CHROMIUM", "/usr/bin/chromium")
    return webdriver.Chrome(service=Service(os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver")), options=o)


class Page:
    def __init__(self, d, width, height):
        self.d = d
        d.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                          {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600})
        # A fresh board: the tab's stored board id cleared on a page of the same origin that
        # runs no script (on the board page itself an answer still in flight could store the
        # last id again after the clear, and the next scenario would open on that board).
        d.get(URL + "favicon.svg")
        d.execute_script("window.sessionStorage.clear()")
        d.get(URL)
        self.wait_for(lambda: self.squares() == 64, "the board is drawn")

    def wait_for(self, cond, what):
        try:
            # The page redraws its parts after every answer: an element read a moment too
            # early is gone, which only means "not yet".
            WebDriverWait(self.d, WAIT, poll_frequency=0.1,
                          ignored_exceptions=(StaleElementReferenceException, NoSuchElementException)
                          ).until(lambda _: cond())
        except TimeoutException:
            raise AssertionError(f"timed out waiting until {what}") from None

    def squares(self):
        return len(self.d.find_elements(By.CSS_SELECTOR, '[data-role="board"] [data-square]'))

    def role(self, name):
        return self.d.find_element(By.CSS_SELECTOR, f'[data-role="{name}"]')

    def text(self, role):
        return self.role(role).text

    def action(self, name):
        return self.d.find_element(By.CSS_SELECTOR, f'[data-action="{name}"]')

    def square(self, sq):
        return self.d.find_element(By.CSS_SELECTOR, f'[data-role="board"] [data-square="{sq}"]')

    def rect(self, sq):
        """The square's box on the page, read at once (the board is redrawn after each answer)."""
        return self.d.execute_script(
            "const r = document.querySelector(`[data-role='board'] [data-square='${arguments[0]}']`)"
            ".getBoundingClientRect(); return {x: r.x, y: r.y, width: r.width, height: r.height};", sq)

    def click_square(self, sq):
        fen = self.fen()
        stage = self.d.execute_script("return document.querySelector('[data-role=\"board\"]').innerHTML.length")
        # A square found just before a redraw is stale: found again and clicked (on a loaded
        # machine an answer can redraw the board between the two).
        for attempt in range(5):
            try:
                self.square(sq).click()
                break
            except StaleElementReferenceException:
                if attempt == 4:
                    raise
                time.sleep(0.1)
        # The board is drawn anew after every answer: wait until it is.
        self.wait_for(lambda: self.d.execute_script(
            "return document.querySelector('[data-role=\"board\"]').innerHTML.length") != stage or self.fen() != fen
            or self.text("explanation") != "", f"the board answered a click on {sq}")
        time.sleep(0.15)

    def fen(self):
        return self.role("fen").get_attribute("value")

    def targets(self):
        return {e.get_attribute("data-square"): e.get_attribute("data-target")
                for e in self.d.find_elements(By.CSS_SELECTOR, '[data-role="board"] [data-target]')}

    def set_fen(self, fen):
        box = self.role("fen")
        box.clear()
        box.send_keys(fen, Keys.ENTER)
        self.wait_for(lambda: self.fen() == fen, f"the position {fen} is set")

    def moves(self):
        return [e.text for e in self.d.find_elements(By.CSS_SELECTOR, '[data-role="movelist"] button')]

    def shot(self, name):
        if SHOTS:
            os.makedirs(SHOTS, exist_ok=True)
            self.d.save_screenshot(os.path.join(SHOTS, f"{name}.png"))

    def open_drill(self, drill_id):
        for details in self.d.find_elements(By.CSS_SELECTOR, "details"):
            if details.get_attribute("open") is None:
                details.find_element(By.CSS_SELECTOR, "summary").click()
        self.d.find_element(By.CSS_SELECTOR, f'[data-action="drill"][data-drill="{drill_id}"]').click()
        self.wait_for(lambda: self.text("drill-question") != "", f"the drill {drill_id} is set up")


def select_preview_cancel_confirm(p):
    assert "White to move" in p.text("status"), p.text("status")
    p.click_square("e2")
    assert p.targets() == {"e3": "quiet", "e4": "double-step"}, p.targets()
    p.click_square("e4")
    preview = p.role("preview")
    p.wait_for(preview.is_displayed, "the preview shows")
    assert "e4" in preview.text and "Legal" in preview.text, preview.text
    assert p.moves() == [], "a preview plays nothing"
    p.d.switch_to.active_element.send_keys(Keys.ESCAPE)
    p.wait_for(lambda: not p.role("preview").is_displayed(), "Escape cancels the preview")
    assert p.moves() == []
    # From the keyboard alone: type the move, Enter previews, Enter confirms.
    box = p.role("move-input")
    box.send_keys("e4", Keys.ENTER)
    p.wait_for(lambda: p.role("preview").is_displayed(), "a typed move is previewed")
    p.d.switch_to.active_element.send_keys(Keys.ENTER)
    p.wait_for(lambda: p.moves() == ["1. e4"], "Enter confirms the move")
    assert "Black to move" in p.text("status")
    # And with the mouse: select, target, confirm.
    p.click_square("e7")
    p.click_square("e5")
    p.action("confirm").click()
    p.wait_for(lambda: p.moves() == ["1. e4", "e5"], "the confirmed move is played")
    p.shot("select-preview-confirm")


def illegal_square_shows_the_pin(p):
    p.set_fen("4r1k1/8/8/8/8/8/4R3/4K3 w - - 0 1")
    p.click_square("e2")
    p.click_square("f2")
    p.wait_for(lambda: "3.9.2" in p.text("explanation"), "the reason is shown")
    text = p.text("explanation")
    assert "pinned" in text and "e8" in text, text
    # Escape drops the selection; then the opponent's piece: not yours, article 1.2.
    p.d.find_element(By.CSS_SELECTOR, "body").send_keys(Keys.ESCAPE)
    p.wait_for(lambda: p.targets() == {} and p.text("explanation") == "", "Escape drops the selection")
    p.click_square("e8")
    p.wait_for(lambda: "1.2" in p.text("explanation"), "the opponent's piece is refused")
    p.shot("pin")


def flip(p):
    def a1_below_a8():
        return p.rect("a1")["y"] > p.rect("a8")["y"]
    assert a1_below_a8()
    p.action("flip").click()
    p.wait_for(lambda: not a1_below_a8(), "the board is flipped")
    label = p.d.find_element(By.CSS_SELECTOR, '[data-role="board"] svg').get_attribute("aria-label")
    assert "Black at the bottom" in label, label
    p.d.find_element(By.CSS_SELECTOR, "body").send_keys("f")
    p.wait_for(a1_below_a8, "the f key flips back")


def drill_solved_and_reset(p):
    p.open_drill("checkmate")
    start = p.fen()
    assert "Qg7" in p.text("drill-question")
    p.click_square("g6")
    p.click_square("g7")
    p.action("confirm").click()
    p.wait_for(lambda: "Checkmate" in p.text("result"), "the mate is announced")
    assert "1-0" in p.text("result") and "5.1.1" in p.text("result"), p.text("result")
    p.shot("drill-mate")
    p.action("reset").click()
    p.wait_for(lambda: p.fen() == start and p.text("result") == "", "reset sets the drill up again")


def threefold_claims(p):
    p.open_drill("threefold")
    # Without a move the condition does not hold: refused, with the count.
    p.action("claim-threefold").click()
    p.wait_for(lambda: p.text("claim-result") != "", "the claim is judged")
    refused = p.text("claim-result")
    assert "incorrect" in refused and "2 times" in refused and "9.5.3" in refused, refused
    assert p.text("result") == ""
    # The claim the report offers: by declaring Ng8 (9.2.1.1).
    assert "Ng8" in p.text("claims-offered") and "9.2.1.1" in p.text("claims-offered"), p.text("claims-offered")
    # With the intended move Ng8 (preview, then claim): the third occurrence, accepted.
    p.click_square("f6")
    p.click_square("g8")
    p.action("claim-threefold").click()
    p.wait_for(lambda: "correct: the game is drawn" in p.text("claim-result"), "the claim with the move is accepted")
    assert "9.2.1.1" in p.text("claim-result"), p.text("claim-result")
    assert "1/2-1/2" in p.text("result"), p.text("result")
    p.shot("threefold")


def resign_against_bare_king(p):
    p.set_fen("4k3/8/8/8/8/8/8/3QK3 w - - 0 1")
    p.action("resign").click()
    p.wait_for(lambda: p.text("result") != "", "the resignation is ruled")
    result = p.text("result")
    assert "1/2-1/2" in result and "5.1.2" in result, result
    p.shot("resign")


SCHOLAR = """[Event "Test"]
[White "Learner"]
[Black "Friend"]
[Result "0-1"]

1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# 0-1
"""


def pgn_review(p):
    p.role("pgn").send_keys(SCHOLAR)
    p.action("load-pgn").click()
    p.wait_for(lambda: "Learner" in p.text("review-info"), "the game is loaded")
    body = p.d.find_element(By.CSS_SELECTOR, "body")
    for _ in range(7):
        body.send_keys(Keys.ARROW_RIGHT)
        time.sleep(0.2)
    p.wait_for(lambda: len(p.d.find_elements(By.CSS_SELECTOR, '[aria-current="step"]')) == 1
               and "Qxf7#" in p.d.find_element(By.CSS_SELECTOR, '[aria-current="step"]').text, "stepped to the end")
    assert "checkmate" in p.text("explanation").lower() or "Checkmate" in p.text("explanation"), p.text("explanation")
    # The recorded 0-1 is against the Laws (White mated): the referee's finding, at its ply.
    assert "1-0" in p.text("findings") and "0-1" in p.text("findings"), p.text("findings")
    last = p.d.find_element(By.CSS_SELECTOR, '[aria-current="step"]')
    assert "finding" in (last.get_attribute("class") or ""), "the ply of the finding is marked"
    assert "0-1" in p.text("explanation"), "the finding is explained at its ply"
    p.action("prev").click()
    p.wait_for(lambda: "Nf6" in p.d.find_element(By.CSS_SELECTOR, '[aria-current="step"]').text, "one step back")
    p.action("play-on").click()
    p.wait_for(lambda: p.text("review-info") == "", "play on leaves the review")
    assert len(p.moves()) == 6, p.moves()
    p.shot("review")


def chinese(p):
    p.action("lang").click()
    p.wait_for(lambda: "轮到" in p.text("status"), "the page speaks Chinese")
    assert "规则" in p.d.title
    p.click_square("e2")
    p.click_square("e5")
    p.wait_for(lambda: "FIDE" in p.text("explanation") and "兵" in p.text("explanation"), "a reason in Chinese")
    p.shot("zh")
    p.action("lang").click()
    p.wait_for(lambda: "to move" in p.text("status"), "back to English, the game kept")


def game_against_arbiter(p):
    # Black to move; White mates with Rd8 unless Black prevents it. The learner (Black) plays on.
    p.set_fen("6k1/p4ppp/8/8/8/8/5PPP/3R2K1 b - - 0 1")
    p.d.find_element(By.CSS_SELECTOR, '[data-role="mode-engine"]').click()
    from selenium.webdriver.support.ui import Select
    Select(p.role("human")).select_by_value("black")
    Select(p.role("level")).select_by_value("2000")
    p.role("from-current").click()
    p.action("new-game").click()
    p.wait_for(lambda: p.role("mode-engine").is_selected(), "the game against Arbiter starts")
    for _ in range(40):
        if p.text("result"):
            break
        p.wait_for(lambda: p.text("result") != "" or ("Black to move" in p.text("status")
                   and not p.role("thinking").is_displayed()), "Arbiter has moved")
        if p.text("result"):
            break
        # The learner's move: the first piece that has a target.
        moved = False
        for sq in ["a7", "a6", "a5", "a4", "a3", "h7", "g7", "f7", "g8", "h8", "f8"]:
            p.click_square(sq)
            t = p.targets()
            if t:
                p.click_square(sorted(t)[0])
                if p.role("promotion").is_displayed():
                    p.d.find_element(By.CSS_SELECTOR, '[data-action="promote"][data-piece="queen"]').click()
                p.wait_for(lambda: p.role("preview").is_displayed(), "the learner's move is previewed")
                p.action("confirm").click()
                moved = True
                break
        assert moved or p.text("result"), "the learner found a move"
    p.wait_for(lambda: p.text("result") != "", "the game has ended")
    assert "1-0" in p.text("result") or "0-1" in p.text("result") or "1/2-1/2" in p.text("result")
    p.shot("against-arbiter")
    pgn_text = p.action("export-pgn")
    pgn_text.click()
    p.wait_for(lambda: "[Result" in p.role("pgn-out").get_attribute("value"), "the game is exported")
    exported = p.role("pgn-out").get_attribute("value")
    assert '[Black "Learner"]' in exported and '[White "Arbiter"]' in exported, exported


def layout(p, width, height):
    """Nothing cut off sideways, the board square and whole in the window's width."""
    scroll = p.d.execute_script("return document.documentElement.scrollWidth")
    client = p.d.execute_script("return document.documentElement.clientWidth")
    assert scroll <= client, f"{width}x{height}: the page is {scroll}px wide in a {client}px window"
    a1, h8 = p.rect("a1"), p.rect("h8")
    assert abs(a1["width"] - a1["height"]) < 1.0, a1
    board_w = h8["x"] + h8["width"] - a1["x"]
    board_h = a1["y"] + a1["height"] - h8["y"]
    assert abs(board_w - board_h) < 2.0 and board_w > 200, (board_w, board_h)
    assert a1["x"] >= 0 and h8["x"] + h8["width"] <= client, "the board fits the width"
    if width >= 900:
        assert a1["y"] + a1["height"] <= height, "on a desktop the whole board is in view"
    p.shot(f"layout-{width}x{height}")
    # After a fork the status is longest (turn, check, the attacked pieces): still all in view.
    p.open_drill("fork")
    p.d.find_element(By.CSS_SELECTOR, '[data-action="branch"][data-which="0"]').click()
    p.wait_for(lambda: p.role("preview").is_displayed(), "the fork is previewed")
    p.action("confirm").click()
    p.wait_for(lambda: "a8" in p.text("status"), "the attacked rook is named")
    p.d.execute_script("window.scrollTo(0, 0)")
    time.sleep(0.2)
    if width >= 900:
        a1 = p.rect("a1")
        assert a1["y"] + a1["height"] <= height, f"after a fork the board's bottom is at {a1['y'] + a1['height']}"
    p.shot(f"fork-{width}x{height}")


def main():
    scenarios = [
        ("select, preview, cancel, confirm", select_preview_cancel_confirm),
        ("an illegal square shows the pin", illegal_square_shows_the_pin),
        ("flip", flip),
        ("a drill solved and reset", drill_solved_and_reset),
        ("threefold claims", threefold_claims),
        ("resign against a bare king", resign_against_bare_king),
        ("a PGN loaded and stepped", pgn_review),
        ("the Chinese page", chinese),
        ("a game against Arbiter", game_against_arbiter),
    ]
    d = browser()
    failed = []
    try:
        for width, height in [(1280, 800), (390, 844)]:
            p = Page(d, width, height)
            layout(p, width, height)
            for name, scenario in scenarios if width == 1280 else scenarios[:3] + scenarios[7:8]:
                start = time.time()
                try:
                    p = Page(d, width, height)
                    scenario(p)
                    print(f"ok   {width}x{height} {name} ({time.time() - start:.1f} s)")
                except Exception as e:  # noqa: BLE001 - report every scenario
                    failed.append(f"{width}x{height} {name}")
                    print(f"FAIL {width}x{height} {name}: {e}", file=sys.stderr)
                    traceback.print_exc()
                    try:
                        p.shot(f"FAILED-{width}-{name.replace(' ', '-')}")
                    except Exception:  # noqa: BLE001
                        pass
        errors = [e for e in d.get_log("browser") if e.get("level") == "SEVERE" and "favicon" not in e.get("message", "")]
        # A refused request (4xx) is logged by the browser as a failed load: those are expected.
        errors = [e for e in errors if " 4" not in e.get("message", "")]
        if errors:
            failed.append("the browser's console")
            print(f"FAIL console errors: {errors}", file=sys.stderr)
    finally:
        d.quit()
    if failed:
        print(f"{len(failed)} scenario(s) failed: {', '.join(failed)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
