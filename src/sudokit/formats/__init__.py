"""Reading and writing puzzles in the field's text formats (see :mod:`.read` for the layouts)."""

from __future__ import annotations

from sudokit.formats.blocks import Block
from sudokit.formats.entry import Entry
from sudokit.formats.pencilmark import format_pencilmark, parse_candidate_grid, parse_pencilmark
from sudokit.formats.read import FORMATS, detect_format, entries_from_text, read_blocks, read_entries, read_puzzles
from sudokit.formats.text import MODES, check_givens, format_line, parse_grid
from sudokit.formats.write import WRITE_FORMATS, csv_header, display, format_grid, line_rows, separator, spliced

__all__ = [
    "FORMATS",
    "MODES",
    "WRITE_FORMATS",
    "Block",
    "Entry",
    "check_givens",
    "csv_header",
    "detect_format",
    "display",
    "entries_from_text",
    "format_grid",
    "format_line",
    "format_pencilmark",
    "line_rows",
    "parse_candidate_grid",
    "parse_grid",
    "parse_pencilmark",
    "read_blocks",
    "read_entries",
    "read_puzzles",
    "separator",
    "spliced",
]
