"""``python -m scholargraph``: the command line."""

import sys

from scholargraph.cli.main import main

sys.exit(main())
