"""HoDoKu's grouped X-chains, grouped nice loops and AICs (group nodes, ``logic/groups.py``) and its ALS-Chain
(issue #20 item 2): the group nodes and their links against a plain reference, each row's step on its own state
(the cases in test_logic_techniques.py, where it is the first step of HoDoKu's set) explained and highlighted,
sound on bundled solving paths, and used by ``explain --techniques hodoku`` on real puzzles."""

from __future__ import annotations

from itertools import pairwise
from pathlib import Path

from sudokit.formats import parse_grid
from sudokit.logic import BY_NAME, TECHNIQUES, State, explain, loops
from sudokit.logic import groups as groups_module
from sudokit.logic.als import als_chain
from sudokit.logic.chains import find_chain, grouped_aic, grouped_x_chain
from sudokit.logic.groups import graph, intersections
from sudokit.logic.loops import grouped_continuous_nice_loop
from sudokit.logic.registry import technique_set
from test_logic_hodoku import diabolical, fired_on_path
from test_logic_techniques import CASES, on_case, state_of

DATA = Path(__file__).resolve().parents[1] / "data"
NEW = ("Grouped X-Chain", "Grouped Continuous Nice Loop", "Grouped AIC", "ALS-Chain")


def lines(name: str) -> list[str]:
    return (DATA / name).read_text().split()


# ---- group nodes against a plain reference -----------------------------------------------------------------
def plain_nodes(state: State) -> list[tuple[int, frozenset[int]]]:
    """(digit, cells) of every node: each candidate, and each digit's candidates where two units meet (two or
    more, each set of cells once per digit)."""
    g, c = state.g, state.cands
    nodes = [(d, frozenset([s])) for s in g.cells for d in g.digits if c[s] >> (d - 1) & 1]
    seen = set()
    for u in range(len(g.units)):
        for v in range(u + 1, len(g.units)):
            both = g.unit_sets[u] & g.unit_sets[v]
            for d in g.digits:
                cells = frozenset(s for s in both if c[s] >> (d - 1) & 1)
                if len(cells) >= 2 and (d, cells) not in seen:
                    seen.add((d, cells))
                    nodes.append((d, cells))
    return nodes


def plain_links(state: State, mode: str) -> tuple[set, set]:
    """(strong, weak) links between nodes with a group among them, by their definitions: weak when one digit and
    every cell of one sees every cell of the other; strong when one digit and together every place of it in a
    unit."""
    g, c = state.g, state.cands
    nodes = plain_nodes(state)
    strong, weak = set(), set()
    for i, (d, a) in enumerate(nodes):
        for e, b in nodes[i + 1 :]:
            if d != e or (len(a) == 1 and len(b) == 1):
                continue
            key = frozenset([(d, a), (e, b)])
            if all(t in g.peer_sets[s] for s in a for t in b):
                weak.add(key)
            if a & b:
                continue
            for u in range(len(g.units)):
                places = {s for s in g.units[u] if c[s] >> (d - 1) & 1}
                if a | b == places:
                    strong.add(key)
    return strong, weak


def kernel_links(state: State, mode: str) -> tuple[set, set]:
    gr = graph(state, mode)
    strong_w, weak_w, _conf = gr.words
    total = strong_w.shape[0]

    def node(v: int):
        cands = gr.candidates(v)
        return cands[0][1], frozenset(s for s, _ in cands)

    live = [v for v in range(total) if (state.cands[v // gr.n] >> (v % gr.n) & 1 if v < gr.base else gr.candidates(v))]
    out: tuple[set, set] = (set(), set())
    for k, rows in enumerate((strong_w, weak_w)):
        for v in live:
            bits = groups_module.row_bits(rows[v])
            for w in live:
                if w > v and bits >> w & 1 and (gr.is_group(v) or gr.is_group(w)):
                    out[k].add(frozenset([node(v), node(w)]))
    return out


def test_group_links_match_their_definitions(hard_states, variant_states):
    checked = 0
    for state in hard_states[::2] + variant_states:
        if state.g.size > 9:
            continue
        for mode in ("x", "aic"):
            assert kernel_links(state, mode) == plain_links(state, mode)
            checked += 1
    assert checked


def test_intersections_of_a_classic_grid_are_box_lines():
    g = state_of(CASES["Grouped AIC"][0]).g
    inter = intersections(g)
    assert inter.shape == (54, 3)
    assert all(len({g.box_of[s] for s in row}) == 1 for row in inter)


# ---- each row on its state ---------------------------------------------------------------------------------
def labels(state: State, cells) -> list[str]:
    return sorted(state.g.label(s) for s in cells)


def test_grouped_x_chain_on_its_state():
    state, step = on_case("Grouped X-Chain")
    assert step.explanation == (
        "Grouped X-Chain {F1,F2,F3}(4) = F8(4) - H8(4) = G9(4) - G1(4) = {D1,F1}(4): {F1,F2,F3} holds 4 or "
        "{D1,F1} holds 4, so remove 4 from D2, E3"
    )
    assert labels(state, [s for s, _ in step.eliminations]) == ["D2", "E3"]
    assert labels(state, step.cells) == ["D1", "F1", "F2", "F3", "F8", "G1", "G9", "H8"]
    # a group's link is drawn from each of its cells: strong 3 + 1 + 2, weak 1 + 1
    assert len(step.links) == 8 and [strong for *_, strong in step.links].count(True) == 6
    assert step.rating == 6.6 and grouped_x_chain(state) is not None
    assert step.highlight()["eliminations"] == [[state.g.cell_of("D2"), 4], [state.g.cell_of("E3"), 4]]


def test_grouped_continuous_nice_loop_on_its_state():
    state, step = on_case("Grouped Continuous Nice Loop")
    assert step.explanation == (
        "Grouped Continuous Nice Loop (6)I6 - (6){H4,H5} = (6-9)H9 = (9){H4,H5} - (9){G6,I6} = (9-6)E6 = (6)I6: "
        "each link holds exactly one true candidate, so remove 1 and 4 from E6"
    )
    e6 = state.g.cell_of("E6")
    assert step.eliminations == [(e6, 1), (e6, 4)]
    assert step.rating == 7.1  # 8 nodes
    assert labels(state, step.cells) == ["E6", "G6", "H4", "H5", "H9", "I6"]
    assert grouped_continuous_nice_loop(state) is not None


def test_grouped_continuous_loop_waits_for_a_shorter_grouped_aic(hard_states):
    # a grouped continuous loop is reported only when no grouped AIC has fewer nodes (as the plain loop row)
    waited = reported = 0
    for state in hard_states:
        loop = loops.find_continuous(state, grouped=True)
        if loop is None:
            continue
        chain = find_chain(state, "aic", loops.MAX_NODES, grouped=True)
        step = grouped_continuous_nice_loop(state)
        if chain is not None and len(chain[0]) < loop.length:
            assert step is None
            waited += 1
        else:
            assert step is not None and step.eliminations
            reported += 1
    assert waited and reported


def test_grouped_aic_on_its_state():
    state, step = on_case("Grouped AIC")
    assert step.explanation == (
        "Grouped AIC G1(4) = G7(4) - G7(5) = {I7,I8}(5) - I5(5) = I5(4): G1 is 4 or I5 is 4, so remove 4 from I2, I3"
    )
    assert labels(state, [s for s, _ in step.eliminations]) == ["I2", "I3"]
    assert {d for _, d in step.candidates} == {4, 5}
    assert step.rating == 7.0


def test_als_chain_on_its_state():
    state, step = on_case("ALS-Chain")
    assert step.explanation.startswith(
        "ALS-Chain: A1 = D2, D9 (row D, {5,6,8}); A2 = C2 (row C, {5,8}); A3 = A2, A3, A8 (row A, {1,5,6,8}); "
        "A4 = A7, H7 (column 7, {6,7,8}); restricted common digits A1-A2 8, A2-A3 5, A3-A4 8"
    )
    assert step.explanation.endswith("6 is in A1 or A4: remove 6 from D7")
    assert step.eliminations == [(state.g.cell_of("D7"), 6)]
    assert len(step.units) == 4 and step.rating == 8.1
    assert labels(state, step.cells) == ["A2", "A3", "A7", "A8", "C2", "D2", "D9", "H7"]


def test_als_chain_links_are_restricted_and_alternate():
    # the chain of the case, read back: sets apart, each link's digit seen across the pair, no digit twice in a row
    state, step = on_case("ALS-Chain")
    g, c = state.g, state.cands
    sets = [frozenset(g.cell_of(x) for x in xs) for xs in (("D2", "D9"), ("C2",), ("A2", "A3", "A8"), ("A7", "H7"))]
    via = (8, 5, 8)
    for (a, b), x in zip(pairwise(sets), via):
        assert not a & b
        xa = [s for s in a if c[s] >> (x - 1) & 1]
        xb = [s for s in b if c[s] >> (x - 1) & 1]
        assert xa and xb and all(t in g.peer_sets[s] for s in xa for t in xb)
    assert all(x != y for x, y in pairwise(via))
    assert als_chain(state) is not None


# ---- table, soundness, explain -----------------------------------------------------------------------------
def test_rows_sit_where_hodoku_tries_them_with_its_scores():
    names = [t.name for t in TECHNIQUES]
    assert names.index("Discontinuous Nice Loop") < names.index("Grouped X-Chain")
    assert names.index("Grouped X-Chain") < names.index("Grouped Continuous Nice Loop") < names.index("Grouped AIC")
    assert names.index("Grouped AIC") < names.index("ALS-XZ")
    assert names.index("ALS-XY-Wing") < names.index("ALS-Chain") < names.index("Death Blossom")
    assert [(BY_NAME[n].score, BY_NAME[n].level) for n in NEW] == [(300, "Unfair")] * 3 + [(340, "Unfair")]
    hodoku, se = technique_set("hodoku").names, technique_set("se").names
    assert all(n in hodoku and n not in se for n in NEW)
    assert technique_set("grouped nice loop").names == ["Grouped Continuous Nice Loop", "Grouped AIC"]


def test_new_finders_are_sound_on_solving_paths():
    # every state of every 50th "diabolical" path of sudoku_exchange_tiers (full table), each step checked
    puzzles = diabolical(50)
    for find in (grouped_x_chain, grouped_continuous_nice_loop, grouped_aic, als_chain):
        assert sum(fired_on_path(find, p, s) for p, s in puzzles) > 0, find.__name__


def test_explain_uses_them_on_real_puzzles():
    tiers = lines("sudoku_exchange_tiers.txt")
    top = lines("top1465.txt")
    for puzzle, name in (
        (top[488], "Grouped X-Chain"),
        (top[110], "Grouped Continuous Nice Loop"),
        (tiers[1720], "Grouped AIC"),
        (tiers[1607], "ALS-Chain"),
    ):
        path = explain(parse_grid(puzzle), techniques=technique_set("hodoku"))
        assert path.solved
        used = [s for s in path.steps if s.technique == name]
        assert used, name
        assert all(s.eliminations or s.placements for s in used)


def test_every_als_chain_found_on_solving_paths_holds(hard_states, variant_states):
    # read back from the step alone: each set an almost locked set of one unit, the sets apart, each link's digit
    # restricted, no digit twice in a row, and each removal seeing every z of both ends
    checked = 0
    for state in hard_states + variant_states:
        step = als_chain(state)
        if step is None:
            continue
        g, c = state.g, state.cands
        text = step.explanation
        parts = text[len("ALS-Chain: ") : text.index("; restricted")].split("; ")
        sets = []
        for part, u in zip(parts, step.units):
            cells = frozenset(g.cell_of(x) for x in part.split(" = ")[1].split(" (")[0].split(", "))
            assert cells <= g.unit_sets[u]
            mask = 0
            for s in cells:
                mask |= c[s]
            assert mask.bit_count() == len(cells) + 1
            sets.append((cells, mask))
        links = text[text.index("restricted common digits ") :].split(", each")[0].split(" ")[3:]
        via = [g.symbols.index(x.rstrip(",")) + 1 for x in links[1::2]]
        assert 4 <= len(sets) <= 6 and len(via) == len(sets) - 1
        assert all(not a & b for i, (a, _) in enumerate(sets) for b, _ in sets[i + 1 :])
        for ((a, _), (b, _)), x in zip(pairwise(sets), via):
            xa = [s for s in a if c[s] >> (x - 1) & 1]
            xb = [s for s in b if c[s] >> (x - 1) & 1]
            assert xa and xb and all(t in g.peer_sets[s] for s in xa for t in xb)
        assert all(x != y for x, y in pairwise(via))
        z = g.symbols.index(text.split(" is in A1 or ")[0].rsplit(" ", 1)[1]) + 1
        assert z not in (via[0], via[-1])
        ends = [s for cells, _ in (sets[0], sets[-1]) for s in cells if c[s] >> (z - 1) & 1]
        for s, d in step.eliminations:
            assert d == z and all(t in g.peer_sets[s] for t in ends)
        checked += 1
    assert checked
