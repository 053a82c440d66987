package memory

import "testing"

// TestScopedPathsOfTheStandardLibraryAndSelf checks that a path into the
// standard library (std::vector, core::fmt) gives no evidence, and that
// Rust's Self, the impl's own type, is a receiver as self is: Self::Future
// names an associated type of whatever the impl is for.
func TestScopedPathsOfTheStandardLibraryAndSelf(t *testing.T) {
	evs, chains, _ := findEvidence("returns std::vector<int> and Self::Future, not core::fmt::Result; " +
		"tracing::subscriber::set_default")
	keys := map[string]string{}
	for _, e := range evs {
		keys[e.key] = e.kind
	}
	for _, no := range []string{"vector", "std.vector", "future", "self.future", "result", "fmt.result"} {
		if k, ok := keys[no]; ok {
			t.Errorf("evidence %q (%s) from a path of the standard library or Self", no, k)
		}
	}
	if keys["subscriber.setdefault"] != evDotted {
		t.Errorf("evidence %v lacks subscriber.set_default", keys)
	}
	for _, c := range chains {
		if c[0] == "std" || c[0] == "core" || c[0] == "Self" {
			t.Errorf("module chain %q", c)
		}
	}
}
