package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
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
	got := string(redactKeepingLines([]byte(files["secrets/deploy.txt"] + "after\n")))
	if lines := strings.Split(got, "\n"); len(lines) != 11 || lines[9] != "after" || !strings.Contains(got, "[REDACTED:private-key]") {
		t.Errorf("redacted key file:\n%s", got)
	}
}
