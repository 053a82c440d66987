#!/bin/sh
# Index performance on a directory, next to the cost of reading every file
# once. Usage: bench/index.sh DIR   (DIR is modified briefly: one file is
# touched and edited, then restored; use a copy of anything shared.)
set -eu
dir=${1:?usage: bench/index.sh DIR}
here=$(cd "$(dirname "$0")/.." && pwd)
echo "== read every file once"
if git -C "$dir" rev-parse --git-dir >/dev/null 2>&1; then
	for i in 1 2 3; do /usr/bin/time -f "%e s (cpu %U user + %S sys)" sh -c "cd '$dir' && git ls-files -z | xargs -0 cat >/dev/null 2>&1 || true"; done
else
	for i in 1 2 3; do /usr/bin/time -f "%e s (cpu %U user + %S sys)" sh -c "find '$dir' -type f -print0 | xargs -0 cat >/dev/null"; done
fi
echo "== taskctl index"
cd "$here" && go run ./bench/retrieval -perf "$dir"
