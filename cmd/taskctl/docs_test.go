package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

// TestDocsLinked: every page under docs/ is linked from the README, and
// every relative link of the README and of those pages names a file that
// exists (the README is short; the manual is in docs/, findable from it).
func TestDocsLinked(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	pages, err := filepath.Glob("../../docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	if len(pages) < 5 {
		t.Fatalf("only %d pages under docs/: the glob is broken", len(pages))
	}
	for _, page := range pages {
		if !strings.Contains(string(readme), "](docs/"+filepath.Base(page)+")") {
			t.Errorf("README does not link docs/%s", filepath.Base(page))
		}
	}
	link := regexp.MustCompile(`\]\(([^)#\s]+)(?:#[^)\s]*)?\)`)
	checked := 0
	for _, file := range append([]string{"../../README.md"}, pages...) {
		text, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range link.FindAllStringSubmatch(string(text), -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			checked++
			if _, err := os.Stat(filepath.Join(filepath.Dir(file), target)); err != nil {
				t.Errorf("%s links %s, which does not exist", file, target)
			}
		}
	}
	if checked < len(pages) {
		t.Fatalf("checked %d links for %d pages: the scan is broken", checked, len(pages))
	}
}

// docBlock is one shell block of the documentation: where it is and its
// lines, as a script.
type docBlock struct {
	file   string // relative to the repository
	line   int    // of the opening fence
	script string
}

// docBlocks returns the ```sh blocks of the README and docs/*.md that run
// taskctl, made runnable in the fixture of TestDocExamples: "go run
// ./cmd/taskctl" is taskctl, "cd your-project" stays in the fixture, a path
// under /tmp/ is under $WORK/tmp/, RUN_ID
// is the newest run of the project, and what needs more than this machine
// gives a test (./scripts/setup, go install, go test, npx, a watcher left
// running in the background) is left out, line by line.
func docBlocks(t *testing.T) []docBlock {
	t.Helper()
	pages, err := filepath.Glob("../../docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	var blocks []docBlock
	runsTaskctl := regexp.MustCompile(`(?m)(^|[|;&(]\s*)taskctl\s`)
	for _, file := range append([]string{"../../README.md"}, pages...) {
		text, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		var cur *docBlock
		var lines []string
		for i, line := range strings.Split(string(text), "\n") {
			switch {
			case cur == nil && (line == "```sh" || line == "```bash" || line == "```shell"):
				cur, lines = &docBlock{file: strings.TrimPrefix(file, "../../"), line: i + 1}, nil
			case cur != nil && strings.HasPrefix(line, "```"):
				cur.script = strings.Join(lines, "\n")
				// The worked example of examples/gofix builds a Go test
				// binary with a cold cache twice (a minute): TestExamples
				// runs those commands (testdata/example/gofix.txtar).
				gofix := strings.Contains(cur.script, "examples/gofix")
				if !gofix && (runsTaskctl.MatchString(cur.script) || strings.Contains(cur.script, "go run ./cmd/taskctl")) {
					blocks = append(blocks, *cur)
				}
				cur = nil
			case cur != nil:
				if l := runnable(line); l != "" {
					lines = append(lines, l)
				}
			}
		}
	}
	return blocks
}

// runnable is a documentation line as the fixture runs it, or "" to skip.
func runnable(line string) string {
	l := strings.TrimSpace(line)
	l = strings.TrimPrefix(l, "./scripts/setup && ")
	l = strings.ReplaceAll(l, "go run ./cmd/taskctl", "taskctl")
	l = strings.ReplaceAll(l, "/tmp/", "$WORK/tmp/")
	l = strings.ReplaceAll(l, "cd your-project", "cd .") // the fixture is the project
	l = strings.ReplaceAll(l, "RUN_ID", "$(ls examples/demo/.taskctl/runs | tail -n 1)")
	for _, skip := range []string{"./scripts/", "go install", "go test", "npx ", "TASKCTL_INSPECTOR"} {
		if strings.HasPrefix(l, skip) {
			return ""
		}
	}
	if strings.HasSuffix(stripComment(l), "&") {
		return "" // a watcher left running
	}
	return l
}

// stripComment is l without a trailing "# comment" outside quotes.
func stripComment(l string) string {
	var quote rune
	for i, r := range l {
		switch {
		case quote != 0:
			if r == quote {
				quote = 0
			}
		case r == '\'' || r == '"':
			quote = r
		case r == '#' && i > 0 && (l[i-1] == ' ' || l[i-1] == '\t'):
			return strings.TrimSpace(l[:i])
		}
	}
	return strings.TrimSpace(l)
}

// TestDocExamples runs every shell block of the README and docs/ that runs
// taskctl, in order, in one fixture project (a git repository with Go and
// Python sources, docs, a task library and the repository's examples/),
// each block as one "sh -e" script: a documented example that stops
// working (a flag renamed, a command that now fails, a path that moved)
// fails the test, naming the page and line of its block.
func TestDocExamples(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the documentation's examples")
	}
	blocks := docBlocks(t)
	if len(blocks) < 10 {
		t.Fatalf("only %d blocks found: the scan is broken", len(blocks))
	}
	var script strings.Builder
	script.WriteString("cd proj\n")
	for i, b := range blocks {
		fmt.Fprintf(&script, "\n# %s:%d\nexec sh -ex ../blocks/%02d.sh\n", b.file, b.line, i)
	}
	script.WriteString("\n-- proj/.keep --\n")
	for i, b := range blocks {
		fmt.Fprintf(&script, "-- blocks/%02d.sh --\n# %s:%d\n%s\n", i, b.file, b.line, b.script)
	}
	script.WriteString(docFixture)
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "docs.txtar"), []byte(script.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	examples, err := filepath.Abs("../../examples")
	if err != nil {
		t.Fatal(err)
	}
	testscript.Run(t, testscript.Params{
		Dir:                 dir,
		RequireExplicitExec: true,
		Setup: func(env *testscript.Env) error {
			env.Setenv("HOME", filepath.Join(env.WorkDir, "home"))
			env.Setenv("XDG_CONFIG_HOME", filepath.Join(env.WorkDir, "home", ".config"))
			env.Setenv("NO_COLOR", "1")
			env.Setenv("GIT_CONFIG_NOSYSTEM", "1")
			env.Setenv("GIT_CONFIG_GLOBAL", "/dev/null")
			proj := filepath.Join(env.WorkDir, "proj")
			for _, d := range []string{"home", "tmp"} {
				if err := os.MkdirAll(filepath.Join(env.WorkDir, d), 0o755); err != nil {
					return err
				}
			}
			if out, err := exec.Command("cp", "-r", examples, filepath.Join(proj, "examples")).CombinedOutput(); err != nil {
				return fmt.Errorf("copy examples: %v: %s", err, out)
			}
			if out, err := exec.Command("cp", "-r", examples, filepath.Join(env.WorkDir, "examples")).CombinedOutput(); err != nil {
				return fmt.Errorf("copy examples: %v: %s", err, out)
			}
			// A git repository with one change, for "git diff --name-only |".
			for _, a := range [][]string{
				{"init", "-q"},
				{"-c", "user.email=t@example.com", "-c", "user.name=t", "add", "-A"},
				{"-c", "user.email=t@example.com", "-c", "user.name=t", "commit", "-q", "-m", "init"},
			} {
				cmd := exec.Command("git", a...)
				cmd.Dir = proj
				if out, err := cmd.CombinedOutput(); err != nil {
					return fmt.Errorf("git %v: %v: %s", a, err, out)
				}
			}
			return os.WriteFile(filepath.Join(proj, "src", "main.go"), []byte("package main\n\n// TODO: wire the session check.\nfunc main() {}\n"), 0o644)
		},
	})
}

// docFixture is the project the examples run in (and the files the
// examples name: bug-report.txt, the review task, src/).
const docFixture = `-- proj/README.md --
# proj

A small service with session cookies.
-- proj/src/main.go --
package main

func main() {}
-- proj/src/main_test.go --
package main
-- proj/src/app.py --
from auth.session import expire_session
-- proj/src/auth/session.py --
def expire_session(cookie):
    """Session cookie expiry and signing: expire the session when the cookie is old."""
    return cookie  # TODO: check the signature
-- proj/tests/test_session.py --
def test_expiry(): pass
-- proj/docs/sessions.md --
# Sessions

Session handling: the cookie signing and its expiry.
-- proj/bug-report.txt --
Sessions never expire

The session cookie expiry is ignored: expire_session in src/auth/session.py returns the cookie unchanged.
-- proj/.taskctl/tasks/review.xml --
<tasks>
  <task name="review">
    <description>Review the code under {{area}}</description>
    <inputs><input name="area" default="src">directory to review</input></inputs>
    <file_paths><path>src/**/*.go</path></file_paths>
    <file_paths source="description" limit="3"><description>session handling</description></file_paths>
  </task>
</tasks>
`
