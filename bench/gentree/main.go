// Command gentree writes a synthetic source tree for measuring how the
// index build scales with the number of files:
//
//	go run ./bench/gentree -n 200000 -out /tmp/tree200k
//
// The files look like code as far as the analyser can tell: functions,
// types and constants of several languages, comments, strings and calls.
// Their words come from a vocabulary drawn with a Zipf distribution, and
// each file also coins identifiers of its own, so that, as in a real
// monorepo, the number of distinct terms keeps growing with the tree
// (Heaps' law) instead of saturating. The same -n and -seed give the same
// tree. Files are spread over nested directories of at most -per files.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
)

func main() {
	n := flag.Int("n", 200000, "number of files")
	out := flag.String("out", "", "directory to write (must not exist)")
	per := flag.Int("per", 100, "files per directory")
	size := flag.Int("size", 3000, "mean file size in bytes")
	seed := flag.Uint64("seed", 1, "random seed")
	flag.Parse()
	if *out == "" || *n <= 0 || *per <= 0 || *size <= 0 {
		fmt.Fprintln(os.Stderr, "usage: gentree -n FILES -out DIR [-per N] [-size BYTES] [-seed N]")
		os.Exit(2)
	}
	if _, err := os.Lstat(*out); err == nil {
		fmt.Fprintf(os.Stderr, "gentree: %s exists\n", *out)
		os.Exit(2)
	}
	g := newGenerator(*seed)
	var bytes int64
	for i := range *n {
		path := filepath.Join(*out, g.dir(i / *per), fmt.Sprintf("%s_%d%s", g.word(), i, g.ext()))
		b, err := g.write(path, *size)
		if err != nil {
			fmt.Fprintln(os.Stderr, "gentree:", err)
			os.Exit(1)
		}
		bytes += b
	}
	fmt.Printf("%d files, %d bytes\n", *n, bytes)
}

// generator makes the words and files of one tree.
type generator struct {
	rng    *rand.Rand
	zipf   *rand.Zipf // over vocab
	izipf  *rand.Zipf // over idents
	vocab  []string
	idents []string // identifiers files share
	local  []string // the identifiers of the file being written
	coins  int      // identifiers coined so far
}

var syllables = strings.Fields("ba co de fi gu ha ji ko lu ma ne po qu ri sa te vo wy xe zo ant ber cal dor " +
	"est fen gor hil ion jar kel lim mor nor ost pen ras sol tur ven wor yel zan read writ pars scan buf conn " +
	"pool sess cach load stor cfg mgr ctx req resp err log auth tok key node tree list map set")

func newGenerator(seed uint64) *generator {
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	g := &generator{rng: rng, zipf: rand.NewZipf(rng, 1.1, 2, 19999), izipf: rand.NewZipf(rng, 1.05, 4, 299999)}
	g.vocab = make([]string, 20000)
	for i := range g.vocab {
		g.vocab[i] = g.coin(2 + rng.IntN(3))
	}
	g.idents = make([]string, 300000)
	for i := range g.idents {
		g.idents[i] = g.compound()
	}
	return g
}

// coin makes a new word of k syllables.
func (g *generator) coin(k int) string {
	var b strings.Builder
	for range k {
		b.WriteString(syllables[g.rng.IntN(len(syllables))])
	}
	return b.String()
}

// word returns a word of the vocabulary, common ones most often.
func (g *generator) word() string { return g.vocab[g.zipf.Uint64()] }

// ident returns one of the identifiers of the file being written.
func (g *generator) ident() string { return g.local[g.rng.IntN(len(g.local))] }

// pickLocal chooses the identifiers of a new file: shared ones, the
// common most often, and a few coined for it.
func (g *generator) pickLocal() {
	g.local = g.local[:0]
	for range 40 {
		g.local = append(g.local, g.idents[g.izipf.Uint64()])
	}
	for range 3 {
		g.coins++
		g.local = append(g.local, fmt.Sprintf("%s%d", g.compound(), g.coins))
	}
}

// compound returns two or three words of the vocabulary in camel or
// snake case.
func (g *generator) compound() string {
	parts := []string{g.word(), g.word()}
	if g.rng.IntN(2) == 0 {
		parts = append(parts, g.word())
	}
	if g.rng.IntN(2) == 0 {
		return strings.Join(parts, "_")
	}
	for i := 1; i < len(parts); i++ {
		parts[i] = strings.ToUpper(parts[i][:1]) + parts[i][1:]
	}
	return strings.Join(parts, "")
}

func (g *generator) dir(k int) string {
	return filepath.Join(fmt.Sprintf("%s%d", g.vocab[k%97], k/1000), fmt.Sprintf("%s_%d", g.vocab[(k*7)%499], k))
}

var exts = []string{".go", ".py", ".ts", ".java", ".rs", ".c", ".rb", ".md"}

func (g *generator) ext() string { return exts[g.rng.IntN(len(exts))] }

// write writes a file of about size bytes (half to one and a half times)
// at path.
func (g *generator) write(path string, size int) (int64, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return 0, err
	}
	f, err := os.Create(path)
	if err != nil {
		return 0, err
	}
	w := bufio.NewWriter(f)
	g.pickLocal()
	target := size/2 + g.rng.IntN(size+1)
	n := 0
	for n < target {
		var line string
		switch g.rng.IntN(6) {
		case 0:
			line = fmt.Sprintf("// %s %s the %s of %s when %s.\n", g.word(), g.word(), g.word(), g.word(), g.word())
		case 1:
			line = fmt.Sprintf("func %s(%s %s) error {\n", g.ident(), g.word(), g.ident())
		case 2:
			line = fmt.Sprintf("\t%s := %s.%s(%s, %q)\n", g.ident(), g.word(), g.ident(), g.ident(), g.word()+" "+g.word())
		case 3:
			line = fmt.Sprintf("type %s struct { %s %s }\n", g.ident(), g.ident(), g.word())
		case 4:
			line = fmt.Sprintf("\tif err := %s(%s); err != nil { return fmt.Errorf(\"%s %s: %%w\", err) }\n", g.ident(), g.ident(), g.word(), g.word())
		default:
			line = fmt.Sprintf("const %s = %d\n", strings.ToUpper(g.ident()), g.rng.IntN(10000))
		}
		w.WriteString(line)
		n += len(line)
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return 0, err
	}
	return int64(n), f.Close()
}
