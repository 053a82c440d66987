//go:build linux

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/taskctl/taskctl/engine"
)

// syncBuffer is a bytes.Buffer safe for a watcher's goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// startWatcher runs `taskctl index --watch` in proj until the test ends,
// once it says it is watching.
func startWatcher(t *testing.T, proj string, args ...string) *syncBuffer {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	var errb syncBuffer
	done := make(chan struct{})
	var code int
	go func() {
		defer close(done)
		code = run(ctx, append([]string{"--project-dir", proj, "index", "--watch"}, args...), strings.NewReader(""), &bytes.Buffer{}, &errb)
	}()
	t.Cleanup(func() {
		cancel()
		if <-done; code != exitOK {
			t.Errorf("index --watch exited %d: %s", code, errb.String())
		}
		if _, err := os.Lstat(filepath.Join(proj, ".taskctl/index", engine.WatchSocket)); err == nil {
			t.Error("the watcher left its socket behind")
		}
	})
	for deadline := time.Now().Add(10 * time.Second); !strings.Contains(errb.String(), "watching"); {
		select {
		case <-done:
			t.Fatalf("index --watch exited %d: %s", code, errb.String())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("index --watch did not start: %s", errb.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
	return &errb
}

type indexData struct {
	Watched bool `json:"watched"`
	Files   int  `json:"files"`
	Terms   int  `json:"terms"`
	Reread  int  `json:"reread"`
	Removed int  `json:"removed"`
}

func indexStats(t *testing.T, args ...string) indexData {
	t.Helper()
	code, out, errs := taskctl(t, append(args, "index", "--stats", "--output", "json")...)
	var env struct {
		Data indexData `json:"data"`
	}
	if code != exitOK || json.Unmarshal([]byte(out), &env) != nil {
		t.Fatalf("index: exit %d\n%s\n%s", code, out, errs)
	}
	return env.Data
}

// TestWatchAnswersRefreshes runs a watcher on the project of the index
// tests (every rule of the policy), changes files, and checks that index
// and search get their refresh from the watcher, that it is exact (a new
// word is found at once, a deleted file leaves), and that the index it
// keeps is the one a rebuild makes.
func TestWatchAnswersRefreshes(t *testing.T) {
	proj, _ := indexFixture(t, "")
	before := indexStats(t, "--project-dir", proj)
	startWatcher(t, proj)

	n := engine.WatchAnswered.Load()
	if before.Watched {
		t.Error("index without a watcher says it was refreshed by one")
	}
	if got := indexStats(t, "--project-dir", proj); got.Files != before.Files || got.Reread != 0 || !got.Watched {
		t.Errorf("index with nothing changed: %+v, want %d files, none re-read, watched", got, before.Files)
	}
	writeFiles(t, proj, map[string]string{"src/util.go": "package main\n\n// zebrafish migrations\n"})
	code, out, errs := taskctl(t, "--project-dir", proj, "search", "zebrafish", "--output", "json")
	if code != exitOK || !strings.Contains(out, filepath.Join(proj, "src/util.go")) {
		t.Errorf("search for a word just written: exit %d\n%s\n%s", code, out, errs)
	}
	writeFiles(t, proj, map[string]string{"src/new.go": "package main\n"})
	if err := os.Remove(filepath.Join(proj, "src/main.go")); err != nil {
		t.Fatal(err)
	}
	got := indexStats(t, "--project-dir", proj)
	if got.Files != before.Files {
		t.Errorf("after adding one file and deleting one: %d files, want %d", got.Files, before.Files)
	}
	if d := engine.WatchAnswered.Load() - n; d != 3 {
		t.Errorf("the watcher answered %d of 3 refreshes", d)
	}
	code, out, _ = taskctl(t, "--project-dir", proj, "index", "--rebuild", "--output", "json")
	var env struct {
		Data indexData `json:"data"`
	}
	if code != exitOK || json.Unmarshal([]byte(out), &env) != nil {
		t.Fatalf("index --rebuild: exit %d\n%s", code, out)
	}
	if env.Data.Files != got.Files || env.Data.Terms != got.Terms {
		t.Errorf("the watched index has %d files and %d terms, a rebuild %d and %d", got.Files, got.Terms, env.Data.Files, env.Data.Terms)
	}
}

// TestWatchRefusals: a second watcher of the same project is refused; a
// socket left by a killed watcher neither blocks a refresh nor a new
// watcher; a command whose configuration differs from the watcher's is
// not answered by it, and says so.
func TestWatchRefusals(t *testing.T) {
	proj, _ := indexFixture(t, "")
	sock := filepath.Join(proj, ".taskctl/index", engine.WatchSocket)
	// A killed watcher's socket: bound, then its listener gone.
	ln, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	ln.(*net.UnixListener).SetUnlinkOnClose(false)
	ln.Close()
	n := engine.WatchAnswered.Load()
	before := indexStats(t, "--project-dir", proj)
	if engine.WatchAnswered.Load() != n {
		t.Error("a stale socket answered")
	}

	startWatcher(t, proj)
	// (bounded: a second watcher that is not refused would run on)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	var second bytes.Buffer
	code := run(ctx, []string{"--project-dir", proj, "index", "--watch", "--output", "json"}, strings.NewReader(""), &second, &bytes.Buffer{})
	cancel()
	out := second.String()
	if code != exitError || !strings.Contains(out, `"WATCH_RUNNING"`) {
		t.Errorf("a second watcher: exit %d\n%s", code, out)
	}

	other := filepath.Join(t.TempDir(), "other.xml")
	writeFiles(t, filepath.Dir(other), map[string]string{"other.xml": "<config><policy><exclude>src/**</exclude></policy></config>\n"})
	n = engine.WatchAnswered.Load()
	var errs string
	code, out, errs = taskctl(t, "--project-dir", proj, "--config", other, "index", "--stats", "--output", "json")
	if code != exitOK || !strings.Contains(out, `"WATCH_MISMATCH"`) {
		t.Errorf("another configuration: exit %d\n%s\n%s", code, out, errs)
	}
	if engine.WatchAnswered.Load() != n {
		t.Error("the watcher answered a command with another configuration")
	}
	var env struct {
		Data indexData `json:"data"`
	}
	if json.Unmarshal([]byte(out), &env) != nil || env.Data.Files >= before.Files {
		t.Errorf("another configuration excluding src/: %d files, want fewer than %d", env.Data.Files, before.Files)
	}
}

// TestWatchStopped: a watcher that takes no request (stopped with SIGSTOP,
// hung) has a socket that still accepts connections; a command gives up
// on it once the request is not taken at once, and refreshes itself.
func TestWatchStopped(t *testing.T) {
	proj, _ := indexFixture(t, "")
	before := indexStats(t, "--project-dir", proj)
	ln, err := net.Listen("unix", filepath.Join(proj, ".taskctl/index", engine.WatchSocket))
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close() // listening, never accepting: a stopped watcher
	oldWait, oldAck := engine.WatchWait, engine.WatchAck
	engine.WatchWait, engine.WatchAck = time.Hour, 100*time.Millisecond
	defer func() { engine.WatchWait, engine.WatchAck = oldWait, oldAck }()
	type result struct {
		code int
		out  string
	}
	done := make(chan result, 1)
	go func() {
		var out bytes.Buffer
		code := run(context.Background(), []string{"--project-dir", proj, "index", "--output", "json"}, strings.NewReader(""), &out, &bytes.Buffer{})
		done <- result{code, out.String()}
	}()
	select {
	case r := <-done:
		var env struct {
			Data indexData `json:"data"`
		}
		if r.code != exitOK || json.Unmarshal([]byte(r.out), &env) != nil || env.Data.Watched || env.Data.Files != before.Files {
			t.Errorf("index beside a stopped watcher: exit %d\n%s\nwant %d files, not watched", r.code, r.out, before.Files)
		}
	case <-time.After(time.Minute):
		t.Fatal("index waited on a stopped watcher")
	}
}
