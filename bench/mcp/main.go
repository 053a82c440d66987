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

func main() {
	bin := flag.String("bin", "taskctl", "the taskctl binary")
	repo := flag.String("repo", "", "the repository (a copy: .taskctl/ is written)")
	query := flag.String("query", "container network configuration", "the search query")
	glob := flag.String("glob", "libpod/*.go", "the task's glob for assemble")
	n := flag.Int("n", 30, "calls of each kind")
	profile := flag.String("serverprofile", "", "write the server's CPU profile to `FILE`")
	flag.Parse()
	if *repo == "" {
		log.Fatal("-repo is required")
	}
	task := fmt.Sprintf(`<task name="bench-mcp"><description>bench</description>
<file_paths source="literal"><path>%s</path></file_paths></task>
`, *glob)
	if err := os.MkdirAll(filepath.Join(*repo, ".taskctl", "tasks"), 0o755); err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(*repo, ".taskctl", "tasks", "bench-mcp.xml"), []byte(task), 0o644); err != nil {
		log.Fatal(err)
	}
	// The index on disk, built once: both sides start warm.
	if out, err := exec.Command(*bin, "--project-dir", *repo, "index").CombinedOutput(); err != nil {
		log.Fatalf("index: %v\n%s", err, out)
	}

	ctx := context.Background()
	cmd := exec.Command(*bin, "mcp", "--project-dir", *repo)
	if *profile != "" {
		cmd.Env = append(os.Environ(), "TASKCTL_CPUPROFILE="+*profile)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		log.Fatal(err)
	}
	defer cs.Close()
	call := func(name string, args map[string]any) time.Duration {
		start := time.Now()
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
		d := time.Since(start)
		if err != nil || res.IsError {
			log.Fatalf("%s: %v %v", name, err, res)
		}
		return d
	}
	searchArgs := map[string]any{"query": *query, "limit": 10}
	first := call("search", searchArgs) // opens the index
	var mcpSearch []time.Duration
	for range *n {
		mcpSearch = append(mcpSearch, call("search", searchArgs))
	}
	serverRSS, serverHWM := procMem(cmd.Process.Pid)

	assembleArgs := map[string]any{"task": "bench-mcp"}
	call("assemble", assembleArgs)
	var mcpAssemble []time.Duration
	for range *n {
		mcpAssemble = append(mcpAssemble, call("assemble", assembleArgs))
	}

	rawAssemble, size := rawCalls(*bin, *repo, *n, `{"name":"assemble","arguments":{"task":"bench-mcp"}}`)

	var cliSearch, cliAssemble []time.Duration
	var cliPeak int64
	for range *n {
		d, peak := runCLI(*bin, "--project-dir", *repo, "search", *query, "--limit", "10", "--output", "json")
		cliSearch = append(cliSearch, d)
		cliPeak = max(cliPeak, peak)
	}
	for range *n {
		d, _ := runCLI(*bin, "--project-dir", *repo, "assemble", "bench-mcp", "--output", "json")
		cliAssemble = append(cliAssemble, d)
	}

	fmt.Printf("repository: %s (%s files)\n", *repo, countFiles(*repo))
	fmt.Printf("mcp search, first call (opens the index): %v\n", first.Round(time.Microsecond))
	fmt.Printf("mcp search round trip, warm:  %s\n", stats(mcpSearch))
	fmt.Printf("cli search (a process a query): %s\n", stats(cliSearch))
	fmt.Printf("mcp assemble %q round trip: %s\n", *glob, stats(mcpAssemble))
	fmt.Printf("mcp assemble, raw pipe client (response read, not parsed; %d KB): %s\n", size>>10, stats(rawAssemble))
	fmt.Printf("cli assemble --output json:     %s\n", stats(cliAssemble))
	fmt.Printf("mcp server memory after %d searches: RSS %d KB, peak (VmHWM) %d KB\n", *n+1, serverRSS, serverHWM)
	fmt.Printf("cli search peak RSS (max of %d): %d KB; server peak / cli peak = %.2f\n", *n, cliPeak, float64(serverHWM)/float64(cliPeak))
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
