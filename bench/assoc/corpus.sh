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
# It also writes CORPUS_DIR/exclude.txt (bench/assoc/exclude.sh), the repositories no project may be,
# which bench/assoc -exclude then leaves out by name; MORE_EXCLUDED is a file of owner/name lines for a
# set this script must not read (the seventh held-out set's list, which its builder wrote).
set -euo pipefail
dir=$1 gomods=$2 npms=$3 more=${4:-/dev/null}
"$(dirname "$0")"/exclude.sh "$more" >"$dir/exclude.txt"
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
