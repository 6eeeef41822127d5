"""The log's own use cases: importing transcripts, the logbook (list, search, export, forget), the timeline
page's data, the health check (doctor) and the HD-EPIC evaluation harness."""
