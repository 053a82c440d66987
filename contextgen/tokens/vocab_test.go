package tokens

import (
	"testing"

	"github.com/tiktoken-go/tokenizer/codec"
)

// TestVocabularyMatchesLibrary checks the embedded vocabularies against the
// library they were generated from (go generate rewrites them): every rank
// has the library's token, and the library has no ordinary token past the
// end.
func TestVocabularyMatchesLibrary(t *testing.T) {
	for _, tc := range []struct {
		name  string
		vocab string
		lib   *codec.Codec
	}{
		{O200kBase, o200kBaseTokens, codec.NewO200kBase()},
		{Cl100kBase, cl100kBaseTokens, codec.NewCl100kBase()},
	} {
		id1 := make([]uint, 1)
		rank, tokens := uint(0), 0
		for i := 0; i < len(tc.vocab); i, rank = i+1+int(tc.vocab[i]), rank+1 {
			id1[0] = rank
			want, err := tc.lib.Decode(id1)
			if err != nil {
				want = ""
			}
			got := tc.vocab[i+1:][:tc.vocab[i]]
			if got != want {
				t.Fatalf("%s: rank %d is %q in the embedded vocabulary, %q in the library", tc.name, rank, got, want)
			}
			if got != "" {
				tokens++
			}
		}
		for id := rank; id < rank+4096; id++ {
			id1[0] = id
			if s, err := tc.lib.Decode(id1); err == nil && s != "" {
				t.Fatalf("%s: the library has token %d (%q) past the embedded vocabulary's end (%d)", tc.name, id, s, rank)
			}
		}
		if n := encodings[tc.name].ranks().n; n != tokens {
			t.Errorf("%s: rank table holds %d tokens, the vocabulary %d", tc.name, n, tokens)
		}
	}
}

// TestVocabularyHasNoDuplicates: no token occurs twice in a vocabulary, so
// each has one rank, whatever the order buildRanks inserts them in.
func TestVocabularyHasNoDuplicates(t *testing.T) {
	for name, vocab := range map[string]string{O200kBase: o200kBaseTokens, Cl100kBase: cl100kBaseTokens} {
		seen := make(map[string]int)
		rank := 0
		for i := 0; i < len(vocab); i, rank = i+1+int(vocab[i]), rank+1 {
			tok := vocab[i+1:][:vocab[i]]
			if tok == "" {
				continue
			}
			if r, ok := seen[tok]; ok {
				t.Fatalf("%s: token %q has ranks %d and %d", name, tok, r, rank)
			}
			seen[tok] = rank
		}
	}
}
