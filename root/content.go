package root

import (
	"fmt"

	"github.com/taskctl/taskctl/content/encoding"
	"github.com/taskctl/taskctl/content/secrets"
	"github.com/taskctl/taskctl/internal/diag"
)

// The content policy (#29 point 1): what a file's bytes may become is
// decided once per file, here, whichever door read it — the context
// document, `fs read` and MCP read_file, and the commands a template or
// `taskctl exec` runs. A file is binary (listed, content omitted), or text
// in some encoding, decoded to UTF-8; text holding a secret is refused
// unless the policy allows secrets (the document may instead redact it,
// see Policy.RedactSecrets; a command's read never is: it is refused).

// Content is the content policy's verdict on one file's bytes.
type Content struct {
	// Text is the content decoded to UTF-8 (nil when Binary). It may share
	// the bytes it was judged from.
	Text []byte
	// Encoding says how Text was decoded.
	Encoding encoding.Result
	// Binary reports that the content is binary: a NUL byte in its first
	// 8 KiB (and no UTF-16/UTF-32 byte-order mark), or what the decoder
	// finds binary.
	Binary bool
	// Secrets are the secrets the scanner found in Text (never when the
	// policy allows secrets). They hold no secret's text, only where.
	Secrets []secrets.Finding
}

// JudgeContent applies the content policy to data, the bytes of one file:
// binary or text, the encoding, and, unless allowSecrets, the secrets in
// the text. It is the one place these are decided.
func JudgeContent(data []byte, allowSecrets bool) Content {
	if IsBinary(data) {
		return Content{Binary: true, Encoding: encoding.Result{Encoding: encoding.Binary, Binary: true}}
	}
	text, enc := encoding.Decode(data)
	c := Content{Text: text, Encoding: enc, Binary: enc.Binary}
	if !c.Binary && !allowSecrets {
		c.Secrets = secrets.Scan(text)
	}
	return c
}

// JudgeContent is the package function under the root's policy
// (Policy.AllowSecrets).
func (r *Root) JudgeContent(data []byte) Content {
	return JudgeContent(data, r.policy.AllowSecrets)
}

// HoldsSecret reports whether the content holds a secret the policy does
// not allow.
func (c Content) HoldsSecret() bool { return len(c.Secrets) > 0 }

// SecretReason says why a read of content holding a secret is refused,
// without quoting the secret: the first rule that matched and its line.
// It is "" when the content holds none.
func (c Content) SecretReason() string {
	if len(c.Secrets) == 0 {
		return ""
	}
	f := c.Secrets[0]
	more := ""
	if n := len(c.Secrets) - 1; n > 0 {
		more = fmt.Sprintf(" and %d more", n)
	}
	return fmt.Sprintf("not read: its content holds a secret (rule %s at line %d%s), which the content policy keeps out", f.Rule, f.Line, more)
}

// SecretWarnings are the SECRET_DETECTED warnings for the file at path,
// one per finding; redacted says the secrets were replaced, not the file
// left out.
func (c Content) SecretWarnings(path string, redacted bool) []diag.Warning {
	verb := "file left out (--redact-secrets keeps it with the secret replaced)"
	if redacted {
		verb = "secret redacted"
	}
	ws := make([]diag.Warning, 0, len(c.Secrets))
	for _, f := range c.Secrets {
		ws = append(ws, diag.Warning{Code: diag.SecretDetected, Path: path,
			Message: fmt.Sprintf("rule %s matched at line %d: %s", f.Rule, f.Line, verb)})
	}
	return ws
}
