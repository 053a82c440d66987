package shellexec_test

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/taskctl/taskctl/internal/diag"
	"github.com/taskctl/taskctl/shellexec"
)

func bigFiles() map[string]string {
	files := map[string]string{}
	for k, v := range fixtureFiles {
		files[k] = v
	}
	files["big/lines.txt"] = strings.Repeat("line\n", 300000) // 1.5 MB
	return files
}

func TestCaps(t *testing.T) {
	_, cfg := project(t, bigFiles())
	cfg.MaxStdoutBytes = 64 << 10
	cfg.MaxStdoutLines = 100
	for _, tt := range []struct {
		script    string
		truncated bool
		maxBytes  int
	}{
		{`cat big/lines.txt`, true, 500},
		{`echo "$(cat big/lines.txt)" | wc -l`, true, 100},
		{`for x in $(cat big/lines.txt); do echo $x; done`, true, 500},
		{`grep -c line big/lines.txt`, false, 100},
		{`head -100 big/lines.txt`, false, 500},
		{`head -101 big/lines.txt`, true, 500},
		{`printf '%4096s\n' a b c d e f g h i j | cat`, false, 64 << 10},
		{`printf '%4096s\n' a b c d e f g h i j k l m n o p q r s t u v w x y z | cat`, true, 64 << 10},
	} {
		res, err := run(t, tt.script, cfg)
		if err != nil {
			t.Errorf("Run(%q): %v", tt.script, err)
			continue
		}
		if res.Truncated != tt.truncated || len(res.Stdout) > tt.maxBytes {
			t.Errorf("Run(%q): truncated=%v, %d bytes; want truncated=%v, at most %d bytes", tt.script, res.Truncated, len(res.Stdout), tt.truncated, tt.maxBytes)
		}
		if tt.truncated && (len(res.Warnings()) == 0 || res.Warnings()[0].Code != diag.CommandOutputTruncated) {
			t.Errorf("Run(%q): warnings %+v, want %s", tt.script, res.Warnings(), diag.CommandOutputTruncated)
		}
	}
}

func TestTimeout(t *testing.T) {
	_, cfg := project(t, fixtureFiles)
	cfg.Timeout = 300 * time.Millisecond
	res, err := run(t, `for a in {1..1000}; do for b in {1..1000}; do for c in {1..1000}; do :; done; done; done`, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if !res.TimedOut {
		t.Fatalf("TimedOut = false, status %d", res.ExitStatus)
	}
	ws := res.Warnings()
	if len(ws) != 1 || ws[0].Code != diag.CommandTimeout {
		t.Errorf("Warnings() = %+v, want one %s", ws, diag.CommandTimeout)
	}
}

func TestDeniedPosition(t *testing.T) {
	_, cfg := project(t, fixtureFiles)
	for _, tt := range []struct{ script, want string }{
		{"ls\necho hi > out", "2:9: output redirection (>) is not allowed"},
		{"ls | rm x", "1:6: command rm is not allowed"},
		{"ls; eval x", "1:5: builtin eval is not allowed"},
		{"cat <(ls)", "1:5: process substitution is not allowed"},
		{"ls &", "1:1: background job (&) is not allowed"},
		{"echo $(ls; rm -f x)", "1:12: command rm is not allowed"},
		{"find . -delete", "1:1: find -delete is not allowed"},
		{"f() { ls; }", "1:1: function definition is not allowed"},
		{"while true; do ls; done", "1:1: while loop is not allowed"},
		{"ls |", "1:4: unparsable script"},
		{"cmd=rm; $cmd x", "1:1: assignment is not allowed"},
	} {
		res, err := run(t, tt.script, cfg)
		d, ok := errors.AsType[*shellexec.DeniedError](err)
		if !ok || !strings.HasPrefix(d.Error(), tt.want) {
			t.Errorf("Run(%q) = %v, want an error starting %q", tt.script, err, tt.want)
			continue
		}
		if w := shellexec.WarningFor(err); w.Code != diag.CommandDenied {
			t.Errorf("WarningFor(%v).Code = %s", err, w.Code)
		}
		if res == nil {
			t.Errorf("Run(%q) returned a nil Result", tt.script)
		}
	}
}

func TestRecordsAndWarnings(t *testing.T) {
	dir, cfg := project(t, fixtureFiles)
	for _, tt := range []struct {
		script   string
		records  []shellexec.Record
		status   int
		warnings []diag.Code
	}{
		{`(cd src && find . -name 'a*.py'); ls go.mod`,
			[]shellexec.Record{{Text: "./app.py", Dir: filepath.Join(dir, "src")}, {Text: "go.mod", Dir: dir}}, 0, nil},
		{`find src -name '*.json' -print0`,
			[]shellexec.Record{{Text: "src/pkg/data.json", Dir: dir}}, 0, nil},
		{`grep -l nomatch -r src`, nil, 1, nil},
		{`find . -name '*.py' | grep nomatch`, nil, 1, nil},
		{`grep -l x missing.txt`, nil, 2, []diag.Code{diag.CommandFailed}},
		{`ls missing`, nil, 2, []diag.Code{diag.CommandFailed}},
		{`grep nomatch data/words.txt; true`, nil, 0, nil},
		{`(cd docs && ls guide.md)`, []shellexec.Record{{Text: "guide.md", Dir: filepath.Join(dir, "docs")}}, 0, nil},
		{`echo $(cd docs && ls guide.md)`, []shellexec.Record{{Text: "guide.md", Dir: dir}}, 0, nil},
		// CRLF lines end at the CR (a list written on Windows); a CR
		// elsewhere is kept.
		{`printf 'go.mod\r\nsrc/app.py\r\na\rb\n'`,
			[]shellexec.Record{{Text: "go.mod", Dir: dir}, {Text: "src/app.py", Dir: dir}, {Text: "a\rb", Dir: dir}}, 0, nil},
	} {
		res, err := run(t, tt.script, cfg)
		if err != nil {
			t.Errorf("Run(%q): %v", tt.script, err)
			continue
		}
		if !equalRecords(res.Records, tt.records) || res.ExitStatus != tt.status {
			t.Errorf("Run(%q) = %+v status %d, want %+v status %d", tt.script, res.Records, res.ExitStatus, tt.records, tt.status)
		}
		var codes []diag.Code
		for _, w := range res.Warnings() {
			codes = append(codes, w.Code)
		}
		if !slices.Equal(codes, tt.warnings) {
			t.Errorf("Run(%q).Warnings() = %v, want %v", tt.script, codes, tt.warnings)
		}
	}
}

func equalRecords(a, b []shellexec.Record) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestVars(t *testing.T) {
	_, cfg := project(t, fixtureFiles)
	cfg.Vars = map[string]string{"area": "src; rm -rf / $(touch x)", "ext": "*.py"}
	res, err := run(t, `echo "$area"; find src -name "$ext" | head -1`, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if want := "src; rm -rf / $(touch x)\nsrc/util.py\n"; string(res.Stdout) != want {
		t.Errorf("stdout = %q, want %q", res.Stdout, want)
	}
	cfg.Vars = map[string]string{"PATH": "/bin"}
	if _, err := run(t, `ls`, cfg); err == nil {
		t.Errorf("a task input named PATH was accepted")
	}
}

func TestCancel(t *testing.T) {
	_, cfg := project(t, fixtureFiles)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res, err := shellexec.Run(ctx, `find .`, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if res.ExitStatus == 0 {
		t.Errorf("a cancelled run succeeded: %+v", res)
	}
}

// TestVet: Vet refuses what Run refuses before running anything, and lets
// through what Run would run.
func TestVet(t *testing.T) {
	for _, script := range []string{`rm -rf .`, `echo x > out`, `echo "open`, `eval ls`, `cat x | tee y`} {
		var d *shellexec.DeniedError
		if err := shellexec.Vet(script); !errors.As(err, &d) {
			t.Errorf("Vet(%q) = %v, want a *DeniedError", script, err)
		}
	}
	for _, script := range []string{`grep -rl TODO "$area" | sort`, `find . -name '*.go' -print0`, `git ls-files '*.go'`} {
		if err := shellexec.Vet(script); err != nil {
			t.Errorf("Vet(%q) = %v, want nil", script, err)
		}
	}
}

// TestWarningsForStderr: a pipeline whose failing command is not the last
// ends with status 0 (or grep's 1, no match); what the failing command
// wrote to stderr is then a COMMAND_FAILED warning, not a silent empty
// result. 2>/dev/null silences it; a clean run gives no warning.
func TestWarningsForStderr(t *testing.T) {
	_, cfg := project(t, map[string]string{"a.py": "x\n"})
	for _, tc := range []struct {
		script string
		want   string // in the one warning's message, or "" for none
	}{
		{"find nosuchdir -name x | sort", "though the command's status is 0: find: 'nosuchdir': No such file or directory"},
		{"cat nofile | grep -c x", "cat: nofile: No such file or directory"},
		{"cat nofile | grep x", "though the command's status is 1: cat: nofile"},
		{"find nosuchdir -name x 2>/dev/null | sort", ""},
		{"find . -name '*.py' | sort", ""},
		{"grep nomatch a.py", ""},
	} {
		res, err := run(t, tc.script, cfg)
		if err != nil {
			t.Fatalf("%s: %v", tc.script, err)
		}
		ws := res.Warnings()
		switch {
		case tc.want == "" && len(ws) != 0:
			t.Errorf("%s: warnings %+v, want none", tc.script, ws)
		case tc.want != "" && (len(ws) != 1 || ws[0].Code != diag.CommandFailed || !strings.Contains(ws[0].Message, tc.want)):
			t.Errorf("%s: warnings %+v, want one %s saying %q", tc.script, ws, diag.CommandFailed, tc.want)
		}
	}
}
