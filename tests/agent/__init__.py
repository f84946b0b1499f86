"""Tests of reviewer_app.agent: sessions, tools, bridges, playbooks, against a scripted server."""
