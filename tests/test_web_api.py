"""The workbench's JSON API over HTTP (Starlette's TestClient): every route, good input and bad."""

from __future__ import annotations

import json
import warnings
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sudokit.formats import parse_grid
from sudokit.geometry import from_name
from sudokit.grid import Candidates, Grid, is_solution

with warnings.catch_warnings():  # starlette 1.x warns that it prefers httpx2; httpx works
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

DATA = Path(__file__).resolve().parents[1] / "data"
PUZZLE = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
SOLUTION = "417369825632158947958724316825437169791586432346912758289643571573291684164875293"
POST_ROUTES = [
    "geometry",
    "parse",
    "check",
    "candidates",
    "solve",
    "count",
    "hint",
    "explain",
    "generate",
    "rate",
    "svg",
]
#: each call's time limit on the test server (s): ample for a busy machine; only a runaway search reaches it
LIMIT = 120
PUZZLE_ROUTES = ["check", "candidates", "solve", "count", "hint", "explain", "rate", "svg"]


@pytest.fixture(scope="module")
def client():
    from sudokit.web import create_app

    with TestClient(create_app(workers=1, timeout=LIMIT, generate_timeout=LIMIT)) as c:
        yield c


def first_line(name: str) -> str:
    return (DATA / name).read_text().splitlines()[0]


def tdoku_line(count: int) -> str:
    """The first puzzle of tdoku's test file with exactly ``count`` solutions."""
    for line in (DATA / "tdoku_test_puzzles.txt").read_text().splitlines():
        fields = line.split(":")
        if int(fields[1]) == count:
            return fields[0]
    raise AssertionError(f"no puzzle with {count} solutions")


def grid_of(values: list[int], variant: str = "standard") -> Grid:
    return Grid(from_name(variant, len(values)), tuple(values))


JSON = {"content-type": "application/json"}


def assert_refused(response, status: int = 400) -> str:
    assert response.status_code == status, response.text
    body = response.json()
    assert isinstance(body["error"], str) and body["error"]
    return body["error"]


# ---- page and info -------------------------------------------------------------------------------
def test_index_page_is_served_with_a_strict_content_security_policy(client):
    response = client.get("/")
    assert response.status_code == 200
    assert "sudokit workbench" in response.text
    assert "default-src 'self'" in response.headers["content-security-policy"]
    assert response.headers["x-content-type-options"] == "nosniff"
    for asset in ("/static/app.js", "/static/style.css"):
        assert client.get(asset).status_code == 200


def test_static_files_stay_inside_their_folder(client):
    for path in ("/static/../app.py", "/static/%2e%2e/app.py", "/static/..%2fapp.py", "/static/../../errors.py"):
        response = client.get(path)
        assert response.status_code == 404, path
        assert "create_app" not in response.text


def test_info_lists_features_variants_and_limits(client):
    info = client.get("/api/info").json()
    assert info["features"]["solve"] and info["features"]["count"]
    assert {"standard", "diagonal", "16x16"} <= {v["variant"] for v in info["variants"]}
    assert info["limits"]["max_body"] == 1 << 20
    if info["features"]["generate"]:
        assert "easy" in info["difficulties"]


def test_api_answers_are_not_cached(client):
    assert client.get("/api/info").headers["cache-control"] == "no-store"


# ---- solve and count -----------------------------------------------------------------------------
def test_solve_returns_the_checked_unique_solution(client):
    result = client.post("/api/solve", json={"puzzle": PUZZLE}).json()
    assert result["status"] == "solved"
    solution = grid_of(result["solution"])
    assert is_solution(solution, parse_grid(PUZZLE))
    assert solution.to_line() == SOLUTION
    assert result["count"] == 1 and result["stats"]["nodes"] >= 1


def test_solve_reports_several_none_and_invalid(client):
    several = client.post("/api/solve", json={"puzzle": first_line("serg_benchmark.txt")}).json()
    assert several["status"] == "multiple" and several["solution"] is None and several["count"] == 2
    none = client.post("/api/solve", json={"puzzle": tdoku_line(0)}).json()
    assert none["status"] == "no_solution" and none["solution"] is None
    clash = "11" + "." * 79
    invalid = client.post("/api/solve", json={"puzzle": clash}).json()
    assert invalid["status"] == "invalid" and "row A" in invalid["message"]


@pytest.mark.parametrize(
    ("variant", "puzzle"),
    [
        ("standard", first_line("sudoku4_vu.txt")),
        ("standard", first_line("sudoku16_vu.txt")),
        ("diagonal", first_line("xsudoku9.txt")),
        ("4x4", first_line("sudoku4_vu.txt")),
    ],
)
def test_solve_handles_sizes_and_variants(client, variant, puzzle):
    result = client.post("/api/solve", json={"puzzle": puzzle, "variant": variant}).json()
    assert result["status"] == "solved"
    geometry = from_name(variant, len(puzzle))
    assert is_solution(Grid(geometry, tuple(result["solution"])), parse_grid(puzzle, geometry=geometry))


def test_solve_reads_a_multi_line_grid(client):
    rows = "\n".join(" ".join(PUZZLE[r * 9 : r * 9 + 9]) for r in range(9))
    result = client.post("/api/solve", json={"puzzle": rows}).json()
    assert grid_of(result["solution"]).to_line() == SOLUTION


def test_count_is_exact_below_the_limit_and_capped_at_it(client):
    exact = client.post("/api/count", json={"puzzle": tdoku_line(125), "limit": 1000}).json()
    assert exact == {"count": 125, "limit": 1000, "exact": True}
    capped = client.post("/api/count", json={"puzzle": "." * 81, "limit": 50}).json()
    assert capped == {"count": 50, "limit": 50, "exact": False}
    clash = client.post("/api/count", json={"puzzle": "11" + "." * 79}).json()
    assert clash["count"] == 0


# ---- candidates, check, parse, geometry ----------------------------------------------------------
def test_candidates_are_the_digits_no_peer_holds(client):
    result = client.post("/api/candidates", json={"puzzle": PUZZLE}).json()
    expected = Candidates.of(parse_grid(PUZZLE))
    assert result["candidates"] == [list(expected[s]) for s in range(81)]


def test_check_names_each_conflict_and_recognises_a_solution(client):
    bad = client.post("/api/check", json={"puzzle": "5....5" + "." * 75}).json()
    assert bad["conflicts"][0]["cells"] == [0, 5]
    assert bad["conflicts"][0]["message"] == "digit 5 twice in row A (A1, A6)"
    assert not bad["solved"]
    good = client.post("/api/check", json={"puzzle": SOLUTION}).json()
    assert good == {"conflicts": [], "complete": True, "solved": True, "givens": 81}


def test_parse_reads_csv_files_by_name_and_counts_their_puzzles(client):
    text = f"quizzes,solutions\n{PUZZLE},{SOLUTION}\n{first_line('norvig_top95.txt')},\n"
    result = client.post("/api/parse", json={"text": text, "name": "games.csv"}).json()
    assert result["line"] == PUZZLE and result["found"] == 2 and result["givens"] == 17
    second = client.post("/api/parse", json={"text": text, "name": "games.csv", "index": 1}).json()
    assert second["line"] == first_line("norvig_top95.txt")


def test_parse_reads_a_pretty_grid_and_reports_its_conflicts(client):
    rows = ["5 . . |. . 5 |. . .", *[". . . |. . . |. . ."] * 8]
    result = client.post("/api/parse", json={"text": "\n".join(rows)}).json()
    assert result["givens"] == 2 and result["conflicts"][0]["unit_name"] == "row A"
    assert result["geometry"]["size"] == 9


def test_parse_error_names_line_and_column(client):
    text = PUZZLE[:10] + "x" + PUZZLE[11:]
    message = assert_refused(client.post("/api/parse", json={"text": text}))
    assert "1:11" in message and "'x'" in message


def test_geometry_describes_regions_and_extra_units(client):
    windoku = client.post("/api/geometry", json={"variant": "windoku"}).json()["geometry"]
    assert len(windoku["extra_units"]) == 4 and windoku["region"][80] == 8
    six = client.post("/api/geometry", json={"variant": "standard", "size": 6}).json()["geometry"]
    assert six["size"] == 6 and six["box_rows"] == 2 and six["box_cols"] == 3
    jig = "".join(str(r) * 4 for r in range(4))
    jigsaw = client.post("/api/geometry", json={"variant": f"jigsaw:{jig}"}).json()["geometry"]
    assert jigsaw["size"] == 4 and jigsaw["region"][:4] == [0, 0, 0, 0]


# ---- logic, generate, rate -------------------------------------------------------------------------
def test_hint_gives_a_correct_next_step_with_its_board(client):
    result = client.post("/api/hint", json={"puzzle": PUZZLE}).json()
    step = result["step"]
    assert step["explanation"] and step["technique"]
    assert step["values"] == list(parse_grid(PUZZLE).values)
    for cell, digit in step["placements"]:
        assert int(SOLUTION[cell]) == digit
    for cell, digit in step["eliminations"]:
        assert int(SOLUTION[cell]) != digit


def test_hint_takes_the_pages_candidates_and_says_when_there_is_nothing_to_do(client):
    masks = Candidates.of(parse_grid(PUZZLE)).masks
    narrowed = [0 if v != "." else m for v, m in zip(PUZZLE, masks)]
    with_masks = client.post("/api/hint", json={"puzzle": PUZZLE, "candidates": narrowed}).json()
    assert with_masks["step"]["masks"] == narrowed
    done = client.post("/api/hint", json={"puzzle": SOLUTION}).json()
    assert done == {"step": None, "message": "the grid is complete"}
    refused = client.post("/api/hint", json={"puzzle": PUZZLE, "candidates": [1] * 80})
    assert "81 bitmasks" in assert_refused(refused)


def test_the_pages_candidates_keep_the_puzzles_givens():
    # the avoidable rectangles need to know which cells were given (logic/avoidable.py)
    from sudokit.web.tasks import _logic_state

    grid = parse_grid(PUZZLE)
    state = _logic_state(grid, list(Candidates.of(grid).masks))
    assert state.givens == frozenset(s for s, ch in enumerate(PUZZLE) if ch != ".")


def test_explain_and_rate_start_from_the_pages_candidates(client):
    masks = list(Candidates.of(parse_grid(PUZZLE)).masks)
    same = client.post("/api/explain", json={"puzzle": PUZZLE, "candidates": masks}).json()
    assert same["solved"] and same["steps"] == client.post("/api/explain", json={"puzzle": PUZZLE}).json()["steps"]
    cell = PUZZLE.index(".")
    masks[cell] &= ~(1 << (int(SOLUTION[cell]) - 1))  # the marks rule out the solution's digit: no solution
    wrong = client.post("/api/explain", json={"puzzle": PUZZLE, "candidates": masks}).json()
    assert not wrong["steps"] and "no solution" in wrong["message"]
    refused = client.post("/api/rate", json={"puzzle": PUZZLE, "candidates": masks})
    assert refused.status_code == 422 and "no solution" in refused.json()["error"]


def test_explain_walks_every_step_to_the_solution(client):
    result = client.post("/api/explain", json={"puzzle": PUZZLE}).json()
    assert result["solved"] and len(result["steps"]) > 10
    assert grid_of(result["final"]).to_line() == SOLUTION
    assert result["steps"][0]["values"] == list(parse_grid(PUZZLE).values)
    # each step's board holds at least the digits of the one before
    for before, after in zip(result["steps"], result["steps"][1:]):
        assert all(not a or a == b for a, b in zip(before["values"], after["values"]))


def test_generate_makes_a_unique_puzzle_of_the_asked_difficulty(client):
    from sudokit.engine import count_solutions

    response = client.post("/api/generate", json={"difficulty": "easy"})
    result = response.json()
    puzzle = grid_of(result["values"])
    assert count_solutions(puzzle, limit=2) == 1
    assert result["rating"]["level"] == "easy"
    small = client.post("/api/generate", json={"variant": "4x4", "size": 4}).json()
    assert small["geometry"]["size"] == 4 and count_solutions(grid_of(small["values"]), limit=2) == 1


def test_rate_gives_every_measure(client):
    result = client.post("/api/rate", json={"puzzle": PUZZLE}).json()
    assert result["solved"] and result["level"] and result["er"] >= 1.0 and result["summary"]
    assert assert_refused(client.post("/api/rate", json={"puzzle": "11" + "." * 79}), 422)


def test_svg_draws_the_board_with_candidates_and_a_steps_highlight(client):
    step = client.post("/api/hint", json={"puzzle": PUZZLE}).json()["step"]
    keys = ("cells", "units", "candidates", "eliminations", "placements", "links")
    body = {"puzzle": PUZZLE, "candidates": step["masks"], "highlight": {k: step[k] for k in keys}}
    response = client.post("/api/svg", json=body)
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("image/svg+xml")
    assert response.text.lstrip().startswith(("<svg", "<?xml")) and "</svg>" in response.text
    plain = client.post("/api/svg", json={"puzzle": PUZZLE}).text
    assert len(response.text) > len(plain)  # pencil marks and highlights add to the picture


@pytest.mark.parametrize(
    ("highlight", "words"),
    [
        ([1, 2], "must be an object"),
        ({"cells": [81]}, "cell 81"),
        ({"cells": "A1"}, "must be a list"),
        ({"units": [27]}, "unit 27"),
        ({"placements": [[0, 10]]}, "digit 10"),
        ({"placements": [[0]]}, "pair"),
        ({"eliminations": [["0", 1]]}, "cell '0'"),
        ({"links": [[[0, 1], [1, 1]]]}, "link"),
        ({"arrows": []}, "unknown key"),
    ],
)
def test_svg_refuses_a_bad_highlight(client, highlight, words):
    assert words in assert_refused(client.post("/api/svg", json={"puzzle": PUZZLE, "highlight": highlight}))


# ---- bad input: always 4xx with a message, never a 500 ------------------------------------------
@pytest.mark.parametrize("route", PUZZLE_ROUTES)
@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"puzzle": PUZZLE[:-1]}, "too few cells"),
        ({"puzzle": PUZZLE + "1"}, "too many cells"),
        ({"puzzle": PUZZLE[:5] + "z" + PUZZLE[6:]}, "bad character 'z'"),
        ({"puzzle": PUZZLE, "variant": "hexagonal"}, "unknown variant"),
        ({"puzzle": PUZZLE, "variant": "99999x99999"}, "not served"),
        ({"puzzle": PUZZLE, "variant": "3x99999"}, "not served"),
        ({"puzzle": "", "variant": "standard"}, "empty"),
        ({"puzzle": 81}, "must be a string"),
        ({}, "missing field 'puzzle'"),
        ({"puzzle": "1" * 30_000}, "too long"),
    ],
)
def test_bad_puzzles_are_refused_with_a_message(client, route, body, words):
    assert words in assert_refused(client.post(f"/api/{route}", json=body))


@pytest.mark.parametrize("route", POST_ROUTES)
@pytest.mark.parametrize(
    "raw",
    [b"{not json", b"[1, 2, 3]", b'"a string"', b"\xff\xfe", b"[" * 100_000],
)
def test_malformed_bodies_are_refused(client, route, raw):
    assert_refused(client.post(f"/api/{route}", content=raw, headers=JSON))


@pytest.mark.parametrize("route", POST_ROUTES)
def test_bodies_over_one_megabyte_are_refused(client, route):
    body = json.dumps({"puzzle": PUZZLE, "pad": "x" * (1 << 20)}).encode()
    assert "too large" in assert_refused(client.post(f"/api/{route}", content=body, headers=JSON), 413)


def test_oversize_body_without_a_length_header_is_cut_off(client):
    def chunks():
        for _ in range(40):
            yield b" " * 65536

    assert "too large" in assert_refused(client.post("/api/solve", content=chunks(), headers=JSON), 413)


@pytest.mark.parametrize(
    ("route", "body", "words"),
    [
        ("count", {"puzzle": PUZZLE, "limit": 0}, "between 1 and"),
        ("count", {"puzzle": PUZZLE, "limit": True}, "must be an integer"),
        ("count", {"puzzle": PUZZLE, "limit": "5"}, "must be an integer"),
        ("geometry", {"variant": "standard", "size": 7}, "no standard board has 7"),
        ("geometry", {"variant": "windoku", "size": 16}, "windoku"),
        ("geometry", {"variant": "jigsaw:1112"}, "regions"),
        ("parse", {"text": "   "}, "empty"),
        ("parse", {"text": PUZZLE, "index": 3}, "no puzzle number 4"),
        ("parse", {"text": PUZZLE, "name": 7}, "must be a string"),
        ("generate", {"difficulty": "impossible"}, "unknown difficulty"),
        ("generate", {"variant": "standard", "size": 36}, "between 1 and 25"),
        ("hint", {"puzzle": PUZZLE, "candidates": [True] * 81}, "bitmask"),
        ("hint", {"puzzle": PUZZLE, "candidates": [1024] * 81}, "bitmask"),
    ],
)
def test_bad_fields_are_refused_with_a_message(client, route, body, words):
    assert words in assert_refused(client.post(f"/api/{route}", json=body))


@pytest.mark.parametrize("route", POST_ROUTES)
@pytest.mark.parametrize(
    ("raw", "words"),
    [
        (b'{"puzzle": ' + b"1" * 5000 + b"}", "4300"),  # json.loads raises ValueError, not JSONDecodeError
        (b'{"puzzle": "\\ud800"}', "surrogate"),
        (b'{"variant": "standard", "\\udfff": 1}', "surrogate"),
        (b'{"text": ["a", {"b": "x\\udc80y"}]}', "surrogate"),
    ],
)
def test_json_python_cannot_use_is_refused(client, route, raw, words):
    assert words in assert_refused(client.post(f"/api/{route}", content=raw, headers=JSON))


@pytest.mark.parametrize("route", POST_ROUTES)
@pytest.mark.parametrize("variant", ["²x3", "3x²", "٣x٣", "jigsaw:١٢"])
def test_variant_names_with_other_digits_are_refused_on_every_route(client, route, variant):
    body = {"puzzle": PUZZLE, "text": PUZZLE, "variant": variant}
    assert_refused(client.post(f"/api/{route}", json=body))


@pytest.mark.parametrize(
    ("text", "name"),
    [
        (f"puzzle,solution\r{PUZZLE},x\rb\n", "a.csv"),  # a bare CR inside CSV
        ("puzzle\n" + "1" * 200_000 + "\n", "a.csv"),  # a field over the csv module's 131,072 limit
        ('puzzle\n"' + "1" * 200_000 + '"\n', "a.csv"),
    ],
)
def test_parse_refuses_what_the_csv_reader_cannot_read(client, text, name):
    assert_refused(client.post("/api/parse", json={"text": text, "name": name}))


@pytest.mark.parametrize("length", ["9" * 5000, "12x", "-1", "1e3"])
def test_a_bad_content_length_is_refused(client, length):
    body = json.dumps({"puzzle": PUZZLE}).encode()
    response = client.post("/api/check", content=body, headers={**JSON, "content-length": length})
    assert response.status_code in (400, 413), response.text


@pytest.mark.parametrize(
    ("headers", "status"),
    [
        ({"origin": "http://evil.example"}, 403),
        ({"origin": "null"}, 403),
        ({"origin": "http://testserver.evil.example"}, 403),
        ({"sec-fetch-site": "cross-site"}, 403),
        ({"sec-fetch-site": "same-site"}, 403),  # another port or subdomain of this host
        ({"content-type": "text/plain"}, 415),  # what a form on another site may send without asking
        ({"content-type": "application/x-www-form-urlencoded"}, 415),
        ({"content-type": "multipart/form-data; boundary=x"}, 415),
        ({"content-type": ""}, 415),
    ],
)
def test_posts_from_other_sites_or_not_declared_json_are_refused(client, headers, status):
    body = json.dumps({"puzzle": PUZZLE}).encode()
    message = assert_refused(client.post("/api/check", content=body, headers={**JSON, **headers}), status)
    assert "cross-site" in message if status == 403 else "application/json" in message


@pytest.mark.parametrize(
    "headers",
    [
        {"origin": "http://testserver", "sec-fetch-site": "same-origin"},  # the page itself
        {"content-type": "application/json; charset=utf-8"},
        {"sec-fetch-site": "none"},
        {},  # a script: no Origin, no Sec-Fetch-Site
    ],
)
def test_posts_from_the_page_and_from_scripts_are_served(client, headers):
    body = json.dumps({"puzzle": PUZZLE}).encode()
    assert client.post("/api/check", content=body, headers={**JSON, **headers}).status_code == 200


def test_an_error_the_library_raises_about_the_input_is_a_400():
    # a route (or a worker's task) that meets a SudokitError answers 400 with its message, not a 500
    from starlette.routing import Route

    from sudokit.errors import SudokitError
    from sudokit.web import create_app

    async def refuses(request):
        raise SudokitError("limit must be at most 100000")

    app = create_app(workers=1)
    app.router.routes.append(Route("/api/refuses", refuses, methods=["POST"]))
    with TestClient(app) as c:
        assert "at most 100000" in assert_refused(c.post("/api/refuses", json={}))


def test_an_aborted_request_body_is_one_log_line(caplog):
    from sudokit.web import create_app

    app = create_app(workers=1)
    sent = []
    messages = iter(
        [
            {"type": "http.request", "body": b'{"puzzle": "4.....8', "more_body": True},
            {"type": "http.disconnect"},
        ]
    )

    async def receive():
        return next(messages)

    async def send(message):
        sent.append(message)

    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "path": "/api/check",
        "raw_path": b"/api/check",
        "query_string": b"",
        "root_path": "",
        "headers": [(b"host", b"127.0.0.1"), (b"content-type", b"application/json")],
        "client": ("127.0.0.1", 5000),
        "server": ("127.0.0.1", 8000),
    }
    import asyncio

    with caplog.at_level("INFO"):
        asyncio.run(app(scope, receive, send))  # before: ClientDisconnect escaped as a 500 with a traceback
    records = [r for r in caplog.records if r.levelno >= 30]
    assert len(records) == 1 and records[0].exc_info is None
    assert "closed the connection" in records[0].getMessage()
    assert sent[0]["status"] == 400


def test_unknown_routes_and_methods_answer_json(client):
    assert "no such" in assert_refused(client.post("/api/nothing", json={}), 404)
    assert "method" in assert_refused(client.get("/api/solve"), 405)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(10**6), 10**6) | st.text(max_size=90),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)
fields = st.fixed_dictionaries(
    {},
    optional={
        "puzzle": st.text(alphabet="123456789.0 x|\n-", min_size=0, max_size=100) | json_values,
        "variant": st.sampled_from(["standard", "diagonal", "windoku", "6x6", "jigsaw:12", "x", "0x0"]) | json_values,
        "limit": json_values,
        "size": json_values,
        "text": json_values,
        "index": json_values,
        "candidates": json_values,
        "difficulty": json_values,
        "highlight": json_values,
    },
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    route=st.sampled_from(["geometry", "parse", "check", "candidates", "solve", "count", "hint", "svg"]), body=fields
)
def test_no_body_makes_the_server_fail(client, route, body):
    response = client.post(f"/api/{route}", json=body)
    assert response.status_code < 500, response.text
    assert isinstance(response.json(), dict)


raw_values = st.one_of(
    st.text(st.characters(min_codepoint=0xD800, max_codepoint=0xDFFF), min_size=1, max_size=3).map(json.dumps),
    st.text(max_size=20).map(json.dumps),
    st.integers(4301, 6000).map(lambda n: "7" * n),  # json.loads refuses these with a plain ValueError
    st.sampled_from(["1e400", "-1e400", "NaN", "Infinity", "-0", "1.5", "true", "null", '"²x3"', '"٣x٣"', "[]"]),
    json_values.map(json.dumps),
)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    route=st.sampled_from(["geometry", "parse", "check", "candidates", "solve", "count", "hint", "svg"]),
    key=st.sampled_from(["puzzle", "variant", "limit", "size", "text", "index", "candidates", "highlight", "\\ud800"]),
    value=raw_values,
)
def test_no_raw_json_value_makes_the_server_fail(client, route, key, value):
    raw = f'{{"puzzle": "{PUZZLE}", "text": "{PUZZLE}", "{key}": {value}}}'
    response = client.post(f"/api/{route}", content=raw.encode(), headers=JSON)
    assert response.status_code < 500, response.text
    if response.status_code >= 400:
        assert response.json()["error"]


def test_host_header_is_checked_when_hosts_are_given():
    from sudokit.web import create_app

    with TestClient(create_app(workers=1, allowed_hosts=["127.0.0.1", "localhost"])) as c:
        assert c.get("/api/info").status_code == 400  # TestClient sends Host: testserver
        assert c.get("/api/info", headers={"host": "127.0.0.1:8000"}).status_code == 200


def test_logic_endpoints_check_the_puzzle_is_proper_first(client):
    several = ".....6....59.....82....8....45........3........6..3.54...325..6.................."
    no_solution = "12345678.........9" + "." * 63
    wrong_digit = "25.7.3.6...7...8.....816.......3......5...1..73..4..869.6...2.484.572.93...4.9..."  # no cell empty
    assert "more than one solution" in assert_refused(client.post("/api/rate", json={"puzzle": several}), 422)
    assert "no solution" in assert_refused(client.post("/api/rate", json={"puzzle": no_solution}), 422)
    hint = client.post("/api/hint", json={"puzzle": wrong_digit}).json()
    assert hint == {"step": None, "message": "the grid has no solution: an earlier digit is wrong"}
    explained = client.post("/api/explain", json={"puzzle": no_solution}).json()
    assert explained["steps"] == [] and explained["message"] == "the puzzle has no solution"
    steps = client.post("/api/explain", json={"puzzle": several}).json()["steps"]
    assert steps and not any(s["technique"].startswith(("Unique Rectangle", "BUG")) for s in steps)


def test_generator_messages_speak_to_a_page_user_not_a_command_line():
    from sudokit.web.features import for_page

    message = (
        "no puzzle with difficulty extreme found in 18 s (40 grids tried): "
        "this combination is too rare; relax it or raise --time-limit"
    )
    page = for_page(message, "try again, or choose another difficulty")
    assert "--" not in page and "raise" not in page
    assert page.endswith("too rare; try again, or choose another difficulty")
    assert for_page("the puzzle has no solution", "unused") == "the puzzle has no solution"
