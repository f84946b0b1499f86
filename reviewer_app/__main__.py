"""``python -m reviewer_app``: the same entry point as the ``reviewer`` console script."""

import sys

from .cli import main

sys.exit(main())
