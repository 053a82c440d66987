package engine_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/taskctl/taskctl/engine"
	"github.com/taskctl/taskctl/internal/diag"
)

const rangeKey = "AKIAZ7Q3M9X2W4R8T6Y1"

// bigFile writes a file of 12 MiB and more: numbered lines ("line
// 0000000\n", 13 bytes each), then a line holding an AWS key, then 3000
// lines "end 0000\n".. "end 2999\n" (27000 bytes, more than
// root.WindowMargin). It returns the byte offset of the key
// line and the file's size.
func bigFile(t *testing.T, path string) (keyAt, size int64) {
	t.Helper()
	var b strings.Builder
	n := (12<<20)/13 + 1
	b.Grow(n*13 + 200*8)
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "line %07d\n", i)
	}
	keyAt = int64(b.Len())
	b.WriteString("aws_access_key_id = " + rangeKey + "\n")
	for i := 0; i < 3000; i++ {
		fmt.Fprintf(&b, "end %04d\n", i)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return keyAt, int64(b.Len())
}

// TestReadRangeOverCap: a file of 12 MiB, over the 10 MiB whole-file cap,
// is refused whole (FILE_TOO_LARGE) but its head, its tail and a byte
// range read, in the project and in the workspace; a range holding the
// key is refused (SECRET_DETECTED) as the whole file would be, and so is
// a range holding a piece of it or lying within root.WindowMargin of
// it (read piece by piece, the key would leak); a range of
// a binary part is described as binary, its content left out; a path
// outside the project is refused as before. On main before this, every
// read of the file was FILE_TOO_LARGE.
func TestReadRangeOverCap(t *testing.T) {
	proj, outside, xdg := fsProject(t)
	keyAt, size := bigFile(t, filepath.Join(proj, "big.log"))
	bigFile(t, filepath.Join(proj, ".taskctl", "workspace", "big.log"))
	bin := append([]byte("text first\n"), make([]byte, 20<<20)...)
	if err := os.WriteFile(filepath.Join(proj, "big.bin"), bin, 0o644); err != nil {
		t.Fatal(err)
	}
	e := open(t, proj, xdg, engine.Options{Command: "fs"})
	ctx := context.Background()

	if _, err := e.ReadFile(ctx, engine.ReadFileRequest{Path: "big.log"}); code(err) != diag.FileTooLarge {
		t.Fatalf("whole read of 12 MiB: %v, want FILE_TOO_LARGE", err)
	}
	for _, rel := range []string{"big.log", ".taskctl/workspace/big.log"} {
		cases := []struct {
			req  engine.ReadFileRequest
			want string
			off  int64
		}{
			{engine.ReadFileRequest{Head: 2}, "line 0000000\nline 0000001\n", 0},
			{engine.ReadFileRequest{Head: 2, FromLine: 500001}, "line 0500000\nline 0500001\n", 13 * 500000},
			{engine.ReadFileRequest{Head: 1, FromLine: 1}, "line 0000000\n", 0},
			{engine.ReadFileRequest{Tail: 2}, "end 2998\nend 2999\n", size - 18},
			{engine.ReadFileRequest{Offset: 13 * 500000, Length: 26}, "line 0500000\nline 0500001\n", 13 * 500000},
			{engine.ReadFileRequest{Offset: size - 9}, "end 2999\n", size - 9},
		}
		for _, c := range cases {
			c.req.Path = rel
			got, err := e.ReadFile(ctx, c.req)
			if err != nil {
				t.Errorf("%s %+v: %v", rel, c.req, err)
				continue
			}
			if got.Content != c.want || got.Size != size || got.Range == nil || got.Range.Offset != c.off ||
				got.Range.Length != int64(len(c.want)) || got.Range.Cut {
				t.Errorf("%s %+v = content %q size %d range %+v; want %q at %d of %d", rel, c.req, got.Content, got.Size, got.Range, c.want, c.off, size)
			}
		}
		for _, req := range []engine.ReadFileRequest{
			{Tail: 3001},                           // the key line whole
			{Head: 1, FromLine: int(keyAt/13) + 1}, // the key line alone, by number
			{Offset: 10 << 20},                     // to the end
			{Offset: keyAt + 20, Length: 16},       // the key's first 16 characters alone
			{Offset: keyAt + 36, Length: 5},        // its last 4
			{Offset: keyAt - 8000, Length: 100},    // beside it: refused, not a piece of it
		} {
			req.Path = rel
			got, err := e.ReadFile(ctx, req)
			if code(err) != diag.SecretDetected || got != nil {
				t.Errorf("%s %+v holding the key = %+v, %v; want SECRET_DETECTED", rel, req, got, err)
			}
			if err != nil && strings.Contains(err.Error(), rangeKey) {
				t.Errorf("%s %+v: the error quotes the key: %v", rel, req, err)
			}
		}
	}
	// 17 KiB away: read.
	if got, err := e.ReadFile(ctx, engine.ReadFileRequest{Path: "big.log", Offset: keyAt - 17<<10, Length: 13}); err != nil || len(got.Content) != 13 || !strings.Contains(got.Content, "line ") {
		t.Errorf("a range 17 KiB before the key = %+v, %v", got, err)
	}
	// Head of a whole 12 MiB of lines: cut at the cap, flagged.
	got, err := e.ReadFile(ctx, engine.ReadFileRequest{Path: "big.log", Head: 1 << 30})
	if err != nil || int64(len(got.Content)) != 10<<20 || !got.Truncated || got.Range == nil || !got.Range.Cut {
		t.Errorf("head past the cap = %v; want 10 MiB, cut", err)
	}
	got, err = e.ReadFile(ctx, engine.ReadFileRequest{Path: "big.bin", Offset: 1 << 20, Length: 100})
	if err != nil || !got.Binary || got.Content != "" {
		t.Errorf("binary range = %+v, %v; want binary, content left out", got, err)
	}
	if got, err := e.ReadFile(ctx, engine.ReadFileRequest{Path: "big.bin", Head: 1}); err != nil || got.Content != "text first\n" {
		t.Errorf("text head of a binary file = %+v, %v", got, err)
	}
	out := filepath.Join(outside, "secret.txt")
	for _, p := range []string{out, "../outside/secret.txt"} {
		if _, err := e.ReadFile(ctx, engine.ReadFileRequest{Path: p, Head: 1}); code(err) != diag.PathOutsideProject {
			t.Errorf("head of %s: %v, want PATH_OUTSIDE_PROJECT", p, err)
		}
	}
	if _, err := e.ReadFile(ctx, engine.ReadFileRequest{Path: "big.log", Head: 1, Tail: 1}); code(err) != diag.ArgInvalid {
		t.Errorf("head and tail: %v, want ARG_INVALID", err)
	}
	if _, err := e.ReadFile(ctx, engine.ReadFileRequest{Path: "big.log", FromLine: 3}); code(err) != diag.ArgInvalid {
		t.Errorf("from_line without head: %v, want ARG_INVALID", err)
	}
}
