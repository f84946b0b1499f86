"""Reviewer: review and draft Word contracts with an AI agent; every change is tracked."""

__version__ = "0.1.0"
