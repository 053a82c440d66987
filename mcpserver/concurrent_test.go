package mcpserver_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestTwoServersLoseNoEdit: two servers (two processes of the built
// binary) on one project each make 100 edit_file calls on one file; after
// ten such runs no edit is lost. Without a lock between the read and the
// write of an edit, a few vanish in most runs.
func TestTwoServersLoseNoEdit(t *testing.T) {
	f := newFixture(t)
	const perServer = 100
	path := filepath.Join(f.ws, "shared.txt")
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	var sessions [2]*mcp.ClientSession
	for i := range sessions {
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, &mcp.CommandTransport{Command: serverCmd(t, f)}, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer cs.Close()
		sessions[i] = cs
	}
	for run := 0; run < 10; run++ {
		var b strings.Builder
		for n := 0; n < 2*perServer; n++ {
			fmt.Fprintf(&b, "item %d: todo\n", n)
		}
		write(t, f.ws, map[string]string{"shared.txt": b.String()})
		var wg sync.WaitGroup
		for s, cs := range sessions {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for n := s * perServer; n < (s+1)*perServer; n++ {
					res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "edit_file", Arguments: map[string]any{
						"path": path, "create_backup": false,
						"edits": []any{map[string]any{"old_text": fmt.Sprintf("item %d: todo\n", n), "new_text": fmt.Sprintf("item %d: done\n", n)}}}})
					if err != nil || res.IsError {
						t.Errorf("run %d, server %d, edit %d: %v %s", run, s, n, err, text(res))
						return
					}
				}
			}()
		}
		wg.Wait()
		got, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if lost := strings.Count(string(got), ": todo"); lost > 0 {
			t.Fatalf("run %d: %d of %d edits lost", run, lost, 2*perServer)
		}
	}
}

// TestEditCompareAndSwap: an edit or write given the sha256 read_file
// returned is refused once the file has changed (FILE_CHANGED), and
// applied while it has not; each edit gives the sha256 to chain the next.
func TestEditCompareAndSwap(t *testing.T) {
	f := newFixture(t)
	write(t, f.ws, map[string]string{"plan.md": "one\ntwo\n"})
	cs := connect(t, f)
	const p = ".taskctl/workspace/plan.md"
	sum := data(t, callTool(t, cs, "read_file", map[string]any{"path": p}))["sha256"].(string)
	res := callTool(t, cs, "edit_file", map[string]any{"path": p, "sha256": sum, "edits": []any{map[string]any{"old_text": "one", "new_text": "1"}}})
	if res.IsError {
		t.Fatalf("edit with the current sha256: %s", text(res))
	}
	next := data(t, res)["sha256"].(string)
	for _, c := range []struct {
		tool string
		args map[string]any
	}{
		{"edit_file", map[string]any{"path": p, "sha256": sum, "edits": []any{map[string]any{"old_text": "two", "new_text": "2"}}}},
		{"write_file", map[string]any{"path": p, "sha256": sum, "content": "gone\n", "overwrite": true}},
	} {
		if res := callTool(t, cs, c.tool, c.args); !res.IsError || !strings.HasPrefix(text(res), "FILE_CHANGED: ") {
			t.Errorf("%s with a stale sha256: %s", c.tool, text(res))
		}
	}
	if b, _ := os.ReadFile(filepath.Join(f.ws, "plan.md")); string(b) != "1\ntwo\n" {
		t.Errorf("after the refused calls the file holds %q", b)
	}
	if res := callTool(t, cs, "write_file", map[string]any{"path": p, "sha256": next, "content": "new\n", "overwrite": true}); res.IsError {
		t.Errorf("write with the sha256 the edit gave: %s", text(res))
	}
}
