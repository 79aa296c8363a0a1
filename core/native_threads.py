"""One BLAS thread per process unless the environment says otherwise.

The brain's numeric work is many small products: a routing fit's gradient over about 2,000
rows of 384 numbers, a query against the examples, a fold of the out-of-scope model. OpenBLAS
splits each product across its threads, and on a CPU other processes share (a 2-core server
beside the bot's other jobs, a CI machine, a test run) the second thread waits for a time slice
at every product. Measured on 2 cores at a load of about 7: the logistic regression of one
routing fit took 3.3 s with two BLAS threads and 0.15 s with one, and the tests of
`tests/eval` and `tests/knowledge` 43 s against 19 s. The ONNX engine keeps one intra-op thread
for the same reason (`core.text.embedder`).

The variables must be set before numpy loads its BLAS, so the command line calls this first;
code that is already running numpy limits its fits with `threadpoolctl` instead
(`brain.semantic.features.single_thread_blas`).
"""

from __future__ import annotations

import os

#: The thread-count variables of the BLAS and OpenMP runtimes numpy, SciPy and scikit-learn
#: may load.
THREAD_VARIABLES = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")


def prefer_one_blas_thread() -> None:
    """One thread for each runtime whose variable is not set (a set one is kept: an operator
    with cores to spare can raise it), inherited by every process started from here."""
    for name in THREAD_VARIABLES:
        os.environ.setdefault(name, "1")
