#!/usr/bin/env bash
# bench/pack.sh REPO — pack a whole repository with taskctl and with repomix
# (npx repomix@1.14.0, the last release that runs on Node 20) on the same
# tree, and print wall time and peak memory side by side, plus the floor:
# reading every tracked file once.
#
# The floor is bench/readall (git ls-files -z | readall): one process that
# opens, reads to the end and closes each file in turn, through one buffer
# it reuses, and writes nothing. The old floor, git ls-files -z | xargs -0
# cat, is still timed and printed beside it, but it is no floor: GNU cat
# maps and unmaps a buffer for every file it copies (strace -c shows one
# munmap per file) and writes all it reads, so on a tree of many small
# files it takes several times as long as reading them, and a ratio against
# it flatters whatever is compared with it.
#
# taskctl: a task with <path>**/*</path>, xml style, o200k token counts on,
# the token cache cleared before every run (cold) — and once more warm.
# repomix: xml output to a scratch file, its own token counting on, and the
# same files as taskctl. Its default ignore list leaves out vendor/, go.sum,
# lock files and more (podman: 5,470 of its 10,022 files, 48 of its 83 MB),
# which taskctl's **/* packs; --no-default-patterns --ignore '.git/**' makes
# it pack the whole repository too. The files each tool packed are counted
# and printed: what still differs is what each one refuses (binaries, whose
# content neither packs; sensitive files; files repomix's secret check drops).
# REPOMIX_DEFAULTS=1 runs repomix with its default ignore list instead.
#
# The two floors and the two taskctl runs take turns, RUNS rounds of one run
# each (default 3), so that a busy machine slows them alike; each prints its
# best wall time, the CPU time (user+sys) and peak memory of that run.
# TASKCTL=/path/to/taskctl skips the build and times that binary instead;
# BEFORE=/path/to/taskctl also times that binary (another version) in the
# same rounds, cold and warm, to compare two versions on a busy machine;
# REPOMIX_RUNS=N runs repomix N times instead of RUNS (0: not at all).
set -euo pipefail
repo=${1:?usage: bench/pack.sh REPO [RUNS]}
runs=${2:-3}
repo=$(cd "$repo" && pwd)
here=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

command -v /usr/bin/time >/dev/null || { echo "need /usr/bin/time (apt-get install -y time)" >&2; exit 1; }
taskctl=${TASKCTL:-}
if [ -z "$taskctl" ]; then
  "$here/scripts/build" "$tmp/taskctl"
  taskctl=$tmp/taskctl
fi
(cd "$here" && go build -o "$tmp/readall" ./bench/readall)

# once LABEL CMD...: one run; keeps LABEL's best wall time (s) with that
# run's CPU time (s) and peak RSS (KiB).
once() {
  local label=$1; shift
  local var=${label//-/_}
  case $label in *-cold) rm -rf "$repo/.taskctl/cache" ;; esac
  # wall time in ms from the clock (time's %e has 10 ms steps: too coarse
  # for a 30 ms floor); CPU time and peak memory from /usr/bin/time
  local t0 t1
  t0=$(date +%s%N)
  /usr/bin/time -f '%U %S %M' -o "$tmp/time" "$@" >/dev/null 2>"$tmp/err" || { echo "$label failed:"; cat "$tmp/err"; exit 1; }
  t1=$(date +%s%N)
  local t u s m
  t=$(awk "BEGIN{printf \"%.3f\", ($t1 - $t0) / 1e9}")
  echo "$t" >> "$tmp/all.$label"
  read -r u s m < "$tmp/time"
  local best=${!var-}
  if [ -z "$best" ] || awk "BEGIN{exit !($t < $best)}"; then
    printf -v "$var" '%s' "$t"
    printf -v "${var}_c" '%s' "$(awk "BEGIN{print $u + $s}")"
    printf -v "${var}_m" '%s' "$m"
  fi
}

# median LABEL: the median over the rounds of LABEL's wall time over the
# read-all floor's in the same round.
median() {
  paste "$tmp/all.$1" "$tmp/all.read-all" | awk '{ print $1 / ($2 > 0 ? $2 : 0.001) }' | sort -g |
    awk '{ r[NR] = $1 } END { printf "%.1fx", NR % 2 ? r[(NR + 1) / 2] : (r[NR / 2] + r[NR / 2 + 1]) / 2 }'
}

report() {
  local var=${1//-/_}
  local c=${var}_c m=${var}_m
  printf '%-14s %8.3f s %8.2f s cpu %10d KiB\n' "$1" "${!var}" "${!c}" "${!m}"
}

echo "repository: $repo ($(cd "$repo" && git ls-files | wc -l) tracked files)"
for _ in $(seq "$runs"); do
  # a tracked path may not be a readable file (a symlink to a directory):
  # both floors skip it, and the exit status says nothing here
  once read-all bash -c "cd '$repo' && git ls-files -z | '$tmp/readall' 2>/dev/null; exit 0"
  once cat bash -c "cd '$repo' && git ls-files -z | xargs -0 cat 2>/dev/null; exit 0"
  once taskctl-cold "$taskctl" --project-dir "$repo" assemble "$here/bench/pack.xml" --style xml \
    --max-files 10000000 --tokenizer o200k_base
  once taskctl-warm "$taskctl" --project-dir "$repo" assemble "$here/bench/pack.xml" --style xml \
    --max-files 10000000 --tokenizer o200k_base
  if [ -n "${BEFORE:-}" ]; then
    once before-cold "$BEFORE" --project-dir "$repo" assemble "$here/bench/pack.xml" --style xml \
      --max-files 10000000 --tokenizer o200k_base
    once before-warm "$BEFORE" --project-dir "$repo" assemble "$here/bench/pack.xml" --style xml \
      --max-files 10000000 --tokenizer o200k_base
  fi
done
repomix_opts="--no-default-patterns --ignore '.git/**'"
[ -n "${REPOMIX_DEFAULTS:-}" ] && repomix_opts=
# npx fetches repomix on its first run: one untimed run first, so that no
# timed run includes the download
if [ "${REPOMIX_RUNS:-$runs}" -gt 0 ]; then
  (cd "$repo" && npx -y repomix@1.14.0 --version >/dev/null 2>&1) || true
fi
for _ in $(seq "${REPOMIX_RUNS:-$runs}"); do
  once repomix bash -c "cd '$repo' && npx -y repomix@1.14.0 $repomix_opts --style xml -o '$tmp/repomix.xml' ."
done
for label in read-all cat taskctl-cold taskctl-warm ${BEFORE:+before-cold before-warm}; do report "$label"; done
[ -n "${repomix-}" ] && report repomix

# the files each packed with their content (taskctl lists a binary with an
# binary="true" attribute; repomix leaves it out)
"$taskctl" --project-dir "$repo" assemble "$here/bench/pack.xml" --style xml \
  --max-files 10000000 --tokenizer o200k_base 2>/dev/null > "$tmp/taskctl.xml"
tc_files=$(grep -c '^<file path=' "$tmp/taskctl.xml" || true)
tc_bin=$(grep "^<file path=" "$tmp/taskctl.xml" | grep -c "binary=\"true\"" || true)
echo "files packed: taskctl $((tc_files - tc_bin)) (and $tc_bin listed without content)"
[ -n "${repomix-}" ] && echo "              repomix $(grep -c '^<file path=' "$tmp/repomix.xml" || true)${REPOMIX_DEFAULTS:+ (its default ignore list)}"

echo "median over the rounds of each round's ratio to read-all: taskctl cold $(median taskctl-cold)," \
  "warm $(median taskctl-warm), cat $(median cat)${BEFORE:+; before cold $(median before-cold), warm $(median before-warm)}"
awk -v tc="$taskctl_cold" -v tw="$taskctl_warm" -v r="${repomix-}" -v f="$read_all" -v c="$cat" \
    -v bc="${before_cold-}" -v bw="${before_warm-}" \
    -v mc="$taskctl_cold_m" -v mr="${repomix_m-}" 'BEGIN {
  if (r != "") {
    printf "repomix / taskctl (cold) wall time:   %.1fx   (goal >= 20x)\n", r / tc
    printf "repomix / taskctl (warm) wall time:   %.1fx\n", r / tw
    printf "taskctl / repomix peak memory:        %.2f    (goal <= 0.25)\n", mc / mr
  }
  printf "taskctl (cold) / read-all wall time:  %.1fx   (goal <= 3x)\n", tc / (f > 0 ? f : 0.001)
  printf "taskctl (warm) / read-all wall time:  %.1fx   (goal <= 2x)\n", tw / (f > 0 ? f : 0.001)
  printf "cat / read-all wall time:             %.1fx   (what the old floor added)\n", c / (f > 0 ? f : 0.001)
  if (bc != "") {
    printf "before (cold) / read-all wall time:   %.1fx\n", bc / (f > 0 ? f : 0.001)
    printf "before (warm) / read-all wall time:   %.1fx\n", bw / (f > 0 ? f : 0.001)
  }
}'
