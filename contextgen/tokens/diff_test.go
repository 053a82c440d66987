package tokens

import (
	"flag"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/dlclark/regexp2/v2"
	"github.com/tiktoken-go/tokenizer"
	"github.com/tiktoken-go/tokenizer/codec"
)

// Differential tests: the fast counter against the library.
//
// The library's Count is tiktoken's encode_ordinary except where its
// generated split code (regexp.gen.go) departs from its own pattern, as run
// by the regexp2 interpreter and by tiktoken:
//
//   - for \s*[\r\n]+ on a run of whitespace that starts with a newline it
//     stops at the first newline ("\n\t\n" is two pieces, "\n" and "\t\n",
//     where tiktoken has one);
//   - DEL (U+007F) matches neither [^\s\p{L}\p{N}] nor [^\r\n\p{L}\p{N}], so
//     it is in no piece: the library does not count it at all ("\x7f" is
//     0 tokens, tiktoken's 1).
//
// So the reference is the library with that one part swapped: the text as
// the library replaces its invalid UTF-8, split by the same pattern run by
// the regexp2 interpreter, each piece counted by the library (or, for a
// piece the library would split differently still, by textbook BPE). Where
// the two splits agree (nearly always) the reference is exactly the
// library's Count of the whole text, and the tests check that too.

var gorootAll = flag.Bool("goroot-all", false, "TestMatchesLibraryOnGoTree: every non-test .go file, not a sample")

// patterns are the split expressions, as the library has them.
var patterns = map[string]string{
	O200kBase:  `[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+`,
	Cl100kBase: `(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+`,
}

type reference struct {
	lib tokenizer.Codec
	// replacer decodes in the library's "replace" error mode: decoding
	// the single-byte tokens of a text replaces its invalid UTF-8 exactly
	// as the library's Count does.
	replacer *codec.Codec
	// gen is the pattern as the library compiles it (to its generated
	// code); interp is the same expression wrapped in a group, which
	// regexp2 has no generated code for and so interprets.
	gen, interp *regexp2.Regexp
}

var references = map[string]func() *reference{
	O200kBase:  sync.OnceValue(func() *reference { return newReference(O200kBase) }),
	Cl100kBase: sync.OnceValue(func() *reference { return newReference(Cl100kBase) }),
}

func newReference(enc string) *reference {
	lib, err := tokenizer.Get(tokenizer.Encoding(enc))
	if err != nil {
		panic(err)
	}
	lib.SetErrorMode(tokenizer.ErrorModeReplace)
	replacer := newCodecFor(enc)
	replacer.SetErrorMode(codec.ErrorModeReplace)
	return &reference{
		lib:      lib,
		replacer: replacer,
		gen:      regexp2.MustCompile(patterns[enc], regexp2.None),
		interp:   regexp2.MustCompile("(?:"+patterns[enc]+")", regexp2.None),
	}
}

func split(re *regexp2.Regexp, s string) []string {
	var out []string
	m, err := re.FindStringMatch(s)
	for ; m != nil && err == nil; m, err = re.FindNextMatch(m) {
		out = append(out, m.String())
	}
	if err != nil {
		panic(err)
	}
	return out
}

// diff is how the fast count of text compares with the reference.
type diff struct {
	fast, lib, ref int
	libSplitBug    bool // the library's split differs from its pattern's
	replaced       bool // invalid UTF-8 replaced as the library does
}

func compare(t testing.TB, enc, text string) diff {
	t.Helper()
	r := references[enc]()
	n, err := r.lib.Count(text)
	if err != nil {
		t.Fatalf("%s: library: %v", enc, err)
	}
	d := diff{fast: fast(enc, text), lib: n, ref: n}
	valid := r.replace(enc, text)
	d.replaced = replaceInvalid(text) == valid
	if !d.replaced {
		return d
	}
	gen, interp := split(r.gen, valid), split(r.interp, valid)
	if slices.Equal(gen, interp) {
		return d
	}
	d.libSplitBug = true
	d.ref = 0
	for _, p := range interp {
		if ps := split(r.gen, p); len(ps) == 1 && ps[0] == p {
			n, _ := r.lib.Count(p)
			d.ref += n
		} else {
			d.ref += naiveBPE(enc, p)
		}
	}
	return d
}

// replace is text with its invalid UTF-8 replaced by the library.
func (r *reference) replace(enc, text string) string {
	ranks := encodings[enc].ranks()
	ids := make([]uint, len(text))
	for i := range len(text) {
		id, ok := ranks.get(text[i : i+1])
		if !ok {
			panic("a byte is not a token")
		}
		ids[i] = uint(id)
	}
	s, err := r.replacer.Decode(ids)
	if err != nil {
		panic(err)
	}
	return s
}

// naiveBPE is the textbook byte-pair encoding of piece, for the pieces the
// library's own split would cut (whitespace with newlines, a few bytes).
func naiveBPE(enc, piece string) int {
	ranks := encodings[enc].ranks()
	var parts []string
	for i := range len(piece) {
		parts = append(parts, piece[i:i+1])
	}
	for {
		best, bi := noRank, -1
		for i := 0; i+1 < len(parts); i++ {
			if r, ok := ranks.get(parts[i] + parts[i+1]); ok && r < best {
				best, bi = r, i
			}
		}
		if bi < 0 {
			return len(parts)
		}
		parts = slices.Replace(parts, bi, bi+2, parts[bi]+parts[bi+1])
	}
}

func check(t testing.TB, enc, name, text string) diff {
	t.Helper()
	d := compare(t, enc, text)
	switch {
	case !d.replaced:
		t.Errorf("%s: %s: invalid UTF-8 replaced differently from the library", enc, name)
	case d.fast != d.ref:
		t.Errorf("%s: %s: fast count %d, reference %d (library %d)", enc, name, d.fast, d.ref, d.lib)
	case !d.libSplitBug && d.fast != d.lib:
		t.Errorf("%s: %s: fast count %d, library %d", enc, name, d.fast, d.lib)
	}
	return d
}

// moreTricky adds to tricky (split_test.go, whose counts are recorded from
// tiktoken) cases the library alone can judge, invalid UTF-8 first.
var moreTricky = []string{
	"\xff\xfe", "\xe2\x82", "a\xe2\x82b", "\xe2\x82\xe2\x82\xac", "\xed\xa0\x80x", "\xf4\x90\x80\x80", "\xc0\xaf",
	"\xf0\x9f\x98", "\xf0\x9f\x98 \xf0\x9f\x98\x80", "ab\x80cd", "\x80\x80\x80", " \xff\n", "'\xffs", "x'\xe2\x82s",
	"'s'S'LL'Ll'lL'rE'Ve'M'D'T", "it'LL", "I'M", "THEY'RE", "x'ſ", "'ſ", "don’t", "''", "'", "'x",
	"\r\n\r\n\r\n", "a \r\n b", " \r\n\r\n  \r\n\tx", "\r\r\n\n\r", "x\r", "x \r\n", "a   \n", "a \t \n\n b",
	"a  b", "a   b", "a\t\tb", "a \u00a0b", "a\u3000\u3000b", "  ", "x  ", " x", "\t\n ", "\n \n x",
	"1234", "12345678901234567890", "x1234y", "١٢٣٤٥", "१२३४", "Ⅷ1", "²³⁴⁵", "1.2345e10",
	"Hello世界мир", "abcΑβγ日本", "ﷺ", "العربية", "हिन्दी", "ภาษาไทย", "한국어", "כְּתִיב",
	"👨‍👩‍👧‍👦", "🏳️‍🌈", "👍🏽👍🏽", "a\u200db", "a\u200b b", "\ufeffpackage", "x\u0300\u0301\u0302",
	"\u0301", " \u0301", "A\u0301B\u0301c", "İİ", "İstanbul", "iİıI", "ǅǈǋ", "ǅa", "aǅ", "ᾈᾉ",
	"\x7f", "a\x7fb", " \x7f\n", "\x7f\x7f'", "\x00", "\x00\x00 \x00", "a\x00b", "\x1c\x1d\x1e\x1f", "\u0085\u2028\u2029", "\u180e", "\v\f\r",
	"a/b", "a//b\n//", " /\r\n/", "/\n/\n", "...///\n\n", "x=>/", "</div>\n", "-->\n\n",
	strings.Repeat(" ", 10000), strings.Repeat(" ", 300) + "\n", strings.Repeat("\t", 70) + "x",
	strings.Repeat("a", 100000), strings.Repeat("ab", 3000), strings.Repeat("9", 1000), strings.Repeat("é", 500),
	strings.Repeat("=", 5000), strings.Repeat("\r\n", 500), strings.Repeat("日", 300), strings.Repeat("🙂", 200),
	strings.Repeat("xY", 2000), strings.Repeat("aB1'", 300), strings.Repeat(" \n", 400),
	// word and space runs across the eight bytes the ASCII split reads at
	// once, ended by every kind of byte
	" abcdefgh", " abcdefghi'll", "abcdefghijklmnop\xe9", "abcdefghijklmnopq\u0301x", "Abcdefgh1", "xabcdefg{",
	"        x", "         x", "                 \t", "         \u00a0x", "         \r\nx", "        \xff",
	"                 ", "a        ", "\n         é", "abcdefghijklmnopqrstuvwxyz`{", "abcdefgh@ABCDEFGH[",
}

func TestMatchesLibraryOnTrickyStrings(t *testing.T) {
	bugs := 0
	for _, enc := range []string{O200kBase, Cl100kBase} {
		for _, s := range append(slices.Clone(tricky), moreTricky...) {
			if check(t, enc, strings.ToValidUTF8(trim(s), "?"), s).libSplitBug {
				bugs++
			}
		}
	}
	t.Logf("%d strings, both encodings; %d where the library's split is off", len(tricky)+len(moreTricky), bugs)
}

// TestMatchesLibraryOnGoTree compares the counts of the Go source tree:
// every 32nd non-test .go file (every one with -goroot-all).
func TestMatchesLibraryOnGoTree(t *testing.T) {
	if testing.Short() {
		t.Skip("slow: the library counts a few MB/s")
	}
	root := filepath.Join(goroot(t), "src")
	var paths []string
	filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".go") && !strings.HasSuffix(path, "_test.go") {
			paths = append(paths, path)
		}
		return nil
	})
	if !*gorootAll {
		var sample []string
		for i := 0; i < len(paths); i += 32 {
			sample = append(sample, paths[i])
		}
		paths = sample
	}
	files, bytes, bugs := 0, 0, 0
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		files++
		bytes += len(data)
		for _, enc := range []string{O200kBase, Cl100kBase} {
			if check(t, enc, p, string(data)).libSplitBug {
				bugs++
			}
		}
	}
	if files < len(paths)*9/10 || files < 100 {
		t.Errorf("only %d files under %s", files, root)
	}
	t.Logf("%d files, %d bytes, both encodings; %d file counts where the library's split is off", files, bytes, bugs)
}

// FuzzCountMatchesLibrary checks the fast count against the reference, and
// the library's own count wherever its split is right, in both encodings.
func FuzzCountMatchesLibrary(f *testing.F) {
	for _, s := range append(slices.Clone(tricky), moreTricky...) {
		if len(s) < 4096 {
			f.Add(s)
		}
	}
	f.Fuzz(func(t *testing.T, s string) {
		if newerThanPackage(s) {
			// The library classes runes with package unicode, whose
			// Unicode is older than tiktoken's (TestCountNewerUnicode).
			t.Skip("a rune newer than package unicode's tables")
		}
		for _, enc := range []string{O200kBase, Cl100kBase} {
			check(t, enc, "input", s)
		}
	})
}

// TestRankTable: every token of the library's vocabulary is in the table
// with its id as rank, and nothing else is.
func TestRankTable(t *testing.T) {
	for enc, want := range map[string]int{O200kBase: 199998, Cl100kBase: 100256} {
		c := newCodecFor(enc)
		ranks := encodings[enc].ranks()
		if ranks.n != want {
			t.Errorf("%s: %d tokens, want %d", enc, ranks.n, want)
		}
		found := 0
		for id := range uint(201000) {
			s, err := c.Decode([]uint{id})
			if err != nil {
				continue
			}
			found++
			if r, ok := ranks.get(s); !ok || uint(r) != id {
				t.Fatalf("%s: rank of %q = %d, %v; want %d", enc, s, r, ok, id)
			}
			// Near misses: one byte more or less is another string.
			if r, ok := ranks.get(s + "\x00"); ok && r == uint32(id) {
				t.Fatalf("%s: %q+NUL has the rank of %q", enc, s, s)
			}
		}
		if found != want {
			t.Errorf("%s: the library decodes %d ids, want %d", enc, found, want)
		}
		for _, s := range []string{"", "\x00\x00\x00\x00\x00\x00\x00\x00\x00", strings.Repeat("x", 300), "<|endoftext|>"} {
			if r, ok := ranks.get(s); ok {
				t.Errorf("%s: %q has rank %d, want none", enc, s, r)
			}
		}
	}
}

func newCodecFor(enc string) *codec.Codec {
	if enc == Cl100kBase {
		return codec.NewCl100kBase()
	}
	return codec.NewO200kBase()
}
