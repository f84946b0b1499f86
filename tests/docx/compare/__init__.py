"""Tests of reviewer_app.docx.compare: comparing two versions and the redline."""
