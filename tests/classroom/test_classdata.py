"""mindwidget.classdata: a class's plays, results and saved file, from real games."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mindwidget import Game, RuleError, Table, classdata, run_game, trace
from mindwidget.events import Played


def _played_level(seed: int) -> Table:
    """A table of three (a person in seat 0, two bots) after one played level."""
    table = Table(players=3, seats=(0,), bots="perfect", seed=seed, mode="step")
    while table.game.status == "playing":
        if "ready" in table.allowed(0):
            table.ready()
        elif "play" in table.allowed(0) and (
            table.planned is None or table.planned.t > table.now + 1.0
        ):
            table.play(0, t=table.now + 1.0)
        else:
            table.wait()
    return table


SEATS = {
    1: [
        {"seat": 0, "kind": "person", "pupil": "p1", "name": "Anna", "rtt_ms": 12.5},
        {"seat": 1, "kind": "bot", "name": "Bot 2"},
        {"seat": 2, "kind": "bot", "name": "Bot 3"},
    ],
    2: [
        {"seat": 0, "kind": "person", "pupil": "p2", "name": "Bas", "rtt_ms": 40.0},
        {"seat": 1, "kind": "person", "pupil": "p3", "name": "Cem", "rtt_ms": None},
        {"seat": 2, "kind": "bot", "name": "Bot 3"},
    ],
}


@pytest.fixture(scope="module")
def tables() -> dict[int, Game]:
    return {1: _played_level(3).game, 2: _played_level(4).game}


def test_one_row_per_play_agreeing_with_each_game(tables: dict[int, Game]) -> None:
    frame = classdata.plays(tables, SEATS)
    assert tuple(frame.columns) == classdata.PLAY_COLUMNS
    for number, game in tables.items():
        mine = frame[frame["table"] == number]
        played = [e for e in game.events if isinstance(e, Played)]
        assert len(played) > 0
        assert mine["card"].tolist() == [e.card for e in played]
        assert mine["player"].tolist() == [e.player for e in played]
        assert mine["t"].tolist() == [e.t for e in played]
        assert "seat" not in mine  # one numbering in the data: player, from 0 (issue 24)
        # gap and wait are the trace's, not derived again
        t = trace(game)
        t = t[t["outcome"].isin(("play", "mistake"))]
        assert mine["gap"].tolist() == pytest.approx(t["gap"].tolist(), nan_ok=True)
        assert mine["wait"].tolist() == t["wait"].tolist()
        assert mine["mistake"].tolist() == (t["outcome"] == "mistake").tolist()


def test_seat_metadata_names_people_and_bots(tables: dict[int, Game]) -> None:
    frame = classdata.plays(tables, SEATS)
    anna = frame[(frame["table"] == 1) & (frame["player"] == 0)]
    assert set(anna["name"]) == {"Anna"} and set(anna["kind"]) == {"person"}
    assert set(anna["rtt_ms"]) == {12.5}
    bots = frame[frame["kind"] == "bot"]
    assert len(bots) > 0 and bots["rtt_ms"].isna().all()
    cem = frame[(frame["table"] == 2) & (frame["player"] == 1)]
    assert cem["rtt_ms"].isna().all()  # not measured yet: NaN, not a made-up number
    unknown = classdata.plays(tables)
    assert set(unknown["kind"]) == {""} and set(unknown["name"]) == {""}


def test_each_plays_round_trip_is_the_one_at_the_time_of_the_play(
    tables: dict[int, Game],
) -> None:
    """With ``rtts`` (what a class table writes down at each play) a play's round
    trip is the one of its time, not the seat's latest (issue 24)."""
    first = classdata.plays(tables, SEATS)
    anna = first[(first["table"] == 1) & (first["player"] == 0)]
    at_play = {
        (int(r.level), bool(r.blind), int(r.card)): 10.0 + i
        for i, r in enumerate(anna.itertuples())
    }
    frame = classdata.plays(tables, SEATS, rtts={1: at_play})
    mine = frame[(frame["table"] == 1) & (frame["player"] == 0)]
    assert mine["rtt_ms"].tolist() == [10.0 + i for i in range(len(mine))]
    assert frame[frame["table"] == 1]["rtt_ms"].notna().sum() == len(mine)  # bots: NaN
    # a table without rtts: the seat's latest, as before
    assert set(frame[(frame["table"] == 2) & (frame["player"] == 0)]["rtt_ms"]) == {40.0}


def test_the_games_speak_the_class_language(tables: dict[int, Game]) -> None:
    shown = classdata.games(tables, lang="nl")
    assert all(g.lang == "nl" for g in shown.values())
    assert "speler" in repr(shown[1]).lower()
    assert all(g.lang == "en" for g in tables.values())  # the tables' own games untouched


def test_a_mistake_is_marked() -> None:
    g = Game.from_hands([[26], [30], [34, 50]], level=2)
    g.ready(t=0)
    g.play(2, t=2.0)
    frame = classdata.plays({5: g})
    assert frame["mistake"].tolist() == [True]
    res = classdata.results({5: g})
    assert res.loc[0, "mistakes"] == 1 and not res.loc[0, "cleared"]


def test_results_one_row_per_table_and_level() -> None:
    tables = {1: run_game(Game(players=2, seed=2), "perfect", seed=2)}
    res = classdata.results(tables)
    assert tuple(res.columns) == classdata.RESULT_COLUMNS
    assert res["level"].tolist() == list(range(1, tables[1].levels + 1))
    assert res["cleared"].all() and (res["mistakes"] == 0).all()


def test_save_replays_exactly_table_by_table(tables: dict[int, Game], tmp_path: Path) -> None:
    path = classdata.save(tmp_path / "class.json", tables, SEATS)
    data = json.loads(path.read_text("utf-8"))
    assert [e["table"] for e in data["tables"]] == [1, 2]
    for entry in data["tables"]:
        game = Game.from_json(json.dumps(entry["game"]))
        assert game.to_json() == tables[entry["table"]].to_json()
    loaded = classdata.load(path)
    assert {n: g.to_json() for n, g in loaded.items()} == {
        n: g.to_json() for n, g in tables.items()
    }
    # nicknames only: no pupil id, no round trip
    assert data["tables"][0]["seats"][0] == {"seat": 0, "kind": "person", "name": "Anna"}
    assert "p1" not in path.read_text("utf-8")


def test_a_tampered_class_file_is_refused_naming_the_table(
    tables: dict[int, Game], tmp_path: Path
) -> None:
    data = json.loads(classdata.to_json(tables, SEATS))
    data["tables"][1]["game"]["state"]["lives"] = 99
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data), "utf-8")
    with pytest.raises(RuleError, match="table 2: the saved game was changed"):
        classdata.load(path)
    path.write_text('{"format": "mindwidget-class", "version": 1, "tables": 3}', "utf-8")
    with pytest.raises(RuleError, match="list of tables"):
        classdata.load(path)


def test_nothing_is_written_without_save(
    tables: dict[int, Game], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    classdata.plays(tables, SEATS)
    classdata.results(tables)
    classdata.to_json(tables, SEATS)
    copies = classdata.games(tables)
    assert list(tmp_path.iterdir()) == []
    # the copies are the class's to study: changing one leaves the table's game as it was
    before = tables[1].to_json()
    assert copies[1].status == "cleared"
    copies[1].next_level()
    assert tables[1].to_json() == before


def test_bad_arguments_say_what_is_allowed() -> None:
    with pytest.raises(ValueError, match="mapping of table number to Game"):
        classdata.plays([Game()])  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="table number must be a whole number >= 1"):
        classdata.plays({0: Game()})
    with pytest.raises(ValueError, match="table 1: expected a mindwidget Game"):
        classdata.plays({1: "game"})  # type: ignore[dict-item]
    empty = classdata.plays({})
    assert empty.empty and tuple(empty.columns) == classdata.PLAY_COLUMNS
