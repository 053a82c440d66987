package reading

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/taskctl/taskctl/content/encoding"
	"github.com/taskctl/taskctl/content/secrets"
	"github.com/taskctl/taskctl/contextgen/sources"
	"github.com/taskctl/taskctl/internal/diag"
	"github.com/taskctl/taskctl/project"
	"github.com/taskctl/taskctl/root"
)

// Options say how candidates are read and what of their content a
// document admits. Project is required.
type Options struct {
	Project *project.Project
	// MaxFileBytes cuts each file's text at a line boundary with a marker
	// (0: no cap beyond the policy's size cap).
	MaxFileBytes int64
	// RedactSecrets replaces detected secrets instead of leaving the file
	// out; AllowSecrets keeps them untouched (with a warning). RedactHint
	// names, as the caller's user knows it, what keeps a file that holds
	// a secret with the secret replaced; the warning of a file left out
	// says so ("": it says nothing of it).
	RedactSecrets bool
	AllowSecrets  bool
	RedactHint    string
	// Hashes sets each file's SHA256.
	Hashes bool
	// Audit, when set, is told about every file read.
	Audit func(path, source string)
	// IsDocument reports whether a text is a document taskctl rendered:
	// such a file is left out (CONTEXT_DOCUMENT) unless its source named
	// it literally. nil: none is.
	IsDocument func(text []byte) bool
}

// A File is a candidate read: the facts of the file on disk and the text
// a document shows of it.
type File struct {
	Path, Rel string
	Size      int64 // on disk
	ModTime   time.Time
	SHA256    string // of the bytes read (Options.Hashes)
	Binary    bool   // then Text is nil and Encoding "binary"
	Encoding  string
	Lines     int    // of the file's text, not of Text
	Text      []byte // decoded, its secrets redacted, cut
	Redacted  int    // secrets replaced
	Truncated bool   // Text was cut
}

// A Reader reads candidates for one worker: Options are shared, the
// buffers the files are read into (an arena) are the reader's own. A
// Reader is not safe for concurrent use.
type Reader struct {
	Options
	buffers arena
}

// Read reads c through the project's confined read and judges its content
// as every door does (root.JudgeContent): a binary file is listed
// without its text (FILE_BINARY); a file taskctl rendered, or one holding
// a secret (unless redacted or allowed), is left out (nil). Every reason
// is a warning.
func (r *Reader) Read(ctx context.Context, c sources.Candidate) (*File, []diag.Warning) {
	if ctx.Err() != nil {
		return nil, nil
	}
	pf, w := r.Project.Confined().ReadInto(c.Candidate.Path, r.buffers.buffer())
	if pf != nil {
		pf.Content = r.buffers.keep(pf.Content)
	}
	if r.Audit != nil {
		r.Audit(c.Path, string(c.Source))
	}
	if w != nil {
		return nil, []diag.Warning{*w}
	}
	var ws []diag.Warning
	f := &File{Path: pf.Path, Rel: pf.Rel, Size: pf.Size, ModTime: pf.ModTime, Binary: pf.Binary}
	if r.Hashes {
		sum := sha256.Sum256(pf.Content)
		f.SHA256 = hex.EncodeToString(sum[:])
	}
	// The content policy decides binary, encoding and secrets once for
	// every door (root.JudgeContent).
	jc := root.JudgeContent(pf.Content, r.AllowSecrets)
	if jc.Binary {
		f.Encoding, f.Binary = "binary", true
		ws = append(ws, diag.Warning{Code: diag.FileBinary, Path: pf.Path,
			Message: fmt.Sprintf("binary file (%d bytes): listed, content omitted", pf.Size)})
		return f, ws
	}
	text, enc := jc.Text, jc.Encoding
	f.Encoding = enc.Encoding
	// Lines, like Size, describe the file, not the text shown (which may
	// be cut or redacted).
	f.Lines = countLines(text)
	ws = append(ws, encodingWarnings(pf.Path, enc)...)
	if !c.NamedLiterally() && r.IsDocument != nil && r.IsDocument(text) {
		ws = append(ws, diag.Warning{Code: diag.ContextDocument, Path: pf.Path,
			Message: "a taskctl context document (an earlier assemble's output): left out, so that this one does not hold it (name it literally to pack it)"})
		return nil, ws
	}
	if jc.HoldsSecret() {
		ws = append(ws, r.secretWarnings(pf.Path, jc)...)
		if !r.RedactSecrets {
			return nil, ws
		}
		text = secrets.Redact(text, jc.Secrets)
		f.Redacted = len(jc.Secrets)
	}
	f.Text, f.Truncated = cut(text, c.Read, r.MaxFileBytes)
	return f, ws
}

// DefaultMaxContentBytes is Options.MaxContentBytes's default (contextgen.Options.MaxContentBytes): the file
// content a document holds at most, whatever the repository holds (a
// 196 KB .git can check out 30 files of 10 MiB, each under the policy's
// size cap). With the document's rendering and the token counts, a run of
// assemble peaked at 1.1 times this in the xml, markdown and plain styles
// and at 5 times it with --output json, which holds the envelope whole
// (measured in docs/policy.md).
const DefaultMaxContentBytes = 256 << 20

// Admit leaves out, before anything is read, the candidates that would
// take the file content a document holds over bound
// (DefaultMaxContentBytes when 0): in the document's order, each counts
// its size on disk, up to the policy's size cap (a file that grows
// meanwhile is still read to that cap at most). Each one left out is a
// BUDGET_EXCEEDED warning. When the candidates cannot reach the bound,
// nothing is looked at.
func Admit(p *project.Project, cands []sources.Candidate, bound int64) ([]sources.Candidate, []diag.Warning) {
	if bound <= 0 {
		bound = DefaultMaxContentBytes
	}
	per := p.Policy().MaxFileBytes
	if per <= 0 || int64(len(cands)) <= bound/per {
		return cands, nil
	}
	sizes := make([]int64, len(cands))
	var wg sync.WaitGroup
	var next atomic.Int64
	for range min(runtime.GOMAXPROCS(0), len(cands)) {
		wg.Go(func() {
			for i := int(next.Add(1) - 1); i < len(cands); i = int(next.Add(1) - 1) {
				if size, ok := p.SizeOf(*cands[i].Candidate); ok {
					sizes[i] = min(size, per)
				}
			}
		})
	}
	wg.Wait()
	var ws []diag.Warning
	kept, held := cands[:0], int64(0)
	for i, c := range cands {
		if held+sizes[i] > bound {
			ws = append(ws, diag.Warning{Code: diag.BudgetExceeded, Path: c.Path, Message: fmt.Sprintf(
				"left out: its %d bytes would take the file content of the document over %d MiB (%d MiB held), the bound of a run's memory",
				sizes[i], bound>>20, held>>20)})
			continue
		}
		held += sizes[i]
		kept = append(kept, c)
	}
	return kept, ws
}

// encodingWarnings say how a file's text was decoded when that is news: a
// guessed encoding, or bytes that were not valid in it.
func encodingWarnings(path string, enc encoding.Result) []diag.Warning {
	var ws []diag.Warning
	// A byte-order mark says what the encoding is: converting it is no news.
	// A guess is reported.
	if enc.Converted && enc.Encoding == encoding.Windows1252 && enc.InvalidBytes == 0 {
		ws = append(ws, diag.Warning{Code: diag.EncodingConverted, Path: path,
			Message: fmt.Sprintf("not UTF-8: decoded as %s (a guess)", enc.Encoding)})
	}
	if enc.InvalidBytes > 0 {
		var msg string
		switch enc.Encoding {
		case encoding.Unknown:
			msg = fmt.Sprintf("not UTF-8, and the encoding is unknown (a multi-byte legacy encoding such as GBK, Big5, "+
				"Shift-JIS or EUC-KR, or a non-Latin 8-bit one?): each of its %d non-ASCII bytes was read as one "+
				"Windows-1252 character, so that text is garbled", enc.InvalidBytes)
		case encoding.Windows1252:
			msg = fmt.Sprintf("not UTF-8: read as Windows-1252 (a guess: its %d non-ASCII bytes stand alone, as accented "+
				"Latin letters do)", enc.InvalidBytes)
		case encoding.UTF8, encoding.UTF8BOM:
			msg = fmt.Sprintf("%d stray byte(s) in UTF-8 text were not valid UTF-8: each was read as its Windows-1252 character",
				enc.InvalidBytes)
		default:
			msg = fmt.Sprintf("%d byte(s) were not valid %s: replaced by U+FFFD", enc.InvalidBytes, enc.Encoding)
		}
		ws = append(ws, diag.Warning{Code: diag.InvalidUTF8, Path: path, Message: msg})
	}

	return ws
}

func countLines(b []byte) int {
	if len(b) == 0 {
		return 0
	}
	n := bytes.Count(b, []byte{'\n'})
	if b[len(b)-1] != '\n' {
		n++
	}
	return n
}

// cut applies skip_lines, max_lines and the byte caps, and marks what it
// removed with an explicit line. It reports whether anything was removed.
// Cuts fall on line boundaries; a single line longer than the byte cap is cut
// at a rune boundary.
func cut(text []byte, ro sources.ReadOptions, fileCap int64) ([]byte, bool) {
	maxBytes := ro.MaxBytes
	if fileCap > 0 && (maxBytes == 0 || fileCap < maxBytes) {
		maxBytes = fileCap
	}
	if ro.SkipLines == 0 && ro.MaxLines == 0 && (maxBytes == 0 || int64(len(text)) <= maxBytes) {
		return text, false
	}
	lines := bytes.SplitAfter(text, []byte("\n"))
	if len(lines) > 0 && len(lines[len(lines)-1]) == 0 {
		lines = lines[:len(lines)-1]
	}
	total := len(lines)
	first := min(ro.SkipLines, total)
	last := total
	if ro.MaxLines > 0 {
		last = min(first+ro.MaxLines, total)
	}
	var out []byte
	n := 0
	partial := false
	for _, l := range lines[first:last] {
		if maxBytes > 0 && int64(len(out)+len(l)) > maxBytes {
			if n == 0 {
				k := int(maxBytes)
				for k > 0 && !utf8.RuneStart(l[k]) {
					k--
				}
				out = append(out, l[:k]...)
				partial = true
			}
			break
		}
		out = append(out, l...)
		n++
	}
	if n == total {
		return text, false
	}
	if len(out) > 0 && out[len(out)-1] != '\n' {
		out = append(out, '\n')
	}
	var marker string
	switch {
	case partial:
		marker = fmt.Sprintf("[taskctl: truncated: line %d cut at %d bytes; %d %s in all]\n", first+1, maxBytes, total, plural(total, "line"))
	case n == 0:
		marker = fmt.Sprintf("[taskctl: truncated: no lines shown of %d]\n", total)
	default:
		marker = fmt.Sprintf("[taskctl: truncated: showing lines %d-%d of %d]\n", first+1, first+n, total)
	}
	return append(out, marker...), true
}

func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}

// secretWarnings are the SECRET_DETECTED warnings of a file that holds a
// secret, one per finding: redacted, or left out (then saying what keeps
// it redacted, in the caller's terms: Options.RedactHint).
func (r *Reader) secretWarnings(path string, jc root.Content) []diag.Warning {
	if r.RedactSecrets {
		return jc.SecretWarnings(path, true)
	}
	verb := "file left out"
	if r.RedactHint != "" {
		verb += " (" + r.RedactHint + " keeps it with the secret replaced)"
	}
	ws := make([]diag.Warning, 0, len(jc.Secrets))
	for _, f := range jc.Secrets {
		ws = append(ws, diag.Warning{Code: diag.SecretDetected, Path: path,
			Message: fmt.Sprintf("rule %s matched at line %d: %s", f.Rule, f.Line, verb)})
	}
	return ws
}
