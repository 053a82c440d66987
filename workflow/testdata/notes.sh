#!/usr/bin/env bash
# Reads a prompt on stdin and prints a JSON object: its notes name the step
# and the files the prompt's context listed (<file path="..."/> lines), "a.b"
# is a nested value, and "raw" a marker that only the full output holds.
set -euo pipefail
prompt=$(cat)
files=()
while IFS= read -r line; do
  files+=("$line")
done < <(printf '%s\n' "$prompt" | sed -n 's/^<file path="\([^"]*\)"\/>$/\1/p')
list=""
for f in "${files[@]+"${files[@]}"}"; do
  list+="${list:+,}\"$f\""
done
printf '{"notes":{"summary":"%s saw %d files","step":"%s","cwd":"%s","run_dir":"%s"},' \
  "$TASKCTL_STEP" "${#files[@]}" "$TASKCTL_STEP" "$PWD" "$TASKCTL_RUN_DIR"
printf '"a":{"b":"deep-%s"},"raw":"OUTPUT-MARKER-%s","files":[%s]}\n' "$TASKCTL_STEP" "$TASKCTL_STEP" "$list"
