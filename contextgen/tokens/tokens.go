package tokens

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/tiktoken-go/tokenizer"
	"github.com/tiktoken-go/tokenizer/codec"
)

// Encoding names.
const (
	O200kBase  = "o200k_base"
	Cl100kBase = "cl100k_base"

	// Default is the encoding used when none is named.
	Default = O200kBase
)

// A Counter counts the tokens of text in one encoding.
type Counter interface {
	// Name is the canonical encoding name, e.g. "o200k_base".
	Name() string
	// Count returns the number of tokens in text.
	Count(text []byte) int
}

// aliases maps every accepted name, lower-cased, to an encoding.
var aliases = map[string]string{
	"":            Default,
	"o200k_base":  O200kBase,
	"o200k":       O200kBase,
	"gpt-4o":      O200kBase,
	"gpt-4o-mini": O200kBase,
	"gpt-4.1":     O200kBase,
	"gpt-5":       O200kBase,
	"o1":          O200kBase,
	"o3":          O200kBase,
	"o4-mini":     O200kBase,
	"cl100k_base": Cl100kBase,
	"cl100k":      Cl100kBase,
	"gpt-4":       Cl100kBase,
	"gpt-4-turbo": Cl100kBase,
	"gpt-3.5":     Cl100kBase,

	"gpt-3.5-turbo": Cl100kBase,
}

// codecs loads each encoding at most once per process, on first use.
var codecs = map[string]func() tokenizer.Codec{
	O200kBase:  sync.OnceValue(func() tokenizer.Codec { return load(tokenizer.O200kBase) }),
	Cl100kBase: sync.OnceValue(func() tokenizer.Codec { return load(tokenizer.Cl100kBase) }),
}

func load(enc tokenizer.Encoding) tokenizer.Codec {
	c, err := tokenizer.Get(enc)
	if err != nil {
		// Both encodings are compiled in; Get fails only for unknown names.
		panic(fmt.Sprintf("tokens: loading %s: %v", enc, err))
	}
	c.SetErrorMode(tokenizer.ErrorModeReplace)
	return c
}

// Names returns the names [New] accepts: the canonical encoding names first,
// then the aliases, each group sorted.
func Names() []string {
	names := []string{Cl100kBase, O200kBase}
	var more []string
	for a := range aliases {
		if a != "" && a != O200kBase && a != Cl100kBase {
			more = append(more, a)
		}
	}
	slices.Sort(more)
	return append(names, more...)
}

// New returns a Counter for the named encoding: "o200k_base" (also "o200k",
// "gpt-4o", "gpt-4.1", "gpt-5", "o1", "o3", "o4-mini") or "cl100k_base"
// (also "cl100k", "gpt-4", "gpt-4-turbo", "gpt-3.5-turbo"); names are
// case-insensitive and "" means [Default]. Any other name is an error that
// lists the valid ones. New does not load the vocabulary.
func New(name string) (Counter, error) {
	enc, ok := aliases[strings.ToLower(strings.TrimSpace(name))]
	if !ok {
		return nil, fmt.Errorf("unknown token encoding %q (valid: %s)", name, strings.Join(Names(), ", "))
	}
	return bpe{name: enc, codec: codecs[enc], pieces: pieceCaches[enc], next: splitters[enc]}, nil
}

// rankTables holds, per encoding, the rank of every token (its bytes → its
// id; for these encodings the id is the merge rank). It is built once per
// process from the library's own vocabulary, by decoding each id with a codec
// that keeps invalid UTF-8 as it is.
var rankTables = map[string]func() map[string]uint32{
	O200kBase:  sync.OnceValue(func() map[string]uint32 { return rankTable(codec.NewO200kBase()) }),
	Cl100kBase: sync.OnceValue(func() map[string]uint32 { return rankTable(codec.NewCl100kBase()) }),
}

func rankTable(c *codec.Codec) map[string]uint32 {
	ranks := make(map[string]uint32, 200_100)
	misses := 0
	for id := uint32(0); misses < 1000; id++ {
		tok, err := c.Decode([]uint{uint(id)})
		if err != nil {
			misses++ // past the end of the vocabulary (or a gap in it)
			continue
		}
		if _, dup := ranks[tok]; !dup {
			ranks[tok] = id
		}
	}
	return ranks
}

// pieceCaches and splitters give each encoding its hand-written splitter and
// a process-wide cache of piece counts (see split.go).
var (
	pieceCaches = map[string]*pieceCache{O200kBase: new(pieceCache), Cl100kBase: new(pieceCache)}
	splitters   = map[string]func(string, int) int{O200kBase: nextO200k, Cl100kBase: nextCl100k}
)

type bpe struct {
	name   string
	codec  func() tokenizer.Codec
	pieces *pieceCache
	next   func(string, int) int
}

func (b bpe) Name() string { return b.name }

func (b bpe) Count(text []byte) int {
	if len(text) == 0 {
		return 0
	}
	if b.next != nil && utf8.Valid(text) {
		ranks := rankTables[b.name]()
		return b.pieces.countPieces(string(text), b.next, func(p string) int {
			return bpeCount(p, ranks)
		})
	}
	// Invalid UTF-8: the library replaces it exactly as tiktoken does.
	n, err := b.codec().Count(string(text))
	if err != nil {
		// Only a regexp timeout can fail here, and none is set; fall back
		// to the usual estimate rather than report nothing.
		return (len(text) + 3) / 4
	}
	return n
}
