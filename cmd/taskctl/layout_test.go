package main

import (
	"encoding/json"
	"os/exec"
	"strings"
	"testing"
)

// TestLayout enforces the dependency direction of DESIGN §1: the leaves
// (the content helpers content/encoding and content/secrets,
// internal/pages, internal/sandbox and internal/xmltext) import none of
// our packages but
// internal/diag, schema and template none but internal/diag and
// internal/xmltext, and each other package imports only what the table
// allows. internal/diag, the diagnostics vocabulary, may be imported by
// every package and imports nothing of ours; so may internal/lazyregexp,
// package-level expressions compiled at their first use. internal/pages, which
// prepares memory for the index's and the tokenizer's hash tables and for
// the buffers contextgen/reading reads files into, is an addition to the design's
// table: a leaf the three may import. So are
// internal/xmltext, which decodes UTF-16 documents for schema and
// template, so that the two read a document the same way, and
// internal/sandbox, the Landlock confinement of workflow's executors.
// shellexec, the shell builtins, reads through root (its Shell view), not
// through project: one stack of confined opens.
// gitdir, go-git's read-only billy.Filesystem over a root.GitDir (the one
// way into a .git directory), sits just above root: the shell's git
// builtins and the index's commit history (memory) read git's object
// store through it, so root itself imports no go-git.
// ignore, the matcher of the .gitignore family, is a leaf that does no
// I/O: it imports none of the standard library's packages that reach the
// file system or the network (noIO); its callers hand it the content of
// the ignore files. root, the one confined file system
// (#29 point 1), imports the two content helpers, the decoder and the
// secret scanner, which live below it (content/): the content policy is
// decided once per file, by the confined root every reader goes through;
// project composes a root, and hands walk (the walker, its cache, the
// watcher and the reading of ignore files, below project and above root)
// its policy through hooks.
// contextgen is split by capability (#29 point 4): contextgen/sources
// resolves a task's sources (globs, commands, index matches, inherited
// files), contextgen/reading reads the candidates and admits their
// content, contextgen/budget fits a document to a token budget (a leaf);
// contextgen renders and counts, and reaches the files and the content
// helpers only through reading and sources. reading imports sources
// (the candidate type), never the reverse.
// state, taskctl's own state directories and the
// one capped reader, lies below root and imports nothing of ours: the
// token cache and the run records are files of taskctl's state, written
// through a state.Dir, so the tokenizer and workflow import state, not
// project (DESIGN §1-2: one owner of the workspace writes). internal/hostile builds hostile repositories for
// tests only, internal/ignoretest generated trees of ignore files for
// the differential tests against git, and internal/projtest the tree
// builders of root's, walk's and project's tests. The engine may import
// every package below it and none of them imports it; the front doors, cmd/taskctl and
// the MCP server (mcpserver, allowed before it exists), import only the
// engine and the diagnostics: what they print is the engine's types (and
// the sandbox helper cmd/taskctl dispatches to is the engine's
// SandboxExec). Every package has a doc.go.
func TestLayout(t *testing.T) {
	const mod = "github.com/taskctl/taskctl"
	const diagnostics = "internal/diag"
	const lazyRegexps = "internal/lazyregexp"
	allowed := map[string][]string{
		"schema":              {"internal/xmltext"},
		"template":            {"internal/xmltext"},
		"internal/xmltext":    nil,
		"ignore":              nil,
		"state":               nil,
		"root":                {"state", "content/encoding", "content/secrets"},
		"gitdir":              {"root"},
		"walk":                {"ignore", "root", "state"},
		"project":             {"ignore", "root", "state", "walk"},
		"content/encoding":    nil,
		"content/secrets":     nil,
		"contextgen/tokens":   {"internal/pages", "state"},
		"internal/pages":      nil,
		"internal/diag":       nil,
		"internal/lazyregexp": nil,
		"internal/hostile":    nil,
		"internal/sandbox":    nil,
		"internal/ignoretest": nil,
		"internal/projtest":   nil,
		"shellexec":           {"root", "gitdir", "ignore"},
		"memory":              {"root", "gitdir", "project", "state", "internal/pages"},
		"command":             {"root", "project", "shellexec", "content/secrets"},
		"contextgen/sources":  {"template", "project", "command", "memory", "content/encoding", "content/secrets"},
		"contextgen/reading":  {"root", "project", "contextgen/sources", "content/encoding", "content/secrets", "internal/pages"},
		"contextgen/budget":   nil,
		"contextgen":          {"template", "project", "command", "memory", "contextgen/sources", "contextgen/reading", "contextgen/budget", "contextgen/tokens"},
		"workflow":            {"template", "contextgen", "state", "internal/sandbox"},
		"bench/assoc":         {"memory"},
		"bench/wordnet":       {"memory"},
		"bench/retrieval":     {"memory", "project", "root"},
		// The engine may import everything below it; nothing below
		// imports it (no other row names it).
		"engine": {"schema", "template", "root", "gitdir", "project", "ignore", "state", "walk", "content/encoding", "content/secrets",
			"contextgen/tokens", "internal/pages", "internal/xmltext", "internal/sandbox", "shellexec", "command", "memory", "contextgen", "workflow"},
		"cmd/taskctl": {"engine", "mcpserver"}, // taskctl mcp starts the server
		"mcpserver":   {"engine"},
	}
	// Packages that may not do I/O of their own: no import of these.
	noIO := map[string]bool{"ignore": true, "contextgen/budget": true}
	ioPkgs := []string{"os", "os/exec", "io", "io/fs", "io/ioutil", "syscall", "path/filepath", "net", "net/http",
		"golang.org/x/sys/unix", "testing/fstest", "embed", "plugin", "unsafe"}
	// Every reader takes the one confined root (#29 point 1): these
	// packages must import it (and the table keeps shellexec from
	// importing project: its second stack of opens is gone).
	required := map[string][]string{
		"project":   {"root"},
		"shellexec": {"root"},
	}
	out, err := exec.Command("go", "list", "-json", mod+"/...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	dec := json.NewDecoder(strings.NewReader(string(out)))
	seen := 0
	for dec.More() {
		var p struct {
			ImportPath string
			Dir        string
			GoFiles    []string
			Imports    []string
		}
		if err := dec.Decode(&p); err != nil {
			t.Fatal(err)
		}
		name := strings.TrimPrefix(strings.TrimPrefix(p.ImportPath, mod), "/")
		// Each package says in doc.go what it does and what it guarantees
		// (the tools under bench/ are not packages of taskctl).
		if !strings.HasPrefix(name, "bench/") && !contains(p.GoFiles, "doc.go") {
			t.Errorf("package %s has no doc.go", name)
		}
		for _, req := range required[name] {
			if !contains(p.Imports, mod+"/"+req) {
				t.Errorf("%s does not import %s: every reader takes the one confined root", name, req)
			}
		}
		ok, known := allowed[name]
		for _, imp := range p.Imports {
			if noIO[name] && contains(ioPkgs, imp) {
				t.Errorf("%s imports %s: it does no I/O of its own", name, imp)
			}
			if !strings.HasPrefix(imp, mod+"/") {
				continue
			}
			dep := strings.TrimPrefix(imp, mod+"/")
			if dep == "cmd/taskctl" || dep == "mcpserver" && name != "cmd/taskctl" {
				t.Errorf("%s imports %s, a front door", name, dep)
			}
			if dep == "engine" && name != "cmd/taskctl" && name != "mcpserver" {
				t.Errorf("%s imports the engine: only the front doors may", name)
			}
			if !known {
				t.Errorf("package %s is not in the layout table", name)
				break
			}
			if (dep == diagnostics || dep == lazyRegexps) && name != dep {
				continue // every package may import the diagnostics and lazy expressions
			}
			if !contains(ok, dep) {
				t.Errorf("%s imports %s, which DESIGN §1 does not allow", name, dep)
			}
		}
		seen++
	}
	if seen < len(allowed)-1 { // mcpserver may not exist yet
		t.Fatalf("go list saw %d packages, want at least %d", seen, len(allowed))
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
