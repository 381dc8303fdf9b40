"""Generation by technique (``generate --needs``, ``--at-most``, ``--techniques``, ``--with-path``)."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from sudokit.cli import main
from sudokit.errors import SudokitError
from sudokit.generate import Generator
from sudokit.generate.needs import path_wants
from sudokit.grid import is_solution
from sudokit.logic import explain
from sudokit.logic.rating import technique_of


def _rows_used(puzzle, techniques=None) -> set[str]:
    path = explain(puzzle, techniques=techniques)
    assert path.solved
    return {technique_of(s.technique).name for s in path.steps}


def test_a_needed_technique_is_in_the_path_and_nothing_harder():
    wants = path_wants("Pointing", at_most="Pointing")
    found = Generator(seed=5, wants=wants, time_limit=120).one()
    assert is_solution(found.solution, found.puzzle)
    used = _rows_used(found.puzzle)  # explained again with every technique: the easiest path is the same
    assert "Pointing" in used
    ceiling = technique_of("Pointing").se
    assert all(technique_of(name).se <= ceiling for name in used)
    assert found.extra["path"].solved


def test_the_same_seed_gives_the_same_puzzles():
    wants = path_wants("Pointing", "singles,Pointing")
    first = [g.puzzle.to_line() for g in Generator(seed=11, wants=wants).puzzles(2)]
    again = [g.puzzle.to_line() for g in Generator(seed=11, wants=wants).puzzles(2)]
    assert first == again


def test_the_technique_set_bounds_the_path():
    wants = path_wants(techniques="singles")
    found = Generator(seed=3, wants=wants, time_limit=120).one()
    singles = {"Full House", "Hidden Single (box)", "Hidden Single (line)", "Naked Single"}
    assert _rows_used(found.puzzle, wants.techniques) <= singles


def test_a_need_outside_the_allowed_techniques_is_refused():
    with pytest.raises(SudokitError, match="--needs: 'X-Wing' is not among"):
        path_wants("X-Wing", "singles")


@pytest.mark.parametrize(
    "args, message",
    [
        (["--needs", "X-Wong"], "--needs: unknown technique 'X-Wong' (did you mean 'X-Wing'?)"),
        (["--at-most", "Pointng"], "--at-most: unknown technique 'Pointng'"),
        (["--needs", "Pointing", "--with-path", "-f", "csv"], "--with-path: the path is written as '#' comment"),
        (["--needs", "Pointing", "--method", "norvig"], "a wanted logical path needs the dig method"),
    ],
)
def test_bad_technique_options_are_one_line_errors(args, message):
    result = CliRunner().invoke(main, ["generate", *args])
    assert result.exit_code == 2
    assert result.stderr.startswith("sudokit: error: " + message), result.stderr
    assert "Traceback" not in result.output


def test_with_path_prints_the_path_as_comments_that_read_back():
    args = ["generate", "--needs", "Pointing", "--at-most", "Pointing", "--seed", "2", "--with-path"]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    puzzle, comments = lines[0], lines[1:]
    assert len(puzzle) == 81 and all(line.startswith("# ") for line in comments)
    assert any("Pointing" in line for line in comments)
    assert comments[-1].startswith("# solved by logic:")
    again = CliRunner().invoke(main, ["solve", "-"], input=result.stdout)  # the comments do not disturb a reader
    assert again.exit_code == 0 and len(again.stdout.split()) == 1
