package memory

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"flag"
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// canonicalDump renders the index in dir independently of document
// numbering (which depends on how workers shared the files), of
// modification times and of analysisID: every document's path, size,
// content hash, flags and field lengths, then every term of both dictionaries with its postings by path.
func canonicalDump(t *testing.T, dir string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, indexFile))
	if err != nil {
		t.Fatal(err)
	}
	dec, err := decode(data)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	docs := slices.Clone(dec.docs)
	slices.SortFunc(docs, func(x, y docInfo) int { return strings.Compare(x.rel, y.rel) })
	for _, d := range docs {
		if d.flags&docDeleted != 0 {
			continue
		}
		h := d.hash // without the analysis's mark (contentHash): analysisID names the dump
		for i := 0; i < 8 && h != [16]byte{}; i += 4 {
			binary.LittleEndian.PutUint32(h[i:], binary.LittleEndian.Uint32(h[i:])^dec.filter)
		}
		fmt.Fprintf(&b, "doc %q %d %x %d %v\n", d.rel, d.size, h, d.flags, d.lens)
	}
	for _, sec := range []struct {
		name string
		d    *dict
	}{{"text", &dec.text}, {"path", &dec.path}} {
		for i := range sec.d.n {
			var ps []string
			it := newIter(sec.d.postings(i), len(dec.docs))
			for it.next() {
				ps = append(ps, fmt.Sprintf("%s:%d:%d", dec.docs[it.doc].rel, it.tf[0], it.tf[1]))
			}
			slices.Sort(ps)
			fmt.Fprintf(&b, "%s %q %s\n", sec.name, sec.d.termBytes(i), strings.Join(ps, " "))
		}
	}
	return b.String()
}

// goldenTree writes a deterministic tree of files mixing prose, code
// identifiers in every casing, digits, kebab-case, non-ASCII words,
// over-long runs and a binary file.
func goldenTree(t *testing.T, root string) {
	t.Helper()
	vocab := strings.Fields(`the running runner runs authentication authenticate authenticated
connection connections configure configuration reloading deadlock pool pooling
parseHTTPRequest HTTPServer http_server_timeout kebab-case-name utf8 sha256sum
getUserByID XMLHttpRequest snake_case_thing __init__ x y z 12 12345 v1beta2
func type def class struct interface fn const var let message service
naïve café Straße ÜBER日本語 résumé_Handler ĲsselMeer
return nil true false import package TODO fixme www
generalisations relational conditional happiness sensational
abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyz0123456789
ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz_ABCDEFGHIJKLMNOP
--flag -x foo- -bar a-b 3-d x86-64 i18n k8s`)
	seps := []string{" ", " ", " ", "\n", "(", ")", ".", ", ", "\t", "::", "->", "—", "\u00a0", "/", "\"", "\xff"}
	rng := rand.New(rand.NewPCG(1, 2))
	dirs := []string{"", "cmd/server/", "pkg/auth/", "docs/", "internal/tsdb/head_test/", "web-ui/src/"}
	exts := []string{".go", ".py", ".md", ".ts", ".txt", ""}
	for i := range 120 {
		var b strings.Builder
		n := rng.IntN(400)
		for range n {
			b.WriteString(vocab[rng.IntN(len(vocab))])
			b.WriteString(seps[rng.IntN(len(seps))])
		}
		rel := fmt.Sprintf("%sfile%dName_part-%d%s", dirs[i%len(dirs)], i, i%7, exts[i%len(exts)])
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	samples := slices.Clone(moreDefSamples) // the languages of moreDefLangs
	for _, h := range headerSamples {       // and headers over several lines
		samples = append(samples, struct {
			rel, text string
			want      []string
		}{"headers/" + h.rel, h.text, h.want})
	}
	for _, s := range samples {
		p := filepath.Join(root, "more", filepath.FromSlash(s.rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(s.text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(root, "blob.bin"), []byte("abc\x00def"), 0o644); err != nil {
		t.Fatal(err)
	}
}

// goldenIndexHash is the SHA-256 of canonicalDump for goldenTree, and of
// goldenFile. A change to the analyser that changes it changes what the
// index holds: make sure it is meant to, and give analysisID a new number
// and the new hash's first eight digits.
const goldenIndexHash = "49d9a81ede72c1dfe699ac89c83f66c7c789dbe586fb63690b733a07e4467bea"

// goldenFile holds canonicalDump of goldenTree's index, so that a change
// shows as the documents and terms that changed (see dumpDiff).
const goldenFile = "testdata/golden-index.txt"

var update = flag.Bool("update", false, "rewrite "+goldenFile+" (then put the hash it prints in goldenIndexHash, and its start in analysisID)")

func TestIndexGolden(t *testing.T) {
	root := t.TempDir()
	goldenTree(t, root)
	want, err := os.ReadFile(goldenFile)
	if err != nil && !*update {
		t.Fatal(err)
	}
	for run := range 2 { // two builds: worker scheduling must not matter
		_, dir := buildIndex(t, root)
		dump := canonicalDump(t, dir)
		sum := sha256.Sum256([]byte(dump))
		got := hex.EncodeToString(sum[:])
		if *update {
			if err := os.WriteFile(goldenFile, []byte(dump), 0o644); err != nil {
				t.Fatal(err)
			}
			t.Logf("wrote %s; its hash is %s", goldenFile, got)
			want = []byte(dump)
			continue
		}
		if diff := dumpDiff(string(want), dump, 40); diff != "" {
			t.Errorf("run %d: the index differs from %s (-want +got; go test -run TestIndexGolden -update accepts it):\n%s", run, goldenFile, diff)
		}
		if got != goldenIndexHash {
			t.Errorf("run %d: index hash = %s, want %s", run, got, goldenIndexHash)
		}
	}
	if sum := sha256.Sum256(want); !*update && hex.EncodeToString(sum[:]) != goldenIndexHash {
		t.Errorf("%s is not the dump goldenIndexHash names: which one is meant?", goldenFile)
	}
	if !strings.HasSuffix(analysisID, " "+goldenIndexHash[:8]) {
		t.Errorf("analysisID = %q does not end in %q, the start of goldenIndexHash: the analysis changed, so give "+
			"analysisID a new number and that ending (source.go), and an index an older taskctl wrote is analysed again",
			analysisID, goldenIndexHash[:8])
	}
}

// dumpDiff compares two canonicalDumps entry by entry (a document, or a
// term of a section) and describes at most max differences, one a line:
// a document or term only one side has, a document whose size, hash, flags
// or field lengths changed, a term's postings missing, added or with other
// frequencies. "" means the dumps are equal.
func dumpDiff(want, got string, max int) string {
	wk, wv := dumpEntries(want)
	gk, gv := dumpEntries(got)
	var out []string
	n := 0
	note := func(format string, args ...any) {
		if n < max {
			out = append(out, fmt.Sprintf(format, args...))
		}
		n++
	}
	for _, k := range wk {
		g, ok := gv[k]
		switch w := wv[k]; {
		case !ok:
			note("- %s %s", k, w)
		case g == w:
		case strings.HasPrefix(k, "doc "):
			note("  %s: -%s +%s", k, w, g)
		default:
			note("  %s: %s", k, postingsDiff(w, g))
		}
	}
	for _, k := range gk {
		if _, ok := wv[k]; !ok {
			note("+ %s %s", k, gv[k])
		}
	}
	if n > max {
		out = append(out, fmt.Sprintf("… and %d more differences", n-max))
	}
	return strings.Join(out, "\n")
}

// dumpEntries splits a canonicalDump into its entries: their keys ("doc
// \"rel\"", "text \"term\"", "path \"term\"") in order and what each holds.
func dumpEntries(dump string) ([]string, map[string]string) {
	var keys []string
	vals := map[string]string{}
	for line := range strings.Lines(dump) {
		line = strings.TrimSuffix(line, "\n")
		kind, rest, _ := strings.Cut(line, " ")
		name, err := strconv.QuotedPrefix(rest)
		if err != nil {
			name = rest
		}
		k := kind + " " + name
		keys = append(keys, k)
		vals[k] = strings.TrimPrefix(rest[len(name):], " ")
	}
	return keys, vals
}

// postingsDiff describes how two posting lists of canonicalDump
// ("rel:tf:tf ...") differ.
func postingsDiff(want, got string) string {
	byRel := func(list string) map[string]string {
		m := map[string]string{}
		for _, p := range strings.Fields(list) {
			i := strings.IndexByte(p, ':')
			m[p[:i]] = p[i+1:]
		}
		return m
	}
	w, g := byRel(want), byRel(got)
	var d []string
	for _, rel := range slices.Sorted(maps.Keys(w)) {
		switch gt, ok := g[rel]; {
		case !ok:
			d = append(d, "-"+rel+":"+w[rel])
		case gt != w[rel]:
			d = append(d, rel+":"+w[rel]+"->"+gt)
		}
	}
	for _, rel := range slices.Sorted(maps.Keys(g)) {
		if _, ok := w[rel]; !ok {
			d = append(d, "+"+rel+":"+g[rel])
		}
	}
	return strings.Join(d, " ")
}

// TestDumpDiff: the diff of two dumps names what changed, and nothing
// when they are equal.
func TestDumpDiff(t *testing.T) {
	want := "doc \"a.go\" 10 ab 0 [1 2 3 4]\ndoc \"b.go\" 5 cd 0 [1 1 1 1]\ntext \"auth\" a.go:1:0 b.go:2:1\npath \"a\" a.go:0:1\n"
	got := "doc \"a.go\" 11 ab 0 [1 2 3 4]\ndoc \"b.go\" 5 cd 0 [1 1 1 1]\ntext \"auth\" a.go:1:0 b.go:3:1 c.go:1:0\ntext \"new\" c.go:1:0\n"
	if d := dumpDiff(want, want, 10); d != "" {
		t.Errorf("equal dumps differ:\n%s", d)
	}
	d := dumpDiff(want, got, 10)
	for _, line := range []string{
		`  doc "a.go": -10 ab 0 [1 2 3 4] +11 ab 0 [1 2 3 4]`,
		`  text "auth": b.go:2:1->3:1 +c.go:1:0`,
		`- path "a" a.go:0:1`,
		`+ text "new" c.go:1:0`,
	} {
		if !strings.Contains(d, line) {
			t.Errorf("diff lacks %q:\n%s", line, d)
		}
	}
	if d := dumpDiff(want, got, 1); !strings.Contains(d, "… and 3 more differences") {
		t.Errorf("diff capped at 1:\n%s", d)
	}
}

// TestIndexChunks builds the golden tree with analysers that sort their
// postings in chunks of a few, and with the lists written on two
// goroutines: the lists must be those of one chunk on one goroutine. A file that has a word 70,000 times and a name defined
// 40,000 times takes the path of frequencies too large to pack.
func TestIndexChunks(t *testing.T) {
	root := t.TempDir()
	goldenTree(t, root)
	writeFile(t, root, "big/many.txt", strings.Repeat("often ", 70000)+strings.Repeat("func defined ", 40000))
	_, dir := buildIndex(t, root)
	whole := canonicalDump(t, dir)
	if !strings.Contains(whole, `text "often" big/many.txt:70000:0`) ||
		!strings.Contains(whole, `text "defin" big/many.txt:40000:40000`) {
		t.Fatalf("frequencies of big/many.txt not in the index:\n%s", whole)
	}
	defer func(n, s int) { chunkPostings, splitBuild = n, s }(chunkPostings, splitBuild)
	for _, n := range []int{1, 7, 100} {
		chunkPostings = n
		_, dir := buildIndex(t, root)
		if got := canonicalDump(t, dir); got != whole {
			t.Errorf("postings sorted in chunks of %d: the index differs", n)
		}
	}
	// the lists written in parts, split at every place
	chunkPostings = 100
	for _, s := range []int{0, 1} {
		splitBuild = s
		_, dir := buildIndex(t, root)
		if got := canonicalDump(t, dir); got != whole {
			t.Errorf("lists built in parts from %d postings: the index differs", s)
		}
	}
}

// TestIndexDump writes canonicalDump of an index of
// $TASKCTL_GOLDEN_DIR to $TASKCTL_GOLDEN_OUT, to compare the analysers
// of two versions on a real tree.
func TestIndexDump(t *testing.T) {
	src, out := os.Getenv("TASKCTL_GOLDEN_DIR"), os.Getenv("TASKCTL_GOLDEN_OUT")
	if src == "" || out == "" {
		t.Skip("set TASKCTL_GOLDEN_DIR and TASKCTL_GOLDEN_OUT")
	}
	dir := t.TempDir()
	ix, _, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ix.Refresh(context.Background(), DirSource(src), nil); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(out, []byte(canonicalDump(t, dir)), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestIndexCopies: files with the same content are analysed once and
// posted for each (copies), which must give the index a build that
// analyses each gives. The tree has exact copies, files of the same size
// that differ in one byte, and a file changed to the content of another
// between two refreshes.
func TestIndexCopies(t *testing.T) {
	root := t.TempDir()
	goldenTree(t, root)
	entries, _ := filepath.Glob(filepath.Join(root, "pkg", "auth", "*"))
	if len(entries) < 5 {
		t.Fatalf("golden tree: %d files under pkg/auth", len(entries))
	}
	for i, p := range entries[:5] {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		for k := range 3 {
			writeFile(t, root, fmt.Sprintf("vendor/copy%d/%d/%s", k, i, filepath.Base(p)), string(data))
		}
		if len(data) > 0 {
			data[len(data)/2] ^= 1 // same size, other content
			writeFile(t, root, fmt.Sprintf("vendor/near/%d.txt", i), string(data))
		}
	}
	dump := func() string {
		ix, dir := buildIndex(t, root)
		first := canonicalDump(t, dir)
		// a file takes another's content: refreshed, it is analysed again
		data, _ := os.ReadFile(entries[0])
		writeFile(t, root, "docs/changed.md", string(data))
		if _, err := ix.Refresh(context.Background(), DirSource(root), nil); err != nil {
			t.Fatal(err)
		}
		os.Remove(filepath.Join(root, "docs", "changed.md"))
		return first + "\n--\n" + canonicalDump(t, dir)
	}
	shared := dump()
	shareCopies = false
	defer func() { shareCopies = true }()
	if each := dump(); shared != each {
		t.Errorf("the index with copies analysed once differs from the index with each analysed")
	}
	if !strings.Contains(shared, "vendor/copy2/4/") {
		t.Errorf("copies missing from the index")
	}
}

// buildIndex builds an index of root in a new directory.
func buildIndex(t *testing.T, root string) (*Index, string) {
	t.Helper()
	dir := t.TempDir()
	ix, _, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ix.Refresh(context.Background(), DirSource(root), nil); err != nil {
		t.Fatal(err)
	}
	return ix, dir
}

func writeFile(t *testing.T, root, rel, content string) {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}
