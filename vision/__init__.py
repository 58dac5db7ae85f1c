"""Camera frames in, what is on the table out: plain functions over numpy arrays.

Every result is a frozen dataclass from table.reads, so a read can be written to a
session recording and compared when the session is replayed.
"""
