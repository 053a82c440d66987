#!/usr/bin/env bash
# bench/command.sh REPO [N]
#
# Times two command pipelines run by `taskctl exec` (shellexec, in-process
# find and grep over os.Root) against the same pipelines run by bash with
# GNU find and grep, in REPO. Runs are interleaved (taskctl, bash, taskctl,
# ...) so both sides see the same machine load; the best of N is reported
# with the ratio taskctl/bash. Uses hyperfine when it is installed.
set -euo pipefail

repo=${1:?usage: bench/command.sh REPO [N]}
n=${2:-7}
repo=$(cd "$repo" && pwd -P)
here=$(cd "$(dirname "$0")/.." && pwd -P)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# TASKCTL=/path/to/taskctl skips the build (e.g. to time another build).
if [[ -n ${TASKCTL:-} ]]; then
	tc=$TASKCTL
else
	"$here/scripts/build" "$tmp/taskctl"
	tc="$tmp/taskctl"
fi

pipelines=(
	'find . -name "*.go" | grep -v _test'
	'grep -rl TODO .'
)

# now_ns prints a monotonic-enough wall clock in nanoseconds.
now_ns() { date +%s%N; }

# best_of CMD...: runs CMD n times, prints the best wall time in ms.
time_once() {
	local t0 t1
	t0=$(now_ns)
	"$@" >/dev/null 2>&1 || true
	t1=$(now_ns)
	echo $(((t1 - t0) / 1000))
}

run_taskctl() { "$tc" --project-dir "$repo" --cwd "$repo" exec "$1"; }
run_bash() { (cd "$repo" && LC_ALL=C bash -c "$1"); }

# Sanity: the exec subcommand must exist and agree on the number of paths.
for p in "${pipelines[@]}"; do
	if ! got=$(run_taskctl "$p" 2>"$tmp/err"); then
		echo "taskctl exec failed for: $p" >&2
		sed 's/^/  /' "$tmp/err" >&2
		exit 1
	fi
	want=$(run_bash "$p" || true)
	printf '%-40s taskctl %6d paths, bash %6d lines\n' "$p" "$(grep -c . <<<"$got" || true)" "$(grep -c . <<<"$want" || true)"
done
echo

if command -v hyperfine >/dev/null; then
	printf '%-40s %12s %12s %8s\n' pipeline "taskctl ms" "bash ms" ratio >"$tmp/table"
	for p in "${pipelines[@]}"; do
		hyperfine -N --warmup 1 --runs "$n" --export-json "$tmp/h.json" \
			-n taskctl "$(printf '%q ' "$tc" --project-dir "$repo" --cwd "$repo" exec "$p")" \
			-n bash "$(printf '%q ' bash -c "cd $(printf '%q' "$repo") && LC_ALL=C $p")" >&2
		read -r t b < <(python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["results"]; print(r[0]["mean"], r[1]["mean"])' "$tmp/h.json")
		awk -v p="$p" -v t="$t" -v b="$b" \
			'BEGIN { printf "%-40s %12.1f %12.1f %7.2fx\n", p, t*1000, b*1000, t/b }' >>"$tmp/table"
	done
	cat "$tmp/table"
	echo "(hyperfine means of $n runs; goal: taskctl within 2x of bash)"
	exit 0
fi

printf '%-40s %12s %12s %8s\n' pipeline "taskctl ms" "bash ms" ratio
for p in "${pipelines[@]}"; do
	best_t=999999999 best_b=999999999
	run_taskctl "$p" >/dev/null 2>&1 || true # warm the page cache
	run_bash "$p" >/dev/null 2>&1 || true
	for ((i = 0; i < n; i++)); do
		t=$(time_once run_taskctl "$p")
		b=$(time_once run_bash "$p")
		((t < best_t)) && best_t=$t
		((b < best_b)) && best_b=$b
	done
	awk -v p="$p" -v t="$best_t" -v b="$best_b" \
		'BEGIN { printf "%-40s %12.1f %12.1f %7.2fx\n", p, t/1000, b/1000, t/b }'
done
