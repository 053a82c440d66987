package main

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestIsBugTestPath(t *testing.T) {
	for _, tt := range []struct {
		path string
		want bool
	}{
		{"django/views/debug.py", false},
		{"tests/view_tests/views.py", true},
		{"django/test/client.py", true},
		{"sympy/testing/runtests.py", true},
		{"testing/python/collect.py", true},
		{"tests.py", true},
		{"test_views.py", true},
		{"views_test.py", true},
		{"lib/matplotlib/tests/baseline.png", true},
		{"astropy/io/fits/tests/data/x.fits", true},
		{"doc/testing.rst", true},
		{"Tests/Data.py", true},
		{"conftest.py", false},
		{"src/_pytest/python.py", false},
		{"attest/latest.py", false},
		{"testutils/helpers.py", false},
		{"sklearn/utils/_testing_helpers.py", true},
		{"a-test/x.py", false}, // "-" does not split a component
	} {
		if got := isBugTestPath(tt.path); got != tt.want {
			t.Errorf("isBugTestPath(%q) = %v, want %v", tt.path, got, tt.want)
		}
	}
}

func TestHitScores(t *testing.T) {
	gold := []string{"pkg/a.py", "pkg/b.py"}
	for _, tt := range []struct {
		ranked []string
		want   int
	}{
		{[]string{"pkg/b.py", "pkg/a.py"}, 1},
		{[]string{"x", "y", "pkg/a.py"}, 3},
		{[]string{"1", "2", "3", "4", "5", "6", "7", "8", "9", "pkg/b.py"}, 10},
		{[]string{"1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "pkg/a.py"}, 0}, // 11th is not counted
		{nil, 0},
	} {
		if got := firstGold(tt.ranked, gold); got != tt.want {
			t.Errorf("firstGold(%v) = %d, want %d", tt.ranked, got, tt.want)
		}
	}

	// Five items whose first gold file ranked 1, 3, 6, none and 2:
	// Hit@1 1/5, Hit@5 3/5, Hit@10 4/5, MRR (1 + 1/3 + 1/6 + 0 + 1/2) / 5.
	var h hitScores
	for _, r := range []int{1, 3, 6, 0, 2} {
		h.add(r, time.Millisecond)
	}
	if h.hit(0) != 20 || h.hit(1) != 60 || h.hit(2) != 80 {
		t.Errorf("Hit@1/5/10 = %v/%v/%v, want 20/60/80", h.hit(0), h.hit(1), h.hit(2))
	}
	if want := (1 + 1.0/3 + 1.0/6 + 0.5) / 5; math.Abs(h.mrr()-want) > 1e-12 {
		t.Errorf("MRR = %v, want %v", h.mrr(), want)
	}
	var all hitScores
	all.merge(&h)
	all.add(1, time.Millisecond)
	if all.n != 6 || all.hits != [3]int{2, 4, 5} {
		t.Errorf("merged n %d hits %v, want 6 [2 4 5]", all.n, all.hits)
	}
}

func TestFirstNonTest(t *testing.T) {
	// 45 test files rank above the code: the first ask (40) is all tests,
	// so it must ask again for more.
	var ranking []string
	for i := range 45 {
		ranking = append(ranking, "tests/test_"+string(rune('a'+i%26))+".py")
	}
	for i := range 30 {
		ranking = append(ranking, "pkg/m"+string(rune('a'+i%26))+".py")
	}
	var asked []int
	search := func(limit int) []string {
		asked = append(asked, limit)
		if limit < 0 || limit > len(ranking) {
			return ranking
		}
		return ranking[:limit]
	}
	got := firstNonTest(search)
	if !slices.Equal(got, ranking[45:55]) {
		t.Errorf("firstNonTest = %v, want %v", got, ranking[45:55])
	}
	if len(asked) < 2 {
		t.Errorf("asked for %v, want a second, larger ask", asked)
	}
	// A ranking with fewer than ten files outside tests returns them all.
	ranking = []string{"tests/a.py", "pkg/a.py", "test_b.py", "pkg/b.py"}
	if got := firstNonTest(search); !slices.Equal(got, []string{"pkg/a.py", "pkg/b.py"}) {
		t.Errorf("firstNonTest(short) = %v", got)
	}
}

func TestPickBugs(t *testing.T) {
	var bs []bug
	for _, id := range []string{"django__django-11099", "sympy__sympy-20590", "psf__requests-2317",
		"pallets__flask-4045", "astropy__astropy-12907", "pytest-dev__pytest-5227"} {
		owner, rest, _ := strings.Cut(id, "__")
		name, _, _ := strings.Cut(rest, "-")
		if owner == "pytest-dev" {
			name = "pytest"
		}
		bs = append(bs, bug{ID: id, Repo: owner + "/" + name})
	}
	ids := func(bs []bug) []string {
		var out []string
		for _, b := range bs {
			out = append(out, b.ID)
		}
		return out
	}
	// The order of the SHA-256 of each id, as Python's hashlib gives it.
	want := []string{"sympy__sympy-20590", "astropy__astropy-12907", "pytest-dev__pytest-5227",
		"django__django-11099", "pallets__flask-4045", "psf__requests-2317"}
	if got := ids(pickBugs(bs, "", 4)); !slices.Equal(got, want[:4]) {
		t.Errorf("pickBugs(4) = %v, want %v", got, want[:4])
	}
	if got := ids(pickBugs(bs, "", 100)); !slices.Equal(got, want) {
		t.Errorf("pickBugs(100) = %v, want %v", got, want)
	}
	if got := ids(pickBugs(bs, "", 0)); !slices.Equal(got, ids(bs)) {
		t.Errorf("pickBugs(0) = %v, want the file's order %v", got, ids(bs))
	}
	if got := ids(pickBugs(bs, "django/django, flask", 0)); !slices.Equal(got, []string{"django__django-11099", "pallets__flask-4045"}) {
		t.Errorf("pickBugs(django/django, flask) = %v", got)
	}
	if got := ids(pickBugs(bs, "djang", 0)); len(got) != 0 {
		t.Errorf("pickBugs(djang) = %v, want none (names match whole)", got)
	}
}

// gitRepo makes a repository under dir with one commit per step, each
// step's files written (an empty content removes the file) at the given
// committer time, and returns the commits.
func gitRepo(t *testing.T, dir string, steps []map[string]string, times []int64) []string {
	t.Helper()
	run := func(env []string, args ...string) string {
		cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
		cmd.Env = append(os.Environ(), append([]string{"GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_SYSTEM=/dev/null"}, env...)...)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	run(nil, "init", "-q")
	var commits []string
	for i, step := range steps {
		for rel, content := range step {
			p := filepath.Join(dir, filepath.FromSlash(rel))
			if content == "" {
				os.Remove(p)
				continue
			}
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		run(nil, "add", "-A")
		date := time.Unix(times[i], 0).UTC().Format(time.RFC3339)
		run([]string{"GIT_AUTHOR_DATE=" + date, "GIT_COMMITTER_DATE=" + date, "GIT_AUTHOR_NAME=t",
			"GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com"},
			"commit", "-q", "-m", "step")
		commits = append(commits, run(nil, "rev-parse", "HEAD"))
	}
	return commits
}

func TestGroupBugs(t *testing.T) {
	mirror := t.TempDir()
	commits := gitRepo(t, filepath.Join(mirror, "acme+widgets", "repo"), []map[string]string{
		{"widgets/a.py": "a"}, {"widgets/b.py": "b"}, {"widgets/c.py": "c"},
	}, []int64{1000, 3000, 2000}) // the third commit is dated before the second
	bs := []bug{
		{ID: "w-3", Repo: "acme/widgets", Commit: commits[2], Gold: []string{"widgets/c.py", "tests/test_c.py"}},
		{ID: "w-1", Repo: "acme/widgets", Commit: commits[0], Gold: []string{"widgets/a.py"}},
		{ID: "w-t", Repo: "acme/widgets", Commit: commits[0], Gold: []string{"tests/test_a.py"}},
		{ID: "w-2", Repo: "acme/widgets", Commit: commits[1], Gold: []string{"widgets/b.py"}},
		{ID: "w-x", Repo: "acme/widgets", Commit: strings.Repeat("0", 40), Gold: []string{"widgets/a.py"}},
		{ID: "o-1", Repo: "other/thing", Commit: commits[0], Gold: []string{"thing.py"}},
	}
	var stderr bytes.Buffer
	runs, dropped, skipped := groupBugs(bs, mirror, &stderr)
	if dropped != 1 || skipped != 2 {
		t.Errorf("dropped %d skipped %d, want 1 and 2 (stderr %q)", dropped, skipped, stderr.String())
	}
	if len(runs) != 1 || runs[0].repo != "acme/widgets" {
		t.Fatalf("runs %v, want acme/widgets alone", runs)
	}
	var got []string
	for _, b := range runs[0].items {
		got = append(got, b.ID)
	}
	if want := []string{"w-1", "w-3", "w-2"}; !slices.Equal(got, want) {
		t.Errorf("items in commit-date order %v, want %v", got, want)
	}
	if g := runs[0].items[1].Gold; !slices.Equal(g, []string{"widgets/c.py"}) {
		t.Errorf("gold of w-3 = %v, want the test file left out", g)
	}
	if !strings.Contains(stderr.String(), "other/thing") {
		t.Errorf("stderr %q does not name the repository without a mirror", stderr.String())
	}
}

func TestMirrorGitDir(t *testing.T) {
	root := t.TempDir()
	gitRepo(t, filepath.Join(root, "acme+widgets", "repo"), []map[string]string{{"a": "a"}}, []int64{1000})
	gitRepo(t, filepath.Join(root, "swe-bench+acme__big", "repo"), []map[string]string{{"a": "a"}}, []int64{1000})
	gitRepo(t, filepath.Join(root, "acme+big", "repo"), []map[string]string{{"a": "a"}}, []int64{1000})
	for _, tt := range []struct{ repo, want string }{
		{"acme/widgets", "acme+widgets/repo/.git"},
		{"acme/big", "swe-bench+acme__big/repo/.git"}, // SWE-bench's mirror first
	} {
		got, err := mirrorGitDir(root, tt.repo)
		if err != nil || got != filepath.Join(root, tt.want) {
			t.Errorf("mirrorGitDir(%s) = %q, %v; want %q", tt.repo, got, err, tt.want)
		}
	}
	for _, repo := range []string{"acme/none", "acme", "acme/../x/y"} {
		if got, err := mirrorGitDir(root, repo); err == nil {
			t.Errorf("mirrorGitDir(%s) = %q, want an error", repo, got)
		}
	}
}

func TestListTreeMissingBlob(t *testing.T) {
	dir := t.TempDir()
	commits := gitRepo(t, dir, []map[string]string{{"small.py": "x = 1\n", "big.dat": "pretend this is 4 MiB\n"}}, []int64{1000})
	id, err := exec.Command("git", "-C", dir, "rev-parse", commits[0]+":big.dat").Output()
	if err != nil {
		t.Fatal(err)
	}
	obj := strings.TrimSpace(string(id))
	if err := os.Remove(filepath.Join(dir, ".git", "objects", obj[:2], obj[2:])); err != nil {
		t.Fatal(err)
	}
	files, missing, err := listTree(dir, commits[0])
	if err != nil {
		t.Fatal(err)
	}
	if missing != 1 || len(files) != 1 || files[0].rel != "small.py" {
		t.Errorf("listTree = %v, missing %d; want small.py alone and 1 missing", files, missing)
	}
}

// TestRunBugs runs a two-item set end to end on a real repository: test
// files that repeat the query's words must be left out of both rankings,
// or the gold file would not rank first.
func TestRunBugs(t *testing.T) {
	mirror := t.TempDir()
	commits := gitRepo(t, filepath.Join(mirror, "acme+widgets", "repo"), []map[string]string{
		{
			"widgets/frob.py":       "def frobnicate_widget(w):\n    return w.spin()\n",
			"widgets/other.py":      "def unrelated():\n    pass\n",
			"tests/test_frob.py":    strings.Repeat("frobnicate_widget spin frobnicate_widget\n", 20),
			"widgets/frob_tests.py": strings.Repeat("frobnicate_widget spin\n", 20),
		},
		{"widgets/quux.py": "class QuuxGadget:\n    def wobble(self):\n        pass\n",
			"widgets/test_quux.py": strings.Repeat("QuuxGadget wobble\n", 30)},
	}, []int64{1000, 2000})
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.Encode(bug{ID: "acme__widgets-2", Repo: "acme/widgets", Commit: commits[1],
		Problem: "QuuxGadget.wobble does nothing", Gold: []string{"widgets/quux.py", "widgets/test_quux.py"}})
	enc.Encode(bug{ID: "acme__widgets-1", Repo: "acme/widgets", Commit: commits[0],
		Problem: "frobnicate_widget fails to spin", Gold: []string{"widgets/frob.py"}})
	set := filepath.Join(t.TempDir(), "bugs.jsonl")
	if err := os.WriteFile(set, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	if err := run([]string{"-bugs", set, "-mirror", mirror}, &stdout, &stderr); err != nil {
		t.Fatalf("run: %v\n%s", err, stderr.String())
	}
	var all string
	for _, line := range strings.Split(stdout.String(), "\n") {
		if strings.HasPrefix(line, "all ") {
			all = line
		}
	}
	// Both rankers put the gold file first in both items.
	if f := strings.Fields(all); len(f) != 11 || f[1] != "2" || f[2] != "100.0" || f[5] != "1.000" || f[7] != "100.0" || f[10] != "1.000" {
		t.Errorf("overall row %q, want 2 items, Hit@1 100 and MRR 1 for both rankers\n%s", all, stdout.String())
	}
}
