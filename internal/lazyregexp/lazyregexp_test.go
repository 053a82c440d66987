package lazyregexp

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
)

func TestCompiledOnceAtFirstUse(t *testing.T) {
	r := New(`a(b+)`)
	if r.re != nil {
		t.Fatal("compiled before its first use")
	}
	var wg sync.WaitGroup
	got := make([]string, 8)
	for i := range got {
		wg.Go(func() { got[i] = r.Re().FindStringSubmatch("xabbby")[1] })
	}
	wg.Wait()
	for _, g := range got {
		if g != "bbb" {
			t.Fatalf("got %q, want bbb", g)
		}
	}
	if first := r.Re(); r.Re() != first {
		t.Fatal("compiled more than once")
	}
}

func TestBadExpressionPanicsAtFirstUse(t *testing.T) {
	r := New(`a(`)
	defer func() {
		if recover() == nil {
			t.Fatal("no panic for an expression that does not compile")
		}
	}()
	r.Re()
}

// TestEveryUseCompiles compiles the expression of every lazyregexp.New of
// a literal in the module's sources: an expression that does not compile would panic
// only when its command first ran it, not when taskctl starts.
func TestEveryUseCompiles(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	uses := 0
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") {
			return err
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			sel, ok := call.Fun.(*ast.SelectorExpr)
			if !ok || sel.Sel.Name != "New" || len(call.Args) != 1 {
				return true
			}
			if pkg, ok := sel.X.(*ast.Ident); !ok || pkg.Name != "lazyregexp" {
				return true
			}
			lit, ok := call.Args[0].(*ast.BasicLit)
			if !ok {
				return true // built from parts: its package's tests compile it (secrets' TestExpressionsCompile)
			}
			src, err := strconv.Unquote(lit.Value)
			if err == nil {
				_, err = regexp.Compile(src)
			}
			if err != nil {
				t.Errorf("%s: %v", fset.Position(lit.Pos()), err)
			}
			uses++
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if uses < 10 {
		t.Fatalf("found %d uses of lazyregexp.New under %s: the walk missed the sources", uses, root)
	}
}
