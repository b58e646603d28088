"""The class server's own routes for the class's plays as a spreadsheet file, and a
pupil's "Jouw klok" over a real socket (the message is checked like any other)."""

from __future__ import annotations

import io
import urllib.error
import urllib.request
from collections.abc import Iterator

import pandas as pd
import pytest
from classroom_harness import Server
from test_classroom import all_phase, clear_level, play_level_well, ready_all, seated


@pytest.fixture
def server() -> Iterator[Server]:
    s = Server(size=2, seed=7, bots="none", lang="nl")
    yield s
    s.stop()


def test_the_teachers_page_downloads_the_plays_as_a_dutch_csv(server: Server) -> None:
    pupils = seated(server, ["Anna", "Bo"])
    room = server.room
    assert room is not None
    all_phase(pupils, "ready")
    clear_level(pupils)
    url = f"http://127.0.0.1:{server.port}/teacher/plays.csv"
    for headers in ({}, {"X-Teacher-Token": "wrong"}):
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(urllib.request.Request(url, headers=headers), timeout=10)
        assert refused.value.code == 403
    request = urllib.request.Request(url, headers={"X-Teacher-Token": room.teacher_token})
    with urllib.request.urlopen(request, timeout=10) as answer:
        assert answer.headers["Content-Type"] == "text/csv; charset=utf-8"
        assert answer.headers["Content-Disposition"].endswith('.csv"')
        body = answer.read()
    assert body.startswith(b"\xef\xbb\xbf")  # the byte-order mark Excel needs
    back = pd.read_csv(io.BytesIO(body), sep=";", decimal=",", encoding="utf-8-sig")
    assert list(back.columns[:4]) == ["tafel", "spel", "level", "blind"]
    assert sorted(back["naam"]) == ["Anna", "Bo"] and sorted(back["speler"]) == [1, 2]
    english = urllib.request.Request(
        f"{url}?lang=en", headers={"X-Teacher-Token": room.teacher_token}
    )
    with urllib.request.urlopen(english, timeout=10) as answer:
        back = pd.read_csv(io.BytesIO(answer.read()), encoding="utf-8-sig")
    assert "wait (s)" in back.columns


def test_a_pupil_asks_for_their_clock_over_the_socket(server: Server) -> None:
    anna, bo = seated(server, ["Anna", "Bo"])
    all_phase([anna, bo], "ready")
    ready_all([anna, bo])
    anna.send({"type": "own_clock"})  # while the level runs: refused, nothing sent
    anna.wait(lambda c: any(m.get("key") == "clock_later" for m in c.received), "refused")
    assert not [m for m in anna.received if m.get("type") == "own_clock"]
    play_level_well([anna, bo])
    all_phase([anna, bo], "cleared")
    anna.send({"type": "own_clock"})
    clock = anna.wait_msg("own_clock")
    assert clock["name"] == "Anna" and len(clock["plays"]) == 1
