package engine_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/taskctl/taskctl/engine"
	"github.com/taskctl/taskctl/internal/diag"
)

// TestContentPolicyEveryRead (#29): a file holding an AWS key under an
// ordinary name is left out by assemble (SECRET_DETECTED); `fs read` and
// MCP read_file (engine.ReadFile), as text or as base64, and a command
// run by `taskctl exec` are refused it the same way, naming the rule and
// never the key. On main before #29, ReadFile returned the key.
func TestContentPolicyEveryRead(t *testing.T) {
	const key = "AKIAZ7Q3M9X2W4R8T6Y1"
	proj, _, xdg := fsProject(t)
	writeFiles(t, proj, map[string]string{"key.txt": "aws_access_key_id = " + key + "\n"})
	ctx := context.Background()
	e := open(t, proj, xdg, engine.Options{Command: "fs"})
	for _, enc := range []string{"", "base64"} {
		got, err := e.ReadFile(ctx, engine.ReadFileRequest{Path: "key.txt", Encoding: enc})
		if code(err) != diag.SecretDetected || got != nil {
			t.Errorf("ReadFile(key.txt, %q) = %+v, %v; want SECRET_DETECTED", enc, got, err)
		}
		if err != nil && (strings.Contains(err.Error(), key) || !strings.Contains(err.Error(), "aws-access-key-id")) {
			t.Errorf("ReadFile(key.txt, %q): %v: want the rule named, the key not quoted", enc, err)
		}
	}
	if got, err := e.ReadFile(ctx, engine.ReadFileRequest{Path: "README.md"}); err != nil || got.Content != "# hello\n" {
		t.Errorf("ReadFile(README.md) = %+v, %v", got, err)
	}

	e = open(t, proj, xdg, engine.Options{Command: "exec"})
	res, err := e.Exec(ctx, engine.ExecRequest{Command: "cat key.txt; echo README.md"})
	warns := engine.WarningsOf(err)
	if res != nil {
		warns = res.Warnings
	}
	ws, _ := json.Marshal(warns)
	if strings.Contains(string(ws), key) || !strings.Contains(string(ws), `"code":"SECRET_DETECTED"`) {
		t.Errorf("exec cat key.txt: %+v, %v; warnings %s: want SECRET_DETECTED, the key not quoted", res, err, ws)
	}
}

// TestStyleCheckedInEngine (#29 point 3): the engine refuses a bad style
// for every door (the CLI and the MCP server each checked it before), and
// names the request field so that each door can name it its own way.
func TestStyleCheckedInEngine(t *testing.T) {
	proj, _, xdg := fsProject(t)
	e := open(t, proj, xdg, engine.Options{Command: "assemble"})
	_, err := e.Assemble(context.Background(), engine.AssembleRequest{PathArgs: []string{"README.md"}, Style: "html"})
	var ee *engine.Error
	if !errors.As(err, &ee) || ee.Code != diag.ArgInvalid || ee.Arg != "style" || !strings.HasPrefix(ee.Message, "style must be xml, markdown or plain") {
		t.Fatalf("Assemble(style html) = %v (%+v); want ARG_INVALID about the style", err, ee)
	}
}
