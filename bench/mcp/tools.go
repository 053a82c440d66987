package main

import (
	"context"
	"fmt"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// toolsBench measures the tools an agent leans on, taskctl's server
// against the reference filesystem server (started once each, calls
// interleaved in one run), and grep against rg on the same pattern:
//
//	cp -r $(go env GOROOT)/src /tmp/gosrc && mkdir /tmp/gosrc/.git
//	go run ./bench/mcp -bin /tmp/taskctl -repo /tmp/gosrc -tools -n 20
//
// read_file: -readfile's file (default net/http/server.go);
// read_multiple_files: the ten first .go files of net/http; grep: -pattern
// over the whole repository (the reference server has no grep: rg is the
// peer); edit_file: 1000 edits on a 9 MB file in the workspace, made and
// undone in turn (the reference server's edit_file at most -peeredits
// times: it is slow).
func toolsBench(bin, repo, readRel, pattern string, n, peerEdits int) {
	repoAbs, _ := filepath.Abs(repo)
	b := &toolRun{ctx: context.Background(), repo: repoAbs, n: n}
	client := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1"}, nil)
	b.ours = b.connect(client, exec.Command(bin, "mcp", "--project-dir", repoAbs))
	b.peer = b.connect(client, exec.Command("npx", "-y", "@modelcontextprotocol/server-filesystem", repoAbs))
	defer b.ours.Close()
	defer b.peer.Close()

	b.readFile(readRel)
	b.readMultipleFiles()
	b.grep(pattern)
	b.editFile(peerEdits)
}

// toolRun is one run of toolsBench: both servers, started once.
type toolRun struct {
	ctx        context.Context
	repo       string // absolute
	n          int    // timed calls of each tool
	ours, peer *mcp.ClientSession
}

func (b *toolRun) connect(client *mcp.Client, cmd *exec.Cmd) *mcp.ClientSession {
	cs, err := client.Connect(b.ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		log.Fatalf("%s: %v", cmd.Path, err)
	}
	return cs
}

// call times one tool call, and stops the run if it failed.
func (b *toolRun) call(cs *mcp.ClientSession, tool string, args map[string]any) time.Duration {
	start := time.Now()
	res, err := cs.CallTool(b.ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
	d := time.Since(start)
	if err != nil || res.IsError {
		text := ""
		if res != nil && len(res.Content) > 0 {
			if t, ok := res.Content[0].(*mcp.TextContent); ok {
				text = t.Text
			}
		}
		log.Fatalf("%s: %v %.300s", tool, err, text)
	}
	return d
}

// interleave times ours and peer in turn, n+1 times each; the first call
// of each warms up and is not kept.
func (b *toolRun) interleave(ours, peer func() time.Duration) (o, p []time.Duration) {
	for i := 0; i <= b.n; i++ {
		do, dp := ours(), peer()
		if i > 0 {
			o, p = append(o, do), append(p, dp)
		}
	}
	return o, p
}

func report(what string, o, p []time.Duration, peerName string) {
	fmt.Printf("%s\n  taskctl:   %s\n  %s: %s\n  median ratio taskctl / %s: %.2f\n", what, stats(o), peerName, stats(p), peerName,
		float64(median(o))/float64(median(p)))
}

func (b *toolRun) readFile(rel string) {
	abs := filepath.Join(b.repo, rel)
	o, p := b.interleave(
		func() time.Duration { return b.call(b.ours, "read_file", map[string]any{"path": rel}) },
		func() time.Duration { return b.call(b.peer, "read_text_file", map[string]any{"path": abs}) })
	report("read_file "+rel, o, p, "reference")
}

// readMultipleFiles reads the ten first .go files of net/http.
func (b *toolRun) readMultipleFiles() {
	matches, _ := filepath.Glob(filepath.Join(b.repo, "net", "http", "*.go"))
	if len(matches) < 10 {
		log.Fatalf("fewer than 10 files in net/http")
	}
	var rels, abss []any
	for _, m := range matches[:10] {
		r, _ := filepath.Rel(b.repo, m)
		rels, abss = append(rels, r), append(abss, m)
	}
	o, p := b.interleave(
		func() time.Duration { return b.call(b.ours, "read_multiple_files", map[string]any{"paths": rels}) },
		func() time.Duration { return b.call(b.peer, "read_multiple_files", map[string]any{"paths": abss}) })
	report("read_multiple_files (10 files of net/http)", o, p, "reference")
}

// grep searches the whole tree; the reference server has no grep, so rg
// on the same pattern is the peer.
func (b *toolRun) grep(pattern string) {
	o, p := b.interleave(
		func() time.Duration {
			return b.call(b.ours, "grep", map[string]any{"pattern": pattern, "max_matches": 100000})
		},
		func() time.Duration {
			start := time.Now()
			out, err := exec.Command("rg", "-n", "--no-heading", pattern, b.repo).Output()
			if err != nil || len(out) == 0 {
				log.Fatalf("rg: %v", err)
			}
			return time.Since(start)
		})
	report(fmt.Sprintf("grep %q over the tree", pattern), o, p, "rg")
}

// editFile makes 1000 edits on a 9 MB file in the workspace and undoes
// them in turn: n times through taskctl, peerEdits times through the
// reference server (it is slow).
func (b *toolRun) editFile(peerEdits int) {
	ws := filepath.Join(b.repo, ".taskctl", "workspace")
	os.MkdirAll(ws, 0o755)
	big := filepath.Join(ws, "big.txt")
	var sb strings.Builder
	for i := 0; sb.Len() < 9<<20; i++ {
		fmt.Fprintf(&sb, "line %s number %d end\n", strings.Repeat("x", 40), i)
	}
	if err := os.WriteFile(big, []byte(sb.String()), 0o644); err != nil {
		log.Fatal(err)
	}
	// The edits' members are old_text/new_text for taskctl, oldText/newText
	// for the reference server; odd rounds undo the even ones.
	edits := func(round int, oldKey, newKey string) []any {
		from, to := "end", "edited"
		if round%2 == 1 {
			from, to = to, from
		}
		var es []any
		for i := 0; i < 1000; i++ {
			line := i * 140
			es = append(es, map[string]any{oldKey: fmt.Sprintf(" number %d %s\n", line, from), newKey: fmt.Sprintf(" number %d %s\n", line, to)})
		}
		return es
	}
	var o, p []time.Duration
	for i := 0; i < b.n; i++ {
		o = append(o, b.call(b.ours, "edit_file", map[string]any{"path": big, "create_backup": false, "edits": edits(i, "old_text", "new_text")}))
	}
	if b.n%2 == 1 { // back to "end"
		b.call(b.ours, "edit_file", map[string]any{"path": big, "create_backup": false, "edits": edits(1, "old_text", "new_text")})
	}
	for i := 0; i < peerEdits; i++ {
		p = append(p, b.call(b.peer, "edit_file", map[string]any{"path": big, "edits": edits(i, "oldText", "newText")}))
	}
	report("edit_file, 1000 edits on a 9 MB file", o, p, "reference")
}
