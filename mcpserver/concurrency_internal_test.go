package mcpserver

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/taskctl/taskctl/engine"
)

// busyServer is a server on a small project whose engine is held by a
// context operation that does not end until the test says so.
func busyServer(t *testing.T) (s *Server, cs *mcp.ClientSession, release func()) {
	t.Helper()
	proj := t.TempDir()
	for name, body := range map[string]string{".git/HEAD": "ref: x\n", "src/a.go": "package a\n"} {
		p := filepath.Join(proj, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte(body), 0o644)
	}
	ctx := context.Background()
	eng, err := engine.Open(ctx, engine.Options{Cwd: proj, ProjectDir: proj, Command: "mcp",
		Getenv: func(k string) string {
			if k == "XDG_CONFIG_HOME" {
				return filepath.Join(proj, ".xdg")
			}
			return ""
		}})
	if err != nil {
		t.Fatal(err)
	}
	if err := eng.StartSession(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { eng.Close() }) // after the session's close, which ConnectInMemory registers later
	s, err = New(eng)
	if err != nil {
		t.Fatal(err)
	}
	cs = ConnectInMemory(ctx, t, s, mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil), nil)
	done, err := s.exclusive(ctx) // a long assemble, as far as the others can tell
	if err != nil {
		t.Fatal(err)
	}
	return s, cs, done
}

// ConnectInMemory connects client c (with opts) to s over in-memory
// transports, and closes both ends when the test ends. The tests of
// package mcpserver_test use it too.
func ConnectInMemory(ctx context.Context, t *testing.T, s *Server, c *mcp.Client, opts *mcp.ClientSessionOptions) *mcp.ClientSession {
	t.Helper()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := s.MCP().Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := c.Connect(ctx, ct, opts)
	if err != nil {
		ss.Close()
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cs.Close()
		ss.Wait()
	})
	return cs
}

// TestFileCallsBesideALongCall: while a context operation holds the
// engine, file operations are served (reads and writes); a call that
// waits for the engine and is cancelled stops waiting, and the engine,
// once free, serves the next.
func TestFileCallsBesideALongCall(t *testing.T) {
	s, cs, release := busyServer(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second) // a hang, not a speed
	defer cancel()
	for _, c := range []struct {
		tool string
		args map[string]any
	}{
		{"read_file", map[string]any{"path": "src/a.go"}},
		{"write_file", map[string]any{"path": ".taskctl/workspace/n.md", "content": "x"}},
		{"edit_file", map[string]any{"path": ".taskctl/workspace/n.md", "edits": []any{map[string]any{"old_text": "x", "new_text": "y"}}}},
		{"list_directory", map[string]any{"path": "src"}},
	} {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: c.tool, Arguments: c.args})
		if err != nil || res.IsError {
			t.Fatalf("%s while the engine is busy: %v %v", c.tool, err, res)
		}
	}

	// The handler of a call cancelled while it waits returns, with the
	// code of an interruption.
	waiting, stop := context.WithCancel(context.Background())
	out := make(chan error, 1)
	go func() {
		_, _, err := s.search(waiting, nil, SearchIn{Query: "a"})
		out <- err
	}()
	stop()
	select {
	case err := <-out:
		if err == nil || !strings.HasPrefix(err.Error(), "INTERRUPTED: ") {
			t.Errorf("a cancelled search: %v", err)
		}
	case <-ctx.Done():
		t.Fatal("a cancelled search kept waiting for the engine")
	}
	release()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "search", Arguments: map[string]any{"query": "package"}})
	if err != nil || res.IsError {
		t.Errorf("search once the engine is free: %v %v", err, res)
	}
}

// TestProgress: a search with a progress token is told it started and
// that it ended.
func TestProgress(t *testing.T) {
	s, _, release := busyServer(t)
	release()
	// A client of its own, with a progress handler.
	got := make(chan *mcp.ProgressNotificationParams, 4)
	ctx := context.Background()
	cs := ConnectInMemory(ctx, t, s, mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, &mcp.ClientOptions{
		ProgressNotificationHandler: func(_ context.Context, req *mcp.ProgressNotificationClientRequest) { got <- req.Params },
	}), nil)
	params := &mcp.CallToolParams{Name: "search", Arguments: map[string]any{"query": "package"}}
	params.SetProgressToken("p1")
	if res, err := cs.CallTool(ctx, params); err != nil || res.IsError {
		t.Fatalf("search: %v %v", err, res)
	}
	for _, want := range []float64{0, 1} {
		select {
		case p := <-got:
			if p.ProgressToken != "p1" || p.Progress != want || p.Total != 1 {
				t.Errorf("progress %+v, want %v of 1", p, want)
			}
		case <-time.After(30 * time.Second):
			t.Fatalf("no progress notification %v", want)
		}
	}
}
