//go:build ignore

// gen_vocab writes the vocabulary files vocab.go embeds, o200k_base.tokens
// and cl100k_base.tokens, from github.com/tiktoken-go/tokenizer's codecs:
// every ordinary token in rank order, each as one length byte followed by
// its bytes, a zero length byte for a rank that has no ordinary token.
// TestVocabularyMatchesLibrary checks that the files agree with the
// library.
//
// Run it with go generate after updating the library.
package main

import (
	"fmt"
	"log"
	"os"

	"github.com/tiktoken-go/tokenizer/codec"
)

func main() {
	for name, c := range map[string]*codec.Codec{
		"o200k_base":  codec.NewO200kBase(),
		"cl100k_base": codec.NewCl100kBase(),
	} {
		data, err := vocabulary(c)
		if err != nil {
			log.Fatalf("%s: %v", name, err)
		}
		if err := os.WriteFile(name+".tokens", data, 0o644); err != nil {
			log.Fatal(err)
		}
	}
}

// vocabulary decodes every id with a codec that returns the bytes as they
// are (the default error mode). Special tokens are not in the codec's
// vocabulary, so Decode fails for them; ids are dense up to the last
// ordinary token, and the file ends there.
func vocabulary(c *codec.Codec) ([]byte, error) {
	var out, gap []byte
	id1 := make([]uint, 1)
	for id := uint(0); len(gap) < 1024; id++ {
		id1[0] = id
		s, err := c.Decode(id1)
		if err != nil || s == "" {
			gap = append(gap, 0)
			continue
		}
		if len(s) > 255 {
			return nil, fmt.Errorf("token %d is %d bytes long", id, len(s))
		}
		out = append(out, gap...)
		gap = gap[:0]
		out = append(out, byte(len(s)))
		out = append(out, s...)
	}
	return out, nil
}
