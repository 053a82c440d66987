"""What the held-out sets' materialisers share: reading bare git mirrors as the fetch tool leaves
them (ROOT/OWNER+NAME/repo), the harness's rule for test paths, and the digest that pins an item.

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
