package lazyregexp

import (
	"regexp"
	"sync"
)

// Regexp is an expression compiled when Re is first called.
type Regexp struct {
	src  string
	once sync.Once
	re   *regexp.Regexp
}

// New returns src, to be compiled at its first use.
func New(src string) *Regexp { return &Regexp{src: src} }

// Re returns the compiled expression.
func (r *Regexp) Re() *regexp.Regexp {
	r.once.Do(func() { r.re = regexp.MustCompile(r.src) })
	return r.re
}

// String returns the expression's source.
func (r *Regexp) String() string { return r.src }
