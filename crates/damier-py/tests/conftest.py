"""Shared fixtures: the library's known-answer file (the one every Rust solver is run against)."""

import pathlib
import tomllib

import pytest

KNOWN = pathlib.Path(__file__).resolve().parents[2] / "damier" / "tests" / "data" / "known_answers.toml"


@pytest.fixture(scope="session")
def known():
    with KNOWN.open("rb") as f:
        return tomllib.load(f)
