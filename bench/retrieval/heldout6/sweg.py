#!/usr/bin/env python3
"""Build the sixth held-out bug-report set (set L) from SWE-gen, as the harness reads it.

SWE-gen (abundant-ai) publishes, per language, 1,000 tasks made from merged GitHub pull requests of
open-source projects, in the Harbor format: tasks/ORG__REPO-PR/ holds instruction.md (the task
statement an agent is given), environment/Dockerfile (which clones the project at the pull
request's head with the fix applied, then reverts the source change with bug.patch), and
solution/fix.patch (the source change, tests left out). The statement was written by the
benchmark's generator from the pull request, not by a reporter: it describes the misbehaviour and
the expected behaviour, as SWE-bench's issue texts do.

The base commit and the gold files come from the project's own history, as for sets F and J: the
commit that merged pull request PR (a squash commit whose subject ends "(#PR)", or a merge commit
"Merge pull request #PR"), its first parent as the base, and the files it changed as the gold. An
item is kept only if the files that commit changed outside tests are exactly the files
solution/fix.patch changes, so that the gold is the benchmark's own.

The statements are the benchmark's, so they are not committed here: sweg-manifest.jsonl names the
items and pins each one's fix commit, and this script rebuilds them from the mirrors.

  sweg.py materialize MIRROR_ROOT OUT.jsonl   write the set named by the manifest
  sweg.py select MIRROR_ROOT                  print the manifest anew (how it was chosen)
  sweg.py count MIRROR_ROOT                   print the eligible items per repository

Each item: instance_id (ORG__REPO-PR, the benchmark's), repo (OWNER/NAME as the mirror is named,
so the harness finds MIRROR_ROOT/OWNER+NAME/repo), base_commit (the fix commit's first parent),
problem_statement (the benchmark's instruction.md), gold_files (the paths `git diff --no-renames
--name-only BASE FIX` lists; the harness leaves out tests'), source.
"""
import hashlib
import json
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "heldout"))
from mirror import (check, git, is_test, item_from_fix, localisable_gold, merged_prs, need_dir,  # noqa: E402
                    read_manifest, write_from_fixes)  # (shared with the other sets' scripts)

HERE = os.path.dirname(os.path.abspath(__file__))
MANIFEST = os.path.join(HERE, "sweg-manifest.jsonl")
# The benchmark's repositories, one per language, each pinned to the commit the set was made from.
BENCH = {
    "Java": ("abundant-ai/SWE-gen-Java", "7d5be6b21c546ff8a826f226eab2343054fffa0e"),
    "JS": ("abundant-ai/SWE-gen-JS", "09a9a9bd4d69ebd5966412b45bf739123a4f7f94"),
    "Go": ("abundant-ai/SWE-gen-Go", "6b6c624d5633277d1f6097a66fc8aadaca1dc3f5"),
    "Rust": ("abundant-ai/SWE-gen-Rust", "f2108955c74310253a3cb167614d9ccf7c219307"),
    "Cpp": ("abundant-ai/SWE-gen-Cpp", "d0293125d00053f2dd2cb0561d0d139e76a256da"),
}
SOURCE = "SWE-gen (abundant-ai), task statement as in the benchmark; base and gold from the project's fix commit"

# The projects used, by the benchmark's instance-id prefix: in each language, the projects with
# the most tasks that no earlier set, dev set, short-request set or commit set used, leaving out
# the very large trees (micronaut-core, quarkus, kafka, gradle, prettier, golangci-lint, opencv,
# protobuf: not tried). Value: the language and the project's repository as its mirror is named
# (go-redis and protoc-gen-validate have moved since; the mirror is under the new name).
REPOS = {
    "square__moshi": ("Java", "square/moshi"),
    "square__okhttp": ("Java", "square/okhttp"),
    "typelevel__cats": ("Java", "typelevel/cats"),
    "statelyai__xstate": ("JS", "statelyai/xstate"),
    "mermaid-js__mermaid": ("JS", "mermaid-js/mermaid"),
    "go-redis__redis": ("Go", "redis/go-redis"),
    "go-kit__kit": ("Go", "go-kit/kit"),
    "rustls__rustls": ("Rust", "rustls/rustls"),
    "toml-rs__toml": ("Rust", "toml-rs/toml"),
    "google__benchmark": ("Cpp", "google/benchmark"),
    "envoyproxy__protoc-gen-validate": ("Cpp", "bufbuild/protoc-gen-validate"),
    "crowcpp__crow": ("Cpp", "CrowCpp/Crow"),
}
# At most this many items of one repository, then the first TOTAL of all in seeded SHA-256 order.
# Set from the eligible counts (sweg.py count) before any ranker ran.
CAP = 12
TOTAL = 100
SEED = "taskctl-heldout6"
# A fix that changes more files outside tests than this is a refactoring more than a bug to
# localise; such items are left out when selecting.
MAX_GOLD = 5


def order(instance_id):
    return hashlib.sha256(("%s:%s" % (SEED, instance_id)).encode()).hexdigest()


def tasks(root, prefix, only=None):
    """The benchmark's tasks of one project: instance id -> (statement, files fix.patch changes);
    only those whose ids are in only, if given."""
    lang = REPOS[prefix][0]
    repo, commit = BENCH[lang]
    gd = need_dir(root, repo)
    names = git(gd, "ls-tree", "--name-only", commit, "tasks/").stdout.decode().split("\n")
    out = {}
    for name in names:
        iid = name[len("tasks/"):]
        if not re.fullmatch(re.escape(prefix) + r"-\d+", iid) or (only is not None and iid not in only):
            continue
        text = git(gd, "show", "%s:%s/instruction.md" % (commit, name), check=False)
        fix = git(gd, "show", "%s:%s/solution/fix.patch" % (commit, name), check=False)
        if text.returncode or fix.returncode:
            continue
        files = set(re.findall(r"^diff --git a/\S+ b/(\S+)$", fix.stdout.decode(errors="replace"), re.M))
        out[iid] = (text.stdout.decode(errors="replace"), files)
    return out


def eligible(root, prefix):
    """The project's items with a statement, exactly one commit naming the pull request as merged
    whose changes outside tests are the files fix.patch changes, one to MAX_GOLD such files, every
    one present at the base (a fix that only adds files gives a ranker nothing to find), in seeded
    SHA-256 order of instance id: a list of (fix commit, item)."""
    repo = REPOS[prefix][1]
    gd = need_dir(root, repo)
    found = tasks(root, prefix)
    ids = {int(k[len(prefix) + 1:]): k for k in found}
    ok = []
    for n, fixes in merged_prs(gd, set(ids)).items():
        if len(fixes) != 1:
            continue
        text, patch_files = found[ids[n]]
        it = item_from_fix(gd, repo, ids[n], text, fixes[0], SOURCE)
        if it is None or not it["problem_statement"].strip():
            continue
        gold = localisable_gold(gd, it, MAX_GOLD)
        if gold is None or set(gold) != {f for f in patch_files if not is_test(f)}:
            continue
        ok.append((fixes[0], it))
    ok.sort(key=lambda p: order(p[1]["instance_id"]))
    return ok


def count(root):
    for prefix in REPOS:
        n = len(tasks(root, prefix))
        print("%-34s %3d tasks, %3d eligible" % (REPOS[prefix][1], n, len(eligible(root, prefix))))


def select(root):
    """Per repository the first CAP eligible items, then the first TOTAL of them all, in seeded
    SHA-256 order of instance id. Nothing about the items' text or any ranker's result entered the
    choice."""
    pool = []
    for prefix in REPOS:
        pool += [(prefix, fix, it) for fix, it in eligible(root, prefix)[:CAP]]
    pool.sort(key=lambda p: order(p[2]["instance_id"]))
    if len(pool) < TOTAL:
        sys.exit("sweg.py: %d eligible items, not %d; set the cap again" % (len(pool), TOTAL))
    chosen = pool[:TOTAL]
    names = list(REPOS)
    chosen.sort(key=lambda p: (names.index(p[0]), order(p[2]["instance_id"])))
    for prefix, fix, it in chosen:
        print(json.dumps({"instance_id": it["instance_id"], "repo": REPOS[prefix][1], "fix_commit": fix,
                          "check": check(it)}))


def materialize(root, out):
    want = read_manifest(MANIFEST)
    ids = {w["instance_id"] for w in want}
    statements = {}
    for prefix in sorted({i.rsplit("-", 1)[0] for i in ids}):
        if prefix not in REPOS:
            sys.exit("sweg.py: %s: not a project of this set" % prefix)
        statements.update({k: v[0] for k, v in tasks(root, prefix, ids).items()})
    write_from_fixes(root, want, statements, out, SOURCE,
                     missing="is not in the benchmark's tasks or its fix commit is not in the mirror of %(repo)s")


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "materialize":
        materialize(sys.argv[2], sys.argv[3])
    elif len(sys.argv) == 3 and sys.argv[1] == "select":
        select(sys.argv[2])
    elif len(sys.argv) == 3 and sys.argv[1] == "count":
        count(sys.argv[2])
    else:
        sys.exit(__doc__)
