package memory_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/taskctl/taskctl/memory"
)

// evidenceFiles: one file defines QuerySet.bulk_create; others use it far
// more often, and one is long and about the same words.
var evidenceFiles = map[string]string{
	"db/models/query.py": `class QuerySet:
    def filter(self, **kw):
        return self

    def bulk_create(self, objs, batch_size=None):
        return objs
`,
	"db/models/manager.py": `from db.models.query import QuerySet

class Manager:
    def bulk_create(self, objs):
        return QuerySet().bulk_create(objs)
`,
	"app/loader.py": strings.Repeat(`def load(objs):
    # bulk create the objects of a batch: QuerySet.bulk_create with a batch size
    QuerySet().bulk_create(objs, batch_size=100)
`, 20),
	"db/models/__init__.py": "from db.models.query import QuerySet\n",
}

func TestSearchEvidenceDefinitions(t *testing.T) {
	ix, _ := build(t, writeTree(t, evidenceFiles))
	report := `bulk_create ignores batch_size when the objects are created in a batch

When I call Manager.bulk_create with a batch size the objects are all created at once. The loader does
the same thing for every object it creates, in batches that never honour the size that was asked for;
this looks like a bug that has been there for a long time, maybe since the last release.

Traceback (most recent call last):
  File "/venv/lib/python3.11/site-packages/db/models/manager.py", line 5, in bulk_create
    return QuerySet().bulk_create(objs)
  File "/venv/lib/python3.11/site-packages/db/models/query.py", line 5, in bulk_create
ValueError: bad batch`
	ms := ix.Search(report, memory.SearchOptions{})
	if len(ms) < 2 {
		t.Fatalf("Search(report) = %q, want at least two matches", rels(ms))
	}
	got := rels(ms)
	q, l := slices.Index(got, "db/models/query.py"), slices.Index(got, "app/loader.py")
	if q < 0 || l >= 0 && l < q {
		t.Errorf("Search(report) = %q, want db/models/query.py above app/loader.py", got)
	}
	note := strings.Join(ms[q].Reason.Notes, "; ")
	if !strings.Contains(note, "innermost traceback frame in the project") {
		t.Errorf("the reason of db/models/query.py is %q, want it named the innermost frame", note)
	}
	if !strings.Contains(note, "defines QuerySet.bulk_create (dotted name)") && !strings.Contains(note, "defines bulk_create (traceback frame)") {
		t.Errorf("the reason of db/models/query.py is %q, want it to say what it defines", note)
	}

	// A dotted module path names its file: the longest prefix that is one.
	ms = ix.Search("QuerySet ordering breaks when db.models.query.QuerySet.filter is chained", memory.SearchOptions{})
	if len(ms) == 0 || ms[0].Rel != "db/models/query.py" {
		t.Fatalf("Search(dotted) = %q, want db/models/query.py first", rels(ms))
	}
	if n := strings.Join(ms[0].Reason.Notes, "; "); !strings.Contains(n, "module db.models.query") {
		t.Errorf("notes %q, want the module named", n)
	}
	for _, m := range ms {
		if m.Rel == "db/models/__init__.py" && slices.ContainsFunc(m.Reason.Notes, func(s string) bool { return strings.HasPrefix(s, "module") }) {
			t.Errorf("db/models/__init__.py was taken for module db.models.query: %q", m.Reason.Notes)
		}
	}
}

// TestSearchMentionsWithLineSuffix checks that a path printed as warnings,
// compilers and pytest print locations ("x.py:470:", "x.c:12:5:") and a
// Windows path are mentions of the file.
func TestSearchMentionsWithLineSuffix(t *testing.T) {
	ix, _ := build(t, writeTree(t, map[string]string{
		"pkg/raw_building.py": "def build(module):\n    return getattr(module, 'name')\n",
		"pkg/brain/numpy.py":  strings.Repeat("# numpy random seed: numpy random numbers, numpy warnings\n", 5),
		"pkg/loader.py":       "def load(path):\n    return open(path).read()\n",
	}))
	tests := []struct{ report, file, note string }{
		{"Deprecation warnings from numpy random seed\n\n/home/u/lib/python3.10/site-packages/pkg/raw_building.py:470: FutureWarning: In the future numpy will warn\n  getattr(sys.modules[modname], name)\n",
			"pkg/raw_building.py", "mentioned as /home/u/lib/python3.10/site-packages/pkg/raw_building.py"},
		{"numpy random seed fails\n\npkg/raw_building.py:12:5: error: numpy", "pkg/raw_building.py", "mentioned as pkg/raw_building.py"},
		{`Unable to load file C:\src\pkg\loader.py with numpy random seed`, "pkg/loader.py", "mentioned as C:/src/pkg/loader.py"},
	}
	for _, tt := range tests {
		ms := ix.Search(tt.report, memory.SearchOptions{})
		i := slices.Index(rels(ms), tt.file)
		if i < 0 {
			t.Errorf("Search(%q) = %q, want %s in it", tt.report, rels(ms), tt.file)
			continue
		}
		if !slices.Contains(ms[i].Reason.Notes, tt.note) {
			t.Errorf("Search(%q): %s has notes %q, want %q", tt.report, tt.file, ms[i].Reason.Notes, tt.note)
		}
	}
}

// TestSearchFramesOfInstalledPackage checks that a traceback's path into
// an installed package (site-packages/pkg/mod.py) names the file that the
// project keeps under a source root (lib/pkg/mod.py), and no file that only
// shares its last components.
func TestSearchFramesOfInstalledPackage(t *testing.T) {
	ix, _ := build(t, writeTree(t, map[string]string{
		"lib/plotlib/stackplot.py":                 "def stackplot(axes, *args, colors=None):\n    axes.set_prop_cycle(color=colors)\n",
		"lib/plotlib/axes/base.py":                 "class Axes:\n    def set_prop_cycle(self, *args, **kwargs):\n        return cycler(*args, **kwargs)\n",
		"lib/plotlib/rcsetup.py":                   "def cycler(*args, **kwargs):\n    return validate(args)\n",
		"lib/plotlib/contrib/axes/base.py":         "# axes base of contrib: cycler cycle colors\n",
		"lib/plotlib/management/__init__.py":       "def run():\n    pass\n",
		"lib/plotlib/other/management/__init__.py": "def run():\n    pass\n",
	}))
	report := `stackplot should not change the Axes cycler

Traceback (most recent call last):
  File "/home/u/.local/lib/python3.9/site-packages/plotlib/management/__init__.py", line 3, in run
  File "/home/u/.local/lib/python3.9/site-packages/plotlib/stackplot.py", line 2, in stackplot
    axes.set_prop_cycle(color=colors)
  File "/home/u/.local/lib/python3.9/site-packages/plotlib/axes/base.py", line 3, in set_prop_cycle
    return cycler(*args, **kwargs)
  File "/home/u/.local/lib/python3.9/site-packages/plotlib/rcsetup.py", line 2, in cycler
ValueError: cannot cycle colors`
	ms := ix.Search(report, memory.SearchOptions{Limit: -1})
	mentioned := map[string]bool{}
	for _, m := range ms {
		for _, n := range m.Reason.Notes {
			if strings.HasPrefix(n, "mentioned as ") {
				mentioned[m.Rel] = true
			}
		}
	}
	for _, rel := range []string{"lib/plotlib/stackplot.py", "lib/plotlib/axes/base.py", "lib/plotlib/rcsetup.py", "lib/plotlib/management/__init__.py"} {
		if !mentioned[rel] {
			t.Errorf("%s is not mentioned by its frame; mentioned: %v", rel, mentioned)
		}
	}
	for _, rel := range []string{"lib/plotlib/contrib/axes/base.py", "lib/plotlib/other/management/__init__.py"} {
		if mentioned[rel] {
			t.Errorf("%s is taken for another file's frame", rel)
		}
	}
}

// TestSearchReportLayout checks what a report's links and layout say: a
// link into the repository's tree mentions the file, a code fence's
// language is no language word, and a licence or change log is prose.
func TestSearchReportLayout(t *testing.T) {
	ix, _ := build(t, writeTree(t, map[string]string{
		"pkg/lint/run.py":      "def query_cpu():\n    return cpu_shares / 1024\n",
		"pkg/lint/parallel.py": "def check_parallel(jobs):\n    # jobs: the number of cpu to use, cpu shares of the cgroup\n    return Pool(jobs)\n",
		"scripts/jobs.sh":      "#!/bin/sh\n# run the jobs on every cpu\nexec lint --jobs 0\n",
		"LICENSE":              strings.Repeat("Permission is granted to use the number of copies of the software, jobs and cpu time.\n", 3),
	}))
	report := "Running lint with --jobs=0 fails in a pod\n\n" +
		"The function [query_cpu](https://github.com/org/lint/blob/main/pkg/lint/run.py#L34) is called to find the number of cpus to use " +
		"and returns 0 when the shares of the cgroup are small, so the pool of jobs gets no process at all and the run fails.\n\n" +
		"```shell\nlint --jobs 0 my_package\n```\n"
	ms := ix.Search(report, memory.SearchOptions{Limit: -1})
	got := rels(ms)
	if len(ms) == 0 || ms[0].Rel != "pkg/lint/run.py" {
		t.Fatalf("Search(report) = %q, want pkg/lint/run.py first", got)
	}
	if !slices.Contains(ms[0].Reason.Notes, "mentioned as pkg/lint/run.py") {
		t.Errorf("pkg/lint/run.py has notes %q, want it mentioned by the link", ms[0].Reason.Notes)
	}
	for _, m := range ms {
		for _, n := range m.Reason.Notes {
			if strings.HasPrefix(n, "language") {
				t.Errorf("%s: note %q: a code fence's info string is no language word", m.Rel, n)
			}
		}
		if m.Rel == "LICENSE" && !slices.Contains(m.Reason.Notes, "documentation demoted") {
			t.Errorf("LICENSE has notes %q, want it demoted as documentation", m.Reason.Notes)
		}
	}
}

// TestSearchReportIsAboutCode checks how a long report weighs files that
// are not code: documentation is demoted even when the report names its
// language ("Python 3.8" in its environment), a file of no programming
// language a little, and a name that many files define is no evidence.
func TestSearchReportIsAboutCode(t *testing.T) {
	files := map[string]string{
		"docs/usage.rst":      strings.Repeat("The default value of a positional only argument is shown in the signature of a function.\n", 4),
		"ci/workflow.yml":     strings.Repeat("# default value positional only argument signature function\n", 4),
		"pkg/inspect.py":      "def signature(func):\n    # the default value of each positional only argument\n    return params\n",
		"pkg/modutils.py":     "def load_module(path):\n    # a package without its __init__.py file\n    return path\n",
		"pkg/__init__.py":     "",
		"setup.py":            "def main():\n    pass\n",
		"pkg/loader.py":       "def load_module(path):\n    return path\n",
		"pkg/sub/__init__.py": "",
	}
	for i := 0; i < 7; i++ {
		files[fmt.Sprintf("pkg/classes%d.py", i)] = "class C:\n    def __init__(self):\n        self.x = 1\n"
	}
	ix, _ := build(t, writeTree(t, files))
	report := `The default value for positional only argument has vanished

Build a document with a function whose positional only argument has a default value: the signature shows
no default value for it, where the keyword arguments keep theirs.

Environment info
- Python version: 3.8.2`
	ms := ix.Search(report, memory.SearchOptions{Limit: -1})
	if len(ms) == 0 || ms[0].Rel != "pkg/inspect.py" {
		t.Fatalf("Search(report) = %q, want pkg/inspect.py first", rels(ms))
	}
	for _, m := range ms {
		switch m.Rel {
		case "docs/usage.rst":
			if !slices.Contains(m.Reason.Notes, "documentation demoted") {
				t.Errorf("docs/usage.rst has notes %q, want it demoted though the report names Python", m.Reason.Notes)
			}
		case "ci/workflow.yml":
			if !slices.Contains(m.Reason.Notes, "not code: demoted") {
				t.Errorf("ci/workflow.yml has notes %q, want it demoted as no code", m.Reason.Notes)
			}
		}
	}

	report = `Loading fails with a missing __init__ file in a namespace package

A package directory whose __init__ file is missing cannot be loaded any more: the module path of each
file in it is taken from the wrong directory, and loading the module fails with an error since the
last release. It worked before it.`
	for _, m := range ix.Search(report, memory.SearchOptions{Limit: -1}) {
		for _, n := range m.Reason.Notes {
			if strings.HasPrefix(n, "defines __init__") {
				t.Errorf("%s: note %q: a name most classes define is no evidence", m.Rel, n)
			}
		}
	}
}

// TestSearchDropsEnvironmentListing checks that the versions a report
// lists (show_versions' output) do not lift the file that prints them.
func TestSearchDropsEnvironmentListing(t *testing.T) {
	ix, _ := build(t, writeTree(t, map[string]string{
		"pkg/util/print_versions.py": "def show_versions():\n    deps = ['numpy', 'pandas', 'scipy', 'netCDF4', 'dask', 'distributed', 'matplotlib', 'setuptools', 'pip']\n    print('INSTALLED VERSIONS: python, python-bits, OS, machine, processor, LOCALE')\n",
		"pkg/core/variable.py":       "def quantile(self, q):\n    # q must be in the range [0, 1]: percentiles are q * 100\n    return np.nanpercentile(self.data, q * 100)\n",
	}))
	report := `quantile raises ValueError: Percentiles must be in the range [0, 100]

Calling quantile with a value above 1 raises an error about percentiles from numpy instead of a
clear message that q must be in the range [0, 1].

INSTALLED VERSIONS
------------------
commit: None
python: 3.7.3
python-bits: 64
OS: Linux
machine: x86_64
processor: x86_64
LOCALE: en_US.UTF-8
numpy: 1.17.3
pandas: 0.25.3
scipy: None
netCDF4: 1.5.1.2
dask: 2.9.0
distributed: 2.9.0
matplotlib: 3.1.1
setuptools: 41.0.1
pip: 19.1.1`
	ms := ix.Search(report, memory.SearchOptions{})
	if len(ms) == 0 || ms[0].Rel != "pkg/core/variable.py" {
		t.Errorf("Search(report) = %q, want pkg/core/variable.py first", rels(ms))
	}
}

// TestSearchShortRequests checks short requests: a format word that
// would leave nothing is searched without, a compound matches its words,
// a file named after the subject ranks high.
func TestSearchShortRequests(t *testing.T) {
	ix, _ := build(t, writeTree(t, map[string]string{
		"web/json/provider.py":               "class JSONProvider:\n    def response(self, obj):\n        \"\"\"Serialize obj to JSON and return a response.\"\"\"\n        return dumps(obj)\n",
		"web/views.py":                       "def index():\n    return render('index.html')\n",
		"proxy/reverseproxy/reverseproxy.go": "package reverseproxy\n\n// Handler forwards requests to upstreams.\ntype Handler struct{}\n",
		"proxy/metrics.go":                   "package proxy\n\n// metrics of the reverse proxy: requests in flight per upstream; reverse proxy counters\nvar inFlight int\n",
		"client/exceptions.py":               "class HTTPError(Exception):\n    \"\"\"An HTTP error occurred.\"\"\"\n",
		"client/models.py":                   "def raise_for_status(self):\n    # raise HTTPError for HTTP errors, raised exceptions\n    raise HTTPError('HTTP errors raised as exceptions')\n",
	}))
	tests := []struct{ query, first, note string }{
		{"serialize responses to JSON", "web/json/provider.py", ""},
		{"JSON files that serialize responses", "web/json/provider.py", "no json files matched: searched all files"},
		{"reverse proxy", "proxy/reverseproxy/reverseproxy.go", ""},
		{"exceptions raised for HTTP errors", "client/exceptions.py", "named after exceptions"},
		{"exceptions", "client/exceptions.py", "named after exceptions"}, // its stem is a stop word
	}
	for _, tt := range tests {
		ms := ix.Search(tt.query, memory.SearchOptions{})
		if len(ms) == 0 || ms[0].Rel != tt.first {
			t.Errorf("Search(%q) = %q, want %s first", tt.query, rels(ms), tt.first)
			continue
		}
		if tt.note != "" && !slices.Contains(ms[0].Reason.Notes, tt.note) {
			t.Errorf("Search(%q): notes %q, want %q", tt.query, ms[0].Reason.Notes, tt.note)
		}
	}
}

// TestSearchGlobsAnyDepth checks that a glob without a slash matches a
// file's name at any depth, as .gitignore and rg -g do.
func TestSearchGlobsAnyDepth(t *testing.T) {
	ix, _ := build(t, writeTree(t, appFiles))
	q := "authentication session token password"
	ms := ix.Search(q, memory.SearchOptions{Include: []string{"*.py"}, Limit: -1})
	if len(ms) == 0 {
		t.Fatalf("--include '*.py' matched nothing")
	}
	for _, m := range ms {
		if !strings.HasSuffix(m.Rel, ".py") {
			t.Errorf("--include '*.py' let %s through", m.Rel)
		}
	}
	if !slices.Contains(rels(ms), "src/auth/login.py") {
		t.Errorf("--include '*.py' = %q, want src/auth/login.py (nested) in it", rels(ms))
	}
	for _, m := range ix.Search(q, memory.SearchOptions{Exclude: []string{"login.py", "*.md"}, Limit: -1}) {
		if strings.HasSuffix(m.Rel, "/login.py") || strings.HasSuffix(m.Rel, ".md") {
			t.Errorf("--exclude login.py,*.md let %s through", m.Rel)
		}
	}
	// A leading slash anchors a name at the root.
	if ms := ix.Search("app login billing", memory.SearchOptions{Include: []string{"/README.md"}, Limit: -1}); len(ms) != 1 || ms[0].Rel != "README.md" {
		t.Errorf("--include /README.md = %q, want [README.md]", rels(ms))
	}
	if ms := ix.Search("authentication", memory.SearchOptions{Include: []string{"/login.py"}, Limit: -1}); len(ms) != 0 {
		t.Errorf("--include /login.py (no top-level login.py) = %q", rels(ms))
	}
	// With a slash, a glob stays anchored at the project root.
	for _, m := range ix.Search(q, memory.SearchOptions{Include: []string{"auth/*.py"}, Limit: -1}) {
		t.Errorf("--include auth/*.py (anchored; no top-level auth/) let %s through", m.Rel)
	}
}

// TestStatsCountsDefinitions checks that the defined names are counted
// apart from the word terms.
func TestStatsCountsDefinitions(t *testing.T) {
	ix, _ := build(t, writeTree(t, map[string]string{
		"a.py":    "class Alpha:\n    def munge(self):\n        pass\n\ndef frob():\n    pass\n",
		"b.txt":   "class Beta: def not_code\n",
		"c/zz.go": "package c\n\nfunc Zeta() {}\n",
	}))
	st := ix.Stats()
	// @alpha @munge @alpha.munge @frob @zeta
	if st.Defs != 5 {
		t.Errorf("Stats().Defs = %d, want 5", st.Defs)
	}
	words, _ := build(t, writeTree(t, map[string]string{
		"a.txt":   "class Alpha:\n    def munge(self):\n        pass\n\ndef frob():\n    pass\n",
		"b.txt":   "class Beta: def not_code\n",
		"c/zz.md": "package c\n\nfunc Zeta() {}\n",
	}))
	if w := words.Stats(); w.Defs != 0 || w.Terms != st.Terms {
		// the same words (extensions are not terms)
		t.Errorf("without definitions: %d terms, %d defs; with: %d terms", w.Terms, w.Defs, st.Terms)
	}
}
