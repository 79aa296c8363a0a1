"""`python -m brain` runs the CLI."""

import sys

from brain.cli import main

sys.exit(main())
