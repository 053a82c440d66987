#!/usr/bin/env python3
"""Build the tenth held-out bug-report set (set T) from BLIZZARD's bug reports, as the harness reads it.

BLIZZARD's replication package (Rahman and Roy, "Improving IR-Based Bug Localization with
Context-Aware Query Reformulation", ESEC/FSE 2018; masud-technope/BLIZZARD-Replication-Package-ESEC-FSE2018,
MIT licence) holds 5,139 Bugzilla reports of six Eclipse and Apache projects, each with the files
its fix changed: BR-Raw/<project>/<bug>.txt is the report (a first line "Bug <id> - <title>", then
its description) and Goldset/<project>/<bug>.txt the changed files, one a line. It names no commit:
its authors found the fixes by the bug id in the projects' commit messages, so this script does the
same in the project's own history and keeps a bug only when exactly one commit names it and every
file that commit changed outside tests and the change log is one of the bug's Goldset files, so the
gold is the benchmark's own.

The base commit is the fix commit's parent, and the gold is what the fix commit changed outside
tests and outside the project's change log. The package is MIT-licensed, but its reports are their
reporters' text, so, as for the ninth set, nothing of them is committed here:
blizzard-manifest.jsonl names the items and pins each one's fix commit, and this script rebuilds
them from the mirrors.

  blizzard.py materialize MIRROR_ROOT OUT.jsonl   write the set named by the manifest
  blizzard.py select MIRROR_ROOT                  print the manifest anew
  blizzard.py count MIRROR_ROOT                   print the eligible items per project

Each needs the mirrors of the package's repository and of the projects. Each item: instance_id
(owner__name-bug, as SWE-bench names them), repo (the project's GitHub repository, as its mirror is
named), base_commit (the fix commit's parent), problem_statement (title, a blank line,
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
MANIFEST = os.path.join(HERE, "blizzard-manifest.jsonl")
SOURCE = "BLIZZARD, the Bugzilla report as BLIZZARD committed it; base and gold from the project's fix commit"
TEXTS = "masud-technope/BLIZZARD-Replication-Package-ESEC-FSE2018"

# BLIZZARD's project directories taken, with the repository that serves each one's history now.
# Its sixth project, tomcat70, is left out: Tomcat's history was mined (bench/assoc/repos.txt).
# pde.ui's history is in eclipse.pde since the PDE repositories were merged.
PROJECTS = {
    "ecf": "eclipse-ecf/ecf",
    "eclipse.jdt.core": "eclipse-jdt/eclipse.jdt.core",
    "eclipse.jdt.debug": "eclipse-jdt/eclipse.jdt.debug",
    "eclipse.jdt.ui": "eclipse-jdt/eclipse.jdt.ui",
    "eclipse.pde.ui": "eclipse-pde/eclipse.pde",
}
# At most this many items of one project, then the first TOTAL of all in seeded SHA-256 order.
# Set from the eligible counts (blizzard.py count) before any ranker ran.
CAP = 25
TOTAL = 100
SEED = "taskctl-heldout10"
# A fix that changes more files outside tests than this is a refactoring more than a bug to
# localise; such items are left out when selecting.
MAX_GOLD = 5
# A project's change log, which a fix commit may update with a line about itself.
CHANGE_LOG = re.compile(r"(?i)^(changelog|changes|history|news|release[-_]?notes)(\.[a-z]+)?$")


def order(instance_id):
    return hashlib.sha256(("%s:%s" % (SEED, instance_id)).encode()).hexdigest()


def instance_id(project, bug):
    return "%s-%s" % (PROJECTS[project].replace("/", "__"), bug)


def decode(raw):
    """The package's files are mostly Windows-1252 (its dashes); some are UTF-8."""
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return raw.decode("cp1252", errors="replace")


def report(raw, bug):
    """The text of one BR-Raw file: its title without the "Bug <id> - " Bugzilla put before it, a
    blank line, its description with trailing blanks trimmed and line ends made \\n; None without a
    title or a description."""
    lines = decode(raw).replace("\r\n", "\n").replace("\r", "\n").split("\n")
    title = re.sub(r"^\s*Bug\s+%s\s*\S?\s*" % bug, "", lines[0]).strip()
    desc = "\n".join(l.rstrip() for l in lines[1:]).strip()
    if not title or not desc:
        return None
    return title + "\n\n" + desc + "\n"


def reports(root, project, only=None):
    """Bug -> (text, Goldset files) for the project's reports in BLIZZARD's package (those of the bugs
    in only, if given)."""
    gd = need_dir(root, TEXTS)
    out = {}
    for name in git(gd, "ls-tree", "--name-only", "HEAD", "BR-Raw/%s/" % project).stdout.decode().split():
        bug = os.path.basename(name)[:-len(".txt")]
        if not bug.isdigit() or (only is not None and bug not in only):
            continue
        text = report(git(gd, "show", "HEAD:" + name).stdout, bug)
        gold = git(gd, "show", "HEAD:Goldset/%s/%s.txt" % (project, bug), check=False)
        if text is None or gold.returncode:
            continue
        out[bug] = (text, {l.strip() for l in decode(gold.stdout).splitlines() if l.strip()})
    return out


def commits_naming(gd, bugs):
    """Bug -> the commits of the mirror's history (HEAD) whose message names it as a number of its
    own (not part of a longer number or word)."""
    hits = {b: [] for b in bugs}
    log = git(gd, "log", "HEAD", "--format=%H%x00%B%x1e").stdout.decode(errors="replace")
    for entry in log.split("\x1e"):
        h, _, msg = entry.strip().partition("\x00")
        for n in set(re.findall(r"(?<![\w.])(\d{3,7})(?![\w.])", msg)):
            if n in hits:
                hits[n].append(h)
    return hits


def gold_of(item):
    """The item's gold: the files its fix changed, less tests and the change log."""
    return [g for g in item["gold_files"] if not is_test(g) and not CHANGE_LOG.match(os.path.basename(g))]


def build(gd, repo, iid, text, fix):
    """The item of fix commit fix with its gold as gold_of says, or None (not one parent)."""
    parents = git(gd, "rev-list", "--parents", "-n", "1", fix).stdout.decode().split()[1:]
    if len(parents) != 1:
        return None
    it = item_from_fix(gd, repo, iid, text, fix, SOURCE)
    it["gold_files"] = sorted(gold_of(it))
    return it


def eligible(root, project):
    """The project's items with a title and a description, exactly one commit of the mirror's
    history naming the bug, with one parent, one to MAX_GOLD gold files (gold_of), each one of the
    bug's Goldset files and present at the base (a fix that only adds files gives a ranker nothing
    to find), in seeded SHA-256 order of instance id: a list of (fix commit, item)."""
    repo = PROJECTS[project]
    gd = need_dir(root, repo)
    reps = reports(root, project)
    ok = []
    for bug, fixes in commits_naming(gd, reps).items():
        if len(fixes) != 1:
            continue
        text, listed = reps[bug]
        it = build(gd, repo, instance_id(project, bug), text, fixes[0])
        if it is None:
            continue
        gold = it["gold_files"]
        if not gold or len(gold) > MAX_GOLD or not set(gold) <= listed:
            continue
        if any(git(gd, "cat-file", "-e", "%s:%s" % (it["base_commit"], g), check=False).returncode for g in gold):
            continue
        ok.append((fixes[0], it))
    ok.sort(key=lambda p: order(p[1]["instance_id"]))
    return ok


def count(root):
    for project, repo in PROJECTS.items():
        print("%-20s %-32s %4d reports, %3d eligible"
              % (project, repo, len(reports(root, project)), len(eligible(root, project))))


def select(root):
    """Per project the first CAP eligible items, then the first TOTAL of them all, in seeded SHA-256
    order of instance id. Nothing about the items' text or any ranker's result entered the choice."""
    pool = []
    for project in PROJECTS:
        ok = eligible(root, project)
        print("blizzard.py: %s: %d eligible" % (project, len(ok)), file=sys.stderr)
        pool += [(project, fix, it) for fix, it in ok[:CAP]]
    pool.sort(key=lambda p: order(p[2]["instance_id"]))
    if len(pool) < TOTAL:
        sys.exit("blizzard.py: %d eligible items, not %d; set the cap again" % (len(pool), TOTAL))
    chosen = pool[:TOTAL]
    names = list(PROJECTS)
    chosen.sort(key=lambda p: (names.index(p[0]), order(p[2]["instance_id"])))
    for project, fix, it in chosen:
        print(json.dumps({"instance_id": it["instance_id"], "repo": PROJECTS[project], "fix_commit": fix,
                          "check": check(it)}))


def materialize(root, out):
    want = read_manifest(MANIFEST)
    by_repo = {repo: project for project, repo in PROJECTS.items()}
    found = {}
    texts = {}
    for w in want:
        project = by_repo.get(w["repo"])
        if project is None:
            sys.exit("blizzard.py: %s: not a project of this set" % w["repo"])
        if project not in texts:
            texts[project] = reports(root, project, {v["instance_id"].rsplit("-", 1)[1] for v in want
                                                     if v["repo"] == w["repo"]})
        bug = w["instance_id"].rsplit("-", 1)[1]
        gd = need_dir(root, w["repo"])
        if bug not in texts[project]:
            continue
        if git(gd, "cat-file", "-e", w["fix_commit"] + "^{commit}", check=False).returncode:
            continue
        it = build(gd, w["repo"], w["instance_id"], texts[project][bug][0], w["fix_commit"])
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
