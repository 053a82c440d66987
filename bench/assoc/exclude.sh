#!/usr/bin/env bash
# Writes, one a line in lower case, the repositories (owner/name) that no project of a mined corpus may be:
# those of every set under bench/retrieval (*.jsonl, the held-out sets' manifests and READMEs, heldout
# to heldout7), of ../shared/retrieval, the commit sets' (prometheus, terraform), and those of the files
# named as arguments, owner/name a line, which this script passes on without reading them otherwise (a
# held-out set's list that whoever tunes must not read: /work/wt/heldout8-repos.txt for the ninth pass).
#
#   bench/assoc/exclude.sh [MORE_EXCLUDED...] > CORPUS_DIR/exclude.txt
#
# bench/assoc -exclude then leaves out a project by its whole name or its last part.
set -euo pipefail
top=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)
shared=${SHARED:-$top/../shared} # the retrieval sets of ../shared (from a worktree: SHARED=/work/shared)
sets=("$top"/bench/retrieval/heldout{,2,3,4,5,6,7})
{
	{ cat "$top"/bench/retrieval/*.jsonl "${sets[@]/%//*.jsonl}" "$shared"/retrieval/*.jsonl 2>/dev/null || true; } |
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
	grep -ohE 'github:[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+' "${sets[@]/%//README.md}" \
		"$top"/docs/benchmarks.md "$shared"/retrieval/README.md 2>/dev/null | sed 's/github://' || true
	grep -ohE 'github.com/[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+' "$top"/docs/benchmarks.md "$top"/bench/retrieval/*.go \
		"$shared"/retrieval/* 2>/dev/null | sed 's#github.com/##' || true
	printf '%s\n' prometheus/prometheus hashicorp/terraform
	for f in "$@"; do cat "$f"; done
} | tr A-Z a-z | sed 's/[.,)`]*$//' | sort -u
