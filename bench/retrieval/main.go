// Command retrieval measures how well taskctl's description matcher finds
// the files a change touches, against a plain content-only BM25 baseline.
//
// From a git repository (-repo), each recent non-merge commit that changes
// one to five non-test source files becomes a query: its subject and body
// are the query, the source files it changes that exist at its parent are
// the gold set, and both rankers index the tree at the parent commit
// (read through git; nothing is checked out). -rev pins the newest commit
// taken, so a set stays the same as the repository moves on. A JSON Lines
// file (-jsonl) of {"repo_dir","base_commit","query","gold_files"} plugs in
// any other set; an empty base_commit indexes the directory as it is on
// disk. It prints Recall@1, @5 and @10 (hits over all gold files) and MRR
// (first gold file within the top 10) for both rankers over the same
// queries.
//
// With -bugs FILE it evaluates a set of bug reports instead (SWE-bench's
// fields: instance_id, repo, base_commit, problem_statement, gold_files):
// each issue's text is the query against the tree at its base commit, read
// from a git mirror under -mirror (OWNER+NAME/repo, or SWE-bench's
// swe-bench+OWNER__NAME/repo, which is tried first); blobs a mirror lacks
// are left out of the tree. Files with a path component test, tests or
// testing, also as a word of a component split on "_" and "." (test_x.py),
// are left out of both rankings and of the gold, and items with no gold
// file left are dropped. It prints Hit@1, @5 and @10 (the first gold file
// within the first k) and MRR@10 of the first gold file, per repository and
// overall, for both rankers on the same items. -repo keeps the items of the
// named repositories (OWNER/NAME or NAME, comma-separated); -sample N then
// keeps the first N in order of the SHA-256 of their instance_id. Items
// whose repository has no mirror, or whose commit it lacks, are skipped and
// named on stderr. bench/retrieval/short-requests.jsonl is such a set of
// short requests ("reverse proxy", "exceptions raised for HTTP errors")
// over flask, requests and caddy at pinned commits, whose gold files were
// chosen by reading the code before any ranker ran on them.
//
// The index also learns from each repository's commit history, as the
// command line does from a project's .git (memory.HistorySource): the
// history of a tree at a commit is the commits before it, read from the
// repository by memory.GitLog; a commit query's history also leaves out
// the commits with the query's own subject (a cherry-pick of the same
// change), so no query's answer is in its history. -no-history indexes
// without it.
//
// With -perf DIR it instead measures the index on a directory: cold build,
// warm search latency, refresh after touching and after editing one file,
// and index size over indexed bytes.
//
// Usage:
//
//	go run ./bench/retrieval -repo REPO [-rev REV] [-n 100] [-max-files 5] [-v] [-dump FILE] [-no-history]
//	go run ./bench/retrieval -jsonl FILE [-v]
//	go run ./bench/retrieval -bugs FILE [-sample N] [-repo NAME,...] [-mirror DIR] [-v] [-explain ID,...] [-no-history]
//	go run ./bench/retrieval -perf DIR
package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path"
	"slices"
	"strings"
	"time"

	"github.com/taskctl/taskctl/memory"
)

type query struct {
	RepoDir    string   `json:"repo_dir"`
	BaseCommit string   `json:"base_commit"`
	Query      string   `json:"query"`
	Gold       []string `json:"gold_files"`
	commit     string
}

// tuneItem, in a harness built with -tags tuning, writes a query's
// candidates before the boosts to $TUNE_DUMP (tune.go, bench/tune); limit
// is the Limit its search asked for (40: a bug-report run's, tests left
// out; 10: a commit run's).
var tuneItem = func(ix *memory.Index, src memory.Source, query, id string, gold, ranked []string, limit int) {}

func main() {
	if err := run(os.Args[1:], os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "retrieval:", err)
		os.Exit(1)
	}
}

func run(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("retrieval", flag.ContinueOnError)
	fs.SetOutput(stderr)
	repo := fs.String("repo", "", "git repository to build commit queries from; with -bugs, the repositories to keep (OWNER/NAME or NAME, comma-separated)")
	rev := fs.String("rev", "HEAD", "with -repo: the newest commit to take queries from (pins the set)")
	n := fs.Int("n", 100, "number of commits to evaluate")
	maxFiles := fs.Int("max-files", 5, "largest number of changed source files in a commit")
	jsonl := fs.String("jsonl", "", "evaluate the queries in this JSON Lines file instead")
	dump := fs.String("dump", "", "write the queries built from -repo to this JSON Lines file")
	verbose := fs.Bool("v", false, "print every query's ranks")
	explain := fs.String("explain", "", "with -bugs: print the first ten matches and their reasons for these instance_ids (comma-separated)")
	perf := fs.String("perf", "", "measure index build, search and refresh on this directory")
	bugs := fs.String("bugs", "", "evaluate this JSON Lines set of bug reports (instance_id, repo, base_commit, problem_statement, gold_files)")
	sample := fs.Int("sample", 0, "with -bugs: only the first N items in order of the SHA-256 of their instance_id (0: all)")
	fs.BoolVar(&noHistory, "no-history", false, "index without the repositories' commit history")
	mirror := fs.String("mirror", "/work/.mirror", "with -bugs: directory of git mirrors (OWNER+NAME/repo, or swe-bench+OWNER__NAME/repo)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	if *perf != "" {
		return runPerf(*perf, stdout)
	}
	if *bugs != "" {
		return runBugs(bugOptions{file: *bugs, repos: *repo, mirror: *mirror, sample: *sample, verbose: *verbose, explain: *explain}, stdout, stderr)
	}
	if strings.HasPrefix(*rev, "-") {
		return fmt.Errorf("-rev %q: not a revision", *rev)
	}
	var qs []query
	var err error
	switch {
	case *jsonl != "":
		qs, err = readJSONL(*jsonl)
	case *repo != "":
		qs, err = commitQueries(*repo, *rev, *n, *maxFiles)
	default:
		return fmt.Errorf("need -repo DIR, -jsonl FILE, -bugs FILE or -perf DIR")
	}
	if err != nil {
		return err
	}
	if *dump != "" {
		if err := writeJSONL(*dump, qs); err != nil {
			return err
		}
	}
	return evaluate(qs, stdout, stderr, *verbose)
}

// commitQueries builds queries from the newest qualifying commits reachable
// from rev.
func commitQueries(repo, rev string, n, maxFiles int) ([]query, error) {
	out, err := exec.Command("git", "-C", repo, "log", "--no-merges", "--no-renames", "-n", fmt.Sprint(n*20),
		"--name-status", "--format=%x1e%H %P%n%B%x1f", rev, "--").Output()
	if err != nil {
		return nil, fmt.Errorf("git log: %w", err)
	}
	var qs []query
	for _, rec := range strings.Split(string(out), "\x1e") {
		head, rest, ok := strings.Cut(rec, "\n")
		if !ok {
			continue
		}
		ids := strings.Fields(head)
		if len(ids) != 2 {
			continue // root commit or merge
		}
		msg, status, _ := strings.Cut(rest, "\x1f")
		var gold []string
		changed := 0
		for _, line := range strings.Split(status, "\n") {
			st, file, ok := strings.Cut(strings.TrimSpace(line), "\t")
			if !ok || !isSource(file) || isTestPath(file) {
				continue
			}
			changed++
			if st == "M" || st == "D" {
				gold = append(gold, file)
			}
		}
		if changed < 1 || changed > maxFiles || len(gold) == 0 {
			continue
		}
		qs = append(qs, query{RepoDir: repo, BaseCommit: ids[1], Query: cleanMessage(msg), Gold: gold, commit: ids[0]})
		if len(qs) == n {
			break
		}
	}
	return qs, nil
}

// cleanMessage drops trailer lines (Signed-off-by and the like), which name
// people, not code.
func cleanMessage(msg string) string {
	var b strings.Builder
	for _, line := range strings.Split(msg, "\n") {
		l := strings.ToLower(strings.TrimSpace(line))
		if strings.HasPrefix(l, "signed-off-by:") || strings.HasPrefix(l, "co-authored-by:") ||
			strings.HasPrefix(l, "reviewed-by:") || strings.HasPrefix(l, "change-id:") {
			continue
		}
		b.WriteString(line)
		b.WriteByte('\n')
	}
	return strings.TrimSpace(b.String())
}

var sourceExts = map[string]bool{
	".go": true, ".py": true, ".js": true, ".jsx": true, ".ts": true, ".tsx": true, ".java": true, ".kt": true,
	".c": true, ".h": true, ".cc": true, ".cpp": true, ".hpp": true, ".rs": true, ".rb": true, ".php": true,
	".cs": true, ".swift": true, ".scala": true, ".sh": true, ".proto": true, ".svelte": true, ".vue": true,
}

func isSource(p string) bool { return sourceExts[strings.ToLower(path.Ext(p))] }

func isTestPath(p string) bool {
	base := strings.ToLower(path.Base(p))
	stem := strings.TrimSuffix(base, path.Ext(base))
	if strings.HasSuffix(stem, "_test") || strings.HasPrefix(stem, "test_") || strings.HasSuffix(stem, ".test") ||
		strings.HasSuffix(stem, ".spec") || strings.HasSuffix(stem, "test") && strings.HasSuffix(base, ".java") {
		return true
	}
	for _, c := range strings.Split(path.Dir(p), "/") {
		switch c {
		case "test", "tests", "testdata", "__tests__", "e2e", "fixtures":
			return true
		}
	}
	return false
}

func readJSONL(name string) ([]query, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var qs []query
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 16<<20)
	for line := 1; sc.Scan(); line++ {
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		var q query
		if err := json.Unmarshal(sc.Bytes(), &q); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", name, line, err)
		}
		qs = append(qs, q)
	}
	return qs, sc.Err()
}

func writeJSONL(name string, qs []query) error {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	for _, q := range qs {
		if err := enc.Encode(q); err != nil {
			return err
		}
	}
	return os.WriteFile(name, b.Bytes(), 0o644)
}

type scores struct {
	hits   [3]int // at 1, 5, 10
	gold   int
	rr     float64
	n      int
	millis []float64
}

func (s *scores) add(ranked []string, gold []string, d time.Duration) {
	s.n++
	s.gold += len(gold)
	s.millis = append(s.millis, float64(d.Microseconds())/1000)
	g := map[string]bool{}
	for _, f := range gold {
		g[f] = true
	}
	first := 0
	for i, r := range ranked {
		if i >= 10 {
			break
		}
		if g[r] {
			if first == 0 {
				first = i + 1
			}
			for k, cut := range [3]int{1, 5, 10} {
				if i < cut {
					s.hits[k]++
				}
			}
		}
	}
	if first > 0 {
		s.rr += 1 / float64(first)
	}
}

func (s *scores) row(name string) string {
	r := func(k int) float64 { return 100 * float64(s.hits[k]) / float64(max(s.gold, 1)) }
	return fmt.Sprintf("%-10s %9.1f %9.1f %9.1f %7.3f %10.1f", name, r(0), r(1), r(2), s.rr/float64(max(s.n, 1)), median(s.millis))
}

func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	c := slices.Clone(xs)
	slices.Sort(c)
	return c[len(c)/2]
}

// evaluate runs both rankers over qs, which share index state per repository.
func evaluate(qs []query, stdout, stderr io.Writer, verbose bool) error {
	ctx := context.Background()
	var ours, base scores
	repos := map[string]*rankers{}
	defer func() {
		for _, r := range repos {
			r.close()
		}
	}()
	var refresh time.Duration
	for i, q := range qs {
		r := repos[q.RepoDir]
		if r == nil {
			var err error
			if r, err = newRankers(q.RepoDir); err != nil {
				return err
			}
			repos[q.RepoDir] = r
		}
		t0 := time.Now()
		r.skip = subjectOf(q.Query)
		st, src, err := r.at(ctx, q.BaseCommit)
		if err != nil {
			return err
		}
		refresh += time.Since(t0)

		t0 = time.Now()
		// the source, as the command line passes it: matches are read
		// for their best units and lines
		ms := r.ix.Search(q.Query, memory.SearchOptions{Limit: 10, Source: src})
		dOurs := time.Since(t0)
		var rankedOurs []string
		for _, m := range ms {
			rankedOurs = append(rankedOurs, m.Rel)
		}
		tuneItem(r.ix, src, q.Query, q.commit, q.Gold, rankedOurs, 10)
		t0 = time.Now()
		rankedBase := r.plain.search(q.Query, 10)
		dBase := time.Since(t0)
		ours.add(rankedOurs, q.Gold, dOurs)
		base.add(rankedBase, q.Gold, dBase)
		if verbose {
			subject, _, _ := strings.Cut(q.Query, "\n")
			fmt.Fprintf(stderr, "%3d %.10s files=%d reread=%d  ours=%v base=%v  %q gold=%v\n", i+1, q.commit, st.Files, st.Reread,
				ranks(rankedOurs, q.Gold), ranks(rankedBase, q.Gold), subject, q.Gold)
		}
	}
	fmt.Fprintf(stdout, "%d queries, %d gold files; index refresh total %v\n", ours.n, ours.gold, refresh.Round(time.Millisecond))
	fmt.Fprintf(stdout, "%-10s %9s %9s %9s %7s %10s\n", "ranker", "Recall@1", "Recall@5", "Recall@10", "MRR", "median ms")
	fmt.Fprintln(stdout, ours.row("taskctl"))
	fmt.Fprintln(stdout, base.row("bm25"))
	return nil
}

func ranks(ranked, gold []string) []int {
	var rs []int
	for _, g := range gold {
		r := 0
		for i, x := range ranked {
			if x == g {
				r = i + 1
			}
		}
		rs = append(rs, r)
	}
	return rs
}
