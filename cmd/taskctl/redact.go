package main

import (
	"github.com/taskctl/taskctl/contextgen/secrets"
	"github.com/taskctl/taskctl/memory"
	"github.com/taskctl/taskctl/project"
)

// redactingSource is what search reads a match's best line from: the
// project's files with every secret the scanner finds replaced by
// "[REDACTED:<rule>]", so a reason never prints a secret that assemble
// would have kept out. Newlines inside a secret (a private-key body) are
// kept, so line numbers still point into the file on disk.
type redactingSource struct{ memory.Source }

func (s redactingSource) ReadFile(rel string) ([]byte, error) {
	data, err := s.Source.ReadFile(rel)
	if err != nil {
		return nil, err
	}
	return redactKeepingLines(data), nil
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
		return projectSource{p}
	}
	return redactingSource{projectSource{p}}
}
