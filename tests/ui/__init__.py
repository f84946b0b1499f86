"""Tests of reviewer_app.ui: the window, its panels and the page view, driven offscreen."""
