"""mlbook.utils: the seed helper (show_source and load_benchmark are checked in test_project)."""

import numpy as np
import pytest

from mlbook.utils import seed, seed_offset


def test_seed_adds_the_offset_from_the_environment(monkeypatch):
    monkeypatch.delenv("MLBOOK_SEED", raising=False)
    assert seed_offset() == 0 and seed() == 0 and seed(7) == 7
    monkeypatch.setenv("MLBOOK_SEED", "3")
    assert seed_offset() == 3 and seed() == 3 and seed(7) == 10
    assert seed(np.int64(2)) == 5 and type(seed(np.int64(2))) is int
    monkeypatch.setenv("MLBOOK_SEED", " 12 ")
    assert seed(1) == 13
    monkeypatch.setenv("MLBOOK_SEED", "")
    assert seed(1) == 1


def test_a_shifted_seed_draws_other_numbers(monkeypatch):
    monkeypatch.delenv("MLBOOK_SEED", raising=False)
    a = np.random.default_rng(seed(0)).random(3)
    monkeypatch.setenv("MLBOOK_SEED", "1")
    b = np.random.default_rng(seed(0)).random(3)
    assert not np.array_equal(a, b)
    assert np.array_equal(b, np.random.default_rng(1).random(3))


@pytest.mark.parametrize("value", ["x", "1.5", "-1"])
def test_bad_offsets_name_the_variable(monkeypatch, value):
    monkeypatch.setenv("MLBOOK_SEED", value)
    with pytest.raises(ValueError, match="MLBOOK_SEED must"):
        seed(0)


def test_bad_seeds_name_the_argument(monkeypatch):
    monkeypatch.delenv("MLBOOK_SEED", raising=False)
    with pytest.raises(TypeError, match="n must be a whole number"):
        seed(1.5)
    with pytest.raises(TypeError, match="n must be a whole number"):
        seed(True)
    with pytest.raises(ValueError, match="n must be >= 0"):
        seed(-1)
