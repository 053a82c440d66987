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
	ctx := context.Background()
	repoAbs, _ := filepath.Abs(repo)
	client := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1"}, nil)
	connect := func(cmd *exec.Cmd) *mcp.ClientSession {
		cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
		if err != nil {
			log.Fatalf("%s: %v", cmd.Path, err)
		}
		return cs
	}
	ours := connect(exec.Command(bin, "mcp", "--project-dir", repoAbs))
	peer := connect(exec.Command("npx", "-y", "@modelcontextprotocol/server-filesystem", repoAbs))
	defer ours.Close()
	defer peer.Close()
	call := func(cs *mcp.ClientSession, tool string, args map[string]any) time.Duration {
		start := time.Now()
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
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
	report := func(what string, o, p []time.Duration, peerName string) {
		fmt.Printf("%s\n  taskctl:   %s\n  %s: %s\n  median ratio taskctl / %s: %.2f\n", what, stats(o), peerName, stats(p), peerName,
			float64(median(o))/float64(median(p)))
	}

	// read_file
	abs := filepath.Join(repoAbs, readRel)
	var o, p []time.Duration
	for i := 0; i <= n; i++ {
		do, dp := call(ours, "read_file", map[string]any{"path": readRel}), call(peer, "read_text_file", map[string]any{"path": abs})
		if i > 0 { // the first call of each warms up
			o, p = append(o, do), append(p, dp)
		}
	}
	report("read_file "+readRel, o, p, "reference")

	// read_multiple_files of ten files
	matches, _ := filepath.Glob(filepath.Join(repoAbs, "net", "http", "*.go"))
	if len(matches) < 10 {
		log.Fatalf("fewer than 10 files in net/http")
	}
	var rels []any
	var abss []any
	for _, m := range matches[:10] {
		r, _ := filepath.Rel(repoAbs, m)
		rels, abss = append(rels, r), append(abss, m)
	}
	o, p = nil, nil
	for i := 0; i <= n; i++ {
		do, dp := call(ours, "read_multiple_files", map[string]any{"paths": rels}), call(peer, "read_multiple_files", map[string]any{"paths": abss})
		if i > 0 {
			o, p = append(o, do), append(p, dp)
		}
	}
	report("read_multiple_files (10 files of net/http)", o, p, "reference")

	// grep over the tree against rg
	o, p = nil, nil
	for i := 0; i <= n; i++ {
		do := call(ours, "grep", map[string]any{"pattern": pattern, "max_matches": 100000})
		start := time.Now()
		out, err := exec.Command("rg", "-n", "--no-heading", pattern, repoAbs).Output()
		dp := time.Since(start)
		if err != nil || len(out) == 0 {
			log.Fatalf("rg: %v", err)
		}
		if i > 0 {
			o, p = append(o, do), append(p, dp)
		}
	}
	report(fmt.Sprintf("grep %q over the tree", pattern), o, p, "rg")

	// edit_file: 1000 edits on a 9 MB file, made and undone in turn.
	ws := filepath.Join(repoAbs, ".taskctl", "workspace")
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
	// for the reference server.
	edits := func(from, to, oldKey, newKey string) []any {
		var es []any
		for i := 0; i < 1000; i++ {
			line := i * 140
			es = append(es, map[string]any{oldKey: fmt.Sprintf(" number %d %s\n", line, from), newKey: fmt.Sprintf(" number %d %s\n", line, to)})
		}
		return es
	}
	o, p = nil, nil
	for i := 0; i < n; i++ {
		from, to := "end", "edited"
		if i%2 == 1 {
			from, to = to, from
		}
		o = append(o, call(ours, "edit_file", map[string]any{"path": big, "create_backup": false, "edits": edits(from, to, "old_text", "new_text")}))
	}
	if n%2 == 1 { // back to "end"
		call(ours, "edit_file", map[string]any{"path": big, "create_backup": false, "edits": edits("edited", "end", "old_text", "new_text")})
	}
	for i := 0; i < peerEdits; i++ {
		from, to := "end", "edited"
		if i%2 == 1 {
			from, to = to, from
		}
		p = append(p, call(peer, "edit_file", map[string]any{"path": big, "edits": edits(from, to, "oldText", "newText")}))
	}
	report("edit_file, 1000 edits on a 9 MB file", o, p, "reference")
}
