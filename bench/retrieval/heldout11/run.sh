#!/usr/bin/env bash
# Runs the eleventh held-out sets of issue 34, U and V (see README.md here; do not read the sets while
# tuning the ranker) through the retrieval harness and prints, for each ranker build given, the summary
# figures only: Hit@1/5/10 and MRR on the short requests, Acc@1/5/10 and MRR on the bug reports, for
# taskctl and for the plain BM25 baseline on the same items.
#
#   bench/retrieval/heldout11/run.sh [BINARY_OR_COMMIT...]
#
# Each argument is either an executable file (a harness built from bench/retrieval) or a revision of
# this repository: the harness is then built from that revision's tree (git archive into a temporary
# directory, nothing checked out here). With no argument: HEAD. Two arguments give before/after.
#
# Environment:
#   HELDOUT_MIRROR      directory of bare git mirrors as the fetch tool leaves them, OWNER+NAME/repo
#                       (default /work/.mirror). Nothing is fetched; missing mirrors are named and the
#                       run stops before any ranking.
#   HELDOUT_KEEP=DIR    keep the harness's full output (per-repository tables) and the bug set as built
#                       in DIR. Those tables are figures per repository: keep them from whoever tunes.
#   HELDOUT_ALLOW_SKIPS=1  report even when the harness skipped items (a mirror lacks a commit).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
tag=heldout11
# A copy of Ye et al.'s bug-localisation data set carries the reports' text (one spreadsheet per
# project); the fix commits, which the data set names, are pinned in the manifest, and the projects'
# own mirrors carry the code.
text_repo="phamhoanggg/bug-localization-by-dnn-and-rvsm"
manifest=ye-manifest.jsonl
materialize=ye.py
short_name="set U, short requests"
bugs_name="set V, bug reports"
source "$here/../heldout/runsets.sh"
