#!/usr/bin/env python3
"""Build the seventh held-out bug-report set (set N) from Bugs.jar, as the harness reads it.

Bugs.jar (Saha et al., "Bugs.jar: A Large-scale, Diverse Dataset of Real-world Java Bugs", MSR 2018)
holds 1,158 bugs of eight Apache Java projects, each with the JIRA issue it fixes. It is published as
one GitHub fork per project (bugs-dot-jar/<project>), whose branches are the bugs: a branch
bugs-dot-jar_<ISSUE>_<FIX> holds the project at the fix commit FIX with the fix reverted, and under
.bugs-dot-jar/ the issue as bug-report.yml (BugID, Summary, Description: the JIRA issue's title and
body, as its reporter wrote them) and developer-patch.diff (the fix).

The base commit and the gold files come from the project's own history, which each fork carries: the
base is the fix commit's parent and the gold is what the fix commit changed. An item is kept only if
the files that commit changed outside tests are exactly the files developer-patch.diff changes outside
tests, so the gold is the benchmark's own. The branch's own commits (the reverted fix and the
.bugs-dot-jar files) are never indexed.

The reports are their reporters' text, so they are not committed here: bugsjar-manifest.jsonl names the
items and pins each one's fix commit, and this script rebuilds them from the mirrors.

  bugsjar.py materialize MIRROR_ROOT OUT.jsonl   write the set named by the manifest
  bugsjar.py select MIRROR_ROOT                  print the manifest anew (how it was chosen)
  bugsjar.py count MIRROR_ROOT                   print the eligible items per project

Each item: instance_id (the branch's name without its bugs-dot-jar_ prefix: ISSUE_FIX), repo (the
fork, bugs-dot-jar/<project>, so the harness finds MIRROR_ROOT/bugs-dot-jar+<project>/repo),
base_commit (the fix commit's first parent), problem_statement (Summary, a blank line, Description),
gold_files (the paths `git diff --no-renames --name-only BASE FIX` lists; the harness leaves out
tests'), source. Needs PyYAML (python3-yaml) to read the reports.
"""
import hashlib
import json
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "heldout"))
from mirror import (check, git, is_test, item_from_fix, localisable_gold, need_dir,  # noqa: E402
                    read_manifest, write_from_fixes)  # (shared with the other sets' scripts)

HERE = os.path.dirname(os.path.abspath(__file__))
MANIFEST = os.path.join(HERE, "bugsjar-manifest.jsonl")
SOURCE = "Bugs.jar, the JIRA issue as in the benchmark's bug-report.yml; base and gold from the project's fix commit"

# The projects used: Bugs.jar's forks small enough to fetch (camel and flink, whose trees and
# histories are large, were not tried). Each fork is used at the snapshot the set was made from; a
# branch is found by name, and its commits are pinned by the manifest's digests.
REPOS = [
    "bugs-dot-jar/commons-math",
    "bugs-dot-jar/accumulo",
    "bugs-dot-jar/maven",
    "bugs-dot-jar/wicket",
    "bugs-dot-jar/jackrabbit-oak",
    "bugs-dot-jar/logging-log4j2",
]
# At most this many items of one project, then the first TOTAL of all in seeded SHA-256 order.
# Set from the eligible counts (bugsjar.py count) before any ranker ran.
CAP = 20
TOTAL = 100
SEED = "taskctl-heldout7"
# A fix that changes more files outside tests than this is a refactoring more than a bug to
# localise; such items are left out when selecting.
MAX_GOLD = 5
BRANCH = re.compile(r"^refs/(?:remotes/origin|heads)/bugs-dot-jar_([A-Z0-9]+-\d+)_([0-9a-f]{7,40})$")


def order(instance_id):
    return hashlib.sha256(("%s:%s" % (SEED, instance_id)).encode()).hexdigest()


def report_text(raw):
    """The issue's title, a blank line and its body, from bug-report.yml; None without both."""
    import yaml  # only materialize and select need it
    try:
        doc = yaml.safe_load(raw)
    except yaml.YAMLError:
        return None
    if not isinstance(doc, dict):
        return None
    summary, desc = doc.get("Summary"), doc.get("Description")
    if not isinstance(summary, str) or not isinstance(desc, str) or not summary.strip() or not desc.strip():
        return None
    return summary.strip() + "\n\n" + desc.strip() + "\n"


def bugs(root, repo, only=None):
    """The benchmark's bugs of one project: instance id -> (report text or None, abbreviated fix
    commit, files developer-patch.diff changes); only those whose ids are in only, if given. Each
    branch is read once, remote-tracking names first."""
    gd = need_dir(root, repo)
    refs = git(gd, "for-each-ref", "--format=%(refname)", "refs/remotes/origin", "refs/heads").stdout.decode().split()
    out = {}
    for ref in refs:
        m = BRANCH.match(ref)
        if not m:
            continue
        iid = "%s_%s" % (m.group(1), m.group(2))
        if iid in out or (only is not None and iid not in only):
            continue
        raw = git(gd, "show", "%s:.bugs-dot-jar/bug-report.yml" % ref, check=False)
        patch = git(gd, "show", "%s:.bugs-dot-jar/developer-patch.diff" % ref, check=False)
        if raw.returncode or patch.returncode:
            continue
        files = set(re.findall(r"^diff --git a/\S+ b/(\S+)$", patch.stdout.decode(errors="replace"), re.M))
        out[iid] = (report_text(raw.stdout.decode(errors="replace")), m.group(2), files)
    return out


def fix_commit(gd, abbrev):
    """The full hash of the fix commit the branch names, or None if the fork lacks it."""
    r = git(gd, "rev-parse", "--verify", "-q", abbrev + "^{commit}", check=False)
    return r.stdout.decode().strip() if r.returncode == 0 else None


def eligible(root, repo):
    """The project's items with a report, a fix commit with one parent whose changes outside tests
    are the files developer-patch.diff changes, one to MAX_GOLD such files, every one present at
    the base (a fix that only adds files gives a ranker nothing to find), in seeded SHA-256 order of
    instance id: a list of (fix commit, item)."""
    gd = need_dir(root, repo)
    ok = []
    for iid, (text, abbrev, patch_files) in bugs(root, repo).items():
        if text is None:
            continue
        fix = fix_commit(gd, abbrev)
        if fix is None:
            continue
        if len(git(gd, "rev-list", "--parents", "-n", "1", fix).stdout.decode().split()) != 2:
            continue  # a merge (or a root): no single base
        it = item_from_fix(gd, repo, iid, text, fix, SOURCE)
        if it is None:
            continue
        gold = localisable_gold(gd, it, MAX_GOLD)
        if gold is None or set(gold) != {f for f in patch_files if not is_test(f)}:
            continue
        ok.append((fix, it))
    ok.sort(key=lambda p: order(p[1]["instance_id"]))
    return ok


def count(root):
    for repo in REPOS:
        print("%-30s %3d bugs, %3d eligible" % (repo, len(bugs(root, repo)), len(eligible(root, repo))))


def select(root):
    """Per project the first CAP eligible items, then the first TOTAL of them all, in seeded SHA-256
    order of instance id. Nothing about the items' text or any ranker's result entered the choice."""
    pool = []
    for repo in REPOS:
        pool += [(repo, fix, it) for fix, it in eligible(root, repo)[:CAP]]
    pool.sort(key=lambda p: order(p[2]["instance_id"]))
    if len(pool) < TOTAL:
        sys.exit("bugsjar.py: %d eligible items, not %d; set the cap again" % (len(pool), TOTAL))
    chosen = pool[:TOTAL]
    chosen.sort(key=lambda p: (REPOS.index(p[0]), order(p[2]["instance_id"])))
    for repo, fix, it in chosen:
        print(json.dumps({"instance_id": it["instance_id"], "repo": repo, "fix_commit": fix, "check": check(it)}))


def materialize(root, out):
    want = read_manifest(MANIFEST)
    texts = {}
    for repo in sorted({w["repo"] for w in want}):
        if repo not in REPOS:
            sys.exit("bugsjar.py: %s: not a project of this set" % repo)
        ids = {w["instance_id"] for w in want if w["repo"] == repo}
        texts.update({k: v[0] for k, v in bugs(root, repo, ids).items() if v[0] is not None})
    write_from_fixes(root, want, texts, out, SOURCE,
                     missing="has no report in its branch or its fix commit is not in the mirror of %(repo)s")


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "materialize":
        materialize(sys.argv[2], sys.argv[3])
    elif len(sys.argv) == 3 and sys.argv[1] == "select":
        select(sys.argv[2])
    elif len(sys.argv) == 3 and sys.argv[1] == "count":
        count(sys.argv[2])
    else:
        sys.exit(__doc__)
