"""Before Qt starts: are the X11 libraries its ``xcb`` platform plugin needs installed?

Without them Qt prints a paragraph about plugins and aborts the process (a core dump), which
tells a person nothing about what to install. On Linux, when Qt will use ``xcb``, the app checks
the libraries first and, when some are missing, says in one sentence which Debian packages bring
them. Nothing here imports Qt: the check must run before the first ``QApplication``.
"""

from __future__ import annotations

import ctypes
import os
import sys
from collections.abc import Iterable, Mapping

#: what PySide6's ``libqxcb.so`` and ``libQt6XcbQpa.so.6`` link to (``readelf -d``), beyond the
#: libraries Qt itself needs on any platform, with the Debian package providing each
XCB_LIBRARIES: dict[str, str] = {
    "libxcb.so.1": "libxcb1",
    "libX11-xcb.so.1": "libx11-xcb1",
    "libxcb-cursor.so.0": "libxcb-cursor0",
    "libxcb-icccm.so.4": "libxcb-icccm4",
    "libxcb-image.so.0": "libxcb-image0",
    "libxcb-keysyms.so.1": "libxcb-keysyms1",
    "libxcb-randr.so.0": "libxcb-randr0",
    "libxcb-render.so.0": "libxcb-render0",
    "libxcb-render-util.so.0": "libxcb-render-util0",
    "libxcb-shape.so.0": "libxcb-shape0",
    "libxcb-shm.so.0": "libxcb-shm0",
    "libxcb-sync.so.1": "libxcb-sync1",
    "libxcb-util.so.1": "libxcb-util1",
    "libxcb-xfixes.so.0": "libxcb-xfixes0",
    "libxcb-xkb.so.1": "libxcb-xkb1",
    "libxkbcommon-x11.so.0": "libxkbcommon-x11-0",
}


def will_use_xcb(environ: Mapping[str, str] | None = None, platform: str | None = None) -> bool:
    """True when Qt is about to load its ``xcb`` plugin: Linux, and ``QT_QPA_PLATFORM`` names
    ``xcb`` first, or names nothing outside a Wayland session (where Qt would choose Wayland)."""
    env = os.environ if environ is None else environ
    if not (platform or sys.platform).startswith("linux"):
        return False
    chosen = env.get("QT_QPA_PLATFORM", "").strip()
    if chosen:
        return chosen.split(";")[0].split(":")[0].strip() == "xcb"
    wayland = env.get("XDG_SESSION_TYPE") == "wayland" and bool(env.get("WAYLAND_DISPLAY"))
    return bool(env.get("DISPLAY")) or not wayland


def missing_libraries(names: Iterable[str]) -> list[str]:
    """The shared libraries of ``names`` the dynamic loader cannot load, as it would for Qt."""
    missing = []
    for name in names:
        try:
            ctypes.CDLL(name)
        except OSError:
            missing.append(name)
    return missing


def xcb_problem(libraries: Mapping[str, str] = XCB_LIBRARIES) -> str | None:
    """One sentence naming the missing X11 libraries and the command that installs them, or None."""
    if not will_use_xcb():
        return None
    missing = missing_libraries(libraries)
    if not missing:
        return None
    packages = " ".join(dict.fromkeys(libraries[name] for name in missing))
    return (
        f"Reviewer cannot open its window: the X11 libraries {', '.join(missing)} are not installed; "
        f"install them with: sudo apt-get install {packages}"
    )
