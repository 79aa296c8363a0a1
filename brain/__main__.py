"""`python -m brain` runs the `brain` command line, as the console script does.

The one import of the command line from below it, kept so `python -m brain` works; the
import-linter contracts in pyproject.toml list it as their single documented exception.
"""

import sys

from cli import main

sys.exit(main())
