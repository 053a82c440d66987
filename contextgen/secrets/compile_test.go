package secrets

import "testing"

// TestExpressionsCompile: every rule's expression, compiled at first use
// rather than at start-up, compiles.
func TestExpressionsCompile(t *testing.T) {
	for _, l := range []*lazyRegexp{genericRe, awsSecretRe, pemHeaderRe, passwdLineRe, hashParamsRe} {
		if l.get() == nil {
			t.Errorf("%q did not compile", l.src)
		}
	}
	for _, r := range rules {
		if r.re != nil && r.re.get() == nil {
			t.Errorf("rule %s: %q did not compile", r.id, r.re.src)
		}
	}
}
