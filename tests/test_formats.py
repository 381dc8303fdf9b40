"""Formats: every bundled file parses; every layout round-trips; bad input is reported with its place."""

from __future__ import annotations

import io
import itertools
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sudokit.errors import ParseError
from sudokit.formats import (
    WRITE_FORMATS,
    csv_header,
    entries_from_text,
    format_grid,
    parse_grid,
    parse_pencilmark,
    read_blocks,
    read_entries,
    separator,
)
from sudokit.geometry import BOX_SHAPES, for_size
from sudokit.grid import Candidates, Grid

DATA = Path(__file__).resolve().parents[1] / "data"

PUZZLE_FILES = sorted(
    p
    for p in DATA.glob("*.txt")
    if p.name.count(".") == 1  # skip the .solutions/.ratings/... sidecars
)
SIDE_CARS = sorted(p for p in DATA.glob("*.solutions.txt"))
HARD1 = ".....6....59.....82....8....45........3........6..3.54...325..6.................."


def test_bundled_sets_are_all_there():
    names = {p.name for p in PUZZLE_FILES}
    for wanted in ("norvig_easy50.txt", "norvig_top95.txt", "norvig_hardest.txt", "inkala.txt", "top1465.txt",
                   "17_clue.txt", "tdoku_test_puzzles.txt", "kaggle_sample.txt", "sudoku16_vu.txt",
                   "sudoku4_vu.txt", "xsudoku9.txt"):  # fmt: skip
        assert wanted in names


@pytest.mark.parametrize("path", PUZZLE_FILES + SIDE_CARS, ids=lambda p: p.name)
def test_every_bundled_file_parses_without_error(path):
    count = 0
    lines = sum(1 for line in path.open() if line.strip())
    for entry in read_entries(path):
        assert entry.ok, entry.error
        count += 1
    assert count == lines


def test_tdoku_lines_carry_counts_and_solutions():
    entries = list(read_entries(DATA / "tdoku_test_puzzles.txt"))
    assert len(entries) == 43
    assert sorted({e.count for e in entries})[:2] == [0, 1]
    assert all((e.solution is not None) == (e.count == 1) for e in entries)


def _sample(path, n=60):
    return [e.grid for e in itertools.islice(read_entries(path), n)]


@pytest.mark.parametrize("fmt", [f for f in WRITE_FORMATS if f != "csv"])
@pytest.mark.parametrize("path", PUZZLE_FILES, ids=lambda p: p.name)
def test_write_then_read_gives_the_same_puzzles(path, fmt):
    grids = _sample(path)
    text = separator(fmt).join(format_grid(g, fmt) for g in grids) + "\n"
    read_fmt = {"sdm": "line", "sdk": "grid", "ss": "grid"}.get(fmt, fmt)
    geometry = grids[0].geometry
    back = list(entries_from_text(text, fmt=read_fmt, geometry=geometry))
    assert all(e.ok for e in back), [e.error for e in back if e.error][:1]
    if fmt in ("candidates", "pencilmark"):  # candidate layouts: the candidates survive exactly
        assert [Candidates.of(g) for g in grids] == [e.candidates for e in back]
    else:
        assert [e.grid for e in back] == grids


def test_csv_round_trip_keeps_solutions():
    puzzles = _sample(DATA / "kaggle_sample.txt", 50)
    solutions = _sample(DATA / "kaggle_sample.solutions.txt", 50)
    rows = [format_grid(p, "csv", solution=s) for p, s in zip(puzzles, solutions)]
    text = csv_header() + "\n" + "\n".join(rows) + "\n"
    back = list(entries_from_text(text, fmt="auto", source="x.csv"))
    assert [e.grid for e in back] == puzzles
    assert [e.solution for e in back] == solutions


def test_easy50_block_layout_reads_as_nine_line_grids():
    grids = _sample(DATA / "norvig_easy50.txt", 3)
    blocks = "\n========\n".join("\n".join(g.to_line()[r * 9 : r * 9 + 9] for r in range(9)) for g in grids)
    assert [e.grid for e in entries_from_text(blocks + "\n")] == grids


def test_sdk_header_lines_become_meta():
    grid = _sample(DATA / "norvig_top95.txt", 1)[0]
    text = "#AArto Inkala\n#DA hard one\n" + format_grid(grid, "sdk")
    (entry,) = entries_from_text(text, source="p.sdk")
    assert entry.grid == grid and entry.meta == {"A": "Arto Inkala", "D": "A hard one"}


def test_lenient_parse_ignores_layout_like_norvig():
    pretty = format_grid(parse_grid(HARD1), "grid")
    assert "|" in pretty and "+" in pretty
    assert parse_grid(pretty) == parse_grid(HARD1)
    assert parse_grid(HARD1.replace(".", "0")) == parse_grid(HARD1)


def test_sixteen_by_sixteen_uses_letters_up_to_g():
    grid = _sample(DATA / "sudoku16_janko.solutions.txt", 1)[0]
    assert grid.geometry.size == 16
    assert set(grid.to_line()) == set("123456789ABCDEFG")
    assert parse_grid(grid.to_line().lower()) == grid


def test_pencilmark_line_reads_candidates():
    grid = parse_grid(HARD1)
    cands = Candidates.of(grid)
    line = format_grid(grid, "pencilmark")
    assert len(line) == 729
    assert parse_pencilmark(line) == cands


# ---- bad input ------------------------------------------------------------------------------
def _error_of(text: str, fmt: str = "auto", source: str = "in.txt") -> ParseError:
    entries = list(
        read_entries(io.BytesIO(text.encode("latin-1") if isinstance(text, str) else text), fmt, source=source)
    )
    bad = [e.error for e in entries if e.error]
    assert bad, "expected an error"
    return bad[0]


def test_eighty_characters_is_too_few_with_line_number():
    err = _error_of("." * 81 + "\n" + "." * 80 + "\n")
    assert (err.line, err.message) == (2, "too few cells: 80 of 81")
    assert str(err) == "in.txt:2: too few cells: 80 of 81"


def test_eighty_two_characters_is_too_many_at_the_column():
    err = _error_of("." * 82 + "\n")
    assert (err.line, err.column) == (1, 82)
    assert "too many cells" in err.message


def test_a_letter_is_a_bad_character_with_its_column():
    err = _error_of("4.....8.5.3..x" + "." * 67 + "\n")
    assert (err.line, err.column) == (1, 14)
    assert "bad character 'x'" in err.message


def test_zero_is_refused_in_strict_mode():
    with pytest.raises(ParseError, match="strict format writes an empty cell as '.'") as info:
        parse_grid("0" * 81, strict=True)
    assert info.value.column == 1


def test_truncated_csv_row_is_reported_and_the_rest_goes_on():
    text = "puzzle,solution\n" + "." * 81 + "," + "1" * 0 + "\n" + "." * 81 + "\n" + "." * 81 + ",\n"
    entries = list(read_entries(io.BytesIO(text.encode()), source="k.csv"))
    assert [e.ok for e in entries] == [True, False, True]
    assert entries[1].error.line == 3 and "truncated CSV row" in entries[1].error.message


def test_binary_file_is_refused_with_its_place():
    err = _error_of(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
    assert (err.line, err.column, err.message) == (1, 1, "not UTF-8 text (byte 0x89)")
    err = _error_of(b"." * 81 + b"\n" + b"ab\x00cd\n")
    assert (err.line, err.column, err.message) == (2, 3, "binary data, not puzzle text")


def test_empty_input_has_no_puzzles():
    assert list(read_entries(io.BytesIO(b""), source="e.txt")) == []
    with pytest.raises(ParseError, match="empty puzzle"):
        parse_grid("   \n ")


# ---- properties -----------------------------------------------------------------------------
sizes = st.sampled_from([4, 6, 9, 16])


@st.composite
def grids(draw):
    g = for_size(draw(sizes))
    values = draw(st.lists(st.integers(0, g.size), min_size=g.n_cells, max_size=g.n_cells))
    return Grid(g, tuple(values))


@settings(max_examples=60, deadline=None)
@given(grids(), st.sampled_from(["line", "grid", "sdk", "ss"]))
def test_any_grid_round_trips_through_every_text_layout(grid, fmt):
    text = format_grid(grid, fmt)
    assert parse_grid(text, geometry=grid.geometry) == grid
    assert parse_grid(text) == grid or grid.geometry.size not in BOX_SHAPES


@settings(max_examples=60, deadline=None)
@given(grids(), st.text(alphabet=" |-+*\n\t", max_size=3))
def test_lenient_mode_skips_any_layout_between_cells(grid, junk):
    line = grid.to_line()
    padded = junk.join(line)
    assert parse_grid(padded, geometry=grid.geometry) == grid


@settings(max_examples=100, deadline=None)
@given(st.text(max_size=120))
def test_parser_either_reads_or_raises_a_parse_error(text):
    try:
        grid = parse_grid(text)
    except ParseError as err:
        assert err.message
    else:
        assert len(grid.values) == grid.geometry.n_cells


def test_reading_streams_in_constant_memory():
    """100,000 puzzles (8 MB of text) from a lazy source, comments among them: peak memory stays far below
    what holding the text, let alone the grids, would take."""
    import tracemalloc

    line = (HARD1 + "\n").encode()

    def lazy_lines():
        for i in range(100_000):
            yield line if i % 3 else b"# a comment\n" + line

    tracemalloc.start()
    count = sum(1 for entry in read_entries(lazy_lines(), fmt="line", source="big.txt") if entry.ok)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert count == 100_000
    assert peak < 4_000_000  # the text alone is 8.6 MB, the grids would take over 60 MB


@given(st.sampled_from([4, 6, 9, 16]), st.data())
def test_a_plain_line_reads_the_same_as_the_same_cells_with_layout(size, data):
    """The quick path for a plain line of cells agrees with the careful (layout-skipping) reader."""
    geo = for_size(size)
    chars = ".0" + geo.symbols + geo.symbols.lower()
    line = "".join(data.draw(st.lists(st.sampled_from(chars), min_size=geo.n_cells, max_size=geo.n_cells)))
    spaced = "\n".join(" ".join(line[r * size : (r + 1) * size]) for r in range(size))
    assert parse_grid(line) == parse_grid(spaced) == parse_grid(line, mode="line")
    assert parse_grid(line).to_line() == line.replace("0", ".").upper()


def test_a_bad_last_character_of_a_plain_line_is_still_placed():
    line = "1" + "." * 79 + "x"
    with pytest.raises(ParseError) as err:
        parse_grid(line, source="p.txt", line=7)
    assert (err.value.line, err.value.column) == (7, 81)
    with pytest.raises(ParseError, match="'0'"):
        parse_grid("0" + "." * 80, strict=True)


# ---- one bad line never costs the others (issue 16, item 1) -------------------------------------------
def _oks(data: bytes, fmt: str = "auto", source: str = "in.txt") -> list[bool]:
    return [e.ok for e in read_entries(io.BytesIO(data), fmt, source=source)]


def test_a_stray_byte_in_the_second_line_costs_only_that_line():
    entries = list(read_entries(io.BytesIO(HARD1.encode() + b"\n\xff\n" + HARD1.encode() + b"\n"), source="f.txt"))
    assert [e.ok for e in entries] == [True, False, True]
    assert str(entries[1].error) == "f.txt:2:1: not UTF-8 text (byte 0xff)"


def test_a_latin1_comment_in_the_middle_loses_no_puzzle():
    lines = [HARD1.encode()] * 1000
    lines[500] = "# Café".encode("latin-1")
    entries = list(read_entries(io.BytesIO(b"\n".join(lines) + b"\n"), source="f.txt"))
    assert sum(e.ok for e in entries) == 999
    (bad,) = [e for e in entries if not e.ok]
    assert (bad.error.line, bad.error.column) == (501, 6)


@pytest.mark.parametrize("fmt", ["auto", "line", "grid", "tdoku", "pencilmark", "candidates"])
def test_a_nul_line_is_one_bad_entry_in_every_layout(fmt):
    grid = parse_grid(HARD1)
    text = {f: format_grid(grid, f) for f in ("grid", "candidates", "pencilmark")}
    one = text.get(fmt, HARD1).encode()
    entries = list(read_entries(io.BytesIO(one + b"\n\n\x00\x00\n\n" + one + b"\n"), fmt, source="f.txt"))
    assert [e.ok for e in entries] == [True, False, True]
    assert entries[1].error.message == "binary data, not puzzle text"


def test_a_line_over_a_mebibyte_is_one_bad_entry():
    data = HARD1.encode() + b"\n" + b"." * (3 << 20) + b"\r\n" + HARD1.encode() + b"\n"
    entries = list(read_entries(io.BytesIO(data), source="f.txt"))
    assert [e.ok for e in entries] == [True, False, True]
    assert entries[1].error.line == 2 and "longer than" in entries[1].error.message
    assert entries[2].line == 3


def test_endless_input_without_a_line_end_stops_with_an_error():
    """``sudokit solve /dev/zero``: an error after a bounded read, never a line growing to gigabytes."""
    import tracemalloc

    def zeros():
        while True:
            yield bytes(1 << 20)

    tracemalloc.start()
    entries = list(read_entries(zeros(), source="/dev/zero"))
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert len(entries) == 1 and "no line end in 64 MiB" in entries[0].error.message
    assert peak < 8 << 20


def test_bare_cr_line_ends_are_line_ends():
    for end in (b"\r", b"\r\n", b"\n"):
        entries = list(read_entries(io.BytesIO(end.join([HARD1.encode()] * 3) + end), source="f.txt"))
        assert [(e.ok, e.line) for e in entries] == [(True, 1), (True, 2), (True, 3)]


def test_csv_rows_the_csv_module_refuses_are_one_error_each():
    """A field over 131,072 characters raised ``_csv.Error``; it is one bad row and the rest is read."""
    big = '"' + "x" * 200_000 + '"'
    text = f"puzzle,solution\n{HARD1},\n{big},\n{HARD1},\n"
    entries = list(read_entries(io.BytesIO(text.encode()), source="k.csv"))
    assert [e.ok for e in entries] == [True, False, True]
    assert str(entries[1].error) == "k.csv:3: unreadable CSV row: field larger than field limit (131072)"
    cr = f"puzzle,solution\r{HARD1},\r{HARD1},\r".encode()
    assert _oks(cr, source="k.csv") == [True, True]


def test_numpy_lines_and_careful_lines_agree_in_order():
    """The block reader mixes numpy rows and lines read one by one; the result is the careful reader's."""
    lines = [HARD1, "", "# note", " " + HARD1, HARD1.replace(".", "0"), HARD1 + " ED=1.2", "1" * 16, "x" * 81]
    data = ("\n".join(lines * 50) + "\n").encode()
    entries = list(read_entries(io.BytesIO(data), "line", source="m.txt"))
    expected = []
    for number, text in enumerate(lines * 50, start=1):
        if text.strip() and not text.startswith("#"):
            expected.append((number, text.split()[0].replace("0", ".") if "x" not in text else None))
    got = [(e.line, e.grid.to_line() if e.ok else None) for e in entries]
    assert got == expected
    assert [e.index for e in entries] == list(range(len(entries)))
    assert entries[3].meta == {"extra": "ED=1.2"}
    via_numpy = [e for block in read_blocks(io.BytesIO(data), "line", source="m.txt") for e in block]

    def described(e):
        return (e.index, e.line, e.grid, e.meta, str(e.error))

    assert [described(e) for e in via_numpy] == [described(e) for e in entries]


_LINES = st.one_of(
    st.sampled_from([HARD1, "", "# note", "x" * 81, HARD1 + " ED=1.2", " " + HARD1, "1234" * 4, "puzzle,solution"]),
    st.binary(max_size=120),
)


@settings(max_examples=300, deadline=None)
@given(st.lists(_LINES, max_size=40), st.sampled_from([b"\n", b"\r\n", b"\r"]), st.sampled_from(["auto", "line"]))
def test_any_bytes_read_without_raising_and_every_puzzle_line_is_kept(lines, end, fmt):
    """Fuzz target: any bytes give entries (never an exception), numpy's blocks give the same entries as the
    careful reader, and with one puzzle a line every puzzle line is read, whatever garbage surrounds it."""
    data = end.join(x.encode() if isinstance(x, str) else x for x in lines) + end
    entries = list(read_entries(io.BytesIO(data), fmt, source="f.txt"))
    via_numpy = [e for block in read_blocks(io.BytesIO(data), fmt, source="f.txt") for e in block]

    def described(e):
        return (e.index, e.line, e.grid, e.meta, str(e.error))

    assert [described(e) for e in via_numpy] == [described(e) for e in entries]
    if fmt == "line":
        wanted = sum(1 for x in lines if isinstance(x, str) and x.strip().startswith(HARD1))
        assert sum(1 for e in entries if e.ok and e.grid.to_line() == HARD1) >= wanted


def test_a_lone_surrogate_in_text_is_one_bad_line_not_a_traceback():
    """A str can hold a lone surrogate that no file can: it was an UnicodeEncodeError out of entries_from_text."""
    from sudokit.formats import entries_from_text

    entries = list(entries_from_text("\ud800" + "." * 80 + "\n" + "." * 81))
    assert [e.ok for e in entries] == [False, True]
    assert str(entries[0].error) == "<text>:1:1: not UTF-8 text (byte 0xed)"
