"""``python -m unob``: the same as the ``unob`` console script."""

from unob.cli import main

main()
