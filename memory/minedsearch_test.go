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
		"upload/mail.go":    "package upload\n\n// Mail sends a note of the uploads sent.\nfunc Mail(sent []string) error { return nil }\n",
		"upload/bucket.go":  "package upload\n\n// Bucket holds tokens.\ntype Bucket struct{ refill int }\n",
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
	// a word that more than one file writes is not expanded, though the
	// commit table gives it a partner the index has (send≃sent)
	for _, m := range ix.Search("send the uploads", memory.SearchOptions{Explain: true}) {
		if strings.Contains(m.Reason.String(), "≃") {
			t.Errorf("a word the project has expanded: %s: %s", m.Rel, m.Reason.String())
		}
	}
	// a word one file writes takes the commit table's partners
	// (rate≃refil)
	// and those alone: not the doc comments' table's (rate≃limit)
	found := false
	for _, m := range ix.Search("rate of the uploads", memory.SearchOptions{Explain: true}) {
		found = found || m.Rel == "upload/bucket.go" && strings.Contains(m.Reason.String(), "rate≃refil")
		if strings.Contains(m.Reason.String(), "rate≃limit") {
			t.Errorf("rate, which one file writes, took the first table's partner: %s: %s", m.Rel, m.Reason.String())
		}
	}
	if !found {
		t.Error("rate, which one file writes, did not match upload/bucket.go through rate≃refil")
	}
}
