package shellexec

import (
	"fmt"
	"io/fs"
	"slices"
	"sync"

	"github.com/taskctl/taskctl/root"
)

// The content policy for command reads (#29): a command may not read a
// file that the context document would refuse for a secret. Every file a
// command reads the content of (cat, head, grep, sed, a redirection,
// $(<...), grep -r, git grep) is read whole and judged by
// root.JudgeContent, the one place the document's verdict is decided,
// before the command sees a byte of it. A refused file is an error of the
// command ("open NAME: not read: its content holds a secret (rule R at
// line N) ...") and is listed in Result.Secrets, from which the caller
// makes one SECRET_DETECTED warning a file; neither quotes the secret.

// A Refusal is a file a command was refused, and why.
type Refusal struct {
	Path   string // absolute
	Reason string // names the rule and the line, never the content
}

// judge applies the content policy to data, the whole content of the file
// at the absolute path p, shown as shown: nil when the command may see it
// (and the run is marked as having read content), else the refusal.
func (f *projectFS) judge(p, shown string, data []byte) error {
	if f.maxFile > 0 && int64(len(data)) > f.maxFile {
		return &fs.PathError{Op: "open", Path: shown, Err: refusedError(fmt.Sprintf("not read: %d bytes, over the %d-byte cap for a file", len(data), f.maxFile))}
	}
	if !f.allowSecrets {
		if c := root.JudgeContent(data, false); c.HoldsSecret() {
			why := c.SecretReason()
			f.secrets.add(Refusal{Path: p, Reason: why})
			return &fs.PathError{Op: "open", Path: shown, Err: refusedError(why)}
		}
	}
	f.content.Store(true)
	return nil
}

// refusalLog keeps the first files a run was refused, once each.
type refusalLog struct {
	mu    sync.Mutex
	files []Refusal
}

func (l *refusalLog) add(r Refusal) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.files) < maxOutside && !slices.ContainsFunc(l.files, func(o Refusal) bool { return o.Path == r.Path }) {
		l.files = append(l.files, r)
	}
}

func (l *refusalLog) list() []Refusal {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.files)
}
