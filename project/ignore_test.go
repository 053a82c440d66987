package project_test

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/taskctl/taskctl/ignore"
	"github.com/taskctl/taskctl/internal/diag"
	"github.com/taskctl/taskctl/project"
	"github.com/taskctl/taskctl/root"
	"github.com/taskctl/taskctl/walk"
)

// gitFixture is the gitignore fixture of deps-security.md §4.1.
func gitFixture(t *testing.T) string {
	dir := realTemp(t)
	git(t, dir, "init", "-q")
	writeTree(t, dir,
		".gitignore = "+strings.Join([]string{
			"# comment", "*.log", "!important.log", "/build", "dist/", "doc/**/*.pdf", "**/tmp",
			"a/**/b", "logs/", "!logs/keep.txt", `\#hash`, `\!bang`, `trailing\ `, "*.[oa]", "foo?.c",
			"sub/deep.txt", "{x,y}.txt", "abc/**", "!abc/keep.md", "[!q]z.md", "spaces   ", "",
		}, "\n")+"\n",
		"sub/.gitignore = !keep.log\n*.txt\n!re.txt\n/only-here\n",
		"sub/inner/.gitignore = !*.txt\n",
		".git/info/exclude = secret.env\n",
		"app.log", "important.log", "UPPER.LOG", "sub/app.log", "sub/keep.log",
		"build/out.bin", "sub/build/keep.c", "dist/x.js", "sub/dist",
		"doc/a.pdf", "doc/x/y/b.pdf", "doc/readme.md",
		"tmp/t.md", "deep/tmp/t.md", "a/b/f.md", "a/x/y/b/f.md", "a/bb/f.md",
		"logs/keep.txt", "logs/x.txt", "#hash", "!bang", "trailing ", "trailing",
		"main.o", "lib.a", "lib.c", "foo1.c", "foo12.c",
		"sub/deep.txt", "x/sub/deep.txt", "{x,y}.txt", "x.txt",
		"abc/f.md", "abc/keep.md", "abc/d/g.md", "az.md", "qz.md", "spaces",
		"sub/x.txt", "sub/re.txt", "sub/only-here", "sub/inner/only-here", "sub/inner/y.txt",
		"secret.env", "src/main.go",
	)
	return dir
}

func TestIgnoreMatchesGit(t *testing.T) {
	dir := gitFixture(t)
	pol := root.DefaultPolicy()
	pol.AllowSensitive = true
	p := open(t, project.Options{WorkingDir: dir, Policy: pol})
	if p.Marker() != ".git" || p.Dir() != dir {
		t.Fatalf("Open: dir %s marker %q", p.Dir(), p.Marker())
	}

	// What git shows: git ls-files --others --exclude-standard.
	want := strings.Split(strings.TrimRight(git(t, dir, "ls-files", "-z", "--others", "--exclude-standard"), "\x00"), "\x00")
	sort.Strings(want)
	if len(want) < 20 {
		t.Fatalf("git shows only %d files: %q", len(want), want)
	}
	var got []string
	err := p.Walk(bg, func(c project.Candidate, _ fs.FileInfo) error {
		got = append(got, c.Rel)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(want)
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("Walk differs from git ls-files --others --exclude-standard:\n%s", diff(got, want))
	}
	cands, _ := p.Expand(bg, []string{"**"})
	if strings.Join(rels(cands), "\n") != strings.Join(want, "\n") {
		t.Errorf("Expand(**) differs from git:\n%s", diff(rels(cands), want))
	}

	// Every file and directory against git check-ignore.
	var paths []string
	isDir := map[string]bool{}
	filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		rel, _ := filepath.Rel(dir, path)
		if rel == ".git" {
			return filepath.SkipDir
		}
		if rel != "." {
			paths = append(paths, rel)
			isDir[rel] = d.IsDir()
		}
		return nil
	})
	ignored := map[string]bool{}
	for _, rel := range paths {
		// one call per path: check-ignore --stdin treats a trailing space as data.
		if out := git(t, dir, "check-ignore", "--", rel); strings.TrimRight(out, "\n") == rel {
			ignored[rel] = true
		}
	}
	for _, rel := range paths {
		got, why := p.Ignored(rel, isDir[rel])
		if got != ignored[rel] {
			t.Errorf("Ignored(%q, %v) = %v (%s); git check-ignore says %v", rel, isDir[rel], got, why, ignored[rel])
		}
		m := walk.NewMatcher(os.DirFS(dir))
		if mi, _ := m.Match(rel, isDir[rel]); mi != ignored[rel] {
			t.Errorf("Matcher.Match(%q) = %v; git says %v", rel, mi, ignored[rel])
		}
	}
}

func diff(got, want []string) string {
	g, w := map[string]bool{}, map[string]bool{}
	for _, s := range got {
		g[s] = true
	}
	for _, s := range want {
		w[s] = true
	}
	var b strings.Builder
	for _, s := range got {
		if !w[s] {
			b.WriteString("  only ours: " + s + "\n")
		}
	}
	for _, s := range want {
		if !g[s] {
			b.WriteString("  only git:  " + s + "\n")
		}
	}
	return b.String()
}

func TestIgnoredExplains(t *testing.T) {
	dir := gitFixture(t)
	p := open(t, project.Options{WorkingDir: dir})
	tests := []struct {
		rel   string
		isDir bool
		want  string // substring of the reason; "" = not ignored
	}{
		{"logs/keep.txt", false, ".gitignore:9: logs/"},
		{"app.log", false, ".gitignore:2: *.log"},
		{"important.log", false, ""},
		{"sub/x.txt", false, "sub/.gitignore:2: *.txt"},
		{"sub/inner/y.txt", false, ""},
		{"secret.env", false, ".git/info/exclude:1: secret.env"},
		{".git/config", false, "always excluded: .git/"},
		{".taskctl", true, "always excluded: .taskctl/"},
		{"web/node_modules/x.js", false, "node_modules/"},
		{"src/main.go", false, ""},
	}
	for _, tt := range tests {
		got, why := p.Ignored(tt.rel, tt.isDir)
		if got != (tt.want != "") || !strings.Contains(why, tt.want) {
			t.Errorf("Ignored(%q) = %v, %q; want %q", tt.rel, got, why, tt.want)
		}
	}
}

func TestBadPatternIsPartial(t *testing.T) {
	dir := realTemp(t)
	writeTree(t, dir, "go.mod", ".gitignore = *.tmp\n[unclosed\n*.bak\n", "a.tmp", "a.bak", "a.go", "[unclosed")
	p := open(t, project.Options{WorkingDir: dir})
	cands, _ := p.Expand(bg, []string{"**"})
	if got := strings.Join(rels(cands), " "); got != ".gitignore [unclosed a.go go.mod" {
		t.Errorf("Expand(**) = %s", got)
	}
	errs := p.IgnoreErrors()
	var pe *ignore.PatternError
	if len(errs) != 1 || !errors.As(errs[0], &pe) || pe.Line != 2 || pe.Source != ".gitignore" {
		t.Errorf("IgnoreErrors() = %v, want one PatternError at .gitignore:2", errs)
	}
}

func TestTaskctlignore(t *testing.T) {
	dir := realTemp(t)
	writeTree(t, dir, "go.mod",
		".gitignore = *.gen.go\n",
		".taskctlignore = !keep.gen.go\ndocs/\n",
		"a.gen.go", "keep.gen.go", "docs/x.md", "sub/.taskctlignore = *.md\n", "sub/a.md", "sub/b.go",
		"node_modules/x/i.js", "web/node_modules/y/i.js", "web/app.js",
		".git/HEAD", ".taskctl/index/x",
	)
	p := open(t, project.Options{WorkingDir: dir})
	cands, _ := p.Expand(bg, []string{"**"})
	want := ".gitignore .taskctlignore go.mod keep.gen.go sub/.taskctlignore sub/b.go web/app.js"
	if got := strings.Join(rels(cands), " "); got != want {
		t.Errorf("Expand(**) = %s\nwant            %s", got, want)
	}
	// node_modules named explicitly: by a glob or a directory.
	cands, _ = p.Expand(bg, []string{"node_modules/**/*.js", "web/node_modules"})
	if got := strings.Join(rels(cands), " "); got != "node_modules/x/i.js web/node_modules/y/i.js" {
		t.Errorf("Expand(node_modules) = %s", got)
	}
	// An ignored directory named literally still yields its files; a glob into it does not.
	cands, warns := p.Expand(bg, []string{"docs", "docs/*.md"})
	if got := strings.Join(rels(cands), " "); got != "docs/x.md" || !hasCode(warns, diag.GlobNoMatch) {
		t.Errorf("Expand(docs, docs/*.md) = %s %v", got, codes(warns))
	}
	// An ignored file named explicitly is taken.
	cands, warns = p.Expand(bg, []string{"a.gen.go"})
	if len(cands) != 1 || len(warns) != 0 {
		t.Errorf("Expand(a.gen.go) = %v %v", rels(cands), warns)
	}
}

// TestSymlinkToIgnoredFile: a glob or walk that meets a symlink whose
// target the ignore rules leave out does not take the target through it
// (the link's own name being admitted), and a glob says why; naming the
// link, like naming the ignored file itself, takes it.
func TestSymlinkToIgnoredFile(t *testing.T) {
	dir := realTemp(t)
	writeTree(t, dir,
		".git/",
		".gitignore = *.log\nbuild/\n",
		"build.log = ignored log",
		"build/out.txt = ignored output",
		"notes.txt -> build.log",
		"docs/out.txt -> ../build/out.txt",
		"keep.txt = kept",
		"alias.txt -> keep.txt",
	)
	p := open(t, project.Options{WorkingDir: dir})
	var walked []string
	if err := p.Walk(bg, func(c project.Candidate, _ fs.FileInfo) error {
		walked = append(walked, c.Rel)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if want := ".gitignore keep.txt"; strings.Join(walked, " ") != want {
		t.Errorf("Walk: %q, want %s", walked, want)
	}
	cands, warns := p.Expand(bg, []string{"**/*"})
	if got, want := strings.Join(rels(cands), " "), ".gitignore keep.txt"; got != want {
		t.Errorf("Expand(**/*): %s, want %s", got, want)
	}
	ignored := 0
	for _, w := range warns {
		if w.Code == diag.PathIgnored {
			ignored++
			if !strings.Contains(w.Message, "ignored") {
				t.Errorf("warning %q does not say the target is ignored", w.Message)
			}
		}
	}
	if ignored != 2 {
		t.Errorf("Expand(**/*) warnings %v, want two %s", warns, diag.PathIgnored)
	}
	cands, _ = p.Expand(bg, []string{"notes.txt"})
	if got := strings.Join(rels(cands), " "); got != "build.log" {
		t.Errorf("Expand(notes.txt) = %q, want the named link's target build.log", got)
	}
}

// TestReload: a Project keeps the ignore files it read until Reload.
func TestReload(t *testing.T) {
	dir := realTemp(t)
	writeTree(t, dir, ".git/", "a.txt", "b.log")
	p := open(t, project.Options{WorkingDir: dir})
	if ign, _ := p.Ignored("b.log", false); ign {
		t.Fatal("b.log ignored before any .gitignore")
	}
	writeTree(t, dir, ".gitignore = *.log\n")
	if ign, _ := p.Ignored("b.log", false); ign {
		t.Fatal("the .gitignore was read again without Reload: the test shows nothing")
	}
	p.Reload()
	if ign, why := p.Ignored("b.log", false); !ign || !strings.Contains(why, ".gitignore") {
		t.Errorf("after Reload: Ignored(b.log) = %v, %q; want ignored by .gitignore", ign, why)
	}
	cands, _ := p.Expand(bg, []string{"**/*"})
	if got := strings.Join(rels(cands), " "); got != ".gitignore a.txt" {
		t.Errorf("after Reload: Expand(**/*) = %s", got)
	}
}
