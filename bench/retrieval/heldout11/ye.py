#!/usr/bin/env python3
"""Build the eleventh held-out bug-report set (set V) from Ye et al.'s bug reports, as the harness reads it.

Ye, Bunescu and Liu, "Learning to Rank Relevant Files for Bug Reports using Domain Knowledge" (FSE 2014),
published 22,747 Eclipse Bugzilla reports of six projects, each with the commit that fixed it and the
files that commit changed. A copy is committed in phamhoanggg/bug-localization-by-dnn-and-rvsm as one
spreadsheet per project (data/<Project>.xlsx: columns id, bug_id, summary, description, report_time,
report_timestamp, status, commit (7 hex digits), commit_timestamp, files). This script reads those
spreadsheets with the standard library (an .xlsx is a zip of XML) from the mirror.

The base commit is the fix commit's parent (the abbreviated commit resolved in the project's mirror),
and the gold is what the fix commit changed outside tests and outside the project's change log; an item
is kept only if every such file is one of the files the data set lists for the bug, so the gold is the
benchmark's own. The reports are their reporters' text, so nothing of them is committed here:
ye-manifest.jsonl names the items and pins each one's fix commit, and this script rebuilds them from
the mirrors.

  ye.py materialize MIRROR_ROOT OUT.jsonl   write the set named by the manifest
  ye.py select MIRROR_ROOT                  print the manifest anew
  ye.py count MIRROR_ROOT                   print the eligible items per project

Each needs the mirrors of the data set's repository and of the projects. Each item: instance_id
(owner__name-bug, as SWE-bench names them), repo (the project's GitHub repository, as its mirror is
named), base_commit (the fix commit's parent), problem_statement (title, a blank line, description),
gold_files (as above; the harness also leaves out tests'), source.
"""
import hashlib
import json
import os
import re
import sys
import xml.etree.ElementTree as ET
import zipfile
import io

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "heldout"))
from mirror import (check, git, is_test, item_from_fix, need_dir,  # noqa: E402
                    read_manifest, write_checked)  # (shared with the other sets' scripts)

HERE = os.path.dirname(os.path.abspath(__file__))
MANIFEST = os.path.join(HERE, "ye-manifest.jsonl")
SOURCE = "Ye et al. (FSE 2014), the Bugzilla report as the data set holds it; base and gold from the project's fix commit"
TEXTS = "phamhoanggg/bug-localization-by-dnn-and-rvsm"
TEXTS_COMMIT = "a290457aa3e4221f5e94c1382f03d04819d01f1d"

# The data set's projects taken, with the repository that serves each one's history now. Its other
# two are left out: JDT (eclipse.jdt.ui, used by the tenth set) and Tomcat (its history was mined,
# bench/assoc/repos.txt).
PROJECTS = {
    "AspectJ": "eclipse-aspectj/aspectj",
    "Birt": "eclipse-birt/birt",
    "Eclipse_Platform_UI": "eclipse-platform/eclipse.platform.ui",
    "SWT": "eclipse-platform/eclipse.platform.swt",
}
# At most this many items of one project, then the first TOTAL of all in seeded SHA-256 order.
# Set from the number of projects before any ranker ran.
CAP = 25
TOTAL = 100
SEED = "taskctl-heldout11"
# A fix that changes more files outside tests than this is a refactoring more than a bug to
# localise; such items are left out when selecting.
MAX_GOLD = 5
# A project's change log, which a fix commit may update with a line about itself.
CHANGE_LOG = re.compile(r"(?i)^(changelog|changes|history|news|release[-_]?notes)(\.[a-z]+)?$")
NS = "{http://schemas.openxmlformats.org/spreadsheetml/2006/main}"


def order(instance_id):
    return hashlib.sha256(("%s:%s" % (SEED, instance_id)).encode()).hexdigest()


def instance_id(project, bug):
    return "%s-%s" % (PROJECTS[project].replace("/", "__"), bug)


def sheet_rows(data):
    """The rows of an .xlsx file's first sheet, each a dict of column letter to text."""
    z = zipfile.ZipFile(io.BytesIO(data))
    shared = [''.join(t.text or '' for t in si.iter(NS + "t"))
              for si in ET.fromstring(z.read("xl/sharedStrings.xml")).findall(NS + "si")]
    for r in ET.fromstring(z.read("xl/worksheets/sheet1.xml")).iter(NS + "row"):
        row = {}
        for c in r.findall(NS + "c"):
            col = re.match(r"[A-Z]+", c.get("r")).group()
            v = c.find(NS + "v")
            if c.get("t") == "s":
                row[col] = shared[int(v.text)]
            elif c.get("t") == "inlineStr":
                row[col] = ''.join(t.text or '' for t in c.iter(NS + "t"))
            else:
                row[col] = v.text if v is not None and v.text else ""
        yield row


def report(bug, summary, description):
    """Title (the summary without the "Bug <id>" the data set put before it), a blank line, the
    description with trailing blanks trimmed and line ends made \\n; None without either."""
    title = re.sub(r"^\s*Bug\s+%s\s*\S?\s*" % bug, "", summary.replace("\r", " ").replace("\n", " ")).strip()
    desc = "\n".join(l.rstrip() for l in description.replace("\r\n", "\n").replace("\r", "\n").split("\n")).strip()
    if not title or not desc:
        return None
    return title + "\n\n" + desc + "\n"


def reports(root, project, only=None):
    """Bug -> (text, abbreviated fix commit, listed files) for the project's reports (those of the
    bugs in only, if given). A bug listed twice is left out."""
    gd = need_dir(root, TEXTS)
    data = git(gd, "show", "%s:data/%s.xlsx" % (TEXTS_COMMIT, project)).stdout
    out, seen = {}, set()
    rows = sheet_rows(data)
    header = next(rows)
    if [header.get(c) for c in "BCDHJ"] != ["bug_id", "summary", "description", "commit", "files"]:
        sys.exit("ye.py: %s: unexpected columns %s" % (project, header))
    for row in rows:
        bug = row.get("B", "").strip()
        if not bug.isdigit() or (only is not None and bug not in only):
            continue
        if bug in seen:
            out.pop(bug, None)
            continue
        seen.add(bug)
        text = report(bug, row.get("C", ""), row.get("D", ""))
        commit = row.get("H", "").strip()
        if text is None or not re.fullmatch(r"[0-9a-f]{7,40}", commit):
            continue
        files = {f.strip() for f in re.split(r"(?<=\.java) ", row.get("J", "")) if f.strip()}
        out[bug] = (text, commit, files)
    return out


def resolve(gd, abbrev):
    """The full hash of an abbreviated commit, or None (unknown or ambiguous)."""
    r = git(gd, "rev-parse", "--verify", "--quiet", abbrev + "^{commit}", check=False)
    return r.stdout.decode().strip() if r.returncode == 0 else None


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


def eligible(root, project, limit=None):
    """The project's items with a title and a description, a fix commit the mirror resolves
    unambiguously, with one parent, that no other bug of the data set names, one to MAX_GOLD gold
    files (gold_of), each one of the bug's listed files and present at the base (a fix that only
    adds files gives a ranker nothing to find), in seeded SHA-256 order of instance id: a list of
    (fix commit, item), its first limit ones if limit is given (the reports are checked in that
    order, so the first limit are the same as those of the whole list)."""
    repo = PROJECTS[project]
    gd = need_dir(root, repo)
    reps = reports(root, project)
    uses = {}
    for bug, (_, commit, _) in reps.items():
        uses.setdefault(commit[:7], []).append(bug)
    ok = []
    for bug in sorted(reps, key=lambda b: order(instance_id(project, b))):
        if limit is not None and len(ok) >= limit:
            break
        text, commit, listed = reps[bug]
        if len(uses[commit[:7]]) != 1:
            continue
        fix = resolve(gd, commit)
        if fix is None:
            continue
        it = build(gd, repo, instance_id(project, bug), text, fix)
        if it is None:
            continue
        gold = it["gold_files"]
        if not gold or len(gold) > MAX_GOLD or not set(gold) <= listed:
            continue
        if any(git(gd, "cat-file", "-e", "%s:%s" % (it["base_commit"], g), check=False).returncode for g in gold):
            continue
        ok.append((fix, it))
    return ok


def count(root):
    for project, repo in PROJECTS.items():
        print("%-20s %-40s %5d reports, %4d eligible"
              % (project, repo, len(reports(root, project)), len(eligible(root, project))))


def select(root):
    """Per project the first CAP eligible items, then the first TOTAL of them all, in seeded SHA-256
    order of instance id. Nothing about the items' text or any ranker's result entered the choice."""
    pool = []
    for project in PROJECTS:
        ok = eligible(root, project, CAP)
        print("ye.py: %s: %d eligible taken" % (project, len(ok)), file=sys.stderr)
        pool += [(project, fix, it) for fix, it in ok]
    pool.sort(key=lambda p: order(p[2]["instance_id"]))
    if len(pool) < TOTAL:
        sys.exit("ye.py: %d eligible items, not %d; set the cap again" % (len(pool), TOTAL))
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
            sys.exit("ye.py: %s: not a project of this set" % w["repo"])
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
