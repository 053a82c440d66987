package secrets

import (
	"testing"

	"github.com/taskctl/taskctl/internal/lazyregexp"
)

// TestExpressionsCompile: every rule's expression, compiled at first use
// rather than at start-up, compiles.
func TestExpressionsCompile(t *testing.T) {
	for _, l := range []*lazyregexp.Regexp{genericRe, awsSecretRe, pemHeaderRe, passwdLineRe, hashParamsRe} {
		if l.Re() == nil {
			t.Errorf("%q did not compile", l.String())
		}
	}
	for _, r := range rules {
		if r.re != nil && r.re.Re() == nil {
			t.Errorf("rule %s: %q did not compile", r.id, r.re.String())
		}
	}
}
