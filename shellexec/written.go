package shellexec

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// maxQuoted is how much of a command as written a denial quotes.
const maxQuoted = 120

// writtenCalls maps the line and column of every simple command of file
// (where the command starts, and where its name starts) to its text in
// script.
func writtenCalls(script string, file *syntax.File) map[[2]int]string {
	calls := map[[2]int]string{}
	syntax.Walk(file, func(n syntax.Node) bool {
		call, ok := n.(*syntax.CallExpr)
		if !ok || !call.Pos().IsValid() || !call.End().IsValid() {
			return true
		}
		from, to := int(call.Pos().Offset()), int(call.End().Offset())
		if from < 0 || to > len(script) || from >= to {
			return true
		}
		text := script[from:to]
		calls[[2]int{int(call.Pos().Line()), int(call.Pos().Col())}] = text
		if len(call.Args) > 0 && call.Args[0].Pos().IsValid() {
			p := call.Args[0].Pos()
			calls[[2]int{int(p.Line()), int(p.Col())}] = text
		}
		return true
	})
	return calls
}

// quoteWritten makes a denial made while the script ran quote only what
// the script says. Its construct names the command and the word refused
// after expansion, which may have come from a file or a command's output
// ("$(cat settings.py)" as a command name, an option xargs read): a
// construct with a word the script does not hold is replaced by the
// command as written where it starts at the denial's position, or else by
// a phrase that quotes nothing. (The messages of denials are fixed texts.)
func (s *session) quoteWritten(d *DeniedError) {
	if d == nil || s.script == "" {
		return
	}
	written := true
	for _, f := range strings.Fields(d.Construct) {
		if !strings.Contains(s.script, f) {
			written = false
			break
		}
	}
	if written && !strings.ContainsAny(d.Construct, "\n\r") {
		return
	}
	call, ok := s.calls[[2]int{d.Line, d.Col}]
	if !ok {
		d.Construct = "a word that came from a file or a command's output"
		return
	}
	call = strings.Join(strings.Fields(call), " ")
	if len(call) > maxQuoted {
		call = strings.ToValidUTF8(call[:maxQuoted], "") + "…"
	}
	d.Construct = "the command `" + call + "` (after expansion)"
}
