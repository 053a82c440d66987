package engine

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// TestListingOpensNoAuditLog: with the audit on, a listing (--paths, which
// reads nothing) opens no audit log, and a document's is closed once it is
// assembled: an MCP session's engine serves many calls, and each left a
// descriptor open.
func TestListingOpensNoAuditLog(t *testing.T) {
	dir := t.TempDir()
	proj, xdg := filepath.Join(dir, "proj"), filepath.Join(dir, "xdg")
	for name, body := range map[string]string{
		"proj/.git/HEAD":         "ref: refs/heads/main\n",
		"proj/a.txt":             "hello\n",
		"proj/t.xml":             `<task name="t"><description>d</description><file_paths><path>*.txt</path></file_paths></task>` + "\n",
		"xdg/taskctl/config.xml": "<config><audit>true</audit></config>",
	} {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	e, err := Open(context.Background(), Options{Cwd: proj, Getenv: func(k string) string {
		if k == "XDG_CONFIG_HOME" {
			return xdg
		}
		return ""
	}})
	if err != nil {
		t.Fatal(err)
	}
	tmpl := filepath.Join(proj, "t.xml")
	if _, err := e.Assemble(context.Background(), AssembleRequest{Template: tmpl, Paths: true}); err != nil {
		t.Fatal(err)
	}
	if e.audit != nil {
		t.Fatal("a listing opened the audit log")
	}
	if _, err := e.Assemble(context.Background(), AssembleRequest{Template: tmpl}); err != nil {
		t.Fatal(err)
	}
	if e.audit == nil {
		t.Fatal("assembling a document opened no audit log: the test's config did not take")
	}
	e.audit.mu.Lock()
	open := e.audit.f != nil
	e.audit.mu.Unlock()
	if open {
		t.Error("the audit log's file is left open after a document was assembled")
	}
}
