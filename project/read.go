package project

import (
	"github.com/taskctl/taskctl/internal/diag"
)

// Read reads a candidate from the allowed root its path lies in, through
// the project's confined root (root.Root.Read): opened beneath the root
// without following a symbolic link, refused unless a regular file, capped
// at Policy.MaxFileBytes on the bytes read, and judged by the name rules
// (.git/, .taskctl/, Exclude, sensitive names) again, so a Candidate made
// by hand gets no more than one from Expand.
func (p *Project) Read(c Candidate) (*File, *diag.Warning) { return p.fsys.Read(c.Path) }

// ReadInto is Read with the content read into buf when the file fits in
// its capacity: a caller reading many files one after another (an index
// build) reuses one buffer instead of allocating each file afresh. The
// File's Content then shares buf's array.
func (p *Project) ReadInto(c Candidate, buf []byte) (*File, *diag.Warning) {
	return p.fsys.ReadInto(c.Path, buf)
}

// readResolved is Read for a candidate ResolveFrom (or resolveChecked)
// just made: its path is real, clean and inside a root, so the input is
// not checked again.
func (p *Project) readResolved(c Candidate, win *Window) (*File, *diag.Warning) {
	return p.fsys.ReadResolved(c.Path, win)
}

// JudgeContent is JudgeContent under the project's policy
// (Policy.AllowSecrets).
func (p *Project) JudgeContent(data []byte) Content { return p.fsys.JudgeContent(data) }

// Sensitive returns the PATH_SENSITIVE warning for rel (slash-separated,
// relative to the project dir) if its name or path matches a sensitive
// pattern and the policy does not allow sensitive files; nil otherwise (see
// root.Root.Sensitive).
func (p *Project) Sensitive(rel string) *diag.Warning { return p.fsys.Sensitive(rel) }

// ReadRefusal is the name policy for a read of the file at rel (see
// root.Root.ReadRefusal): every door asks it.
func (p *Project) ReadRefusal(rel string) *diag.Warning { return p.fsys.ReadRefusal(rel) }

// NameHoldsSecret reports whether the path rel holds a secret the policy
// does not allow (see root.Root.NameHoldsSecret).
func (p *Project) NameHoldsSecret(rel string) bool { return p.fsys.NameHoldsSecret(rel) }
