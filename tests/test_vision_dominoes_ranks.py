"""The reader's quick median and percentile must give exactly what numpy gives:
they replace np.median / np.percentile in the reader for speed, and a read may not
change because of it."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from vision.dominoes.ranks import median, percentile

_FINITE = st.floats(-1e4, 1e4, width=32)


@settings(max_examples=200, deadline=None)
@given(hnp.arrays(st.sampled_from([np.float32, np.float64]), st.integers(1, 300), elements=_FINITE))
def test_median_and_percentiles_equal_numpys_for_floats(values):
    assert median(values) == np.median(values)
    assert type(median(values)) is type(np.median(values))
    for q in (0, 20, 25, 50, 99.7, 100):
        got, want = percentile(values, q), np.percentile(values, q)
        assert got == want and type(got) is type(want), q


@settings(max_examples=100, deadline=None)
@given(hnp.arrays(np.int64, st.integers(1, 200), elements=st.integers(-1000, 1000)))
def test_median_of_integers_is_numpys_float(values):
    got, want = median(values), np.median(values)
    assert got == want and type(got) is type(want)


def test_median_with_a_nan_is_nan_as_numpys():
    values = np.array([3.0, np.nan, 1.0, 2.0], np.float32)
    assert np.isnan(median(values)) and np.isnan(np.median(values))
    assert median(values).dtype == np.float32
    columns = np.array([[1, np.nan], [2, 3], [3, 4]], np.float32)
    assert np.array_equal(median(columns), np.median(columns, axis=0), equal_nan=True)
    assert median(columns).dtype == np.float32


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_median_of_few_values(n):
    values = np.arange(n, 0, -1, dtype=np.float32)
    assert median(values) == (n + 1) / 2


@settings(max_examples=100, deadline=None)
@given(hnp.arrays(st.sampled_from([np.uint8, np.float32]), st.tuples(st.integers(1, 120), st.integers(1, 3)),
                  elements=st.integers(0, 255)))
def test_median_down_the_columns_equals_numpys(values):
    got, want = median(values), np.median(values, axis=0)
    assert got.dtype == want.dtype and np.array_equal(got, want)
