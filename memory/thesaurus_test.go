package memory_test

import (
	"strings"
	"testing"

	"github.com/taskctl/taskctl/memory"
)

// A short request in the words of another ecosystem finds the file that
// says it the code's way through the broad thesaurus (sandbox: chroot,
// circuit breaker: failover), and --explain names the partner that
// matched; a long text that says the same is not expanded.
func TestBroadThesaurus(t *testing.T) {
	root := writeTree(t, map[string]string{
		"jail/chroot.go":  "package jail\n\n// Enter confines the process to a chroot below dir.\nfunc Enter(dir string) error { return nil }\n",
		"proc/start.go":   "package proc\n\n// Start starts the process and waits for the process to exit.\nfunc Start(name string) error { return nil }\n",
		"net/failover.go": "package net\n\n// failover sends the call to the next replica when one fails.\nfunc failover(calls int) {}\n",
		"net/call.go":     "package net\n\n// Call sends one call to a replica and returns its answer.\nfunc Call(r string) {}\n",
	})
	ix, _ := build(t, root)
	for q, want := range map[string]string{
		"sandbox the untrusted process":     "jail/chroot.go",
		"fallback when the replica is down": "net/failover.go",
	} {
		ms := ix.Search(q, memory.SearchOptions{Explain: true})
		if len(ms) == 0 || ms[0].Rel != want {
			t.Errorf("%q: ranking = %v, want %s first", q, rels(ms), want)
			continue
		}
		if !strings.Contains(ms[0].Reason.String(), "≈") {
			t.Errorf("%q: reason %q names no concept partner", q, ms[0].Reason.String())
		}
	}
	long := "When I try to sandbox the untrusted process the program exits with an error and the " +
		"logs say nothing about why; I expected it to keep running and to report which step failed " +
		"so that I can see what went wrong and fix the configuration of the machine it runs on."
	for _, m := range ix.Search(long, memory.SearchOptions{Explain: true}) {
		if strings.Contains(m.Reason.String(), "≈") {
			t.Errorf("long text expanded through the thesaurus: %s: %s", m.Rel, m.Reason.String())
		}
	}
}
