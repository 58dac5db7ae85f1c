"""Rendered table scenes with known contents: labelled fixtures for the dice reader
and the settle detector that the project can regenerate and ship (the real photos
cannot be shipped)."""
