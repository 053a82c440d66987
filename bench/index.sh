#!/usr/bin/env bash
# Index performance on a directory as a user of the command line gets it,
# next to the cost of reading every file once, then the library's own
# figures. Usage: bench/index.sh DIR
# The floor, reading every file once, is bench/readall: one process that
# reads each file (git ls-files, or find outside git) to its end through
# one reused buffer. xargs -0 cat, the floor this script used before, is
# timed too but is not one: GNU cat maps and unmaps a buffer for every file
# and writes what it reads, which on many small files costs several times
# the reading (see bench/pack.sh).
# DIR is modified briefly: its .taskctl/index is rebuilt, one file is
# touched, then (library part) touched and edited, then restored; use a
# copy of anything shared. Wall times on a shared machine are noisy: each
# figure is the best of several runs, with the CPU time (user+sys) of that
# run beside it. TASKCTL=BINARY measures that binary instead of building
# ./cmd/taskctl (to compare two versions on the same tree).
set -eu
dir=${1:?usage: bench/index.sh DIR}
dir=$(cd "$dir" && pwd)
here=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
tc=${TASKCTL:-}
if [ -z "$tc" ]; then
	"$here/scripts/build" "$tmp/taskctl"
	tc="$tmp/taskctl"
fi
(cd "$here" && go build -o "$tmp/readall" ./bench/readall)

# timed CMD...: runs CMD once and appends "WALL USER SYS" to $times
# ($tmp/times unless set).
timed() {
	local t
	t=$( { TIMEFORMAT='%3R %3U %3S'; time "$@" >/dev/null 2>&1; } 2>&1 ) || true
	echo "$t" >>"${times:-$tmp/times}"
}

# fastest: prints "WALL CPU" (seconds, CPU being user+sys) of the run in
# $times ($tmp/times unless set) with the least wall time, and empties it.
fastest() {
	local f=${times:-$tmp/times}
	sort -n "$f" | head -n 1 | awk '{printf "%.3f %.3f\n", $1, $2 + $3}'
	: >"$f"
}

# best N CMD...: the fastest of N runs of CMD.
best() {
	local n=$1 i
	shift
	: >"$tmp/times"
	for ((i = 0; i < n; i++)); do
		timed "$@"
	done
	fastest
}

if git -C "$dir" rev-parse --git-dir >/dev/null 2>&1; then
	list="cd '$dir' && git ls-files -z"
else
	list="find '$dir' -type f -print0"
fi
# The two floors take turns, so that a busy machine slows them alike.
for ((i = 0; i < 5; i++)); do
	times=$tmp/readall.times timed sh -c "$list | '$tmp/readall' 2>/dev/null || true"
	times=$tmp/cat.times timed sh -c "$list | xargs -0 cat >/dev/null 2>&1 || true"
done
floor=$(times=$tmp/readall.times fastest)
catfloor=$(times=$tmp/cat.times fastest)
cold=$(best 3 "$tc" --project-dir "$dir" index --rebuild)
"$tc" --project-dir "$dir" index >/dev/null
sleep 2.1 # directories listed within 2 s of a walk are listed again by the next
"$tc" --project-dir "$dir" index >/dev/null
same=$(best 5 "$tc" --project-dir "$dir" index)
victim=$(cd "$dir" && { git ls-files 2>/dev/null || find . -type f; } | grep -E '\.(go|py|js|ts|rs|java|c|md)$' | head -n 40 | tail -n 1)
for i in 1 2 3; do
	touch "$dir/$victim"
	timed "$tc" --project-dir "$dir" index
done
touched=$(fastest)
q="connection pool deadlock during configuration reload"
search=$(best 5 "$tc" --project-dir "$dir" search "$q")
nr=$(best 5 "$tc" --project-dir "$dir" search --no-refresh "$q")
stats=$("$tc" --project-dir "$dir" index --stats --output json)
files=$(printf '%s\n' "$stats" | sed -n 's/^ *"files": \([0-9]*\).*/\1/p' | head -n 1)
bytes=$(printf '%s\n' "$stats" | sed -n 's/^ *"bytes": \([0-9]*\).*/\1/p' | head -n 1)
ixbytes=$(printf '%s\n' "$stats" | sed -n 's/^ *"index_bytes": \([0-9]*\).*/\1/p' | head -n 1)

echo "== taskctl (the command line) on $dir: $files files, $bytes bytes indexed"
echo "$floor $cold $same $touched $search $nr $ixbytes $bytes $catfloor" | awk -v victim="$victim" '{
	fw = $1; fc = $2; cw = $3; cc = $4
	printf "read every file once (readall floor)    %7.0f ms   cpu %5.0f ms\n", fw * 1000, fc * 1000
	printf "xargs -0 cat (the old floor)            %7.0f ms   cpu %5.0f ms   %.1fx the floor\n", $15 * 1000, $16 * 1000, $15 / fw
	printf "index --rebuild (cold)                  %7.0f ms   cpu %5.0f ms   %.1fx floor (cpu %.1fx)   goal <= 3x\n", cw * 1000, cc * 1000, cw / fw, cc / fc
	printf "index, nothing changed                  %7.0f ms   cpu %5.0f ms   %.1f%% of cold\n", $5 * 1000, $6 * 1000, 100 * $5 / cw
	printf "index after touching one file           %7.0f ms   cpu %5.0f ms   %.1f%% of cold (cpu %.1f%%)   goal < 5%%   (%s)\n", $7 * 1000, $8 * 1000, 100 * $7 / cw, 100 * $8 / cc, victim
	printf "search (refreshes first)                %7.0f ms   cpu %5.0f ms   goal < 100 ms on 10k files\n", $9 * 1000, $10 * 1000
	printf "search --no-refresh                     %7.0f ms   cpu %5.0f ms\n", $11 * 1000, $12 * 1000
	printf "index size                              %.3f of the indexed bytes   goal <= 0.5\n", $13 / $14
}'
# The same refreshes with a watcher running (taskctl index --watch, Linux):
# it follows changes through inotify and answers them over its socket.
if [ "$(uname -s)" = Linux ]; then
	"$tc" --project-dir "$dir" index --watch >/dev/null 2>"$tmp/watch.log" &
	wpid=$!
	trap 'kill -INT $wpid 2>/dev/null; wait $wpid 2>/dev/null; rm -rf "$tmp"' EXIT
	for ((i = 0; i < 200; i++)); do
		grep -q "watching" "$tmp/watch.log" && break
		sleep 0.1
	done
	wsame=$(best 5 "$tc" --project-dir "$dir" index)
	for i in 1 2 3 4 5; do
		touch "$dir/$victim"
		timed "$tc" --project-dir "$dir" index
	done
	wtouched=$(fastest)
	wsearch=$(best 5 "$tc" --project-dir "$dir" search "$q")
	kill -INT $wpid
	wait $wpid || true
	echo "== with taskctl index --watch running"
	echo "$cold $wsame $wtouched $wsearch" | awk -v victim="$victim" '{
		cw = $1; cc = $2
		printf "index, nothing changed                  %7.0f ms   cpu %5.0f ms   %.1f%% of cold\n", $3 * 1000, $4 * 1000, 100 * $3 / cw
		printf "index after touching one file           %7.0f ms   cpu %5.0f ms   %.1f%% of cold (cpu %.1f%%)   goal < 5%%   (%s)\n", $5 * 1000, $6 * 1000, 100 * $5 / cw, 100 * $6 / cc, victim
		printf "search (refreshes first)                %7.0f ms   cpu %5.0f ms\n", $7 * 1000, $8 * 1000
	}'
fi
echo "== the library alone (memory.DirSource, no process start, no policy)"
cd "$here" && go run ./bench/retrieval -perf "$dir"
