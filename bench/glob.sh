#!/usr/bin/env bash
# bench/glob.sh REPO [RUNS] — time listing every file of REPO by glob with
# taskctl against ripgrep, and print both and their ratio (goal: taskctl
# within 1.2x of rg).
#
#   taskctl --project-dir REPO assemble --paths --max-files 1000000 TEMPLATE
#     where TEMPLATE (written outside REPO) is one task with <path>**/*</path>
#   rg --files --hidden -g '!.git' REPO
#
# Fairness: `rg --files` skips hidden files by default; taskctl skips only
# what its policy says (.git/, .taskctl/, the .gitignore family,
# node_modules/, sensitive names), not dotfiles. So rg runs with --hidden and
# -g '!.git' to list dotfiles but not the git directory. Both honour
# .gitignore. The counts they print may still differ slightly (taskctl also
# leaves out node_modules/ and sensitive files such as *.pem); the script
# prints both counts.
#
# TASKCTL=/path/to/taskctl skips the build and times that binary instead.
# BEFORE=/path/to/taskctl also times that binary (another version): then
# the three take turns, RUNS rounds of one run each, so that a busy machine
# slows them alike, and each prints its median wall time and CPU time
# (user+sys, its pipe's cat included) and the median over the rounds of
# each round's ratio to rg. hyperfine runs one command's runs in a row,
# and on a shared machine whose load swings from one second to the next
# its ratios were noise (1.2x to 2.8x for the same build).
#
# Both write into a pipe, as they do for a user who pipes the list on: a
# tool that makes a write(2) per line pays for it there (into /dev/null a
# write costs almost nothing).
#
# Timing: hyperfine 1.15 or later if installed (warmup 2, RUNS runs, mean,
# its output fed through a pipe); otherwise a loop taking the best wall time
# of RUNS runs each (default 10), piped into cat.
set -euo pipefail
repo=${1:?usage: bench/glob.sh REPO [RUNS]}
runs=${2:-10}
repo=$(cd "$repo" && pwd)
here=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if ! command -v rg >/dev/null; then
  echo "installing ripgrep" >&2
  apt-get install -y ripgrep >/dev/null || { echo "need rg (apt-get install -y ripgrep)" >&2; exit 1; }
fi
if [ -n "${TASKCTL:-}" ]; then
  cp "$TASKCTL" "$tmp/taskctl"
else
  "$here/scripts/build" "$tmp/taskctl"
fi

cat > "$tmp/all.xml" <<'XML'
<task name="all"><description>all files</description><file_paths><path>**/*</path></file_paths></task>
XML

tc=("$tmp/taskctl" --project-dir "$repo" assemble --paths --max-files 1000000 "$tmp/all.xml")
rgc=(rg --files --hidden -g '!.git' "$repo")

# Both must work, and say how many files they list.
"${tc[@]}" > "$tmp/tc.out" || { echo "taskctl failed" >&2; exit 1; }
"${rgc[@]}" > "$tmp/rg.out" || { echo "rg failed" >&2; exit 1; }
echo "repository: $repo"
echo "files listed: taskctl $(wc -l < "$tmp/tc.out"), rg $(wc -l < "$tmp/rg.out")"

if [ -n "${BEFORE:-}" ]; then
  cp "$BEFORE" "$tmp/before"
  bc=("$tmp/before" --project-dir "$repo" assemble --paths --max-files 1000000 "$tmp/all.xml")
  # cpu FILE: the CPU time (user+sys, ms) of this shell's finished
  # children, as the builtin times wrote it to FILE (in this shell: in a
  # $(...) subshell it would see the subshell's children).
  cpu() { tail -n 1 "$1" | awk '{ t = 0; for (i = 1; i <= 2; i++) { split($i, p, /[ms]/); t += p[1] * 60 + p[2] } printf "%.1f", t * 1000 }'; }
  # round LABEL CMD...: one run into a pipe; appends "WALL CPU" (ms) to $tmp/r/LABEL.
  round() {
    local label=$1 s e
    shift
    times > "$tmp/c0"; s=$(date +%s%N)
    "$@" 2>/dev/null | cat > /dev/null
    e=$(date +%s%N); times > "$tmp/c1"
    awk -v s="$s" -v e="$e" -v a="$(cpu "$tmp/c0")" -v b="$(cpu "$tmp/c1")" \
      'BEGIN { printf "%.2f %.1f\n", (e - s) / 1e6, b - a }' >> "$tmp/r/$label"
  }
  # median FILE COLUMN
  median() { awk -v c="$2" '{ print $c }' "$1" | sort -g | awk '{ r[NR] = $1 } END { print NR % 2 ? r[(NR + 1) / 2] : (r[NR / 2] + r[NR / 2 + 1]) / 2 }'; }
  "${tc[@]}" > /dev/null; "${bc[@]}" > /dev/null; "${rgc[@]}" > /dev/null   # warm the page cache
  mkdir "$tmp/r"
  for _ in $(seq "$runs"); do
    round taskctl "${tc[@]}"; round before "${bc[@]}"; round rg "${rgc[@]}"
  done
  for label in taskctl before rg; do
    printf '%-8s %8.1f ms  cpu %6.1f ms\n' "$label" "$(median "$tmp/r/$label" 1)" "$(median "$tmp/r/$label" 2)"
  done
  paste "$tmp/r/taskctl" "$tmp/r/rg" | awk '{ print $1 / $3 }' > "$tmp/r/ratio.taskctl"
  paste "$tmp/r/before" "$tmp/r/rg" | awk '{ print $1 / $3 }' > "$tmp/r/ratio.before"
  printf 'ratio    %8.2fx   (goal <= 1.2x; before %.2fx; medians of each round'"'"'s ratio)\n' \
    "$(median "$tmp/r/ratio.taskctl" 1)" "$(median "$tmp/r/ratio.before" 1)"
  exit 0
fi

# (hyperfine before 1.15 has no --output, and takes the loop below)
if command -v hyperfine >/dev/null && hyperfine --help | grep -q -- '--output'; then
  hyperfine -N --output=pipe --warmup 2 --runs "$runs" --export-json "$tmp/h.json" \
    -n taskctl "$(printf '%q ' "${tc[@]}")" -n rg "$(printf '%q ' "${rgc[@]}")" >&2
  read -r t_tc t_rg < <(python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["results"]; print(r[0]["mean"], r[1]["mean"])' "$tmp/h.json")
else
  # best LABEL CMD...: the best wall time in seconds of $runs runs.
  best() {
    local b="" s e t
    for _ in $(seq "$runs"); do
      s=$(date +%s.%N)
      "$@" | cat > /dev/null
      e=$(date +%s.%N)
      t=$(awk -v s="$s" -v e="$e" 'BEGIN{printf "%.6f", e - s}')
      if [ -z "$b" ] || awk -v t="$t" -v b="$b" 'BEGIN{exit !(t < b)}'; then b=$t; fi
    done
    echo "$b"
  }
  "${tc[@]}" > /dev/null; "${rgc[@]}" > /dev/null   # warm the page cache
  t_tc=$(best "${tc[@]}")
  t_rg=$(best "${rgc[@]}")
fi
awk -v a="$t_tc" -v b="$t_rg" 'BEGIN {
  printf "taskctl  %8.1f ms\nrg       %8.1f ms\nratio    %8.2fx   (goal <= 1.2x)\n", a * 1000, b * 1000, a / b
}'
