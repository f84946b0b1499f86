"""Tests of the reviewer command (reviewer_app.cli), run as a user runs it."""
