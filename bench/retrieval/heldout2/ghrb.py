#!/usr/bin/env python3
"""Build the held-out bug-report set (set D) from GHRB, as the harness reads it.

GHRB ("GitHub Recent Bugs", coinse/GHRB; Lee et al., "The GitHub Recent Bugs Dataset for
Evaluating LLM-based Debugging Applications", arXiv 2310.13229) records real Java bugs fixed
after September 2021: the issue each fix resolves, the commit before the fix and the fix's
production diff. Its repository carries no licence, so its text is not committed here:
ghrb-manifest.jsonl names the items, and this script reads them out of a bare git mirror of
coinse/GHRB at a pinned commit (the last one that still holds the issue texts).

  ghrb.py materialize MIRROR_ROOT OUT.jsonl   write the set named by the manifest
  ghrb.py select MIRROR_ROOT                  print the manifest anew (how it was chosen)

Each item: instance_id (GHRB's bug_id, OWNER_REPO-PR), repo (OWNER/NAME as GitHub spells it,
so the harness finds MIRROR_ROOT/OWNER+NAME/repo), base_commit (GHRB's buggy_commit, the
commit the fix was made on), problem_statement (the issue's title and body as GHRB stored
them), gold_files (the paths of the `diff --git a/X b/X` lines of GHRB's production diff of
the fix; the harness leaves out tests' paths), source.
"""
import json
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "heldout"))
from mirror import check, git, git_dir, is_test, read_manifest, write_checked  # noqa: E402  (shared with the other sets' scripts)

HERE = os.path.dirname(os.path.abspath(__file__))
MANIFEST = os.path.join(HERE, "ghrb-manifest.jsonl")
BENCH_REPO = "coinse/GHRB"
BENCH_COMMIT = "199220755f083e646c95809f0d07132030bf0aea"
SOURCE = "GHRB (GitHub Recent Bugs), %s at %s" % (BENCH_REPO, BENCH_COMMIT[:8])

# Left out when selecting: jackson-core's items overlap the repositories of the earlier
# held-out set B; openapi-generator's snapshot is over the fetch size limit (1.3 GB).
EXCLUDED_REPOS = {"FasterXML/jackson-core", "OpenAPITools/openapi-generator"}


def bench_dir(root):
    d = git_dir(root, BENCH_REPO)
    if d is None:
        sys.exit("ghrb.py: no mirror of %s under %s (fetch github:%s)" % (BENCH_REPO, root, BENCH_REPO))
    return d


def show(bench, path):
    r = git(bench, "show", "%s:%s" % (BENCH_COMMIT, path), check=False)
    return r.stdout.decode() if r.returncode == 0 else None


def items(root):
    """GHRB's items that have an issue text, in bug_id order, as the harness's fields."""
    bench = bench_dir(root)
    names = git(bench, "ls-tree", "-r", "--name-only", BENCH_COMMIT).stdout.decode().split("\n")
    verified = {}
    for n in names:
        if n.startswith("verified_bug/") and n.endswith(".json"):
            for bug_id, v in json.loads(show(bench, n)).items():
                verified[bug_id] = v
    for n in sorted(names):
        if not (n.startswith("bug_reports/") and n.endswith(".json")):
            continue
        bug_id = n[len("bug_reports/"):-len(".json")]
        v = verified.get(bug_id)
        diff = show(bench, "data/prod_diff/%s.diff" % bug_id)
        if v is None or diff is None:
            continue
        report = json.loads(show(bench, n))
        owner, rest = bug_id.split("_", 1)
        text = ("%s\n%s" % (report.get("title") or "", report.get("description_text") or "")).strip()
        yield {
            "instance_id": bug_id,
            "repo": "%s/%s" % (owner, rest.rsplit("-", 1)[0]),
            "base_commit": v["buggy_commit"],
            "problem_statement": text,
            "gold_files": sorted(set(re.findall(r"^diff --git a/(\S+) b/", diff, re.M))),
            "source": SOURCE,
        }


def select(root):
    """Every item with an issue text and a gold file outside tests, whose repository is not
    excluded above and has a mirror holding the base commit, at which every such gold file
    exists (a fix that adds files gives a ranker nothing to find for them). Nothing about the
    items' text or any ranker's result entered the choice."""
    for it in items(root):
        if it["repo"] in EXCLUDED_REPOS:
            continue
        gold = [g for g in it["gold_files"] if not is_test(g)]
        if not it["problem_statement"] or not gold:
            continue
        gd = git_dir(root, it["repo"])
        if gd is None:
            print("ghrb.py: no mirror of %s, %s left out" % (it["repo"], it["instance_id"]), file=sys.stderr)
            continue
        if git(gd, "cat-file", "-e", it["base_commit"] + "^{commit}", check=False).returncode:
            print("ghrb.py: %s lacks %s's commit, left out" % (it["repo"], it["instance_id"]), file=sys.stderr)
            continue
        if any(git(gd, "cat-file", "-e", "%s:%s" % (it["base_commit"], g), check=False).returncode for g in gold):
            continue
        print(json.dumps({"instance_id": it["instance_id"], "repo": it["repo"], "check": check(it)}))


def materialize(root, out):
    want = read_manifest(MANIFEST)
    found = {it["instance_id"]: it for it in items(root)}
    write_checked(want, found, out)


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "materialize":
        materialize(sys.argv[2], sys.argv[3])
    elif len(sys.argv) == 3 and sys.argv[1] == "select":
        select(sys.argv[2])
    else:
        sys.exit(__doc__)
