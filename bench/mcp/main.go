// Command mcp measures 'taskctl mcp' against the CLI on one repository:
// the round trip of an MCP search with the index warm (the server holds
// it open), an MCP assemble against 'taskctl assemble' for the same task,
// and the server's memory with the index open against the CLI's peak for
// the same search.
//
//	go build -o /tmp/taskctl ./cmd/taskctl
//	cp -r /work/trees/podman /tmp/podman     # never the original: taskctl writes .taskctl/
//	go run ./bench/mcp -bin /tmp/taskctl -repo /tmp/podman -n 30
//
// The task assembled is written to REPO/.taskctl/tasks/bench-mcp.xml.
//
// With -readfile REL it measures only read_file of REPO/REL: taskctl's
// server against the reference filesystem server
// (npx -y @modelcontextprotocol/server-filesystem REPO), each started once,
// their calls interleaved in one run so that both see the same machine:
//
//	go run ./bench/mcp -bin /tmp/taskctl -repo /tmp/podman -readfile libpod/container.go -n 200
package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// benchFlags are the command's flags.
type benchFlags struct {
	bin, repo, query, glob string
	n                      int
	profile                string
	readFile               string
	tools                  bool
	pattern                string
	peerEdits              int
}

func parseFlags() benchFlags {
	var f benchFlags
	flag.StringVar(&f.bin, "bin", "taskctl", "the taskctl binary")
	flag.StringVar(&f.repo, "repo", "", "the repository (a copy: .taskctl/ is written)")
	flag.StringVar(&f.query, "query", "container network configuration", "the search query")
	flag.StringVar(&f.glob, "glob", "libpod/*.go", "the task's glob for assemble")
	flag.IntVar(&f.n, "n", 30, "calls of each kind")
	flag.StringVar(&f.profile, "serverprofile", "", "write the server's CPU profile to `FILE`")
	flag.StringVar(&f.readFile, "readfile", "", "measure read_file of `REL` (relative to -repo) against the reference filesystem server, nothing else")
	flag.BoolVar(&f.tools, "tools", false, "measure read_file, read_multiple_files, edit_file against the reference filesystem server and grep against rg (see tools.go)")
	flag.StringVar(&f.pattern, "pattern", `func \w+Handler\(`, "-tools: the grep pattern")
	flag.IntVar(&f.peerEdits, "peeredits", 3, "-tools: edit_file calls of the reference server")
	flag.Parse()
	if f.repo == "" {
		log.Fatal("-repo is required")
	}
	return f
}

func main() {
	f := parseFlags()
	switch {
	case f.tools:
		rel := f.readFile
		if rel == "" {
			rel = "net/http/server.go"
		}
		toolsBench(f.bin, f.repo, rel, f.pattern, f.n, f.peerEdits)
	case f.readFile != "":
		readFileBench(f.bin, f.repo, f.readFile, f.n, f.profile)
	default:
		searchAssembleBench(f)
	}
}

// searchAssembleBench times search and assemble through the MCP server,
// which holds the index open, through a raw pipe client, and through the
// CLI, a process a call, and compares the server's memory with the CLI's.
// The server stays up while the CLI runs.
func searchAssembleBench(f benchFlags) {
	prepareRepo(f.bin, f.repo, f.glob)
	ctx := context.Background()
	cmd := exec.Command(f.bin, "mcp", "--project-dir", f.repo)
	if f.profile != "" {
		cmd.Env = append(os.Environ(), "TASKCTL_CPUPROFILE="+f.profile)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		log.Fatal(err)
	}
	defer cs.Close()
	m := mcpCalls(ctx, cs, cmd.Process.Pid, f.query, f.n)
	rawAssemble, size := rawCalls(f.bin, f.repo, f.n, `{"name":"assemble","arguments":{"task":"bench-mcp"}}`)
	c := cliCalls(f.bin, f.repo, f.query, f.n)

	fmt.Printf("repository: %s (%s files)\n", f.repo, countFiles(f.repo))
	fmt.Printf("mcp search, first call (opens the index): %v\n", m.first.Round(time.Microsecond))
	fmt.Printf("mcp search round trip, warm:  %s\n", stats(m.search))
	fmt.Printf("cli search (a process a query): %s\n", stats(c.search))
	fmt.Printf("mcp assemble %q round trip: %s\n", f.glob, stats(m.assemble))
	fmt.Printf("mcp assemble, raw pipe client (response read, not parsed; %d KB): %s\n", size>>10, stats(rawAssemble))
	fmt.Printf("cli assemble --output json:     %s\n", stats(c.assemble))
	fmt.Printf("mcp server memory after %d searches: RSS %d KB, peak (VmHWM) %d KB\n", f.n+1, m.rss, m.hwm)
	fmt.Printf("cli search peak RSS (max of %d): %d KB; server peak / cli peak = %.2f\n", f.n, c.peak, float64(m.hwm)/float64(c.peak))
}

// prepareRepo writes the task bench-mcp, which assembles the files glob
// matches, to repo/.taskctl/tasks/bench-mcp.xml, and builds the index on
// disk once, so that the server and the CLI both start warm.
func prepareRepo(bin, repo, glob string) {
	task := fmt.Sprintf(`<task name="bench-mcp"><description>bench</description>
<file_paths source="literal"><path>%s</path></file_paths></task>
`, glob)
	if err := os.MkdirAll(filepath.Join(repo, ".taskctl", "tasks"), 0o755); err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(repo, ".taskctl", "tasks", "bench-mcp.xml"), []byte(task), 0o644); err != nil {
		log.Fatal(err)
	}
	if out, err := exec.Command(bin, "--project-dir", repo, "index").CombinedOutput(); err != nil {
		log.Fatalf("index: %v\n%s", err, out)
	}
}

// mcpTimes are the server's figures.
type mcpTimes struct {
	first            time.Duration   // the first search, which opens the index
	search, assemble []time.Duration // warm round trips
	rss, hwm         int64           // the server's memory after the searches (KB)
}

// mcpCalls times n searches for query, after a first that opens the index,
// reads the server's memory, then times n assembles of bench-mcp after a
// first that warms them.
func mcpCalls(ctx context.Context, cs *mcp.ClientSession, pid int, query string, n int) mcpTimes {
	call := func(name string, args map[string]any) time.Duration {
		start := time.Now()
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
		d := time.Since(start)
		if err != nil || res.IsError {
			log.Fatalf("%s: %v %v", name, err, res)
		}
		return d
	}
	var m mcpTimes
	searchArgs := map[string]any{"query": query, "limit": 10}
	m.first = call("search", searchArgs)
	for range n {
		m.search = append(m.search, call("search", searchArgs))
	}
	m.rss, m.hwm = procMem(pid)

	assembleArgs := map[string]any{"task": "bench-mcp"}
	call("assemble", assembleArgs)
	for range n {
		m.assemble = append(m.assemble, call("assemble", assembleArgs))
	}
	return m
}

// cliTimes are the CLI's figures.
type cliTimes struct {
	search, assemble []time.Duration
	peak             int64 // the largest peak RSS of the searches (KB)
}

// cliCalls times n searches for query and n assembles of bench-mcp through
// the CLI, a process each.
func cliCalls(bin, repo, query string, n int) cliTimes {
	var c cliTimes
	for range n {
		d, peak := runCLI(bin, "--project-dir", repo, "search", query, "--limit", "10", "--output", "json")
		c.search = append(c.search, d)
		c.peak = max(c.peak, peak)
	}
	for range n {
		d, _ := runCLI(bin, "--project-dir", repo, "assemble", "bench-mcp", "--output", "json")
		c.assemble = append(c.assemble, d)
	}
	return c
}

// runCLI runs the CLI once and returns its wall time and peak RSS (KB).
func runCLI(bin string, args ...string) (time.Duration, int64) {
	cmd := exec.Command(bin, args...)
	start := time.Now()
	if out, err := cmd.Output(); err != nil {
		log.Fatalf("%s %v: %v\n%s", bin, args, err, out)
	}
	d := time.Since(start)
	ru, _ := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	if ru == nil {
		return d, 0
	}
	return d, ru.Maxrss
}

// procMem reads VmRSS and VmHWM (KB) of a running process.
func procMem(pid int) (rss, hwm int64) {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, 0
	}
	for _, l := range strings.Split(string(data), "\n") {
		f := strings.Fields(l)
		if len(f) < 2 {
			continue
		}
		v, _ := strconv.ParseInt(f[1], 10, 64)
		switch f[0] {
		case "VmRSS:":
			rss = v
		case "VmHWM:":
			hwm = v
		}
	}
	return rss, hwm
}

func stats(ds []time.Duration) string {
	s := append([]time.Duration(nil), ds...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	q := func(p float64) time.Duration { return s[int(p*float64(len(s)-1))].Round(10 * time.Microsecond) }
	return fmt.Sprintf("min %v  median %v  p90 %v  (n=%d)", q(0), q(0.5), q(0.9), len(s))
}

func countFiles(dir string) string {
	n := 0
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			n++
		}
		return nil
	})
	return strconv.Itoa(n)
}

// rawCalls starts a server with raw pipes and times n calls of one tool
// call (params as JSON) until the response line is read, without parsing
// it: the server's round trip without a client's decoding. It returns the
// times and the size of the last response.
func rawCalls(bin, repo string, n int, params string) ([]time.Duration, int) {
	cmd := exec.Command(bin, "mcp", "--project-dir", repo)
	in, err := cmd.StdinPipe()
	if err != nil {
		log.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		log.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		log.Fatal(err)
	}
	defer cmd.Wait()
	defer in.Close()
	r := bufio.NewReaderSize(out, 1<<20)
	send := func(line string) {
		if _, err := io.WriteString(in, line+"\n"); err != nil {
			log.Fatal(err)
		}
	}
	recv := func() int {
		b, err := r.ReadSlice('\n')
		size := len(b)
		for err == bufio.ErrBufferFull {
			b, err = r.ReadSlice('\n')
			size += len(b)
		}
		if err != nil {
			log.Fatal(err)
		}
		return size
	}
	send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`)
	recv()
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	var ds []time.Duration
	size := 0
	for i := 0; i <= n; i++ {
		start := time.Now()
		send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":%s}`, i+1, params))
		size = recv()
		if i > 0 { // the first warms the server
			ds = append(ds, time.Since(start))
		}
	}
	return ds, size
}

// readFileBench times read_file of repo/rel through taskctl's server and
// through the reference filesystem server, each started once and warmed
// by one call, their calls interleaved; it prints both medians and their
// ratio. taskctl is given the path relative to the project dir (as an
// agent passes it), the reference server the absolute path it requires.
func readFileBench(bin, repo, rel string, n int, profile string) {
	ctx := context.Background()
	abs, err := filepath.Abs(filepath.Join(repo, rel))
	if err != nil {
		log.Fatal(err)
	}
	ours := exec.Command(bin, "mcp", "--project-dir", repo)
	if profile != "" {
		ours.Env = append(os.Environ(), "TASKCTL_CPUPROFILE="+profile)
	}
	repoAbs, _ := filepath.Abs(repo)
	peer := exec.Command("npx", "-y", "@modelcontextprotocol/server-filesystem", repoAbs)
	client := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1"}, nil)
	connect := func(cmd *exec.Cmd) *mcp.ClientSession {
		cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
		if err != nil {
			log.Fatalf("%s: %v", cmd.Path, err)
		}
		return cs
	}
	oursCS, peerCS := connect(ours), connect(peer)
	defer oursCS.Close()
	defer peerCS.Close()
	// The reference server names its text read read_text_file (read_file
	// is its deprecated alias); older versions have only read_file.
	peerTool := "read_file"
	if tools, err := peerCS.ListTools(ctx, nil); err == nil {
		for _, t := range tools.Tools {
			if t.Name == "read_text_file" {
				peerTool = t.Name
			}
		}
	}
	call := func(cs *mcp.ClientSession, tool, path string) (time.Duration, int) {
		start := time.Now()
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: map[string]any{"path": path}})
		d := time.Since(start)
		if err != nil || res.IsError {
			log.Fatalf("%s %s: %v %v", tool, path, err, res)
		}
		size := 0
		for _, c := range res.Content {
			if t, ok := c.(*mcp.TextContent); ok {
				size += len(t.Text)
			}
		}
		return d, size
	}
	_, oursSize := call(oursCS, "read_file", rel)
	_, peerSize := call(peerCS, peerTool, abs)
	var o, p []time.Duration
	for range n {
		d, _ := call(oursCS, "read_file", rel)
		o = append(o, d)
		d, _ = call(peerCS, peerTool, abs)
		p = append(p, d)
	}
	fmt.Printf("file: %s\n", abs)
	fmt.Printf("taskctl mcp read_file (%d bytes of text content): %s\n", oursSize, stats(o))
	fmt.Printf("reference server-filesystem %s (%d bytes): %s\n", peerTool, peerSize, stats(p))
	fmt.Printf("median ratio taskctl / reference: %.2f\n", float64(median(o))/float64(median(p)))
}

func median(ds []time.Duration) time.Duration {
	s := append([]time.Duration(nil), ds...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[len(s)/2]
}
