"""The desktop user interface; the only layer that imports PySide6.

It shows what the engine (:mod:`reviewer_app.docx`) and the agent (:mod:`reviewer_app.agent`)
hold, and sends every change through them; nothing below imports from here.
"""
