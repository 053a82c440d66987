#!/usr/bin/env python3
"""Build the fifth held-out bug-report set (set J) from Rust-SWE-bench, as the harness reads it.

Rust-SWE-bench (the benchmark of RustForger's study; dataset `user2f86/rustbench` on Hugging Face)
records GitHub issues of Rust projects, each with the pull request that resolved it, in SWE-bench's
shape. The one copy a mirror can serve, GhabiX/Rust-SWE-Bench, keeps the issue texts in
RustForger/data/rb_all_bug_report.json (instance id -> the issue's title and body); its full
records, with base commits and patches, are in a file over the snapshot's size limit. So the text
comes from that file, and the base commit and the gold files from the project's own history: the
commit that merged the pull request (a squash commit whose subject ends "(#N)", or a merge commit
"Merge pull request #N"), its first parent as the base, and the files it changed as the gold.

The text is the reporters', so it is not committed here: rsb-manifest.jsonl names the items and
pins each one's fix commit, and this script rebuilds them from the mirrors.

  rsb.py materialize MIRROR_ROOT OUT.jsonl   write the set named by the manifest
  rsb.py select MIRROR_ROOT                  print the manifest anew (how it was chosen)
  rsb.py count MIRROR_ROOT                   print the eligible items per repository

Each item: instance_id (ORG__REPO-PR, the benchmark's), repo (OWNER/NAME as GitHub spells it, so
the harness finds MIRROR_ROOT/OWNER+NAME/repo), base_commit (the fix commit's first parent),
problem_statement (the benchmark's issue text), gold_files (the paths `git diff --no-renames
--name-only BASE FIX` lists; the harness leaves out tests'), source.
"""
import hashlib
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "heldout"))
from mirror import (check, git, item_from_fix, localisable_gold, merged_prs, need_dir, read_manifest,  # noqa: E402
                    write_from_fixes)  # (shared with the other sets' scripts)

HERE = os.path.dirname(os.path.abspath(__file__))
MANIFEST = os.path.join(HERE, "rsb-manifest.jsonl")
BENCH_REPO = "GhabiX/Rust-SWE-Bench"
BENCH_COMMIT = "145fef744806ffa8869a6c35b958c848eb7d630e"
BENCH_FILE = "RustForger/data/rb_all_bug_report.json"
SOURCE = ("Rust-SWE-bench, issue text as copied in %s at %s; base and gold from the project's fix commit"
          % (BENCH_REPO, BENCH_COMMIT[:8]))

# The benchmark's repositories that no earlier set, dev set, short-request set or commit set used
# (its others are clap, tokio, bytes, tracing, bat, ripgrep, fd, rayon and serde, all used before;
# boa's snapshot, 840 MB, is over the fetch limit; bevy and burn, large histories, were not tried;
# ast-grep, bandwhich and cargo-make give no eligible item).
REPOS = [
    "async-graphql/async-graphql", "atuinsh/atuin", "axodotdev/cargo-dist", "aya-rs/aya",
    "bincode-org/bincode", "biomejs/biome", "cargo-generate/cargo-generate", "chronotope/chrono",
    "dtolnay/async-trait", "google/autocxx", "killercup/cargo-edit", "mozilla/cbindgen",
    "nushell/nushell", "rcoh/angle-grinder", "rinja-rs/askama", "rust-fuzz/cargo-fuzz",
    "rust-lang/cc-rs", "rust-lang/chalk", "starkware-libs/cairo", "tokio-rs/axum",
]
# At most this many items of one repository, then the first TOTAL of all in seeded SHA-256 order.
# Set from the eligible counts (rsb.py count) before any ranker ran.
CAP = 8
TOTAL = 100
SEED = "taskctl-heldout5"
# A fix that changes more files outside tests than this is a refactoring more than a bug to
# localise; such items are left out when selecting.
MAX_GOLD = 5


def order(instance_id):
    return hashlib.sha256(("%s:%s" % (SEED, instance_id)).encode()).hexdigest()


def texts(root):
    """The benchmark's issue texts, instance id -> text."""
    bench = need_dir(root, BENCH_REPO)
    return json.loads(git(bench, "show", "%s:%s" % (BENCH_COMMIT, BENCH_FILE)).stdout.decode())


def prefix(repo):
    return repo.replace("/", "__", 1) + "-"


def fix_commits(gd, numbers):
    """PR number -> the one commit of the mirror's history whose subject names it as merged, for the
    numbers exactly one commit names."""
    return {n: hs[0] for n, hs in merged_prs(gd, numbers).items() if len(hs) == 1}


def eligible(root, repo, text):
    """repo's items with an issue text, a fix commit the history names, one to MAX_GOLD gold files
    outside tests, every one present at the base (a fix that only adds files gives a ranker nothing
    to find), in seeded SHA-256 order of instance id: a list of (fix commit, item)."""
    gd = need_dir(root, repo)
    ids = {int(k[len(prefix(repo)):]): k for k in text if k.startswith(prefix(repo))}
    ok = []
    for n, fix in fix_commits(gd, set(ids)).items():
        it = item_from_fix(gd, repo, ids[n], text[ids[n]], fix, SOURCE)
        if it is None or not it["problem_statement"].strip() or localisable_gold(gd, it, MAX_GOLD) is None:
            continue
        ok.append((fix, it))
    ok.sort(key=lambda p: order(p[1]["instance_id"]))
    return ok


def count(root):
    text = texts(root)
    for repo in REPOS:
        n = sum(1 for k in text if k.startswith(prefix(repo)))
        print("%-30s %3d items, %3d eligible" % (repo, n, len(eligible(root, repo, text))))


def select(root):
    """Per repository the first CAP eligible items, then the first TOTAL of them all, in seeded
    SHA-256 order of instance id. Nothing about the items' text or any ranker's result entered the
    choice."""
    text = texts(root)
    pool = []
    for repo in REPOS:
        pool += [(repo, fix, it) for fix, it in eligible(root, repo, text)[:CAP]]
    pool.sort(key=lambda p: order(p[2]["instance_id"]))
    if len(pool) < TOTAL:
        sys.exit("rsb.py: %d eligible items, not %d; set the cap again" % (len(pool), TOTAL))
    chosen = pool[:TOTAL]
    chosen.sort(key=lambda p: (REPOS.index(p[0]), order(p[2]["instance_id"])))
    for repo, fix, it in chosen:
        print(json.dumps({"instance_id": it["instance_id"], "repo": repo, "fix_commit": fix,
                          "check": check(it)}))


def materialize(root, out):
    write_from_fixes(root, read_manifest(MANIFEST), texts(root), out, SOURCE,
                     missing="is not in the benchmark's text or its fix commit is not in the mirror of %(repo)s")


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "materialize":
        materialize(sys.argv[2], sys.argv[3])
    elif len(sys.argv) == 3 and sys.argv[1] == "select":
        select(sys.argv[2])
    elif len(sys.argv) == 3 and sys.argv[1] == "count":
        count(sys.argv[2])
    else:
        sys.exit(__doc__)
