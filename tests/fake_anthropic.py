"""The scripted Anthropic Messages server the agent tests use; it lives in the package.

``reviewer --self-test`` runs an agent turn against the same server from an installed bundle,
so there is one copy, in :mod:`reviewer_app.selftest.scripted_model_server`; this module keeps
the tests' import path (``from tests.fake_anthropic import FakeAnthropic, reply, tool``).
"""

from reviewer_app.selftest.scripted_model_server import *  # noqa: F403 - a re-export by design
from reviewer_app.selftest.scripted_model_server import __all__  # noqa: F401 - star-import's list
