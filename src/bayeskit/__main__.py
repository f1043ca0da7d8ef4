"""``python -m bayeskit``: the ``bayeskit`` command."""

from bayeskit.cli import main

if __name__ == "__main__":
    main()
