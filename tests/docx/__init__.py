"""Tests of reviewer_app.docx: the engine, its edits and its checks."""
