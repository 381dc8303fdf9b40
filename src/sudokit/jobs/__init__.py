"""Big jobs: a command's work on many puzzles, mapped over workers, answered in input order.

A batch command cuts its input into chunks, hands each chunk to a :class:`~sudokit.jobs.runner.Runner`
(one process, ``--jobs N`` local processes, or a Dask cluster) and writes each chunk's answers as soon as
it and every chunk before it are done, with a bounded number of chunks in flight.
"""
