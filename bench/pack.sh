#!/usr/bin/env bash
# bench/pack.sh REPO — pack a whole repository with taskctl and with repomix
# (npx repomix@1.14.0, the last release that runs on Node 20) on the same
# tree, and print wall time and peak memory side by side, plus the floor:
# reading every tracked file once (git ls-files -z | xargs -0 cat).
#
# taskctl: a task with <path>**/*</path>, xml style, o200k token counts on,
# the token cache cleared before every run (cold) — and once more warm.
# repomix: default xml output to a scratch file, its own token counting on.
set -euo pipefail
repo=${1:?usage: bench/pack.sh REPO [RUNS]}
runs=${2:-3}
repo=$(cd "$repo" && pwd)
here=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

command -v /usr/bin/time >/dev/null || { echo "need /usr/bin/time (apt-get install -y time)" >&2; exit 1; }
(cd "$here" && go build -o "$tmp/taskctl" ./cmd/taskctl)

cat > "$tmp/pack.xml" <<'XML'
<task name="pack">
  <description>the whole repository</description>
  <file_paths><path>**/*</path></file_paths>
</task>
XML

# measure LABEL CMD...: best wall time (s) and its peak RSS (KiB) over $runs runs.
measure() {
  local label=$1; shift
  local best_t="" best_m=""
  for _ in $(seq "$runs"); do
    [ "$label" = taskctl-cold ] && rm -rf "$repo/.taskctl/cache"
    /usr/bin/time -f '%e %M' -o "$tmp/time" "$@" >/dev/null 2>"$tmp/err" || { echo "$label failed:"; cat "$tmp/err"; exit 1; }
    read -r t m < "$tmp/time"
    if [ -z "$best_t" ] || awk "BEGIN{exit !($t < $best_t)}"; then best_t=$t; best_m=$m; fi
  done
  printf '%-14s %8.2f s %10d KiB\n' "$label" "$best_t" "$best_m"
  eval "${label//-/_}_t=$best_t; ${label//-/_}_m=$best_m"
}

echo "repository: $repo ($(cd "$repo" && git ls-files | wc -l) tracked files)"
measure cat bash -c "cd '$repo' && git ls-files -z | xargs -0 cat 2>/dev/null; exit 0"
measure taskctl-cold "$tmp/taskctl" --project-dir "$repo" assemble "$tmp/pack.xml" --style xml \
  --max-files 10000000 --tokenizer o200k_base
measure taskctl-warm "$tmp/taskctl" --project-dir "$repo" assemble "$tmp/pack.xml" --style xml \
  --max-files 10000000 --tokenizer o200k_base
measure repomix bash -c "cd '$repo' && npx -y repomix@1.14.0 --style xml -o '$tmp/repomix.xml' ."

awk -v tc="$taskctl_cold_t" -v tw="$taskctl_warm_t" -v r="$repomix_t" -v c="$cat_t" \
    -v mc="$taskctl_cold_m" -v mr="$repomix_m" 'BEGIN {
  printf "repomix / taskctl (cold) wall time: %.1fx   (goal >= 20x)\n", r / tc
  printf "repomix / taskctl (warm) wall time: %.1fx\n", r / tw
  printf "taskctl / repomix peak memory:      %.2f    (goal <= 0.25)\n", mc / mr
  printf "taskctl (cold) / cat wall time:     %.1fx   (goal <= 3x)\n", tc / (c > 0 ? c : 0.01)
  printf "taskctl (warm) / cat wall time:     %.1fx\n", tw / (c > 0 ? c : 0.01)
}'
