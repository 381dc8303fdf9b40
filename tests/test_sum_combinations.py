"""Sum combinations (logic/sum_combinations.py): an arrow's or a little killer's sum taken with other sums,
narrowed exactly (few cells) or clique by clique (long sums); both searches against brute force."""

from __future__ import annotations

from itertools import product

from hypothesis import given, settings
from hypothesis import strategies as st

from sudokit.constraints import Arrow, KillerCage, VariantPuzzle
from sudokit.formats.fpuzzles import read_fpuzzles
from sudokit.geometry import standard
from sudokit.logic import registry, variant_rules
from sudokit.logic.cages import weighted_fit
from sudokit.logic.explain import next_step
from sudokit.logic.state import State, digits_of
from sudokit.logic.sum_combinations import (
    NAME,
    LinearSum,
    clique_fit,
    combine,
    rule_sums,
    sum_combination,
    written,
)
from variant_corpus import RECORDS, logic_walk, solution_of

G = standard()


def _brute(masks, weights, total, apart) -> list[int]:
    """Each cell's digits over every choice with the weighted total, no repeat where ``apart``."""
    keep = [0] * len(masks)
    for pick in product(*(digits_of(m) for m in masks)):
        if sum(w * d for w, d in zip(weights, pick)) != total:
            continue
        if any(pick[i] == pick[j] for i, j in apart):
            continue
        for i, d in enumerate(pick):
            keep[i] |= 1 << (d - 1)
    return keep


masks_st = st.lists(st.integers(1, 511), min_size=1, max_size=4)


@settings(max_examples=150, deadline=None)
@given(masks_st, st.data())
def test_weighted_fit_is_the_brute_force_answer(masks, data):
    k = len(masks)
    weights = data.draw(st.lists(st.sampled_from([-2, -1, 1, 2, 3]), min_size=k, max_size=k))
    total = data.draw(st.integers(-20, 40))
    pairs = [(i, j) for i in range(k) for j in range(i)]
    apart = data.draw(st.lists(st.sampled_from(pairs), unique=True) if pairs else st.just([]))
    before = tuple(tuple(j for j in range(i) if (i, j) in apart) for i in range(k))
    assert list(weighted_fit(tuple(masks), tuple(weights), total, before)) == _brute(masks, weights, total, apart)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.integers(1, 511), min_size=2, max_size=5), st.integers(3, 40), st.data())
def test_clique_fit_keeps_every_true_digit_and_is_exact_for_one_clique(masks, total, data):
    k = len(masks)
    cut = data.draw(st.integers(1, k))
    cliques = (tuple(range(cut)), tuple(range(cut, k))) if cut < k else (tuple(range(k)),)
    inside = [(i, j) for q in cliques for i in q for j in q if j < i]
    exact = _brute(masks, [1] * k, total, inside)
    kept = clique_fit(tuple(masks), (1,) * k, total, cliques)
    assert all(e & ~c == 0 for e, c in zip(exact, kept))  # sound: nothing a true choice uses is lost
    assert list(kept) == exact  # and, with repeats allowed between cliques, exact


def test_combine_drops_the_shared_cell_and_writes_the_arithmetic():
    state = State.from_variant(VariantPuzzle.build(G, [0] * 81, []))
    b2, b3, b4, b5 = (G.cell_of(x) for x in ("B2", "B3", "B4", "B5"))
    innies = LinearSum((b2, b3), (1, 1), 10, "the innies")
    arrow = LinearSum((b2, b3, b4, b5), (1, -1, -1, -1), 0, "the arrow")
    found, sign = combine(arrow, innies, 1)
    assert sign == -1  # the arrow less the innies is -10: written the other way round
    assert dict(zip(found.cells, found.weights)) == {b3: 2, b4: 1, b5: 1} and found.total == 10
    assert written(state, found) == "2 x B3 + B4 + B5 = 10"


def _arrow_case() -> tuple[State, list[int]]:
    """Box A1's cells but two (a summed cage), an arrow from one of the two through the other and two more
    cells of its row, on the corpus' first solution: the innies and the arrow together narrow the shaft."""
    sol = solution_of(RECORDS[0])
    lab = G.cell_of
    for bulb, first in (("B2", "B3"), ("B3", "B2"), ("B2", "B1"), ("B1", "B2")):
        p, q = lab(bulb), lab(first)
        rest = [s for s in range(12, 18)]  # row B outside box A1
        for i, x in enumerate(rest):
            for y in rest[i + 1 :]:
                if sol[p] != sol[q] + sol[x] + sol[y]:
                    continue
                box = [s for s in G.units[G.boxes[0]] if s not in (p, q)]
                cons = [KillerCage(tuple(box), sum(sol[s] for s in box)), Arrow((p,), (q, x, y))]
                state = State.from_variant(VariantPuzzle.build(G, [0] * 81, cons))
                rows = registry.applicable(state)
                easier = rows[: [t.name for t in rows].index(NAME)]
                while (step := next_step(state, easier)) is not None:
                    state.apply(step)
                if sum_combination(state) is not None:
                    return state, sol
    raise AssertionError("no such arrow")


def test_an_arrow_taken_with_its_box_or_row_is_the_first_step_and_sound():
    state, sol = _arrow_case()
    step = next_step(state, registry.applicable(state))
    assert step is not None and step.technique == NAME, step and step.explanation
    assert "arrow from" in step.explanation and " gives " in step.explanation
    assert step.eliminations and all(sol[s] != d for s, d in step.eliminations)


def test_ctc_tribute_is_solved_by_logic_taking_its_arrows_out_of_the_45_rule():
    rec = next(r for r in RECORDS if r["name"] == "CTC Tribute")
    sol = solution_of(rec)
    assert len(rule_sums(State.from_variant(read_fpuzzles(rec["fpuzzles"])))) == 8  # eight arrows, each a sum
    walk = logic_walk(RECORDS.index(rec))  # whose bulb counts minus
    used: list[str] = []
    for step in walk.steps:
        assert all(sol[s] != d for s, d in step.eliminations), step.explanation
        assert all(sol[s] == d for s, d in step.placements), step.explanation
        if step.technique == NAME:
            used.append(step.explanation)
    assert walk.state.is_solved()  # it was stuck even with forcing chains before
    assert "innies of box 1" in used[0]  # B3 first, then columns and rows less two or three arrows each
    assert any("fourth" in text for text in used)


def test_a_long_little_killer_is_narrowed_box_by_box():
    """Little killer 22 on the main diagonal of nine cells with E5 = 7: the three boxes' sums are at least
    6, 10 and 6, so each box takes its least: {1,2,3}, {1,2} beside the 7, {1,2,3}."""
    rec = next(r for r in RECORDS if r["name"] == "Little Killer Sudoku")
    state = State.from_variant(read_fpuzzles(rec["fpuzzles"]))
    step = variant_rules.rule_step(state, "Little Killer Sum")
    assert step is not None and "22" in step.explanation
    state.apply(step)
    low = {G.cell_of(x): m for x, m in (("A1", 0b111), ("B2", 0b111), ("D4", 0b11), ("F6", 0b11), ("I9", 0b111))}
    assert all(state.cands[s] & ~m == 0 for s, m in low.items())
