"""The chat dock: talk to the agent about the open document and review what it does, card by card.

``ChatDock`` is the widget the main window docks; ``ChatController`` runs the turns (qasync) and
keeps the cards' bookkeeping; the other modules are its parts (cards, conversation, banners).
"""

from .chat_controller import ChatController
from .chat_dock import ChatDock

__all__ = ["ChatController", "ChatDock"]
