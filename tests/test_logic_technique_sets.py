"""Technique sets (``--techniques`` / ``--exclude``, ``techniques=`` in the library) and ``rate --format se``."""

from __future__ import annotations

import json
import re

import pytest

from sudokit import __version__
from sudokit.errors import SudokitError
from sudokit.logic import explain
from sudokit.logic.rating import rate
from sudokit.logic.registry import HODOKU_ONLY, NOT_IN_SE, OPT_IN, SINGLES, TECHNIQUES, technique_set

# sudoku_exchange_rated line 1915 (Sukaku Explainer 5.5): its path takes one WXYZ-Wing (the "se" set, which has
# no bent sets, needs something else)
WXYZ = "..7...5......8....9...7...1.251.893...3...6....9...2.....5.3...7.......6.1.2.7.4."
# sudoku_exchange_rated line 1126: a naked single is there from the start
NAKED_FIRST = "....4....4.21.68.9.5.....1....9.7...6..438..2..7...6...7..9..2...6...5..2..5.4..7"


def test_default_set_is_every_row_in_table_order():
    # but HoDoKu's names for searches the table already makes (its forcing nets: the `hodoku` preset's only)
    ts = technique_set()
    assert ts.spec == "all" and list(ts.rows) == [
        t for t in TECHNIQUES if t.name not in HODOKU_ONLY and t.name not in OPT_IN
    ]
    assert {"Forcing Net Contradiction", "Forcing Net Verity"} == HODOKU_ONLY
    assert set(technique_set("hodoku").names) >= HODOKU_ONLY
    assert "Dynamic Forcing Chain" in ts.names and "Dynamic Forcing Chain" not in technique_set("hodoku").names


def test_presets_names_and_exclusions_keep_table_order():
    assert technique_set("singles").names == list(SINGLES)
    assert not set(technique_set("se").names) & NOT_IN_SE
    ts = technique_set("Singles, x-wing , XY wing", exclude="naked single")
    assert ts.names == ["Full House", "Hidden Single (box)", "Hidden Single (line)", "X-Wing", "XY-Wing"]
    assert ts.spec == "singles,X-Wing,XY-Wing; exclude Naked Single"
    assert "Unique Rectangle" not in technique_set("all", exclude="uniqueness").names
    assert technique_set("locked candidates").names == ["Pointing", "Claiming"]


@pytest.mark.parametrize(("name", "close"), [("X-Wnig", "X-Wing"), ("skyscrapper", "Skyscraper"), ("hodku", "hodoku")])
def test_unknown_name_says_what_it_may_have_meant(name, close):
    with pytest.raises(SudokitError, match=rf"unknown technique '{name}' \(did you mean '{close}'\?\)"):
        technique_set(name)


def test_an_empty_set_is_an_error():
    with pytest.raises(SudokitError, match="no technique left"):
        technique_set("singles", exclude="all")


def test_explain_uses_only_the_set_and_rate_records_it_with_the_version():
    path = explain(WXYZ, techniques="se")
    assert path.solved and not {s.technique for s in path.steps} & NOT_IN_SE
    assert "WXYZ-Wing" in {s.technique for s in explain(WXYZ).steps}
    r = rate(WXYZ, extras=False, techniques="singles")
    assert not r.solved and set(r.techniques) <= {"Full House", "Hidden Single", "Naked Single"}
    assert (r.technique_set, r.version) == ("singles", __version__)
    assert rate(WXYZ, extras=False, uniqueness=False).technique_set == "all; no uniqueness"


def test_rate_format_se_prints_the_rated_list_form(run_cli, tmp_path):
    f = tmp_path / "p.txt"
    f.write_text(WXYZ + "\n" + "." * 81 + "\n")
    result = run_cli("rate", str(f), "--format", "se", "--techniques", "hodoku")
    lines = result.stdout.splitlines()  # stderr may carry a compile notice on a cold cache
    assert lines[0] == f"# sudokit {__version__} rate, techniques: hodoku"
    assert re.fullmatch(r"[.1-9]{81} ED=\d+\.\d/\d+\.\d/\d+\.\d", lines[1])
    assert lines[1].startswith(WXYZ)
    assert lines[2] == "." * 81 + " not rated: the grid is empty: there is nothing to reason from"
    assert result.exit_code == 1


def test_rate_json_and_text_name_the_set_and_version(run_cli):
    data = json.loads(run_cli("rate", WXYZ, "--json", "--fast", "--exclude", "WXYZ-Wing").output)
    assert data["technique_set"] == "all; exclude WXYZ-Wing" and data["version"] == __version__
    assert "WXYZ-Wing" not in data["techniques"]
    text = run_cli("rate", WXYZ, "--fast").output
    assert f"techniques: all; sudokit {__version__}" in text


@pytest.mark.parametrize("command", ["hint", "explain", "rate"])
def test_unknown_technique_is_one_error_line(run_cli, command):
    result = run_cli(command, WXYZ, "--techniques", "X-Wnig")
    assert result.exit_code == 2
    assert result.stderr.strip().splitlines() == [
        "sudokit: error: --techniques: unknown technique 'X-Wnig' (did you mean 'X-Wing'?); "
        "presets: all, se, hodoku, singles, uniqueness, variant"
    ]


def test_hint_and_explain_follow_the_set(run_cli):
    assert run_cli("hint", NAKED_FIRST, "--techniques", "naked single").output.startswith("Naked single")
    data = json.loads(run_cli("explain", WXYZ, "--json", "--exclude", "wxyz-wing").output)
    assert data["technique_set"] == "all; exclude WXYZ-Wing"
    assert "WXYZ-Wing" not in {s["technique"] for s in data["steps"]}
