//lint:file-ignore SA1019 MCP roots are deprecated from protocol 2026-07-28 (SEP-2577) and honoured for clients on earlier ones.

package mcpserver_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestClientRootsNarrow: a client that declares a root (src/ of the
// project) is refused a file tool's path outside it, inside the project
// or not (PATH_OUTSIDE_PROJECT naming the client's roots), is served
// inside it, and list_allowed_directories reports the root and what
// applies (src/ alone); after the roots change to the project dir,
// README.md is read again. A client with no roots is not narrowed (the
// other tests), nor one on protocol 2026-07-28 (the last case). On main before this, README.md was read whatever the roots.
func TestClientRootsNarrow(t *testing.T) {
	f := newFixture(t)
	src := filepath.Join(f.proj, "src")
	c := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil)
	c.AddRoots(&mcp.Root{URI: "file://" + src, Name: "src"})
	// Roots are deprecated from protocol 2026-07-28 (SEP-2577): a client
	// that declares them speaks an earlier one.
	cs := connectWith(t, f, f.proj, c, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})

	if res := callTool(t, cs, "read_file", map[string]any{"path": "src/main.go"}); res.IsError {
		t.Fatalf("read_file in the root: %s", text(res))
	}
	for _, c := range []struct {
		tool string
		args map[string]any
	}{
		{"read_file", map[string]any{"path": "README.md"}},
		{"read_file", map[string]any{"path": "src/../README.md"}},
		{"read_multiple_files", map[string]any{"paths": []string{"src/main.go", "README.md"}}},
		{"grep", map[string]any{"pattern": "auth"}},
		{"write_file", map[string]any{"path": ".taskctl/workspace/x.md", "content": "x"}},
		{"copy_file", map[string]any{"source": "src/main.go", "destination": ".taskctl/workspace/m.go"}},
		{"read_file", map[string]any{"path": filepath.Join(f.outside, "secret.txt")}},
	} {
		res := callTool(t, cs, c.tool, c.args)
		if !res.IsError || !strings.HasPrefix(text(res), "PATH_OUTSIDE_PROJECT: ") || !strings.Contains(text(res), "client's roots") {
			t.Errorf("%s %v outside the client's roots = %s", c.tool, c.args, text(res))
		}
	}
	d := data(t, callTool(t, cs, "list_allowed_directories", map[string]any{}))
	applies, _ := d["applies"].([]any)
	if len(applies) != 1 || applies[0] != src {
		t.Errorf("list_allowed_directories applies = %v, want [%s]", d["applies"], src)
	}

	c.RemoveRoots("file://" + src)
	c.AddRoots(&mcp.Root{URI: "file://" + f.proj})
	for i := 0; ; i++ { // the change reaches the server as a notification
		if res := callTool(t, cs, "read_file", map[string]any{"path": "README.md"}); !res.IsError {
			break
		} else if i == 200 {
			t.Fatalf("after the roots changed to the project dir: %s", text(res))
		}
	}

	c2 := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil)
	c2.AddRoots(&mcp.Root{URI: "file://" + src})
	cs2 := connectWith(t, f, f.proj, c2, nil)
	if res := callTool(t, cs2, "read_file", map[string]any{"path": "README.md"}); res.IsError {
		t.Errorf("read_file outside the roots on protocol 2026-07-28: %s", text(res))
	}
}
