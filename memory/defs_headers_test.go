package memory

import (
	"reflect"
	"slices"
	"testing"
)

// headerSamples are classes whose parameters or bases run over several
// lines (Kotlin's and Scala's constructors, Python's bases, Scala's
// "with" and Java's "implements" indented deeper than the members): the
// class is defined once, its members inside it, its unit from its header
// to its first member; a constructor's properties (Kotlin's "val") are
// its members, defined on its first line.
var headerSamples = []struct {
	rel, text string
	want      []string // "name" or "Scope.name"
	units     []unit   // cutUnits of the text
}{
	{"app/src/main/kotlin/MemoryCache.kt", `class MemoryCache(
    @get:JvmName("maxSize") val maxSize: Int,
    private val clock: Clock,
) : Cache {
    private val entries = LinkedHashMap<String, Entry>()

    override fun get(key: String): Entry? = entries[key]

    class Builder {
        fun build() = MemoryCache(64, Clock.System)
    }
}
`, []string{"MemoryCache", "MemoryCache.maxSize", "MemoryCache.clock", "MemoryCache.entries", "MemoryCache.get",
		"MemoryCache.Builder", "MemoryCache.Builder.build"},
		[]unit{{0, 4, "MemoryCache"}, {4, 6, "MemoryCache.entries"}, {6, 8, "MemoryCache.get"},
			{8, 9, "MemoryCache.Builder"}, {9, 12, "MemoryCache.Builder.build"}}},
	{"core/src/main/scala/Ior.scala", `final case class Ior[A, B](
  left: A,
  right: B
) extends Product {
  def swap: Ior[B, A] = Ior(right, left)
}

object Ior {
  def both[A, B](a: A, b: B): Ior[A, B] = Ior(a, b)
}
`, []string{"Ior", "Ior.swap", "Ior", "Ior.both"},
		[]unit{{0, 4, "Ior"}, {4, 7, "Ior.swap"}, {7, 8, "Ior"}, {8, 10, "Ior.both"}}},
	{"core/src/main/scala/Instances.scala", `abstract class NonEmptyInstances[F[_]](implicit MF: Monad[F])
    extends Bimonad[F]
    with NonEmptyTraverse[F] {

  private val monad = MF

  def pure[A](x: A): F[A] = monad.pure(x)
}
`, []string{"NonEmptyInstances", "NonEmptyInstances.monad", "NonEmptyInstances.pure"},
		[]unit{{0, 4, "NonEmptyInstances"}, {4, 6, "NonEmptyInstances.monad"}, {6, 8, "NonEmptyInstances.pure"}}},
	{"src/com/example/LinkedBinding.java", `class LinkedBinding extends AbstractBinding<Key<?>>
    implements Binding {

  LinkedBinding(
      Map<String, String> params,
      Key<?> target) {
    super(params, target);
  }

  @Override
  public Key<?> getLinkedKey() {
    return getTarget();
  }
}
`, []string{"LinkedBinding", "LinkedBinding.LinkedBinding", "LinkedBinding.getLinkedKey"},
		[]unit{{0, 3, "LinkedBinding"}, {3, 9, "LinkedBinding.LinkedBinding"}, {9, 14, "LinkedBinding.getLinkedKey"}}},
	{"pkg/pool.py", `class Pool(
    Base,
    Mixin,
):
    size = 4

    def acquire(self):
        return None
`, []string{"Pool", "Pool.acquire"},
		[]unit{{0, 6, "Pool"}, {6, 8, "Pool.acquire"}}},
}

// TestMultiLineHeaders checks the definitions and units of classes whose
// headers run over several lines: the line that closes the header is not
// a line of the enclosing scope (it closed the class, and its members were
// read without it), and a constructor's properties do not cut its unit.
func TestMultiLineHeaders(t *testing.T) {
	for _, tt := range headerSamples {
		var got []string
		definitions(defLangOf(tt.rel), []byte(tt.text), func(qual, name string) { got = append(got, qualified(qual, name)) })
		if !slices.Equal(got, tt.want) {
			t.Errorf("definitions(%s) =\n%q\nwant\n%q", tt.rel, got, tt.want)
		}
		starts := []int{0}
		for i := 0; i+1 < len(tt.text); i++ {
			if tt.text[i] == '\n' {
				starts = append(starts, i+1)
			}
		}
		if units := cutUnits(tt.rel, []byte(tt.text), starts); !reflect.DeepEqual(units, tt.units) {
			t.Errorf("cutUnits(%s) =\n%v\nwant\n%v", tt.rel, units, tt.units)
		}
	}
}

// TestRecordReturnTypes checks that a Dart function returning a record,
// "(int, String) parse(…)" or "Future<(int, int)> size()", is defined by
// its name: the parentheses at the start of the line or inside a type's
// angle brackets are its return type, and its parameters open after them;
// and that a getter ("(int, int) get position =>") is defined by its name.
func TestRecordReturnTypes(t *testing.T) {
	text := `(int, String) parse(String line) {
  return (0, line);
}

class Reader {
  Future<(int, int)> size() async => (0, 0);
  static (bool, {String reason}) check(Object o) => (true, reason: '');
  (int, int) get position => (0, 0);
}
`
	var got []string
	definitions(defLangOf("lib/reader.dart"), []byte(text), func(qual, name string) { got = append(got, qualified(qual, name)) })
	if want := []string{"parse", "Reader", "Reader.size", "Reader.check", "Reader.position"}; !slices.Equal(got, want) {
		t.Errorf("definitions = %q, want %q", got, want)
	}
}

// TestUnnamedScopes checks scopes that define no name of their own:
// Dart's "extension on Stream {" (it defined "on"), whose members are the
// type's, and Elixir's defimpl, whose functions are the type's after
// "for:" (or the enclosing module's).
func TestUnnamedScopes(t *testing.T) {
	for _, tt := range []struct {
		rel, text string
		want      []string
	}{
		{"lib/src/stream.dart", "extension on Stream<int> {\n  int total() => 0;\n}\n\nextension Sizes on List<int> {\n  int size() => length;\n}\n",
			[]string{"Stream.total", "Sizes", "Sizes.size"}},
		{"lib/app/git.ex", `defimpl App.FileSystem, for: App.FileSystem.Git do
  def type(_fs), do: :git
end

defmodule App.Runtime.Noop do
  defimpl App.Runtime do
    def connect(runtime), do: runtime
  end
end
`, []string{"Git.type", "Noop", "Noop.connect"}},
	} {
		var got []string
		definitions(defLangOf(tt.rel), []byte(tt.text), func(qual, name string) { got = append(got, qualified(qual, name)) })
		if !slices.Equal(got, tt.want) {
			t.Errorf("definitions(%s) = %q, want %q", tt.rel, got, tt.want)
		}
	}
}

// TestKotlinAndScalaScopes checks scopes the Kotlin and Scala readers
// lost: a class named in backquotes (moshi's internal "`-JsonUtf8Reader`"),
// a constructor on the line below its class, a raw string whose lines
// start at the margin (they closed the class), Scala's package object.
func TestKotlinAndScalaScopes(t *testing.T) {
	for _, tt := range []struct {
		rel, text string
		want      []string
	}{
		{"src/main/java/Reader.kt", `internal class ` + "`-JsonUtf8Reader`" + ` : JsonReader {
  fun peek(): Token = Token.BEGIN
}

internal abstract class CollectionAdapter<C : MutableCollection<T?>, T>
private constructor(private val elementAdapter: JsonAdapter<T?>) : JsonAdapter<C?>() {
  abstract fun newCollection(): C
}

class CacheTest {
  fun golden() {
    val journal = """
libcore.io.DiskLruCache
fun notADefinition() {
"""
  }

  fun ` + "`reads a null`" + `() {}

  fun after() {}
}
`, []string{"JsonUtf8Reader", "JsonUtf8Reader.peek", "CollectionAdapter", "CollectionAdapter.newCollection",
			"CacheTest", "CacheTest.golden", "CacheTest.after"}},
		{"core/src/main/scala/cats/syntax/package.scala", "package cats\n\npackage object syntax {\n  object align extends AlignSyntax\n}\n",
			[]string{"syntax", "syntax.align"}},
	} {
		var got []string
		definitions(defLangOf(tt.rel), []byte(tt.text), func(qual, name string) { got = append(got, qualified(qual, name)) })
		if !slices.Equal(got, tt.want) {
			t.Errorf("definitions(%s) =\n%q\nwant\n%q", tt.rel, got, tt.want)
		}
	}
}
