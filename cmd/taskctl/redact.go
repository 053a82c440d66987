package main

import (
	"strings"

	"github.com/taskctl/taskctl/contextgen/secrets"
	"github.com/taskctl/taskctl/memory"
	"github.com/taskctl/taskctl/project"
)

// redactingSource is what search reads a match's best line from, and what
// the index is built from: memory.ProjectSource (a memory.CachingSource and
// BufferedSource) with every secret the scanner finds replaced by
// "[REDACTED:<rule>]", so a reason never prints a secret that assemble
// would have kept out. Newlines inside a secret (a private-key body) are
// kept, so line numbers still point into the file on disk. It is a
// memory.FilteringSource: the index reads a file as it is, to see whether
// it changed, and scans only the files it analyses again.
type redactingSource struct{ memory.CachingSource }

func (s redactingSource) ReadFileInto(rel string, size int64, buf []byte) ([]byte, error) {
	if b, ok := s.CachingSource.(memory.BufferedSource); ok {
		return b.ReadFileInto(rel, size, buf)
	}
	return s.CachingSource.ReadFile(rel)
}

func (redactingSource) Filter(data []byte) []byte { return redactKeepingLines(data) }

// FilterID changes with the set of rules: an index built before a rule was
// added is scanned again.
func (redactingSource) FilterID() string {
	return "redact-secrets " + strings.Join(secrets.Rules(), ",")
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

// lineSource is where search reads best lines from: redacted unless the
// configuration turns the secret scan off.
func (e *env) lineSource(p *project.Project) memory.Source {
	if cfg, err := e.config(); err == nil && !cfg.ScanSecrets {
		return memory.ProjectSource(p)
	}
	return redactingSource{memory.ProjectSource(p)}
}
