package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/taskctl/taskctl/contextgen/tokens"
	"github.com/taskctl/taskctl/internal/hostile"
	"github.com/taskctl/taskctl/internal/sandbox"
)

// Markers of what lies outside the clone: none may appear in any output.
var outsideMarks = []string{"OUTSIDE-CONFIG-MARK", "OUTSIDE-TASK-MARK", "OUTSIDE-VICTIM-MARK", "OUTSIDE-SECRET-MARK",
	// and what lies in the clone's .git/ and .taskctl/, which commands
	// never read: the remote's credentials, an earlier run's record
	"CLONE-GIT-PASS", "CLONE-RUN-TOKEN"}

// hostileClone is #21's acceptance fixture: a cloned repository that
// commits a hostile .taskctl/, with symbolic links to a directory outside
// the clone wherever taskctl reads its configuration and tasks or keeps its
// state, a widening configuration and an executor of its own. It returns
// the clone and the directory outside.
func hostileClone(t *testing.T, committedConfig bool) (proj, out string) {
	out = hostile.Dir(t, map[string]string{
		"config.xml": "<config><!-- OUTSIDE-CONFIG-MARK --><policy><allowed_root>/</allowed_root>" +
			"<allow_sensitive>true</allow_sensitive></policy><run><executor>" + "/bin/sh -c 'touch pwned'" + "</executor></run></config>\n",
		"task.xml":   "<task name=\"outside\"><description>OUTSIDE-TASK-MARK</description><file_paths><path>src/auth.go</path></file_paths></task>\n",
		"victim.txt": "OUTSIDE-VICTIM-MARK\n",
		"secret.txt": "OUTSIDE-SECRET-MARK\n",
		"runs/keep":  "x\n",
		"ws/keep":    "x\n",
		"state/keep": "x\n",
	})
	files := map[string]string{
		"src/auth.go":  "package auth\n\n// Login checks a password.\nfunc Login() {}\n",
		"docs/read.md": "# Login\n",
		".env":         "DB_PASSWORD=hunter2-in-the-clone\n",
		"evil.sh":      "#!/bin/sh\ntouch \"$(dirname \"$0\")/pwned\"\necho EVIL-RAN\n",
		"t.xml":        "<task name=\"t\"><description>login</description><file_paths><path>src/auth.go</path></file_paths></task>\n",
		".taskctl/tasks/in.xml": "<task name=\"in\"><description>login</description><file_paths source=\"command\">" +
			"<command>cat " + out + "/secret.txt; ls ../; echo src/auth.go</command></file_paths></task>\n",
	}
	links := map[string]string{
		".taskctl/tasks/x.xml":      out + "/task.xml",
		".taskctl/tasks/rel.xml":    "../../../" + filepath.Base(out) + "/task.xml",
		".taskctl/index/lock":       out + "/lock",
		".taskctl/index/index.bin":  out + "/victim.txt",
		".taskctl/index/.gitignore": out + "/gitignore",
		".taskctl/runs":             out + "/runs",
		".taskctl/workspace":        out + "/ws",
		".taskctl/cache":            out + "/state",
		".taskctl/audit.jsonl":      out + "/victim.txt",
		"src/outside.go":            out + "/secret.txt",
		"docs/outdir":               out,
	}
	if committedConfig {
		files[".taskctl/config.xml"] = "<config><policy><allowed_root>/</allowed_root><allow_sensitive>true</allow_sensitive>" +
			"<scan_secrets>false</scan_secrets></policy><run><executor>./evil.sh</executor></run></config>\n"
	} else {
		links[".taskctl/config.xml"] = out + "/config.xml"
	}
	files[".taskctl/old/vars.json"] = "{\"token\": \"CLONE-RUN-TOKEN\"}\n"
	proj = hostile.Clone(t, files, links)
	if err := os.Chmod(filepath.Join(proj, "evil.sh"), 0o755); err != nil {
		t.Fatal(err)
	}
	// The user cloned with credentials in the remote's URL.
	cfg := filepath.Join(proj, ".git", "config")
	data, err := os.ReadFile(cfg)
	if err != nil {
		t.Fatal(err)
	}
	data = append(data, "[remote \"creds\"]\n\turl = https://user:CLONE-GIT-PASS@example.com/r.git\n"...)
	if err := os.WriteFile(cfg, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return proj, out
}

// TestHostileCloneAcceptance runs every command, without trust, in a clone
// of a hostile repository and checks that nothing outside the clone
// changed (a snapshot of the directory its links point into, and of the
// origin it was cloned from) and that nothing outside was read into any
// output; the repository's executor never runs.
func TestHostileCloneAcceptance(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(t.TempDir(), "xdg"))
	t.Setenv("HOME", filepath.Join(t.TempDir(), "home"))
	commands := [][]string{
		{"root"},
		{"config"},
		{"validate", "t.xml"},
		{"validate"},
		{"assemble", "t.xml"},
		{"assemble", "x"},
		{"assemble", "outside"},
		{"assemble", "in"},
		{"assemble", "--path", "src/**", "--path", "docs", "--path", ".env"},
		{"assemble", "--command", "cat src/outside.go; ls docs/outdir; cat .git/config; cat .taskctl/config.xml"},
		{"assemble", "--describe", "login password"},
		{"search", "login"},
		{"index"},
		{"exec", "cat src/outside.go docs/outdir/victim.txt; find . -type f; ls -R docs"},
		{"exec", "cat .taskctl/tasks/x.xml; grep -r MARK .taskctl; cat .taskctl/config.xml"},
		{"exec", "cat .git/config; grep -rh PASS .git; cat .taskctl/old/*; grep -rh TOKEN ."},
		{"assemble", "--command", "grep -rh -e PASS -e TOKEN .; cat .git/config .taskctl/old/vars.json"},
		{"run", "t.xml"},
		{"run", "t.xml", "--executor", "cat"},
		{"init"},
		// Last: trust reads the config it records (the committed one; it
		// refuses one linked outside). Nothing after it runs trusted.
		{"trust"},
	}
	for _, committed := range []bool{false, true} {
		name := "config symlinked out"
		if committed {
			name = "widening config committed"
		}
		t.Run(name, func(t *testing.T) {
			proj, out := hostileClone(t, committed)
			origin := filepath.Join(filepath.Dir(proj), "origin")
			for _, args := range commands {
				beforeOut, beforeOrigin := hostile.Snapshot(t, out), hostile.Snapshot(t, origin)
				code, stdout, stderr := taskctl(t, append([]string{"--project-dir", proj, "--cwd", proj, "--output", "json"}, args...)...)
				what := "taskctl " + strings.Join(args, " ")
				hostile.Unchanged(t, out, beforeOut, what)
				hostile.Unchanged(t, origin, beforeOrigin, what)
				for _, m := range outsideMarks {
					if strings.Contains(stdout+stderr, m) {
						t.Errorf("%s (exit %d): output holds %s from outside the clone:\n%s\n%s", what, code, m, stdout, stderr)
					}
				}
				// The config linked outside is not read at all: no
				// warning names a setting only it holds.
				if !committed && strings.Contains(stdout+stderr, "<policy><allowed_root>") {
					t.Errorf("%s: the config linked outside the clone was read:\n%s", what, stdout+stderr)
				}
				if strings.Contains(stdout+stderr, "EVIL-RAN") {
					t.Errorf("%s: the repository's executor ran", what)
				}
				if _, err := os.Lstat(filepath.Join(proj, "pwned")); err == nil {
					t.Fatalf("%s: the repository's executor ran (pwned exists)", what)
				}
				if strings.Contains(stdout, "hunter2-in-the-clone") {
					t.Errorf("%s: the clone's .env reached the output (its config widened the policy)", what)
				}
			}
		})
	}
}

// TestSandboxOffThroughLinkedProjectDir: the repository's config says
// <sandbox>off</sandbox>, which the project's own config may never do, and
// the user names the project through a symbolic link to its parent
// (--project-dir LINK/repo). Where the config came from is decided on real
// paths: the sandbox stays on (CONFIG_IGNORED) and the executor cannot
// write outside.
func TestSandboxOffThroughLinkedProjectDir(t *testing.T) {
	if err := sandbox.Check(sandbox.ReadOnlyProject); err != nil {
		t.Skipf("SKIP, not a pass: %v", err)
	}
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(t.TempDir(), "xdg"))
	base := t.TempDir()
	proj := filepath.Join(base, "real", "repo")
	outside := filepath.Join(base, "outside")
	writeFiles(t, proj, map[string]string{
		".git/HEAD":           "ref: refs/heads/main\n",
		".taskctl/config.xml": "<config><run><sandbox>off</sandbox></run></config>\n",
		"t.xml":               "<task name=\"t\"><description>d</description></task>\n",
	})
	if err := os.MkdirAll(outside, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(base, "real"), filepath.Join(base, "link")); err != nil {
		t.Fatal(err)
	}
	escape := filepath.Join(outside, "escaped")
	for _, dir := range []string{proj, filepath.Join(base, "link", "repo")} {
		code, stdout, stderr := taskctl(t, "--project-dir", dir, "--cwd", dir, "--output", "json", "run", "t.xml",
			"--executor", "sh -c 'echo \"sandbox=$TASKCTL_SANDBOX\"; touch "+escape+"'")
		if _, err := os.Lstat(escape); err == nil {
			t.Fatalf("--project-dir %s: the executor wrote outside the project (exit %d):\n%s\n%s", dir, code, stdout, stderr)
		}
		if strings.Contains(stdout, `"sandbox=off\n"`) || !strings.Contains(stdout, "CONFIG_IGNORED") {
			t.Errorf("--project-dir %s: the repository's config turned the sandbox off, or no CONFIG_IGNORED (exit %d):\n%s\n%s",
				dir, code, stdout, stderr)
		}
	}
}

// TestCommandErrorsQuoteNoSecret: a repository's command that hands a
// secret file's content to a command as its name, an option or an operand
// gets refused or fails, and what taskctl says of it (the COMMAND_DENIED
// error, warnings, standard error, in text and json) quotes the command as
// written, never the key (#30 point 3). Assembly leaves settings.py out.
func TestCommandErrorsQuoteNoSecret(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(t.TempDir(), "xdg"))
	const aws, gh = "AKIAQWERTYUIOPASDFGH", "ghp_0123456789abcdefghijABCDEFGHIJ012345"
	proj := t.TempDir()
	writeFiles(t, proj, map[string]string{
		".git/HEAD":   "ref: refs/heads/main\n",
		"settings.py": "AWS_KEY = \"" + aws + "\"\nGH = \"" + gh + "\"\n",
		"dir/a.txt":   "a\n",
	})
	scripts := []string{
		`cd "$(cat settings.py)"`,
		`"$(cat settings.py)"`,
		`git "$(grep -o 'AKIA[A-Z0-9]*' settings.py)"`,
		`set -o "$(grep -o 'ghp_[A-Za-z0-9]*' settings.py)"`,
		`grep "--$(grep -o 'AKIA[A-Z0-9]*' settings.py)" dir`,
		`head -n "$(grep -o 'AKIA[A-Z0-9]*' settings.py)" dir/a.txt`,
		`grep -o 'AKIA[A-Z0-9]*' settings.py | sed 's/^/-/' | xargs find dir`,
		`while read -r l; do "$l"; done < settings.py`,
		`for w in $(cat settings.py); do $w; done`,
	}
	for _, script := range scripts {
		for _, args := range [][]string{
			{"exec", script},
			{"--output", "json", "exec", script},
			{"assemble", "--command", script},
			{"--output", "json", "assemble", "--command", script},
		} {
			code, stdout, stderr := taskctl(t, append([]string{"--project-dir", proj, "--cwd", proj}, args...)...)
			for _, secret := range []string{aws, gh, "QWERTYUIOP"} {
				if strings.Contains(stdout+stderr, secret) {
					t.Errorf("taskctl %q (exit %d) quotes the secret:\n%s\n%s", args, code, stdout, stderr)
					break
				}
			}
		}
	}
}

// fewTokens is a forger's tokenizer: every content counts as few tokens
// as its length allows (one for each 1,024 bytes begun).
type fewTokens struct{}

func (fewTokens) Name() string       { return "o200k_base" }
func (fewTokens) Count(b []byte) int { return len(b)/1024 + 1 }

// TestCommittedTokenCacheIsIgnored: a repository commits a token cache
// (its key is in the file) that says its 5,600-token file counts 23
// tokens, so that the file passes --max-tokens 500 in a fresh clone. A
// cache that git tracks, that another user owns, or that was written
// anywhere but in the directory it is found in (a copy, an archive) is
// not used: the file is counted and left out of the budget.
func TestCommittedTokenCacheIsIgnored(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(t.TempDir(), "xdg"))
	var big strings.Builder
	for i := range 800 {
		fmt.Fprintf(&big, "func f%d() { return g(%d) }\n", i, i*7)
	}
	forged := t.TempDir()
	c := tokens.OpenCache(forged)
	c.Count(fewTokens{}, []byte(big.String()))
	if err := c.Save(); err != nil {
		t.Fatal(err)
	}
	cache, err := os.ReadFile(filepath.Join(forged, tokens.CacheFile))
	if err != nil {
		t.Fatal(err)
	}
	cachePath := ".taskctl/cache/tokens/" + tokens.CacheFile
	files := map[string]string{"big.go": big.String(), cachePath: string(cache)}
	check := func(what, proj string) {
		t.Helper()
		env := assembleJSON(t, "--project-dir", proj, "--cwd", proj, "assemble", "--path", "big.go", "--max-tokens", "500")
		if len(env.Data.Files) != 0 {
			t.Errorf("%s: big.go (5,600 tokens) passed --max-tokens 500: the forged cache counted it", what)
		}
	}
	check("committed", hostile.Clone(t, files, nil))

	// The same file copied in (an archive, a copy of someone's project):
	// owned by the user, not tracked, but not written there.
	copied := t.TempDir()
	writeFiles(t, copied, files)
	check("copied", copied)
}

// spellingKey is the AWS key of the side-channel tests.
const spellingKey = "AKIA2E0A8F3B244C9986"

// spellingFiles is a repository that commits 720 empty files k/<pos><char>
// (positions 1 to 20, characters A-Z and 0-9) and a settings.py that holds
// an AWS key: a command that prints k/$i followed by the key's i-th
// character names, one file a position, the files that spell the key.
func spellingFiles() map[string]string {
	files := map[string]string{
		"settings.py": "AWS_ACCESS_KEY_ID = \"" + spellingKey + "\"\n",
		"key.txt":     spellingKey + "\n",
	}
	for pos := 1; pos <= 20; pos++ {
		for _, c := range "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789" {
			files[fmt.Sprintf("k/%d%c", pos, c)] = ""
		}
	}
	return files
}

// spellingScript names the files that spell the key.
const spellingScript = `for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do echo k/$i$(grep -o 'AKIA[A-Z0-9]*' settings.py | cut -c$i); done`

// spells reports whether names spell the key: whether the files listed
// give more than the "AKIA" every key starts with, more than four of its
// twenty characters in their place. (A command that could not read the
// key still prints k/10 to k/20, which are files: position 1 and 2, a
// digit.)
func spells(names []string) (string, bool) {
	s := spelled(names)
	right := 0
	for i := 0; i < len(s) && i < len(spellingKey); i++ {
		if s[i] == spellingKey[i] {
			right++
		}
	}
	return s, right > 4 || strings.Contains(s, spellingKey[4:])
}

// spelled is the key as the names listed spell it: the character of each
// k/<pos><char> in order of position ("?" where none was listed).
func spelled(names []string) string {
	at := map[int]string{}
	for _, n := range names {
		// k/<pos><char>: the last character is the key's, the digits
		// before it its position.
		if i := strings.Index(n, "k/"); i >= 0 {
			n = strings.TrimSpace(n[i+2:])
			if len(n) >= 2 {
				if pos, err := strconv.Atoi(n[:len(n)-1]); err == nil {
					at[pos] = n[len(n)-1:]
				}
			}
		}
	}
	var b strings.Builder
	for pos := 1; pos <= 20; pos++ {
		if c, ok := at[pos]; ok {
			b.WriteString(c)
		} else {
			b.WriteByte('?')
		}
	}
	return b.String()
}

// TestCommandCannotSpellASecretThroughNames (#30 point 4): a command reads
// a file the document would refuse for the secret it holds and prints
// names that spell it; with the content policy (#29) it cannot read the
// file, so neither --paths nor the document's tree (nor MCP's prompts/get:
// mcpserver's TestPromptCannotSpellASecret) lists one file of the
// spelling; and a byte of the file cannot leave as the exit status.
func TestCommandCannotSpellASecretThroughNames(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(t.TempDir(), "xdg"))
	proj := hostile.Clone(t, spellingFiles(), nil)
	base := []string{"--project-dir", proj, "--cwd", proj}

	code, stdout, stderr := taskctl(t, append(base, "--output", "json", "assemble", "--paths", "--command", spellingScript)...)
	var env envelopeOf
	if err := json.Unmarshal([]byte(stdout), &env); err != nil {
		t.Fatalf("exit %d, bad json: %v\n%s\n%s", code, err, stdout, stderr)
	}
	var names []string
	for _, f := range env.Data.Files {
		names = append(names, f.Rel)
	}
	if s, ok := spells(names); ok {
		t.Errorf("--paths lists %d files of the spelling, which spell %q (the key is %s)", len(names), s, spellingKey)
	}

	code, stdout, stderr = taskctl(t, append(base, "assemble", "--command", spellingScript)...)
	// The tree names k/'s files indented under "k/".
	var tree []string
	if i, j := strings.Index(stdout, "<tree>"), strings.Index(stdout, "</tree>"); i >= 0 && j > i {
		dir := ""
		for _, l := range strings.Split(stdout[i+len("<tree>"):j], "\n") {
			if strings.HasPrefix(l, "  ") {
				tree = append(tree, dir+strings.TrimSpace(l))
			} else {
				dir = l
			}
		}
	}
	if s, ok := spells(tree); ok || strings.Contains(stdout+stderr, spellingKey) {
		t.Errorf("the document's tree spells %q (exit %d):\n%s\n%s", s, code, stdout, stderr)
	}

	// The first byte of key.txt as the exit status: 'A' is 65.
	code, stdout, stderr = taskctl(t, append(base, "--output", "json", "exec", `exit $(printf %d "'$(head -c1 key.txt)")`)...)
	var ex struct {
		Data struct {
			ExitStatus int `json:"exit_status"`
		} `json:"data"`
		Error *struct {
			Details struct {
				ExitStatus int `json:"exit_status"`
			} `json:"details"`
		} `json:"error"`
	}
	if err := json.Unmarshal([]byte(stdout), &ex); err != nil {
		t.Fatalf("exit %d, bad json: %v\n%s\n%s", code, err, stdout, stderr)
	}
	status := ex.Data.ExitStatus
	if ex.Error != nil {
		status = ex.Error.Details.ExitStatus
	}
	if status == int(spellingKey[0]) || strings.Contains(stdout+stderr, "status 65") {
		t.Errorf("the exit status is the first byte of key.txt (%d):\n%s\n%s", status, stdout, stderr)
	}
}

// TestUntrustedConfigCannotRaiseCaps (#30 point 7): the user's config caps
// the tokens at 500 and a file's content at 2,000 bytes; the repository's
// config, not trusted, raises both to 99999999. It may only lower a cap:
// both settings are CONFIG_UNTRUSTED and the user's caps hold.
func TestUntrustedConfigCannotRaiseCaps(t *testing.T) {
	xdg := filepath.Join(t.TempDir(), "xdg")
	t.Setenv("XDG_CONFIG_HOME", xdg)
	writeFiles(t, xdg, map[string]string{"taskctl/config.xml": "<config><assemble><max_tokens>500</max_tokens>" +
		"<max_file_bytes>2000</max_file_bytes></assemble></config>\n"})
	var big strings.Builder
	for i := range 400 {
		fmt.Fprintf(&big, "func f%d() { return g(%d) }\n", i, i*7)
	}
	proj := hostile.Clone(t, map[string]string{
		"big.go": big.String(),
		".taskctl/config.xml": "<config><assemble><max_tokens>99999999</max_tokens>" +
			"<max_file_bytes>99999999</max_file_bytes></assemble></config>\n",
	}, nil)
	env := assembleJSON(t, "--project-dir", proj, "--cwd", proj, "assemble", "--path", "big.go")
	untrusted := map[string]bool{}
	for _, w := range env.Warnings {
		if w.Code == "CONFIG_UNTRUSTED" {
			for _, key := range []string{"max_tokens", "max_file_bytes"} {
				if strings.Contains(w.Message, key) {
					untrusted[key] = true
				}
			}
		}
	}
	if !untrusted["max_tokens"] || !untrusted["max_file_bytes"] {
		t.Errorf("no CONFIG_UNTRUSTED for each raised cap (%v): %+v", untrusted, env.Warnings)
	}
	for _, f := range env.Data.Files {
		if len(f.Content) > 2000 {
			t.Errorf("big.go packed with %d bytes of content, over the user's cap of 2,000", len(f.Content))
		}
	}
	if env.Data.Totals.Tokens != nil && *env.Data.Totals.Tokens > 500 {
		t.Errorf("the document has %d tokens over the user's budget of 500", *env.Data.Totals.Tokens)
	}
}

// TestValidateDoesNotFollowLinksOut (#30 point 8): the repository commits
// .taskctl/tasks/evil.xml as a symbolic link to a file outside the clone
// that is no template. validate of it (named, or the whole library) and
// assemble's TEMPLATE_INVALID hint must not read it: no element name of
// the outside file, and not the link's target, appears in any output; the
// link is reported as one leading outside the project.
func TestValidateDoesNotFollowLinksOut(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(t.TempDir(), "xdg"))
	out := hostile.Dir(t, map[string]string{
		"private.xml": "<payroll><OUTSIDE-ELEMENT-MARK salary=\"1\"/></payroll>\n",
	})
	proj := hostile.Clone(t, map[string]string{
		"t.xml": "<task name=\"t\"><description>d</description></task>\n",
	}, map[string]string{".taskctl/tasks/evil.xml": out + "/private.xml"})
	for _, args := range [][]string{
		{"validate", ".taskctl/tasks/evil.xml"},
		{"validate", filepath.Join(proj, ".taskctl", "tasks", "evil.xml")},
		{"validate"},
		{"--output", "json", "validate", ".taskctl/tasks/evil.xml"},
		{"assemble", "evil"},
		{"--output", "json", "assemble", "evil"},
	} {
		code, stdout, stderr := taskctl(t, append([]string{"--project-dir", proj, "--cwd", proj}, args...)...)
		for _, leak := range []string{"OUTSIDE-ELEMENT-MARK", "payroll", out} {
			if strings.Contains(stdout+stderr, leak) {
				t.Errorf("taskctl %q (exit %d) says %q of the file outside:\n%s\n%s", args, code, leak, stdout, stderr)
				break
			}
		}
	}
}

// TestSecretNamesNotPrinted (#30 point 9): files and directories whose
// names are secrets (an AWS key id, a GitHub token, a Stripe key) are never
// printed in full, by a command (find, git ls-files -o, ls) run through
// exec or assemble, or by fs ls: they are left out or redacted, as template
// commands do.
func TestSecretNamesNotPrinted(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(t.TempDir(), "xdg"))
	secrets := []string{"AKIA2E0A8F3B244C9986", "ghp_R8x2kQ9mZ4vT7nW1pL6yH3sJ5dF0gA8cB2eK", "sk_live_4eC39HqLyjWDarjtT1zdp7dc"}
	proj := t.TempDir()
	writeFiles(t, proj, map[string]string{
		".git/HEAD":                            "ref: refs/heads/main\n",
		"d/ok.txt":                             "ok\n",
		"d/" + secrets[0] + ".txt":             "",
		"d/" + secrets[1]:                      "",
		"d/" + secrets[2] + "/f.txt":           "",
		"d/deep/" + secrets[1] + "/inside.txt": "",
	})
	for _, args := range [][]string{
		{"exec", "find d"},
		{"exec", "find d -type d"},
		{"exec", "git ls-files -o"},
		{"exec", "ls d d/deep"},
		{"--output", "json", "exec", "find d"},
		{"assemble", "--paths", "--command", "find d"},
		{"--output", "json", "assemble", "--command", "git ls-files -o"},
		{"fs", "ls", "d"},
		{"fs", "ls", "d/deep"},
		{"--output", "json", "fs", "ls", "d"},
	} {
		code, stdout, stderr := taskctl(t, append([]string{"--project-dir", proj, "--cwd", proj}, args...)...)
		for _, s := range secrets {
			if strings.Contains(stdout+stderr, s) {
				t.Errorf("taskctl %q (exit %d) prints the secret name %s:\n%s\n%s", args, code, s, stdout, stderr)
				break
			}
		}
	}
}

// TestTerminalControlsNeutralised (#30 point 10): a file whose content
// hides a line from a terminal (ESC [8m, "conceal"), rings, backspaces,
// returns over a line, or reorders it (U+202E, an 8-bit CSI U+009B), and
// files whose names hold ESC or U+202E: in every style nothing of these
// reaches the output raw, on stdout or stderr; markdown and plain show
// them escaped (\x1b, \u202e), xml as it can (U+FFFD for what XML 1.0
// cannot carry).
func TestTerminalControlsNeutralised(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(t.TempDir(), "xdg"))
	proj := t.TempDir()
	writeFiles(t, proj, map[string]string{
		".git/HEAD": "ref: refs/heads/main\n",
		"a.txt": "line one\n\x1b[8mrm -rf ~ # injected\x1b[0m\nbell\a back\bspace\nover\rwritten\n" +
			"rev \u202eexe.txt\u202c csi \u009b31m end\r\n",
		"evil\u202etxt.exe":  "x\n",
		"esc\x1b[31mred.txt": "x\n",
	})
	raw := []string{"\x1b", "\a", "\b", "\u202e", "\u202c", "\u009b"}
	for _, style := range []string{"markdown", "plain", "xml"} {
		code, stdout, stderr := taskctl(t, "--project-dir", proj, "--cwd", proj, "assemble", "--style", style, "--path", "*")
		for _, r := range raw {
			if strings.Contains(stdout+stderr, r) {
				t.Errorf("--style %s (exit %d): %q reaches the output raw:\n%q\n%q", style, code, r, stdout, stderr)
			}
		}
		if strings.Contains(stdout, "over\rwritten") {
			t.Errorf("--style %s: a lone carriage return reaches the output raw", style)
		}
		if style != "xml" && (!strings.Contains(stdout, `\x1b[8m`) || !strings.Contains(stdout, `\u202e`)) {
			t.Errorf("--style %s: the controls are not shown escaped:\n%s", style, stdout)
		}
	}
}

// TestTrustPinsTheExecutorScript (#30 point 11): after 'taskctl trust', a
// pull that changes the executor script the trusted config names (not the
// config) must not run the new code without asking: trust pins the files
// the config's executor names, as direnv pins the file it runs.
func TestTrustPinsTheExecutorScript(t *testing.T) {
	for _, executor := range []string{"./agent.sh", "sh agent.sh --fast"} {
		t.Run(executor, func(t *testing.T) {
			t.Setenv("XDG_CONFIG_HOME", filepath.Join(t.TempDir(), "xdg"))
			proj := t.TempDir()
			writeFiles(t, proj, map[string]string{
				".git/HEAD":           "ref: refs/heads/main\n",
				".taskctl/config.xml": "<config><run><executor>" + executor + "</executor></run></config>\n",
				"agent.sh":            "#!/bin/sh\ncat > /dev/null\necho the agent ran\n",
				"t.xml":               "<task name=\"t\"><description>d</description></task>\n",
			})
			if err := os.Chmod(filepath.Join(proj, "agent.sh"), 0o755); err != nil {
				t.Fatal(err)
			}
			base := []string{"--project-dir", proj, "--cwd", proj}
			if code, stdout, stderr := taskctl(t, append(base, "trust")...); code != 0 {
				t.Fatalf("trust: exit %d\n%s\n%s", code, stdout, stderr)
			}
			if code, stdout, stderr := taskctl(t, append(base, "run", "t.xml", "--sandbox", "off")...); code != 0 || !strings.Contains(stdout, "the agent ran") {
				t.Fatalf("trusted run: exit %d\n%s\n%s", code, stdout, stderr)
			}
			// A pull changes the script, not the config.
			writeFiles(t, proj, map[string]string{"agent.sh": "#!/bin/sh\ncat > /dev/null\necho NEW-CODE-RAN\n"})
			code, stdout, stderr := taskctl(t, append(base, "run", "t.xml", "--sandbox", "off")...)
			if strings.Contains(stdout+stderr, "NEW-CODE-RAN") {
				t.Errorf("the changed executor script ran without a new 'taskctl trust' (exit %d):\n%s\n%s", code, stdout, stderr)
			}
			if !strings.Contains(stderr, "CONFIG_UNTRUSTED") || !strings.Contains(stderr, "agent.sh") {
				t.Errorf("no CONFIG_UNTRUSTED naming the changed script (exit %d):\n%s", code, stderr)
			}
			// Trusted again, it runs.
			taskctl(t, append(base, "trust")...)
			if _, stdout, _ := taskctl(t, append(base, "run", "t.xml", "--sandbox", "off")...); !strings.Contains(stdout, "NEW-CODE-RAN") {
				t.Errorf("trusted again, the new script did not run:\n%s", stdout)
			}
		})
	}
}
