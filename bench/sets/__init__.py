"""Evaluation sets for `ask` beyond HD-EPIC: an EPIC-KITCHENS week (generated at run time from ../shared, never
committed) and a constructed, non-kitchen life-log week (committed), with a checker for open answers."""
