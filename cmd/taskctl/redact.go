package main

import (
	"strings"

	"github.com/taskctl/taskctl/contextgen/encoding"
	"github.com/taskctl/taskctl/contextgen/secrets"
	"github.com/taskctl/taskctl/memory"
	"github.com/taskctl/taskctl/project"
)

// textSource is what the index is built from and what search reads a
// match's best line from: memory.ProjectSource (a memory.CachingSource and
// BufferedSource) with each file decoded as assemble decodes it (UTF-16 and
// other encodings to UTF-8; binary content is not text) and, when redact is
// set, every secret the scanner finds replaced by "[REDACTED:<rule>]", so a
// reason never prints a secret that assemble would have kept out. Newlines
// inside a secret (a private-key body) are kept, so line numbers still
// point into the file on disk. It is a memory.FilteringSource: the index
// reads a file as it is, to see whether it changed, and decodes and scans
// only the files it analyses again.
type textSource struct {
	memory.CachingSource
	redact bool
}

func (s textSource) ReadFileInto(rel string, size int64, buf []byte) ([]byte, error) {
	if b, ok := s.CachingSource.(memory.BufferedSource); ok {
		return b.ReadFileInto(rel, size, buf)
	}
	return s.CachingSource.ReadFile(rel)
}

func (s textSource) Filter(data []byte) []byte {
	text, enc := encoding.Decode(data)
	if enc.Binary {
		return nil
	}
	if s.redact {
		text = redactKeepingLines(text)
	}
	return text
}

// FilterID changes with what Filter does, and with the set of secret
// rules: an index built before a rule was added is scanned again.
func (s textSource) FilterID() string {
	if !s.redact {
		return "text"
	}
	return "text, redact-secrets " + strings.Join(secrets.Rules(), ",")
}

// redactKeepingLines replaces each secret in data by its rule's marker
// followed by the newlines the secret spanned.
func redactKeepingLines(data []byte) []byte {
	finds := secrets.Scan(data)
	if len(finds) == 0 {
		return data
	}
	return secrets.RedactLines(data, finds)
}

// lineSource is where search reads best lines from: the index's source.
func (e *env) lineSource(p *project.Project) memory.Source { return e.indexSource(p) }
