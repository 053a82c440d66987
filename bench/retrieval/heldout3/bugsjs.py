#!/usr/bin/env python3
"""Build the held-out bug-report set (set F) from BugsJS, as the harness reads it.

BugsJS (BugsJS/bug-dataset; Gyimesi et al., "BugsJS: a Benchmark of JavaScript Bugs", ICST 2019)
records real bugs of ten JavaScript projects: for each bug the GitHub issues its fix resolves
(the issue body as text) and the fix commit. The issues are kept in Protocol Buffers files,
Projects/<P>/<P>_issues.bin, whose message types are in the dataset's project.proto; they are
decoded here with the few lines below, without a protobuf library. The issue text is not
committed here: bugsjs-manifest.jsonl names the items, and this script reads them out of a bare
git mirror of BugsJS/bug-dataset at a pinned commit and out of the projects' own mirrors.

  bugsjs.py materialize MIRROR_ROOT OUT.jsonl   write the set named by the manifest
  bugsjs.py select MIRROR_ROOT                  print the manifest anew (how it was chosen)

Each item: instance_id (bugsjs-<Project>-<BugsJS bug id>), repo (OWNER/NAME as GitHub spells it,
so the harness finds MIRROR_ROOT/OWNER+NAME/repo), base_commit (the fix commit's first parent),
problem_statement (the body of each issue the bug records, in issue-number order; BugsJS keeps
no titles), gold_files (the paths `git diff --no-renames` lists between the base and the fix;
the harness leaves out tests' paths), source.
"""
import hashlib
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "heldout"))
from mirror import check, git, git_dir, is_test, need_dir, read_manifest, write_checked  # noqa: E402  (shared with the other sets' scripts)

HERE = os.path.dirname(os.path.abspath(__file__))
MANIFEST = os.path.join(HERE, "bugsjs-manifest.jsonl")
BENCH_REPO = "BugsJS/bug-dataset"
BENCH_COMMIT = "7abbad3e4df12cd5294110bb5db11b7d5bc758a6"
SOURCE = "BugsJS, %s at %s" % (BENCH_REPO, BENCH_COMMIT[:8])

# BugsJS project name -> the project's repository on GitHub. Left out: Express (its repository
# was used before in this project), Node-redis (kept apart from the redis repository used
# before), Shields (its snapshot, 1.3 GB, is over the fetch size limit).
PROJECTS = {
    "Bower": "bower/bower",
    "Eslint": "eslint/eslint",
    "Hessian.js": "node-modules/hessian.js",
    "Hexo": "hexojs/hexo",
    "Karma": "karma-runner/karma",
    "Mongoose": "Automattic/mongoose",
    "Pencilblue": "pencilblue/pencilblue",
}

# How many items to take per project (select): every eligible item of the small projects and
# ESLint's first ones, in SHA-256 order of instance_id, up to 100 in all. Set from the eligible
# counts before any ranker ran.
QUOTA = {"Eslint": 28}


# --- Protocol Buffers wire format, enough for project.proto ---------------------------------

def _varint(buf, i):
    value = shift = 0
    while True:
        b = buf[i]
        i += 1
        value |= (b & 0x7F) << shift
        shift += 7
        if b < 0x80:
            return value, i


def _fields(buf):
    """The (field number, value) pairs of one message: ints for varints, bytes otherwise."""
    i, out = 0, []
    while i < len(buf):
        key, i = _varint(buf, i)
        number, wire = key >> 3, key & 7
        if wire == 0:
            value, i = _varint(buf, i)
        elif wire == 2:
            n, i = _varint(buf, i)
            value, i = buf[i:i + n], i + n
        elif wire == 5:
            value, i = buf[i:i + 4], i + 4
        elif wire == 1:
            value, i = buf[i:i + 8], i + 8
        else:
            raise ValueError("wire type %d" % wire)
        out.append((number, value))
    return out


def _issues(buf):
    """Project.bugs as dicts: id, orig_id (the issue number), description, fix (the hash)."""
    for number, value in _fields(buf):
        if number != 3:
            continue
        bug = {"id": 0, "orig_id": 0, "description": "", "fix": ""}
        for n, v in _fields(value):
            if n == 1:
                bug["id"] = v
            elif n == 2:
                bug["orig_id"] = v
            elif n == 5:
                bug["description"] = v.decode("utf-8")
            elif n == 6:
                bug["fix"] = dict(_fields(v)).get(1, b"").decode()
        yield bug


# --- the items ----------------------------------------------------------------------------

def items(root, projects=PROJECTS):
    """BugsJS's bugs with an issue text, project by project, as the harness's fields. A bug
    whose fix commit is not in the project's mirror, or is a root commit, is skipped."""
    bench = need_dir(root, BENCH_REPO)
    for project, repo in sorted(projects.items()):
        data = git(bench, "show", "%s:Projects/%s/%s_issues.bin" % (BENCH_COMMIT, project, project)).stdout
        bugs = {}
        for issue in _issues(data):
            bugs.setdefault(issue["id"], []).append(issue)
        code = git_dir(root, repo)
        for bug_id in sorted(bugs):
            issues = sorted(bugs[bug_id], key=lambda x: x["orig_id"])
            fixes = {x["fix"] for x in issues}
            text = "\n\n".join(x["description"].strip() for x in issues if x["description"].strip())
            if len(fixes) != 1 or not text or code is None:
                continue
            fix = fixes.pop()
            parents = git(code, "rev-list", "--parents", "-n1", fix, check=False).stdout.decode().split()
            if len(parents) < 2:
                continue
            base = parents[1]
            diff = git(code, "diff", "--no-renames", "--name-only", base, fix).stdout.decode()
            yield {
                "instance_id": "bugsjs-%s-%d" % (project, bug_id),
                "repo": repo,
                "base_commit": base,
                "problem_statement": text,
                "gold_files": sorted(set(diff.split("\n")) - {""}),
                "source": SOURCE,
            }


def eligible(root, it):
    """A gold file outside tests, and every such file present at the base commit (a fix that
    adds files gives a ranker nothing to find for them)."""
    gold = [g for g in it["gold_files"] if not is_test(g)]
    code = git_dir(root, it["repo"])
    return bool(gold) and not any(
        git(code, "cat-file", "-e", "%s:%s" % (it["base_commit"], g), check=False).returncode for g in gold)


def select(root):
    """Per project, the eligible items in SHA-256 order of instance_id, up to QUOTA. Nothing
    about the items' text or any ranker's result entered the choice."""
    for project, repo in sorted(PROJECTS.items()):
        if git_dir(root, repo) is None:
            print("bugsjs.py: no mirror of %s, %s left out" % (repo, project), file=sys.stderr)
            continue
        chosen = sorted((it for it in items(root, {project: repo}) if eligible(root, it)),
                        key=lambda it: hashlib.sha256(it["instance_id"].encode()).hexdigest())
        for it in chosen[:QUOTA.get(project, len(chosen))]:
            print(json.dumps({"instance_id": it["instance_id"], "repo": it["repo"], "check": check(it)}))


def materialize(root, out):
    want = read_manifest(MANIFEST)
    projects = {w["instance_id"].split("-")[1]: w["repo"] for w in want}
    for repo in sorted(set(projects.values())):
        need_dir(root, repo)
    found = {it["instance_id"]: it for it in items(root, projects)}
    write_checked(want, found, out, "is not in the benchmark's data or its fix is not in %(repo)s's mirror")


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "materialize":
        materialize(sys.argv[2], sys.argv[3])
    elif len(sys.argv) == 3 and sys.argv[1] == "select":
        select(sys.argv[2])
    else:
        sys.exit(__doc__)
