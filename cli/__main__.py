"""`python -m cli` runs the `brain` command line."""

import sys

from cli import main

sys.exit(main())
