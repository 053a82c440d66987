package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/taskctl/taskctl/contextgen"
)

// TestSearchRedactsSecretsInReasons: a match's best line is shown with the
// secret replaced, in json and with --explain, and a line after a private
// key keeps its number.
func TestSearchRedactsSecretsInReasons(t *testing.T) {
	proj := t.TempDir()
	if err := os.Mkdir(filepath.Join(proj, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	files := plantedSecrets()
	files["deploy/publish.sh"] = "#!/bin/sh\n# publish the release to the registry\nexport GITHUB_TOKEN=" +
		"ghp_" + "R7mK2pX9vL4qT8nW3sY6bZ1cF5hJ0dG2aE4u" + " # registry publish credential\n"
	writeFiles(t, proj, files)
	secretsIn := func(s string) []string {
		var found []string
		for _, sec := range []string{"R7mK2pX9vL4qT8nW3sY6bZ1cF5hJ0dG2aE4u", "Z7QX3MPLW2KD9RTB", "x7#Qm9"} {
			if strings.Contains(s, sec) {
				found = append(found, sec)
			}
		}
		return found
	}

	code, out, errs := taskctl(t, "--project-dir", proj, "search", "registry publish credential", "--output", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if s := secretsIn(out); s != nil {
		t.Errorf("search json shows secrets %q:\n%s", s, out)
	}
	var env struct {
		Data struct {
			Matches []struct {
				Path   string `json:"path"`
				Reason struct {
					Line int    `json:"line"`
					Text string `json:"text"`
				} `json:"reason"`
			} `json:"matches"`
		} `json:"data"`
	}
	if err := json.Unmarshal([]byte(out), &env); err != nil {
		t.Fatal(err)
	}
	found := false
	for _, m := range env.Data.Matches {
		if filepath.Base(m.Path) == "publish.sh" {
			found = true
			if m.Reason.Line != 3 || !strings.Contains(m.Reason.Text, "GITHUB_TOKEN=[REDACTED:github-token]") {
				t.Errorf("publish.sh: line %d %q, want line 3 with the token redacted", m.Reason.Line, m.Reason.Text)
			}
		}
	}
	if !found {
		t.Fatalf("publish.sh not matched: %s", out)
	}

	for _, q := range []string{"registry publish credential", "aws access key region", "user password app", "notes"} {
		code, out, errs = taskctl(t, "--project-dir", proj, "search", q, "--explain")
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errs)
		}
		if s := secretsIn(out + errs); s != nil {
			t.Errorf("search %q --explain shows secrets %q:\n%s", q, s, out)
		}
	}

	// Lines after a private-key block keep their numbers.
	text, _ := contextgen.Text([]byte(files["secrets/deploy.txt"]+"after\n"), true)
	got := string(text)
	if lines := strings.Split(got, "\n"); len(lines) != 11 || lines[9] != "after" || !strings.Contains(got, "[REDACTED:private-key]") {
		t.Errorf("redacted key file:\n%s", got)
	}
}

// TestIndexFollowsSecretScan: the index holds a file as the secret scan
// setting of the latest refresh makes it, whichever way the setting changes
// between refreshes (the index records the filter it was built through):
// redacted, the file's "[REDACTED:github-token]" is found by "redacted";
// not redacted, it is not.
func TestIndexFollowsSecretScan(t *testing.T) {
	// The project's config is trusted (taskctl trust, recorded in a user
	// config dir of the test's own) to turn the scan off.
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	t.Setenv("HOME", t.TempDir())
	proj := t.TempDir()
	writeFiles(t, proj, map[string]string{
		".git/HEAD":         "ref: refs/heads/main\n",
		"deploy/publish.sh": "#!/bin/sh\n# publish the release\nexport GITHUB_TOKEN=ghp_" + "R7mK2pX9vL4qT8nW3sY6bZ1cF5hJ0dG2aE4u\n",
		"notes.md":          "release notes\n",
	})
	// Old enough not to be hashed again as "racily clean" files are.
	then := time.Now().Add(-time.Minute)
	for _, rel := range []string{"deploy/publish.sh", "notes.md"} {
		if err := os.Chtimes(filepath.Join(proj, rel), then, then); err != nil {
			t.Fatal(err)
		}
	}
	config := filepath.Join(proj, ".taskctl", "config.xml")
	if err := os.MkdirAll(filepath.Dir(config), 0o755); err != nil {
		t.Fatal(err)
	}
	for i, on := range []bool{true, false, true, false} {
		setting := "<config><assemble><scan_secrets>" + strconv.FormatBool(on) + "</scan_secrets></assemble></config>\n"
		if err := os.WriteFile(config, []byte(setting), 0o644); err != nil {
			t.Fatal(err)
		}
		if code, _, errs := taskctl(t, "--project-dir", proj, "trust"); code != 0 {
			t.Fatalf("step %d: trust: exit %d: %s", i, code, errs)
		}
		code, out, errs := taskctl(t, "--project-dir", proj, "search", "redacted", "--output", "json")
		if code != 0 && code != exitNotFound {
			t.Fatalf("step %d: search: exit %d: %s", i, code, errs)
		}
		if got := strings.Contains(out, "publish.sh"); got != on {
			t.Errorf("step %d, scan_secrets %v: the redaction marker is indexed: %v", i, on, got)
		}
	}
}
