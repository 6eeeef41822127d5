#!/usr/bin/env bash
# Shell pipelines over the log: JSONL out, jq to reshape, JSONL back in.
set -euo pipefail
db="${1:-${EGOCLI_DB:-egocli.db}}"

# Every speech event mentioning the pharmacy, as "local time<TAB>text".
egocli --db "$db" log search pharmacy --modality speech --jsonl | jq -r '[.time, .content] | @tsv'

# Add two notes from another program (start: seconds after --at, or ISO times).
printf '%s\n' '{"start": 0, "content": "Parked on level 3, row F", "modality": "note"}' \
              '{"start": 60, "content": "Ticket in the glovebox", "modality": "note"}' |
  egocli --db "$db" log add - --at "now"

# Count events per modality from the JSON stats document.
egocli --db "$db" stats --json | jq '.per_modality'
