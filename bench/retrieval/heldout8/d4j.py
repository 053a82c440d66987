#!/usr/bin/env python3
"""Build the eighth held-out bug-report set (set P) from Defects4J, as the harness reads it.

Defects4J (Just, Jalali and Ernst, "Defects4J: A Database of Existing Faults to Enable Controlled
Testing Studies for Java Programs", ISSTA 2014; rjust/defects4j, version 2 and later) holds 835 real
bugs of 17 Java projects. Each bug (framework/projects/<P>/active-bugs.csv) names the project's
fix commit, the commit before it, and the issue the fix resolved; patches/<id>.src.patch is the
developer's fix minimised to the source files. Defects4J stores the issue's address, not its text.
The text comes from LIBRO (Kang, Yoon and Yoo, "Large Language Models are Few-shot Testers:
Exploring LLM-based General Bug Reproduction", ICSE 2023; coinse/libro), which committed, for 814
Defects4J bugs, the issue each one names as data/Defects4J/bug_report/<P>-<id>.json: its title and
description, as the reporter wrote them in the project's tracker (Apache JIRA, Google Code, GitHub).

The base commit and the gold files come from the project's own history: the fix commit is the one
active-bugs.csv names (revision.id.fixed), the base is its parent, and the gold is what the fix
commit changed outside tests and outside the project's change log (src/changes/changes.xml,
RELEASE-NOTES.txt: the fix's note of itself, absent at the base). An item is kept only if those
files are exactly the files Defects4J's src.patch changes, so the gold is the benchmark's own.

The reports are their reporters' text, so they are not committed here: d4j-manifest.jsonl names the
items and pins each one's fix commit, and this script rebuilds them from the mirrors.

  d4j.py materialize MIRROR_ROOT OUT.jsonl   write the set named by the manifest (needs the mirrors
                                             of coinse/libro and of the projects)
  d4j.py select MIRROR_ROOT                  print the manifest anew (also needs rjust/defects4j)
  d4j.py count MIRROR_ROOT                   print the eligible items per project (likewise)

Each item: instance_id (Defects4J's, <P>-<id>), repo (the project's GitHub repository, as its
mirror is named), base_commit (the fix commit's parent), problem_statement (title, a blank line,
description), gold_files (as above; the harness also leaves out tests'), source.
"""
import hashlib
import json
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "heldout"))
from mirror import (check, git, is_test, item_from_fix, need_dir,  # noqa: E402
                    read_manifest, write_checked)  # (shared with the other sets' scripts)

HERE = os.path.dirname(os.path.abspath(__file__))
MANIFEST = os.path.join(HERE, "d4j-manifest.jsonl")
SOURCE = "Defects4J, the issue's text as LIBRO committed it; base and gold from the project's fix commit"
D4J = "rjust/defects4j"
TEXTS = "coinse/libro"
TEXT_DIR = "data/Defects4J/bug_report"
# Reports LIBRO's authors judged not to describe the bug they are linked to; left out.
INVALID = "data/Defects4J/invalid_bug_reports.txt"

# Defects4J's projects that no earlier set used, with the repository that serves each one's history.
# Left out: Lang, Math, Mockito, Gson, Jsoup and the three Jackson projects (used by earlier sets or
# the dev sets), Chart (its revisions are Subversion numbers) and Collections (four reports).
PROJECTS = {
    "Closure": "google/closure-compiler",
    "Cli": "apache/commons-cli",
    "Codec": "apache/commons-codec",
    "Compress": "apache/commons-compress",
    "Csv": "apache/commons-csv",
    "JxPath": "apache/commons-jxpath",
    "Time": "JodaOrg/joda-time",
}
# At most this many items of one project, then the first TOTAL of all in seeded SHA-256 order.
# Set from the eligible counts (d4j.py count) before any ranker ran.
CAP = 20
TOTAL = 100
SEED = "taskctl-heldout8"
# A fix that changes more files outside tests than this is a refactoring more than a bug to
# localise; such items are left out when selecting.
MAX_GOLD = 5
# The project's change log, which a fix commit updates with a line about itself.
CHANGE_LOG = {"src/changes/changes.xml", "RELEASE-NOTES.txt"}


def order(instance_id):
    return hashlib.sha256(("%s:%s" % (SEED, instance_id)).encode()).hexdigest()


def report_text(raw):
    """The issue's title, a blank line and its description, from LIBRO's JSON; None without both."""
    try:
        doc = json.loads(raw)
    except ValueError:
        return None
    if not isinstance(doc, dict):
        return None
    title, desc = doc.get("title"), doc.get("description")
    if not isinstance(title, str) or not isinstance(desc, str) or not title.strip() or not desc.strip():
        return None
    text = title.strip() + "\n\n" + desc.strip() + "\n"
    return text.replace("\r\n", "\n")


def texts(root, ids):
    """Instance id -> report text, for those of ids LIBRO has a usable report for."""
    gd = need_dir(root, TEXTS)
    out = {}
    for iid in ids:
        r = git(gd, "show", "HEAD:%s/%s.json" % (TEXT_DIR, iid), check=False)
        if r.returncode == 0:
            t = report_text(r.stdout.decode(errors="replace"))
            if t is not None:
                out[iid] = t
    return out


def gold_of(item):
    """The item's gold: the files its fix changed, less tests and the change log."""
    return [g for g in item["gold_files"] if not is_test(g) and g not in CHANGE_LOG]


def build(root, repo, iid, text, fix):
    """The item of fix commit fix with its gold as gold_of says, or None (no single parent)."""
    gd = need_dir(root, repo)
    parents = git(gd, "rev-list", "--parents", "-n", "1", fix).stdout.decode().split()[1:]
    if len(parents) != 1:
        return None
    it = item_from_fix(gd, repo, iid, text, fix, SOURCE)
    it["gold_files"] = sorted(gold_of(it))
    return it


def bugs(root, project):
    """Defects4J's active bugs of project: a list of (instance id, fix commit, files src.patch changes)."""
    gd = need_dir(root, D4J)
    csv = git(gd, "show", "HEAD:framework/projects/%s/active-bugs.csv" % project).stdout.decode()
    out = []
    for row in csv.splitlines()[1:]:
        f = row.split(",")
        if len(f) < 3 or not f[0].isdigit():
            continue
        patch = git(gd, "show", "HEAD:framework/projects/%s/patches/%s.src.patch" % (project, f[0]), check=False)
        if patch.returncode:
            continue
        files = set(re.findall(r"^diff --git a/(\S+) b/", patch.stdout.decode(errors="replace"), re.M))
        out.append(("%s-%s" % (project, f[0]), f[2], files))
    return out


def eligible(root, project):
    """The project's items with a report LIBRO has and does not list as invalid, a fix commit with one
    parent whose gold (gold_of) is exactly the files src.patch changes, one to MAX_GOLD of them, every
    one present at the base (a fix that only adds files gives a ranker nothing to find), in seeded
    SHA-256 order of instance id: a list of (fix commit, item)."""
    repo = PROJECTS[project]
    gd = need_dir(root, repo)
    invalid = set(git(need_dir(root, TEXTS), "show", "HEAD:" + INVALID).stdout.decode().split())
    found = bugs(root, project)
    text = texts(root, [iid for iid, _, _ in found if iid not in invalid])
    ok = []
    for iid, fix, patch_files in found:
        if iid not in text:
            continue
        if git(gd, "cat-file", "-e", fix + "^{commit}", check=False).returncode:
            continue
        it = build(root, repo, iid, text[iid], fix)
        if it is None:
            continue
        gold = it["gold_files"]
        if not gold or len(gold) > MAX_GOLD or set(gold) != patch_files:
            continue
        if any(git(gd, "cat-file", "-e", "%s:%s" % (it["base_commit"], g), check=False).returncode for g in gold):
            continue
        ok.append((fix, it))
    ok.sort(key=lambda p: order(p[1]["instance_id"]))
    return ok


def count(root):
    for project, repo in PROJECTS.items():
        print("%-10s %-26s %3d bugs, %3d eligible" % (project, repo, len(bugs(root, project)), len(eligible(root, project))))


def select(root):
    """Per project the first CAP eligible items, then the first TOTAL of them all, in seeded SHA-256
    order of instance id. Nothing about the items' text or any ranker's result entered the choice."""
    pool = []
    for project in PROJECTS:
        pool += [(project, fix, it) for fix, it in eligible(root, project)[:CAP]]
    pool.sort(key=lambda p: order(p[2]["instance_id"]))
    if len(pool) < TOTAL:
        sys.exit("d4j.py: %d eligible items, not %d; set the cap again" % (len(pool), TOTAL))
    chosen = pool[:TOTAL]
    names = list(PROJECTS)
    chosen.sort(key=lambda p: (names.index(p[0]), order(p[2]["instance_id"])))
    for project, fix, it in chosen:
        print(json.dumps({"instance_id": it["instance_id"], "repo": PROJECTS[project], "fix_commit": fix,
                          "check": check(it)}))


def materialize(root, out):
    want = read_manifest(MANIFEST)
    repos = set(PROJECTS.values())
    for w in want:
        if w["repo"] not in repos:
            sys.exit("d4j.py: %s: not a project of this set" % w["repo"])
    text = texts(root, [w["instance_id"] for w in want])
    found = {}
    for w in want:
        gd = need_dir(root, w["repo"])
        if w["instance_id"] not in text:
            continue
        if git(gd, "cat-file", "-e", w["fix_commit"] + "^{commit}", check=False).returncode:
            continue
        it = build(root, w["repo"], w["instance_id"], text[w["instance_id"]], w["fix_commit"])
        if it is not None:
            found[w["instance_id"]] = it
    write_checked(want, found, out,
                  missing="has no report in %s or its fix commit is not in the mirror of %%(repo)s" % TEXTS)


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "materialize":
        materialize(sys.argv[2], sys.argv[3])
    elif len(sys.argv) == 3 and sys.argv[1] == "select":
        select(sys.argv[2])
    elif len(sys.argv) == 3 and sys.argv[1] == "count":
        count(sys.argv[2])
    else:
        sys.exit(__doc__)
