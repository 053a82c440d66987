package main

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/taskctl/taskctl/memory"
)

// bug is one item of a bug-report set: a GitHub issue, the commit it was
// reported against and the files its fix changed (SWE-bench's fields).
type bug struct {
	ID      string   `json:"instance_id"`
	Repo    string   `json:"repo"`
	Commit  string   `json:"base_commit"`
	Problem string   `json:"problem_statement"`
	Gold    []string `json:"gold_files"`
}

// bugOptions are the command line's settings for a bug-report run.
type bugOptions struct {
	file    string // the JSON Lines set
	repos   string // comma-separated OWNER/NAME or NAME filter; "" for all
	mirror  string // directory of git mirrors, one OWNER+NAME per repository
	sample  int    // the first sample items in SHA-256 order; 0 for all
	verbose bool
	explain string // comma-separated instance_ids whose rankings are printed with their reasons
}

// readBugs reads a JSON Lines set of bug reports. An item without an id,
// repository, commit or query is an error naming its line.
func readBugs(name string) ([]bug, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var bs []bug
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 64<<20)
	for line := 1; sc.Scan(); line++ {
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		var b bug
		if err := json.Unmarshal(sc.Bytes(), &b); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", name, line, err)
		}
		if b.ID == "" || b.Repo == "" || b.Commit == "" || b.Problem == "" {
			return nil, fmt.Errorf("%s:%d: an item needs instance_id, repo, base_commit and problem_statement", name, line)
		}
		bs = append(bs, b)
	}
	return bs, sc.Err()
}

// pickBugs keeps the items of the repositories named in repos (all when
// empty) and, when n > 0, the first n of them in order of the SHA-256 of
// their instance_id: a fixed sample that draws from every repository.
func pickBugs(bs []bug, repos string, n int) []bug {
	var out []bug
	for _, b := range bs {
		if repoWanted(b.Repo, repos) {
			out = append(out, b)
		}
	}
	if n <= 0 {
		return out
	}
	key := func(b bug) string {
		sum := sha256.Sum256([]byte(b.ID))
		return hex.EncodeToString(sum[:])
	}
	sort.SliceStable(out, func(i, j int) bool { return key(out[i]) < key(out[j]) })
	return out[:min(n, len(out))]
}

// repoWanted reports whether repo (OWNER/NAME) is named in the
// comma-separated list, by OWNER/NAME or by NAME alone.
func repoWanted(repo, list string) bool {
	if list == "" {
		return true
	}
	_, name, _ := strings.Cut(repo, "/")
	for _, w := range strings.Split(list, ",") {
		if w = strings.TrimSpace(w); w == repo || w == name {
			return true
		}
	}
	return false
}

// isBugTestPath reports whether a path is a test's as the published
// file-level scores of SWE-bench count it: a component is test, tests or
// testing, or has one of them as a word when split on "_" and ".", as in
// test_views.py, views_test.py or tests.py (conftest.py is not).
func isBugTestPath(p string) bool {
	for _, c := range strings.Split(strings.ToLower(p), "/") {
		for _, w := range strings.FieldsFunc(c, func(r rune) bool { return r == '_' || r == '.' }) {
			if w == "test" || w == "tests" || w == "testing" {
				return true
			}
		}
	}
	return false
}

// withoutTests returns the paths that are not tests', in order.
func withoutTests(paths []string) []string {
	var out []string
	for _, p := range paths {
		if !isBugTestPath(p) {
			out = append(out, p)
		}
	}
	return out
}

// hitScores add up where each item's first gold file ranked.
type hitScores struct {
	n      int
	hits   [3]int // first gold file within the first 1, 5, 10
	rr     float64
	millis []float64
}

// firstGold is the 1-based rank of the first gold file among the first ten
// of ranked, 0 if none is there.
func firstGold(ranked, gold []string) int {
	for i, r := range ranked[:min(len(ranked), 10)] {
		if slices.Contains(gold, r) {
			return i + 1
		}
	}
	return 0
}

func (h *hitScores) add(rank int, d time.Duration) {
	h.n++
	h.millis = append(h.millis, float64(d.Microseconds())/1000)
	if rank == 0 {
		return
	}
	for k, cut := range [3]int{1, 5, 10} {
		if rank <= cut {
			h.hits[k]++
		}
	}
	h.rr += 1 / float64(rank)
}

func (h *hitScores) merge(o *hitScores) {
	h.n += o.n
	for k := range h.hits {
		h.hits[k] += o.hits[k]
	}
	h.rr += o.rr
	h.millis = append(h.millis, o.millis...)
}

// hit is Hit@k in percent for k index 0, 1, 2 (k = 1, 5, 10).
func (h *hitScores) hit(k int) float64 { return 100 * float64(h.hits[k]) / float64(max(h.n, 1)) }

func (h *hitScores) mrr() float64 { return h.rr / float64(max(h.n, 1)) }

func (h *hitScores) cols() string {
	return fmt.Sprintf("%6.1f %6.1f %6.1f %6.3f", h.hit(0), h.hit(1), h.hit(2), h.mrr())
}

// repoRun is one repository's items and scores.
type repoRun struct {
	repo       string
	gitDir     string
	items      []bug
	ours, base hitScores
	refresh    time.Duration
	missing    int // blobs left out of a tree, summed over its commits
}

// runBugs evaluates both rankers on a bug-report set and prints Hit@1, 5
// and 10 and MRR of the first gold file, per repository and overall.
func runBugs(o bugOptions, stdout, stderr io.Writer) error {
	all, err := readBugs(o.file)
	if err != nil {
		return err
	}
	picked := pickBugs(all, o.repos, o.sample)
	runs, dropped, skipped := groupBugs(picked, o.mirror, stderr)
	ctx := context.Background()
	start := time.Now()
	for _, r := range runs {
		if err := r.evaluate(ctx, stderr, o); err != nil {
			return fmt.Errorf("%s: %w", r.repo, err)
		}
	}
	what := "all"
	if o.sample > 0 {
		what = fmt.Sprintf("the first %d in SHA-256 order of instance_id", o.sample)
	}
	fmt.Fprintf(stdout, "%s: %d of %d items (%s); %d dropped with no gold file outside tests, %d skipped; %v\n",
		filepath.Base(o.file), len(picked)-dropped-skipped, len(all), what, dropped, skipped, time.Since(start).Round(time.Second))
	printBugTable(stdout, runs)
	return nil
}

// groupBugs leaves test files out of each item's gold, drops the items with
// none left, and groups the rest by repository, each repository's in the
// order of their commits' dates (so that its index moves forward in small
// steps). Items whose repository has no mirror or whose commit the mirror
// lacks are skipped and named on stderr.
func groupBugs(bs []bug, mirror string, stderr io.Writer) (runs []*repoRun, dropped, skipped int) {
	byRepo := map[string]*repoRun{}
	for _, b := range bs {
		b.Gold = withoutTests(b.Gold)
		if len(b.Gold) == 0 {
			dropped++
			continue
		}
		r := byRepo[b.Repo]
		if r == nil {
			r = &repoRun{repo: b.Repo}
			byRepo[b.Repo] = r
			runs = append(runs, r)
		}
		r.items = append(r.items, b)
	}
	kept := runs[:0]
	for _, r := range runs {
		n, err := r.order(mirror)
		if err != nil {
			fmt.Fprintf(stderr, "retrieval: skipping %d items of %s: %v\n", len(r.items), r.repo, err)
			skipped += len(r.items)
			continue
		}
		if n > 0 {
			fmt.Fprintf(stderr, "retrieval: skipping %d items of %s: base commit not in %s\n", n, r.repo, r.gitDir)
			skipped += n
		}
		if len(r.items) > 0 {
			kept = append(kept, r)
		}
	}
	sort.SliceStable(kept, func(i, j int) bool {
		if len(kept[i].items) != len(kept[j].items) {
			return len(kept[i].items) > len(kept[j].items)
		}
		return kept[i].repo < kept[j].repo
	})
	return kept, dropped, skipped
}

// mirrorGitDir finds the git directory of repo (OWNER/NAME) under root:
// SWE-bench's mirror swe-bench+OWNER__NAME first (it holds every base
// commit of the largest repositories), then OWNER+NAME; in either, a bare
// repository at repo/ or a clone's repo/.git.
func mirrorGitDir(root, repo string) (string, error) {
	owner, name, ok := strings.Cut(repo, "/")
	if !ok || owner == "" || name == "" || strings.Contains(name, "/") {
		return "", fmt.Errorf("repository %q is not OWNER/NAME", repo)
	}
	for _, d := range []string{"swe-bench+" + owner + "__" + name, owner + "+" + name} {
		for _, g := range []string{"repo/.git", "repo", "."} {
			dir := filepath.Join(root, d, g)
			if isGitDir(dir) {
				return dir, nil
			}
		}
	}
	return "", fmt.Errorf("no mirror of %s under %s", repo, root)
}

func isGitDir(dir string) bool {
	for _, f := range []string{"HEAD", "objects"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			return false
		}
	}
	return true
}

// order finds r's mirror and sorts r's items by the date of their commits,
// leaving out those whose commit the mirror lacks (returning how many).
func (r *repoRun) order(mirror string) (missing int, err error) {
	if r.gitDir, err = mirrorGitDir(mirror, r.repo); err != nil {
		return 0, err
	}
	cat, err := newCatFile(r.gitDir)
	if err != nil {
		return 0, err
	}
	defer cat.close()
	when := map[string]int64{}
	kept := r.items[:0]
	for _, b := range r.items {
		if _, ok := when[b.Commit]; !ok {
			t, err := commitTime(cat, b.Commit)
			if err != nil {
				missing++
				continue
			}
			when[b.Commit] = t
		}
		kept = append(kept, b)
	}
	r.items = kept
	sort.SliceStable(r.items, func(i, j int) bool {
		if ti, tj := when[r.items[i].Commit], when[r.items[j].Commit]; ti != tj {
			return ti < tj
		}
		return r.items[i].Commit < r.items[j].Commit
	})
	return missing, nil
}

// commitTime reads a commit's committer time.
func commitTime(cat *catFile, commit string) (int64, error) {
	data, err := cat.read(commit + "^{commit}")
	if err != nil {
		return 0, err
	}
	for _, line := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, "committer "); ok {
			f := strings.Fields(rest)
			if len(f) >= 2 {
				return strconv.ParseInt(f[len(f)-2], 10, 64)
			}
		}
		if line == "" {
			break
		}
	}
	return 0, fmt.Errorf("commit %s has no committer line", commit)
}

// evaluate ranks r's items with both rankers, each at its base commit.
func (r *repoRun) evaluate(ctx context.Context, stderr io.Writer, o bugOptions) error {
	rk, err := newRankers(r.gitDir)
	if err != nil {
		return err
	}
	defer rk.close()
	for _, b := range r.items {
		t0 := time.Now()
		moved := rk.commit != b.Commit
		_, src, err := rk.at(ctx, b.Commit)
		if err != nil {
			return err
		}
		r.refresh += time.Since(t0)
		if moved {
			r.missing += rk.missing
		}
		t0 = time.Now()
		ours := rankOurs(rk.ix, src, b.Problem)
		dOurs := time.Since(t0)
		tuneItem(rk.ix, src, b.Problem, b.ID, b.Gold, ours, 40)
		t0 = time.Now()
		base := rankBase(rk.plain, b.Problem)
		dBase := time.Since(t0)
		ro, rb := firstGold(ours, b.Gold), firstGold(base, b.Gold)
		r.ours.add(ro, dOurs)
		r.base.add(rb, dBase)
		if slices.Contains(strings.Split(o.explain, ","), b.ID) {
			explainBug(stderr, rk.ix, src, b)
		}
		if o.verbose {
			fmt.Fprintf(stderr, "%-36s ours=%2d base=%2d gold=%v top=%v\n", b.ID, ro, rb, b.Gold, ours[:min(3, len(ours))])
		}
	}
	if o.verbose {
		fmt.Fprintf(stderr, "%s: %d items, refresh %v, %d blobs missing from trees\n",
			r.repo, len(r.items), r.refresh.Round(time.Millisecond), r.missing)
	}
	return nil
}

// explainBug prints taskctl's first ten files for b, tests' left out, with
// their scores and reasons, gold files marked.
func explainBug(w io.Writer, ix *memory.Index, src memory.Source, b bug) {
	fmt.Fprintf(w, "%s: gold %v\n", b.ID, b.Gold)
	n := 0
	for _, m := range ix.Search(b.Problem, memory.SearchOptions{Limit: 200, Explain: true, Source: src}) {
		if isBugTestPath(m.Rel) {
			continue
		}
		n++
		gold := slices.Contains(b.Gold, m.Rel)
		if n > 10 && !gold {
			continue
		}
		mark := " "
		if gold {
			mark = "*"
		}
		// A gold file below the first ten is printed with its rank too.
		fmt.Fprintf(w, "%s%2d %.4f %s\n      %s\n", mark, n, m.Score, m.Rel, m.Reason)
	}
}

// rankOurs is taskctl's first ten files for query, tests' left out: it asks
// for more until ten are left or the ranking is exhausted.
func rankOurs(ix *memory.Index, src memory.Source, query string) []string {
	return firstNonTest(func(limit int) []string {
		var rels []string
		for _, m := range ix.Search(query, memory.SearchOptions{Limit: limit, Source: src}) {
			rels = append(rels, m.Rel)
		}
		return rels
	})
}

// rankBase is the baseline's first ten files for query, tests' left out.
func rankBase(p *plainBM25, query string) []string {
	return firstNonTest(func(limit int) []string { return p.search(query, limit) })
}

// firstNonTest asks search for a growing number of files until ten that are
// not tests' are among them or it returns fewer than it was asked for.
func firstNonTest(search func(limit int) []string) []string {
	for limit := 40; ; limit *= 4 {
		got := search(limit)
		kept := withoutTests(got)
		if len(kept) >= 10 || len(got) < limit {
			return kept[:min(10, len(kept))]
		}
	}
}

func printBugTable(w io.Writer, runs []*repoRun) {
	fmt.Fprintf(w, "%-35s%-27s | %s\n", "", "taskctl", "plain BM25")
	fmt.Fprintf(w, "%-28s %5s %6s %6s %6s %6s | %6s %6s %6s %6s\n",
		"repository", "items", "Hit@1", "Hit@5", "Hit@10", "MRR", "Hit@1", "Hit@5", "Hit@10", "MRR")
	var ours, base hitScores
	var refresh time.Duration
	for _, r := range runs {
		fmt.Fprintf(w, "%-28s %5d %s | %s\n", r.repo, r.ours.n, r.ours.cols(), r.base.cols())
		ours.merge(&r.ours)
		base.merge(&r.base)
		refresh += r.refresh
	}
	fmt.Fprintf(w, "%-28s %5d %s | %s\n", "all", ours.n, ours.cols(), base.cols())
	fmt.Fprintf(w, "median search ms: taskctl %.1f, plain BM25 %.1f; index refresh total %v\n",
		median(ours.millis), median(base.millis), refresh.Round(time.Millisecond))
}
