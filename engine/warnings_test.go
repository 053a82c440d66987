package engine_test

import (
	"context"
	"sync"
	"testing"

	"github.com/taskctl/taskctl/engine"
	"github.com/taskctl/taskctl/internal/diag"
)

// TestWarningsAreTheOperationsOwn (#29 point 3): two operations of one
// engine running side by side (two MCP calls) each get their own warnings
// with their result: a binary file's read says FILE_BINARY, a text file's
// read beside it says nothing. With a collector on the Engine, each
// caller took what the other had said (and under -race, the appends
// raced).
func TestWarningsAreTheOperationsOwn(t *testing.T) {
	proj, _, xdg := fsProject(t)
	writeFiles(t, proj, map[string]string{"blob.bin": "\x00\x01\x02binary\x00"})
	e := open(t, proj, xdg, engine.Options{Command: "fs"})
	if _, err := e.FS(); err != nil { // what a session loads before its calls
		t.Fatal(err)
	}
	ctx := context.Background()
	const rounds = 50
	var wg sync.WaitGroup
	errs := make(chan string, 4*rounds)
	for i := 0; i < rounds; i++ {
		wg.Add(2)
		go func() {
			defer wg.Done()
			res, err := e.ReadFile(ctx, engine.ReadFileRequest{Path: "blob.bin"})
			if err != nil {
				errs <- "blob.bin: " + err.Error()
				return
			}
			if len(res.Warnings) != 1 || res.Warnings[0].Code != diag.FileBinary {
				errs <- "blob.bin: warnings " + codes(res.Warnings) + ", want FILE_BINARY alone"
			}
		}()
		go func() {
			defer wg.Done()
			res, err := e.ReadFile(ctx, engine.ReadFileRequest{Path: "README.md"})
			if err != nil {
				errs <- "README.md: " + err.Error()
				return
			}
			if len(res.Warnings) != 0 {
				errs <- "README.md: warnings " + codes(res.Warnings) + ", want none"
			}
		}()
	}
	wg.Wait()
	close(errs)
	seen := map[string]bool{}
	for msg := range errs {
		if !seen[msg] {
			seen[msg] = true
			t.Error(msg)
		}
	}
}

// TestFailureCarriesItsWarnings: an operation that fails returns the
// warnings it gave before with its error (engine.WarningsOf), and a later
// operation of the same engine does not repeat them.
func TestFailureCarriesItsWarnings(t *testing.T) {
	proj, _, xdg := fsProject(t)
	writeFiles(t, proj, map[string]string{
		".taskctl/tasks/a.xml": `<tasks><task name="review"><description>Review</description></task></tasks>`,
	})
	e := open(t, proj, xdg, engine.Options{Command: "assemble"})
	ctx := context.Background()
	_, err := e.Assemble(ctx, engine.AssembleRequest{Template: "review", Vars: []string{"nope=1"}, Style: "html"})
	if code(err) != diag.ArgInvalid {
		t.Fatalf("assemble in style html: %v, want ARG_INVALID", err)
	}
	if ws := engine.WarningsOf(err); len(ws) != 1 || ws[0].Code != diag.UnknownVar {
		t.Errorf("the failure's warnings %s, want UNKNOWN_VAR", codes(ws))
	}
	res, err := e.Assemble(ctx, engine.AssembleRequest{Template: "review"})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Warnings) != 0 {
		t.Errorf("the second assemble's warnings %s: want none (the first one's stay with it)", codes(res.Warnings))
	}
}

func codes(ws []diag.Warning) string {
	s := "["
	for i, w := range ws {
		if i > 0 {
			s += " "
		}
		s += string(w.Code)
	}
	return s + "]"
}
