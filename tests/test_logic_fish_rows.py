"""HoDoKu's fish of issue #20 item 2: sashimi X-Wing / Swordfish / Jellyfish named apart from the finned ones,
and the Franken and Mutant fish of sizes 2-4, plain and finned (``fish.complex_fish``): each on its own state
(the cases in test_logic_techniques.py), explained and highlighted; sound on bundled solving paths; and used
by ``explain`` on a real puzzle."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sudokit.formats import parse_grid
from sudokit.geometry import Geometry
from sudokit.logic import BY_NAME, State, als, explain, fish, next_step
from sudokit.logic.registry import applicable, technique_set
from test_logic_techniques import CASES, FIRST_IN_SET, assert_sound, on_case, state_of

DATA = Path(__file__).resolve().parents[1] / "data"
SIZES = {"X-Wing": 2, "Swordfish": 3, "Jellyfish": 4}
COMPLEX = [f"{fin}{family} {size}" for family in ("Franken", "Mutant") for fin in ("", "Finned ") for size in SIZES]


def lines(name: str) -> list[str]:
    return (DATA / name).read_text().split()


def cells(state: State, *labels: str) -> list[int]:
    return [state.g.cell_of(x) for x in labels]


# ---- sashimi fish ---------------------------------------------------------------------------------------------
def test_sashimi_x_wing_on_its_state():
    state, step = on_case("Sashimi X-Wing")
    assert step.eliminations == [(c, 3) for c in cells(state, "B6", "C6")]
    assert step.explanation == (
        "Sashimi X-Wing on 3: in row A and row D, 3 goes in column 2 and column 6 (A2, D2, D6) or in the fin A4, "
        "A5; without the fin, row A holds 3 only in A2: remove 3 from B6, C6"
    )
    g = state.g
    assert sorted(step.cells) == sorted(cells(state, "A2", "A4", "A5", "D2", "D6"))
    assert sorted(step.units) == sorted([g.unit_names.index(n) for n in ("row A", "row D", "column 2", "column 6")])
    assert step.highlight()["candidates"] == [[s, 3] for s in sorted(step.cells)]


def test_sashimi_swordfish_and_jellyfish_on_their_states():
    state, step = on_case("Sashimi Swordfish")
    assert step.eliminations == [(state.g.cell_of("B6"), 2)]
    assert "or in the fin A4, C4; without the fin, column 4 holds 2 only in E4: remove 2 from B6" in step.explanation
    state, step = on_case("Sashimi Jellyfish")
    assert step.eliminations == [(state.g.cell_of("H5"), 6)]
    assert "without the fin, row G holds 6 only in G7" in step.explanation


def test_finned_rows_leave_the_sashimi_fish_to_their_own_rows():
    # the sashimi X-Wing case is no finned X-Wing, and the finned X-Wing case's fish has two cover cells in each
    # base line
    state = state_of(CASES["Sashimi X-Wing"][0])
    assert BY_NAME["Finned X-Wing"].find(state) is None
    state, step = on_case("Finned X-Wing")
    assert step.explanation == (
        "Finned X-Wing on 3: in row E and row I, 3 goes in column 3 and column 4 (E3, E4, I3, I4) or in the fin I2: "
        "remove 3 from H3"
    )
    assert "without the fin" not in step.explanation


def test_sashimi_rows_follow_the_finned_ones_at_hodokus_scores():
    names = [t.name for t in technique_set("hodoku").rows]
    for size, (finned, sashimi) in {"X-Wing": (130, 150), "Swordfish": (200, 240), "Jellyfish": (250, 260)}.items():
        assert names.index(f"Sashimi {size}") == names.index(f"Finned {size}") + 1
        assert (BY_NAME[f"Finned {size}"].score, BY_NAME[f"Sashimi {size}"].score) == (finned, sashimi)
    assert "Sashimi X-Wing" not in technique_set("se").names
    assert set(technique_set("sashimi fish").names) == {"Sashimi X-Wing", "Sashimi Swordfish", "Sashimi Jellyfish"}


# ---- Franken and Mutant fish ----------------------------------------------------------------------------------
def test_fish_families_are_named_as_hodoku_names_them():
    g = state_of(CASES["Finned X-Wing"][0]).g
    row, col, box = g.rows, g.cols, g.boxes
    assert fish.family_of(g, row[:2], col[:2]) == "basic"
    assert fish.family_of(g, col[:3], row[:3]) == "basic"
    assert fish.family_of(g, [row[0], box[4]], [col[1], col[2]]) == fish.FRANKEN
    assert fish.family_of(g, [col[0], col[3]], [row[1], box[8]]) == fish.FRANKEN
    assert fish.family_of(g, [row[0], col[4]], [col[1], row[2]]) == fish.MUTANT
    assert fish.family_of(g, [row[0], box[4]], [row[1], col[2]]) == fish.MUTANT
    assert fish.family_of(g, [box[0], box[4]], [col[1], col[2]]) == fish.MUTANT  # boxes alone as base


@pytest.mark.parametrize("name", COMPLEX)
def test_complex_fish_on_its_state(name):
    state, step = on_case(name)
    k = SIZES[name.split()[-1]]
    g = state.g
    base, covers = step.units[:k], step.units[k:]
    assert len(covers) == k and not set(base) & set(covers)
    assert fish.family_of(g, base, covers) == name.split()[-2]
    d = step.eliminations[0][1]
    assert {dd for _, dd in step.eliminations} == {d} and {dd for _, dd in step.candidates} == {d}
    places = [s for u in base for s in g.units[u] if state.cands[s] >> (d - 1) & 1]
    assert sorted(places) == sorted(step.cells) and len(set(places)) == len(places)  # base units do not overlap
    covered = {s for u in covers for s in g.units[u]}
    fins = [s for s in places if s not in covered]
    assert bool(fins) == name.startswith("Finned")
    for s, _ in step.eliminations:
        assert s in covered and all(f in g.peer_sets[s] for f in fins)
    assert step.explanation.startswith(f"{name} on {d}: ")
    assert (f"or {d} is in the fin" in step.explanation) == bool(fins)
    row = BY_NAME[name]
    assert (row.se, row.needs_boxes) == (7.5, True)


def _closed_under_locked_candidates(state: State, d: int) -> State:
    """``state`` after every hidden single of ``d`` and every pointing and claiming (the state's candidates of
    other digits are all there, so only ``d`` gives a step)."""
    g, bit = state.g, 1 << (d - 1)
    values, cands = list(state.values), list(state.cands)
    while True:
        single = next((u for u in range(len(g.units)) if sum(cands[s] & bit > 0 for s in g.units[u]) == 1), None)
        if single is not None:
            s = next(s for s in g.units[single] if cands[s] & bit)
            values[s], cands[s] = d, 0
            for t in g.peer_sets[s]:
                cands[t] &= ~bit
            continue
        state = State.from_candidates(g, values, cands)
        step = BY_NAME["Pointing"].find(state) or BY_NAME["Claiming"].find(state)
        if step is None:
            return state
        for t, _ in step.eliminations:
            cands[t] &= ~bit


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 1999), st.integers(1, 9), st.lists(st.booleans(), min_size=81, max_size=81))
def test_franken_and_mutant_x_wings_are_locked_candidates(line, d, extra):
    """A Franken or Mutant X-Wing removes nothing on a state where no hidden single and no pointing or claiming
    applies (docs/logic_techniques.md): why their first-applicable sets leave the locked candidates out. States:
    a tiers solution's places of ``d`` plus random other candidates of it, every other digit everywhere."""
    from sudokit.geometry import standard

    g, bit = standard(), 1 << (d - 1)
    solution = lines("sudoku_exchange_tiers.solutions.txt")[line]
    cands = [(g.all_mask & ~bit) | (bit if int(solution[s]) == d or extra[s] else 0) for s in range(81)]
    state = State.from_candidates(g, [0] * 81, cands)
    closed = _closed_under_locked_candidates(state, d)
    for family in (fish.FRANKEN, fish.MUTANT):
        assert fish.complex_fish(closed, 2, family) is None


def test_the_x_wing_cases_are_a_pointing_in_disguise():
    # the Franken and the Mutant X-Wing on their case's state (tiers line 1103) remove what pointing removes there
    # (box 2 holds 2 only in column 5), or more by a claiming
    state, franken = on_case("Franken X-Wing")
    _, mutant = on_case("Mutant X-Wing")
    pointing = BY_NAME["Pointing"].find(state)
    assert pointing.eliminations == franken.eliminations == [(state.g.cell_of(x), 2) for x in ("E5", "F5", "I5")]
    assert set(pointing.eliminations) < set(mutant.eliminations)


def test_the_mutant_jellyfish_case_needs_a_mutant():
    """On its case's state (rated line 3682) no fish of sizes 2-4 without fins but a Mutant one removes any of the
    Mutant Jellyfish's candidates: every base and cover set of rows, columns and boxes tried."""
    from sudokit.logic.misses import digit_cells

    state, step = on_case("Mutant Jellyfish")
    g, d = state.g, step.eliminations[0][1]
    removed = sum(1 << s for s, _ in step.eliminations)
    where = digit_cells(state)[d][1]
    units = [*g.rows, *g.cols, *g.boxes]
    lines = [(u, g.unit_bits[u] & where) for u in units if (g.unit_bits[u] & where).bit_count() >= 2]
    families = set()
    for k in (2, 3, 4):
        for combo, body in fish._disjoint(lines, k):
            base = [u for u, _ in combo]
            allowed = [u for u in units if u not in base]
            for covers, _ in fish._covers(g, body, where, allowed, k, 0):
                if fish._complex_removals(g, body, where, covers, 0) & removed:
                    families.add(fish.family_of(g, base, covers))
    assert families == {fish.MUTANT}


def test_complex_fish_rows_at_hodokus_place_and_scores():
    names = [t.name for t in technique_set("hodoku,franken fish,mutant fish").rows]
    assert names[names.index("Death Blossom") + 1 : names.index("Death Blossom") + 13] == COMPLEX
    assert names.index("Contradiction Forcing Chain") == names.index("Death Blossom") + 13
    scores = [BY_NAME[n].score for n in COMPLEX]
    assert scores == [300, 350, 370, 390, 410, 430, 450, 450, 450, 470, 470, 470]
    assert [BY_NAME[n].level for n in COMPLEX] == ["Unfair"] * 6 + ["Extreme"] * 6
    hodoku = technique_set("hodoku").names
    assert [n for n in COMPLEX if n in hodoku] == [
        "Franken X-Wing",
        "Franken Swordfish",
        "Finned Franken X-Wing",
        "Finned Franken Swordfish",
    ]
    assert not set(COMPLEX) & (set(technique_set("all").names) | set(technique_set("se").names))
    assert set(technique_set("mutant fish").names) == {n for n in COMPLEX if "Mutant" in n}


def test_complex_fish_need_boxes_and_find_nothing_on_an_open_grid():
    from sudokit.geometry import standard

    g = standard()
    state = State.from_candidates(g, [0] * 81, [g.all_mask] * 81)
    for name in ("Finned Franken X-Wing", "Mutant Swordfish"):
        assert BY_NAME[name].find(state) is None


def test_complex_fish_are_sound_on_tiers_paths():
    """Every 250th "diabolical" puzzle of sudoku_exchange_tiers: the twelve rows on every 4th state of the
    HoDoKu-set path, each step checked against the puzzle's solution."""
    puzzles, solutions = lines("sudoku_exchange_tiers.txt"), lines("sudoku_exchange_tiers.solutions.txt")
    tiers = lines("sudoku_exchange_tiers.tiers.txt")
    chosen = [i for i, t in enumerate(tiers) if t == "diabolical"][::250]
    hodoku = technique_set("hodoku")
    fired = dict.fromkeys(COMPLEX, 0)
    for i in chosen:
        state = State.from_grid(parse_grid(puzzles[i]))
        rows = applicable(state, techniques=hodoku)
        n = 0
        while not state.is_solved():
            if n % 4 == 0:
                for name in COMPLEX:
                    step = BY_NAME[name].find(state)
                    if step is not None:
                        assert step.technique == name and step.eliminations
                        assert_sound(step, solutions[i])
                        fired[name] += 1
            step = next_step(state, rows)
            if step is None:
                break
            state.apply(step)
            n += 1
    assert all(fired.values()), fired


def test_explain_uses_a_finned_franken_swordfish_on_a_real_puzzle(monkeypatch):
    # sudoku_exchange_tiers line 1518 with HoDoKu's set: step 24 (the path with almost locked sets of at most 4
    # cells, as when it was taken: larger ones now take other steps before, see small_als)
    monkeypatch.setattr(als, "max_size", small_als)
    path = explain(lines("sudoku_exchange_tiers.txt")[1517], techniques=technique_set("hodoku"))
    assert path.solved
    step = path.steps[23]
    assert step.technique == "Finned Franken Swordfish"
    assert step.explanation.startswith("Finned Franken Swordfish on 7: row C, row I and box 8 each hold 7 once")
    assert step.eliminations == [(path.grid.geometry.cell_of("G1"), 7)]


# row -> (data file, line, step, techniques, exclude): the row's step on a bundled puzzle's path, on its case's
# state. The Franken and Mutant fish HoDoKu's set never took first (the chains and ALS rows before them take their
# steps) use their FIRST_IN_SET sets (a small set for the plain X-Wings and Jellyfish); the finned Franken
# Jellyfish leaves out the grouped AIC and ALS-Chain, which now come before it and take this step
# (NEW_HODOKU_ROWS_FIRST).
FISH = "hodoku,franken fish,mutant fish"
EXPLAINED = {
    "Sashimi X-Wing": ("sudoku_exchange_rated.txt", 1107, 15, "hodoku", None),
    "Sashimi Swordfish": ("sudoku_exchange_rated.txt", 2183, 17, "hodoku", None),
    "Sashimi Jellyfish": ("sudoku_exchange_rated.txt", 3852, 20, "hodoku", None),
    "Finned Franken Jellyfish": ("sudoku_exchange_tiers.txt", 1620, 23, FISH, "Grouped AIC,ALS-Chain"),
    "Finned Mutant Jellyfish": ("sudoku_exchange_tiers.txt", 1553, 27, FISH, None),
    **{
        name: ("sudoku_exchange_tiers.txt", line, k, *FIRST_IN_SET[name])
        for name, (line, k) in {
            "Franken Swordfish": (1647, 17),
            "Mutant Swordfish": (1600, 18),
            "Finned Mutant Swordfish": (1504, 25),
            "Finned Mutant X-Wing": (1562, 23),
            "Finned Franken X-Wing": (1639, 27),
            "Franken X-Wing": (1103, 3),
            "Mutant X-Wing": (1103, 3),
        }.items()
    },
    **{
        name: ("sudoku_exchange_rated.txt", line, k, *FIRST_IN_SET[name])
        for name, (line, k) in {"Franken Jellyfish": (1989, 6), "Mutant Jellyfish": (3682, 27)}.items()
    },
}


def small_als(g: Geometry) -> int:
    """Almost locked sets of at most 4 cells, as the ALS rows listed them when the paths above were taken (since
    they list every size on a 9x9 grid, larger sets take steps of these paths before the fish rows do)."""
    return 4


@pytest.mark.parametrize("name", sorted(EXPLAINED))
def test_explain_uses_the_fish_row_on_a_real_puzzle(name, monkeypatch):
    monkeypatch.setattr(als, "max_size", small_als)
    fname, line, k, spec, exclude = EXPLAINED[name]
    rows = technique_set(spec, exclude)
    path = explain(lines(fname)[line - 1], techniques=rows, max_steps=k)  # up to the row's step
    assert len(path.steps) == k and path.steps[k - 1].technique == name
    assert name not in {s.technique for s in path.steps[: k - 1]}
    text, solution = CASES[name]
    assert path.steps[k - 1].eliminations == BY_NAME[name].find(state_of(text)).eliminations
    for step in path.steps:
        assert_sound(step, solution)


# ---- Kraken fish ----------------------------------------------------------------------------------------------
def test_kraken_fish_on_its_state():
    state, step = on_case("Kraken Fish")
    assert sorted(step.eliminations) == sorted((c, 6) for c in cells(state, "D7", "E7", "F7"))
    assert step.explanation == (
        "Kraken Fish (X-Wing) on 6: in row A and row I, 6 goes in column 3 and column 7 (A7, I3, I7) or in the fin "
        "A9, I9; if A9 is 6, the singles that follow remove 6 from D7, E7, F7; if I9 is 6, the singles that follow "
        "remove 6 from D7, E7, F7: remove 6 from D7, E7, F7"
    )
    assert sorted(step.cells) == sorted(cells(state, "A7", "A9", "I3", "I7", "I9"))
    g = state.g
    assert sorted(step.units) == sorted(g.unit_names.index(n) for n in ("row A", "row I", "column 3", "column 7"))
    # each fin, assumed, removes the digit from every cell the step removes it from
    from sudokit.logic.forcing import assume

    for fin in cells(state, "A9", "I9"):
        trial = state.copy()
        assert assume(trial, fin, 6)[0]
        assert all(not trial.cands[s] & 1 << 5 and trial.values[s] != 6 for s, _ in step.eliminations)
    row = BY_NAME["Kraken Fish"]
    assert (row.score, row.level, row.se) == (500, "Extreme", 8.0)
    assert "Kraken Fish" not in technique_set("hodoku").names + technique_set("all").names


def test_kraken_fish_is_sound_on_tiers_paths():
    """Every 250th "diabolical" tiers puzzle: the Kraken row on every 3rd state of the HoDoKu-set path."""
    puzzles, solutions = lines("sudoku_exchange_tiers.txt"), lines("sudoku_exchange_tiers.solutions.txt")
    tiers = lines("sudoku_exchange_tiers.tiers.txt")
    hodoku, fired = technique_set("hodoku"), 0
    for i in [i for i, t in enumerate(tiers) if t == "diabolical"][::250]:
        state = State.from_grid(parse_grid(puzzles[i]))
        rows, n = applicable(state, techniques=hodoku), 0
        while not state.is_solved():
            if n % 3 == 0 and (step := BY_NAME["Kraken Fish"].find(state)) is not None:
                assert step.eliminations
                assert_sound(step, solutions[i])
                fired += 1
            step = next_step(state, rows)
            if step is None:
                break
            state.apply(step)
            n += 1
    assert fired
