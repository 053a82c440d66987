package root

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/taskctl/taskctl/internal/diag"
)

func TestReadRules(t *testing.T) {
	dir := realTemp(t)
	big := strings.Repeat("x", 2000)
	writeTree(t, dir, "go.mod", "big.txt = "+big, "bin.dat = a\x00b", "u16.txt = \xff\xfeh\x00i\x00", "ok.txt = hi", "d/")
	pol := DefaultPolicy()
	pol.MaxFileBytes = 1000
	p := openRoot(t, pol, dir)
	read := func(rel string) (*File, *diag.Warning) {
		return p.Read(filepath.Join(dir, rel))
	}
	if _, w := read("big.txt"); w == nil || w.Code != diag.FileTooLarge {
		t.Errorf("big: %v", w)
	}
	if f, w := read("bin.dat"); w != nil || !f.Binary || len(f.Content) != 3 || f.Size != 3 {
		t.Errorf("bin: %+v %v", f, w)
	}
	if f, w := read("u16.txt"); w != nil || f.Binary {
		t.Errorf("utf16: %+v %v", f, w)
	}
	if f, w := read("ok.txt"); w != nil || string(f.Content) != "hi" || f.Rel != "ok.txt" || !f.Mode.IsRegular() {
		t.Errorf("ok: %+v %v", f, w)
	}
	if _, w := read("d"); w == nil || w.Code != diag.PathIsDir {
		t.Errorf("dir: %v", w)
	}
	if _, w := p.Read("rel/path"); w == nil || w.Code != diag.PathInvalid {
		t.Errorf("relative candidate: %v", w)
	}
	if _, w := p.Read("/etc/passwd"); w == nil || w.Code != diag.PathOutsideProject {
		t.Errorf("outside candidate: %v", w)
	}
}

// TestReadInto checks that a buffer handed to ReadInto is used when the
// file fits, never shows one file's bytes in another's content, and is
// left alone for a file too big for it.
func TestReadInto(t *testing.T) {
	dir := realTemp(t)
	writeTree(t, dir, "go.mod", "long.txt = "+strings.Repeat("L", 300), "short.txt = hi", "mid.txt = "+strings.Repeat("m", 100))
	p := openRoot(t, DefaultPolicy(), dir)
	read := func(rel string, buf []byte) []byte {
		t.Helper()
		f, w := p.ReadInto(filepath.Join(dir, rel), buf)
		if w != nil {
			t.Fatalf("%s: %v", rel, w)
		}
		return f.Content
	}
	buf := make([]byte, 0, 256)
	for _, tc := range []struct {
		rel    string
		want   string
		shared bool
	}{
		{"mid.txt", strings.Repeat("m", 100), true},
		{"short.txt", "hi", true},
		{"long.txt", strings.Repeat("L", 300), false},
		{"short.txt", "hi", true},
	} {
		got := read(tc.rel, buf)
		if string(got) != tc.want {
			t.Errorf("%s: read %q", tc.rel, got)
		}
		if shared := len(got) > 0 && &got[0] == &buf[:1][0]; shared != tc.shared {
			t.Errorf("%s: content shares the buffer = %v, want %v", tc.rel, shared, tc.shared)
		}
	}
}

// TestGrowingFile: a file that grows while read never passes the cap.
func TestGrowingFile(t *testing.T) {
	dir := realTemp(t)
	writeTree(t, dir, "go.mod", "grow.txt = x")
	pol := DefaultPolicy()
	pol.MaxFileBytes = 64 << 10
	p := openRoot(t, pol, dir)
	path, err := p.Eval(filepath.Join(dir, "grow.txt"))
	if err != nil {
		t.Fatal(err)
	}
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		f, _ := os.OpenFile(filepath.Join(dir, "grow.txt"), os.O_WRONLY|os.O_APPEND, 0)
		defer f.Close()
		chunk := bytes.Repeat([]byte("y"), 4096)
		for {
			select {
			case <-stop:
				return
			default:
				f.Write(chunk)
			}
		}
	}()
	for i := 0; i < 200; i++ {
		if f, w := p.Read(path); w == nil && f.Size > pol.MaxFileBytes {
			t.Fatalf("read %d bytes past the %d cap", f.Size, pol.MaxFileBytes)
		}
	}
	close(stop)
	<-done
}
