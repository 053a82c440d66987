package main

import (
	"regexp"
	"testing"
)

// TestStartsAtPosition: the check of a warning that starts with LINE:COL
// agrees with the expression it replaced.
func TestStartsAtPosition(t *testing.T) {
	re := regexp.MustCompile(`^[0-9]+:[0-9]+: `)
	for _, msg := range []string{"12:5: unknown element", "1:1: x", "12:5:x", "12:5 x", ":5: x", "12:: x", "12:5: ",
		"a12:5: x", "12:5a: x", "123456:7890: long", "", "1", "1:", "1:2", "1:2:", "12:5:  two spaces", "٣:٤: arabic digits"} {
		if got, want := startsAtPosition(msg), re.MatchString(msg); got != want {
			t.Errorf("startsAtPosition(%q) = %v, the expression says %v", msg, got, want)
		}
	}
}
