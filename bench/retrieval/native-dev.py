#!/usr/bin/env python3
"""Builds native-dev.jsonl: long, fix-like commit messages of C, C++ and Rust projects, read as reports.

The harness's commit mode (bench/retrieval/main.go commitQueries): a non-merge commit changing 1-5 non-test
source files, gold = those it modifies or deletes, the tree at its parent. Kept when the message, trailers
dropped, is 300 characters or more, does not start with "Bump ", reads as a fix (FIX below), every gold file is
C, C++ or Rust, the subject is not a release's ("2025.04.25, Version 1.51.0"), and no older commit has its subject. The newest PER of each repository.

    python3 bench/retrieval/native-dev.py /work/.mirror > bench/retrieval/native-dev.jsonl
"""
import json
import os
import re
import subprocess
import sys

REPOS = [  # repository, short name, pinned head, licence
    ("ponylang/ponyc", "ponyc", "217cb06753690acee6279e89e8d603e9a30c8bff", "BSD-2-Clause"),
    ("libuv/libuv", "libuv", "6179e7af87413396d5853a1c3722c8b5749336c8", "MIT"),
    ("clap-rs/clap", "clap", "6982fb1c98c7247e38a6d4f04191b94e30497e7b", "MIT OR Apache-2.0"),
]
PER = 50
SOURCE = {".go", ".py", ".js", ".jsx", ".ts", ".tsx", ".java", ".kt", ".c", ".h", ".cc", ".cpp", ".hpp", ".rs",
          ".rb", ".php", ".cs", ".swift", ".scala", ".sh", ".proto", ".svelte", ".vue"}
NATIVE = {".c", ".h", ".cc", ".cpp", ".hpp", ".rs"}
RELEASE = re.compile(r"^(release|now working on)\b|\bversion \d+\.\d+", re.I)
TRAILERS = ("signed-off-by:", "co-authored-by:", "reviewed-by:", "change-id:")
FIX = re.compile(r"\b(fix|fixes|fixed|fixing|bug|crash|crashes|segfault|panic|panics|error|errors|wrong|"
                 r"incorrect|regression|broken|leak|leaks|fail|fails|failure|issue|assert|assertion|"
                 r"overflow|deadlock|race)\b", re.I)


def is_test(p):
    base = os.path.basename(p).lower()
    stem, ext = os.path.splitext(base)
    if stem.endswith("_test") or stem.startswith("test_") or stem.endswith(".test") or stem.endswith(".spec"):
        return True
    if stem.endswith("test") and ext == ".java":
        return True
    return any(c in ("test", "tests", "testdata", "__tests__", "e2e", "fixtures") for c in os.path.dirname(p).split("/"))


def clean(msg):
    lines = [l for l in msg.split("\n") if not l.strip().lower().startswith(TRAILERS)]
    return "\n".join(lines).strip()


def subject(msg):
    s = msg.split("\n", 1)[0].strip()
    s = re.sub(r"\s*\(#\d+\)$", "", s)
    return s.rstrip(".").strip().lower()


def commits(git, head):
    out = subprocess.run(["git", "-C", git, "log", "--no-merges", "--no-renames", "--name-status",
                          "--format=%x1e%H %P%n%B%x1f", head, "--"], capture_output=True, text=True,
                         check=True, errors="replace").stdout
    for rec in out.split("\x1e")[1:]:
        head_line, _, rest = rec.partition("\n")
        ids = head_line.split()
        msg, _, status = rest.partition("\x1f")
        yield ids, msg, status


def items(mirror, repo, short, head):
    git = os.path.join(mirror, repo.replace("/", "+"), "repo")
    recs = list(commits(git, head))
    seen_older = {}
    for i in range(len(recs) - 1, -1, -1):  # oldest first: a subject's first commit
        s = subject(recs[i][1])
        seen_older.setdefault(s, i)
    out = []
    for i, (ids, msg, status) in enumerate(recs):
        if len(ids) != 2:
            continue
        text = clean(msg)
        if len(text) < 300 or text.startswith("Bump ") or not FIX.search(text):
            continue
        if RELEASE.search(subject(msg)):
            continue  # a release's message is its change log, not a report
        if seen_older[subject(msg)] != i:
            continue  # an older commit has this subject: a cherry-pick or a re-commit
        changed, gold = 0, []
        for line in status.strip().split("\n"):
            st, _, f = line.strip().partition("\t")
            if not f or os.path.splitext(f)[1].lower() not in SOURCE or is_test(f):
                continue
            changed += 1
            if st in ("M", "D"):
                gold.append(f)
        if not (1 <= changed <= 5) or not gold or any(os.path.splitext(g)[1].lower() not in NATIVE for g in gold):
            continue
        out.append({"instance_id": "%s-%s" % (short, ids[1][:10]), "repo": repo, "base_commit": ids[1],
                    "problem_statement": text, "gold_files": gold,
                    "source": "message of the commit after base_commit"})
        if len(out) == PER:
            break
    return out


def main():
    mirror = sys.argv[1] if len(sys.argv) > 1 else "/work/.mirror"
    for repo, short, head, _ in REPOS:
        for it in items(mirror, repo, short, head):
            print(json.dumps(it))


if __name__ == "__main__":
    main()
