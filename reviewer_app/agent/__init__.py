"""The agent layer: tool definitions, the lenient parser, the executor, bridges and the tool loop.

No Qt here (a test imports this package in a bare interpreter and checks that PySide6 stays
unloaded): the same agent drives the desktop app, the CLI and headless tests, and the UI
talks to it only through bridges. ``anthropic`` is imported lazily, when a turn starts.
"""
