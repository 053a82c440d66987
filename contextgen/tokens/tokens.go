package tokens

import (
	"fmt"
	"slices"
	"strings"
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
	return bpe{name: enc, enc: encodings[enc]}, nil
}

// A Preparer is a Counter that loads something (a vocabulary) before its
// first count, and can say whether it has and start it early.
type Preparer interface {
	Counter
	Ready() bool
	Prepare()
}

// Ready reports whether c counts without first loading its vocabulary:
// it has been loaded, or c is not a [Preparer].
func Ready(c Counter) bool {
	p, ok := c.(Preparer)
	return !ok || p.Ready()
}

// Prepare starts loading c's vocabulary on a goroutine of its own, once, so
// that a caller with other work to do need not wait for it: until [Ready],
// a Count waits for the load to end. It does nothing for a Counter that is
// not a [Preparer].
func Prepare(c Counter) {
	if p, ok := c.(Preparer); ok {
		p.Prepare()
	}
}

// Ready reports whether the encoding's vocabulary has been loaded.
func (b bpe) Ready() bool { return b.enc.loaded.Load() }

// Prepare starts loading the encoding's vocabulary in the background.
func (b bpe) Prepare() { b.enc.prepare.Do(func() { go b.enc.ranks() }) }

type bpe struct {
	name string
	enc  *encoding
}

func (b bpe) Name() string { return b.name }

// Count returns the number of tokens in text (see count.go).
func (b bpe) Count(text []byte) int { return b.enc.count(text) }
