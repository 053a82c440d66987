#!/usr/bin/env bash
# Gathers the corpus bench/assoc mines (never committed) and writes its manifest, one project a line,
# NAME<TAB>DIRECTORY:
#
#   bench/assoc/corpus.sh CORPUS_DIR GO_MODULES NPM_PACKAGES [MORE_EXCLUDED] > CORPUS_DIR/projects.tsv
#
# GO_MODULES lists module@version lines (downloaded through the Go module proxy into a scratch module
# cache), NPM_PACKAGES name@version lines (npm pack); both were drawn without the retrieval sets'
# repositories; the lists the committed table was mined from are bench/assoc/gomods.txt and npm.txt.
# Besides those, the corpus takes what the machine has: the Go standard library, Python's,
# the Python packages of the system, npm's own dependencies, the C headers and the Go module cache.
#
# It also writes CORPUS_DIR/exclude.txt, the repositories no project may be (owner/name a line), which
# bench/assoc -exclude then leaves out by name: those of every set under bench/retrieval (*.jsonl, the
# held-out sets' manifests and READMEs), of ../shared/retrieval, the commit sets' (prometheus, terraform),
# and MORE_EXCLUDED, a file of owner/name lines for a set this script must not read (the seventh
# held-out set's list, which its builder wrote).
set -euo pipefail
dir=$1 gomods=$2 npms=$3 more=${4:-/dev/null}
top=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)
shared=${SHARED:-$top/../shared} # the retrieval sets of ../shared (from a worktree: SHARED=/work/shared)
{
	{ cat "$top"/bench/retrieval/*.jsonl "$top"/bench/retrieval/heldout{,2,3,4,5,6}/*.jsonl \
		"$shared"/retrieval/*.jsonl 2>/dev/null || true; } |
		python3 -c '
import json, sys
for line in sys.stdin:
    try:
        d = json.loads(line)
    except ValueError:
        continue
    for k in ("repo", "repository"):
        if isinstance(d.get(k), str):
            print(d[k])
    iid = d.get("instance_id")
    if isinstance(iid, str) and "__" in iid:
        print(iid.split("-")[0].replace("__", "/"))'
	grep -ohE 'github:[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+' "$top"/bench/retrieval/heldout{,2,3,4,5,6}/README.md \
		"$top"/docs/benchmarks.md "$shared"/retrieval/README.md 2>/dev/null | sed 's/github://' || true
	grep -ohE 'github.com/[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+' "$top"/docs/benchmarks.md "$top"/bench/retrieval/*.go \
		"$shared"/retrieval/* 2>/dev/null | sed 's#github.com/##' || true
	printf '%s\n' prometheus/prometheus hashicorp/terraform
	cat "$more"
} | tr A-Z a-z | sed 's/[.,)`]*$//' | sort -u >"$dir/exclude.txt"
mkdir -p "$dir/gomod" "$dir/npm" "$dir/npmx" "$dir/dl"
if [[ ! -s "$dir/dl-go.json" ]]; then
	(cd "$dir/dl" && GOMODCACHE=$dir/gomod GOFLAGS=-mod=mod GOSUMDB=off GOTOOLCHAIN=local \
		xargs -n 10 -P 4 go mod download -json <"$gomods" >"$dir/dl-go.json")
fi
if ! ls "$dir/npm"/*.tgz >/dev/null 2>&1; then
	(cd "$dir/npm" && xargs -n 10 -P 4 npm pack --silent <"$npms" >/dev/null)
fi
for t in "$dir"/npm/*.tgz; do
	d=$dir/npmx/$(basename "$t" .tgz)
	[[ -d "$d" ]] || { mkdir -p "$d" && tar -xzf "$t" -C "$d" 2>/dev/null || true; }
done
emit() { printf '%s\t%s\n' "$1" "$2"; }
for m in $(find "$dir/gomod" /root/go/pkg/mod -maxdepth 4 -type d -name '*@*' -not -path '*/cache/*' | sort); do
	rel=${m#"$dir/gomod/"}
	rel=${rel#/root/go/pkg/mod/}
	emit "${rel%@*}" "$m"
done
for d in "$dir"/npmx/*/package; do
	n=$(basename "$(dirname "$d")")
	emit "npm:${n%-*}" "$d"
done
for d in /usr/lib/node_modules/npm/node_modules/*/; do
	emit "npm:$(basename "$d")" "${d%/}"
done
for d in /usr/lib/python3/dist-packages/*/; do
	n=$(basename "$d")
	[[ $n == __pycache__ || $n == *-info ]] || emit "py:$n" "${d%/}"
done
emit "go-std" "$(go env GOROOT)/src"
emit "python-std" /usr/lib/python3.11
emit "c-headers" /usr/include
