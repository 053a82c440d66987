package root

import (
	"path/filepath"
	"testing"

	"github.com/taskctl/taskctl/internal/diag"
)

func TestAlwaysExcludedDir(t *testing.T) {
	for rel, want := range map[string]string{
		".git":                 ".git",
		".git/config":          ".git",
		"sub/.git/objects/ab":  "sub/.git",
		".taskctl/index/x":     ".taskctl",
		"a/.TaskCtl/cache":     "a/.TaskCtl",
		"a.git/x":              "",
		"src/.github/workflow": "",
		"":                     "",
		"a/b/c.go":             "",
	} {
		if got := AlwaysExcludedDir(rel); got != want {
			t.Errorf("AlwaysExcludedDir(%q) = %q, want %q", rel, got, want)
		}
	}
}

// TestSensitive: Sensitive judges a path by its name and by path patterns,
// reads nothing (the file need not exist), and says nothing when the
// policy allows sensitive files.
func TestSensitive(t *testing.T) {
	dir := realTemp(t)
	pol := DefaultPolicy()
	pol.Sensitive = append(pol.Sensitive, "secrets/*.yml")
	p := openRoot(t, pol, dir)
	for rel, want := range map[string]bool{
		".env": true, "app/.env.local": true, "certs/tls.key": true, "secrets/prod.yml": true,
		"main.go": false, "envoy.yml": false, "docs/secrets.md": false,
	} {
		w := p.Sensitive(rel)
		if (w != nil) != want {
			t.Errorf("Sensitive(%q) = %v, want a warning: %v", rel, w, want)
		}
		if w != nil && (w.Code != diag.PathSensitive || w.Path != filepath.Join(dir, filepath.FromSlash(rel))) {
			t.Errorf("Sensitive(%q) = %+v", rel, w)
		}
	}
	pol.AllowSensitive = true
	if w := openRoot(t, pol, dir).Sensitive(".env"); w != nil {
		t.Errorf("with sensitive files allowed, Sensitive(.env) = %+v", w)
	}
}
