#!/usr/bin/env bash
# The bundled example, end to end: an afternoon's narration into a fresh event log, then questions.
# Run by `make demo` (which sets EGOCLI_HOME to .cache/demo); runnable by hand with egocli on PATH.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
db="${EGOCLI_HOME:-$here/../.cache/demo}/demo.db"
rm -f "$db" "$db-wal" "$db-shm"

echo "== import an afternoon's narration (SRT) =="
egocli --db "$db" import "$here/afternoon.srt" --start 2026-11-28T13:00:00

echo; echo "== where did I put my keys? =="
egocli --db "$db" log search "where did I put my keys" --limit 3

echo; echo "== what happened around the pharmacy? (event + 2 neighbours) =="
id=$(egocli --db "$db" log search pharmacist --jsonl --limit 1 | python3 -c 'import json,sys; print(json.loads(sys.stdin.readline())["id"])')
egocli --db "$db" log show "$id" --context 2

echo; echo "== ingest a glasses recording (video + audio) =="
egocli --db "$db" ingest "$here/glasses.mp4"
egocli --db "$db" log list --source glasses.mp4

echo; echo "== what did the sign say? =="
egocli --db "$db" log search "bus" --modality text --limit 1

echo; echo "== summarise the log by hour and day (HCC), then ask =="
egocli --db "$db" summarize
egocli --db "$db" ask "where did I put my house keys?"
egocli --db "$db" ask "What did the pharmacist say about the refill?" \
  --choice "It is ready now" --choice "Ready on Monday after ten" --choice "It was cancelled" \
  --choice "Ready on Thursday at seven" --choice "Call the doctor first"

echo; echo "== the log at a glance =="
egocli --db "$db" stats
