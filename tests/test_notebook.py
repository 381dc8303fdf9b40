"""The example notebook runs from top to bottom and shows its boards."""

from __future__ import annotations

from pathlib import Path

import nbformat
from nbclient import NotebookClient

NOTEBOOK = Path(__file__).resolve().parents[1] / "examples" / "sudoku_story.ipynb"


def test_the_sudoku_story_notebook_executes_and_draws_boards(tmp_path):
    nb = nbformat.read(NOTEBOOK, as_version=4)
    NotebookClient(nb, timeout=120, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}).execute()
    outputs = [o for cell in nb.cells if cell.cell_type == "code" for o in cell.outputs]
    assert not [o for o in outputs if o.output_type == "error"]
    pictures = [o for o in outputs if o.output_type in ("execute_result", "display_data")]
    svgs = [o for o in pictures if "image/svg+xml" in o.data]
    rows = [o for o in pictures if "<svg" in o.data.get("text/html", "")]
    pngs = [o for o in pictures if "image/png" in o.data]
    assert len(svgs) >= 6 and len(rows) >= 3 and len(pngs) == 1
    text = "".join(o.get("text", "") for o in outputs if o.output_type == "stream")
    assert "20 peers" in text and "complete: True" in text and "solves the diagonal rules: True" in text
