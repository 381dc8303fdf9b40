"""The workbench's variant routes (Starlette's TestClient): a pasted f-puzzles / SudokuPad link is read, drawn,
solved and counted; a bad link is a 400 with the reader's one line."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from sudokit.formats.fpuzzles import read_fpuzzles, to_link

DATA = Path(__file__).resolve().parents[1] / "data" / "variants" / "iss_fpuzzles.jsonl"
BY_NAME = {d["name"]: d for d in (json.loads(line) for line in DATA.read_text().splitlines())}


@pytest.fixture(scope="module")
def client():
    from starlette.testclient import TestClient

    from sudokit.web import create_app

    with TestClient(create_app(workers=1, timeout=30, generate_timeout=30)) as c:
        yield c


def _link(name: str, site: str = "f-puzzles") -> str:
    return to_link(read_fpuzzles(BY_NAME[name]["fpuzzles"]), site)


def test_load_draws_the_constraints_and_lists_the_rules(client):
    answer = client.post("/api/variant/load", json={"text": _link("Killer", "scl")})
    assert answer.status_code == 200, answer.text
    data = answer.json()
    assert data["size"] == 9 and data["title"] == "Killer"
    assert data["rules"][0].startswith("9x9, units") and any("killer cage" in r for r in data["rules"][1:])
    root = ET.fromstring(data["svg"])
    assert root.find("{http://www.w3.org/2000/svg}polyline") is not None


def test_solve_and_count(client):
    d = BY_NAME["Thermo"]
    solved = client.post("/api/variant/solve", json={"text": _link("Thermo")}).json()
    assert solved["status"] == "solved"
    assert "".join(map(str, solved["solution"])) == d["solution"]
    assert solved["svg"].startswith("<svg")
    counted = client.post("/api/variant/count", json={"text": _link("Thermo"), "limit": 5}).json()
    assert counted == {"count": 1, "limit": 5, "exact": True, "status": "solved"}


@pytest.mark.parametrize(
    ("route", "text", "words"),
    [
        ("load", "https://sudokupad.app/8bNmDd4J9G", "needs the network"),
        ("solve", "https://f-puzzles.com/?load=AAAA", "damaged"),
        ("count", '{"size": 4, "grid": []}', "field 'grid'"),
    ],
)
def test_bad_links_are_a_400_with_one_line(client, route, text, words):
    answer = client.post(f"/api/variant/{route}", json={"text": text})
    assert answer.status_code == 400
    assert words in answer.json()["error"] and "\n" not in answer.json()["error"]
