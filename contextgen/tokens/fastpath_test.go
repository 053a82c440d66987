package tokens

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// The ASCII fast paths of the split (asciiO200k, asciiCl100k) against the
// general split (nextO200k, nextCl100k): wherever a fast path decides a
// piece, it must end where the general code ends it. These tests compare
// pieces, not counts, so a divergence is caught even where the two splits
// would happen to count alike.

// checkFastSplit walks s piece by piece with the general split and checks
// the fast path at every piece start.
func checkFastSplit(t testing.TB, enc, name, s string) {
	t.Helper()
	e := encodings[enc]
	for i := 0; i < len(s); {
		j := e.next(s, i)
		if s[i] < 0x80 {
			if f := e.ascii(s, i); f != 0 && f != j {
				t.Fatalf("%s: %s: at %d the fast path ends the piece at %d (%q), the general split at %d (%q)",
					enc, name, i, f, s[i:f], j, s[i:j])
			}
		}
		i = j
	}
}

func TestFastSplitMatchesGeneral(t *testing.T) {
	for _, enc := range []string{O200kBase, Cl100kBase} {
		for _, s := range append(slices.Clone(tricky), moreTricky...) {
			checkFastSplit(t, enc, strings.ToValidUTF8(trim(s), "?"), s)
			// Every suffix too, so that each byte is a piece start
			// once and every piece meets the end of the text.
			for k := 1; k < len(s) && k < 200; k++ {
				checkFastSplit(t, enc, "suffix of "+strings.ToValidUTF8(trim(s), "?"), s[k:])
			}
		}
	}
}

// TestFastSplitMatchesGeneralOnGoTree compares the splits of every .go file
// of the Go source tree, tests included (their strings hold text in many
// scripts, and invalid UTF-8).
func TestFastSplitMatchesGeneralOnGoTree(t *testing.T) {
	if testing.Short() {
		t.Skip("reads the Go source tree")
	}
	root := filepath.Join(goroot(t), "src")
	files, bytes := 0, 0
	filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		if !strings.HasSuffix(path, ".go") {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return nil
		}
		files++
		bytes += len(data)
		for _, enc := range []string{O200kBase, Cl100kBase} {
			checkFastSplit(t, enc, path, replaceInvalidIfNeeded(string(data)))
		}
		return nil
	})
	if files < 1000 {
		t.Errorf("only %d files under %s", files, root)
	}
	t.Logf("%d files, %d bytes", files, bytes)
}

// replaceInvalidIfNeeded is the text the counter splits.
func replaceInvalidIfNeeded(s string) string {
	if !utf8.ValidString(s) {
		return replaceInvalid(s)
	}
	return s
}

func FuzzFastSplit(f *testing.F) {
	for _, s := range append(slices.Clone(tricky), moreTricky...) {
		if len(s) < 4096 {
			f.Add(s)
		}
	}
	f.Fuzz(func(t *testing.T, s string) {
		s = replaceInvalidIfNeeded(s)
		for _, enc := range []string{O200kBase, Cl100kBase} {
			checkFastSplit(t, enc, "input", s)
		}
	})
}
