package memory_test

import (
	"strings"
	"testing"

	"github.com/taskctl/taskctl/memory"
)

// A short request's word that the project never writes ("throttle")
// matches, through the table mined from other projects, the code words
// that stand under it there ("rate"), and --explain names the partner
// (throttle≃rate); a long text with the same word is not expanded.
func TestMinedPartners(t *testing.T) {
	root := writeTree(t, map[string]string{
		"upload/limiter.go": "package upload\n\n// Limiter caps the rate of the uploads.\ntype Limiter struct{ rate int }\n",
		"upload/upload.go":  "package upload\n\n// Send sends the uploads to the server.\nfunc Send(uploads []string) error { return nil }\n",
		"upload/retry.go":   "package upload\n\n// Again sends the uploads once more.\nfunc Again(uploads []string, max int) error { return nil }\n",
	})
	ix, _ := build(t, root)
	ms := ix.Search("throttle the uploads", memory.SearchOptions{Explain: true})
	if len(ms) == 0 || ms[0].Rel != "upload/limiter.go" {
		t.Fatalf("ranking = %v, want upload/limiter.go first", rels(ms))
	}
	if !strings.Contains(ms[0].Reason.String(), "throttle≃rate") {
		t.Errorf("reason %q names no mined partner throttle≃rate", ms[0].Reason.String())
	}
	long := "When I try to throttle the uploads the program exits with an error and the logs say " +
		"nothing about why; I expected it to keep sending them more slowly and to report which step " +
		"failed so that I can see what went wrong and fix the configuration of the machine it runs on."
	for _, m := range ix.Search(long, memory.SearchOptions{Explain: true}) {
		if strings.Contains(m.Reason.String(), "≃") {
			t.Errorf("long text expanded through the mined table: %s: %s", m.Rel, m.Reason.String())
		}
	}
	// a word the project writes is not expanded, though the table gives
	// it a partner the index has (cap≃max)
	for _, m := range ix.Search("caps the uploads", memory.SearchOptions{Explain: true}) {
		if strings.Contains(m.Reason.String(), "≃") {
			t.Errorf("a word the project has expanded: %s: %s", m.Rel, m.Reason.String())
		}
	}
}
