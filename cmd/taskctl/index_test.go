package main

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/taskctl/taskctl/memory"
	"github.com/taskctl/taskctl/project"
	"github.com/taskctl/taskctl/root"
)

// indexFixture writes a project holding every feature of the policy: the
// .gitignore family (nested, with negation, .git/info/exclude,
// .taskctlignore), node_modules, sensitive names, a FIFO, a file over the
// configured size cap, symlinks out of the project and into it, a
// configured exclude, .taskctl itself, a binary file and a file with a
// secret in it. It returns the project dir and the policy its config sets.
func indexFixture(t *testing.T, config string) (string, root.Policy) {
	t.Helper()
	proj, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	outside := t.TempDir()
	writeFiles(t, outside, map[string]string{"secret.txt": "outside the project\n"})
	files := map[string]string{
		".git/HEAD":                "ref: refs/heads/main\n",
		".git/info/exclude":        "excluded-by-info.txt\n",
		".gitignore":               "*.log\nbuild/\n!keep.log\n",
		".taskctlignore":           "private/\n",
		".taskctl/config.xml":      "<config><policy><exclude>gen/**</exclude><max_file_bytes>4096</max_file_bytes></policy>" + config + "</config>\n",
		"excluded-by-info.txt":     "x\n",
		"a.log":                    "x\n",
		"keep.log":                 "kept despite *.log\n",
		"build/out.txt":            "x\n",
		"private/p.go":             "package private\n",
		"src/main.go":              "package main\n\nfunc main() {}\n",
		"src/util.go":              "package main\n",
		"src/sub/.gitignore":       "*.tmp\n!important.tmp\n",
		"src/sub/a.tmp":            "x\n",
		"src/sub/important.tmp":    "x\n",
		"src/sub/deep/x.go":        "package deep\n",
		"src/blob.bin":             "bin\x00ary\n",
		"node_modules/pkg/a.js":    "x\n",
		".env":                     "TOKEN=abc\n",
		"certs/server.pem":         "-----BEGIN CERTIFICATE-----\n",
		"gen/generated.go":         "package gen\n",
		"big.txt":                  strings.Repeat("big ", 1500),
		"deploy/publish.sh":        "#!/bin/sh\n# publish the release to the registry\nexport GITHUB_TOKEN=" + plantedValues()["github"] + " # registry publish credential\n",
		"deploy/aws.env.sample":    "region=eu-west-1\naws_access_key_id=" + plantedValues()["aws"] + "\n",
		".taskctl/index/stale.txt": "x\n",
	}
	writeFiles(t, proj, files)
	for _, l := range [][2]string{
		{filepath.Join(outside, "secret.txt"), "link-out"},
		{"src/util.go", "link-in"},
		{"../build", "src/link-dir"},
	} {
		if err := os.Symlink(l[0], filepath.Join(proj, l[1])); err != nil {
			t.Fatal(err)
		}
	}
	if err := syscall.Mkfifo(filepath.Join(proj, "src", "fifo"), 0o644); err != nil {
		t.Fatal(err)
	}
	return proj, root.Policy{Exclude: []string{"gen/**"}, MaxFileBytes: 4096}
}

// indexedFiles runs 'taskctl index' and returns the files the index
// records, and what project.Walk yields under the same policy.
func indexedFiles(t *testing.T, proj string, pol root.Policy) (got, want []string) {
	t.Helper()
	if code, _, errs := taskctl(t, "--project-dir", proj, "index"); code != 0 {
		t.Fatalf("index: exit %d: %s", code, errs)
	}
	ix, warns, err := memory.Open(filepath.Join(proj, ".taskctl", "index"))
	if err != nil || len(warns) > 0 {
		t.Fatalf("open index: %v %v", err, warns)
	}
	got, _ = ix.Files()
	p, err := project.Open(project.Options{WorkingDir: proj, ProjectDir: proj, Policy: pol})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if err := p.Walk(context.Background(), func(c project.Candidate, _ fs.FileInfo) error {
		want = append(want, c.Rel)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return got, want
}

// TestIndexSeesWhatTheProjectAdmits: the index built by 'taskctl index'
// records exactly the files project.Walk admits, on a first build and on
// refreshes after the tree and its ignore rules change.
func TestIndexSeesWhatTheProjectAdmits(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	t.Setenv("HOME", t.TempDir())
	proj, pol := indexFixture(t, "")

	got, want := indexedFiles(t, proj, pol)
	literal := []string{".gitignore", ".taskctlignore", "deploy/aws.env.sample", "deploy/publish.sh", "keep.log",
		"src/blob.bin", "src/main.go", "src/sub/.gitignore", "src/sub/deep/x.go", "src/sub/important.tmp", "src/util.go"}
	if !slices.Equal(want, literal) {
		t.Fatalf("project.Walk admits\n%q\nwant\n%q", want, literal)
	}
	if !slices.Equal(got, want) {
		t.Fatalf("first build: the index records\n%q\nproject.Walk admits\n%q", got, want)
	}

	steps := []struct {
		name string
		do   func()
	}{
		{"a file added", func() { writeFiles(t, proj, map[string]string{"src/sub/deep/y.go": "package deep\n"}) }},
		{"a nested rule added", func() {
			writeFiles(t, proj, map[string]string{"src/sub/.gitignore": "*.tmp\n!important.tmp\nx.go\n"})
		}},
		{".taskctlignore emptied", func() { writeFiles(t, proj, map[string]string{".taskctlignore": ""}) }},
		{"a file removed and a directory ignored", func() {
			if err := os.Remove(filepath.Join(proj, "src/util.go")); err != nil {
				t.Fatal(err)
			}
			writeFiles(t, proj, map[string]string{"src/.gitignore": "sub/\n"})
		}},
	}
	for _, s := range steps {
		s.do()
		got, want := indexedFiles(t, proj, pol)
		if !slices.Equal(got, want) {
			t.Errorf("%s: the index records\n%q\nproject.Walk admits\n%q", s.name, got, want)
		}
	}
}

// TestIndexHoldsNoSecret: with the secret scan on (the default) the index
// under .taskctl/index holds no secret found in a file, and search's
// reasons show none; with it off, the word-like AWS key ID is indexed as
// a term (which shows the check can fail; hash-like secrets such as the
// GitHub token give no terms either way, see memory's noise).
func TestIndexHoldsNoSecret(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	t.Setenv("HOME", t.TempDir())
	v := plantedValues()
	secretTerms := []string{strings.ToLower(v["github"]), strings.ToLower(v["aws"])}
	indexHolds := func(proj string) []string {
		var found []string
		dir := filepath.Join(proj, ".taskctl", "index")
		ents, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range ents {
			data, err := os.ReadFile(filepath.Join(dir, e.Name()))
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range secretTerms {
				if strings.Contains(strings.ToLower(string(data)), s) {
					found = append(found, e.Name()+": "+s)
				}
			}
		}
		return found
	}

	proj, _ := indexFixture(t, "")
	code, out, errs := taskctl(t, "--project-dir", proj, "search", "registry publish credential aws access key", "--explain")
	if code != 0 {
		t.Fatalf("search: exit %d: %s", code, errs)
	}
	if !strings.Contains(out, "publish.sh") {
		t.Fatalf("publish.sh not matched:\n%s", out)
	}
	for _, s := range secretTerms {
		if strings.Contains(strings.ToLower(out+errs), s) {
			t.Errorf("search shows a secret:\n%s", out)
		}
	}
	if found := indexHolds(proj); found != nil {
		t.Errorf("the index holds secrets: %q", found)
	}

	off, _ := indexFixture(t, "<assemble><scan_secrets>false</scan_secrets></assemble>")
	// Turning the scan off is not a narrowing: the project's config must
	// be trusted for it.
	if code, _, errs := taskctl(t, "--project-dir", off, "trust"); code != 0 {
		t.Fatalf("trust: exit %d: %s", code, errs)
	}
	if code, _, errs := taskctl(t, "--project-dir", off, "index"); code != 0 {
		t.Fatalf("index: exit %d: %s", code, errs)
	}
	if found := indexHolds(off); len(found) == 0 {
		t.Errorf("with the scan off, the index holds no secret term: the check above cannot fail")
	}
}
