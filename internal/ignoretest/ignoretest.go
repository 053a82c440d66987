package ignoretest

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"unicode/utf8"
)

// A Tree is a generated tree: its files (ignore files included) and its
// directories, by slash-separated path relative to its top.
type Tree struct {
	Seed  uint64
	Files map[string]string // path -> content; ".git/info/exclude" when the tree has one
	Dirs  []string          // every directory below the top, sorted

	rng *rand.Rand
}

// The names a tree is made of: plain ones, ones that need escaping in a
// pattern, a multi-byte one ("?" matches one byte in git) and ones that
// differ only in case.
var (
	dirNames  = []string{"a", "b", "ab", "build", "logs", "doc", "sub", "x y", ".hid", "[x]", "#h", "!b", "a.d", "B", "é"}
	fileNames = []string{"a", "b", "ab", "a.txt", "b.log", "c.md", "keep.txt", "x y.txt", "tr ", "#h", "!b", "*s", "q?",
		"[x]", ".hid", "aB", "A.TXT", "f1", "f12", "é.txt", "a.d", "{x,y}", "b]", "-", "a-c"}
)

// odd are patterns git reads in ways that are easy to get wrong.
var odd = []string{
	"**", "**/", "/**", "***", "a/**/", "**/a", "*/", "a//b", "a\\", "[unclosed", "[]", "[]x]", "[!]x]", "[a-]", "[\\]]",
	"\\", "!", "/", "//a", "#not a comment?", "\\#h", "\\!b", "!\\!b", "a/**/b", "**/**/a", "a**", "**a", "[[:alpha:]]*",
	"[[:nope:]]", "[[:digit:][:upper:]]*", "*[[:space:]]*", "?", "??", "[!a]", "[^a]*", "[a-c]*", "[z-a]", "\\ ", " ",
	"tr\\ ", "tr\\\\ ", "a\\b", "*.TXT", "A*", "/*", "/*/", "*/*", "*/**/b", "é*", "?.txt", "??.txt", "[é].txt",
	"a//", "/a**/b", "a**/", "b/a**", "a**/**", "*/**", "**/*/", "[/]", "a[/]b", "[+-0]*", "[[:alpha]*", "\\/a",
	"a\\/b", "[]a]*", "[!]a]*", "[a\\-c]*", "[\\!]b", "[a-c-e]*", "[[:]*", "[[::]]*", "/[!.]*", "*[!a-z]*",
	"*/***", "***/b", "/***/a", "!*/***/",
}

// Generate returns the tree of seed.
func Generate(seed uint64) *Tree {
	t := &Tree{Seed: seed, Files: map[string]string{}, rng: rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))}
	t.fill("", 0)
	slices.Sort(t.Dirs)
	for _, d := range append([]string{""}, t.Dirs...) {
		if d == "" || t.rng.IntN(3) == 0 {
			t.Files[join(d, ".gitignore")] = t.ignoreFile(d)
		}
	}
	if t.rng.IntN(2) == 0 {
		t.Files[".git/info/exclude"] = t.ignoreFile("")
	}
	t.rng = nil
	return t
}

// fill adds a few files and directories to dir.
func (t *Tree) fill(dir string, depth int) {
	used := map[string]bool{}
	for range 1 + t.rng.IntN(5) {
		if depth < 3 && t.rng.IntN(3) == 0 {
			n := dirNames[t.rng.IntN(len(dirNames))]
			if used[n] {
				continue
			}
			used[n] = true
			d := join(dir, n)
			t.Dirs = append(t.Dirs, d)
			t.fill(d, depth+1)
			continue
		}
		n := fileNames[t.rng.IntN(len(fileNames))]
		if used[n] {
			continue
		}
		used[n] = true
		t.Files[join(dir, n)] = n + "\n"
	}
}

// ignoreFile returns the content of an ignore file in dir.
func (t *Tree) ignoreFile(dir string) string {
	var b strings.Builder
	eol := "\n"
	if t.rng.IntN(8) == 0 {
		eol = "\r\n"
	}
	for range 1 + t.rng.IntN(6) {
		switch t.rng.IntN(20) {
		case 0:
			b.WriteString("# a comment" + eol)
		case 1:
			b.WriteString(eol)
		case 2, 3:
			b.WriteString(odd[t.rng.IntN(len(odd))] + eol)
		case 4:
			b.WriteString(t.quirk(dir) + eol)
		default:
			b.WriteString(t.pattern(dir) + eol)
		}
	}
	s := b.String()
	if t.rng.IntN(6) == 0 {
		s = strings.TrimSuffix(s, eol) // no end of line after the last
	}
	return s
}

// pattern makes a pattern from a path found below dir.
func (t *Tree) pattern(dir string) string {
	target, isDir := t.target(dir)
	comps := strings.Split(target, "/")
	var p string
	switch t.rng.IntN(4) {
	case 0, 1: // the base name alone: matches at any depth
		p = t.bend(comps[len(comps)-1])
	case 2: // the path, anchored by its slashes
		var parts []string
		for _, c := range comps {
			parts = append(parts, t.bend(c))
		}
		p = strings.Join(parts, "/")
		if len(comps) == 1 || t.rng.IntN(2) == 0 {
			p = "/" + p
		}
	default: // below any directory
		p = "**/" + t.bend(comps[len(comps)-1])
		if len(comps) > 1 && t.rng.IntN(2) == 0 {
			p = t.bend(comps[0]) + "/**/" + t.bend(comps[len(comps)-1])
		}
	}
	if isDir && t.rng.IntN(3) > 0 || t.rng.IntN(8) == 0 {
		p += "/"
	}
	if t.rng.IntN(4) == 0 {
		p = "!" + p
	}
	if t.rng.IntN(8) == 0 {
		p += "  "
	}
	return p
}

// quirk makes a pattern from a path found below dir in one of the ways
// git reads unlike most glob libraries.
func (t *Tree) quirk(dir string) string {
	target, _ := t.target(dir)
	lit := escape(target, true)
	first, rest, nested := strings.Cut(target, "/")
	_, n := utf8.DecodeRuneInString(first)
	start := escape(first[:n], true)
	neg := ""
	if t.rng.IntN(3) == 0 {
		neg = "!"
	}
	switch t.rng.IntN(7) {
	case 0: // one trailing slash is taken off: "a//" matches nothing
		return neg + lit + "//"
	case 1: // three stars are two
		return neg + escape(first, true) + "/***"
	case 2: // a "**" right after the literal start of an anchored pattern crosses slashes
		if nested {
			return neg + "/" + start + "**/" + escape(path.Base(rest), false)
		}
		return neg + "/" + start + "**"
	case 3: // no bracket expression matches a slash
		if nested {
			return neg + "/" + escape(first, true) + "[!z]" + escape(rest, false)
		}
		return neg + "/[!z]" + escape(target[n:], false)
	case 4: // an escaped backslash does not escape the space after it
		for range 8 {
			if strings.HasSuffix(target, " ") {
				break
			}
			target, _ = t.target(dir)
		}
		return neg + escape(strings.TrimRight(target, " "), true) + "\\\\ "
	case 5: // "**/" may match nothing after the literal start
		return neg + "/" + escape(target, true) + "**/**/*"
	}
	return neg + escape(first, true) + "/**"
}

// target picks a path below dir (relative to it) for a pattern.
func (t *Tree) target(dir string) (string, bool) {
	var below []string
	isDir := map[string]bool{}
	for p := range t.Files {
		if r, ok := under(dir, p); ok {
			below = append(below, r)
		}
	}
	for _, d := range t.Dirs {
		if r, ok := under(dir, d); ok {
			below = append(below, r)
			isDir[r] = true
		}
	}
	slices.Sort(below)
	if len(below) == 0 {
		return "a", false
	}
	target := below[t.rng.IntN(len(below))]
	return target, isDir[target]
}

// bend turns one path component into a pattern that matches it (or
// something like it).
func (t *Tree) bend(c string) string {
	r, size := utf8.DecodeRuneInString(c)
	rest := c[size:]
	switch t.rng.IntN(13) {
	case 0:
		return "*"
	case 1:
		return "?" + escape(rest, false)
	case 2:
		if i := strings.LastIndexByte(c, '.'); i > 0 {
			return "*" + escape(c[i:], false)
		}
		return "*" + escape(rest, false)
	case 3:
		return escape(string(r), true) + "*"
	case 4:
		return "[" + escape(string(r), false) + "z]" + escape(rest, false)
	case 5:
		return "[!z]" + escape(rest, false)
	case 6:
		return "[^" + escape(string(r), false) + "]" + escape(rest, false)
	case 7:
		switch {
		case r >= 'a' && r <= 'z':
			return "[[:lower:]]" + escape(rest, false)
		case r >= '0' && r <= '9':
			return "[[:digit:]]" + escape(rest, false)
		case r >= 'A' && r <= 'Z':
			return "[[:upper:]]" + escape(rest, false)
		}
		return "[[:punct:]]" + escape(rest, false)
	case 8:
		return "[a-c" + escape(string(r), false) + "]" + escape(rest, false)
	case 9:
		return "**"
	case 10:
		return escape(string(r), true) + "**"
	}
	return escape(c, true)
}

// escape writes s as a literal pattern: wildcard characters and
// backslashes escaped, and "#" or "!" at its start when first, and a
// trailing space, which git would drop.
func escape(s string, first bool) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case strings.IndexByte(`*?[\`, c) >= 0,
			first && i == 0 && (c == '#' || c == '!'),
			c == ' ' && i == len(s)-1:
			b.WriteByte('\\')
		}
		b.WriteByte(c)
	}
	return b.String()
}

func join(dir, name string) string {
	if dir == "" {
		return name
	}
	return dir + "/" + name
}

// under returns p relative to dir when it lies below dir.
func under(dir, p string) (string, bool) {
	if dir == "" {
		return p, !strings.HasPrefix(p, ".git/")
	}
	return strings.CutPrefix(p, dir+"/")
}

// Paths returns every file and directory of the tree but .git and what is
// in it, sorted, and which of them are directories.
func (t *Tree) Paths() ([]string, map[string]bool) {
	isDir := map[string]bool{}
	var paths []string
	for _, d := range t.Dirs {
		paths = append(paths, d)
		isDir[d] = true
	}
	for p := range t.Files {
		if !strings.HasPrefix(p, ".git/") {
			paths = append(paths, p)
		}
	}
	slices.Sort(paths)
	return paths, isDir
}

// String lists the tree's ignore files, for a failure message.
func (t *Tree) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "tree of seed %d:\n", t.Seed)
	names := make([]string, 0, len(t.Files))
	for p := range t.Files {
		if path.Base(p) == ".gitignore" || p == ".git/info/exclude" {
			names = append(names, p)
		}
	}
	slices.Sort(names)
	for _, p := range names {
		fmt.Fprintf(&b, "  %s: %q\n", p, t.Files[p])
	}
	return b.String()
}

// Build makes a git repository in dir (which must exist and be empty) with
// no file tracked and writes the tree into it.
func (t *Tree) Build(dir string) error {
	if _, err := Git(dir, nil, "init", "-q"); err != nil {
		return err
	}
	for _, d := range t.Dirs {
		if err := os.MkdirAll(filepath.Join(dir, filepath.FromSlash(d)), 0o755); err != nil {
			return err
		}
	}
	for p, content := range t.Files {
		if err := os.WriteFile(filepath.Join(dir, filepath.FromSlash(p)), []byte(content), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// Git runs git in dir with stdin as its input, without the system's or
// the user's configuration, and returns its standard output. An exit
// status of 1 (check-ignore's "nothing ignored") is not an error.
func Git(dir string, stdin []byte, args ...string) ([]byte, error) {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	nowhere := filepath.Join(dir, ".git", "no-home")
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "LC_ALL=C", "HOME=" + nowhere, "XDG_CONFIG_HOME=" + nowhere,
		"GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null"}
	cmd.Stdin = bytes.NewReader(stdin)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if ee, ok := err.(*exec.ExitError); ok && ee.ExitCode() == 1 && stderr.Len() == 0 {
		err = nil
	}
	if err != nil {
		return nil, fmt.Errorf("git %s: %v: %s", strings.Join(args, " "), err, stderr.Bytes())
	}
	return out, nil
}

// Others returns what git ls-files --others --exclude-standard prints in
// dir, sorted.
func Others(dir string) ([]string, error) {
	out, err := Git(dir, nil, "ls-files", "-z", "--others", "--exclude-standard")
	if err != nil {
		return nil, err
	}
	list := split(out)
	slices.Sort(list)
	return list, nil
}

// A Verdict is git check-ignore's answer for one path.
type Verdict struct {
	Ignored bool
	Source  string // the file of the deciding pattern ("" when none matched)
	Line    int
	Pattern string
}

// CheckIgnore asks git check-ignore -v -n about every path, in one run.
func CheckIgnore(dir string, paths []string) (map[string]Verdict, error) {
	var in bytes.Buffer
	for _, p := range paths {
		in.WriteString(p)
		in.WriteByte(0)
	}
	out, err := Git(dir, in.Bytes(), "check-ignore", "-z", "-v", "-n", "--stdin")
	if err != nil {
		return nil, err
	}
	f := split(out)
	if len(f) != 4*len(paths) {
		return nil, fmt.Errorf("git check-ignore printed %d fields for %d paths", len(f), len(paths))
	}
	res := map[string]Verdict{}
	for i := 0; i < len(f); i += 4 {
		v := Verdict{Source: f[i], Pattern: f[i+2]}
		fmt.Sscan(f[i+1], &v.Line)
		v.Ignored = v.Source != "" && !strings.HasPrefix(v.Pattern, "!")
		res[f[i+3]] = v
	}
	return res, nil
}

func split(out []byte) []string {
	s := string(out)
	if s == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(s, "\x00"), "\x00")
}
