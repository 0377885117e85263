"""A batch holds the cyclic collector off and gives it back as it found it."""

from __future__ import annotations

import gc

import pytest

from scholargraph.graph.loaders.collector import collector_held


def test_nested_holds_give_the_collector_back_when_the_last_ends() -> None:
    assert gc.isenabled()
    with collector_held():
        assert not gc.isenabled()
        with collector_held():
            assert not gc.isenabled()
        assert not gc.isenabled()
    assert gc.isenabled()


def test_a_failing_batch_gives_the_collector_back() -> None:
    with pytest.raises(RuntimeError), collector_held():
        raise RuntimeError("the batch failed")
    assert gc.isenabled()


def test_a_collector_held_off_before_stays_off() -> None:
    gc.disable()
    try:
        with collector_held():
            assert not gc.isenabled()
        assert not gc.isenabled()
    finally:
        gc.enable()
