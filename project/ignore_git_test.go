package project_test

import (
	"flag"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/taskctl/taskctl/ignore"
	"github.com/taskctl/taskctl/internal/ignoretest"
	"github.com/taskctl/taskctl/project"
	"github.com/taskctl/taskctl/root"
	"github.com/taskctl/taskctl/walk"
)

var (
	gitignoreSeeds = flag.Int("gitignore.seeds", 40, "how many generated trees TestIgnoreDifferential checks against git")
	gitignoreSeed  = flag.Uint64("gitignore.seed", 0, "check only the tree of this seed")
)

// ignoreRegressions are seeds whose trees showed a disagreement with git
// before the fix named (each fails again when its fix is taken out); they
// are checked in every run, beside the first gitignore.seeds seeds.
var ignoreRegressions = []uint64{
	4,   // POSIX classes: "/[[:lower:]]12" matches "f12"
	9,   // "?" and brackets match one byte: "[!z]/" does not match the directory "é"
	11,  // one trailing slash is taken off: "!\!b//" matches nothing
	25,  // "]" first in a bracket is a member: "[!]a]*" matches "f12"
	52,  // "**/" after the literal start may match nothing: "/.gitignore**/**/*" matches ".gitignore"
	57,  // "**" right after the literal start crosses slashes: "/s**/[^!]b" matches the directory "sub"
	63,  // "X/**" matches below X only, also for a wildcard X: "*/***/" does not match "[x]"
	129, // an escaped backslash does not escape the space after it: "tr\\ " does not match "tr "
	160, // three stars are two: "!b/***" matches "b/B/b]"
	336, // no bracket matches a slash: "/logs[!z]a.d" does not match "logs/a.d"
}

// differentialSeeds returns the seeds to check: -gitignore.seed alone, or
// 1..-gitignore.seeds and the regressions beyond.
func differentialSeeds(regressions []uint64) []uint64 {
	if *gitignoreSeed != 0 {
		return []uint64{*gitignoreSeed}
	}
	var seeds []uint64
	for s := 1; s <= *gitignoreSeeds; s++ {
		seeds = append(seeds, uint64(s))
	}
	for _, s := range regressions {
		if s > uint64(*gitignoreSeeds) {
			seeds = append(seeds, s)
		}
	}
	return seeds
}

// TestIgnoreDifferential generates trees of nested .gitignore files and
// .git/info/exclude (see internal/ignoretest) and compares, on every path,
// the Matcher git reads with (NewGitMatcher) and Project.Ignored with git
// check-ignore, the deciding rule included, and Project.Walk with git
// ls-files --others --exclude-standard.
func TestIgnoreDifferential(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git binary")
	}
	for _, seed := range differentialSeeds(ignoreRegressions) {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			tree := ignoretest.Generate(seed)
			dir := realTemp(t)
			if err := tree.Build(dir); err != nil {
				t.Fatal(err)
			}
			if !checkAgainstGit(t, tree, dir) {
				t.Log(tree)
			}
		})
	}
}

// checkAgainstGit reports every disagreement with git on tree, built in dir.
func checkAgainstGit(t *testing.T, tree *ignoretest.Tree, dir string) bool {
	paths, isDir := tree.Paths()
	verdicts, err := ignoretest.CheckIgnore(dir, paths)
	if err != nil {
		t.Fatal(err)
	}
	ok := true
	m := walk.NewGitMatcher(os.DirFS(dir))
	pol := root.DefaultPolicy()
	pol.AllowSensitive = true
	p := open(t, project.Options{WorkingDir: dir, Policy: pol})
	for _, rel := range paths {
		v := verdicts[rel]
		ign, r := m.Match(rel, isDir[rel])
		if ign != v.Ignored || sameRule(r, v) != "" {
			t.Errorf("Match(%q, %v) = %v, %v; git check-ignore: %v by %s:%d: %q %s",
				rel, isDir[rel], ign, r, v.Ignored, v.Source, v.Line, v.Pattern, sameRule(r, v))
			ok = false
		}
		if ign, why := p.Ignored(rel, isDir[rel]); ign != v.Ignored {
			t.Errorf("Ignored(%q, %v) = %v (%s); git check-ignore: %v", rel, isDir[rel], ign, why, v.Ignored)
			ok = false
		}
	}
	want, err := ignoretest.Others(dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	err = p.Walk(bg, func(c project.Candidate, _ fs.FileInfo) error {
		got = append(got, c.Rel)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("Walk differs from git ls-files --others --exclude-standard:\n%s", diff(got, want))
		ok = false
	}
	return ok
}

// sameRule says how r differs from the rule git named ("" when it does
// not).
func sameRule(r *ignore.Rule, v ignoretest.Verdict) string {
	switch {
	case r == nil && v.Source == "":
		return ""
	case r == nil:
		return "(no rule of ours matched)"
	case v.Source == "":
		return "(no rule of git's matched)"
	case r.Source != v.Source || r.Line != v.Line:
		return fmt.Sprintf("(ours is %s:%d)", r.Source, r.Line)
	}
	return ""
}

// TestGitPatterns checks, one rule at a time, the ways git reads a pattern
// that the matcher once got wrong (each found by TestIgnoreDifferential on
// the seed named), against the expected answer and against git
// check-ignore.
func TestGitPatterns(t *testing.T) {
	tests := []struct {
		seed      uint64 // the tree that showed it
		gitignore string
		path      string // a path ending in "/" is a directory
		want      bool
	}{
		// POSIX classes, of ASCII as git's ctype has them
		{4, "/[[:lower:]]12\n", "f12", true},
		{4, "[[:punct:]]x]\n", "[x]", true},
		{4, "[[:alpha:]]*\n", "é.txt", false},
		// "?" and brackets match one byte, not one character
		{9, "??\n", "é/", true},
		{9, "?.txt\n", "é.txt", false},
		{9, "[éz].txt\n", "é.txt", false},
		// "X/**" matches inside X, also when X is a wildcard
		{63, "**/**\n", "b", true},
		{63, "*/**\n", "x", false},
		{63, "*/**\n", "a/b/c", true},
		// three stars are two
		{160, "a/***\n!a/b/\n", "a/b/c", true},
		// a "**" right after an anchored pattern's literal start crosses
		// slashes, and may match nothing
		{57, "/ab**/c\n", "abc", true},
		{57, "/ab**/c\n", "abx/y/c", true},
		{52, "/b**/**/*\n", "b", true},
		// one trailing slash is taken off, not two
		{11, "a//\n", "a/", false},
		// no bracket expression matches a slash
		{336, "/a[!z]b/c\n", "a/b/c", false},
		// "]" first in a bracket is a member
		{25, "[]a]*\n", "]x", true},
		{25, "[!]a]*\n", "bb", true},
		{25, "[!]a]*\n", "]x", false},
		// an escaped backslash does not escape the space after it
		{129, "tr\\\\ \n", "tr ", false},
	}
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git binary")
	}
	for _, tt := range tests {
		dir := realTemp(t)
		rel, isDir := strings.CutSuffix(tt.path, "/")
		tree := []string{".gitignore = " + tt.gitignore}
		if isDir {
			tree = append(tree, tt.path+"f")
		} else {
			tree = append(tree, tt.path)
		}
		git(t, dir, "init", "-q")
		writeTree(t, dir, tree...)
		ign, r := walk.NewGitMatcher(os.DirFS(dir)).Match(rel, isDir)
		verdicts, err := ignoretest.CheckIgnore(dir, []string{rel})
		if err != nil {
			t.Fatal(err)
		}
		if ign != tt.want || verdicts[rel].Ignored != tt.want {
			t.Errorf("%q on %q (seed %d): Match = %v (%v), git check-ignore = %v; want %v",
				tt.gitignore, tt.path, tt.seed, ign, r, verdicts[rel].Ignored, tt.want)
		}
	}
}
