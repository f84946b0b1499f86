"""The bundle's entry script: the same entry point as the ``reviewer`` console script.

PyInstaller needs a script file, and ``reviewer_app/__main__.py`` uses a relative import that
only works with ``python -m``; this file is that entry point with an absolute import.
"""

import sys

from reviewer_app.cli import main

if __name__ == "__main__":
    sys.exit(main())
