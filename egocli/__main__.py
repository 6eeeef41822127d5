"""`python -m egocli` runs the CLI."""

from egocli.cli import main

main()
