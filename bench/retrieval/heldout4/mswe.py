#!/usr/bin/env python3
"""Build the fourth held-out bug-report set (set H) from Multi-SWE-bench, as the harness reads it.

Multi-SWE-bench (ByteDance-Seed; Zan et al., "Multi-SWE-bench: A Multilingual Benchmark for Issue
Resolving", 2025) records GitHub issues of Java, TypeScript, JavaScript, Go, Rust, C and C++
projects, each with the pull request that fixed it: its base commit and its fix patch. Set H takes
first the repositories no earlier set used, then, to make up 100, items of four of set B's
repositories (../heldout/) that set B did not take. The text (issue titles and bodies, patches) is the benchmark's, so it is not committed
here: mswe-manifest.jsonl names the items, and this script reads them out of a bare git mirror of
the repository that carries the copy, at a pinned commit.

  mswe.py materialize MIRROR_ROOT OUT.jsonl   write the set named by the manifest
  mswe.py select MIRROR_ROOT                  print the manifest anew (how it was chosen)
  mswe.py count MIRROR_ROOT                   print the eligible items per repository

Each item: instance_id (ORG__REPO-PR), repo (OWNER/NAME as GitHub spells it, so the harness finds
MIRROR_ROOT/OWNER+NAME/repo), base_commit (the PR's base), problem_statement (title and body of
each issue the PR resolves, as Multi-SWE-bench prompts with them), gold_files (the paths of the
fix patch's `diff --git a/X b/X` lines; the harness leaves out tests' paths), source.
"""
import hashlib
import json
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "heldout"))
from mirror import check, git, git_dir, is_test, need_dir, read_manifest, write_checked  # noqa: E402  (shared with the other sets' scripts)

HERE = os.path.dirname(os.path.abspath(__file__))
MANIFEST = os.path.join(HERE, "mswe-manifest.jsonl")
BENCH_REPO = "kuppireddypravalika/MSWE-validation-dataset"
BENCH_COMMIT = "f3788671b1be72292be1b3dfc61063f97dd474a0"
SOURCE = "Multi-SWE-bench (ByteDance-Seed), as copied in %s at %s" % (BENCH_REPO, BENCH_COMMIT[:8])

# Repository (GitHub spelling) -> (the benchmark's file for it, items taken at most). First, every
# repository of the copy that no earlier set, dev set or short-request set used and whose file is
# in the snapshot (those of clap, ponyc, logstash, svelte, vuejs/core, material-ui and cli/cli are
# Git LFS pointers without their content; yhirose/cpp-httplib is one header file, nothing to
# rank). They give 91 eligible items, 40 of them nlohmann/json's; that one is capped at 30 and the
# rest is made up from four repositories of set B (../heldout/), with items set B did not take.
# Caps set from the eligible counts (mswe.py count) before any ranker ran.
QUOTAS = {
    "nlohmann/json": ("MSWE-agent/data/cpp/nlohmann__json_dataset.jsonl", 30),
    "tokio-rs/tracing": ("MSWE-agent/data/rust/tokio-rs__tracing_dataset.jsonl", 16),
    "simdjson/simdjson": ("MSWE-agent/data/cpp/simdjson__simdjson_dataset.jsonl", 8),
    "catchorg/Catch2": ("MSWE-agent/data/cpp/catchorg__Catch2_dataset.jsonl", 6),
    "alibaba/fastjson2": ("MSWE-agent/data/java/alibaba__fastjson2_dataset.jsonl", 6),
    "tokio-rs/bytes": ("MSWE-agent/data/rust/tokio-rs__bytes_dataset.jsonl", 5),
    "GoogleContainerTools/jib": ("MSWE-agent/data/java/googlecontainertools__jib_dataset.jsonl", 5),
    "serde-rs/serde": ("MSWE-agent/data/rust/serde-rs__serde_dataset.jsonl", 2),
    "darkreader/darkreader": ("MSWE-agent/data/ts/darkreader__darkreader_dataset.jsonl", 2),
    "rayon-rs/rayon": ("MSWE-agent/data/rust/rayon-rs__rayon_dataset.jsonl", 1),
    # Set B's repositories, items set B did not take:
    "iamkun/dayjs": ("MSWE-agent/data/js/iamkun__dayjs_dataset.jsonl", 6),
    "fmtlib/fmt": ("MSWE-agent/data/cpp/fmtlib__fmt_dataset.jsonl", 5),
    "facebook/zstd": ("MSWE-agent/data/c/facebook__zstd_dataset.jsonl", 4),
    "tokio-rs/tokio": ("MSWE-agent/data/rust/tokio-rs__tokio_dataset.jsonl", 4),
}
# Set B's items, never taken again.
SET_B = os.path.join(HERE, "..", "heldout", "bugs-manifest.jsonl")
TOTAL = 100
# A fix that changes more files outside tests than this is a refactoring more than a bug to
# localise; such items are left out when selecting.
MAX_GOLD = 5


def items(root, repo):
    """The benchmark's items for repo, as the harness's fields, in the file's order."""
    bench = need_dir(root, BENCH_REPO)
    data = git(bench, "show", "%s:%s" % (BENCH_COMMIT, QUOTAS[repo][0])).stdout.decode()
    for line in data.splitlines():
        if not line.strip():
            continue
        d = json.loads(line)
        issues = d.get("resolved_issues") or []
        text = "\n\n".join(("%s\n%s" % (i.get("title") or "", i.get("body") or "")).strip() for i in issues)
        yield {
            "instance_id": "%s__%s-%d" % (d["org"], d["repo"], d["number"]),
            "repo": repo,
            "base_commit": d["base"]["sha"],
            "problem_statement": text,
            "gold_files": sorted(set(re.findall(r"^diff --git a/(\S+) b/", d["fix_patch"], re.M))),
            "source": SOURCE,
        }


def eligible(root, repo):
    """Items set B did not take with an issue text, one to MAX_GOLD gold files outside tests, and a base commit in
    the repository's mirror at which every such file exists (a fix that only adds files gives a
    ranker nothing to find), in SHA-256 order of instance_id."""
    gd = need_dir(root, repo)
    taken = {json.loads(l)["instance_id"] for l in open(SET_B) if l.strip()}
    ok = []
    for it in items(root, repo):
        if it["instance_id"] in taken:
            continue
        gold = [g for g in it["gold_files"] if not is_test(g)]
        if not it["problem_statement"] or not gold or len(gold) > MAX_GOLD:
            continue
        if git(gd, "cat-file", "-e", it["base_commit"] + "^{commit}", check=False).returncode:
            continue
        if any(git(gd, "cat-file", "-e", "%s:%s" % (it["base_commit"], g), check=False).returncode
               for g in gold):
            continue
        ok.append(it)
    ok.sort(key=lambda it: hashlib.sha256(it["instance_id"].encode()).hexdigest())
    return ok


def count(root):
    for repo in QUOTAS:
        print("%-28s %3d eligible, cap %d" % (repo, len(eligible(root, repo)), QUOTAS[repo][1]))


def select(root):
    """Per repository, the first items up to its cap; stop if they do not make TOTAL. Nothing
    about the items' text or any ranker's result entered the choice."""
    chosen = []
    for repo, (_, cap) in QUOTAS.items():
        chosen += [(repo, it) for it in eligible(root, repo)[:cap]]
    if len(chosen) != TOTAL:
        sys.exit("mswe.py: %d items chosen, not %d; set the caps again" % (len(chosen), TOTAL))
    for repo, it in chosen:
        print(json.dumps({"instance_id": it["instance_id"], "repo": repo, "check": check(it)}))


def materialize(root, out):
    want = read_manifest(MANIFEST)
    found = {}
    for repo in sorted({w["repo"] for w in want}):
        need_dir(root, repo)
        for it in items(root, repo):
            found[it["instance_id"]] = it
    write_checked(want, found, out)


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "materialize":
        materialize(sys.argv[2], sys.argv[3])
    elif len(sys.argv) == 3 and sys.argv[1] == "select":
        select(sys.argv[2])
    elif len(sys.argv) == 3 and sys.argv[1] == "count":
        count(sys.argv[2])
    else:
        sys.exit(__doc__)
