"""HoDoKu's techniques beyond Sudoku Explainer's (issue #20): each finds its step on a real state, explains
and highlights it, and never removes a digit of the solution on the solving paths of a bundled set."""

from __future__ import annotations

from functools import reduce
from itertools import combinations
from operator import or_
from pathlib import Path

from sudokit.formats import parse_grid
from sudokit.logic import BY_NAME, TECHNIQUES, State, explain, next_step
from sudokit.logic.als import MAX_PETALS, als_xy_wing, death_blossom
from sudokit.logic.bug import bug_type2
from sudokit.logic.registry import applicable, technique_set
from sudokit.logic.state import digits_of
from sudokit.logic.sue_de_coq import MAX_SIDE, sue_de_coq
from test_logic_als_kernel import plain_almost_locked_sets
from test_logic_techniques import CASES, assert_sound, state_of

DATA = Path(__file__).resolve().parents[1] / "data"


def lines(name: str) -> list[str]:
    return (DATA / name).read_text().split()


def diabolical(every: int) -> list[tuple[str, str]]:
    """Every ``every``-th "diabolical" puzzle of sudoku_exchange_tiers with its solution."""
    tiers = lines("sudoku_exchange_tiers.tiers.txt")
    pairs = zip(lines("sudoku_exchange_tiers.txt"), lines("sudoku_exchange_tiers.solutions.txt"), tiers)
    return [(p, s) for p, s, t in pairs if t == "diabolical"][::every]


def fired_on_path(find, puzzle: str, solution: str) -> int:
    """Try ``find`` on every state of the puzzle's solving path and check each step it gives against the
    solution; the number of states where it gave one."""
    state = State.from_grid(parse_grid(puzzle))
    rows = applicable(state)
    fired = 0
    while not state.is_solved():
        mine = find(state)
        if mine is not None:
            assert mine.placements or mine.eliminations
            assert_sound(mine, solution)
            fired += 1
        step = next_step(state, rows)
        if step is None:
            break
        state.apply(step)
    return fired


#: States where the finders above fire, from the paths of the puzzles named (the technique table's cases in
#: tests/test_logic_techniques.py are the states where a row is the *first* step; rows added since may fire
#: first on these).
HODOKU_STATES = {
    "Sue de Coq": (  # sudoku_exchange_rated line 1597, just before step 29 of its path
        (
            "=9 =1 =5 =4 =7 =6 28 28 =3 "
            "=2 46 46 =3 =8 =1 =9 =5 =7 "
            "=7 =3 =8 59 =2 59 =4 =6 =1 "
            "=6 47 =3 =8 59 59 17 147 =2 "
            "58 57 =1 =6 =4 =2 =3 789 89 "
            "48 =2 =9 =1 =3 =7 =5 48 =6 "
            "=3 59 24 =7 =6 =8 12 129 459 "
            "45 4569 2467 59 =1 =3 2678 2789 4589 "
            "=1 =8 67 =2 59 =4 67 =3 59"
        ),
        "915476823264381957738925461643859712571642389829137546352768194496513278187294635",
    ),
    "BUG Type 2": (  # sudoku_exchange_rated line 1551, on its path
        (
            "=4 =2 18 =9 =7 =3 15 =6 58 "
            "=6 58 =3 =1 58 =2 =4 79 79 "
            "=7 158 =9 =4 =6 58 12 =3 28 "
            "=5 =9 =2 =7 =3 =6 =8 =4 =1 "
            "=1 =3 =4 58 58 =9 =7 =2 =6 "
            "=8 =7 =6 =2 =1 =4 59 59 =3 "
            "=9 148 18 =3 =2 =7 =6 58 45 "
            "=3 =6 =7 58 =4 58 29 =1 29 "
            "=2 48 =5 =6 =9 =1 =3 78 47"
        ),
        "428973165653182479719465238592736841134859726876214593981327654367548912245691387",
    ),
}


# ---- Sue de Coq ----------------------------------------------------------------------------------
def test_sue_de_coq_step_on_its_state():
    state = state_of(HODOKU_STATES["Sue de Coq"][0])
    step = sue_de_coq(state)
    g = state.g
    # G2, G3 {2,4,5,9} + G7, G8 {1,2,9} of row G + H1 {4,5} of box 7: five cells, five digits
    core, line_set, box_set = (
        [g.cell_of(x) for x in ("G2", "G3")],
        [g.cell_of(x) for x in ("G7", "G8")],
        [g.cell_of("H1")],
    )
    assert sorted(step.cells) == sorted(core + line_set + box_set)
    assert sorted(step.units) == sorted([g.rows[6], g.boxes[6]])
    # 1, 2, 9 (the line set's digits) leave row G; 4, 5 (the box set's) leave box 7
    assert sorted(step.eliminations) == sorted(
        [(g.cell_of("H2"), 4), (g.cell_of("H3"), 4), (g.cell_of("H2"), 5), (g.cell_of("G9"), 9)]
    )
    assert step.explanation.startswith("Sue de Coq: G2, G3 (row G in box 7) hold {2,4,5,9}")
    assert "remove 4 from H2, H3; 5 from H2; 9 from G9" in step.explanation
    assert {(c, d) for c, d in step.candidates} >= {(g.cell_of("H1"), 4), (g.cell_of("H1"), 5)}
    assert step.highlight()["eliminations"]


def test_sue_de_coq_needs_the_two_sides_to_share_no_digit():
    state = state_of(HODOKU_STATES["Sue de Coq"][0])
    g = state.g
    # give H1 {4,5} a 9 as well: the box side {4,5,9} now shares 9 with the line side, so H1 no longer
    # completes the pattern on G2, G3 (the step found, if any, must be a different one)
    state.cands[g.cell_of("H1")] |= 1 << 8
    state.changed()
    step = sue_de_coq(state)
    assert step is None or g.cell_of("H1") not in step.cells


def test_sue_de_coq_is_sound_on_solving_paths():
    fired = sum(fired_on_path(sue_de_coq, p, s) for p, s in diabolical(25))
    assert fired > 0


#: Sudoku Explainer's chains and triple exclusion (issue #20), which come before the HoDoKu rows in the full table
SE_CHAINS = (
    "Static Forcing Chain,Aligned Triple Exclusion,Nishio Forcing Chain,Multiple Forcing Chain,SE Dynamic Forcing Chain"
)


def test_sue_de_coq_appears_in_explain_and_scores_as_hodoku():
    # sudoku_exchange_rated line 2639, without SE's chains (in the full table they come first and take the step,
    # as SE rates it) and without 3D Medusa (not HoDoKu's; it comes before Sue de Coq and takes the step)
    path = explain(
        ".531...6......7..84...6.....2.5..8..6.9...7.3..7..3.2.....8...52..7......9...614.",
        techniques=technique_set("all", exclude=SE_CHAINS + ",3D Medusa"),
    )
    assert path.solved
    steps = [s for s in path.steps if s.technique == "Sue de Coq"]
    assert steps and all(s.rating == 5.0 for s in steps)
    row = BY_NAME["Sue de Coq"]
    assert (row.score, row.level, row.needs_boxes) == (250, "Unfair", True)
    assert "Sue de Coq" in technique_set("hodoku").names
    assert "Sue de Coq" not in technique_set("se").names


# ---- ALS-XY-Wing and Death Blossom -----------------------------------------------------------------
def test_als_xy_wing_step_on_its_state():
    # the first wing in the sets' order has a set C of six cells (sets of every size are listed on a 9x9 grid);
    # with sets of at most 4 cells it was A = C3, C5, C6, C9, removing 1 from D3
    text, solution = CASES["ALS-XY-Wing"]
    state = state_of(text)
    step = als_xy_wing(state)
    g = state.g
    assert_sound(step, solution)
    assert step.eliminations == [(g.cell_of("D2"), 3)]
    labels = {g.label(s) for s in step.cells}
    assert labels == {"A2", "C1", "C2", "C3", "C5", "C6", "C9", "D1", "F1", "F2", "G1", "G2", "H2", "I2"}
    assert len(step.units) == 3
    assert step.explanation.startswith("ALS-XY-Wing: A = C1, D1, F1, G1 (column 1, {2,3,5,7,9})")
    assert "C = A2, C2, F2, G2, H2, I2 (column 2, {1,2,3,4,6,7,8})" in step.explanation
    assert "A and B share 9, B and C share 1" in step.explanation
    assert step.explanation.endswith("so 3 is in A or C: remove 3 from D2")


def test_death_blossom_step_on_its_state():
    state = state_of(CASES["Death Blossom"][0])
    step = death_blossom(state)
    g = state.g
    assert step.eliminations == [(g.cell_of("D9"), 3)]
    assert {g.label(s) for s in step.cells} == {"A2", "A7", "D7", "D2", "G2", "A9", "E9", "G9"}
    assert step.explanation.startswith(
        "Death Blossom: stem A2 {5,6,9} with petals 5: A7, D7 (column 7, {2,3,5}); 6: D2, G2 (column 2, {3,4,6}); "
        "9: A9, E9, G9 (column 9, {3,5,7,9})"
    )
    # each petal's stem digit sees the stem: the step is sound only then
    c = state.cands
    for d, petal in ((5, ("A7", "D7")), (6, ("D2", "G2")), (9, ("A9", "E9", "G9"))):
        for label in petal:
            s = g.cell_of(label)
            assert not c[s] >> (d - 1) & 1 or g.cell_of("A2") in g.peer_sets[s]


def test_als_wings_and_blossoms_are_sound_on_solving_paths():
    puzzles = diabolical(50)
    assert sum(fired_on_path(als_xy_wing, p, s) for p, s in puzzles) > 0
    assert sum(fired_on_path(death_blossom, p, s) for p, s in puzzles) > 0


def test_als_rows_appear_in_explain_after_als_xz():
    names = [t.name for t in TECHNIQUES]
    assert names.index("ALS-XZ") < names.index("ALS-XY-Wing") < names.index("Death Blossom")
    assert names.index("Death Blossom") < names.index("Contradiction Forcing Chain")
    # without SE's chains: in the full table they come before the ALS rows (SE has none)
    path = explain(
        "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........",
        techniques=technique_set("all", exclude=SE_CHAINS),
    )
    used = {s.technique for s in path.steps}
    assert {"ALS-XY-Wing", "Death Blossom"} <= used
    assert (BY_NAME["ALS-XY-Wing"].score, BY_NAME["Death Blossom"].score) == (320, 360)
    assert {s.rating for s in path.steps if s.technique in ("ALS-XY-Wing", "Death Blossom")} == {8.0}


def plain_sue_de_coq(state: State):
    """Reference for the kernel: (line, box, core, line set, box set) of the first Sue de Coq that removes
    something, by plain combinations in the order ``sue_de_coq`` documents."""
    g, c = state.g, state.cands
    for line in (*g.rows, *g.cols):
        line_cells = [s for s in g.units[line] if c[s]]
        for box in g.boxes:
            inter = [s for s in line_cells if s in g.unit_sets[box]]
            if len(line_cells) < 4 or not 2 <= len(inter) <= 3:
                continue
            box_cells = [s for s in g.units[box] if c[s]]
            for k in range(len(inter), 1, -1):
                for core in combinations(inter, k):
                    v = reduce(or_, (c[s] for s in core))
                    need = v.bit_count() - k
                    if need < 2:
                        continue
                    line_side = [s for s in line_cells if s not in g.unit_sets[box] and c[s] & v]
                    box_side = [s for s in box_cells if s not in g.unit_sets[line] and c[s] & v]

                    def sides(cells, v=v, need=need):
                        for n in range(1, min(len(cells), MAX_SIDE) + 1):
                            for combo in combinations(cells, n):
                                m = reduce(or_, (c[s] for s in combo))
                                gain = n - (m & ~v).bit_count()
                                if 0 < gain < need:
                                    yield combo, m, gain

                    boxes = list(sides(box_side))
                    for a, ma, ga in sides(line_side) if boxes else ():
                        for b, mb, gb in boxes:
                            if ga + gb != need or ma & mb:
                                continue
                            only = v & ~ma & ~mb
                            if any(c[s] & (ma | only) for s in line_cells if s not in core and s not in a) or any(
                                c[s] & (mb | only) for s in box_cells if s not in core and s not in b
                            ):
                                return line, box, core, a, b
    return None


def test_sue_de_coq_kernel_finds_what_the_plain_search_finds(hard_states, variant_states):
    found = 0
    for state in hard_states + [s for s in variant_states if s.g.has_boxes]:
        step, plain = sue_de_coq(state), plain_sue_de_coq(state)
        assert (step is None) == (plain is None)
        if plain is not None:
            line, box, core, a, b = plain
            assert sorted(step.units) == sorted([line, box])
            assert sorted(step.cells) == sorted((*core, *a, *b))
            found += 1
    assert found


def _where(state: State) -> dict[int, set[int]]:
    c = state.cands
    return {d: {s for s in range(state.g.n_cells) if c[s] >> (d - 1) & 1} for d in state.g.digits}


def _seeing(state: State, where, cells: frozenset[int], d: int) -> set[int]:
    """Cells holding ``d``, outside ``cells``, that see every ``d`` of ``cells``."""
    peers = state.g.peer_sets
    return {t for t in where[d] if t not in cells and all(t in peers[h] for h in cells & where[d])}


def _restricted(state: State, where, a: frozenset[int], b: frozenset[int], x: int) -> bool:
    peers = state.g.peer_sets
    return all(q in peers[p] for p in a & where[x] for q in b & where[x])


def plain_als_xy_wing(state: State):
    """Reference for the kernel: (A, B, C, x, y, z) of the first ALS-XY-Wing, in the kernel's order."""
    sets = plain_almost_locked_sets(state)
    where = _where(state)
    for ib, (b, mb, _u) in enumerate(sets):
        linked = [
            (ia, x)
            for ia, (a, ma, _ua) in enumerate(sets)
            if ia != ib and not a & b
            for x in digits_of(ma & mb)
            if _restricted(state, where, a, b, x)
        ]
        for ia, x in linked:
            for ic, y in linked:
                a, c = sets[ia][0], sets[ic][0]
                if ic <= ia or y == x or a & c:
                    continue
                for z in digits_of(sets[ia][1] & sets[ic][1]):
                    if z not in (x, y) and _seeing(state, where, a, z) & _seeing(state, where, c, z):
                        return a, b, c, x, y, z
    return None


def plain_death_blossom(state: State):
    """Reference for the kernel: (stem, z, petals) of the first Death Blossom, depth-first in the kernel's
    order."""
    sets = plain_almost_locked_sets(state)
    where, peers, c = _where(state), state.g.peer_sets, state.cands

    def grow(stem, options, chosen):
        if len(chosen) == len(options):
            shared = reduce(lambda m, i: m & sets[i][1], chosen, ~c[stem])
            for z in digits_of(shared & state.g.all_mask):
                seen = set.intersection(*(_seeing(state, where, sets[i][0], z) for i in chosen))
                if seen:
                    return z, chosen
            return None
        for i in options[len(chosen)]:
            shared = reduce(lambda m, j: m & sets[j][1], chosen, sets[i][1] & ~c[stem])
            if shared and not any(sets[i][0] & sets[j][0] for j in chosen):
                found = grow(stem, options, [*chosen, i])
                if found:
                    return found
        return None

    for stem in range(state.g.n_cells):
        ds = digits_of(c[stem])
        if not 2 <= len(ds) <= MAX_PETALS:
            continue
        options = [
            [
                i
                for i, (cells, m, _u) in enumerate(sets)
                if m >> (d - 1) & 1 and stem not in cells and all(stem in peers[s] for s in cells & where[d])
            ]
            for d in ds
        ]
        if all(options):
            found = grow(stem, options, [])
            if found:
                return stem, found[0], [sets[i][0] for i in found[1]]
    return None


def test_als_wing_and_blossom_kernels_find_what_the_plain_searches_find(hard_states, variant_states):
    wings = blossoms = 0
    for state in hard_states[::2] + variant_states[::2]:
        step, ref = als_xy_wing(state), plain_als_xy_wing(state)
        assert (step is None) == (ref is None)
        if ref is not None:
            a, b, c, x, y, z = ref
            assert sorted(step.cells) == sorted(a | b | c) and {d for _s, d in step.eliminations} == {z}
            assert f"A and B share {state.sym(x)}, B and C share {state.sym(y)}" in step.explanation
            wings += 1
        step, ref = death_blossom(state), plain_death_blossom(state)
        assert (step is None) == (ref is None)
        if ref is not None:
            stem, z, petals = ref
            assert sorted(step.cells) == sorted({stem}.union(*petals))
            assert {d for _s, d in step.eliminations} == {z}
            blossoms += 1
    assert wings and blossoms


# ---- BUG type 2 ---------------------------------------------------------------------------------------
def test_bug_type2_step_on_its_state():
    state = state_of(HODOKU_STATES["BUG Type 2"][0])
    step = bug_type2(state)
    g = state.g
    assert sorted(step.cells) == [g.cell_of("C2"), g.cell_of("G2")]
    assert step.eliminations == [(g.cell_of("B2"), 8), (g.cell_of("I2"), 8)]
    assert step.explanation.startswith("BUG type 2: without the extra candidates C2 {8}, G2 {8} the grid would be")
    assert_sound(step, HODOKU_STATES["BUG Type 2"][1])
    # with one of those cells holding another extra digit, there is no grave to avoid
    state.cands[g.cell_of("C2")] |= 1 << 1
    state.changed()
    assert bug_type2(state) is None


def test_bug_type2_is_sound_on_solving_paths_and_in_explain():
    # the two puzzles of sudoku_exchange_rated (lines 1551 and 1856) where it comes first, and a sample of
    # diabolical ones (where it is rare), each path checked against the solution
    rated = [
        (
            ".2.973.6...31.24......6....5..7.6..113.....268..2.4..3...3.7....6..4..1...5.9.3..",
            HODOKU_STATES["BUG Type 2"][1],
        ),
        (
            "9..7546.......1..97.....2...83..5...2...6...1...2..74...9.....65..1.......1697..4",
            "912754683856321479734986215183475962247869531695213748479538126568142397321697854",
        ),
    ]
    assert all(fired_on_path(bug_type2, p, s) for p, s in rated)
    for p, s in diabolical(10):
        fired_on_path(bug_type2, p, s)
    # sudoku_exchange_rated line 2114
    path = explain("......4.77.2....9..597...3....186..2..4.9.6..3..254....3...192..9....7.48.1......")
    assert [s.rating for s in path.steps if s.technique == "BUG Type 2"] == [5.7]
    assert BY_NAME["BUG Type 2"].uniqueness and "BUG Type 2" in technique_set("se").names
    assert technique_set("bug").names == ["BUG+1", "BUG Type 2", "BUG Type 4", "BUG Type 3"]


def test_bug_type2_skips_geometries_with_extra_units_and_no_uniqueness():
    from sudokit.geometry import diagonal

    state = state_of(HODOKU_STATES["BUG Type 2"][0])
    other = State.from_candidates(diagonal(), state.values, state.cands)
    assert bug_type2(other) is None
    assert BY_NAME["BUG Type 2"] not in applicable(state, uniqueness=False)
