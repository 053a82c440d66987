package memory_test

import (
	"slices"
	"testing"

	"github.com/taskctl/taskctl/memory"
)

// A short request demotes files in no programming language, not code in a
// language whose definitions the index does not read: a Swift, Lua or
// Vue file is the project's code, a shell script its tooling.
func TestCodeWithoutDefinitionsNotDemoted(t *testing.T) {
	root := writeTree(t, withFiller(map[string]string{
		"Sources/Login/LoginView.swift":    "// the login form: validates the password before it signs in\nstruct LoginView { func validate() {} }\n",
		"scripts/redis/window.lua":         "-- rate limit a caller: counts its requests in a window\nlocal n = redis.call('INCR', KEYS[1])\n",
		"web/src/components/Switch.vue":    "<script>\n// the dark mode toggle of the settings page\nexport default { name: 'Switch' }\n</script>\n",
		"scripts/release/check_version.sh": "#!/bin/sh\n# validates the version before a release is tagged\n",
	}))
	ix, _ := build(t, root)
	for q, rel := range map[string]string{
		"validate the password of the login form": "Sources/Login/LoginView.swift",
		"rate limit a caller's requests":          "scripts/redis/window.lua",
		"dark mode toggle component":              "web/src/components/Switch.vue",
	} {
		ms := ix.Search(q, memory.SearchOptions{Explain: true})
		if len(ms) == 0 || ms[0].Rel != rel || slices.Contains(ms[0].Reason.Notes, "not code: demoted") {
			t.Errorf("%q: ranking %v, want %s first, not demoted", q, rels(ms), rel)
		}
	}
	ms := ix.Search("validate the version before a release", memory.SearchOptions{Explain: true})
	checkOnlyNoted(t, ms, "not code: demoted", "scripts/release/check_version.sh")
}
