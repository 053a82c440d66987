package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

const outsideSecret = "SECRET-OUTSIDE-7f3a"

// hostileProject builds <tmp>/proj with a few real files and hostile links,
// and <tmp>/proj-evil/secret (a sibling sharing the prefix) holding
// outsideSecret. It returns the project dir.
func hostileProject(t *testing.T) string {
	t.Helper()
	base := t.TempDir()
	proj := filepath.Join(base, "proj")
	evil := filepath.Join(base, "proj-evil")
	for _, d := range []string{proj, evil, filepath.Join(proj, "src", "sub"), filepath.Join(proj, ".git")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write := func(p, s string) {
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(evil, "secret"), outsideSecret+"\n")
	write(filepath.Join(base, "outside.txt"), outsideSecret+"\n")
	write(filepath.Join(proj, "src", "a.py"), "print('inside')\n")
	write(filepath.Join(proj, "src", "sub", "b.py"), "print('inside b')\n")
	links := map[string]string{
		"src/abs_link":        filepath.Join(evil, "secret"),
		"src/rel_link_out":    "../../proj-evil/secret",
		"src/dir_link_out":    evil,
		"src/rel_dir_out":     "../../proj-evil",
		"src/rel_link_inside": "a.py",
		"loop1":               "loop2",
		"loop2":               "loop1",
		"self":                "self",
		"proc_link":           "/proc/self/environ",
		"zero_link":           "/dev/zero",
		"etc_link":            "/etc/passwd",
		"chain_out1":          "chain_out2",
		"chain_out2":          filepath.Join(base, "outside.txt"),
	}
	for l, target := range links {
		if err := os.Symlink(target, filepath.Join(proj, l)); err != nil {
			t.Fatal(err)
		}
	}
	if err := syscall.Mkfifo(filepath.Join(proj, "fifo"), 0o644); err != nil {
		t.Fatal(err)
	}
	return proj
}

// TestAssembleHostilePaths runs every hostile path through `taskctl
// assemble` on real files and checks that not one byte from outside the
// project reaches the output, that the run does not fail, and that each
// refusal is a warning with the expected code.
func TestAssembleHostilePaths(t *testing.T) {
	proj := hostileProject(t)
	base := filepath.Dir(proj)
	long := strings.Repeat("a/", 3000) + "x"
	cases := []struct {
		path string
		code string // "" = included
	}{
		{"src/a.py", ""},
		{"./src/a.py", ""},
		{"src//a.py", ""},
		{"src/./a.py", ""},
		{"src/sub/../a.py", ""},
		{"src/rel_link_inside", ""},
		{proj + "/src/a.py", ""},
		{"../proj-evil/secret", "PATH_OUTSIDE_PROJECT"},
		{"src/../../proj-evil/secret", "PATH_OUTSIDE_PROJECT"},
		{"../../../../../../etc/passwd", "PATH_OUTSIDE_PROJECT"},
		{"/etc/passwd", "PATH_OUTSIDE_PROJECT"},
		{base + "/proj-evil/secret", "PATH_OUTSIDE_PROJECT"},
		{proj + "/../proj-evil/secret", "PATH_OUTSIDE_PROJECT"},
		{base + "/outside.txt", "PATH_OUTSIDE_PROJECT"},
		{"src/abs_link", "PATH_OUTSIDE_PROJECT"},
		{"src/rel_link_out", "PATH_OUTSIDE_PROJECT"},
		{"src/dir_link_out/secret", "PATH_OUTSIDE_PROJECT"},
		{"src/rel_dir_out/secret", "PATH_OUTSIDE_PROJECT"},
		{"chain_out1", "PATH_OUTSIDE_PROJECT"},
		{"proc_link", "PATH_OUTSIDE_PROJECT"},
		{"zero_link", "PATH_OUTSIDE_PROJECT"},
		{"etc_link", "PATH_OUTSIDE_PROJECT"},
		{"/proc/self/environ", "PATH_OUTSIDE_PROJECT"},
		{"/proc/self/root/etc/passwd", "PATH_OUTSIDE_PROJECT"},
		{"/dev/zero", "PATH_OUTSIDE_PROJECT"},
		{"/dev/stdin", "PATH_OUTSIDE_PROJECT"},
		{"/", "PATH_OUTSIDE_PROJECT"},
		{"fifo", "PATH_SPECIAL_FILE"},
		{"loop1", "*"},
		{"self", "*"},
		{"%2e%2e/%2e%2e/etc/passwd", "PATH_NOT_FOUND"},
		{"..%2fproj-evil%2fsecret", "PATH_NOT_FOUND"},
		{"....//....//etc/passwd", "PATH_NOT_FOUND"},
		{`..\..\etc\passwd`, "PATH_INVALID"},
		{`C:\Windows\win.ini`, "PATH_INVALID"},
		{`\\?\C:\x`, "PATH_INVALID"},
		{"~/.ssh/id_rsa", "PATH_NOT_FOUND"},
		{"$HOME/.bashrc", "PATH_NOT_FOUND"},
		{"src/ａ.py", "PATH_NOT_FOUND"},
		{"．．／proj-evil/secret", "PATH_NOT_FOUND"},
		{"..∕proj-evil∕secret", "PATH_NOT_FOUND"},
		{"src/a.py/", "*"},
		{long, "*"},
		{strings.Repeat("b", 300), "*"},
		{".git/config", "*"},
	}
	for _, tc := range cases {
		name := tc.path
		if len(name) > 40 {
			name = name[:40]
		}
		t.Run(fmt.Sprintf("%q", name), func(t *testing.T) {
			dir := t.TempDir()
			tpl := filepath.Join(dir, "t.xml")
			var b strings.Builder
			b.WriteString("<task name=\"h\"><description>hostile</description><file_paths><path>")
			xmlEscape(&b, tc.path)
			b.WriteString("</path></file_paths></task>")
			if err := os.WriteFile(tpl, []byte(b.String()), 0o644); err != nil {
				t.Fatal(err)
			}
			var stdout, stderr bytes.Buffer
			code := run(context.Background(), []string{"--project-dir", proj, "--cwd", proj, "--output", "json",
				"assemble", tpl, "--tokenizer", "none"}, strings.NewReader(""), &stdout, &stderr)
			out := stdout.String() + stderr.String()
			if strings.Contains(out, outsideSecret) {
				t.Fatalf("outside content leaked for %q:\n%s", tc.path, out)
			}
			if strings.Contains(out, "root:x:0:0") {
				t.Fatalf("/etc/passwd leaked for %q", tc.path)
			}
			if code != exitOK {
				t.Fatalf("exit %d for %q, want 0 (refusals are warnings)\n%s", code, tc.path, out)
			}
			var env struct {
				Data struct {
					Files []struct{ Path, Content string }
				}
				Warnings []struct{ Code, Message, Path string }
			}
			if err := json.Unmarshal(stdout.Bytes(), &env); err != nil {
				t.Fatalf("bad json: %v\n%s", err, stdout.String())
			}
			if tc.code == "" {
				if len(env.Data.Files) != 1 || !strings.HasPrefix(env.Data.Files[0].Path, proj+"/") {
					t.Fatalf("%q: files = %+v, warnings = %+v; want one file inside %s", tc.path, env.Data.Files, env.Warnings, proj)
				}
				if !strings.Contains(env.Data.Files[0].Content, "inside") {
					t.Fatalf("%q: content = %q", tc.path, env.Data.Files[0].Content)
				}
				return
			}
			if len(env.Data.Files) != 0 {
				t.Fatalf("%q: included %+v, want refusal %s", tc.path, env.Data.Files, tc.code)
			}
			if len(env.Warnings) == 0 {
				t.Fatalf("%q: no warning, want %s", tc.path, tc.code)
			}
			if tc.code != "*" && env.Warnings[0].Code != tc.code {
				t.Fatalf("%q: warning %+v, want code %s", tc.path, env.Warnings[0], tc.code)
			}
		})
	}
}

func xmlEscape(b *strings.Builder, s string) {
	for _, r := range s {
		switch r {
		case '<':
			b.WriteString("&lt;")
		case '&':
			b.WriteString("&amp;")
		default:
			b.WriteRune(r)
		}
	}
}

// TestAssembleSwapRace swaps src/swap.txt between a file inside and
// symlinks to outside (a file, relative and absolute, and a directory)
// while `taskctl assemble` runs again and again, naming it literally, by
// glob and through a command: the outside content never reaches the
// output, whatever the interleaving.
func TestAssembleSwapRace(t *testing.T) {
	proj := hostileProject(t)
	base := filepath.Dir(proj)
	target := filepath.Join(proj, "src", "swap.txt")
	if err := os.WriteFile(target, []byte("inside swap\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tpl := filepath.Join(base, "swap.xml")
	if err := os.WriteFile(tpl, []byte(`<task name="swap"><description>swap</description>
<file_paths><path>src/swap.txt</path><path>src/swap*</path><path>src/swap.txt/secret</path></file_paths>
<file_paths source="command"><command>echo src/swap.txt; find src -name 'swap*'</command></file_paths>
</task>`), 0o644); err != nil {
		t.Fatal(err)
	}
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		tmp := target + ".tmp"
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			os.Remove(tmp)
			switch i % 4 {
			case 0:
				os.WriteFile(tmp, []byte("inside swap\n"), 0o644)
			case 1:
				os.Symlink(filepath.Join(base, "proj-evil", "secret"), tmp)
			case 2:
				os.Symlink("../../proj-evil/secret", tmp)
			case 3:
				os.Symlink("../../proj-evil", tmp)
			}
			os.Rename(tmp, target)
		}
	}()
	runs, inside := 0, 0
	for deadline := time.Now().Add(1500 * time.Millisecond); time.Now().Before(deadline); runs++ {
		var stdout, stderr bytes.Buffer
		code := run(context.Background(), []string{"--project-dir", proj, "--cwd", proj, "--output", "json",
			"assemble", tpl, "--tokenizer", "none"}, strings.NewReader(""), &stdout, &stderr)
		if out := stdout.String() + stderr.String(); strings.Contains(out, outsideSecret) {
			close(stop)
			<-done
			t.Fatalf("run %d: outside content leaked:\n%s", runs, out)
		}
		if code != exitOK {
			t.Errorf("run %d: exit %d\n%s%s", runs, code, stdout.String(), stderr.String())
		}
		if strings.Contains(stdout.String(), "inside swap") {
			inside++
		}
	}
	close(stop)
	<-done
	t.Logf("%d runs, %d with the inside file", runs, inside)
	if inside == 0 {
		t.Error("never assembled the inside file: the test exercised nothing")
	}
}
