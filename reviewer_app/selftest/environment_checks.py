"""The self-test's checks of the machine: the keyring backend and the folders Reviewer writes to.

A missing keyring is only a warning (the app keeps an API key for the session
instead, see :mod:`reviewer_app.agent.settings`), but a keyring backend module missing from a
bundle is a packaging bug, and a folder the app cannot write loses settings, transcripts,
recovery files or logs, so both fail. The folders come from the modules that write into them
(two of which load Qt, which the runner has started by then).
"""

from __future__ import annotations

import importlib
import os
import sys
from collections.abc import Callable
from importlib import metadata
from pathlib import Path

from ..agent.settings import KEYRING_SERVICE
from ..private_paths import private_dir
from .report import CheckFailed, Outcome


def _config_folder() -> Path:
    from ..ui.app_settings import user_settings_path  # settings.json and recent files

    return user_settings_path().parent


def _data_folder() -> Path:
    from ..agent.transcript import default_directory  # transcripts; review queues beside them

    return default_directory().parent


def _state_folder() -> Path:
    from ..ui.recovery import default_directory  # recovery copies of unsaved work

    return default_directory().parent


def _log_folder() -> Path:
    from ..ui.logging_setup import log_folder

    return log_folder()


#: The folders the app writes, by check name, each found by the code that writes into it, so
#: the self-test follows any change there (packaging/README.md lists them per OS).
DATA_FOLDERS: dict[str, Callable[[], Path]] = {
    "config_folder": _config_folder,
    "data_folder": _data_folder,
    "state_folder": _state_folder,
    "log_folder": _log_folder,
}

#: The keyring backend module each platform's bundle must contain (keyring finds them by entry point).
_PLATFORM_BACKENDS = {
    "win32": "keyring.backends.Windows",
    "darwin": "keyring.backends.macOS",
}
_DEFAULT_BACKEND = "keyring.backends.SecretService"


def _backend_name(backend: object) -> str:
    kind = type(backend)
    return f"{kind.__module__}.{kind.__qualname__}"


def keyring_backend() -> Outcome:
    """Which keyring backend stores API keys; none usable is a warning, a missing module a failure."""
    expected = _PLATFORM_BACKENDS.get(sys.platform, _DEFAULT_BACKEND)
    try:
        importlib.import_module(expected)
        import keyring
        from keyring.backends import fail, null
    except ImportError as error:
        raise CheckFailed(f"keyring backend {expected} is missing from this install: {error}") from error
    # keyring finds backends through package metadata (entry points), which a bundle must carry
    listed = {entry.value.split(":")[0] for entry in metadata.entry_points(group="keyring.backends")}
    if expected not in listed:
        raise CheckFailed(f"keyring cannot discover {expected}: its package metadata is missing")
    backend = keyring.get_keyring()
    forced = os.environ.get("PYTHON_KEYRING_BACKEND")
    if isinstance(backend, fail.Keyring | null.Keyring):  # null stores nothing, silently
        why = f"PYTHON_KEYRING_BACKEND is {forced}" if forced else f"{expected} found no keyring service"
        return Outcome(f"no usable keyring ({why}): API keys are kept for the session only", warning=True)
    chosen = f"{_backend_name(backend)}{' (set by PYTHON_KEYRING_BACKEND)' if forced else ''}"
    return Outcome(f"{chosen} stores keys under the service name {KEYRING_SERVICE!r}")


def writable_folder(check: str) -> Outcome:
    """Create the folder for ``check`` (a key of :data:`DATA_FOLDERS`), write, read and delete a probe."""
    folder = Path(DATA_FOLDERS[check]())
    probe = folder / f".selftest-{os.getpid()}"
    try:
        private_dir(folder)
        probe.write_text("self-test\n", encoding="utf-8")
        if probe.read_text(encoding="utf-8") != "self-test\n":
            raise CheckFailed(f"{folder}: the probe file read back differently")
        probe.unlink()
    except OSError as error:
        raise CheckFailed(f"{folder} is not writable: {error.strerror or error}") from error
    return Outcome(str(folder))
