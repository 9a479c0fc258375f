"""Worker processes' numerical threads: one BLAS and OpenMP thread each.

Where the parallelism is the processes (the arena's workers, the server's bot
workers, the DMC trainer's collector), a network's small products on several
threads in each process only spin: up to half of every worker's CPU, measured
(docs/research.md). NumPy's BLAS and OpenMP read their thread counts from the
environment once, when a process loads them, so the variables are set before
then: around the spawning of the workers (:func:`one_thread_each`), or first
thing in a worker that has not yet imported NumPy (:func:`use_one_thread`). A
variable the user set is left as they set it.

>>> import os
>>> users = os.environ.pop("OMP_NUM_THREADS", None)
>>> with one_thread_each():
...     os.environ["OMP_NUM_THREADS"]
'1'
>>> "OMP_NUM_THREADS" in os.environ
False
>>> if users is not None:
...     os.environ["OMP_NUM_THREADS"] = users
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Final

__all__ = ["THREAD_VARIABLES", "one_thread_each", "use_one_thread"]

THREAD_VARIABLES: Final = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")
"""What a process's numerical libraries read for their thread count."""


@contextmanager
def one_thread_each() -> Iterator[None]:
    """Processes started within get one BLAS and OpenMP thread each (the variables
    the environment does not set); this process's environment is put back after."""
    before = {k: os.environ.get(k) for k in THREAD_VARIABLES}
    for k, v in before.items():
        if v is None:
            os.environ[k] = "1"
    try:
        yield
    finally:
        for k, v in before.items():
            if v is None:
                os.environ.pop(k, None)


def use_one_thread() -> None:
    """One BLAS and OpenMP thread for this process (unless the environment says):
    call it in a worker before anything imports NumPy."""
    for name in THREAD_VARIABLES:
        os.environ.setdefault(name, "1")
