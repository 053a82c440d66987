#!/usr/bin/env python3
"""Build the ninth held-out bug-report set (set R) from Denchmark, as the harness reads it.

Denchmark (Kim, Kim and Lee, "Denchmark: A Bug Benchmark of Deep Learning-related Software", MSR
2021; RosePasta/Denchmark_BRs) holds 4,577 bug reports of 193 GitHub projects that build or use deep
learning, each an issue of the project's tracker linked to the one commit that fixed it. Its
JSonSet/simplejson/<owner+name>/<issue>.json holds the issue's title (BRsummary) and description
(BRdescription, GitHub's text with Denchmark's <denchmark-...> tags in place of links, headings and
code blocks) and the fix commit (commit.commit_id) with the files it changed (commit.changed_files).

The base commit and the gold files come from the project's own history: the base is the fix
commit's parent, and the gold is what the fix commit changed outside tests and outside the
project's change log (CHANGELOG.md and the like: the fix's note of itself). An item is kept only if
every gold file is one Denchmark lists as changed by the commit, so the gold is the benchmark's own.

The reports are their reporters' text and Denchmark's repository carries no licence for its data,
so nothing of them is committed here: denchmark-manifest.jsonl names the items and pins each one's
fix commit, and this script rebuilds them from the mirrors.

  denchmark.py materialize MIRROR_ROOT OUT.jsonl   write the set named by the manifest
  denchmark.py select MIRROR_ROOT                  print the manifest anew
  denchmark.py count MIRROR_ROOT                   print the eligible items per project

Each needs the mirrors of RosePasta/Denchmark_BRs and of the projects. Each item: instance_id
(owner__name-issue, as SWE-bench names them), repo (the project's GitHub repository, as its mirror
is named), base_commit (the fix commit's parent), problem_statement (title, a blank line,
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
MANIFEST = os.path.join(HERE, "denchmark-manifest.jsonl")
SOURCE = "Denchmark, the issue's text as Denchmark committed it; base and gold from the project's fix commit"
TEXTS = "RosePasta/Denchmark_BRs"
TEXT_DIR = "JSonSet/simplejson"

# Denchmark's project directories taken, with the repository that serves each one's history now
# (Denchmark names them in lower case and by their names of 2020). Chosen for a spread of languages
# and for a history a mirror can hold; none was used by an earlier set or mined (see README.md).
PROJECTS = {
    "deepforge-dev+deepforge": "deepforge-dev/deepforge",
    "pytorchlightning+pytorch-lightning": "Lightning-AI/pytorch-lightning",
    "photoprism+photoprism": "photoprism/photoprism",
    "tencent+ncnn": "Tencent/ncnn",
    "scisharp+tensorflow.net": "SciSharp/TensorFlow.NET",
    "kubeflow+kubeflow": "kubeflow/kubeflow",
    "pyro-ppl+pyro": "pyro-ppl/pyro",
}
# At most this many items of one project, then the first TOTAL of all in seeded SHA-256 order.
# Set from the eligible counts (denchmark.py count) before any ranker ran.
CAP = 15
TOTAL = 100
SEED = "taskctl-heldout9"
# A fix that changes more files outside tests than this is a refactoring more than a bug to
# localise; such items are left out when selecting.
MAX_GOLD = 5
# A project's change log, which a fix commit may update with a line about itself.
CHANGE_LOG = re.compile(r"(?i)^(changelog|changes|history|news|release[-_]?notes)(\.[a-z]+)?$")
# Denchmark's tags for what GitHub rendered as links, headings, code and the like.
TAG = re.compile(r"</?denchmark-[^>]*>")


def order(instance_id):
    return hashlib.sha256(("%s:%s" % (SEED, instance_id)).encode()).hexdigest()


def instance_id(project, issue):
    return "%s-%s" % (PROJECTS[project].replace("/", "__"), issue)


def clean(text):
    """Denchmark's text without its tags, each line without the one space of indentation its
    export added and without trailing blanks."""
    lines = TAG.sub("", text).replace("\r\n", "\n").split("\n")
    return "\n".join((l[1:] if l.startswith(" ") else l).rstrip() for l in lines).strip()


def report(raw):
    """(text, fix commit, files Denchmark lists as changed) of one simplejson file, or None without
    a title, a description and a commit."""
    try:
        doc = json.loads(raw)
        br, commit = doc["BR"]["BR_text"], doc["commit"]
        title, desc, fix = br["BRsummary"], br["BRdescription"], commit["commit_id"]
    except (ValueError, KeyError, TypeError):
        return None
    if not all(isinstance(s, str) for s in (title, desc, fix)):
        return None
    title, desc = clean(title), clean(desc)
    if not title or not desc or not re.fullmatch(r"[0-9a-f]{40}", fix):
        return None
    files = set()
    for f in (commit.get("changed_files") or {}).values():
        for k in ("file_old_name", "file_new_name"):
            name = f.get(k)
            if isinstance(name, str) and name != "None":
                files.add(name.replace("\\", "/"))
    return title + "\n\n" + desc + "\n", fix, files


def reports(root, project):
    """Issue -> report(...) for the project's reports Denchmark has in simplejson form."""
    gd = need_dir(root, TEXTS)
    names = git(gd, "ls-tree", "--name-only", "HEAD", "%s/%s/" % (TEXT_DIR, project)).stdout.decode().split()
    out = {}
    for name in names:
        issue = os.path.basename(name)[:-len(".json")]
        r = git(gd, "show", "HEAD:" + name, check=False)
        if r.returncode == 0 and issue.isdigit():
            rep = report(r.stdout.decode(errors="replace"))
            if rep is not None:
                out[issue] = rep
    return out


def gold_of(item):
    """The item's gold: the files its fix changed, less tests and the change log."""
    return [g for g in item["gold_files"] if not is_test(g) and not CHANGE_LOG.match(os.path.basename(g))]


def build(root, repo, iid, text, fix):
    """The item of fix commit fix with its gold as gold_of says, or None (not one parent)."""
    gd = need_dir(root, repo)
    parents = git(gd, "rev-list", "--parents", "-n", "1", fix).stdout.decode().split()[1:]
    if len(parents) != 1:
        return None
    it = item_from_fix(gd, repo, iid, text, fix, SOURCE)
    it["gold_files"] = sorted(gold_of(it))
    return it


def eligible(root, project):
    """The project's items with a title and a description, a fix commit the mirror has with one
    parent, one to MAX_GOLD gold files (gold_of), each one Denchmark lists as changed and present at
    the base (a fix that only adds files gives a ranker nothing to find), in seeded SHA-256 order of
    instance id: a list of (fix commit, item)."""
    repo = PROJECTS[project]
    gd = need_dir(root, repo)
    ok = []
    for issue, (text, fix, listed) in reports(root, project).items():
        if git(gd, "cat-file", "-e", fix + "^{commit}", check=False).returncode:
            continue
        it = build(root, repo, instance_id(project, issue), text, fix)
        if it is None:
            continue
        gold = it["gold_files"]
        if not gold or len(gold) > MAX_GOLD or not set(gold) <= listed:
            continue
        if any(git(gd, "cat-file", "-e", "%s:%s" % (it["base_commit"], g), check=False).returncode for g in gold):
            continue
        ok.append((fix, it))
    ok.sort(key=lambda p: order(p[1]["instance_id"]))
    return ok


def count(root):
    for project, repo in PROJECTS.items():
        print("%-36s %-32s %3d reports, %3d eligible"
              % (project, repo, len(reports(root, project)), len(eligible(root, project))))


def select(root):
    """Per project the first CAP eligible items, then the first TOTAL of them all, in seeded SHA-256
    order of instance id. Nothing about the items' text or any ranker's result entered the choice."""
    pool = []
    for project in PROJECTS:
        pool += [(project, fix, it) for fix, it in eligible(root, project)[:CAP]]
    pool.sort(key=lambda p: order(p[2]["instance_id"]))
    if len(pool) < TOTAL:
        sys.exit("denchmark.py: %d eligible items, not %d; set the cap again" % (len(pool), TOTAL))
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
            sys.exit("denchmark.py: %s: not a project of this set" % w["repo"])
        if project not in texts:
            texts[project] = reports(root, project)
        issue = w["instance_id"].rsplit("-", 1)[1]
        rep = texts[project].get(issue)
        if rep is None or rep[1] != w["fix_commit"]:
            continue
        gd = need_dir(root, w["repo"])
        if git(gd, "cat-file", "-e", w["fix_commit"] + "^{commit}", check=False).returncode:
            continue
        it = build(root, w["repo"], w["instance_id"], rep[0], w["fix_commit"])
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
