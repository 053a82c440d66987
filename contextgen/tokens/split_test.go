package tokens

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// The expected counts come from OpenAI's tiktoken (the npm package's
// encode_ordinary), recorded in testdata by golden-strings.js and
// golden-goroot.js: the library's own split expression differs from
// tiktoken's in a few cases (for example "\n\t\n", one token), so it is not
// the reference.

var writeStrings = flag.Bool("strings", false, "TestWriteStrings: print the tricky strings as a JSON array")

func fast(enc, s string) int {
	c, _ := New(enc)
	return c.Count([]byte(s))
}

var tricky = []string{
	"", "a", " ", "  ", "\n", "\r\n", " \n ", "\n\n\n", "\n\t\n", "\n\t\n\ti", "  \n  x", "x  ", "x \t y", "\t\tfoo",
	"don't", "DON'T", "they're we've I'm you'll he'd it's", "'s", "x 's", "'S'T'RE", "''s", "o'clock",
	"HTTPServer", "parseHTTPRequest", "IOError", "ABCdef", "abcDEF", "McDonald's", "ǅemal", "ǲ",
	"12345678", "1,234.5", "x1y22z333w4444", "٣٤٥٦", "Ⅻ", "½",
	"// comment\n\tif x != nil {\n\t\treturn fmt.Errorf(\"x: %w\", err)\n\t}\n",
	"a/b/c//d", "path/to/file.go\n/", "}}\n\n\n{{", "...\r\n\r\n", "==>\n", " !!!\n\n", " /\n",
	"naïve café 日本語 中文 한국어", "e\u0301", "\u0301abc", " \u0301x", "x\u0301\u0302Y",
	"🙂 emoji 👍🏽 family 👨‍👩‍👧", "\u00a0nbsp\u00a0 ", "\u2003em space\u3000ideo", "\u0085next",
	"\v\fvt", "\x00nul\x01", "İstanbul ıi", "Ωmega ΣΑΣ σας", "ÀÉÎÕÜ àéîõü",
	"                \n                \n  XXX     XXX   \n",
	strings.Repeat("a", 5000), strings.Repeat(" ", 300) + "x", strings.Repeat("\n", 100), strings.Repeat("ab1", 700),
	strings.Repeat("-", 1000), "x" + strings.Repeat("\t", 50) + "\ny",
}

// TestWriteStrings prints the tricky strings for golden-strings.js.
func TestWriteStrings(t *testing.T) {
	if !*writeStrings {
		t.Skip("only with -strings, to regenerate testdata")
	}
	out, _ := json.Marshal(tricky)
	fmt.Println(string(out))
}

type golden struct {
	Text   string `json:"text"`
	Path   string `json:"path"`
	SHA256 string `json:"sha256"`
	O200k  int    `json:"o200k_base"`
	Cl100k int    `json:"cl100k_base"`
}

func readGolden(t *testing.T, name string) []golden {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []golden
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var g golden
		if err := json.Unmarshal(sc.Bytes(), &g); err != nil {
			t.Fatal(err)
		}
		out = append(out, g)
	}
	return out
}

func TestMatchesTiktokenOnTrickyStrings(t *testing.T) {
	gs := readGolden(t, "tiktoken-strings.jsonl")
	if len(gs) != len(tricky) {
		t.Fatalf("%d golden strings, %d tricky strings: regenerate testdata", len(gs), len(tricky))
	}
	for _, g := range gs {
		if got := fast(O200kBase, g.Text); got != g.O200k {
			t.Errorf("o200k_base: Count(%q) = %d, tiktoken says %d", trim(g.Text), got, g.O200k)
		}
		if got := fast(Cl100kBase, g.Text); got != g.Cl100k {
			t.Errorf("cl100k_base: Count(%q) = %d, tiktoken says %d", trim(g.Text), got, g.Cl100k)
		}
	}
}

// goroot is `go env GOROOT`.
func goroot(t testing.TB) string {
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		t.Fatalf("go env GOROOT: %v", err)
	}
	return strings.TrimSpace(string(out))
}

func trim(s string) string {
	if len(s) > 60 {
		return s[:60] + "…"
	}
	return s
}

// TestMatchesTiktokenOnGoTree compares files of the Go source tree (every
// eighth, as recorded) with tiktoken's counts. A file whose content changed
// (another Go release) cannot be compared; most must be there.
func TestMatchesTiktokenOnGoTree(t *testing.T) {
	gs := readGolden(t, "tiktoken-goroot.jsonl")
	root := filepath.Join(goroot(t), "src")
	compared := 0
	for _, g := range gs {
		data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(g.Path)))
		if err != nil {
			continue
		}
		if sum := sha256.Sum256(data); hex.EncodeToString(sum[:]) != g.SHA256 {
			continue
		}
		compared++
		if got := fast(O200kBase, string(data)); got != g.O200k {
			t.Errorf("o200k_base: %s: %d tokens, tiktoken says %d", g.Path, got, g.O200k)
		}
		if got := fast(Cl100kBase, string(data)); got != g.Cl100k {
			t.Errorf("cl100k_base: %s: %d tokens, tiktoken says %d", g.Path, got, g.Cl100k)
		}
	}
	if compared < len(gs)*9/10 {
		t.Fatalf("only %d of %d recorded files are in %s as recorded (another Go release?)", compared, len(gs), root)
	}
	t.Logf("%d files compared", compared)
}

// FuzzCount: any text counts without panicking, at least one token for
// non-empty text and at most one a byte (after UTF-8 replacement, three).
func FuzzCount(f *testing.F) {
	for _, s := range tricky {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, enc := range []string{O200kBase, Cl100kBase} {
			n := fast(enc, s)
			if s == "" && n != 0 || s != "" && n < 1 || n > 3*len(s) {
				t.Fatalf("%s: Count(%q) = %d", enc, s, n)
			}
			if utf8.ValidString(s) && n > len(s) {
				t.Fatalf("%s: Count(%q) = %d, more tokens than bytes", enc, s, n)
			}
		}
	})
}
