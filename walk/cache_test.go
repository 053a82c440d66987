package walk_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"hash/crc32"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"syscall"
	"testing"
	"time"

	"github.com/taskctl/taskctl/project"
	"github.com/taskctl/taskctl/root"
	"github.com/taskctl/taskctl/walk"
)

// walked returns what Walk yields (rel, size) and what WalkCached yields
// given prev, and the state WalkCached returned. Each walk opens the
// project afresh, as each run of the command line does.
func walked(t *testing.T, opts project.Options, prev []byte) (plain, cached []string, next []byte) {
	t.Helper()
	list := func(out *[]string) func(c project.Candidate, info fs.FileInfo) error {
		return func(c project.Candidate, info fs.FileInfo) error {
			*out = append(*out, c.Rel+" "+info.ModTime().UTC().Format(time.RFC3339Nano)+" "+string(rune('0'+info.Size()%10)))
			return nil
		}
	}
	p := open(t, opts)
	if err := p.Walk(context.Background(), list(&plain)); err != nil {
		t.Fatal(err)
	}
	p = open(t, opts)
	next, err := p.WalkCached(context.Background(), prev, list(&cached))
	if err != nil {
		t.Fatal(err)
	}
	return plain, cached, next
}

// TestWalkCachedYieldsWhatWalkYields changes a project with every policy
// feature step by step and checks after each step that a walk given the
// previous walk's cache yields exactly what a plain walk yields, and that
// an unchanged tree is walked from the cache alone.
func TestWalkCachedYieldsWhatWalkYields(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the walk cache is kept on Linux only")
	}
	// Times are coarse: a directory changed within 50 ms of a walk is not
	// trusted by the next, and every step waits longer than that.
	defer walk.SetWalkRacy(50 * time.Millisecond)()
	settle := func() { time.Sleep(120 * time.Millisecond) }

	dir := realTemp(t)
	outside := realTemp(t)
	writeTree(t, outside, "secret.txt = "+secret)
	writeTree(t, dir,
		".git/HEAD = ref: refs/heads/main",
		".git/info/exclude = excluded-by-info.txt\n",
		".gitignore = *.log\nbuild/\n!keep.log\n",
		".taskctlignore = private/\n",
		"excluded-by-info.txt",
		"a.log", "keep.log",
		"build/out.txt",
		"private/p.go",
		"src/main.go", "src/util.go", "src/other.go",
		"swap/a/one.go", "swap/b/two.go",
		"src/sub/.gitignore = *.tmp\n!important.tmp\n",
		"src/sub/a.tmp", "src/sub/important.tmp", "src/sub/deep/x.go",
		"node_modules/pkg/index.js",
		".env = TOKEN=abc",
		"certs/server.pem = -----BEGIN CERTIFICATE-----",
		"gen/generated.go",
		"big.txt = "+string(make([]byte, 5000)),
		".taskctl/index/index.bin",
		"link-out -> "+filepath.Join(outside, "secret.txt"),
		"link-in -> src/util.go",
		"src/link-dir -> ../build",
	)
	if err := syscall.Mkfifo(filepath.Join(dir, "src", "fifo"), 0o644); err != nil {
		t.Fatal(err)
	}
	opts := project.Options{WorkingDir: dir, ProjectDir: dir,
		Policy: root.Policy{Exclude: []string{"gen/**"}, MaxFileBytes: 4096}}
	settle()

	var prev []byte
	// want: what WalkCached must return besides the walk: no state (the
	// tree is unchanged), a new state (a directory changed), or either (a
	// directory changed by the step before may still be too recent to
	// trust).
	const (
		none = iota
		state
		any
	)
	step := func(name string, want int, must ...string) {
		t.Helper()
		plain, cached, next := walked(t, opts, prev)
		if !slices.Equal(plain, cached) {
			t.Fatalf("%s: WalkCached yields\n%q\nWalk yields\n%q", name, cached, plain)
		}
		rels := make([]string, len(plain))
		for i, s := range plain {
			rels[i] = s[:slices.Index([]byte(s), ' ')]
		}
		for _, m := range must {
			want := m[0] == '+'
			if got := slices.Contains(rels, m[1:]); got != want {
				t.Errorf("%s: %s in the walk = %v, want %v (walk: %q)", name, m[1:], got, want, rels)
			}
		}
		if want == none && next != nil {
			t.Errorf("%s: WalkCached of an unchanged tree returned a new state (%d bytes)", name, len(next))
		}
		if want == state && next == nil {
			t.Errorf("%s: WalkCached returned no state after a change", name)
		}
		if next != nil {
			prev = next
		}
		settle()
	}
	write := func(name, content string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}

	step("first walk", state,
		"+.gitignore", "+.taskctlignore", "+keep.log", "+src/main.go", "+src/util.go", "+src/sub/important.tmp",
		"+src/sub/deep/x.go", "+src/sub/.gitignore",
		"-excluded-by-info.txt", "-a.log", "-build/out.txt", "-private/p.go", "-src/sub/a.tmp",
		"-node_modules/pkg/index.js", "-.env", "-certs/server.pem", "-gen/generated.go", "-big.txt",
		"-.taskctl/index/index.bin", "-.git/HEAD", "-link-out", "-link-in", "-src/fifo", "-src/link-dir")
	step("nothing changed", none, "+src/main.go")
	step("nothing changed again", none, "+src/main.go")

	write("src/sub/deep/y.go", "package deep\n")
	step("file added deep down", state, "+src/sub/deep/y.go")

	write("src/sub/.gitignore", "*.tmp\n!important.tmp\nx.go\n")
	step("nested .gitignore rule added", any, "-src/sub/deep/x.go", "+src/sub/deep/y.go")

	write(".git/info/exclude", "excluded-by-info.txt\nsrc/other.go\n")
	step(".git/info/exclude changed", any, "-src/other.go", "+src/main.go")

	write(".taskctlignore", "")
	step(".taskctlignore emptied", state, "+private/p.go")

	write("src/main.go", "package main // longer now\n")
	step("file content changed", any, "+src/main.go")

	if err := os.Remove(filepath.Join(dir, "src/sub/deep/y.go")); err != nil {
		t.Fatal(err)
	}
	step("file removed", state, "-src/sub/deep/y.go")

	if err := os.Rename(filepath.Join(dir, "src/sub"), filepath.Join(dir, "src/moved")); err != nil {
		t.Fatal(err)
	}
	step("directory renamed", state, "-src/sub/important.tmp", "+src/moved/important.tmp")

	if err := os.Remove(filepath.Join(dir, "keep.log")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(outside, "secret.txt"), filepath.Join(dir, "keep.log")); err != nil {
		t.Fatal(err)
	}
	step("file replaced by a symlink out", state, "-keep.log")

	if err := os.RemoveAll(filepath.Join(dir, "src/moved/deep")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(dir, "src/moved/deep")); err != nil {
		t.Fatal(err)
	}
	step("directory replaced by a symlink out", state, "-src/moved/deep/secret.txt")

	if err := syscall.Mkfifo(filepath.Join(dir, "src/moved/fifo2"), 0o644); err != nil {
		t.Fatal(err)
	}
	write("big.txt", "small now\n")
	step("fifo added, oversized file shrunk", state, "-src/moved/fifo2", "+big.txt")

	// An old directory renamed over another keeps its times: only its
	// inode tells it apart.
	if err := os.RemoveAll(filepath.Join(dir, "swap/a")); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(filepath.Join(dir, "swap/b"), filepath.Join(dir, "swap/a")); err != nil {
		t.Fatal(err)
	}
	step("directory replaced by an older one", state, "-swap/a/one.go", "+swap/a/two.go")

	write("src/.gitignore", "moved/\n")
	step(".gitignore added ignoring a directory", state, "-src/moved/important.tmp", "+src/main.go")

	if err := os.WriteFile(filepath.Join(dir, ".taskctl/walk.bin"), []byte("TCTLPWLK garbage"), 0o644); err != nil {
		t.Fatal(err)
	}
	prev = []byte("TCTLPWLK\x01\x00\x00\x00garbage")
	step("damaged state", state, "+src/main.go")
	step("nothing changed after a damaged state", any, "+src/main.go")

	// A state whose checksum holds but which names an entry "../../x"
	// (only someone who can write the project could write it) is refused
	// as a whole, not followed out of its directory.
	i := bytes.Index(prev, []byte("\x07main.go"))
	if i < 0 {
		t.Fatalf("no entry main.go in the state")
	}
	forged := bytes.Clone(prev)
	copy(forged[i+1:], "../../x")
	binary.LittleEndian.PutUint32(forged[12:], crc32.Checksum(forged[16:], crc32.MakeTable(crc32.Castagnoli)))
	prev = forged
	step("forged state", state, "+src/main.go")
}
