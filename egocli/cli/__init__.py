"""The interface: the root Typer app (app.py), Click help styling and the one place rich is imported (ui.py).
Command groups live beside it in egocli/commands/."""
