package mcpserver_test

import (
	"context"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/taskctl/taskctl/mcpserver"
)

// TestPromptsFollowTheLibrary: a task added to the library during a
// session becomes a prompt, and the client is told the list changed; a
// task removed goes.
func TestPromptsFollowTheLibrary(t *testing.T) {
	f := newFixture(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute) // a hang, not a speed
	defer cancel()
	srv := promptServer(ctx, t, f)
	st, ct := mcp.NewInMemoryTransports()
	served := make(chan error, 1)
	go func() { served <- srv.Run(ctx, st) }()
	changed := make(chan struct{}, 8)
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, &mcp.ClientOptions{
		PromptListChangedHandler: func(context.Context, *mcp.PromptListChangedRequest) { changed <- struct{}{} },
	}).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	names := func() map[string]bool {
		list, err := cs.ListPrompts(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		m := map[string]bool{}
		for _, p := range list.Prompts {
			m[p.Name] = true
		}
		return m
	}
	wait := func(what string) {
		t.Helper()
		select {
		case <-changed:
		case <-ctx.Done():
			t.Fatalf("no notifications/prompts/list_changed after %s", what)
		}
	}
	write(t, f.proj, map[string]string{".taskctl/tasks/more.xml": `<task name="explain"><description>Explain a file</description>` +
		`<file_paths><path>README.md</path></file_paths></task>`})
	wait("a task was added")
	if got := names(); !got["explain"] || !got["review"] {
		t.Errorf("prompts after the addition: %v", got)
	}
	if res, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "explain"}); err != nil || len(res.Messages) == 0 {
		t.Errorf("the new prompt: %v %v", res, err)
	}
	write(t, f.proj, map[string]string{".taskctl/tasks/t.xml": `<tasks></tasks>`})
	for names()["review"] {
		wait("a task was removed")
	}
	cs.Close()
	if err := <-served; err != nil && ctx.Err() == nil {
		t.Logf("Run: %v", err)
	}
}

// TestPromptsSeeAChangeBeforeTheWatch: a task added after the server was
// built but before its session's watch first looked at the library
// becomes a prompt. The watch compares with the library the prompts were
// made from, not with what it finds when it starts.
func TestPromptsSeeAChangeBeforeTheWatch(t *testing.T) {
	f := newFixture(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second) // a hang, not a speed
	defer cancel()
	srv := promptServer(ctx, t, f)
	write(t, f.proj, map[string]string{".taskctl/tasks/more.xml": `<task name="explain"><description>Explain a file</description>` +
		`<file_paths><path>README.md</path></file_paths></task>`})
	st, ct := mcp.NewInMemoryTransports()
	go func() { _ = srv.Run(ctx, st) }()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	for {
		list, err := cs.ListPrompts(ctx, nil)
		if err != nil {
			t.Fatalf("prompts: %v (the task added before the watch never became one)", err)
		}
		for _, p := range list.Prompts {
			if p.Name == "explain" {
				return
			}
		}
		select {
		case <-ctx.Done():
			t.Fatal("the task added before the watch started never became a prompt")
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// promptServer builds the server of f's project, on an engine closed when
// the test ends.
func promptServer(ctx context.Context, t *testing.T, f *fixture) *mcpserver.Server {
	t.Helper()
	eng, srv := serve(ctx, t, f, f.proj)
	t.Cleanup(func() { eng.Close() })
	return srv
}
