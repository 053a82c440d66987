#!/usr/bin/env python3
"""Build the held-out bug-report set from Multi-SWE-bench, as the harness reads it.

The set's text (issue titles and bodies, patches) is the benchmark's, so it is not
committed here: bugs-manifest.jsonl names the items, and this script reads them out
of a bare git mirror of the repository that carries the benchmark, at a pinned commit.

  bugs.py materialize MIRROR_ROOT OUT.jsonl   write the set named by the manifest
  bugs.py select MIRROR_ROOT                  print the manifest anew (how it was chosen)

Each item: instance_id (ORG__REPO-PR), repo (OWNER/NAME as GitHub spells it, so the
harness finds MIRROR_ROOT/OWNER+NAME/repo), base_commit (the PR's base), problem_statement
(title and body of each issue the PR resolves, as Multi-SWE-bench prompts with them),
gold_files (the paths of the fix patch's `diff --git a/X b/X` lines; the harness leaves
out tests' paths), source.
"""
import hashlib
import json
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "heldout"))
from mirror import check, git, git_dir, is_test, read_manifest, write_checked  # noqa: E402  (shared with the other sets' scripts)

HERE = os.path.dirname(os.path.abspath(__file__))
MANIFEST = os.path.join(HERE, "bugs-manifest.jsonl")
BENCH_REPO = "kuppireddypravalika/MSWE-validation-dataset"
BENCH_COMMIT = "f3788671b1be72292be1b3dfc61063f97dd474a0"
SOURCE = "Multi-SWE-bench (ByteDance-Seed), as copied in %s at %s" % (BENCH_REPO, BENCH_COMMIT[:8])

# Repository (GitHub spelling) -> (the benchmark's file for it, items taken).
QUOTAS = {
    "grpc/grpc-go": ("MSWE-agent/data/go/grpc__grpc-go_dataset.jsonl", 12),
    "zeromicro/go-zero": ("MSWE-agent/data/go/zeromicro__go-zero_dataset.jsonl", 12),
    "tokio-rs/tokio": ("MSWE-agent/data/rust/tokio-rs__tokio_dataset.jsonl", 10),
    "BurntSushi/ripgrep": ("MSWE-agent/data/rust/BurntSushi__ripgrep_dataset.jsonl", 8),
    "sharkdp/fd": ("MSWE-agent/data/rust/sharkdp__fd_dataset.jsonl", 7),
    "fmtlib/fmt": ("MSWE-agent/data/cpp/fmtlib__fmt_dataset.jsonl", 9),
    "facebook/zstd": ("MSWE-agent/data/c/facebook__zstd_dataset.jsonl", 9),
    "jqlang/jq": ("MSWE-agent/data/c/jqlang__jq_dataset.jsonl", 7),
    "iamkun/dayjs": ("MSWE-agent/data/js/iamkun__dayjs_dataset.jsonl", 8),
    "anuraghazra/github-readme-stats": ("MSWE-agent/data/js/anuraghazra__github-readme-stats_dataset.jsonl", 6),
    "FasterXML/jackson-core": ("MSWE-agent/data/java/fasterxml__jackson-core_dataset.jsonl", 12),
}


def items(root, repo):
    """The benchmark's items for repo, as the harness's fields, in the file's order."""
    bench = git_dir(root, BENCH_REPO)
    if bench is None:
        sys.exit("bugs.py: no mirror of %s under %s (fetch github:%s)" % (BENCH_REPO, root, BENCH_REPO))
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


def select(root):
    """Per repository, the first QUOTA items in SHA-256 order of instance_id among those
    with an issue text, a gold file outside tests, and a base commit in the repository's
    mirror at which every such gold file exists (a fix that only adds files is not
    something a ranker can find)."""
    for repo, (_, quota) in QUOTAS.items():
        gd = git_dir(root, repo)
        if gd is None:
            sys.exit("bugs.py: no mirror of %s under %s" % (repo, root))
        ok = []
        for it in items(root, repo):
            gold = [g for g in it["gold_files"] if not is_test(g)]
            if not it["problem_statement"] or not gold:
                continue
            if git(gd, "cat-file", "-e", it["base_commit"] + "^{commit}", check=False).returncode:
                continue
            if any(git(gd, "cat-file", "-e", "%s:%s" % (it["base_commit"], g), check=False).returncode
                   for g in gold):
                continue
            ok.append(it)
        ok.sort(key=lambda it: hashlib.sha256(it["instance_id"].encode()).hexdigest())
        if len(ok) < quota:
            sys.exit("bugs.py: %s has %d eligible items, fewer than %d" % (repo, len(ok), quota))
        for it in ok[:quota]:
            print(json.dumps({"instance_id": it["instance_id"], "repo": repo, "check": check(it)}))


def materialize(root, out):
    want = read_manifest(MANIFEST)
    found = {}
    for repo in sorted({w["repo"] for w in want}):
        for it in items(root, repo):
            found[it["instance_id"]] = it
    write_checked(want, found, out)


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "materialize":
        materialize(sys.argv[2], sys.argv[3])
    elif len(sys.argv) == 3 and sys.argv[1] == "select":
        select(sys.argv[2])
    else:
        sys.exit(__doc__)
