"""What the held-out sets' materialisers share: reading bare git mirrors as the fetch tool leaves
them (ROOT/OWNER+NAME/repo), the harness's rule for test paths, the digest that pins an item, and,
for the sets whose base and gold come from the project's own fix commit (heldout5/rsb.py,
heldout6/sweg.py), finding that commit and building the item from it.

Imported by heldout/bugs.py, heldout2/ghrb.py, heldout3/bugsjs.py, heldout4/mswe.py, heldout5/rsb.py
and heldout6/sweg.py. Errors name the script that ran (sys.argv[0]), as each script's own copy of
these lines did.
"""
import hashlib
import json
import os
import re
import subprocess
import sys

PROG = os.path.basename(sys.argv[0])


def git(gitdir, *args, check=True):
    r = subprocess.run(["git", "--git-dir", gitdir, *args], capture_output=True)
    if check and r.returncode:
        sys.exit("%s: git %s in %s: %s" % (PROG, " ".join(args), gitdir, r.stderr.decode().strip()))
    return r


def git_dir(root, repo):
    """The git directory of repo's mirror under root, or None."""
    for d in (os.path.join(root, repo.replace("/", "+"), "repo", ".git"),
              os.path.join(root, repo.replace("/", "+"), "repo")):
        if os.path.isfile(os.path.join(d, "HEAD")):
            return d
    return None


def need_dir(root, repo):
    """git_dir, or stop naming the mirror to fetch."""
    d = git_dir(root, repo)
    if d is None:
        sys.exit("%s: no mirror of %s under %s (fetch github:%s)" % (PROG, repo, root, repo))
    return d


def is_test(path):
    """The harness's rule: a component test, tests or testing, also as a word split on _ and ."""
    return any(w in ("test", "tests", "testing")
               for c in path.lower().split("/") for w in re.split(r"[_.]", c))


def check(item):
    """A digest of what the harness reads, to catch a different copy of the data."""
    key = json.dumps([item["base_commit"], item["problem_statement"], item["gold_files"]])
    return hashlib.sha256(key.encode()).hexdigest()[:16]


def read_manifest(path):
    """The entries of a set's manifest, in order."""
    with open(path) as f:
        return [json.loads(l) for l in f if l.strip()]


def write_checked(want, found, out, missing="is not in the benchmark's data"):
    """Write to out the items the manifest entries want name, taken from found (instance id to item),
    in the manifest's order. Stop at an item that is missing or whose digest is not the one chosen.
    missing is the message for a missing item, formatted with its manifest entry (%(repo)s)."""
    with open(out, "w") as f:
        for w in want:
            it = found.get(w["instance_id"])
            if it is None:
                sys.exit("%s: %s %s" % (PROG, w["instance_id"], missing % w))
            if check(it) != w["check"]:
                sys.exit("%s: %s differs from the item chosen (check %s, manifest %s)"
                         % (PROG, w["instance_id"], check(it), w["check"]))
            f.write(json.dumps(it) + "\n")


def merged_prs(gd, numbers):
    """PR number -> the commits of the mirror's history whose subject names it as merged (a squash
    commit's "(#N)" or a merge commit's "Merge pull request #N"), for each of numbers."""
    hits = {n: [] for n in numbers}
    log = git(gd, "log", "--all", "--format=%H%x09%s").stdout.decode(errors="replace")
    for line in log.splitlines():
        h, _, subject = line.partition("\t")
        for m in re.finditer(r"\(#(\d+)\)|Merge pull request #(\d+)\b", subject):
            n = int(m.group(1) or m.group(2))
            if n in hits and h not in hits[n]:
                hits[n].append(h)
    return hits


def item_from_fix(gd, repo, instance_id, text, fix, source):
    """The item whose fix is commit fix of repo's mirror gd: base its first parent, gold the files
    it changed; None if fix has no parent."""
    parents = git(gd, "rev-list", "--parents", "-n", "1", fix).stdout.decode().split()[1:]
    if not parents:
        return None
    base = parents[0]
    gold = git(gd, "diff", "--no-renames", "--name-only", base, fix).stdout.decode().split("\n")
    return {
        "instance_id": instance_id,
        "repo": repo,
        "base_commit": base,
        "problem_statement": text,
        "gold_files": sorted(g for g in gold if g),
        "source": source,
    }


def localisable_gold(gd, item, max_gold):
    """item's gold files outside tests, if there are one to max_gold of them and every one is present
    at the base (a fix that only adds files gives a ranker nothing to find); otherwise None."""
    gold = [g for g in item["gold_files"] if not is_test(g)]
    if not gold or len(gold) > max_gold:
        return None
    if any(git(gd, "cat-file", "-e", "%s:%s" % (item["base_commit"], g), check=False).returncode
           for g in gold):
        return None
    return gold


def write_from_fixes(root, want, texts, out, source, missing):
    """write_checked for the manifest entries want, each built from its fix commit (entry's
    fix_commit) and its text (texts: instance id -> text); an entry without a text or whose commit
    the mirror lacks is missing."""
    found = {}
    for w in want:
        gd = need_dir(root, w["repo"])
        if w["instance_id"] not in texts:
            continue
        if git(gd, "cat-file", "-e", w["fix_commit"] + "^{commit}", check=False).returncode:
            continue
        it = item_from_fix(gd, w["repo"], w["instance_id"], texts[w["instance_id"]], w["fix_commit"], source)
        if it is not None:
            found[w["instance_id"]] = it
    write_checked(want, found, out, missing=missing)
