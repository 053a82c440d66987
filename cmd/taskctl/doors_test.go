package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/taskctl/taskctl/engine"
	"github.com/taskctl/taskctl/mcpserver"
)

// The acceptance table of #29: the same files, through every door, get one
// verdict. A verdict is "text" (the content reaches the caller as text),
// "binary" (the file is reached, its content is not text) or the code that
// refuses it. Doors that give a code (assemble --path, fs read, MCP
// read_file, MCP copy_file) must give the row's; doors that only show
// whether a file's content was reached (exec and a template's command, which
// cat the file; search, which finds a word only that file holds) must reach
// exactly the files the row says are readable; list_directory must show a
// name exactly when the row says the name may be shown.

// doorFile is one row: a file of the fixture and its one verdict.
type doorFile struct {
	rel    string
	want   string // "text", "binary" or a code
	listed bool   // list_directory shows the name
	// alias: the content is another row's (a symbolic or hard link), so
	// search, which finds content by its own path, does not apply.
	alias bool
	// The .gitignore family applies to walks, not to a file named
	// literally (docs/policy.md, as with rg): such a file is read by every
	// door but not listed, and search, whose index is a walk, does not
	// find it (alias set).

	// wsOnly: a file of the workspace, which the file operations read and
	// every reader of the project (the document, commands, search) leaves
	// out with .taskctl/ (DESIGN §2-3).
	wsOnly bool
}

const (
	awsKey    = "AKIAZ7Q3M9X2W4R8T6Y1"
	ghToken   = "ghp_R7mK2pX9vL4qT8nW3sY6bZ1cF5hJ0dG2aE4u"
	doorsCap  = 64 << 10 // the user config's max_file_bytes
	textCodes = "text"
)

// doorsFixture builds the project, the outside dir and the user config; it
// returns the rows.
func doorsFixture(t *testing.T, proj, outside, xdg string) []doorFile {
	t.Helper()
	files := map[string]string{
		".git/HEAD":                   "ref: refs/heads/main\n",
		".git/config":                 "[core]\n\tword = qqgitconfig\n",
		".gitignore":                  "*.log\nbuild/\n",
		".taskctlignore":              "private/\n",
		".taskctl/config.xml":         "<config/>\n",
		".taskctl/workspace/notes.md": "qqworkspacenotes\n",
		".taskctl/workspace/key.md":   "k = " + awsKey + "\n",
		".taskctl/tasks/probe.xml":    probeTask,
		"plain.go":                    "package plain // qqplaingo\n",
		"README.md":                   "# qqreadme\n",
		"docs/guide.md":               "qqguide\n",
		"deep/a/b/c/d.txt":            "qqdeepfile\n",
		"spaces in name.txt":          "qqspaces\n",
		"naïve.md":                    "qqnaive\n",
		"empty.txt":                   "",
		"node_modules/lib/x.js":       "qqnodemodules\n",
		"key.txt":                     "# qqkeytxt\naws_access_key_id = " + awsKey + "\n",
		"config/deploy.yml":           "# qqdeployyml\ntoken: " + ghToken + "\n",
		"notes/pk.txt":                "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEAx4Ue7xqJmQmW0k0tYc5Vb0y1fW0nD2oF3f5dX7bJ9gH0q8S9\n-----END RSA PRIVATE KEY-----\n",
		".env":                        "QQ=qqdotenv\n",
		".env.local":                  "QQ=qqdotenvlocal\n",
		"server.key":                  "qqserverkey\n",
		"id_rsa":                      "qqidrsa\n",
		"credentials.json":            "{\"qq\": \"qqcredjson\"}\n",
		".netrc":                      "machine qqnetrc\n",
		"app.log":                     "qqapplog\n",
		"build/out.txt":               "qqbuildout\n",
		"private/p.txt":               "qqprivate\n",
		"generated/g.txt":             "qqgenerated\n",
		"big.txt":                     strings.Repeat("qqbigfile filler line\n", doorsCap/10),
		"binary.bin":                  "qqbinary\x00\x01\x02\x03",
		"utf16.txt":                   utf16LE("qqutfsixteen text\n"),
		"utf16key.txt":                utf16LE("aws = " + awsKey + "\n"),
		"latin1.txt":                  "qqlatin caf\xe9\n",
		"dir/inner.txt":               "qqdirinner\n",
		awsKey + ".txt":               "qqnamesecret\n",
	}
	for rel, body := range files {
		p := filepath.Join(proj, filepath.FromSlash(rel))
		must(t, os.MkdirAll(filepath.Dir(p), 0o755))
		must(t, os.WriteFile(p, []byte(body), 0o644))
	}
	must(t, os.MkdirAll(outside, 0o755))
	must(t, os.WriteFile(filepath.Join(outside, "secret.txt"), []byte("qqoutside\n"), 0o644))
	must(t, os.WriteFile(filepath.Join(outside, "hard.txt"), []byte("qqhardout\n"), 0o644))
	links := map[string]string{
		"link_in":        "plain.go",
		"link_out":       filepath.Join(outside, "secret.txt"),
		"link_up":        "../outside/secret.txt",
		"link_env":       ".env",
		"link_key":       "key.txt",
		"link_git":       ".git/config",
		"link_taskctl":   ".taskctl/config.xml",
		"link_dangling":  "nothing-here",
		"link_loop":      "link_loop",
		"alias":          "docs",
		"outdir":         outside,
		"link_workspace": ".taskctl/workspace/notes.md",
	}
	for name, target := range links {
		must(t, os.Symlink(target, filepath.Join(proj, name)))
	}
	must(t, os.Link(filepath.Join(proj, "plain.go"), filepath.Join(proj, "hard_in.go")))
	must(t, os.Link(filepath.Join(outside, "hard.txt"), filepath.Join(proj, "hard_out.txt")))
	must(t, syscall.Mkfifo(filepath.Join(proj, "fifo"), 0o644))
	if l, err := net.Listen("unix", filepath.Join(proj, "sock")); err == nil {
		t.Cleanup(func() { l.Close() })
	} else {
		t.Fatalf("socket: %v", err)
	}
	rows := []doorFile{
		{rel: "plain.go", want: textCodes, listed: true},
		{rel: "README.md", want: textCodes, listed: true},
		{rel: "docs/guide.md", want: textCodes, listed: true},
		{rel: "deep/a/b/c/d.txt", want: textCodes, listed: true},
		{rel: "spaces in name.txt", want: textCodes, listed: true},
		{rel: "naïve.md", want: textCodes, listed: true},
		{rel: "empty.txt", want: textCodes, listed: true, alias: true}, // no word to search for
		{rel: "node_modules/lib/x.js", want: textCodes, listed: true, alias: true},
		{rel: ".gitignore", want: textCodes, listed: true, alias: true},
		{rel: "utf16.txt", want: textCodes, listed: true},
		{rel: "latin1.txt", want: textCodes, listed: true},
		{rel: "binary.bin", want: "binary", listed: true},
		{rel: "key.txt", want: "SECRET_DETECTED", listed: true},
		{rel: "config/deploy.yml", want: "SECRET_DETECTED", listed: true},
		{rel: "notes/pk.txt", want: "SECRET_DETECTED", listed: true},
		{rel: "utf16key.txt", want: "SECRET_DETECTED", listed: true},
		{rel: awsKey + ".txt", want: "SECRET_DETECTED", listed: false},
		{rel: ".env", want: "PATH_SENSITIVE", listed: true},
		{rel: ".env.local", want: "PATH_SENSITIVE", listed: true},
		{rel: "server.key", want: "PATH_SENSITIVE", listed: true},
		{rel: "id_rsa", want: "PATH_SENSITIVE", listed: true},
		{rel: "credentials.json", want: "PATH_SENSITIVE", listed: true},
		{rel: ".netrc", want: "PATH_SENSITIVE", listed: true},
		{rel: "app.log", want: textCodes, listed: false, alias: true},
		{rel: "build/out.txt", want: textCodes, listed: false, alias: true},
		{rel: "private/p.txt", want: textCodes, listed: false, alias: true},
		{rel: "generated/g.txt", want: "PATH_IGNORED", listed: false},
		{rel: ".git/config", want: "PATH_IGNORED", listed: false},
		{rel: ".git/HEAD", want: "PATH_IGNORED", listed: false},
		{rel: ".taskctl/config.xml", want: "PATH_IGNORED", listed: false},
		{rel: ".taskctl/tasks/probe.xml", want: "PATH_IGNORED", listed: false},
		{rel: ".taskctl/workspace/notes.md", want: textCodes, listed: true, wsOnly: true},
		{rel: ".taskctl/workspace/key.md", want: "SECRET_DETECTED", listed: true, wsOnly: true},
		{rel: "big.txt", want: "FILE_TOO_LARGE", listed: true},
		{rel: "fifo", want: "PATH_SPECIAL_FILE", listed: true},
		{rel: "sock", want: "PATH_SPECIAL_FILE", listed: true},
		// assemble --path of a directory selects its files: no row for it.
		{rel: "dir", want: "PATH_IS_DIR", listed: true},
		{rel: "missing.txt", want: "PATH_NOT_FOUND", listed: false},
		{rel: "link_in", want: textCodes, listed: true, alias: true},
		{rel: "hard_in.go", want: textCodes, listed: true, alias: true},
		{rel: "hard_out.txt", want: textCodes, listed: true}, // documented: read as the project's
		{rel: "alias/guide.md", want: textCodes, listed: true, alias: true},
		{rel: "link_out", want: "PATH_OUTSIDE_PROJECT", listed: true},
		{rel: "link_up", want: "PATH_OUTSIDE_PROJECT", listed: true},
		{rel: "outdir/secret.txt", want: "PATH_OUTSIDE_PROJECT", listed: false},
		{rel: "link_env", want: "PATH_SENSITIVE", listed: true},
		{rel: "link_key", want: "SECRET_DETECTED", listed: true},
		{rel: "link_git", want: "PATH_IGNORED", listed: true},
		{rel: "link_taskctl", want: "PATH_IGNORED", listed: true},
		{rel: "link_workspace", want: "PATH_IGNORED", listed: true},
		{rel: "link_dangling", want: "PATH_NOT_FOUND", listed: true},
		{rel: "link_loop", want: "PATH_INVALID", listed: true},
	}
	// A device node needs privileges: made where the test may, else the
	// row is left out (and the table says how many rows ran).
	if err := syscall.Mknod(filepath.Join(proj, "dev"), syscall.S_IFCHR|0o644, 1<<8|3); err == nil {
		rows = append(rows, doorFile{rel: "dev", want: "PATH_SPECIAL_FILE", listed: true})
	}
	cfg := fmt.Sprintf("<config><policy><exclude>generated/**</exclude><max_file_bytes>%d</max_file_bytes></policy></config>\n", doorsCap)
	must(t, os.MkdirAll(filepath.Join(xdg, "taskctl"), 0o755))
	must(t, os.WriteFile(filepath.Join(xdg, "taskctl", "config.xml"), []byte(cfg), 0o644))
	return rows
}

// probeTask's command reads $f and, when it could, prints plain.go: the
// document holds plain.go exactly when the command reached $f's content.
const probeTask = `<task name="probe">
  <description>probe</description>
  <inputs><input name="f"/></inputs>
  <file_paths source="command"><command>if cat -- "$f" >/dev/null 2>&amp;1; then echo plain.go; fi</command></file_paths>
</task>
`

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// doorEnvelope is the CLI's --output json answer.
type doorEnvelope struct {
	OK       bool            `json:"ok"`
	Data     json.RawMessage `json:"data"`
	Error    *struct{ Code string }
	Warnings []struct {
		Code, Path, Message string
	}
}

func doorCLI(t *testing.T, proj string, args ...string) doorEnvelope {
	t.Helper()
	var out, errb bytes.Buffer
	args = append([]string{"--cwd", proj, "--output", "json"}, args...)
	run(context.Background(), args, strings.NewReader(""), &out, &errb)
	var env doorEnvelope
	if err := json.Unmarshal(out.Bytes(), &env); err != nil {
		t.Fatalf("taskctl %q: %v\n%s\n%s", args, err, out.Bytes(), errb.Bytes())
	}
	return env
}

func TestOneVerdictEveryDoor(t *testing.T) {
	dir := t.TempDir()
	proj, outside, xdg := filepath.Join(dir, "proj"), filepath.Join(dir, "outside"), filepath.Join(dir, "xdg")
	rows := doorsFixture(t, proj, outside, xdg)
	t.Setenv("XDG_CONFIG_HOME", xdg)
	t.Setenv("HOME", filepath.Join(dir, "home"))
	if env := doorCLI(t, proj, "index"); !env.OK {
		t.Fatalf("index: %+v", env.Error)
	}
	cs := doorsMCP(t, proj, xdg)

	var bad []string
	for _, r := range rows {
		abs := filepath.Join(proj, filepath.FromSlash(r.rel))
		readable := r.want == textCodes || r.want == "binary"
		got := map[string]string{}

		// assemble --path: the file in the document, or its warning.
		env := doorCLI(t, proj, "assemble", "--path", r.rel)
		got["assemble"] = assembleVerdict(t, env, abs)
		// fs read.
		got["fs read"] = readVerdict(t, doorCLI(t, proj, "fs", "read", r.rel))
		// MCP read_file and copy_file.
		got["read_file"] = mcpVerdict(t, cs, "read_file", map[string]any{"path": r.rel})
		dst := ".taskctl/workspace/copies/" + strings.NewReplacer("/", "_", " ", "_").Replace(r.rel)
		// A copy is made exactly of what a read gives.
		got["copy_file"] = mcpVerdict(t, cs, "copy_file", map[string]any{"source": r.rel, "destination": dst})
		if got["copy_file"] == "done" && readable {
			got["copy_file"] = r.want
		}
		for door, v := range got {
			if (r.wsOnly || r.rel == "dir") && door == "assemble" {
				continue
			}
			if v != r.want {
				bad = append(bad, fmt.Sprintf("%-28s %-10s got %-22s want %s", r.rel, door, v, r.want))
			}
		}

		// exec and a template's command: did cat reach the content?
		reach := map[string]bool{}
		execEnv := doorCLI(t, proj, "exec", "--var", "f="+r.rel, `if cat -- "$f" >/dev/null 2>&1; then echo plain.go; fi`)
		reach["exec"] = holdsPath(t, execEnv.Data, "paths", filepath.Join(proj, "plain.go"))
		tmplEnv := doorCLI(t, proj, "assemble", "probe", "--var", "f="+r.rel)
		reach["template command"] = holdsPath(t, tmplEnv.Data, "files", filepath.Join(proj, "plain.go"))
		// search: the word only this file holds.
		// Search is the one door that shows a file holding a secret: by
		// design (#21, TestSearchRedactsSecretsInReasons) the index holds
		// its text with the secret redacted, so search finds it by its other
		// lines and its reason never quotes the secret; rows refused for
		// their content are left out of the search check.
		if !r.alias && r.want != "SECRET_DETECTED" {
			word := strings.Fields(searchWord(t, proj, r.rel))
			if len(word) > 0 {
				senv := doorCLI(t, proj, "search", word[0], "--limit", "5")
				reach["search"] = holdsPath(t, senv.Data, "matches", abs)
			}
		}
		for door, ok := range reach {
			want := readable && !r.wsOnly
			if door == "search" {
				want = r.want == textCodes && !r.wsOnly
			}
			if ok != want {
				bad = append(bad, fmt.Sprintf("%-28s %-10s reached %v, want %v (%s)", r.rel, door, ok, want, r.want))
			}
		}

		// list_directory: the name shown where it may be.
		listed := mcpListed(t, cs, r.rel)
		if listed != r.listed {
			bad = append(bad, fmt.Sprintf("%-28s %-10s listed %v, want %v", r.rel, "list_dir", listed, r.listed))
		}
	}
	sort.Strings(bad)
	if len(bad) > 0 {
		t.Errorf("%d of %d rows x 8 doors disagree with the table:\n%s", len(bad), len(rows), strings.Join(bad, "\n"))
	}
	t.Logf("%d files through 8 doors", len(rows))
}

// searchWord is the qq-word of a fixture file, read from disk.
func searchWord(t *testing.T, proj, rel string) string {
	p := filepath.Join(proj, filepath.FromSlash(rel))
	if st, err := os.Lstat(p); err != nil || !st.Mode().IsRegular() {
		return "" // never open a FIFO or a device (or follow a link)
	}
	data, err := os.ReadFile(p)
	if err != nil {
		return ""
	}
	s := string(data)
	if strings.HasPrefix(s, "\xff\xfe") {
		s = strings.ReplaceAll(s[2:], "\x00", "")
	}
	for _, f := range strings.FieldsFunc(s, func(r rune) bool { return !('a' <= r && r <= 'z') }) {
		if strings.HasPrefix(f, "qq") {
			return f
		}
	}
	return ""
}

// holdsPath reports whether the list field of data (paths, or objects
// with a path) holds path.
func holdsPath(t *testing.T, data json.RawMessage, field, path string) bool {
	var m map[string]json.RawMessage
	if len(data) == 0 || string(data) == "null" {
		return false
	}
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	var paths []string
	if json.Unmarshal(m[field], &paths) != nil {
		var objs []struct{ Path string }
		json.Unmarshal(m[field], &objs)
		for _, o := range objs {
			paths = append(paths, o.Path)
		}
	}
	for _, p := range paths {
		if p == path {
			return true
		}
	}
	return false
}

func assembleVerdict(t *testing.T, env doorEnvelope, abs string) string {
	var data struct {
		Files []struct {
			Path   string `json:"path"`
			Binary bool   `json:"binary"`
		} `json:"files"`
	}
	// A document that holds nothing fails (EMPTY_CONTEXT); the warning
	// says why the file was left out.
	if env.Error != nil && env.Error.Code != "EMPTY_CONTEXT" {
		return env.Error.Code
	}
	if env.Error == nil {
		if err := json.Unmarshal(env.Data, &data); err != nil {
			t.Fatal(err)
		}
	}
	if len(data.Files) == 1 {
		if data.Files[0].Binary {
			return "binary"
		}
		return textCodes
	}
	for _, w := range env.Warnings {
		if w.Code != "CONFIG_IGNORED" {
			return w.Code
		}
	}
	return fmt.Sprintf("no file, no warning (%d files)", len(data.Files))
}

func readVerdict(t *testing.T, env doorEnvelope) string {
	if env.Error != nil {
		return env.Error.Code
	}
	var data struct {
		Binary bool `json:"binary"`
	}
	if err := json.Unmarshal(env.Data, &data); err != nil {
		t.Fatal(err)
	}
	if data.Binary {
		return "binary"
	}
	return textCodes
}

// doorsMCP connects an in-memory client to an MCP server on proj.
func doorsMCP(t *testing.T, proj, xdg string) *mcp.ClientSession {
	t.Helper()
	ctx := context.Background()
	eng, err := engine.Open(ctx, engine.Options{Cwd: proj, ProjectDir: proj, Command: "mcp",
		Getenv: func(k string) string {
			if k == "XDG_CONFIG_HOME" {
				return xdg
			}
			return ""
		}})
	if err != nil {
		t.Fatal(err)
	}
	must(t, eng.StartSession(ctx))
	srv, err := mcpserver.New(eng)
	if err != nil {
		t.Fatal(err)
	}
	st, ct := mcp.NewInMemoryTransports()
	ss, err := srv.MCP().Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cs.Close()
		ss.Wait()
		eng.Close()
	})
	return cs
}

func mcpCall(t *testing.T, cs *mcp.ClientSession, tool string, args map[string]any) (*mcp.CallToolResult, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		t.Fatalf("%s %v: %v", tool, args, err)
	}
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return res, b.String()
}

// mcpVerdict is a tool's verdict: the error's code, "binary" or "text"
// for a read, "done" for another tool.
func mcpVerdict(t *testing.T, cs *mcp.ClientSession, tool string, args map[string]any) string {
	res, text := mcpCall(t, cs, tool, args)
	if res.IsError {
		code, _, _ := strings.Cut(text, ":")
		return code
	}
	if tool != "read_file" {
		return "done"
	}
	var data struct {
		Binary bool `json:"binary"`
	}
	raw, _ := json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(raw, &data); err != nil {
		t.Fatal(err)
	}
	if data.Binary {
		return "binary"
	}
	return textCodes
}

// mcpListed reports whether list_directory of rel's directory shows its
// name (hidden names included).
func mcpListed(t *testing.T, cs *mcp.ClientSession, rel string) bool {
	d, name := filepath.Split(rel)
	if d == "" {
		d = "."
	}
	res, _ := mcpCall(t, cs, "list_directory", map[string]any{"path": d, "include_hidden": true})
	if res.IsError {
		return false
	}
	var data struct {
		Items []struct {
			Name string `json:"name"`
		} `json:"items"`
	}
	raw, _ := json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(raw, &data); err != nil {
		t.Fatal(err)
	}
	for _, e := range data.Items {
		if e.Name == name {
			return true
		}
	}
	return false
}
