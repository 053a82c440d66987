package zz

import (
	"fmt"
	"testing"

	"github.com/dlclark/regexp2/v2"
	"github.com/tiktoken-go/tokenizer"
)

func TestX(t *testing.T) {
	c, _ := tokenizer.Get(tokenizer.O200kBase)
	pat := `[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+`
	gen := regexp2.MustCompile(pat, regexp2.None)
	interp := regexp2.MustCompile("(?:"+pat+")", regexp2.None)
	for _, s := range []string{"\n\t\n", "\n\t\n\ti", "  \n  x", "x \t\n y", " \n\n  \n"} {
		ids, toks, _ := c.Encode(s)
		fmt.Printf("%q lib=%v %q gen=%q interp=%q\n", s, ids, toks, split(gen, s), split(interp, s))
	}
}

func split(re *regexp2.Regexp, s string) []string {
	var out []string
	m, _ := re.FindStringMatch(s)
	for m != nil {
		out = append(out, m.String())
		m, _ = re.FindNextMatch(m)
	}
	return out
}
