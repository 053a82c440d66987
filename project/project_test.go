package project_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/taskctl/taskctl/internal/diag"
	"github.com/taskctl/taskctl/project"
	"github.com/taskctl/taskctl/root"
)

func TestDetect(t *testing.T) {
	base := realTemp(t)
	writeTree(t, base,
		"plain/sub/",
		"node/package.json = {}",
		"node/lib/pkg/package.json = {}",
		"node/lib/pkg/src/",
		"py/pyproject.toml", "py/sub/go.mod", "py/sub/deep/",
		"mono/go.mod", "mono/svc/Cargo.toml", "mono/svc/x/",
		"custom/.myroot", "custom/a/b/",
		"tc/.taskctl/", "tc/x/",
		"wt/.git = gitdir: /elsewhere\n", "wt/pkg/package.json = {}", "wt/pkg/src/",
	)
	repo := filepath.Join(base, "repo")
	mkdirAll(t, filepath.Join(repo, "a/b"))
	git(t, repo, "init", "-q")
	writeTree(t, repo, "a/package.json = {}", "a/b/go.mod")
	writeTree(t, base, "link -> repo/a")

	tests := []struct {
		wd, extra         string
		wantDir, wantMark string
	}{
		{"repo/a/b", "", "repo", ".git"}, // .git beats a nearer package.json
		{"repo", "", "repo", ".git"},
		{"link/b", "", "repo", ".git"}, // from the real path
		{"node/lib/pkg/src", "", "node/lib/pkg", "package.json"},
		{"py/sub/deep", "", "py", "pyproject.toml"}, // pyproject.toml comes before go.mod
		{"mono/svc/x", "", "mono/svc", "Cargo.toml"},
		{"custom/a/b", "", "custom/a/b", ""},
		{"custom/a/b", ".myroot", "custom", ".myroot"},
		{"tc/x", "", "tc", ".taskctl"},
		{"wt/pkg/src", "", "wt", ".git"}, // a .git file (worktree, submodule)
	}
	for _, tt := range tests {
		var extra []string
		if tt.extra != "" {
			extra = []string{tt.extra}
		}
		dir, mark, err := project.Detect(filepath.Join(base, tt.wd), extra)
		if err != nil {
			t.Errorf("Detect(%s): %v", tt.wd, err)
			continue
		}
		if want := filepath.Join(base, tt.wantDir); dir != want || mark != tt.wantMark {
			t.Errorf("Detect(%s, %v) = %s, %q; want %s, %q", tt.wd, extra, dir, mark, want, tt.wantMark)
		}
	}
	// The plain dir has no marker up to /tmp... unless the test machine has
	// one above; only check the fallback when nothing is above.
	if _, _, err := project.Detect(filepath.Join(base, "missing"), nil); err == nil {
		t.Error("Detect(missing dir): no error")
	}
}

func TestOpenDirs(t *testing.T) {
	base := realTemp(t)
	writeTree(t, base, "p/go.mod", "p/src/a.go", "p/src/b/c.go", "p/docs/x.md", "p/node_modules/m/i.js", "p/build.log")
	proj := filepath.Join(base, "p")
	p := open(t, project.Options{WorkingDir: filepath.Join(proj, "src")})
	if p.Dir() != proj || p.WorkingDir() != filepath.Join(proj, "src") || p.Workspace() != filepath.Join(proj, ".taskctl") || p.Marker() != "go.mod" {
		t.Fatalf("dirs: %s %s %s %q", p.Dir(), p.WorkingDir(), p.Workspace(), p.Marker())
	}
	if p.Policy().MaxFiles != 1000 || p.Policy().MaxFileBytes != 10<<20 {
		t.Errorf("policy defaults not filled: %+v", p.Policy())
	}
	tests := []struct {
		specs []string
		want  string
	}{
		// DESIGN §2: ./ and ../ paths against the working dir, bare paths and globs against the project dir
		{[]string{"src/a.go"}, "src/a.go"},
		{[]string{"a.go"}, ""},
		{[]string{"./a.go", "../docs/x.md"}, "src/a.go docs/x.md"},
		{[]string{"src/*.go"}, "src/a.go"},
		{[]string{"./*.go"}, "src/a.go"},
		{[]string{"./**/*.go"}, "src/a.go src/b/c.go"},
		{[]string{"../docs/*"}, "docs/x.md"},
		{[]string{proj + "/src/b/*.go"}, "src/b/c.go"},
		{[]string{"**/*.go"}, "src/a.go src/b/c.go"},
		{[]string{"{src,docs}/**"}, "docs/x.md src/a.go src/b/c.go"},
		// a directory named literally, with or without a slash
		{[]string{"src/b"}, "src/b/c.go"},
		{[]string{"src/b/"}, "src/b/c.go"},
		{[]string{"./b"}, "src/b/c.go"},
		{[]string{"."}, "src/a.go src/b/c.go"},
		// literal files first, in order, then the sorted matches; each once
		{[]string{"../docs/x.md", "**/*.go", "./b/c.go", "src/a.go"}, "docs/x.md src/b/c.go src/a.go"},
		{[]string{"../node_modules/m/i.js"}, "node_modules/m/i.js"},
		{[]string{"../**/*.js"}, ""},
	}
	for _, tt := range tests {
		cands, warns := p.Expand(bg, tt.specs)
		if got := strings.Join(rels(cands), " "); got != tt.want {
			t.Errorf("Expand(%q) = %q, %v; want %q", tt.specs, got, warns, tt.want)
		}
		for _, c := range cands {
			if !filepath.IsAbs(c.Path) || c.Path != filepath.Join(proj, c.Rel) {
				t.Errorf("Expand(%q): candidate %+v", tt.specs, c)
			}
		}
	}
}

func TestMaxFiles(t *testing.T) {
	dir := realTemp(t)
	writeTree(t, dir, "go.mod", "a/1", "a/2", "a/3", "a/4", "a/5")
	pol := root.DefaultPolicy()
	pol.MaxFiles = 3
	p := open(t, project.Options{WorkingDir: dir, Policy: pol})
	cands, warns := p.Expand(bg, []string{"a/5", "a/*"})
	if got := strings.Join(rels(cands), " "); got != "a/5 a/1 a/2" || !hasCode(warns, diag.TooManyFiles) {
		t.Errorf("Expand = %s %v", got, codes(warns))
	}
}

func TestPolicyExcludeAndSensitive(t *testing.T) {
	dir := realTemp(t)
	writeTree(t, dir, "go.mod", "vendor/x.go", "main.go", ".env.local = K=V\n", "certs/tls.key = k\n", "creds -> .env.local")
	pol := root.DefaultPolicy()
	pol.Exclude = []string{"vendor/**"}
	p := open(t, project.Options{WorkingDir: dir, Policy: pol})
	cands, warns := p.Expand(bg, []string{"**", "vendor/x.go", ".env.local", "creds"})
	if got := strings.Join(rels(cands), " "); got != "go.mod main.go" {
		t.Errorf("Expand = %s", got)
	}
	for _, c := range []diag.Code{diag.PathIgnored, diag.PathSensitive} {
		if !hasCode(warns, c) {
			t.Errorf("warnings %v lack %s", codes(warns), c)
		}
	}
	pol.AllowSensitive = true
	p2 := open(t, project.Options{WorkingDir: dir, Policy: pol})
	cands, _ = p2.Expand(bg, []string{"**"})
	if got := strings.Join(rels(cands), " "); got != ".env.local certs/tls.key go.mod main.go" {
		t.Errorf("Expand with AllowSensitive = %s", got)
	}
}

// TestPolicyExcludeDirectory: a pattern matching a directory excludes what
// lies in it however it is named: a glob's walk does not enter it, and a
// literal path or a command's output below it is refused too (they were let
// through: only the file's own path was matched).
func TestPolicyExcludeDirectory(t *testing.T) {
	dir := realTemp(t)
	writeTree(t, dir, "go.mod", "vendor/x.go", "vendor/sub/y.go", "gen/a/b.go", "main.go")
	pol := root.DefaultPolicy()
	pol.Exclude = []string{"vendor", "gen/*"}
	p := open(t, project.Options{WorkingDir: dir, Policy: pol})
	cands, warns := p.Expand(bg, []string{"**", "vendor/x.go", "vendor/sub/y.go", "gen/a/b.go", "vendor/sub"})
	if got := strings.Join(rels(cands), " "); got != "go.mod main.go" {
		t.Errorf("Expand = %s (warnings %v)", got, warns)
	}
	if n := len(warns); n != 4 {
		t.Errorf("want 4 PATH_IGNORED warnings (three files and a directory named), got %v", warns)
	}
	for _, w := range warns {
		if w.Code != diag.PathIgnored {
			t.Errorf("warning %+v, want %s", w, diag.PathIgnored)
		}
	}
	if ign, why := p.Ignored("vendor/sub/y.go", false); !ign || why != "policy exclude: vendor" {
		t.Errorf("Ignored(vendor/sub/y.go) = %v %q", ign, why)
	}
	c, w := p.ResolveFrom(dir, "gen/a/b.go")
	if w == nil || w.Code != diag.PathIgnored {
		t.Errorf("ResolveFrom(gen/a/b.go) = %+v, %+v; want PATH_IGNORED", c, w)
	}
}

func TestExtraRoots(t *testing.T) {
	base := realTemp(t)
	writeTree(t, base, "p/go.mod", "p/a.go", "shared/x.proto", "shared/sub/y.proto", "other/z")
	pol := root.DefaultPolicy()
	pol.ExtraRoots = []string{filepath.Join(base, "shared")}
	p := open(t, project.Options{WorkingDir: filepath.Join(base, "p"), Policy: pol})
	cands, warns := p.Expand(bg, []string{"../shared/x.proto", "../shared/**/*.proto", "../other/z"})
	if got := strings.Join(rels(cands), " "); got != "../shared/x.proto ../shared/sub/y.proto" || !hasCode(warns, diag.PathOutsideProject) {
		t.Errorf("Expand = %s %v", got, codes(warns))
	}
	for _, c := range cands {
		if _, w := p.Confined().Read(c.Path); w != nil {
			t.Errorf("Read(%s): %v", c.Path, w)
		}
	}
}

func TestEnsureWorkspace(t *testing.T) {
	base := realTemp(t)
	writeTree(t, base, "p/go.mod", "elsewhere/")
	proj := filepath.Join(base, "p")
	p := open(t, project.Options{WorkingDir: proj})
	got, err := p.EnsureWorkspace("index", "v1")
	if err != nil || got != filepath.Join(proj, ".taskctl/index/v1") {
		t.Fatalf("EnsureWorkspace = %s, %v", got, err)
	}
	for _, d := range []string{".taskctl", ".taskctl/index", ".taskctl/index/v1"} {
		b, err := os.ReadFile(filepath.Join(proj, d, ".gitignore"))
		if err != nil || string(b) != "*\n" {
			t.Errorf("%s/.gitignore = %q, %v", d, b, err)
		}
	}
	if _, err := p.EnsureWorkspace("index", "v1"); err != nil {
		t.Errorf("second call: %v", err)
	}
	for _, bad := range []string{"..", "a/b", "", "."} {
		if _, err := p.EnsureWorkspace(bad); err == nil {
			t.Errorf("EnsureWorkspace(%q): no error", bad)
		}
	}
	// A symlinked component is refused, nothing is written through it.
	if err := os.Symlink(filepath.Join(base, "elsewhere"), filepath.Join(proj, ".taskctl/runs")); err != nil {
		t.Fatal(err)
	}
	if _, err := p.EnsureWorkspace("runs", "x"); err == nil {
		t.Error("EnsureWorkspace through a symlink: no error")
	}
	if ents, _ := os.ReadDir(filepath.Join(base, "elsewhere")); len(ents) != 0 {
		t.Errorf("wrote outside: %v", ents)
	}
	// A workspace that is itself a symlink.
	proj2 := filepath.Join(base, "q")
	writeTree(t, base, "q/go.mod", "q/.taskctl -> ../elsewhere")
	p2 := open(t, project.Options{WorkingDir: proj2})
	if _, err := p2.EnsureWorkspace(); err == nil {
		t.Error("symlinked .taskctl: no error")
	}
}

func TestWalk(t *testing.T) {
	base := realTemp(t)
	writeTree(t, base, "p/go.mod", "p/b.go", "p/a/z.go", "p/a/.env = K=1\n", "p/link.go -> b.go", "p/out -> ../o.txt", "o.txt",
		"p/.gitignore = *.tmp\n", "p/x.tmp", "p/node_modules/m.js", "p/big = "+strings.Repeat("x", 100))
	pol := root.DefaultPolicy()
	pol.MaxFileBytes = 50
	p := open(t, project.Options{WorkingDir: filepath.Join(base, "p"), Policy: pol})
	var got []string
	err := p.Walk(bg, func(c project.Candidate, info os.FileInfo) error {
		got = append(got, c.Rel)
		if c.Path != filepath.Join(p.Dir(), c.Rel) || info.Size() > 50 {
			t.Errorf("Walk: %+v size %d", c, info.Size())
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// link.go is b.go at its real path, listed once; out leads outside; big is over the cap.
	if s := strings.Join(got, " "); s != ".gitignore a/z.go b.go go.mod" {
		t.Errorf("Walk = %s", s)
	}
	ctx, cancel := context.WithCancel(bg)
	cancel()
	if err := p.Walk(ctx, func(project.Candidate, os.FileInfo) error { return nil }); err == nil {
		t.Error("Walk with a cancelled context: no error")
	}
	if _, warns := p.Expand(ctx, []string{"**"}); len(warns) == 0 {
		t.Error("Expand with a cancelled context: no warning")
	}
}

func TestGlobCharsInNames(t *testing.T) {
	dir := realTemp(t)
	writeTree(t, dir, "package.json = {}", "app/[id]/page.tsx", "app/i/page.tsx", "a{b}.txt", "what?.md")
	p := open(t, project.Options{WorkingDir: dir})
	tests := []struct{ spec, want string }{
		{"app/[id]/page.tsx", "app/[id]/page.tsx"}, // exists literally: taken literally
		{"app/[i]/page.tsx", "app/i/page.tsx"},
		{"app/[id]", "app/[id]/page.tsx"},
		{"a{b}.txt", "a{b}.txt"},
		{"what?.md", "what?.md"},
		{"*.txt", "a{b}.txt"},
	}
	for _, tt := range tests {
		cands, warns := p.Expand(bg, []string{tt.spec})
		if got := strings.Join(rels(cands), " "); got != tt.want {
			t.Errorf("Expand(%q) = %q %v, want %q", tt.spec, got, codes(warns), tt.want)
		}
	}
}

func TestWalkedNamesChecked(t *testing.T) {
	dir := realTemp(t)
	writeTree(t, dir, "go.mod", "ok.txt", "bad\nname.txt", "bad\x01dir/x.txt", "rtl\u202etxt.exe", "nonutf8\xff")
	p := open(t, project.Options{WorkingDir: dir})
	cands, warns := p.Expand(bg, []string{"**"})
	if got := strings.Join(rels(cands), " "); got != "go.mod ok.txt" {
		t.Errorf("Expand(**) = %q", got)
	}
	n := 0
	for _, w := range warns {
		if w.Code == diag.PathInvalid {
			n++
		}
	}
	if n != 4 {
		t.Errorf("want 4 PATH_INVALID warnings, got %v", warns)
	}
}

// TestIgnoreFileSymlinks: the walk reads each directory's .gitignore below
// the project dir. One that is a symlink to a file inside the project is
// read (as before openat2 read them: the os.Root follows it); one that
// leads out of the project is not, and the walk says so.
func TestIgnoreFileSymlinks(t *testing.T) {
	base := realTemp(t)
	writeTree(t, base, "p/go.mod", "p/rules = *.log\n", "p/in/.gitignore -> ../rules", "p/in/a.log", "p/in/a.go",
		"outside = *.go\n", "p/out/.gitignore -> ../../outside", "p/out/b.go", "p/out/b.log",
		"p/deep/er/still/.gitignore = *.tmp\n", "p/deep/er/still/c.tmp", "p/deep/er/still/c.go")
	p := open(t, project.Options{WorkingDir: filepath.Join(base, "p")})
	var got []string
	if err := p.Walk(bg, func(c project.Candidate, _ os.FileInfo) error {
		got = append(got, c.Rel)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	want := "deep/er/still/.gitignore deep/er/still/c.go go.mod in/a.go out/b.go out/b.log rules"
	if s := strings.Join(got, " "); s != want {
		t.Errorf("Walk = %s\nwant   %s", s, want)
	}
	errs := p.IgnoreErrors()
	if len(errs) != 1 || !strings.Contains(errs[0].Error(), "out/.gitignore") {
		t.Errorf("ignore errors %v, want one for out/.gitignore", errs)
	}
}
