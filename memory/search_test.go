package memory_test

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/taskctl/taskctl/memory"
)

// writeTree writes files (slash path → content) under a new temporary
// directory and returns it.
func writeTree(t testing.TB, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for rel, content := range files {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// build indexes root into a fresh index directory.
func build(t testing.TB, root string) (*memory.Index, string) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "index")
	ix, warns, err := memory.Open(dir)
	if err != nil || len(warns) > 0 {
		t.Fatalf("Open(%s) = %v, %v", dir, warns, err)
	}
	if _, err := ix.Refresh(context.Background(), memory.DirSource(root), nil); err != nil {
		t.Fatalf("Refresh: %v", err)
	}
	return ix, dir
}

func rels(ms []memory.Match) []string {
	var out []string
	for _, m := range ms {
		out = append(out, m.Rel)
	}
	return out
}

var appFiles = map[string]string{
	"src/auth/login.py": `"""User authentication: password login and session tokens."""
import hashlib

def authenticate(username, password):
    user = find_user(username)
    if user is None or not check_password(user, password):
        raise AuthenticationError("invalid credentials")
    return issue_session_token(user)

def check_password(user, password):
    return hashlib.sha256(password.encode()).hexdigest() == user.password_hash
`,
	"src/auth/tokens.py": `def issue_session_token(user):
    """Create a signed session token for an authenticated user."""
    return sign({"sub": user.id})
`,
	"src/api/handlers.py": `from auth.login import authenticate

def login_handler(request):
    token = authenticate(request.form["user"], request.form["password"])
    return {"token": token}

def health_handler(request):
    return {"status": "ok"}
`,
	"src/api/routes.go": `package api

// RegisterRoutes wires the HTTP handlers of the API.
func RegisterRoutes(mux *Mux) {
	mux.Handle("/login", loginHandler)
	mux.Handle("/health", healthHandler)
}
`,
	"cmd/server/main.go": `package main

func main() {
	srv := NewServer(loadConfig())
	srv.ListenAndServe()
}
`,
	"src/billing/invoice.py": `def render_invoice(order):
    """Render an invoice as PDF for the order's customer."""
    lines = [format_line(item) for item in order.items]
    return pdf(lines)
`,
	"tests/test_login.py": `from auth.login import authenticate

def test_authenticate_rejects_bad_password():
    with raises(AuthenticationError):
        authenticate("alice", "wrong")

def test_authenticate_accepts_good_password():
    assert authenticate("alice", "secret")
`,
	"docs/authentication.md": `# Authentication

Users log in with a password; the server answers with a session token.
`,
	"config/settings.yaml": "session:\n  token_ttl: 3600\ndatabase:\n  url: postgres://localhost/app\n",
	"README.md":            "# App\n\nA small web application with login and billing.\n",
}

func TestSearchAuthFileFirst(t *testing.T) {
	root := writeTree(t, appFiles)
	ix, _ := build(t, root)
	ms := ix.Search("authentication", memory.SearchOptions{Source: memory.DirSource(root), Explain: true})
	for _, m := range ms {
		t.Logf("%.3f %s %v", m.Score, m.Rel, m.Reason)
	}
	if len(ms) == 0 || ms[0].Rel != "src/auth/login.py" {
		t.Fatalf(`Search("authentication") = %q, want src/auth/login.py first`, rels(ms))
	}
	r := ms[0].Reason
	if len(r.Terms["content"]) == 0 || r.Line == 0 || !strings.Contains(strings.ToLower(r.Text), "authent") {
		t.Errorf("reason of the first match = %+v, want content terms and a best line mentioning authentication", r)
	}
	if s := r.String(); !strings.Contains(s, "line ") {
		t.Errorf("Reason.String() = %q, want the best line in it", s)
	}
	for _, m := range ms {
		if m.Score <= 0 || m.Score > 1 {
			t.Errorf("%s: score %v outside (0,1]", m.Rel, m.Score)
		}
	}
}

func TestSearchFilters(t *testing.T) {
	root := writeTree(t, appFiles)
	ix, _ := build(t, root)
	tests := []struct {
		query string
		ok    func(rel string) bool
		first string
	}{
		{"Python files related to authentication", func(r string) bool { return strings.HasSuffix(r, ".py") }, "src/auth/login.py"},
		{"Go code for handlers", func(r string) bool { return strings.HasSuffix(r, ".go") }, "src/api/routes.go"},
		{"login handler in src/api", func(r string) bool { return strings.HasPrefix(r, "src/api/") }, "src/api/handlers.py"},
		{"main under cmd/", func(r string) bool { return strings.HasPrefix(r, "cmd/") }, "cmd/server/main.go"},
		{"tests for authenticate", func(r string) bool { return strings.HasPrefix(r, "tests/") }, "tests/test_login.py"},
		{"markdown docs about authentication", func(r string) bool { return strings.HasSuffix(r, ".md") }, "docs/authentication.md"},
		{"config files for the session token", func(r string) bool { return strings.HasSuffix(r, ".yaml") }, "config/settings.yaml"},
		{"authentication in the auth directory", func(r string) bool { return strings.HasPrefix(r, "src/auth/") }, ""},
		{"Python unit tests for login", func(r string) bool { return strings.HasPrefix(r, "tests/") }, "tests/test_login.py"},
		{"non-test Python files about login", func(r string) bool { return !strings.HasPrefix(r, "tests/") && strings.HasSuffix(r, ".py") }, "src/auth/login.py"},
	}
	for _, tt := range tests {
		ms := ix.Search(tt.query, memory.SearchOptions{})
		if len(ms) == 0 {
			t.Errorf("Search(%q) found nothing", tt.query)
			continue
		}
		for _, m := range ms {
			if !tt.ok(m.Rel) {
				t.Errorf("Search(%q) = %q: %s passed the filter", tt.query, rels(ms), m.Rel)
				break
			}
		}
		if tt.first != "" && ms[0].Rel != tt.first {
			t.Errorf("Search(%q) = %q, want %s first", tt.query, rels(ms), tt.first)
		}
	}
}

func TestSearchBugReportMentioningTests(t *testing.T) {
	root := writeTree(t, appFiles)
	ix, _ := build(t, root)
	report := `Login fails with a valid password after the upgrade.

Steps: start the server, post the login form with the right user name and password. The response is
"invalid credentials" although the password is correct; the tests fail too (see the docs for how
authentication should behave). I think check_password compares the password hash the wrong way, maybe
the encoding changed. Stack trace:

  File "src/api/handlers.py", line 4, in login_handler
  File "src/auth/login.py", line 7, in authenticate
    raise AuthenticationError("invalid credentials")
AuthenticationError: invalid credentials`
	ms := ix.Search(report, memory.SearchOptions{})
	if len(ms) == 0 || ms[0].Rel != "src/auth/login.py" {
		t.Fatalf("Search(bug report) = %q, want src/auth/login.py first", rels(ms))
	}
	// The test file and the docs are still candidates: a long text never filters.
	found := map[string]bool{}
	for _, m := range ms {
		found[m.Rel] = true
	}
	if !found["tests/test_login.py"] {
		t.Errorf("Search(bug report) = %q, want the test file among the matches (demoted, not dropped)", rels(ms))
	}
}

// TestSearchTopicWords checks that a role word used as a topic does not
// filter: "parsing configuration" is about configuration code.
func TestSearchTopicWords(t *testing.T) {
	root := writeTree(t, map[string]string{
		"internal/config/parse.go": "package config\n\n// Parse reads the configuration file.\nfunc Parse(path string) (*Config, error) { return nil, nil }\n",
		"deploy/app.yaml":          "replicas: 3\n",
		"internal/server/run.go":   "package server\n\nfunc Run() {}\n",
	})
	ix, _ := build(t, root)
	ms := ix.Search("Go files about parsing configuration", memory.SearchOptions{})
	if len(ms) == 0 || ms[0].Rel != "internal/config/parse.go" {
		t.Errorf("Search = %q, want internal/config/parse.go first", rels(ms))
	}
}

func TestSearchOptions(t *testing.T) {
	root := writeTree(t, appFiles)
	ix, _ := build(t, root)
	q := "authentication session token password"
	all := ix.Search(q, memory.SearchOptions{Limit: -1})
	if len(all) < 5 {
		t.Fatalf("Search(%q) = %q, want at least 5 matches", q, rels(all))
	}
	if got := ix.Search(q, memory.SearchOptions{Limit: 2}); len(got) != 2 || got[0].Rel != all[0].Rel {
		t.Errorf("Limit 2 gave %q", rels(got))
	}
	min := all[2].Score
	for _, m := range ix.Search(q, memory.SearchOptions{Limit: -1, MinScore: min}) {
		if m.Score < min {
			t.Errorf("MinScore %v let %s (%v) through", min, m.Rel, m.Score)
		}
	}
	for _, m := range ix.Search(q, memory.SearchOptions{Include: []string{"src/**/*.py"}, Exclude: []string{"**/tokens.py"}}) {
		if !strings.HasPrefix(m.Rel, "src/") || !strings.HasSuffix(m.Rel, ".py") || strings.HasSuffix(m.Rel, "tokens.py") {
			t.Errorf("include/exclude let %s through", m.Rel)
		}
	}
	ex := ix.Search(q, memory.SearchOptions{Explain: true})
	if len(ex[0].Reason.Scores) == 0 {
		t.Errorf("Explain gave no per-term scores: %+v", ex[0].Reason)
	}
	if got := ix.Search("zzzunknownword", memory.SearchOptions{}); len(got) != 0 {
		t.Errorf("a query of unknown words matched %q", rels(got))
	}
	if got := ix.Search("", memory.SearchOptions{}); len(got) != 0 {
		t.Errorf("the empty query matched %q", rels(got))
	}
}

// TestBM25 checks scores against values computed by hand from the
// definitions (k1 3, b 0.75, IDF log(1+(N-n+0.5)/(n+0.5))). Only the
// content field matches: the file names are single letters, which are not
// indexed.
func TestBM25(t *testing.T) {
	root := writeTree(t, map[string]string{
		"a.go": "apple apple banana",     // length 3
		"b.go": "banana cherry",          // length 2
		"c.go": "cherry cherry cherry x", // length 3 ("x" is noise)
	})
	ix, _ := build(t, root)
	// avg length 8/3. a: B=0.25+0.75*3/(8/3)=1.09375, tf~=2/B=1.828571.
	idfApple := math.Log(1 + (3-1+0.5)/(1+0.5))
	idfCherry := math.Log(1 + (3-2+0.5)/(2+0.5))
	sat := func(tf float64, l float64) float64 {
		B := 0.25 + 0.75*l/(8.0/3)
		x := tf / B
		return x / (3 + x)
	}
	want := map[string]float64{ // query "apple cherry": share of IDF mass
		"a.go": idfApple * sat(2, 3) / (idfApple + idfCherry),
		"b.go": idfCherry * sat(1, 2) / (idfApple + idfCherry),
		"c.go": idfCherry * sat(3, 3) / (idfApple + idfCherry),
	}
	ms := ix.Search("apple cherry", memory.SearchOptions{Explain: true})
	if len(ms) != 3 {
		t.Fatalf("got %q, want 3 matches", rels(ms))
	}
	for _, m := range ms {
		if math.Abs(m.Score-want[m.Rel]) > 1e-6 {
			t.Errorf("%s: score %.6f, want %.6f", m.Rel, m.Score, want[m.Rel])
		}
	}
	if got, w := ms[0].Reason.Scores["apple"], idfApple*sat(2, 3); ms[0].Rel != "a.go" || math.Abs(got-w) > 1e-6 {
		t.Errorf("first %s, apple contribution %.6f, want a.txt and %.6f", ms[0].Rel, got, w)
	}
}

// TestBM25FFields checks that the fields are weighted: a file named after
// the query term outranks one that only mentions it once in a longer text.
func TestBM25FFields(t *testing.T) {
	root := writeTree(t, map[string]string{
		"scheduler.go":  "package x\n\nfunc run() {}\n",
		"other/misc.go": "package other\n\n// the scheduler calls this, among many other things done here\nfunc helper() {}\n",
	})
	ix, _ := build(t, root)
	ms := ix.Search("scheduler", memory.SearchOptions{})
	if len(ms) != 2 || ms[0].Rel != "scheduler.go" || len(ms[0].Reason.Terms["name"]) == 0 {
		t.Fatalf("Search(scheduler) = %+v, want scheduler.go first, matched by name", ms)
	}
}

// TestSearchRoleWordInPassing checks that a short query which opens with a
// role word used as a subject ("tests fail because ...", "docs say ...")
// does not filter on it: the file the text is about is still found.
func TestSearchRoleWordInPassing(t *testing.T) {
	root := writeTree(t, appFiles)
	ix, _ := build(t, root)
	for _, q := range []string{
		"tests fail because authenticate compares plain text passwords",
		"docs say check_password should hash the password",
		"config breaks authenticate after the upgrade",
	} {
		ms := ix.Search(q, memory.SearchOptions{})
		if len(ms) == 0 || ms[0].Rel != "src/auth/login.py" {
			t.Errorf("Search(%q) = %q, want src/auth/login.py first", q, rels(ms))
		}
	}
}

// TestLockFilesByNameOnly: a lock file is found by its name, never by its
// content (the versions and hashes of every package), which would put it
// above the manifest a dependency question is about.
func TestLockFilesByNameOnly(t *testing.T) {
	lock := `{"name": "app", "lockfileVersion": 3, "packages": {` +
		strings.Repeat(`"node_modules/lodash": {"version": "4.17.21", "resolved": "https://registry.npmjs.org/lodash/-/lodash-4.17.21.tgz"}, `, 40) + `}}`
	root := writeTree(t, map[string]string{
		"package.json":      `{"name": "app", "dependencies": {"lodash": "^4.17.21", "express": "^4"}}`,
		"package-lock.json": lock,
		"web/yarn.lock":     strings.Repeat("lodash@^4.17.21:\n  version \"4.17.21\"\n", 30),
		"src/server.js":     "const express = require('express')\n",
	})
	ix, _ := build(t, root)
	if got := rels(ix.Search("lodash", memory.SearchOptions{})); !slices.Equal(got, []string{"package.json"}) {
		t.Errorf("search lodash = %q, want only package.json", got)
	}
	if got := rels(ix.Search("package lock", memory.SearchOptions{})); len(got) == 0 || got[0] != "package-lock.json" {
		t.Errorf("search \"package lock\" = %q, want package-lock.json first", got)
	}
	if got := rels(ix.Search("yarn lock", memory.SearchOptions{})); len(got) == 0 || got[0] != "web/yarn.lock" {
		t.Errorf("search \"yarn lock\" = %q, want web/yarn.lock first", got)
	}
	if n := ix.Len(); n != 4 {
		t.Errorf("Len() = %d, want 4 (lock files are indexed files)", n)
	}
}

// An issue written from a template carries the template's instructions in
// HTML comments, which GitHub does not show: they are not the reporter's
// words and must not lift the template or the release tooling above the
// file the report is about.
func TestHTMLCommentsDropped(t *testing.T) {
	root := writeTree(t, map[string]string{
		"release/notes.py": "def check_release_notes(pull_request, issue):\n    \"\"\"The bot checks automatically that the release notes of a pull request " +
			"are formatted correctly, in the exact format, and writes a comment linking back to the issue it fixes " +
			"(auto-closing).\"\"\"\n",
		"core/expr.py": "class Expr:\n    \"\"\"An expression; a matrix symbol keeps its name in its first argument.\"\"\"\n",
		"core/add.py":  "class Add:\n    \"\"\"A sum of expressions.\"\"\"\n",
		"core/mul.py":  "class Mul:\n    \"\"\"A product of expressions.\"\"\"\n",
	})
	ix, _ := build(t, root)
	report := "Name of a matrix symbol\n" +
		"<!-- Your title above should be a short description of what was changed. Do not include the issue number in the title. -->\n" +
		"<!-- If this pull request fixes an issue, write \"Fixes #NNNN\" in that exact format, " +
		"see https://tinyurl.com/auto-closing for more information. Also, please write a comment on that issue linking back " +
		"to this pull request once it is open. -->\n<!-- Write the release notes for this release below. " +
		"The bot will check your release notes automatically to see if they are formatted correctly. -->\n" +
		"The first argument keeps the name.\n"
	got := rels(ix.Search(report, memory.SearchOptions{}))
	if len(got) == 0 || got[0] != "core/expr.py" {
		t.Fatalf("ranking = %v, want core/expr.py first", got)
	}
}

// Example and tutorial code uses every name a report gives; a report is
// about the library, so examples are demoted in a long text as the docs
// are, and not in a short request.
func TestExamplesDemotedForReports(t *testing.T) {
	root := writeTree(t, map[string]string{
		"lib/legend.py":             "def legend(ncol=1):\n    \"\"\"Place a legend; ncol is its number of columns (the keyword arguments of subplots say ncols).\"\"\"\n",
		"examples/legend_demo.py":   "import lib\nfig, axs = plt.subplots(nrows=2, ncols=2)\naxs.legend(ncol=2)\n# an example: keyword arguments of subplots, nrows, ncols, legend; specify the number of columns, inconsistent spellings\n",
		"tutorials/layout_guide.py": "fig, axs = plt.subplots(nrows=2, ncols=2)\n# legend nrows ncols subplots keyword arguments example\n",
	})
	ix, _ := build(t, root)
	report := "Inconsistent keyword arguments for the number of columns\n" +
		"I find it quite inconsistent that one sometimes has to specify ncols and sometimes ncol. " +
		"For example the subplots take nrows and ncols but the legend takes ncol. The keyword arguments " +
		"of the legend should accept ncols as the subplots do; every example uses both spellings."
	ms := ix.Search(report, memory.SearchOptions{})
	got := rels(ms)
	if len(got) == 0 || got[0] != "lib/legend.py" {
		t.Errorf("report: ranking = %v, want lib/legend.py first", got)
	}
}

// objectUtilsTree is a Java class ObjectUtils beside a class whose comments
// say the words of the queries about it.
func objectUtilsTree() map[string]string {
	return map[string]string{
		"src/main/java/org/lib/ObjectUtils.java": "package org.lib;\n\npublic class ObjectUtils {\n" +
			"    public static boolean isEmpty(Object o) {\n        return o == null;\n    }\n}\n",
		"src/main/java/org/lib/Validate.java": "package org.lib;\n\n/** Checks arguments: an empty value, a null value, an optional value. */\n" +
			"public class Validate {\n    public static void notEmpty(Object value) {\n        // an empty optional is empty\n    }\n}\n",
	}
}

// A class name in a query is read as the index reads it in code: its parts
// and its whole form. Lower-cased first, ObjectUtils gave the one term
// objectutil, which neither the file's name nor its code has.
func TestCamelCaseQueryWords(t *testing.T) {
	root := writeTree(t, objectUtilsTree())
	ix, _ := build(t, root)
	for _, q := range []string{
		"ObjectUtils should treat an empty Optional as empty",
		"Add Optional to ObjectUtils\n\nReturn the negation of Optional.isPresent when checking whether an Optional " +
			"is empty, and test whether an Optional is not empty; update the Javadoc to reflect the use of Optional, " +
			"and remove an empty line to match the code style from before the changes.",
	} {
		ms := ix.Search(q, memory.SearchOptions{})
		if len(ms) == 0 || ms[0].Rel != "src/main/java/org/lib/ObjectUtils.java" {
			t.Errorf("%.30q: ranking = %v, want ObjectUtils.java first", q, rels(ms))
			continue
		}
		if name := ms[0].Reason.Terms["name"]; !slices.Contains(name, "objectutils") || !slices.Contains(name, "object") {
			t.Errorf("%.30q: name terms = %v, want object and objectutils", q, name)
		}
	}
}

// A class name written in lower case ("objectutils") matches the whole form
// the index keeps of the class's name, which its stem does not.
func TestLowerCaseClassName(t *testing.T) {
	root := writeTree(t, objectUtilsTree())
	ix, _ := build(t, root)
	ms := ix.Search("lang 1689 add optional to objectutils isempty", memory.SearchOptions{})
	if len(ms) == 0 || ms[0].Rel != "src/main/java/org/lib/ObjectUtils.java" {
		t.Fatalf("ranking = %v, want ObjectUtils.java first", rels(ms))
	}
	if name := ms[0].Reason.Terms["name"]; !slices.Contains(name, "objectutils~objectutils") {
		t.Errorf("name terms = %v, want objectutils~objectutils", name)
	}
}

// A change log lists every change in a line of prose, whatever its format
// (Maven's src/changes/changes.xml): a report's words all meet there, and it
// is documentation, demoted as docs are; code named history.go is code.
func TestChangeLogsAreDocs(t *testing.T) {
	root := writeTree(t, map[string]string{
		"src/changes/changes.xml": "<document><body><release>\n" +
			"<action issue=\"IO-1\" type=\"fix\">Tailer stops reading a rotated file when the file is truncated.</action>\n" +
			"<action issue=\"IO-2\" type=\"fix\">Tailer misses lines appended while the file is rotated and reopened.</action>\n" +
			"</release></body></document>\n",
		"src/main/java/org/io/Tailer.java": "package org.io;\n\n/** Follows a file as lines are appended, like tail -f. */\n" +
			"public class Tailer implements Runnable {\n    public void run() {\n        // reopen the file when it is rotated\n    }\n}\n",
		"memory/history.go": "package memory\n\n// history reads the commits that touched a file.\nfunc history() {}\n",
	})
	ix, _ := build(t, root)
	report := "Tailer stops when the file is rotated\n\nWhen the log file is rotated and truncated, the Tailer stops reading: " +
		"lines appended after the rotation are missed until the file is reopened by hand. Expected the tailer to " +
		"reopen the rotated file and keep reading the appended lines, as it did in the commits before."
	ms := ix.Search(report, memory.SearchOptions{})
	if len(ms) == 0 || ms[0].Rel != "src/main/java/org/io/Tailer.java" {
		t.Fatalf("ranking = %v, want Tailer.java first", rels(ms))
	}
	for _, m := range ms {
		if m.Rel == "src/changes/changes.xml" && !slices.Contains(m.Reason.Notes, "documentation demoted") {
			t.Errorf("changes.xml notes = %v, want documentation demoted", m.Reason.Notes)
		}
	}
	for _, m := range ms {
		if m.Rel == "memory/history.go" && slices.Contains(m.Reason.Notes, "documentation demoted") {
			t.Errorf("history.go notes = %v: it is code, not a change log", m.Reason.Notes)
		}
	}
	if !slices.Contains(rels(ms), "memory/history.go") {
		t.Errorf("ranking = %v, want memory/history.go among the matches (the report says commits)", rels(ms))
	}
}

// A JVM stack trace prints the innermost frame first, and each "Caused
// by:" below it: the innermost frame of the project in the last trace is
// where the error surfaced, passing over the exception class's own frame.
func TestJavaStackTraceInnermostFrame(t *testing.T) {
	root := writeTree(t, map[string]string{
		"src/main/java/com/lib/ObjectMapper.java": "package com.lib;\n\npublic class ObjectMapper {\n" +
			"    public <T> T readValue(String json, Class<T> type) { return new BeanDeserializer().deserialize(json, type); }\n}\n",
		"src/main/java/com/lib/deser/BeanDeserializer.java": "package com.lib.deser;\n\npublic class BeanDeserializer {\n" +
			"    public <T> T deserialize(String json, Class<T> type) { throw MismatchedInputException.from(json); }\n}\n",
		"src/main/java/com/lib/exc/MismatchedInputException.java": "package com.lib.exc;\n\npublic class MismatchedInputException extends RuntimeException {\n" +
			"    public static MismatchedInputException from(String json) { return new MismatchedInputException(); }\n}\n",
		"src/main/java/com/lib/deser/CreatorCollector.java": "package com.lib.deser;\n\n/** Collects the creators of a bean: constructors and factory methods. */\n" +
			"public class CreatorCollector {\n    void addCreator(Object creator) {}\n}\n",
	})
	ix, _ := build(t, root)
	report := "Cannot read a value with a record creator\n\nReading a record whose creator takes one argument fails " +
		"with the exception below, though the creator is there and the json has the property:\n\n" +
		"```\nException in thread \"main\" java.lang.IllegalStateException: cannot read\n" +
		"\tat com.app.Main.main(Main.java:9)\n" + strings.Repeat("\tat com.app.Outer.call(Outer.java:1)\n", 70) +
		"Caused by: com.lib.exc.MismatchedInputException: Cannot construct instance (no creators, like default constructor, exist)\n" +
		"\tat com.lib.exc.MismatchedInputException.from(MismatchedInputException.java:63)\n" +
		"\tat com.lib.deser.BeanDeserializer.deserialize(BeanDeserializer.java:120)\n" +
		"\tat com.lib.ObjectMapper.readValue(ObjectMapper.java:3500)\n" +
		"\tat com.app.Main.main(Main.java:8)\n```\n"
	ms := ix.Search(report, memory.SearchOptions{})
	if len(ms) == 0 || ms[0].Rel != "src/main/java/com/lib/deser/BeanDeserializer.java" {
		t.Fatalf("ranking = %v, want BeanDeserializer.java first", rels(ms))
	}
	if !slices.Contains(ms[0].Reason.Notes, "innermost traceback frame in the project") {
		t.Errorf("notes = %v, want the innermost frame's", ms[0].Reason.Notes)
	}
}

// In a short request a word of a unit's doc comment counts double (the
// comment says what the unit is); in a long text once, as in the code: a
// report's words fill the public API's long doc comments as much as the
// code that does the work.
func TestUnitCommentsInLongTexts(t *testing.T) {
	src := "package cache\n\n" +
		"func Evict(entries map[string]int) {\n\tdelete(entries, oldest(entries)) // expired\n}\n\n" +
		"// Evict drops expired entries.\nfunc Sweep() {\n\tfor range 3 {\n\t}\n}\n"
	root := writeTree(t, map[string]string{
		"cache/cache.go": src,
		"cache/other.go": "package cache\n\n// other does not evict\nfunc other() {}\n",
	})
	ix, _ := build(t, root)
	opt := memory.SearchOptions{Source: memory.DirSource(root)}
	unitOf := func(q string) string {
		for _, m := range ix.Search(q, opt) {
			if m.Rel == "cache/cache.go" {
				return m.Reason.Unit
			}
		}
		t.Fatalf("%.20q: cache/cache.go not found", q)
		return ""
	}
	if u := unitOf("evict expired"); u != "Sweep" {
		t.Errorf("short request: unit = %q, want Sweep (its doc comment has both words)", u)
	}
	long := "Evict keeps expired values\n\nAfter the clock moves past the deadline the expired values stay " +
		"and every lookup still returns them; evict should remove them when it runs, since nothing else does " +
		"and memory grows until the process restarts."
	if u := unitOf(long); u != "Evict" {
		t.Errorf("long text: unit = %q, want Evict (the code that evicts comes first, matched once as Sweep's comment)", u)
	}
}

// A report written in its project's issue template has all the template's
// words: its headings, and the confirmations it asks the reporter to tick
// (with their bullets, or without where the text was copied from the page).
// The template is the report's form, not its subject, and the ticked lines
// are the same in every report; they lift the template and the files that
// link to the same places, never the code the report is about.
func TestReportTemplateWords(t *testing.T) {
	root := writeTree(t, withFiller(map[string]string{
		".github/ISSUE_TEMPLATE/bug_report.yml": "name: Bug Report\nbody:\n" +
			"  - type: checkboxes\n    attributes:\n      label: Before Creating the Bug Report\n      options:\n" +
			"        - label: I found a bug, not just asking a question, which should be created in GitHub Discussions.\n" +
			"        - label: I have searched the GitHub Issues and GitHub Discussions of this repository and believe that this is not a duplicate.\n" +
			"  - type: textarea\n    attributes:\n      label: Runtime platform environment\n" +
			"  - type: textarea\n    attributes:\n      label: Describe the Bug\n" +
			"  - type: textarea\n    attributes:\n      label: Steps to Reproduce\n" +
			"  - type: textarea\n    attributes:\n      label: What Did You Expect to See?\n",
		"dev/merge_pr.py": "# Merges a pull request: searches the GitHub issues and discussions of the repository\n" +
			"# for duplicates before it asks a question.\ndef merge(pr):\n    pass\n",
		"lib/options.js": "// the command line's options: autofixing, formatters\nmodule.exports = {};\n",
		"broker/PopRetryTopics.java": "package broker;\n\n/** The retry topics of pop consumers: one per topic and consumer group. */\n" +
			"public class PopRetryTopics {\n    /** Deletes the pop retry topics of a topic that was removed. */\n" +
			"    void deleteRetryTopics(String topic) {}\n}\n",
	}))
	ix, _ := build(t, root)
	report := "[Bug] Pop retry topic was not deleted when topic was removed\n" +
		"### Before Creating the Bug Report\n\n" +
		"- [X] I found a bug, not just asking a question, which should be created in GitHub Discussions.\n" +
		"- [X] I have searched the GitHub Issues and GitHub Discussions of this repository and believe that this is not a duplicate.\n\n" +
		"### Runtime platform environment\n\nWindows 10\n\n### Describe the Bug\n\n" +
		"Messages retried in pop mode create a pop retry topic for the topic. When the original topic was removed, " +
		"its pop retry topic was not deleted.\n\n### Steps to Reproduce\n\n1. create a topic\n2. consume it with a pop consumer\n" +
		"3. delete the topic\n\n### What Did You Expect to See?\n\nThe retry topics deleted.\n\n" +
		"[ ] Documentation update\n[x ] Bug fix\n[ ] Add autofixing to a rule\n[ ] Add a CLI option\n"
	ms := ix.Search(report, memory.SearchOptions{})
	if len(ms) == 0 || ms[0].Rel != "broker/PopRetryTopics.java" {
		t.Fatalf("ranking = %v, want broker/PopRetryTopics.java first", rels(ms))
	}
	checkOnlyNoted(t, ms, "report template demoted", ".github/ISSUE_TEMPLATE/bug_report.yml")
	for _, rel := range []string{"dev/merge_pr.py", "lib/options.js"} {
		if slices.Contains(rels(ms), rel) {
			t.Errorf("ranking = %v: %s has only the task list's words", rels(ms), rel)
		}
	}
}

// Not every project keeps its templates where GitHub looks for them: a
// documentation file named after issues or bug reports is one (ESLint's
// templates/issue-create.md.ejs, checkstyle's src/xdocs/report_issue.xml,
// the page on how to write a report), a template of prose is prose
// (templates/needs-info.md.ejs, a bot's comment), and code about templates
// is code (Gitea's modules/structs/issue_template.go).
func TestReportTemplatesByName(t *testing.T) {
	words := "What version are you using? What did you do? Please include the actual source code causing the issue. " +
		"What did you expect to happen? What actually happened? Please include the actual, raw output.\n"
	root := writeTree(t, withFiller(map[string]string{
		"templates/issue-create.md.ejs":     "Thanks for the issue! " + words,
		"templates/needs-info.md.ejs":       "We need more information. " + words,
		"src/xdocs/report_issue.xml":        "<section name=\"How to report an issue\">" + words + "</section>\n",
		"modules/structs/issue_template.go": "package structs\n\n// IssueTemplate asks: " + words + "type IssueTemplate struct{}\n",
		"lib/rules/yoda.js":                 "// yoda: require or disallow Yoda conditions; the source code of a comparison with a literal\nmodule.exports = {};\n",
	}))
	ix, _ := build(t, root)
	report := "yoda rule reports a comparison with a literal on the left\n" +
		"What version are you using? 1.0. What did you do? Ran the yoda rule on the source code below. " +
		"What did you expect to happen? No error for a range check. What actually happened? The rule reported the comparison.\n"
	ms := ix.Search(report, memory.SearchOptions{})
	if len(ms) == 0 || ms[0].Rel != "lib/rules/yoda.js" {
		t.Fatalf("ranking = %v, want lib/rules/yoda.js first", rels(ms))
	}
	for _, m := range ms {
		noted := slices.Contains(m.Reason.Notes, "report template demoted")
		if want := m.Rel == "templates/issue-create.md.ejs" || m.Rel == "src/xdocs/report_issue.xml"; noted != want {
			t.Errorf("%s: report template demoted %v, want %v (notes %v)", m.Rel, noted, want, m.Reason.Notes)
		}
	}
	checkOnlyNoted(t, ms, "documentation demoted", "templates/needs-info.md.ejs")
}

// A report's configuration names a rule by its file's name of several
// words ('object-curly-newline': ['error']): that rare whole form names the
// code file (object-curly-newline.js), which ranks as named after it.
func TestLongTextNamesFileOfSeveralWords(t *testing.T) {
	files := map[string]string{
		"lib/rules/object-curly-newline.js":  "// enforce consistent line breaks inside braces\nmodule.exports = { create(context) { return {}; } };\n",
		"docs/rules/object-curly-newline.md": "# object-curly-newline\n\nEnforce consistent line breaks inside braces.\n",
		"lib/linter.js": "// the linter: runs the rules on the source, applies the fixes, keeps each comment\n" +
			"function verifyAndFix(text) { /* fix: a comment inside braces is removed when the object is made empty */ }\n",
	}
	for _, r := range []string{"semi", "quotes", "indent", "curly", "eqeqeq", "camelcase"} {
		files["lib/rules/"+r+".js"] = "// the " + r + " rule: a line, a brace, an object\nmodule.exports = {};\n"
	}
	root := writeTree(t, files)
	ix, _ := build(t, root)
	report := "ESLint Version: v3.19.0\n'rules': {\n    'object-curly-newline': ['error', {multiline: true}],\n}\n" +
		"Before\nvar a = {\n  // Nothing here yet, but comment should not be removed.\n};\n" +
		"After invoking ESLint with the --fix flag the file is modified as follows\nvar a = {};\n" +
		"What did you expect to happen? The comment should have been preserved inside the braces.\n"
	ms := ix.Search(report, memory.SearchOptions{})
	if len(ms) == 0 || ms[0].Rel != "lib/rules/object-curly-newline.js" {
		t.Fatalf("ranking = %v, want lib/rules/object-curly-newline.js first", rels(ms))
	}
	checkOnlyNoted(t, ms, "named after objectcurlynewline", "lib/rules/object-curly-newline.js")
}
