"""Markup and escape payloads in article text, titles, file names, LLM-written units and tags:
rendered literally everywhere, no action runs, no escape byte reaches the terminal.

Checked three ways: the raw bytes the CLI writes (no control byte at all); a real terminal
(tmux): the screen shows the markup literally and the pane title did not change; and every byte
the app writes to that terminal (tmux pipe-pane), parsed by terminal_bytes.findings: only the
escape sequences Textual itself draws with, on every screen, the Import tree included.
"""

from __future__ import annotations

import json
import sqlite3
import time
from pathlib import Path

import pytest

from .helpers import (
    CONTROL_RE,
    ESCAPES,
    HOSTILE_NAMES,
    MARKUP,
    PAYLOAD,
    cli_argv,
    db_file,
    mr_env,
    run_mr,
    run_mr_bytes,
    write,
)
from .terminal_bytes import findings
from .tmux import Tmux


@pytest.fixture
def hostile_library(home: Path, inputs: Path) -> Path:
    """One article whose file name, title, text, units, tags and questions all carry payloads.

    The unit rows are then overwritten with raw escape bytes, as a hostile LLM reply (or an
    older release) could have stored them: the display layer must hold on its own. Built once
    per test process (its source file beside that build) and copied here: tests/built_libraries.py.
    """
    from built_libraries import copy_built

    copy_built("hostile", home, _hostile_library)
    return home


def _hostile_library(home: Path) -> None:
    name = "evil\x1b]2;PWNED-NAME\x07[@click=app.quit].md"
    text = f"# Title {MARKUP} \x1b]2;PWNED-H1\x07\n\nFirst paragraph says {PAYLOAD} and more.\n\nSecond {MARKUP}.\n"
    doc = write(home.parent / "hostile-inputs" / name, text)
    result = run_mr(home, "import", str(doc), "--extractor", "placeholder")
    assert result.returncode == 0, result.stderr
    con = sqlite3.connect(str(db_file(home)))
    try:
        con.execute(
            "UPDATE unit SET content = ?, tags_json = ? WHERE id = (SELECT MIN(id) FROM unit)",
            (f"LLM says {PAYLOAD}", json.dumps([f"tag{ESCAPES}", MARKUP])),
        )
        con.execute("UPDATE question SET question = ?, answer = ?", (f"Q {PAYLOAD}", f"A {MARKUP}{ESCAPES}"))
        con.execute("UPDATE article SET title = title || ?", (f" {ESCAPES}{MARKUP}",))
        con.commit()
    finally:
        con.close()


@pytest.mark.parametrize(
    "command", [["list"], ["show", "1"], ["show", "evil"], ["search", PAYLOAD], ["search", "click-me"]]
)
def test_cli_writes_no_control_bytes_and_keeps_markup_literal(
    hostile_library: Path, command: list[str]
) -> None:
    result = run_mr_bytes(hostile_library, *command)
    assert result.returncode == 0, result.stderr
    for stream in (result.stdout, result.stderr):
        text = stream.decode("utf-8")
        bad = CONTROL_RE.findall(text.replace("\r\n", "\n"))
        assert bad == [], f"control characters reached the terminal: {bad!r}"
    out = result.stdout.decode()
    assert "[@click=app.quit]" in out  # shown, literally (searching the payload finds its unit)
    assert not Path("/tmp/mr-pwned").exists()


def test_tmux_control_a_raw_escape_does_change_the_title(tmux: Tmux, tmp_path: Path) -> None:
    """The detector works: printing the payload raw (not through MemoryRush) changes the title."""
    raw = write(tmp_path / "raw.bin", ESCAPES)
    target = tmux.start(["cat", str(raw)], {})
    tmux.wait_dead(target)
    assert tmux.title(target) != Tmux.TITLE
    assert "pwned" in tmux.clipboard()  # and the OSC 52 clipboard write is seen


@pytest.mark.parametrize("command", [["list"], ["show", "1"]])
def test_real_terminal_shows_payload_literally(hostile_library: Path, tmux: Tmux, command: list[str]) -> None:
    target = tmux.start([*cli_argv(), *command], mr_env(hostile_library))
    tmux.wait_dead(target)
    screen = tmux.screen(target)
    assert tmux.exit_status(target) == 0, screen
    assert tmux.title(target) == Tmux.TITLE, "an escape sequence changed the terminal title"
    assert "pwned" not in tmux.clipboard(), "an escape sequence wrote the clipboard"
    assert "[@click=app.quit]" in screen
    assert "PWNED" not in tmux.title(target)
    if command[0] == "show":
        assert "LLM says [@click=app.quit]click-me[/] [bold red]not-red[/]" in screen
        assert "Traceback" not in screen


def test_app_in_a_real_terminal_shows_payloads_literally_and_obeys_none(
    hostile_library: Path, tmux: Tmux
) -> None:
    """`memoryrush` (the Textual app) in tmux: the library list, the article with its units and
    the search box show the payloads as text; the title never changes; the app only quits
    when asked."""
    target = tmux.start([*cli_argv(), "--data-dir", str(hostile_library)], mr_env(hostile_library), 140, 40)
    tmux.wait_for(target, "to confirm")
    tmux.keys(target, "l")
    # The Library's own title, not the payload: Home shows the payload too, and an Enter sent
    # before the Library was up was lost (seen at load 8: the article never opened).
    tmux.wait_for(target, "MemoryRush — 1 article")
    tmux.wait_for(target, "[@click=app.quit]")
    tmux.keys(target, "Enter")
    screen = tmux.wait_for(target, "LLM says")  # the unit (text wraps in its pane)
    assert "[@click=app.quit]click-me[/]" in screen
    assert "[bold red]not-red[/]" in screen
    assert "$(touch /tmp/mr-pwned)" in screen
    tmux.keys(target, "Escape")
    time.sleep(1)  # a key right after Escape would be read as Alt+key
    tmux.keys(target, "Escape")
    tmux.wait_for(target, "to confirm")
    time.sleep(1)
    tmux.keys(target, "/")
    tmux.wait_for(target, "esc Close")  # the search box is open
    time.sleep(0.5)
    tmux.keys(target, "-l", "[@click=app.quit] x")
    tmux.wait_for(target, "[@click=app.quit] x")  # typed text shown as typed
    assert not tmux.dead(target), "a payload made the app quit"
    assert tmux.title(target) == Tmux.TITLE, "an escape sequence changed the terminal title"
    assert "pwned" not in tmux.clipboard(), "an escape sequence wrote the clipboard"
    assert not Path("/tmp/mr-pwned").exists()
    tmux.keys(target, "Escape")
    time.sleep(1)  # a key right after Escape can be read as Alt+key
    tmux.quit_app(target)  # (and it retries the quit)
    assert tmux.exit_status(target) == 0


def test_clicking_on_payload_text_in_the_app_runs_no_action(hostile_library: Path) -> None:
    """Pilot clicks where `[@click=app.quit]` shows in the library and in the article: had the
    text been parsed as markup, the link text would sit right there and the click quit the app."""
    from .app_driver import run_app, screen_text, settle

    async def click_payloads(app, pilot, where: str) -> int:  # type: ignore[no-untyped-def]
        clicks = 0
        for y, line in enumerate(screen_text(app).splitlines()):
            x = line.find("[@click")
            while x >= 0:
                for dx in range(0, 12, 2):
                    await pilot.click(offset=(x + dx, y))
                    clicks += 1
                await pilot.pause()
                assert app.is_running, f"a click on the payload in {where} (row {y}) ran an action"
                x = line.find("[@click", x + 1)
        return clicks

    async def body(app, pilot) -> None:  # type: ignore[no-untyped-def]
        await pilot.press("l")
        await settle(pilot)
        assert await click_payloads(app, pilot, "the library") > 0
        await pilot.press("escape")
        await settle(pilot)
        await pilot.press("l", "enter")
        await settle(pilot)
        assert await click_payloads(app, pilot, "the article") > 0

    run_app(hostile_library, body)
    assert not Path("/tmp/mr-pwned").exists()


def test_every_screen_writes_only_textual_escapes_to_a_real_terminal(
    hostile_library: Path, tmux: Tmux, tmp_path: Path
) -> None:
    """Every screen and modal over hostile data, in tmux, every byte recorded: the Import tree
    lists files named with OSC 2 / OSC 52 / DCS / C1 CSI / 2J / bidi / markup payloads, one of
    them is picked into the path field and imported; Library, Article, Triage and its edit
    dialog, Review (revealed), Stats, Settings, Help, Search and the palette follow. The raw
    output holds no sequence Textual does not draw with, the title and the clipboard stay
    untouched, and the app exits 0 when asked to quit."""
    for name in HOSTILE_NAMES:  # the Import tree starts in the working folder (tmux.workdir)
        write(tmp_path / name, "# Named badly\n\nA short article about spaced repetition and memory.\n")
    write(
        hostile_library / "config.toml",
        '[extraction]\nollama_model = "model\\u001b]2;PWNED-MODEL\\u0007[@click=app.quit]"\n',
    )
    con = sqlite3.connect(str(db_file(hostile_library)))
    try:
        con.execute("UPDATE unit SET model = ?", (f"llm{ESCAPES}",))
        con.commit()
    finally:
        con.close()
    raw = tmp_path / "terminal.bin"
    env = mr_env(hostile_library)
    target = tmux.start([*cli_argv(), "--data-dir", str(hostile_library)], env, 140, 40, record=raw)
    tmux.wait_for(target, Tmux.HOME)
    tmux.keys(target, "i")
    tmux.wait_for(target, "]2;PWNED-TR")  # the tree lists the names, as text
    tmux.keys(target, "Tab", "Down", "Down", "Down", "Enter")  # home/, inputs/, then a-title...
    tmux.wait_for(target, "/a-title ]2")  # picked into the path field, as text
    tmux.keys(target, "C-r")
    screen = tmux.wait_for(target, "Finished")
    assert "imported" in screen, screen
    tour = [
        ("l", "Library", "[@click=app.quit]"),
        ("Down", "Library", "[@click=app.quit]"),  # newest first: the hostile article is second
        ("Enter", "Article", "LLM says"),
        ("t", "Triage", "Accept"),
        ("e", "Edit unit", "Tags, separated by spaces or commas"),
    ]
    tmux.escape(target)
    for key, _name, shown in tour:
        tmux.keys(target, key)
        tmux.wait_for(target, shown)
    tmux.escape(target)  # the edit dialog
    tmux.keys(target, "a")  # accept: its questions become cards
    tmux.wait_for(target, "Accepted")
    for _ in range(3):
        tmux.escape(target)
    for key, shown, extra in [
        ("r", "Q [@click=app.quit]", "space"),
        ("s", "Extractor", None),
        (",", "desired retention", "Tab"),
        ("?", "Everywhere", None),
        ("/", "Search the library", "click"),
        ("C-p", "Search for commands", "Title"),
    ]:
        tmux.wait_for(target, Tmux.HOME)
        tmux.keys(target, key)
        tmux.wait_for(target, shown)
        if extra == "Tab":  # down to the model's field (Settings scrolls to the focused one)
            tmux.keys(target, *["Tab"] * 7)
            tmux.wait_for(target, "model ]2;PWNED-MODEL")
        elif extra == "space":
            tmux.keys(target, "Space")
            tmux.wait_for(target, "A [@click=app.quit]")
        elif extra is not None:
            time.sleep(0.5)
            tmux.keys(target, "-l", extra)
            tmux.wait_for(target, "Open: Title" if extra == "Title" else "click-me")
        tmux.escape(target)
    tmux.quit_app(target)
    assert tmux.exit_status(target) == 0, tmux.screen(target)
    assert tmux.title(target) == Tmux.TITLE, "an escape sequence changed the terminal title"
    assert "pwned" not in tmux.clipboard(), "an escape sequence wrote the clipboard"
    time.sleep(0.3)  # pipe-pane's cat flushes the last bytes
    bad = findings(raw.read_bytes())
    assert bad == [], f"{len(bad)} sequences reached the terminal, the first: {bad[:5]}"
