#!/usr/bin/env bash
# The body both held-out runners share (heldout/run.sh, heldout2/run.sh): sourced by them after they set
#   here         the set's directory (short-requests.jsonl, the bug manifest, the materializer)
#   tag          the name in messages and temporary directories
#   text_repo    the mirror that carries the bug reports' text (several, separated by spaces, if the text
#                is spread over more than one)
#   manifest     the bug set's manifest file in $here
#   materialize  the script in $here that rebuilds the bug set from the mirror ("materialize MIRROR OUT")
#   short_name, bugs_name  the sets' names in the report
# A runner with short requests only leaves manifest empty; text_repo, materialize and bugs_name are then unused.
# See heldout/run.sh for the arguments and the environment.
set -euo pipefail

top=$(git -C "$here" rev-parse --show-toplevel)
mirror=${HELDOUT_MIRROR:-/work/.mirror}
short_set=$here/short-requests.jsonl
: "${tag:?}" "${short_name:?}"
manifest=${manifest:-}
if [[ -n "$manifest" ]]; then
	: "${text_repo:?}" "${materialize:?}" "${bugs_name:?}"
	sets=(short bugs)
else
	text_repo='' materialize='' bugs_name=''
	sets=(short)
fi

die() {
	echo "$tag: $*" >&2
	exit 1
}

command -v python3 >/dev/null || die "python3 is needed to read the sets and build the bug-report set"
command -v go >/dev/null || die "go is needed to build the harness"
[[ -d "$mirror" ]] || die "no mirror directory $mirror (set HELDOUT_MIRROR)"

# Every repository both sets need, and the ones that carry the bug reports' text.
need=$(python3 - "$here" "$text_repo" "$manifest" <<'EOF'
import json, sys
here, text_repo, manifest = sys.argv[1:]
repos = set(text_repo.split())
for name in ("short-requests.jsonl", manifest) if manifest else ("short-requests.jsonl",):
    for line in open(here + "/" + name):
        if line.strip():
            repos.add(json.loads(line)["repo"])
print("\n".join(sorted(repos)))
EOF
)
missing=()
for r in $need; do
	d=$mirror/${r/\//+}
	[[ -f "$d/repo/HEAD" || -f "$d/repo/.git/HEAD" ]] || missing+=("github:$r")
done
if ((${#missing[@]})); then
	die "missing mirrors under $mirror; fetch these first: ${missing[*]}"
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/$tag.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
keep=${HELDOUT_KEEP:-}
[[ -z "$keep" ]] || mkdir -p "$keep"

bugs_set=$tmp/bugs.jsonl
if [[ -n "$manifest" ]]; then
	python3 "$here/$materialize" materialize "$mirror" "$bugs_set"
	[[ -z "$keep" ]] || cp "$bugs_set" "$keep/bugs.jsonl"
fi

# harness_for ARG prints the path of a harness binary for ARG (a file, or a revision to build).
harness_for() {
	local arg=$1
	if [[ -f "$arg" && -x "$arg" ]]; then
		printf '%s\n' "$(cd "$(dirname "$arg")" && pwd)/$(basename "$arg")"
		return
	fi
	local rev
	rev=$(git -C "$top" rev-parse --verify --quiet "$arg^{commit}") || die "$arg: neither an executable file nor a revision of $top"
	local src=$tmp/src-$rev
	if [[ ! -x "$tmp/retrieval-$rev" ]]; then
		mkdir -p "$src"
		git -C "$top" archive "$rev" | tar -x -C "$src"
		[[ -d "$src/bench/retrieval" ]] || die "$arg: its tree has no bench/retrieval"
		(cd "$src" && nice -n 10 go build -o "$tmp/retrieval-$rev" ./bench/retrieval) >&2 ||
			die "$arg: building bench/retrieval failed"
		rm -rf "$src"
	fi
	printf '%s\n' "$tmp/retrieval-$rev"
}

# summarize NAME FILE K-LABEL prints the header line's counts and the "all" row of the harness's table.
summarize() {
	local name=$1 out=$2 label=$3
	python3 - "$name" "$out" "$label" "$tag" <<'EOF'
import sys
name, path, label, tag = sys.argv[1:]
lines = open(path).read().splitlines()
head = next((l for l in lines if " items (" in l and " skipped" in l), None)
row = next((l for l in lines if l.startswith("all ")), None)
if head is None or row is None:
    sys.exit("%s: %s: the harness printed no summary (is -bugs in this revision?)" % (tag, name))
f = row.split()
if len(f) != 11 or f[6] != "|":
    # Not the row itself: it holds figures.
    sys.exit("%s: %s: the harness's summary row has an unexpected shape (%d fields)" % (tag, name, len(f)))
print("%s: %s" % (name, head.split(": ", 1)[1]))
row = "  %-11s %7s %7s %7s %7s"
print(row % ("", label + "@1", label + "@5", label + "@10", "MRR"))
print(row % ("taskctl", f[2], f[3], f[4], f[5]))
print(row % ("plain BM25", f[7], f[8], f[9], f[10]))
skipped = int(head.split(" dropped with no gold file outside tests, ")[1].split(" skipped")[0])
if skipped:
    print("  WARNING: %d items skipped (see stderr above)" % skipped)
    sys.exit(3)
EOF
}

[[ $# -gt 0 ]] || set -- HEAD
status=0
for arg in "$@"; do
	bin=$(harness_for "$arg")
	label=$arg
	if rev=$(git -C "$top" rev-parse --verify --quiet "$arg^{commit}" 2>/dev/null) && [[ ! -f "$arg" ]]; then
		label="$arg ($(git -C "$top" log -1 --format='%h %s' "$rev" | cut -c1-70))"
	fi
	echo "== $label"
	start=$SECONDS
	for set in "${sets[@]}"; do
		if [[ $set == short ]]; then file=$short_set k=Hit name=$short_name; else file=$bugs_set k=Acc name=$bugs_name; fi
		out=$tmp/$set.out
		nice -n 10 "$bin" -bugs "$file" -mirror "$mirror" >"$out" 2>"$tmp/$set.err" ||
			{ cat "$tmp/$set.err" >&2; die "$label: the harness failed on the $name"; }
		grep -v '^retrieval: skipping' "$tmp/$set.err" >&2 || true
		grep '^retrieval: skipping' "$tmp/$set.err" | sed 's/^/  /' >&2 || true
		if [[ -n "$keep" ]]; then
			safe=$(printf '%s' "$arg" | tr -c 'A-Za-z0-9._-' '_')
			cp "$out" "$keep/$safe-$set.txt"
		fi
		rc=0
		summarize "$name" "$out" "$k" || rc=$?
		if ((rc == 3)) && [[ "${HELDOUT_ALLOW_SKIPS:-}" != 1 ]]; then
			status=1
		elif ((rc != 0 && rc != 3)); then
			status=1
		fi
	done
	echo "  ($((SECONDS - start)) s)"
done
exit $status
