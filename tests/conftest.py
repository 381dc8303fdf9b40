"""Shared test helpers: the bundled data folder and a CLI runner."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

DATA = Path(__file__).resolve().parents[1] / "data"


@pytest.fixture
def data_dir() -> Path:
    return DATA


@pytest.fixture
def run_cli():
    """Run ``sudokit ARGS`` in-process; returns the click Result (exit_code, stdout, stderr)."""
    from sudokit.cli import main

    def run(*args: str, input: str | bytes | None = None):
        return CliRunner().invoke(main, list(args), input=input, catch_exceptions=False)

    return run


# ---- states for the logic kernels' tests (see logic_states.py) ---------------------------------------------


@pytest.fixture(scope="session")
def hard_states():
    from logic_states import hard_states

    return hard_states()


@pytest.fixture(scope="session")
def variant_states():
    from logic_states import variant_states

    return variant_states()


@pytest.fixture(scope="session")
def loop_states(hard_states, variant_states):
    from logic_states import loop_states

    return loop_states(hard_states, variant_states)
