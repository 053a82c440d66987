package memory

import (
	"slices"
	"strings"
	"testing"
)

// TestDefinitions checks the definitions each language's shapes find, and
// that uses of the same names are not taken for definitions.
func TestDefinitions(t *testing.T) {
	tests := []struct {
		rel, text string
		want      []string // "name" or "Scope.name"
	}{
		{"a/query.py", `
import os
MAX_SIZE = 10
x = MAX_SIZE

class QuerySet(object):
    """Docs."""
    LIMIT = 5

    @property
    def bulk_create(self, objs):
        if objs == LIMIT:
            helper(objs)
        def inner():
            pass

    class Meta:
        ordering = []
        def m(self): pass

async def fetch():
    QuerySet().bulk_create([])
`, []string{"MAX_SIZE", "QuerySet", "QuerySet.LIMIT", "QuerySet.bulk_create", "QuerySet.inner", "QuerySet.Meta", "QuerySet.Meta.m", "fetch"}},
		{"s/server.go", `package s

const (
	MaxConns = 10
	minConns = 1
)

type Server struct {
	addr string
}

var ErrClosed = errors.New("closed")

func (s *Server) Serve(l net.Listener) error {
	s.handle()
	return nil
}

func (c cache[K]) Get(k K) {}

func New() *Server { return &Server{} }
`, []string{"MaxConns", "minConns", "Server", "ErrClosed", "Server.Serve", "cache.Get", "New"}},
		{"web/app.ts", `export default class Router {
  private routes: Route[] = [];
  constructor(opts) {
    this.setup(opts)
  }
  async handle(req: Request): Promise<void> {
    if (req) {
      dispatch(req)
    }
  }
}
export function createApp() {}
export const useStore = () => {};
const plain = 3;
interface Options {}
`, []string{"Router", "Router.constructor", "Router.handle", "createApp", "useStore", "Options"}},
		{"src/Main.java", `package x;
public class Cache<K> {
    private final Map<K, V> map;
    public static Cache<K> create(int size) {
        return new Cache<>(size);
    }
    void evict() {
        map.clear();
    }
}
`, []string{"Cache", "Cache.create", "Cache.evict"}},
		{"src/lib.rs", `pub struct Wrapper<T>(T);
impl<T: Display> fmt::Display for Wrapper<T> {
    fn fmt(&self, f: &mut Formatter) -> Result {
        write!(f, "x")
    }
}
pub(crate) fn helper() {}
macro_rules! my_macro { () => {} }
`, []string{"Wrapper", "Wrapper.fmt", "helper", "my_macro"}},
		{"src/buf.c", `#include <stdio.h>
#define BUF_SIZE 64
typedef struct buf { int n; } buf_t;
static int
buf_grow(struct buf *b, size_t n)
{
	if (n > b->n) {
		realloc(b, n);
	}
}
int main(int argc, char **argv) {
	buf_grow(b, 1);
}
#if defined(HAVE_BAR)
void Foo::bar(int x) {}
#endif
template<typename T>
T max_of(T a, T b) { return a > b ? a : b; }
`, []string{"BUF_SIZE", "buf_t", "buf_grow", "main", "Foo.bar", "max_of"}},
		{"lib/client.rb", `module Net
  class Client
    TIMEOUT = 5
    def get(path)
      request(path)
    end
    def self.open; end
  end
end
`, []string{"Net", "Net.Client", "Net.Client.TIMEOUT", "Net.Client.get", "Net.Client.self"}},
		{"src/Repo.php", `<?php
class Repo {
    const LIMIT = 3;
    public function find($id) {
        return $this->load($id);
    }
}
function helper() {}
`, []string{"Repo", "Repo.LIMIT", "Repo.find", "helper"}},
		{"notes.txt", "def not_code(): pass\n", nil},
	}
	for _, tt := range tests {
		var got []string
		lang := defLangOf(tt.rel)
		if lang != nil {
			definitions(lang, []byte(tt.text), func(qual, name string) {
				if qual != "" {
					name = qual + "." + name
				}
				got = append(got, name)
			})
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("definitions(%s) = %q, want %q", tt.rel, got, tt.want)
		}
	}
}

// TestCDeclarationsAreNotDefinitions checks that a C prototype is no
// definition when its parameters run onto the next lines or a comment
// follows its ';': the header declares, the source file defines.
func TestCDeclarationsAreNotDefinitions(t *testing.T) {
	header := `bool reify_defaults(ast_t* typeparams, ast_t* typeargs, bool errors,
  pass_opt_t* opt);
int uv_read_start(uv_stream_t* s); /* starts reading */
static int
helper(int a,
       int b)
{
	return a;
}
`
	var got []string
	definitions(defLangOf("src/reify.h"), []byte(header), func(_, name string) { got = append(got, name) })
	if want := []string{"helper"}; !slices.Equal(got, want) {
		t.Errorf("definitions = %q, want %q", got, want)
	}
}

// TestDefTerms checks the terms a definition gives: the bare name and the
// qualified one, lower-case, under defPrefix.
func TestDefTerms(t *testing.T) {
	var got []string
	defTerms("m.py", []byte("class QuerySet:\n    def bulk_create(self):\n        pass\n"), func(term string) { got = append(got, strings.Clone(term)) })
	want := []string{"@queryset", "@bulkcreate", "@queryset.bulkcreate"}
	if !slices.Equal(got, want) {
		t.Errorf("defTerms = %q, want %q", got, want)
	}
	for _, term := range got {
		if strings.ContainsAny(term[1:], defPrefix) {
			t.Errorf("%q holds the prefix", term)
		}
	}
	got = nil
	defTerms("m.py", []byte("def ___():\n    pass\n"), func(term string) { got = append(got, strings.Clone(term)) })
	if len(got) != 0 {
		t.Errorf("a name of underscores gave %q", got)
	}
}

// TestScopedPathsAreDottedNames checks that a C++ or Rust path is read as a
// dotted name is (its last two parts a qualified name, "crate" its root)
// and that a pytest node after a file name is not one.
func TestScopedPathsAreDottedNames(t *testing.T) {
	evs, chains, _ := findEvidence("the usage from Command::override_usage was lost; crate::parser::Parser too")
	var keys []string
	for _, e := range evs {
		if e.kind == evDotted {
			keys = append(keys, e.key)
		}
	}
	for _, want := range []string{"command.overrideusage", "parser.parser"} {
		if !slices.Contains(keys, want) {
			t.Errorf("dotted evidence %q lacks %q", keys, want)
		}
	}
	if !slices.ContainsFunc(chains, func(c []string) bool { return slices.Equal(c, []string{"parser", "Parser"}) }) {
		t.Errorf("chains %q lack parser.Parser", chains)
	}
	evs, _, _ = findEvidence("failed: tests/test_x.py::TestX::test_y")
	for _, e := range evs {
		if e.kind == evDotted && strings.Contains(e.key, "testx") {
			t.Errorf("a pytest node gave %q", e.key)
		}
	}
}

// TestJavaInterfaceMethodsOverLinesAreDefinitions checks that the C rule
// for prototypes leaves a Java interface's methods, the API it defines,
// alone: Guice's LinkedBindingBuilder.toProvider is written over two lines.
func TestJavaInterfaceMethodsOverLinesAreDefinitions(t *testing.T) {
	src := `public interface LinkedBindingBuilder<T> {
  ScopedBindingBuilder toProvider(
      Provider<? extends T> provider);
}
`
	var got []string
	definitions(defLangOf("LinkedBindingBuilder.java"), []byte(src), func(qual, name string) { got = append(got, qual+"."+name) })
	if want := []string{".LinkedBindingBuilder", "LinkedBindingBuilder.toProvider"}; !slices.Equal(got, want) {
		t.Errorf("definitions = %q, want %q", got, want)
	}
}
