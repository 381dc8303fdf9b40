"""Geometry: the seeds' invariants for every family."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sudokit.errors import SudokitError
from sudokit.geometry import (
    BOX_SHAPES,
    UNIT_KINDS,
    Geometry,
    diagonal,
    for_cells,
    for_size,
    from_name,
    jigsaw,
    standard,
    windoku,
    with_units,
)

JIGSAW_MAP = "111122333111222333411222333445552666444555666444855566777888996777888999777889999"


def test_standard_9x9_has_norvigs_counts():
    g = standard()
    assert g.n_cells == 81 and len(g.units) == 27
    assert all(len(g.units_of[s]) == 3 for s in g.cells)
    assert all(len(g.peers[s]) == 20 for s in g.cells)


def test_one_instance_per_standard_shape_however_asked_for():
    # The batch path recognises the 9x9 board by identity; load_lines returns for_cells(81).
    assert for_cells(81) is standard() is standard(3, 3) is standard(3) is for_size(9)
    assert standard(2, 3) is for_cells(36) and standard(2, 3) is not standard(3, 2)
    with pytest.raises(SudokitError, match="box_rows"):
        standard(True)


def test_units_and_peers_of_c2_match_norvigs_test():
    g = standard()
    c2 = g.cell_of("C2")
    units = {frozenset(g.labels[s] for s in g.units[u]) for u in g.units_of[c2]}
    assert units == {
        frozenset(["A2", "B2", "C2", "D2", "E2", "F2", "G2", "H2", "I2"]),
        frozenset(["C1", "C2", "C3", "C4", "C5", "C6", "C7", "C8", "C9"]),
        frozenset(["A1", "A2", "A3", "B1", "B2", "B3", "C1", "C2", "C3"]),
    }
    peers = {g.labels[p] for p in g.peers[c2]}
    assert peers == {
        "A2", "B2", "D2", "E2", "F2", "G2", "H2", "I2",
        "C1", "C3", "C4", "C5", "C6", "C7", "C8", "C9",
        "A1", "A3", "B1", "B3",
    }  # fmt: skip


def test_diagonal_cell_on_one_diagonal_and_centre_on_both():
    g = diagonal()
    assert len(g.units) == 29
    a1 = g.cell_of("A1")
    assert len(g.units_of[a1]) == 4 and len(g.peers[a1]) == 26
    e5 = g.cell_of("E5")
    assert len(g.units_of[e5]) == 5 and len(g.peers[e5]) == 32
    b1 = g.cell_of("B1")  # on no diagonal: as in plain Sudoku
    assert len(g.units_of[b1]) == 3 and len(g.peers[b1]) == 20


def test_windoku_adds_four_windows():
    g = windoku()
    assert len(g.units) == 31
    assert sum(1 for name in g.unit_names if name.startswith("window")) == 4
    assert len(g.units_of[g.cell_of("B2")]) == 4


@pytest.mark.parametrize("size", sorted(BOX_SHAPES))
def test_every_standard_size_partitions_cells(size):
    g = for_size(size)
    assert len(g.units) == 3 * size
    for kind in ("row", "column", "box"):
        cells = [s for u, unit in enumerate(g.units) if g.unit_kind(u) == kind for s in unit]
        assert sorted(cells) == list(g.cells)
    br, bc = BOX_SHAPES[size]
    expected_peers = 2 * (size - 1) + (br * bc - 1) - (br - 1) - (bc - 1)
    assert all(len(p) == expected_peers for p in g.peers)


def test_labels_use_seed_names_for_9x9_and_rc_otherwise():
    assert standard().labels[:3] == ("A1", "A2", "A3")
    assert standard().label(80) == "I9"
    g = standard(2, 3)
    assert g.label(7) == "r2c2"
    assert g.cell_of("R2C2") == 7 and g.cell_of("r6c6") == 35


def test_jigsaw_reads_a_region_map():
    regions = "1122\n1122\n3344\n3344"
    g = jigsaw(regions)
    assert g.size == 4 and len(g.units) == 12
    assert g.units[8] == (0, 1, 4, 5)


def test_jigsaw_rejects_uneven_regions():
    with pytest.raises(SudokitError, match="regions"):
        jigsaw("1111122233443344")


def test_from_name_resolves_variants_and_sizes():
    assert from_name("diagonal") == diagonal()
    assert from_name("x") == diagonal()
    assert from_name("6x6").size == 6 and from_name("6x6").box_rows == 2
    assert from_name("2x3") == from_name("6x6")
    assert from_name("16x16") == standard(4)
    assert from_name("3x3") == standard()
    assert from_name("diagonal", n_cells=256) == diagonal(standard(4))
    with pytest.raises(SudokitError, match="unknown variant"):
        from_name("hexagonal")


def test_equal_geometries_hash_alike():
    assert standard() == standard() and hash(standard()) == hash(standard())
    assert standard() != diagonal()
    assert for_cells(256) == standard(4)


def test_numpy_views_agree_with_tuples():
    g = diagonal()
    assert g.unit_array.shape == (29, 9)
    for s in g.cells:
        row = g.peer_array[s]
        assert tuple(row[: g.peer_counts[s]]) == g.peers[s]
        assert all(v == -1 for v in row[g.peer_counts[s] :])
        assert tuple(v for v in g.cell_unit_array[s] if v >= 0) == g.units_of[s]


def test_numpy_views_are_read_only_int64():
    g = windoku()
    for view in (g.unit_array, g.peer_array, g.peer_counts, g.cell_unit_array, g.box_of_array):
        assert view.dtype == "int64" and not view.flags.writeable
    assert tuple(g.box_of_array) == g.box_of


def test_factories_set_the_unit_kinds():
    assert standard().unit_kinds == ("row",) * 9 + ("column",) * 9 + ("box",) * 9
    assert diagonal().unit_kinds[27:] == ("diagonal", "diagonal")
    assert windoku().unit_kinds[27:] == ("window",) * 4
    assert set(jigsaw(JIGSAW_MAP).unit_kinds[18:]) == {"region"}
    assert all(standard(2, 3).unit_kind(u) in UNIT_KINDS for u in range(18))


def test_a_custom_unit_named_like_a_row_is_not_a_row():
    base = standard()
    g = with_units(base, [base.units[0]], ["row of my own"], "custom")
    assert g.unit_kind(27) == "extra"
    assert g.rows == base.rows and g.row_of == base.row_of
    assert g.extra_units == (27,)
    plain = Geometry("plain", 9, base.units[:9], tuple(f"row {r}" for r in range(9)))
    assert plain.rows == () and set(plain.unit_kinds) == {"extra"}


def test_unit_kinds_are_checked():
    base = standard()
    with pytest.raises(SudokitError, match="kind"):
        Geometry("bad", 9, base.units, base.unit_names, unit_kinds=("row",) * 26)
    with pytest.raises(SudokitError, match="kind"):
        Geometry("bad", 9, base.units[:1], base.unit_names[:1], unit_kinds=("ring",))


def test_rows_columns_boxes_and_the_unit_of_each_cell():
    g = standard(2, 3)
    assert g.rows == tuple(range(6)) and g.cols == tuple(range(6, 12)) and g.boxes == tuple(range(12, 18))
    for s in g.cells:
        assert s in g.units[g.row_of[s]] and s in g.units[g.col_of[s]] and s in g.units[g.box_of[s]]
        assert g.row_of[s] == g.row(s) and g.col_of[s] == 6 + g.col(s)
    assert g.has_boxes and g.regions == g.boxes


def test_a_jigsaw_has_regions_and_no_boxes():
    g = jigsaw(JIGSAW_MAP)
    assert g.boxes == () and set(g.box_of) == {-1} and not g.has_boxes
    assert len(g.regions) == 9 and -1 not in g.region_of
    assert g.extra_units == ()


def test_bitsets_match_the_tuples():
    g = diagonal()
    for s in g.cells:
        assert g.peer_bits[s] == sum(1 << p for p in g.peers[s])
        assert g.units_of_bits[s] == sum(1 << u for u in g.units_of[s])
    for u, unit in enumerate(g.units):
        assert g.unit_bits[u] == sum(1 << s for s in unit)
        assert g.unit_index[frozenset(unit)] == u


def test_a_geometry_pickled_to_another_process_hashes_like_one_built_there():
    import os
    import pickle
    import subprocess
    import sys

    code = (
        "import pickle, sys; from sudokit.geometry import diagonal; "
        "g = pickle.loads(sys.stdin.buffer.read()); print(g == diagonal(), hash(g) == hash(diagonal()))"
    )
    env = {**os.environ, "PYTHONHASHSEED": "12345"}
    out = subprocess.run(
        [sys.executable, "-c", code], input=pickle.dumps(diagonal()), capture_output=True, env=env, check=True
    ).stdout
    assert out.split() == [b"True", b"True"]


def test_geometries_with_the_same_units_but_other_kinds_differ():
    base = standard()
    latin = Geometry("latin", 9, base.units, base.unit_names)
    assert latin != base
    assert hash(standard()) == hash(standard(3, 3))


@given(st.sampled_from(sorted(BOX_SHAPES)), st.data())
def test_peer_relation_is_symmetric_and_irreflexive(size, data):
    g = for_size(size)
    s = data.draw(st.integers(0, g.n_cells - 1))
    assert s not in g.peer_sets[s]
    for p in g.peers[s]:
        assert s in g.peer_sets[p]
        assert any(s in g.units[u] for u in g.units_of[p])
