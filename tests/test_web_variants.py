"""The workbench's variant routes (Starlette's TestClient): a pasted f-puzzles / SudokuPad link is read, drawn,
solved and counted; a bad link is a 400 with the reader's one line."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from sudokit.formats.fpuzzles import read_fpuzzles, to_link
from variant_corpus import BY_NAME

#: each call's time limit on the test server (s): ample for a busy machine; only a runaway search reaches it
LIMIT = 120


@pytest.fixture(scope="module")
def client():
    from starlette.testclient import TestClient

    from sudokit.web import create_app

    with TestClient(create_app(workers=1, timeout=LIMIT, generate_timeout=LIMIT)) as c:
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


# ---- logic and the generator: hint, explain, rate, picture, generate -------------------------------------
def test_hint_on_a_killer_is_a_cage_step_with_its_board(client):
    answer = client.post("/api/variant/hint", json={"text": _link("Killer")})
    assert answer.status_code == 200, answer.text
    data = answer.json()
    step = data["step"]
    assert data["note"] == "" and step["technique"] == "Cage Combination"
    assert "cage A1+A2 = 3" in step["explanation"] and step["cells"] == [0, 1]
    assert len(step["values"]) == 81 and len(step["masks"]) == 81
    solution = BY_NAME["Killer"]["solution"]
    for s, d in step["eliminations"]:  # sound: no elimination removes the solution's digit
        assert int(solution[s]) != d and step["masks"][s] >> (d - 1) & 1


def test_explain_walks_a_killer_to_its_solution_and_each_step_draws(client):
    text = _link("Killer")
    data = client.post("/api/variant/explain", json={"text": text}).json()
    assert data["solved"] and data["message"].startswith("solved by logic in")
    assert "".join(map(str, data["final"])) == BY_NAME["Killer"]["solution"]
    assert data["rating"] == max(s["rating"] for s in data["steps"])
    step = data["steps"][3]
    highlight = {k: step[k] for k in ("cells", "eliminations", "placements") if step[k]}
    body = {"text": text, "values": step["values"], "candidates": step["masks"], "highlight": highlight}
    answer = client.post("/api/variant/picture", json=body)
    assert answer.status_code == 200, answer.text
    root = ET.fromstring(answer.json()["svg"])
    assert root.find("{http://www.w3.org/2000/svg}polyline") is not None  # the cages are still drawn


def test_rate_gives_the_lines_the_cli_prints(client):
    data = client.post("/api/variant/rate", json={"text": _link("Killer")}).json()
    assert data["lines"][0] == f"SE rating (ER/EP/ED): {data['er']:.1f}/{data['ep']:.1f}/{data['ed']:.1f}"
    assert data["lines"][1] == f"HoDoKu level: {data['level']} (score {data['score']})"
    assert data["solved"] and data["lines"][2] == f"hardest step: {data['hardest']}"


def test_a_puzzle_with_several_solutions_is_not_rated_and_its_hints_say_so(client):
    import dataclasses

    from sudokit.formats.fpuzzles import parse_variant

    puzzle = parse_variant(_link("Killer"))
    loose = dataclasses.replace(puzzle, constraints=puzzle.constraints[:-3])  # three cages fewer
    text = to_link(loose)
    answer = client.post("/api/variant/rate", json={"text": text})
    assert answer.status_code == 422 and "more than one solution" in answer.json()["error"]
    hinted = client.post("/api/variant/hint", json={"text": text}).json()
    assert "more than one solution" in hinted["note"] and hinted["step"] is not None


def test_generate_makes_a_seeded_killer_whose_link_reads_back(client):
    from sudokit import count_solutions
    from sudokit.formats.fpuzzles import parse_variant

    first = client.post("/api/variant/generate", json={"kind": "killer", "seed": 7})
    assert first.status_code == 200, first.text
    data = first.json()
    again = client.post("/api/variant/generate", json={"kind": "killer", "seed": 7}).json()
    assert again["link"] == data["link"]  # the seed makes the same puzzle
    assert data["sudokupad_link"].startswith("https://sudokupad.app/fpuzzles")
    puzzle = parse_variant(data["sudokupad_link"])
    assert not any(puzzle.givens.values) and all(c.kind == "killer" for c in puzzle.constraints)
    assert count_solutions(puzzle, limit=2) == 1
    assert data["svg"].startswith("<svg") and len(data["rules"]) == len(puzzle.constraints) + 1


@pytest.mark.parametrize(
    ("route", "body", "words"),
    [
        ("hint", {"text": "https://f-puzzles.com/?load=AAAA"}, "damaged"),
        ("explain", {"text": "https://sudokupad.app/8bNmDd4J9G"}, "needs the network"),
        ("rate", {}, "'text'"),
        ("picture", {"text": "KILLER", "values": [0] * 80}, "'values'"),
        ("picture", {"text": "KILLER", "values": [10] + [0] * 80}, "'values'"),
        ("picture", {"text": "KILLER", "values": [0] * 81, "candidates": [1024] * 81}, "'candidates'"),
        ("picture", {"text": "KILLER", "values": [0] * 81, "highlight": {"cells": [81]}}, "cell"),
        ("generate", {"kind": "thermo"}, "killer"),
        ("generate", {"seed": -1}, "'seed'"),
        ("generate", {"seed": "x"}, "'seed'"),
    ],
)
def test_bad_logic_requests_are_a_400_with_one_line(client, route, body, words):
    if body.get("text") == "KILLER":
        body = {**body, "text": _link("Killer")}
    answer = client.post(f"/api/variant/{route}", json=body)
    assert answer.status_code == 400, answer.text
    assert words in answer.json()["error"] and "\n" not in answer.json()["error"]


def test_no_body_makes_a_variant_route_fail(client):
    """Random fields on every variant route: always an answer, never a 500 (hypothesis, seeded)."""
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    link = _link("Killer")
    leaves = st.none() | st.booleans() | st.integers(-3, 2**40) | st.text(max_size=8)
    values = st.recursive(leaves, lambda inner: st.lists(inner, max_size=4), max_leaves=10)
    routes = st.sampled_from(["load", "hint", "rate", "picture", "generate", "count"])
    fields = st.fixed_dictionaries(
        {},
        optional={
            "text": st.just(link) | values,
            "values": st.lists(st.integers(-1, 10), min_size=80, max_size=82) | values,
            "candidates": st.lists(st.integers(-1, 600), min_size=81, max_size=81) | values,
            "highlight": st.dictionaries(st.sampled_from(["cells", "units", "links", "eliminations", "x"]), values)
            | values,
            "kind": values,
            "seed": values,
            "limit": values,
        },
    )

    @settings(max_examples=60, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
    @given(route=routes, body=fields)
    def check(route, body):
        answer = client.post(f"/api/variant/{route}", json=body)
        assert answer.status_code < 500, answer.text
        assert isinstance(answer.json(), dict)

    check()
