package mcpserver_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The tests here talk to the built taskctl binary over a real stdio pipe,
// as a client configured with {"command": "taskctl", "args": ["mcp", ...]}
// does.

var (
	buildOnce sync.Once
	binPath   string
	buildErr  error
)

// taskctlBin builds cmd/taskctl once per test binary.
func taskctlBin(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "taskctl-mcp-test")
		if err != nil {
			buildErr = err
			return
		}
		binPath = filepath.Join(dir, "taskctl")
		out, err := exec.Command("go", "build", "-o", binPath, "github.com/taskctl/taskctl/cmd/taskctl").CombinedOutput()
		if err != nil {
			buildErr = err
			binPath = string(out)
		}
	})
	if buildErr != nil {
		t.Fatalf("go build: %v\n%s", buildErr, binPath)
	}
	return binPath
}

func TestMain(m *testing.M) {
	code := m.Run()
	if binPath != "" && buildErr == nil {
		os.RemoveAll(filepath.Dir(binPath))
	}
	os.Exit(code)
}

func serverCmd(t *testing.T, f *fixture) *exec.Cmd {
	cmd := exec.Command(taskctlBin(t), "mcp", "--project-dir", f.proj)
	cmd.Env = append(os.Environ(), "XDG_CONFIG_HOME="+f.xdg, "HOME="+f.xdg)
	return cmd
}

// TestStdio: the SDK's client drives the binary through a pipe.
func TestStdio(t *testing.T) {
	f := newFixture(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := serverCmd(t, f)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "search", Arguments: map[string]any{"query": "authenticate"}})
	if err != nil || res.IsError || !strings.Contains(text(res), filepath.Join(f.proj, "src", "main.go")) {
		t.Errorf("search over stdio: %v %s", err, text(res))
	}
	res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "write_file", Arguments: map[string]any{"path": "../../outside/x", "content": "x"}})
	if err != nil || !res.IsError || !strings.HasPrefix(text(res), "PATH_NOT_WRITABLE: ") {
		t.Errorf("write outside over stdio: %v %s", err, text(res))
	}
	prompts, err := cs.ListPrompts(ctx, nil)
	if err != nil || len(prompts.Prompts) != 1 {
		t.Errorf("prompts over stdio: %v %v", err, prompts)
	}
	if err := cs.Close(); err != nil {
		t.Errorf("close: %v (stderr: %s)", err, stderr.String())
	}
	if strings.Contains(stderr.String(), "panic") {
		t.Errorf("stderr: %s", stderr.String())
	}
}

// rawSession runs the binary with raw pipes: lines in, responses out.
type rawSession struct {
	t      *testing.T
	cmd    *exec.Cmd
	in     io.WriteCloser
	out    *bufio.Reader
	stderr *bytes.Buffer
	done   chan struct{} // closed when the process has ended
}

func startRaw(t *testing.T, f *fixture) *rawSession {
	t.Helper()
	s := startRawUninitialized(t, f)
	s.send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`)
	s.recv()
	s.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	return s
}

// startRawUninitialized is startRaw before initialize.
func startRawUninitialized(t *testing.T, f *fixture) *rawSession {
	t.Helper()
	cmd := serverCmd(t, f)
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	s := &rawSession{t: t, cmd: cmd, in: in, out: bufio.NewReaderSize(out, 1<<20), stderr: &bytes.Buffer{}, done: make(chan struct{})}
	cmd.Stderr = s.stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		cmd.Wait()
		close(s.done)
	}()
	t.Cleanup(func() {
		in.Close()
		select {
		case <-s.done:
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
			<-s.done
		}
	})
	return s
}

func (s *rawSession) send(line string) {
	s.t.Helper()
	if _, err := io.WriteString(s.in, line+"\n"); err != nil {
		s.t.Fatalf("send: %v", err)
	}
}

// recv reads one response, or fails after a while (a hang).
func (s *rawSession) recv() map[string]any {
	s.t.Helper()
	type line struct {
		b   []byte
		err error
	}
	ch := make(chan line, 1)
	go func() {
		b, err := s.out.ReadBytes('\n')
		ch <- line{b, err}
	}()
	select {
	case l := <-ch:
		if l.err != nil {
			s.t.Fatalf("recv: %v (stderr: %s)", l.err, s.stderr)
		}
		var m map[string]any
		if err := json.Unmarshal(l.b, &m); err != nil {
			s.t.Fatalf("response %q: %v", l.b, err)
		}
		return m
	case <-time.After(30 * time.Second):
		s.t.Fatalf("no response: the server hangs (stderr: %s)", s.stderr)
	}
	return nil
}

// exits waits for the server to end after the session did.
func (s *rawSession) exits() {
	s.t.Helper()
	select {
	case <-s.done:
	case <-time.After(30 * time.Second):
		s.t.Fatalf("the server did not end")
	}
	if strings.Contains(s.stderr.String(), "panic") || strings.Contains(s.stderr.String(), "goroutine ") {
		s.t.Errorf("stderr: %s", s.stderr)
	}
}

// TestMalformedJSONRPC: messages that are JSON but not what the protocol
// asks for are answered with errors, and the server goes on serving.
func TestMalformedJSONRPC(t *testing.T) {
	f := newFixture(t)
	s := startRaw(t, f)
	for i, msg := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"no/such/method"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"read_file","arguments":"not an object"}}`,
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"read_file","arguments":{"path":42}}}`,
		`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"no_such_tool","arguments":{}}}`,
		`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"write_file","arguments":{"path":"x","content":"x","overwrite":"yes"}}}`,
		`{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"edit_file","arguments":{"path":"x","edits":[{"old_text":1}]}}}`,
		`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"read_file","arguments":{"path":"` + strings.Repeat("a", 1<<20) + `"}}}`,
		`{"jsonrpc":"2.0","id":8,"method":"prompts/get","params":{"name":"no_such_prompt"}}`,
		`{"jsonrpc":"2.0","id":9,"method":"prompts/get","params":{"name":"review","arguments":{"depth":"2"}}}`,
	} {
		s.send(msg)
		resp := s.recv()
		if resp["id"] != float64(i+1) {
			t.Fatalf("response %v to message %d", resp, i+1)
		}
		_, isErr := resp["error"]
		res, _ := resp["result"].(map[string]any)
		if !isErr && res["isError"] != true {
			t.Errorf("message %d answered without an error: %.300v", i+1, resp)
		}
	}
	s.send(`{"jsonrpc":"2.0","id":30,"method":"tools/call","params":{"name":"file_info","arguments":{"path":"src/main.go"}}}`)
	if resp := s.recv(); resp["result"].(map[string]any)["isError"] == true {
		t.Errorf("a good call after the bad ones failed: %v", resp)
	}
	// Lines that are not JSON are answered with parse errors (id null),
	// and the session goes on; at the end of input the server ends,
	// without a panic.
	s.send(`{"jsonrpc":"2.0","id":21,`)
	s.send(`}}}not json`)
	for i := 0; i < 2; i++ {
		if resp := s.recv(); resp["id"] != nil || resp["error"].(map[string]any)["code"] != float64(-32700) {
			t.Errorf("a line that is not JSON: %v", resp)
		}
	}
	s.send(`{"jsonrpc":"2.0","id":31,"method":"ping"}`)
	if resp := s.recv(); resp["id"] != float64(31) || resp["result"] == nil {
		t.Errorf("ping after lines that are not JSON: %v", resp)
	}
	s.in.Close()
	s.exits()
}

// TestOversizedMessage: a message over the frame cap (a write of more
// than twice the file cap) is answered with an error to its id, writes
// nothing, and the session goes on.
func TestOversizedMessage(t *testing.T) {
	f := newFixture(t)
	s := startRaw(t, f)
	big := strings.Repeat("x", 22<<20)
	done := make(chan struct{})
	go func() {
		defer close(done)
		io.WriteString(s.in, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"write_file","arguments":{"path":".taskctl/workspace/big.txt","content":"`+big+`"}}}`+"\n")
	}()
	if resp := s.recv(); resp["id"] != float64(1) || resp["error"].(map[string]any)["code"] != float64(-32600) {
		t.Errorf("the oversized message: %v", resp)
	}
	<-done
	s.send(`{"jsonrpc":"2.0","id":2,"method":"ping"}`)
	if resp := s.recv(); resp["id"] != float64(2) || resp["result"] == nil {
		t.Errorf("ping after the oversized message: %v", resp)
	}
	s.in.Close()
	s.exits()
	if _, err := os.Stat(filepath.Join(f.ws, "big.txt")); err == nil {
		t.Errorf("the oversized write was written")
	}
}
