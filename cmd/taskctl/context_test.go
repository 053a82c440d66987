package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/taskctl/taskctl/internal/diag"
)

// envelopeOf is the part of the json envelope these tests read.
type envelopeOf struct {
	OK   bool `json:"ok"`
	Data struct {
		Files []struct {
			Path      string   `json:"path"`
			Rel       string   `json:"rel_path"`
			Source    string   `json:"source"`
			Score     *float64 `json:"score"`
			Tokens    *int     `json:"tokens"`
			Binary    bool     `json:"binary"`
			Bytes     int64    `json:"bytes"`
			Content   string   `json:"content"`
			Encoding  string   `json:"encoding"`
			Truncated bool     `json:"truncated"`
			SHA256    string   `json:"sha256"`
			Modified  string   `json:"modified"`
		} `json:"files"`
		Totals struct {
			Files         int  `json:"files"`
			Tokens        *int `json:"tokens"`
			ContentTokens *int `json:"content_tokens"`
		} `json:"totals"`
	} `json:"data"`
	Error *struct {
		Code    string `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
	Warnings []diag.Warning `json:"warnings"`
	Meta     map[string]any `json:"meta"`
}

// taskctl runs the CLI in-process and returns its exit code, stdout and
// stderr.
func taskctl(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(context.Background(), args, strings.NewReader(""), &out, &errb)
	return code, out.String(), errb.String()
}

func assembleJSON(t *testing.T, args ...string) envelopeOf {
	t.Helper()
	code, out, errs := taskctl(t, append(args, "--output", "json")...)
	var env envelopeOf
	if err := json.Unmarshal([]byte(out), &env); err != nil {
		t.Fatalf("exit %d, bad json: %v\n%s\n%s", code, err, out, errs)
	}
	return env
}

func writeFiles(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for name, body := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func utf16LE(s string) string {
	var b bytes.Buffer
	b.Write([]byte{0xFF, 0xFE})
	for _, u := range utf16.Encode([]rune(s)) {
		b.WriteByte(byte(u))
		b.WriteByte(byte(u >> 8))
	}
	return b.String()
}

func utf16BE(s string) string {
	var b bytes.Buffer
	b.Write([]byte{0xFE, 0xFF})
	for _, u := range utf16.Encode([]rune(s)) {
		b.WriteByte(byte(u >> 8))
		b.WriteByte(byte(u))
	}
	return b.String()
}

// plantedSecrets are built at run time so the repository holds no
// token-shaped strings: one file per kind of secret.
func plantedSecrets() map[string]string {
	v := plantedValues()
	return map[string]string{
		"secrets/github.go":      "package secrets\n\nconst token = \"" + v["github"] + "\"\n",
		"secrets/aws.env.sample": "region=eu-west-1\naws_access_key_id=" + v["aws"] + "\n",
		"secrets/deploy.txt":     "notes\n" + v["key"],
		"secrets/config.yaml":    "user: app\npassword: \"" + v["password"] + "\"\n",
		"secrets/gitlab.yml":     "deploy:\n  token: " + v["gitlab"] + "\n",
		"secrets/slack.py":       "import os\n\nSLACK_BOT = \"" + v["slack"] + "\"\n",
		"secrets/session.js":     "// a signed session\nconst session = '" + v["jwt"] + "';\n",
	}
}

// plantedValues are the secrets plantedSecrets hides, by kind.
func plantedValues() map[string]string {
	var body strings.Builder
	for i := range 6 {
		sum := sha256.Sum256([]byte{byte(i)})
		body.WriteString(base64.StdEncoding.EncodeToString(append(sum[:], sum[:16]...)))
		body.WriteByte('\n')
	}
	b64 := func(s string) string { return base64.RawURLEncoding.EncodeToString([]byte(s)) }
	sig := sha256.Sum256([]byte("signature"))
	return map[string]string{
		"github":   "ghp_" + "R7mK2pX9vL4qT8nW3sY6bZ1cF5hJ0dG2aE4u",
		"aws":      "AKIA" + "ZQXMPLW7KDRTBHNV", // word-like: the index would keep it as a term
		"key":      "-----BEGIN RSA " + "PRIVATE KEY-----\n" + body.String() + "-----END RSA " + "PRIVATE KEY-----\n",
		"password": "x7#Qm9!vLp2$Wr8z",
		"gitlab":   "glpat-" + "xY7zQ2wE9rT4yU6iO1pA",
		"slack":    "xoxb-" + "2948571036-7402918375-Hq8ZkT3mWp9Lr2VxN6cYb4Ds",
		"jwt": b64(`{"alg":"HS256","typ":"JWT"}`) + "." + b64(`{"sub":"4711","name":"Ada","iat":1700000000}`) + "." +
			base64.RawURLEncoding.EncodeToString(sig[:]),
	}
}

// secretShown returns the first planted secret (or a piece of one: a key
// line, a JWT's signature) that out shows.
func secretShown(out string) string {
	for kind, v := range plantedValues() {
		pieces := []string{v}
		switch kind {
		case "key":
			pieces = strings.Split(strings.TrimSpace(v), "\n")[1:7]
		case "jwt":
			pieces = strings.Split(v, ".")[1:]
		}
		for _, p := range pieces {
			if strings.Contains(out, p) {
				return kind + ": " + p
			}
		}
	}
	return ""
}

// TestContextDocumentFixture is the fixture project: planted
// secrets, UTF-16 files, a binary, and ordinary code that must raise no
// false alarm.
func TestContextDocumentFixture(t *testing.T) {
	proj := t.TempDir()
	if err := os.Mkdir(filepath.Join(proj, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	files := plantedSecrets()
	files["src/main.go"] = "package main\n\n// password handling lives in auth.go\nfunc main() { password := readPassword(); _ = password }\n"
	files["src/auth.go"] = "package main\n\nfunc readPassword() string { return os.Getenv(\"APP_PASSWORD\") }\n"
	files["docs/utf16le.txt"] = utf16LE("naïve café 日本\n")
	files["docs/utf16be.txt"] = utf16BE("grüße\n")
	files["docs/latin1.txt"] = "caf\xe9 cr\xe8me\n"
	files["img/logo.png"] = "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x01"
	files["docs/bom.txt"] = "\xef\xbb\xbfwith a byte-order mark\n"
	files["docs/broken.txt"] = "caf\xc3\xa9 and a stray \xff byte\n"
	files["data/big.csv"] = strings.Repeat("0123456789abcdef\n", 300) // over the cap set below
	writeFiles(t, proj, files)
	writeFiles(t, filepath.Join(proj, ".taskctl"), map[string]string{
		"config.xml": "<config><policy><max_file_bytes>4096</max_file_bytes></policy></config>"})
	tpl := filepath.Join(t.TempDir(), "all.xml")
	writeFiles(t, filepath.Dir(tpl), map[string]string{"all.xml": `<task name="all"><description>everything</description><file_paths><path>**/*</path></file_paths></task>`})

	// No output of any style shows a secret, nor any warning.
	for _, args := range [][]string{{"--output", "json"}, {"--style", "xml"}, {"--style", "markdown"}, {"--style", "plain"}} {
		code, out, errs := taskctl(t, append([]string{"--project-dir", proj, "assemble", tpl}, args...)...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errs)
		}
		if s := secretShown(out + errs); s != "" {
			t.Errorf("assemble %v shows a planted secret (%s)", args, s)
		}
	}

	env := assembleJSON(t, "--project-dir", proj, "assemble", tpl)
	if !env.OK {
		t.Fatalf("not ok: %+v", env.Error)
	}
	got := map[string]int{}
	for i, f := range env.Data.Files {
		got[f.Rel] = i
		if f.SHA256 == "" || f.Modified == "" || f.Encoding == "" {
			t.Errorf("%s: sha256=%q modified=%q encoding=%q: want all set", f.Rel, f.SHA256, f.Modified, f.Encoding)
		}
	}
	secretWarnings := map[string]bool{}
	for _, w := range env.Warnings {
		if w.Code == "SECRET_DETECTED" {
			secretWarnings[filepath.Base(w.Path)] = true
			if s := secretShown(w.Message); s != "" {
				t.Errorf("warning reveals the secret (%s): %s", s, w.Message)
			}
			if !strings.Contains(w.Message, "rule ") || !strings.Contains(w.Message, "line ") {
				t.Errorf("warning does not name the rule and line: %s", w.Message)
			}
		}
	}
	for name := range plantedSecrets() {
		if _, in := got[name]; in {
			t.Errorf("%s holds a planted secret but was included", name)
		}
		if !secretWarnings[filepath.Base(name)] {
			t.Errorf("%s: no SECRET_DETECTED warning", name)
		}
	}
	for _, name := range []string{"src/main.go", "src/auth.go"} {
		if _, in := got[name]; !in {
			t.Errorf("%s is ordinary code but was left out (false alarm?): warnings %+v", name, env.Warnings)
		}
	}
	check := func(rel, enc, content string) {
		t.Helper()
		i, ok := got[rel]
		if !ok {
			t.Errorf("%s missing", rel)
			return
		}
		f := env.Data.Files[i]
		if f.Encoding != enc || f.Content != content {
			t.Errorf("%s: encoding %q content %q, want %q %q", rel, f.Encoding, f.Content, enc, content)
		}
	}
	check("docs/utf16le.txt", "utf-16le", "naïve café 日本\n")
	check("docs/utf16be.txt", "utf-16be", "grüße\n")
	check("docs/latin1.txt", "windows-1252", "café crème\n")
	check("docs/bom.txt", "utf-8-bom", "with a byte-order mark\n")
	if i, ok := got["docs/broken.txt"]; !ok || !strings.HasPrefix(env.Data.Files[i].Content, "café and a stray ") {
		t.Errorf("docs/broken.txt: want it kept with its valid UTF-8 intact; files %v", got)
	}
	reported := func(code diag.Code, rel string) {
		t.Helper()
		for _, w := range env.Warnings {
			if w.Code == code && w.Path == filepath.Join(proj, filepath.FromSlash(rel)) {
				return
			}
		}
		t.Errorf("no %s warning for %s: %+v", code, rel, env.Warnings)
	}
	reported("INVALID_UTF8", "docs/broken.txt")
	reported("FILE_TOO_LARGE", "data/big.csv")
	reported("FILE_BINARY", "img/logo.png")
	if _, in := got["data/big.csv"]; in {
		t.Errorf("data/big.csv is over the size cap but was included")
	}
	if i, ok := got["img/logo.png"]; !ok || !env.Data.Files[i].Binary || env.Data.Files[i].Content != "" || env.Data.Files[i].Bytes == 0 {
		t.Errorf("binary: want listed with size, content omitted; got %+v", env.Data.Files)
	}
	// Nothing skipped silently: every file of the tree is either included
	// or named by a warning.
	warned := map[string]bool{}
	for _, w := range env.Warnings {
		if w.Path != "" {
			rel, _ := filepath.Rel(proj, w.Path)
			warned[filepath.ToSlash(rel)] = true
		}
	}
	for name := range files {
		if _, in := got[name]; !in && !warned[name] {
			t.Errorf("%s was neither included nor reported", name)
		}
	}

	// --redact-secrets keeps the files and replaces only the secret.
	env = assembleJSON(t, "--project-dir", proj, "assemble", tpl, "--redact-secrets")
	for _, f := range env.Data.Files {
		if s := secretShown(f.Content); s != "" {
			t.Errorf("%s: secret not redacted (%s): %q", f.Rel, s, f.Content)
		}
		if f.Rel == "secrets/config.yaml" && !strings.Contains(f.Content, "user: app") {
			t.Errorf("redaction removed more than the secret: %q", f.Content)
		}
	}
	kept := map[string]string{}
	for _, f := range env.Data.Files {
		kept[f.Rel] = f.Content
	}
	for name := range plantedSecrets() {
		if c, ok := kept[name]; !ok || !strings.Contains(c, "[REDACTED:") {
			t.Errorf("--redact-secrets: %s kept=%v content %q, want it kept with a [REDACTED:rule] marker", name, ok, c)
		}
	}
	code, out, errs := taskctl(t, "--project-dir", proj, "assemble", tpl, "--redact-secrets", "--style", "markdown")
	if s := secretShown(out + errs); code != 0 || s != "" {
		t.Errorf("--redact-secrets --style markdown: exit %d, shows %q", code, s)
	}
}

// TestBudgetDropsInKnownOrder builds a budget that fits the literal files and
// the best description match only: the command result and the weaker match
// are dropped, each with BUDGET_EXCEEDED and its token count.
func TestBudgetDropsInKnownOrder(t *testing.T) {
	proj := t.TempDir()
	if err := os.Mkdir(filepath.Join(proj, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	words := func(w string, n int) string { return strings.Repeat(w+" ", n) + "\n" }
	writeFiles(t, proj, map[string]string{
		"lit1.txt":            words("apple", 30),
		"lit2.txt":            words("banana", 50),
		"cmd/big.txt":         words("cherry", 200),
		"auth/login.go":       "package auth\n\n// Authenticate checks the password hash of a user at login.\nfunc Authenticate(user, passwordHash string) bool { return passwordHash != \"\" }\n",
		"auth/notes.md":       "# Notes\n\nLogin is slow. " + words("filler", 120),
		"unrelated/deploy.md": "# Deploy\n\nPush the image.\n",
	})
	tpl := filepath.Join(t.TempDir(), "b.xml")
	writeFiles(t, filepath.Dir(tpl), map[string]string{"b.xml": `<task name="b">
  <description>budget</description>
  <file_paths><path>lit1.txt</path><path>lit2.txt</path></file_paths>
  <file_paths source="command"><command>find cmd -name '*.txt'</command></file_paths>
  <file_paths source="description" limit="2"><description>authenticate user password hash at login</description></file_paths>
</task>`})
	all := assembleJSON(t, "--project-dir", proj, "assemble", tpl)
	tok := map[string]int{}
	var order []string
	for _, f := range all.Data.Files {
		if f.Tokens == nil {
			t.Fatalf("%s: no token count", f.Rel)
		}
		tok[f.Rel] = *f.Tokens
		order = append(order, f.Rel)
	}
	want := []string{"lit1.txt", "lit2.txt", "cmd/big.txt", "auth/login.go", "auth/notes.md"}
	if strings.Join(order, ",") != strings.Join(want, ",") {
		t.Fatalf("unbudgeted order %v, want %v (warnings %+v)", order, want, all.Warnings)
	}
	// The budget bounds the whole document, markup included: all of it but
	// the content of the two files to drop leaves too little for either
	// with its markup.
	budget := *all.Data.Totals.Tokens - tok["cmd/big.txt"] - tok["auth/notes.md"] - 1
	if tok["auth/notes.md"] <= 0 || tok["cmd/big.txt"] <= tok["auth/login.go"] {
		t.Fatalf("fixture token counts do not force the order: %v", tok)
	}
	env := assembleJSON(t, "--project-dir", proj, "assemble", tpl, "--max-tokens", fmt.Sprint(budget))
	var kept []string
	for _, f := range env.Data.Files {
		kept = append(kept, f.Rel)
	}
	if strings.Join(kept, ",") != "lit1.txt,lit2.txt,auth/login.go" {
		t.Fatalf("kept %v under budget %d (counts %v)", kept, budget, tok)
	}
	var dropped []string
	for _, w := range env.Warnings {
		if w.Code == "BUDGET_EXCEEDED" {
			rel, _ := filepath.Rel(proj, w.Path)
			dropped = append(dropped, filepath.ToSlash(rel))
			if !strings.Contains(w.Message, fmt.Sprintf("%d tokens", tok[filepath.ToSlash(rel)])) {
				t.Errorf("warning %q does not give the file's %d tokens", w.Message, tok[filepath.ToSlash(rel)])
			}
		}
	}
	if strings.Join(dropped, ",") != "cmd/big.txt,auth/notes.md" {
		t.Fatalf("dropped %v, want cmd/big.txt then auth/notes.md", dropped)
	}
	if env.Data.Totals.Tokens == nil || *env.Data.Totals.Tokens > budget {
		t.Fatalf("totals.tokens = %v, want at most %d", env.Data.Totals.Tokens, budget)
	}
	if c := env.Data.Totals.ContentTokens; c == nil || *c != tok["lit1.txt"]+tok["lit2.txt"]+tok["auth/login.go"] {
		t.Fatalf("totals.content_tokens = %v, want the kept files' sum", c)
	}

	// The template's max_tokens may only narrow the flag's budget.
	writeFiles(t, filepath.Dir(tpl), map[string]string{"n.xml": `<task name="n">
  <description>budget</description>
  <context_management><max_tokens>1</max_tokens></context_management>
  <file_paths><path>lit1.txt</path></file_paths>
</task>`})
	env = assembleJSON(t, "--project-dir", proj, "assemble", filepath.Join(filepath.Dir(tpl), "n.xml"), "--max-tokens", "100000")
	if len(env.Data.Files) != 0 {
		t.Fatalf("max_tokens=1 in the template kept %d files", len(env.Data.Files))
	}

	// A second assemble of unchanged files counts nothing again.
	env = assembleJSON(t, "--project-dir", proj, "assemble", tpl)
	cache, _ := env.Meta["token_cache"].(map[string]any)
	if cache == nil || cache["counted"].(float64) != 0 || cache["hits"].(float64) != 5 {
		t.Fatalf("token_cache = %v, want 5 hits and nothing counted", env.Meta["token_cache"])
	}
	// cl100k is selectable and counts differently.
	env = assembleJSON(t, "--project-dir", proj, "assemble", tpl, "--tokenizer", "cl100k_base")
	if env.Meta["tokenizer"] != "cl100k_base" {
		t.Fatalf("meta.tokenizer = %v", env.Meta["tokenizer"])
	}
}

// TestReadOptions covers <path max_lines skip_lines max_bytes> and the
// explicit truncation marker.
func TestReadOptions(t *testing.T) {
	proj := t.TempDir()
	var b strings.Builder
	for i := 1; i <= 50; i++ {
		fmt.Fprintf(&b, "line %d\n", i)
	}
	writeFiles(t, proj, map[string]string{"go.mod": "module x\n", "f.txt": b.String(), "g.txt": b.String()})
	tpl := filepath.Join(t.TempDir(), "r.xml")
	writeFiles(t, filepath.Dir(tpl), map[string]string{"r.xml": `<task name="r"><description>read options</description>
<file_paths><path skip_lines="10" max_lines="3">f.txt</path><path max_bytes="20">g.txt</path></file_paths></task>`})
	env := assembleJSON(t, "--project-dir", proj, "assemble", tpl, "--tokenizer", "none")
	if len(env.Data.Files) != 2 {
		t.Fatalf("files %+v warnings %+v", env.Data.Files, env.Warnings)
	}
	f := env.Data.Files[0]
	if want := "line 11\nline 12\nline 13\n[taskctl: truncated: showing lines 11-13 of 50]\n"; f.Content != want || !f.Truncated {
		t.Errorf("skip/max lines: %q truncated=%v, want %q", f.Content, f.Truncated, want)
	}
	g := env.Data.Files[1]
	if want := "line 1\nline 2\n[taskctl: truncated: showing lines 1-2 of 50]\n"; g.Content != want || !g.Truncated {
		t.Errorf("max_bytes: %q, want %q", g.Content, want)
	}
	// --max-file-bytes caps every file.
	env = assembleJSON(t, "--project-dir", proj, "assemble", tpl, "--tokenizer", "none", "--max-file-bytes", "8")
	if c := env.Data.Files[1].Content; !strings.HasPrefix(c, "line 1\n[taskctl: truncated") {
		t.Errorf("--max-file-bytes 8: %q", c)
	}
}

// TestXMLStyleReadsBack parses the xml style with encoding/xml: content with
// "]]>", control characters and invalid UTF-8 must come back intact or
// visibly replaced, never break the document.
func TestXMLStyleReadsBack(t *testing.T) {
	proj := t.TempDir()
	tricky := "a ]]> b ]]]]> c <![CDATA[ d & < > \" '\n\x1b[31mred\x1b[0m\n"
	writeFiles(t, proj, map[string]string{"go.mod": "module x\n", "t.txt": tricky, "n.txt": "plain\n"})
	tpl := filepath.Join(t.TempDir(), "x.xml")
	writeFiles(t, filepath.Dir(tpl), map[string]string{"x.xml": `<task name="x-y"><description>d &amp; &quot;y&quot;</description><file_paths><path>t.txt</path><path>n.txt</path></file_paths></task>`})
	code, out, errs := taskctl(t, "--project-dir", proj, "assemble", tpl)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var doc struct {
		Task  string `xml:"task,attr"`
		Files []struct {
			Path     string `xml:"path,attr"`
			Replaced int    `xml:"replaced,attr"`
			Content  string `xml:",chardata"`
		} `xml:"file"`
	}
	dec := xml.NewDecoder(strings.NewReader(out))
	if err := dec.Decode(&doc); err != nil {
		t.Fatalf("xml style does not parse: %v\n%s", err, out)
	}
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if cd, ok := tok.(xml.CharData); err != nil || !ok || len(bytes.TrimSpace(cd)) > 0 {
			t.Fatalf("trailing content after </context>: %v %v", tok, err)
		}
	}
	if len(doc.Files) != 2 {
		t.Fatalf("files: %+v", doc.Files)
	}
	wantT := strings.ReplaceAll(tricky, "\x1b", "\uFFFD")
	if doc.Files[0].Content != wantT || doc.Files[0].Replaced != 2 {
		t.Errorf("content read back %q (replaced=%d), want %q (replaced=2)", doc.Files[0].Content, doc.Files[0].Replaced, wantT)
	}
	if doc.Files[1].Content != "plain\n" {
		t.Errorf("second file %q", doc.Files[1].Content)
	}
}

// TestExitCodes checks the exit code of each outcome (DESIGN §7).
func TestExitCodes(t *testing.T) {
	proj := t.TempDir()
	writeFiles(t, proj, map[string]string{
		"go.mod":   "module x\n",
		"ok.xml":   `<task name="ok"><description>d</description><file_paths><path>go.mod</path></file_paths></task>`,
		"warn.xml": `<task name="w"><description>d</description><file_paths><path>nosuch</path></file_paths></task>`,
		"bad.xml":  `<task name="b"><oops/></task>`,
		"hang.sh":  "sleep 30\n",
		"flow.xml": `<task name="f" type="sequential"><description>d</description><steps><task name="s"><description>s</description></task></steps></task>`,
	})
	in := func(n string) string { return filepath.Join(proj, n) }
	cases := []struct {
		args []string
		want int
	}{
		{[]string{"assemble", in("ok.xml")}, exitOK},
		{[]string{"assemble", in("warn.xml")}, exitOK},
		{[]string{"assemble", in("warn.xml"), "--strict"}, exitPartial},
		{[]string{"assemble", in("bad.xml")}, exitUsage},
		{[]string{"assemble", in("nosuch.xml")}, exitNotFound},
		{[]string{"assemble", "nosuchtask"}, exitNotFound},
		{[]string{"assemble"}, exitUsage},
		{[]string{"frob"}, exitUsage},
		{[]string{"run", in("flow.xml"), "--executor", "bash " + in("hang.sh"), "--timeout", "300ms"}, exitTimeout},
		{[]string{"run", in("flow.xml"), "--executor", "false"}, exitError},
		{[]string{"run", in("flow.xml"), "--executor", "no-such-executor-here"}, exitUsage},
		{[]string{"exec", "rm -rf /"}, exitUsage},
		{[]string{"assemble", in("ok.xml"), "--max-tokens", "-5"}, exitUsage},
		{[]string{"assemble", in("ok.xml"), "--max-files", "-1"}, exitUsage},
		{[]string{"assemble", in("ok.xml"), "--max-file-bytes=-10"}, exitUsage},
		{[]string{"run", in("flow.xml"), "--timeout", "-1s", "--dry-run"}, exitUsage},
	}
	for _, c := range cases {
		code, _, errs := taskctl(t, append([]string{"--project-dir", proj}, c.args...)...)
		if code != c.want {
			t.Errorf("taskctl %s: exit %d, want %d\n%s", strings.Join(c.args, " "), code, c.want, errs)
		}
	}
}
