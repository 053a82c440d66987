package memory

import (
	"slices"
	"testing"
)

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

// TestV8FramesWithoutAFile checks that a V8 stack trace is read as one
// trace through the frames that name no file of the project: a built-in
// ("at Array.forEach (<anonymous>)", "(native)", "(index 0)") and Node's
// own modules as Node 16 and later print them ("node:internal/…:95:5",
// without .js). Read as the end of a trace, such a frame made the
// outermost project frame after it the innermost. An ES module's frame is
// a file: URL, whose path is the file.
func TestV8FramesWithoutAFile(t *testing.T) {
	trace := "TypeError: Cannot read properties of undefined (reading 'name')\n" +
		"    at checkDestructured (/home/u/app/lib/rules/no-useless-rename.js:96:26)\n" +
		"    at Array.forEach (<anonymous>)\n" +
		"    at Array.map (native)\n" +
		"    at async Promise.all (index 0)\n" +
		"    at runRules (file:///home/u/app/lib/linter.mjs:40:22)\n" +
		"    at file:///C:/u/app/lib/cli.mjs:12:3\n" +
		"    at process.processTicksAndRejections (node:internal/process/task_queues:95:5)\n" +
		"    at node:internal/main/run_main_module:23:47\n"
	got := javaFrames(trace)
	want := []string{"/u/app/lib/cli.mjs", "/home/u/app/lib/linter.mjs", "/home/u/app/lib/rules/no-useless-rename.js"}
	if !slices.Equal(got, want) {
		t.Errorf("javaFrames = %q, want %q", got, want)
	}
}
