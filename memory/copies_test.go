package memory

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
)

// TestCopiesOfOtherLanguage: files with the same content but of other
// languages have other definitions (found by extension), so a copy must
// not take the analysis of one of another language. With one worker the
// files are analysed in walk order: the text copy, which has no
// definitions, comes first, and its Go original must still get its own.
func TestCopiesOfOtherLanguage(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	root := t.TempDir()
	code := "package auth\n\nfunc VerifyToken(s string) bool { return s != \"\" }\n\ntype Session struct{}\n"
	writeFile(t, root, "a/notes.txt", code)
	writeFile(t, root, "b/auth.go", code)
	writeFile(t, root, "c/more.txt", code)
	_, dir := buildIndex(t, root)
	shared := canonicalDump(t, dir)
	if !strings.Contains(shared, `text "@verifytoken" b/auth.go:0:1`+"\n") {
		t.Errorf("the Go file lacks its definition, or a text file has it:\n%s", grepLines(shared, "@verifytoken"))
	}
	shareCopies = false
	defer func() { shareCopies = true }()
	_, dir = buildIndex(t, root)
	if each := canonicalDump(t, dir); each != shared {
		t.Errorf("copies analysed once differ from each analysed (-each +shared):\n%s", dumpDiff(each, shared, 20))
	}
}

func grepLines(s, sub string) string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(l, sub) {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

// TestCopiesBeyondRoom: once the analyses kept for copies fill their room,
// copies are analysed each, and the index is the same.
func TestCopiesBeyondRoom(t *testing.T) {
	root := t.TempDir()
	goldenTree(t, root)
	for i := range 20 {
		writeFile(t, root, fmt.Sprintf("vendor/v%d/auth.go", i), "package auth\n\nfunc VerifyToken() {}\n")
		writeFile(t, root, fmt.Sprintf("vendor/v%d/other.go", i), fmt.Sprintf("package auth\n\nfunc Verify%03d() {}\n", i))
	}
	_, dir := buildIndex(t, root)
	whole := canonicalDump(t, dir)
	defer func(n int) { keptBytes = n }(keptBytes)
	for _, n := range []int{1, 500, 5000} {
		keptBytes = n
		_, dir := buildIndex(t, root)
		if diff := dumpDiff(whole, canonicalDump(t, dir), 20); diff != "" {
			t.Errorf("room for %d bytes of copies: the index differs:\n%s", n, diff)
		}
	}
}
