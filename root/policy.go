package root

import (
	"path"
	"path/filepath"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
	"github.com/taskctl/taskctl/content/secrets"
	"github.com/taskctl/taskctl/internal/diag"
)

// Policy is what the resolver lets through. The zero value of a field means
// its default (see DefaultPolicy); a template may only narrow a policy, never
// widen it: that is the caller's rule to keep.
type Policy struct {
	// MaxFileBytes caps the size of one file (default 10 MiB). Larger files
	// are refused with FILE_TOO_LARGE; the size a stat reports is never
	// trusted, reads stop at the cap.
	MaxFileBytes int64
	// MaxFiles caps the files one source (one Expand call) yields (default
	// 1000); the rest are dropped with one TOO_MANY_FILES warning.
	MaxFiles int
	// Sensitive are base-name patterns (path.Match syntax, compared
	// case-insensitively; a pattern holding "/" is a doublestar pattern on the
	// whole slash path relative to the project) of files refused with
	// PATH_SENSITIVE unless AllowSensitive.
	Sensitive      []string
	AllowSensitive bool
	// AllowSecrets lets content holding a secret (private-key blocks,
	// cloud and forge tokens; see content/secrets) through every door;
	// by default such content is refused (see JudgeContent).
	// RedactSecrets lets the context document show such a file with its
	// secrets replaced instead of leaving it out; a command's read of it
	// is refused all the same.
	AllowSecrets  bool
	RedactSecrets bool
	// Exclude are extra doublestar patterns, on slash paths relative to the
	// project dir, that are excluded like .git/ (PATH_IGNORED), even when
	// named explicitly.
	Exclude []string
	// ExtraRoots are more directories (absolute) paths may lie in besides the
	// project dir. Only configuration or a flag may add them.
	ExtraRoots []string
}

// defaultSensitive is the built-in list of sensitive base names.
var defaultSensitive = []string{
	".env", ".env.*", ".envrc",
	"*.pem", "*.key", "*.p12", "*.pfx", "*.jks", "*.keystore",
	"id_rsa*", "id_dsa*", "id_ecdsa*", "id_ed25519*",
	".netrc", "_netrc", ".npmrc", ".pypirc", ".pgpass", ".git-credentials",
	".htpasswd", "credentials", "*.credentials",
	// Credentials saved as data, not source code that handles them
	// (credentials.go or credentials.py are ordinary code).
	"credentials.json", "credentials.yaml", "credentials.yml", "credentials.xml",
	"credentials.ini", "credentials.toml", "credentials.csv", "credentials.txt", "credentials.db",
}

// DefaultPolicy returns the default policy: 10 MiB a file, 1000 files a
// source, the built-in sensitive names, nothing extra excluded, no extra
// roots.
func DefaultPolicy() Policy {
	return Policy{
		MaxFileBytes: 10 << 20,
		MaxFiles:     1000,
		Sensitive:    append([]string(nil), defaultSensitive...),
	}
}

// WithDefaults returns p with its zero fields filled by DefaultPolicy's.
func (p Policy) WithDefaults() Policy {
	d := DefaultPolicy()
	if p.MaxFileBytes <= 0 {
		p.MaxFileBytes = d.MaxFileBytes
	}
	if p.MaxFiles <= 0 {
		p.MaxFiles = d.MaxFiles
	}
	if p.Sensitive == nil {
		p.Sensitive = d.Sensitive
	}
	return p
}

// nameSet is a compiled list of case-insensitive name patterns.
type nameSet struct {
	exact    map[string]string // lower-case name -> pattern
	prefixes []namePat
	suffixes []namePat
	globs    []namePat
	paths    []namePat // patterns with a slash, on the whole rel path
}

type namePat struct{ lit, pat string }

func compileNames(pats []string) *nameSet {
	s := &nameSet{exact: make(map[string]string)}
	for _, p := range pats {
		lp := strings.ToLower(p)
		switch {
		case strings.Contains(lp, "/"):
			s.paths = append(s.paths, namePat{lp, p})
		case !strings.ContainsAny(lp, `*?[\`):
			s.exact[lp] = p
		case strings.HasSuffix(lp, "*") && !strings.ContainsAny(lp[:len(lp)-1], `*?[\`):
			s.prefixes = append(s.prefixes, namePat{lp[:len(lp)-1], p})
		case strings.HasPrefix(lp, "*") && !strings.ContainsAny(lp[1:], `*?[\`):
			s.suffixes = append(s.suffixes, namePat{lp[1:], p})
		default:
			s.globs = append(s.globs, namePat{lp, p})
		}
	}
	return s
}

// match returns the pattern that matches base name name (or rel, for
// slash patterns), or "".
func (s *nameSet) match(rel, name string) string {
	ln := strings.ToLower(name)
	if p, ok := s.exact[ln]; ok {
		return p
	}
	for _, np := range s.prefixes {
		if strings.HasPrefix(ln, np.lit) {
			return np.pat
		}
	}
	for _, np := range s.suffixes {
		if strings.HasSuffix(ln, np.lit) {
			return np.pat
		}
	}
	for _, np := range s.globs {
		if ok, _ := path.Match(np.lit, ln); ok {
			return np.pat
		}
	}
	if len(s.paths) > 0 {
		lr := strings.ToLower(rel)
		for _, np := range s.paths {
			if doublestar.MatchUnvalidated(np.lit, lr) {
				return np.pat
			}
		}
	}
	return ""
}

// AlwaysExcluded reports whether a directory name is never entered nor
// read: .git and .taskctl, compared case-insensitively (macOS and Windows
// file systems fold case).
func AlwaysExcluded(name string) bool {
	return len(name) == 4 && strings.EqualFold(name, ".git") ||
		len(name) == 8 && strings.EqualFold(name, ".taskctl")
}

// Sensitive returns the PATH_SENSITIVE warning for rel (slash-separated,
// relative to the project dir) if its name or path matches a sensitive
// pattern and the policy does not allow sensitive files; nil otherwise. It
// reads nothing: a symlink is judged by its own name (ResolveFrom also
// checks the target).
func (r *Root) Sensitive(rel string) *diag.Warning {
	if r.policy.AllowSensitive {
		return nil
	}
	if pat := r.sensitive.match(rel, path.Base(rel)); pat != "" {
		return SensitiveWarning(filepath.Join(r.Dir(), filepath.FromSlash(rel)), pat)
	}
	return nil
}

// SensitiveMatch returns the sensitive pattern that name (the base name of
// the file at rel, or the name it was given by) matches, or "", whatever
// the policy allows.
func (r *Root) SensitiveMatch(rel, name string) string { return r.sensitive.match(rel, name) }

// ReadRefusal is the name policy for a read of the file at rel
// (slash-separated, relative to the project dir, holding no symbolic
// link): the warning that refuses it when the policy excludes it, its name
// is sensitive, or its path holds a secret (a key ID used as a name, which
// is content: the warning's path has it redacted); nil when the name lets
// it be read. .git/ and .taskctl/ are the caller's to check; the
// .gitignore family is not applied: a file named literally is read (#29:
// every door asks this, the document, the file operations and commands).
func (r *Root) ReadRefusal(rel string) *diag.Warning {
	return r.nameRefusal(rel, filepath.Join(r.Dir(), filepath.FromSlash(rel)))
}

func (r *Root) nameRefusal(rel, abs string) *diag.Warning {
	if pat := r.ExcludedPath(rel); pat != "" {
		return warnf(diag.PathIgnored, abs, "excluded by the policy pattern %q", pat)
	}
	if !r.policy.AllowSensitive {
		if pat := r.sensitive.match(rel, path.Base(rel)); pat != "" {
			return SensitiveWarning(abs, pat)
		}
	}
	if r.NameHoldsSecret(rel) {
		return warnf(diag.SecretDetected, redactName(abs), "its name holds a secret, which is content: left out")
	}
	return nil
}

// NameHoldsSecret reports whether the secret scanner finds a secret in the
// path rel (a key ID used as a file or directory name) and the policy does
// not allow secrets: such a name is content, kept out of documents,
// listings and the index like the secret it holds.
func (r *Root) NameHoldsSecret(rel string) bool {
	return !r.policy.AllowSecrets && secrets.HasKeyword(rel) && len(secrets.Scan([]byte(rel))) > 0
}

// redactName replaces the secrets in a path by their [REDACTED:rule]
// markers.
func redactName(s string) string {
	if fs := secrets.Scan([]byte(s)); len(fs) > 0 {
		return string(secrets.Redact([]byte(s), fs))
	}
	return s
}

// SensitiveWarning is the warning for a file at path (absolute) that
// sensitive pattern pat matches.
func SensitiveWarning(path, pat string) *diag.Warning {
	return warnf(diag.PathSensitive, path, "sensitive file (matches %q); allow sensitive files in the policy to include it", pat)
}

// AlwaysExcludedDir returns the part of rel (slash-separated, relative to
// the project dir) up to its first always-excluded directory, .git or
// .taskctl ("sub/.git" for "sub/.git/config"), or "" if it has none.
func AlwaysExcludedDir(rel string) string {
	for i := 0; i < len(rel); {
		j := strings.IndexByte(rel[i:], '/')
		if j < 0 {
			j = len(rel) - i
		}
		if AlwaysExcluded(rel[i : i+j]) {
			return rel[:i+j]
		}
		i += j + 1
	}
	return ""
}

// Excluded returns the policy Exclude pattern matching rel, or "".
func (r *Root) Excluded(rel string) string {
	for _, pat := range r.policy.Exclude {
		if ok, _ := doublestar.Match(pat, rel); ok {
			return pat
		}
	}
	return ""
}

// ExcludedPath is Excluded for a path named directly (not met by a walk,
// which checks each directory on its way down): a pattern matching one of
// its directories excludes it too, as a walk never enters that directory.
// Before, <exclude>vendor</exclude> kept vendor/ out of globs but let
// "vendor/x.go" named literally, or printed by a command, through.
func (r *Root) ExcludedPath(rel string) string {
	if len(r.policy.Exclude) == 0 {
		return ""
	}
	if pat := r.Excluded(rel); pat != "" {
		return pat
	}
	for i := 0; i < len(rel); i++ {
		if rel[i] == '/' && i > 0 {
			if pat := r.Excluded(rel[:i]); pat != "" {
				return pat
			}
		}
	}
	return ""
}

// CheckName applies the name rules to the file at real, rootRel in its
// allowed directory: .git/ and .taskctl/ anywhere in rootRel, the policy's
// Exclude patterns, the sensitive names (of the file and of the name it
// was given by, given), and a name holding a secret. It returns real
// relative to the project dir when the name lets it be read.
func (r *Root) CheckName(real, rootRel, given string) (string, *diag.Warning) {
	for rest := rootRel; rest != ""; {
		c := rest
		if i := strings.IndexByte(rest, '/'); i >= 0 {
			c, rest = rest[:i], rest[i+1:]
		} else {
			rest = ""
		}
		if AlwaysExcluded(c) {
			return "", warnf(diag.PathIgnored, real, "inside %s/, which is always excluded", c)
		}
	}
	rel := r.Rel(real)
	if w := r.nameRefusal(rel, real); w != nil {
		return "", w
	}
	if !r.policy.AllowSensitive {
		base := real[strings.LastIndexByte(real, '/')+1:]
		if g := filepath.Base(given); given != "" && g != base {
			if pat := r.sensitive.match(rel, g); pat != "" {
				return "", warnf(diag.PathSensitive, real, "named by a sensitive name %q (matches %q)", g, pat)
			}
		}
	}
	return rel, nil
}
