package contextgen_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/taskctl/taskctl/contextgen"
	"github.com/taskctl/taskctl/contextgen/tokens"
)

// slowCounter is a real counter whose vocabulary is "loaded" only some
// time after Prepare; a Count before that waits for it, as a real first
// count does.
type slowCounter struct {
	tokens.Counter
	once     sync.Once
	ready    atomic.Bool
	loaded   chan struct{}
	prepared atomic.Bool
}

func (s *slowCounter) Ready() bool { return s.ready.Load() }

func (s *slowCounter) Prepare() {
	s.prepared.Store(true)
	s.once.Do(func() {
		go func() {
			time.Sleep(30 * time.Millisecond)
			s.ready.Store(true)
			close(s.loaded)
		}()
	})
}

func (s *slowCounter) Count(b []byte) int {
	if !s.ready.Load() {
		s.Prepare()
		<-s.loaded
	}
	return s.Counter.Count(b)
}

// TestCountsWaitForTheVocabulary: files read before the vocabulary is
// loaded are counted once it is, while the workers read on, with the counts
// and cache statistics of a counter that was ready from the start.
func TestCountsWaitForTheVocabulary(t *testing.T) {
	files := map[string]string{}
	for i := range 200 {
		files[fmt.Sprintf("f%03d.txt", i)] = strings.Repeat(fmt.Sprintf("line %d of some text\n", i), 1+i%7)
	}
	files["bin.dat"] = "\x00\x01binary"
	p := fixture(t, files)
	task := literalTask("**/*")
	ready, err := contextgen.Assemble(context.Background(), task, contextgen.Options{Project: p, Counter: counter(t)})
	if err != nil {
		t.Fatal(err)
	}
	slow := &slowCounter{Counter: counter(t), loaded: make(chan struct{})}
	var early atomic.Int32 // files read before the vocabulary was there
	audit := func(string, string) {
		if !slow.ready.Load() {
			early.Add(1)
		}
	}
	doc, err := contextgen.Assemble(context.Background(), task, contextgen.Options{Project: p, Counter: slow, Audit: audit})
	if err != nil {
		t.Fatal(err)
	}
	if !slow.prepared.Load() {
		t.Error("the vocabulary was not prepared")
	}
	// Waiting for the first count, each worker would read one file before
	// the vocabulary is there; reading on, they read more.
	if n := early.Load(); int(n) <= runtime.GOMAXPROCS(0) {
		t.Errorf("%d files read before the vocabulary was loaded: the workers waited for it", n)
	}
	if len(doc.Files) != len(ready.Files) || *doc.Totals.Tokens != *ready.Totals.Tokens {
		t.Fatalf("%d files, %d tokens; ready from the start: %d files, %d tokens",
			len(doc.Files), *doc.Totals.Tokens, len(ready.Files), *ready.Totals.Tokens)
	}
	for i, f := range doc.Files {
		g := ready.Files[i]
		if f.Path != g.Path || (f.Tokens == nil) != (g.Tokens == nil) || f.Tokens != nil && *f.Tokens != *g.Tokens {
			t.Errorf("%s: tokens %v, ready from the start %v", f.Rel, f.Tokens, g.Tokens)
		}
	}
}

// TestHashes: a file's SHA256 is that of its bytes on disk (not of the
// text it decodes to) when the caller asks for hashes, and empty when it
// does not (the styles do not show it; only the json envelope does).
func TestHashes(t *testing.T) {
	utf16 := "\xff\xfeh\x00i\x00\n\x00" // "hi\n" in UTF-16LE with a BOM
	p := fixture(t, map[string]string{"a.txt": "plain\n", "b.txt": utf16})
	for _, hashes := range []bool{false, true} {
		doc, err := contextgen.Assemble(context.Background(), literalTask("a.txt", "b.txt"),
			contextgen.Options{Project: p, Counter: counter(t), Hashes: hashes})
		if err != nil {
			t.Fatal(err)
		}
		if len(doc.Files) != 2 {
			t.Fatalf("files %d, want 2", len(doc.Files))
		}
		for _, f := range doc.Files {
			want := ""
			if hashes {
				raw := map[string]string{"a.txt": "plain\n", "b.txt": utf16}[f.Rel]
				sum := sha256.Sum256([]byte(raw))
				want = hex.EncodeToString(sum[:])
			}
			if f.SHA256 != want {
				t.Errorf("Hashes %v: %s has sha256 %q, want %q", hashes, f.Rel, f.SHA256, want)
			}
		}
	}
}
