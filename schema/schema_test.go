package schema_test

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/taskctl/taskctl/internal/diag"
	"github.com/taskctl/taskctl/internal/xmltext"
	"github.com/taskctl/taskctl/schema"
)

// problems validates doc and returns its problems as "line:col: msg".
func problems(t *testing.T, s *schema.Schema, doc string) []string {
	t.Helper()
	err := s.Validate("t.xml", []byte(doc))
	if err == nil {
		return nil
	}
	var ve *schema.ValidationError
	if !errors.As(err, &ve) {
		t.Fatalf("Validate: %v (not a *ValidationError)", err)
	}
	var out []string
	for _, p := range ve.Problems {
		if p.File != "t.xml" || p.Line < 1 || p.Col < 1 || p.Message == "" {
			t.Errorf("bad problem %+v", p)
		}
		if msg := pointsAt([]byte(doc), p); msg != "" {
			t.Errorf("%s: %s", p, msg)
		}
		out = append(out, fmt.Sprintf("%d:%d: %s", p.Line, p.Col, p.Message))
	}
	return out
}

var update = flag.Bool("update", false, "rewrite ../testdata/*/invalid/*.want from the current output")

// corpus is the top-level testdata directory: the template and config
// corpora are shared with other packages' tests (template decodes every
// valid template too).
const corpus = "../testdata"

// schemas maps a corpus directory to its schema.
var schemas = map[string]*schema.Schema{"templates": schema.Template(), "configs": schema.Config()}

// TestInvalidDocuments validates every ../testdata/{templates,configs}/invalid/
// NAME.xml and compares all its problems, in order, with NAME.want
// ("line:col: message" a line). Columns count runes from 1. go test -update
// rewrites the .want files; check the positions by hand before committing.
func TestInvalidDocuments(t *testing.T) {
	n := 0
	for dir, s := range schemas {
		files, _ := filepath.Glob(filepath.Join(corpus, dir, "invalid", "*.xml"))
		for _, f := range files {
			n++
			t.Run(dir+"/"+strings.TrimSuffix(filepath.Base(f), ".xml"), func(t *testing.T) {
				data, err := os.ReadFile(f)
				if err != nil {
					t.Fatal(err)
				}
				got := strings.Join(problems(t, s, string(data)), "\n") + "\n"
				wantFile := strings.TrimSuffix(f, ".xml") + ".want"
				if *update {
					if err := os.WriteFile(wantFile, []byte(got), 0o644); err != nil {
						t.Fatal(err)
					}
					return
				}
				want, err := os.ReadFile(wantFile)
				if err != nil {
					t.Fatal(err)
				}
				if got != string(want) {
					t.Errorf("problems:\n%s\nwant:\n%s", got, want)
				}
			})
		}
	}
	if n < 40 {
		t.Fatalf("found only %d invalid documents under %s", n, corpus)
	}
}

func TestBigLineNumbers(t *testing.T) {
	doc := "<task>\n<description>x</description>" + strings.Repeat("\n", 70000) + "<oops/></task>"
	got := problems(t, schema.Template(), doc)
	if len(got) == 0 || !strings.HasPrefix(got[0], "70002:1: Element 'oops'") {
		t.Fatalf("got %q, want the problem on line 70002", got)
	}
	// A well-formedness error: libxml2's own position, past line 65535.
	doc = "<task>\n<description>x</description>" + strings.Repeat("\n", 70000) + "  </oops></task>"
	got = problems(t, schema.Template(), doc)
	if len(got) == 0 || !strings.HasPrefix(got[0], "70002:10: Opening and ending tag mismatch: task line 1 and oops") {
		t.Fatalf("got %q, want the tag mismatch on line 70002", got)
	}
	// A multi-byte line before the problem, past line 65535, in config.xml.
	doc = "<config>" + strings.Repeat("\n", 70000) + "<project><marker>日本語</marker></project><audit>ja</audit></config>"
	got = problems(t, schema.Config(), doc)
	if len(got) != 1 || !strings.HasPrefix(got[0], "70001:40: Element 'audit'") {
		t.Fatalf("got %q, want one problem at 70001:40", got)
	}
}

// TestProblemCap: 150 problems give the first 100, in document order, and
// a note with the exact count of the rest.
func TestProblemCap(t *testing.T) {
	for _, c := range []struct {
		s        *schema.Schema
		open     string
		item     string
		close    string
		col      int
		wantNote string
	}{
		{schema.Template(), "<tasks>\n", "<task type=\"bad\"><description>x</description></task>\n", "</tasks>\n", 7, "50 more problems not shown"},
		{schema.Config(), "<config><policy>\n", "<exclude></exclude>\n", "</policy></config>", 1, "50 more problems not shown"},
	} {
		got := problems(t, c.s, c.open+strings.Repeat(c.item, 150)+c.close)
		if len(got) != 101 {
			t.Fatalf("%s: %d problems, want 100 and a note", c.s.Name(), len(got))
		}
		for i, p := range got[:100] {
			if want := fmt.Sprintf("%d:%d: ", i+2, c.col); !strings.HasPrefix(p, want) {
				t.Fatalf("%s: problem %d is %q, want it at %s", c.s.Name(), i, p, want)
			}
		}
		if want := "101:" + fmt.Sprint(c.col) + ": " + c.wantNote; got[100] != want {
			t.Fatalf("%s: note %q, want %q", c.s.Name(), got[100], want)
		}
	}
	// 100 problems exactly: no note.
	got := problems(t, schema.Template(), "<tasks>"+strings.Repeat("<task type=\"bad\"><description>x</description></task>", 100)+"</tasks>")
	if len(got) != 100 || strings.Contains(got[99], "not shown") {
		t.Fatalf("100 problems gave %d, last %q", len(got), got[len(got)-1])
	}
}

func TestValidDocuments(t *testing.T) {
	files, _ := filepath.Glob("../examples/demo/.taskctl/tasks/*.xml")
	// schema-only: documents the schema accepts and taskctl's semantic
	// checks refuse (template's TestParseCorpus checks that half).
	for _, dir := range []string{"valid", "schema-only"} {
		more, _ := filepath.Glob(filepath.Join(corpus, "templates", dir, "*.xml"))
		files = append(files, more...)
	}
	if len(files) < 8 {
		t.Fatalf("found only %d example templates", len(files))
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if err := schema.Template().Validate(f, data); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
	cfgs, _ := filepath.Glob(filepath.Join(corpus, "configs", "valid", "*.xml"))
	if len(cfgs) == 0 {
		t.Fatal("no valid config under " + corpus)
	}
	for _, f := range cfgs {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if err := schema.Config().Validate(f, data); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
	cfg := "<config><policy><exclude>vendor/**</exclude><max_files>10</max_files></policy><assemble><tokenizer>cl100k_base</tokenizer></assemble><audit>true</audit></config>"
	if err := schema.Config().Validate("c.xml", []byte(cfg)); err != nil {
		t.Fatalf("config: %v", err)
	}
	if got := problems(t, schema.Config(), "<config>\n<policy><max_files>many</max_files></policy></config>"); len(got) != 1 || !strings.HasPrefix(got[0], "2:9: ") {
		t.Fatalf("config problem %q, want one at 2:9", got)
	}
	if !strings.Contains(string(schema.Template().Source()), `name="file_paths"`) ||
		!strings.Contains(string(schema.Config().Source()), `name="config"`) {
		t.Fatal("Source does not return the XSDs")
	}
}

func TestCompileErrors(t *testing.T) {
	const xs = "<xs:schema xmlns:xs=\"http://www.w3.org/2001/XMLSchema\">\n"
	inc := filepath.Join(t.TempDir(), "inc.xsd")
	if err := os.WriteFile(inc, []byte(xs+"<xs:element name=\"b\"/>\n</xs:schema>\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ xsd, want string }{
		{"", "schema bad.xsd: empty schema"},
		{"<xs:schema", "schema bad.xsd: schema does not compile; bad.xsd: Failed to parse"},
		{xs + "<xs:element name=\"a\" type=\"Nope\"/>\n</xs:schema>", "schema bad.xsd: schema does not compile; bad.xsd:2: element decl. 'a', attribute 'type': The QName value 'Nope' does not resolve"},
		// The entity loader refuses includes too: a well-formed schema on
		// disk is not read.
		{xs + "<xs:include schemaLocation=\"" + inc + "\"/>\n</xs:schema>", "schema bad.xsd: schema does not compile; bad.xsd:2: Element '{http://www.w3.org/2001/XMLSchema}include': Failed to parse the XML resource '" + inc + "'"},
	} {
		err := schema.CompileError("bad.xsd", []byte(c.xsd))
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("compile %.40q: %v, want prefix %q", c.xsd, err, c.want)
		}
	}
}

// listener listens on 127.0.0.1. accepted, called after the validations,
// accepts with a short deadline and returns how many connections were
// waiting: the kernel completes a TCP handshake without Accept, so any
// connect made during a validation (which has returned) is already queued.
func listener(t *testing.T) (addr string, accepted func() int) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	return ln.Addr().String(), func() int {
		n := 0
		for {
			ln.(*net.TCPListener).SetDeadline(time.Now().Add(200 * time.Millisecond))
			c, err := ln.Accept()
			if err != nil {
				var ne net.Error
				if !errors.As(err, &ne) || !ne.Timeout() {
					t.Fatalf("accept: %v", err)
				}
				return n
			}
			n++
			c.Close()
		}
	}
}

// TestListenerCounts shows the listener sees a connection, so that its zero
// in the tests below means something.
func TestListenerCounts(t *testing.T) {
	addr, accepted := listener(t)
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if n := accepted(); n != 1 {
		t.Fatalf("accepted %d, want 1", n)
	}
}

func TestNoExternalAccess(t *testing.T) {
	addr, accepted := listener(t)
	secret, err := os.ReadFile("/etc/passwd")
	if err != nil {
		t.Skip("no /etc/passwd to leak")
	}
	firstLine := strings.SplitN(string(secret), "\n", 2)[0]
	docs := map[string]string{
		"xxe file":      "<?xml version=\"1.0\"?>\n<!DOCTYPE task [<!ENTITY x SYSTEM \"file:///etc/passwd\">]>\n<task><description>&x;</description></task>",
		"xxe http":      "<!DOCTYPE task [<!ENTITY x SYSTEM \"http://" + addr + "/x\">]>\n<task><description>&x;</description></task>",
		"external dtd":  "<!DOCTYPE task SYSTEM \"http://" + addr + "/x.dtd\">\n<task><description>x</description></task>",
		"parameter ent": "<!DOCTYPE task [<!ENTITY % p SYSTEM \"http://" + addr + "/p\"> %p;]>\n<task><description>x</description></task>",
		"schema hint":   "<task xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" xsi:noNamespaceSchemaLocation=\"http://" + addr + "/evil.xsd\"><description>x</description></task>",
		"xinclude":      "<task xmlns:xi=\"http://www.w3.org/2001/XInclude\"><description>x</description><xi:include href=\"http://" + addr + "/i.xml\"/></task>",
	}
	for name, doc := range docs {
		err := schema.Template().Validate("t.xml", []byte(doc))
		msg := fmt.Sprint(err)
		if strings.Contains(msg, firstLine) {
			t.Errorf("%s: a message holds /etc/passwd: %s", name, msg)
		}
		if strings.HasPrefix(name, "xxe") || strings.HasPrefix(name, "external") || strings.HasPrefix(name, "parameter") {
			line := "1"
			if name == "xxe file" {
				line = "2"
			}
			if !strings.HasPrefix(msg, "t.xml:"+line+":1: DOCTYPE is not allowed") {
				t.Errorf("%s: %v, want the DOCTYPE refused", name, err)
			}
		}
		if name == "xinclude" && err == nil {
			t.Errorf("%s: accepted an xi:include element", name)
		}
	}
	if n := accepted(); n != 0 {
		t.Fatalf("the listener got %d connection(s): validation touched the network", n)
	}
}

// billionLaughs is the classic entity bomb: 10^9 "lol"s from 1 KiB.
var billionLaughs = func() string {
	var b strings.Builder
	b.WriteString("<?xml version=\"1.0\"?>\n<!DOCTYPE lolz [\n<!ENTITY lol \"lol\">\n")
	prev := "lol"
	for i := 1; i <= 9; i++ {
		name := fmt.Sprintf("lol%d", i)
		fmt.Fprintf(&b, "<!ENTITY %s \"%s\">\n", name, strings.Repeat("&"+prev+";", 10))
		prev = name
	}
	b.WriteString("]>\n<task><description>&lol9;</description></task>\n")
	return b.String()
}()

// xxeFile reads /etc/passwd if external entities are loaded.
const xxeFile = "<?xml version=\"1.0\"?>\n<!DOCTYPE task [<!ENTITY x SYSTEM \"file:///etc/passwd\">]>\n<task><description>&x;</description></task>"

func TestEntityBombRefused(t *testing.T) {
	got := problems(t, schema.Template(), billionLaughs)
	if len(got) != 1 || !strings.HasPrefix(got[0], "2:1: DOCTYPE is not allowed") {
		t.Fatalf("got %q, want the DOCTYPE refused at 2:1", got)
	}
}

// TestLibxml2Defences sends DOCTYPEs straight to libxml2, past the Go-side
// refusal, to show the second line holds: no entity is loaded or expanded,
// and the DTD is still refused.
func TestLibxml2Defences(t *testing.T) {
	secret, err := os.ReadFile("/etc/passwd")
	if err != nil || len(secret) < 8 {
		t.Skip("no /etc/passwd")
	}
	firstLine := strings.SplitN(string(secret), "\n", 2)[0]
	addr, accepted := listener(t)
	for name, doc := range map[string]string{
		"billion laughs": billionLaughs,
		"xxe file":       xxeFile,
		"xxe http":       "<!DOCTYPE task [<!ENTITY x SYSTEM \"http://" + addr + "/x\">]><task><description>&x;</description></task>",
		"external dtd":   "<!DOCTYPE task SYSTEM \"http://" + addr + "/x.dtd\"><task><description>x</description></task>",
		"parameter":      "<!DOCTYPE task [<!ENTITY % p SYSTEM \"http://" + addr + "/p\"> %p;]><task><description>x</description></task>",
	} {
		msgs, dtd, err := schema.ValidateInC(schema.Template(), []byte(doc))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if strings.Contains(strings.Join(msgs, "\n"), firstLine) {
			t.Errorf("%s: /etc/passwd in a message: %q", name, msgs)
		}
		if name != "billion laughs" && !dtd {
			t.Errorf("%s: %q, the DTD not flagged", name, msgs)
		}
		if name == "billion laughs" && (len(msgs) == 0 || !strings.Contains(msgs[0], "entity reference loop")) {
			t.Errorf("%s: %q, want libxml2's entity loop refusal", name, msgs)
		}
	}
	if n := accepted(); n != 0 {
		t.Fatalf("the listener got %d connection(s)", n)
	}
	// Through Validate a DTD found only by libxml2 is refused all the same.
	err = schema.Template().Validate("t.xml", []byte("\xef\xbb\xbf<!DOCTYPE task><task><description>x</description></task>"))
	if err == nil || !strings.Contains(err.Error(), "DOCTYPE is not allowed") {
		t.Fatalf("%v, want the DOCTYPE refused", err)
	}
}

// TestLongAttributeNoCrash is the input that crashes lestrrat-go/libxml2's
// validation path (a SIGSEGV in its fixed-size error buffer): it must give
// one bounded message.
func TestLongAttributeNoCrash(t *testing.T) {
	doc := func(n int) string {
		return "<task name=\"" + strings.Repeat("a", n) + "\"><description>x</description></task>"
	}
	check := func(n int, err error) {
		t.Helper()
		var ve *schema.ValidationError
		if !errors.As(err, &ve) || len(ve.Problems) != 1 {
			t.Fatalf("n=%d: %.300v, want one problem", n, err)
		}
		p := ve.Problems[0]
		if !strings.HasPrefix(p.Message, "Element 'task', attribute 'name'") || p.Line != 1 || p.Col != 7 {
			t.Fatalf("n=%d: %d:%d: %.300s, want 1:7 about the name", n, p.Line, p.Col, p.Message)
		}
		if len(p.Message) > 500 || len(err.Error()) > 520 {
			t.Fatalf("n=%d: message of %d bytes, want it bounded", n, len(p.Message))
		}
	}
	for _, n := range []int{2000, 20000, 1000000} {
		check(n, schema.Template().Validate("t.xml", []byte(doc(n))))
	}
	// 2,000,000 characters are over MaxInput: refused before libxml2, and
	// sent through libxml2 all the same with a larger limit.
	big := []byte(doc(2000000))
	got := problems(t, schema.Template(), string(big))
	if len(got) != 1 || !strings.HasPrefix(got[0], "1:1: document is 2000049 bytes; the limit is 1048576") {
		t.Fatalf("over MaxInput: %q", got)
	}
	check(2000000, schema.ValidateWithLimit(schema.Template(), "t.xml", big, 4<<20))
}

// TestSizeLimit: a valid document of exactly MaxInput bytes passes; one
// byte more is refused before libxml2.
func TestSizeLimit(t *testing.T) {
	head, tail := "<task><description>", "</description></task>"
	doc := []byte(head + strings.Repeat("x", schema.MaxInput-len(head)-len(tail)) + tail)
	if len(doc) != schema.MaxInput {
		t.Fatalf("built %d bytes", len(doc))
	}
	if err := schema.Template().Validate("t.xml", doc); err == nil || !strings.Contains(err.Error(), "[facet 'maxLength']") {
		// 1 MiB of description is over the 64 KiB maxLength: libxml2 saw it.
		t.Fatalf("MaxInput bytes: %v, want libxml2's maxLength problem", err)
	}
	cfg := []byte("<config>" + strings.Repeat(" ", schema.MaxInput-len("<config></config>")) + "</config>")
	if err := schema.Config().Validate("c.xml", cfg); err != nil {
		t.Fatalf("valid config of MaxInput bytes: %v", err)
	}
	cfg = append(cfg, '\n')
	got := problems(t, schema.Config(), string(cfg))
	if want := fmt.Sprintf("1:1: document is %d bytes; the limit is %d", schema.MaxInput+1, schema.MaxInput); len(got) != 1 || got[0] != want {
		t.Fatalf("MaxInput+1 bytes: %q, want %q", got, want)
	}
}

// TestExternalEntityLoader proves the process-wide loader is in place: even
// asked directly, it opens neither a file nor a URL.
func TestExternalEntityLoader(t *testing.T) {
	addr, accepted := listener(t)
	for _, url := range []string{"file:///etc/passwd", "/etc/passwd", "http://" + addr + "/x.dtd", "ftp://" + addr + "/x"} {
		if !schema.LoaderRefuses(url) {
			t.Errorf("the external entity loader opened %s", url)
		}
	}
	if n := accepted(); n != 0 {
		t.Fatalf("the listener got %d connection(s)", n)
	}
}

func TestConcurrentValidation(t *testing.T) {
	good := []byte("<task name=\"a\"><description>x</description><file_paths><path>p</path></file_paths></task>")
	bad := []byte("<task name=\"a\">\n<oops/></task>")
	cfg := []byte("<config>\n <audit>maybe</audit></config>")
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for g := range 32 {
		wg.Go(func() {
			for i := range 200 {
				if (g+i)%2 == 0 {
					if err := schema.Template().Validate("g.xml", good); err != nil {
						errs <- err
						return
					}
				} else {
					err := schema.Template().Validate("b.xml", bad)
					var ve *schema.ValidationError
					if !errors.As(err, &ve) || len(ve.Problems) != 1 || ve.Problems[0].Line != 2 || ve.Problems[0].Col != 1 {
						errs <- fmt.Errorf("bad doc: %v", err)
						return
					}
					err = schema.Config().Validate("c.xml", cfg)
					if !errors.As(err, &ve) || len(ve.Problems) != 1 || ve.Problems[0].Line != 2 || ve.Problems[0].Col != 2 {
						errs <- fmt.Errorf("bad config: %v", err)
						return
					}
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
}

// TestNothingOnStderr runs the hostile documents in a child process and
// checks libxml2 printed nothing to the process's stderr.
func TestNothingOnStderr(t *testing.T) {
	if os.Getenv("TASKCTL_SCHEMA_CHILD") == "1" {
		for _, doc := range []string{
			"<task><description>x</descriptio></task>",
			"<!DOCTYPE t [<!ENTITY a \"&b;\"><!ENTITY b \"&a;\">]><task><description>&a;</description></task>",
			"<task name=\"" + strings.Repeat("z", 30000) + "\"><description>x</description></task>",
			"\x00\x01\x02",
			"<task><description>x</description><oops/></task>",
			"<?xml version=\"1.1\"?><x:task><description>\xc3</description></x:task>",
			"<task name=\"" + strings.Repeat("z", 2000000) + "\"><description>x</description></task>",
			"<?xml version=\"1.1\"?><task xml:space=\"bogus\"><description>x</description></task>",
			"<?xml version=\"1.0\" encoding=\"bogus\"?><task/>",
			"<task xmlns:xi=\"http://www.w3.org/2001/XInclude\"><xi:include href=\"file:///etc/passwd\"/></task>",
			"<!DOCTYPE task SYSTEM \"http://127.0.0.1:9/x.dtd\"><task/>",
			"<!DOCTYPE task [<!ENTITY % p SYSTEM \"http://127.0.0.1:9/p\"> %p;]><task/>",
			"<tasks>" + strings.Repeat("<task type=\"bad\"><description>x</description></task>", 500) + "</tasks>",
			strings.Repeat("<a>", 1000),
			billionLaughs,
			xxeFile,
		} {
			schema.Template().Validate("c.xml", []byte(doc))
			schema.Config().Validate("c.xml", []byte(doc))
			schema.ValidateInC(schema.Template(), []byte(doc)) // DTDs reach libxml2
			schema.ValidateWithLimit(schema.Template(), "c.xml", []byte(doc), 4<<20)
		}
		schema.LoaderRefuses("file:///etc/passwd")
		schema.CompileError("bad.xsd", []byte("<xs:schema"))
		schema.CompileError("bad.xsd", []byte("<xs:schema xmlns:xs=\"http://www.w3.org/2001/XMLSchema\"><xs:include schemaLocation=\"/etc/passwd\"/></xs:schema>"))
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestNothingOnStderr$")
	cmd.Env = append(os.Environ(), "TASKCTL_SCHEMA_CHILD=1")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("child: %v\n%s", err, stderr.String())
	}
	if stderr.Len() != 0 {
		t.Fatalf("libxml2 wrote to stderr:\n%s", stderr.String())
	}
}

func FuzzValidate(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join(corpus, "*", "*", "*.xml"))
	if len(files) < 40 {
		f.Fatalf("found only %d seeds under %s", len(files), corpus)
	}
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte("<!DOCTYPE x><task/>"))
	f.Fuzz(func(t *testing.T, data []byte) {
		err := schema.Template().Validate("f.xml", data)
		if err == nil {
			return
		}
		var ve *schema.ValidationError
		if !errors.As(err, &ve) {
			t.Fatalf("not a ValidationError: %v", err)
		}
		if len(ve.Problems) == 0 {
			t.Fatal("invalid with no problem")
		}
		for _, p := range ve.Problems {
			if p.Line < 1 || p.Col < 1 || p.Message == "" || len(p.Message) > 500 || strings.ContainsAny(p.Message, "\n\r") {
				t.Fatalf("bad problem %+v", p)
			}
			if msg := pointsAt(data, p); msg != "" {
				t.Fatalf("%s: %s", p, msg)
			}
		}
		if len(ve.Problems) > 101 {
			t.Fatalf("%d problems, want at most 100 and a note", len(ve.Problems))
		}
	})
}

func BenchmarkValidate(b *testing.B) {
	data, err := os.ReadFile("../examples/demo/.taskctl/tasks/fix-login.xml")
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if err := schema.Template().Validate("f.xml", data); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkValidateManyProblems is a document of nearly 1 MiB with 19,000 problems:
// it stays linear because libxml2 is given no document URL (with one, 2.9
// walks back over every earlier node for each error it raises).
func BenchmarkValidateManyProblems(b *testing.B) {
	data := []byte("<tasks>" + strings.Repeat("<task type=\"bad\"><description>x</description></task>\n", 19000) + "</tasks>")
	for b.Loop() {
		if schema.Template().Validate("f.xml", data) == nil {
			b.Fatal("valid")
		}
	}
}

// BenchmarkValidateOneLongLine is a one-line document of 900 KB, mostly
// multi-byte text, with 150 problems at its end: positions are counted in
// one pass, not once per problem (375 ms/op before, 19 ms/op after).
func BenchmarkValidateOneLongLine(b *testing.B) {
	pad := "<task name=\"p\"><description>" + strings.Repeat("日", 300000) + "</description></task>"
	data := []byte("<tasks>" + pad + strings.Repeat("<task type=\"bad\"><description>x</description></task>", 150) + "</tasks>")
	for b.Loop() {
		if schema.Template().Validate("f.xml", data) == nil {
			b.Fatal("valid")
		}
	}
}

// elementMsg matches a validity message about an element, and about one of
// its attributes.
var elementMsg = regexp.MustCompile(`^Element '(?:\{[^}]*\})?([^']+)'(?:, attribute '(?:\{[^}]*\})?([^']+)')?`)

// pointsAt checks that a validity problem is where the package promises: at
// the '<' of the element it names, or at the attribute it names in that
// start tag. It returns what is wrong, or "".
func pointsAt(data []byte, p diag.Problem) string {
	m := elementMsg.FindStringSubmatch(p.Message)
	if m == nil {
		return ""
	}
	// Find the byte offset of line:col in the text as the package decodes
	// it (columns count runes; a leading BOM is not counted).
	if text, err := xmltext.Decode(data); err == nil {
		data = text
	}
	lines := bytes.SplitAfter(bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")), []byte("\n"))
	if p.Line > len(lines) {
		return "line past the end"
	}
	rest := lines[p.Line-1]
	for range p.Col - 1 {
		if len(rest) == 0 {
			return "column past the end of the line"
		}
		_, n := utf8.DecodeRune(rest)
		rest = rest[n:]
	}
	name := []byte(m[1])
	if m[2] != "" && !bytes.HasPrefix(rest, []byte("<")) {
		name = []byte(m[2]) // at the attribute
	} else if !bytes.HasPrefix(rest, []byte("<")) {
		return fmt.Sprintf("not at a '<' but at %.20q", rest)
	} else {
		rest = rest[1:]
	}
	if i := bytes.IndexAny(rest, " \t\r\n=/>"); i >= 0 {
		rest = rest[:i]
	}
	// The message names the local part; the document may have a prefix.
	_, local, _ := bytes.Cut(rest, []byte(":"))
	if !bytes.Equal(rest, name) && !bytes.Equal(local, name) {
		return fmt.Sprintf("at %q, want %q", rest, name)
	}
	return ""
}

// TestParseOptions: the options the document parser passes through
// lestrrat-go/libxml2 are libxml2's NONET, BIG_LINES, NOWARNING and
// IGNORE_ENC, bit for bit: none that loads or expands anything.
func TestParseOptions(t *testing.T) {
	wrapper, libxml2 := schema.ParseOptions()
	if wrapper != libxml2 {
		t.Fatalf("the parser passes options %#x, want libxml2's %#x", wrapper, libxml2)
	}
}
