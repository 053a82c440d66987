#!/usr/bin/env bash
# An example executor: it reads the prompt taskctl writes on stdin and prints a
# JSON object whose "notes" name the files it was given. Replace it with a
# model CLI (for example `llm -m gpt-4o` or `claude -p`) to do real work.
set -euo pipefail
prompt=$(cat)
files=$(printf '%s\n' "$prompt" | sed -n 's/.*<file path="\([^"]*\)".*/\1/p' | sort -u)
count=$(printf '%s\n' "$files" | grep -c . || true)
first=${files%%$'\n'*} # not `| head -n 1`: head leaves early, and pipefail turns the writer's SIGPIPE into exit 141
printf '{"notes": {"summary": "step %s saw %s file(s), first %s"}, "files": [' "${TASKCTL_STEP:-?}" "$count" "${first:-none}"
sep=""
while IFS= read -r f; do
  [ -n "$f" ] || continue
  printf '%s"%s"' "$sep" "$f"
  sep=","
done <<< "$files"
printf ']}\n'
