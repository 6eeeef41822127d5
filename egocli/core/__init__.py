"""The base every layer stands on: settings, errors, time (parsing and formatting) and words."""
