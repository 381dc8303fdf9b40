"""Ratings: SE-style number, HoDoKu-style level and score, Norvig's level, engine guesses."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from sudokit.formats import parse_grid
from sudokit.grid import Grid
from sudokit.logic.explain import Path as SolvePath
from sudokit.logic.rating import UNSOLVED, check_proper, hodoku_level, not_proper, rate, se_parts
from sudokit.logic.step import Step
from sudokit.result import Status

DATA = Path(__file__).resolve().parents[1] / "data"
EASY = ".5.7.3.6...7...8.....816.......3......5...1..73..4..869.6...2.484.572.93...4.9..."


def test_easy_puzzle_rates_as_singles_and_easy():
    r = rate(EASY)
    assert r.solved and r.er <= 1.5 and r.level == "Easy"
    assert r.se == f"{r.er:.1f}/{r.ep:.1f}/{r.ed:.1f}"
    assert r.norvig is None or r.norvig >= 0


def test_rating_grows_with_the_bundled_explainer_ratings():
    puzzles = (DATA / "sudoku_exchange_rated.txt").read_text().split()
    theirs = [float(x) for x in (DATA / "sudoku_exchange_rated.ratings.txt").read_text().split()]
    low = next(p for p, t in zip(puzzles, theirs) if t == 2.6)
    mid = next(p for p, t in zip(puzzles, theirs) if t == 4.2)
    assert rate(low, extras=False).er < rate(mid, extras=False).er


def test_hodoku_level_is_raised_when_the_score_passes_the_cap():
    steps = [Step("Pointing", rating=2.6)] * 25  # 25 x 50 = 1250 > Medium's cap of 1000
    score, level = hodoku_level(SolvePath(steps=steps, solved=True))
    assert score == 1250 and level == "Hard"
    score, level = hodoku_level(SolvePath(steps=steps[:4], solved=True))
    assert level == "Medium"


def test_unsolved_path_rates_twenty_and_extreme():
    path = SolvePath(steps=[Step("Naked Single", rating=2.3)], solved=False)
    assert se_parts(path) == (UNSOLVED, UNSOLVED, UNSOLVED)
    assert hodoku_level(path)[1] == "Extreme"


def test_ep_is_the_hardest_step_up_to_the_first_placement():
    steps = [Step("Pointing", rating=2.6, eliminations=[(0, 1)]), Step("Naked Single", rating=2.3, placements=[(1, 2)])]
    steps.append(Step("X-Wing", rating=3.2, eliminations=[(2, 3)]))
    assert se_parts(SolvePath(steps=steps, solved=True)) == (3.2, 2.6, 2.6)


def test_puzzle_with_two_solutions_is_not_solved_by_logic():
    line = (DATA / "serg_benchmark.txt").read_text().split()[0]
    r = rate(parse_grid(line), extras=False)
    assert not r.solved and r.er == UNSOLVED and r.level == "Extreme"


def test_hodoku_caps_scale_with_the_number_of_cells():
    from sudokit.geometry import standard
    from sudokit.grid import Grid

    steps = [Step("Pointing", rating=2.6)] * 25  # 1250: over 9x9's Medium cap, under 16x16's
    big = SolvePath(steps=steps, solved=True, grid=Grid.empty(standard(4)))
    assert hodoku_level(big)[1] == "Medium"


def test_check_proper_gives_a_status_to_branch_on_and_words_for_people():
    easy = check_proper(parse_grid(EASY))
    assert easy.status is Status.SOLVED and easy.proper and not_proper(parse_grid(EASY)) is None
    several = check_proper(parse_grid("." * 81))
    assert several.status is Status.MULTIPLE and not several.proper
    assert several.why == not_proper(parse_grid("." * 81)) == "the puzzle has more than one solution"
    # no clash among the givens, but the empty top-left cell has no digit left
    none = parse_grid(".23456789" + "1........" + "." * 63)
    assert check_proper(none).status is Status.NO_SOLUTION
    assert not_proper(none) == "the puzzle has no solution"


def test_a_puzzle_of_the_hardest_band_is_rated_above_eleven_without_guessing():
    # forum_hardest_1905_11plus: Sudoku Explainer rates every puzzle there 11.0 or more; the nested forcing
    # chain takes the first step of this one and the path ends solved
    line = (DATA / "forum_hardest_1905_11plus.txt").read_text().split()[0]
    r = rate(line, extras=False)
    assert r.solved and r.er >= 11.0 and r.hardest == "Nested Forcing Chain"


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_singles_closure_is_the_candidates_norvigs_propagation_reaches(data):
    """The givens of bundled puzzles (9x9, 4x4, 16x16) with cells cleared and digits written in, clashing ones
    too: the same candidates as :func:`sudokit.methods.norvig.parse_grid`, or None where it finds a contradiction."""
    from sudokit.logic.rating import norvig_level, singles_closure
    from sudokit.methods.norvig import level
    from sudokit.methods.norvig import parse_grid as norvig_parse

    name = data.draw(st.sampled_from(["top1465.txt", "sudoku4_vu.txt", "sudoku16_vu.txt"]))
    line = data.draw(st.sampled_from((DATA / name).read_text().split()[:50]))
    grid = parse_grid(line)
    values = list(grid.values)
    g = grid.geometry
    for s in data.draw(st.lists(st.integers(0, g.n_cells - 1), max_size=20)):
        values[s] = 0
    for s, d in data.draw(st.lists(st.tuples(st.integers(0, g.n_cells - 1), st.integers(1, g.size)), max_size=3)):
        values[s] = d
    puzzle = Grid(g, tuple(values))
    assert singles_closure(puzzle) == norvig_parse(puzzle)
    want = level(puzzle).log10
    assert norvig_level(puzzle) == (None if want == float("-inf") else round(want, 2))
