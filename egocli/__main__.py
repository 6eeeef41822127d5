"""`python -m egocli` runs the CLI."""

from egocli.cli.app import main

main()
