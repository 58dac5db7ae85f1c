"""Game rules, rounds, the chip ledger, odds and the command line.

Everything under table.rules and table.odds is pure: no I/O, no camera, no pygame,
so that a round can be replayed, tested exhaustively and analysed exactly.
"""
