package main

import (
	"regexp"
	"strings"
	"testing"
)

// TestHelpHasExamples checks that every command's --help (and 'taskctl help
// COMMAND') names its flags and gives at least one example that runs that
// command.
func TestHelpHasExamples(t *testing.T) {
	for _, c := range commands() {
		for _, args := range [][]string{{c.name, "--help"}, {"help", c.name}} {
			code, out, errs := taskctl(t, args...)
			if code != 0 || errs != "" {
				t.Errorf("taskctl %s: exit %d, stderr %q", strings.Join(args, " "), code, errs)
				continue
			}
			if !strings.HasPrefix(out, "Usage: taskctl "+c.name) || !strings.Contains(out, "Global flags:") {
				t.Errorf("taskctl %s: no usage or flags:\n%s", strings.Join(args, " "), out)
			}
			_, ex, ok := strings.Cut(out, "\nExamples:\n")
			if !ok || !regexp.MustCompile(`(?m)^  .*\btaskctl .*\b`+c.name+`\b`).MatchString(ex) {
				t.Errorf("taskctl %s: no example of %q:\n%s", strings.Join(args, " "), c.name, out)
			}
		}
	}
}
