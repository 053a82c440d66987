package contextgen

import (
	"bytes"
	"regexp"
)

// totalsLine is the line of totals the markdown and plain styles write at
// the top of a document: "12 files, 3456 bytes, 789 tokens (o200k_base)".
var totalsLine = regexp.MustCompile(`^[0-9]+ files, [0-9]+ bytes(, [0-9]+ tokens \([a-z0-9_]+\))?$`)

// IsDocument reports whether text starts with the header of a document
// taskctl rendered, in any style: a file an earlier assemble wrote into
// the project (context.xml, "> context.md"), which a glob or a description
// would otherwise pack into the next document, each one nesting the last.
// It looks at the first lines only, as taskctl writes them:
//
//	xml:      <context task="..." [root="..."] files="N" bytes="N"...>
//	markdown: # Context: NAME, a blank line, the totals line
//	plain:    the totals line, or the root line
func IsDocument(text []byte) bool {
	var lines [4][]byte
	rest := text[:min(len(text), 4096)]
	for i := range lines {
		line, after, _ := bytes.Cut(rest, []byte("\n"))
		lines[i], rest = bytes.TrimSuffix(line, []byte("\r")), after
	}
	switch {
	case bytes.HasPrefix(lines[0], []byte(`<context task="`)):
		return bytes.Contains(lines[0], []byte(`" files="`)) && bytes.Contains(lines[0], []byte(`" bytes="`))
	case bytes.HasPrefix(lines[0], []byte("# Context: ")):
		return len(lines[1]) == 0 && totalsLine.Match(lines[2])
	case totalsLine.Match(lines[0]):
		return true
	}
	return rootLineOf(lines[0])
}

// rootLineOf reports whether line is the line that names a document's
// root in the plain style.
func rootLineOf(line []byte) bool {
	return bytes.HasPrefix(line, []byte("root: ")) && bytes.HasSuffix(line, []byte(rootSuffix))
}
