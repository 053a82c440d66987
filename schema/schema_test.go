package schema_test

import (
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

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
		if p.File != "t.xml" || p.Line < 1 || p.Col < 1 || p.Msg == "" {
			t.Errorf("bad problem %+v", p)
		}
		out = append(out, fmt.Sprintf("%d:%d: %s", p.Line, p.Col, p.Msg))
	}
	return out
}

// positionCases are invalid templates and the exact position and the start
// of the message of their first problem ("line:col: message prefix").
// Columns count runes from 1. FuzzValidate is seeded with them.
var positionCases = []struct {
	name, doc, want string
}{
	{"unknown element", "<task name=\"a\">\n  <description>x</description>\n  <oops/>\n</task>", "3:3: Element 'oops': This element is not expected"},
	{"bad enum attribute", "<task name=\"a\">\n  <description>x</description>\n  <file_paths source=\"bogus\"><path>p</path></file_paths>\n</task>", "3:15: Element 'file_paths', attribute 'source'"},
	{"missing description", "<task name=\"a\">\n  <file_paths><path>p</path></file_paths>\n</task>", "2:3: Element 'file_paths': This element is not expected. Expected is ( description )"},
	{"wrong order", "<task>\n <description>x</description>\n <inputs><input name=\"a\"/></inputs>\n <instructions>i</instructions>\n</task>", "4:2: Element 'instructions': This element is not expected"},
	{"bad integer", "<task><description>x</description>\n<file_paths source=\"description\" limit=\"ten\"><description>d</description></file_paths></task>", "2:34: Element 'file_paths', attribute 'limit'"},
	{"tag mismatch", "<task name=\"a\">\n  <description>x</descriptio>\n</task>", "2:30: Opening and ending tag mismatch"},
	{"unclosed root", "<task name=\"a\">\n  <description>x</description>\n", "3:1: Premature end of data in tag task line 1"},
	{"empty", "", "1:1: document is empty"},
	{"whitespace only", "  \n\t\n", "1:1: document is empty"},
	{"garbage after a UTF-16 mark", "\xff\xfe\x00garbage", "1:1: document looks UTF-16"},
	{"multibyte before error", "<task>\n  <description>日本語 x</description><file_paths source=\"bad\"><path>x</path></file_paths></task>", "2:47: Element 'file_paths', attribute 'source'"},
	{"bom then error", "\xef\xbb\xbf<task><oops/></task>", "1:7: Element 'oops'"},
	{"bad name", "<task name=\"1bad\"><description>x</description></task>", "1:7: Element 'task', attribute 'name'"},
	{"wrong root", "<config/>", "1:1: Element 'config': No matching global declaration available for the validation root"},
	{"empty task, description missing", "<task name=\"a\">\n</task>", "1:1: Element 'task': Missing child element(s). Expected is ( description )"},
	{"required attribute missing", "<task><description>x</description><inputs>\n  <input/></inputs></task>", "2:3: Element 'input': The attribute 'name' is required but missing"},
	{"attribute name inside another value", "<task subtype=\" name=x\" name=\"1bad\"><description>x</description></task>", "1:25: Element 'task', attribute 'name'"},
	{"namespaced attribute", "<task xmlns:x=\"urn:x\" x:foo=\"1\"><description>x</description></task>", "1:23: Element 'task', attribute '{urn:x}foo'"},
	{"attribute on a later line", "<task\n   foo=\"1\"><description>x</description></task>", "2:4: Element 'task', attribute 'foo'"},
	{"garbage without markup", "\x80\x81garbage<task/>", "1:1: Start tag expected"},
	{"latin-1 byte", "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>\n<task><description>caf\xe9</description></task>", "2:23: invalid UTF-8; templates must be UTF-8"},
	{"utf-16", "\xff\xfe<\x00t\x00/\x00>\x00", "1:1: document looks UTF-16 or UTF-32 encoded"},
	{"undefined entity", "<task><description>&nbsp;</description></task>", "1:26: Entity 'nbsp' not defined"},
	{"NUL character", "<task><description>x\x00</description></task>", "1:21: Char 0x0 out of allowed range"},
	{"text in element-only content", "<task>\nhello<description>x</description></task>", "1:1: Element 'task': Character content other than whitespace"},
	{"empty path", "<task><description>x</description>\n<file_paths><path/></file_paths></task>", "2:13: Element 'path': [facet 'minLength']"},
	{"doctype after comments", "<!-- hi -->\n<?pi x?>\n<!DOCTYPE task>\n<task><description>x</description></task>", "3:1: DOCTYPE is not allowed"},
}

func TestPositions(t *testing.T) {
	for _, c := range positionCases {
		t.Run(c.name, func(t *testing.T) {
			got := problems(t, schema.Template(), c.doc)
			if len(got) == 0 {
				t.Fatalf("valid, want %q", c.want)
			}
			if !strings.HasPrefix(got[0], c.want) {
				t.Fatalf("first problem %q, want prefix %q (all: %q)", got[0], c.want, got)
			}
		})
	}
}

func TestBigLineNumbers(t *testing.T) {
	doc := "<task>\n<description>x</description>" + strings.Repeat("\n", 70000) + "<oops/></task>"
	got := problems(t, schema.Template(), doc)
	if len(got) == 0 || !strings.HasPrefix(got[0], "70002:1: Element 'oops'") {
		t.Fatalf("got %q, want the problem on line 70002", got)
	}
}

func TestSeveralProblemsAndCap(t *testing.T) {
	two := "<task name=\"a\" type=\"weird\">\n<description>x</description>\n<file_paths source=\"no\"><path>p</path></file_paths>\n</task>"
	got := problems(t, schema.Template(), two)
	if len(got) != 2 || !strings.HasPrefix(got[0], "1:16: ") || !strings.HasPrefix(got[1], "3:13: ") {
		t.Fatalf("got %q, want two problems at 1:16 and 3:13", got)
	}
	var b strings.Builder
	b.WriteString("<tasks>\n")
	for range 150 {
		b.WriteString("<task type=\"bad\"><description>x</description></task>\n")
	}
	b.WriteString("</tasks>\n")
	got = problems(t, schema.Template(), b.String())
	if len(got) != 101 || !strings.Contains(got[100], "more problems not shown") {
		t.Fatalf("got %d problems, last %q; want 100 and a note", len(got), got[len(got)-1])
	}
}

func TestValidDocuments(t *testing.T) {
	files, _ := filepath.Glob("../examples/demo/.taskctl/tasks/*.xml")
	files2, _ := filepath.Glob("testdata/valid/*.xml")
	files = append(files, files2...)
	if len(files) < 3 {
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

// listener accepts connections on 127.0.0.1 and counts them.
func listener(t *testing.T) (addr string, count func() int) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	n := 0
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			n++
			mu.Unlock()
			c.Close()
		}
	}()
	t.Cleanup(func() { ln.Close() })
	return ln.Addr().String(), func() int {
		time.Sleep(50 * time.Millisecond)
		mu.Lock()
		defer mu.Unlock()
		return n
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
			if !strings.Contains(msg, "DOCTYPE is not allowed") {
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
		if !strings.HasPrefix(p.Msg, "Element 'task', attribute 'name'") || p.Line != 1 || p.Col != 7 {
			t.Fatalf("n=%d: %d:%d: %.300s, want 1:7 about the name", n, p.Line, p.Col, p.Msg)
		}
		if len(p.Msg) > 600 {
			t.Fatalf("n=%d: message of %d bytes, want it bounded", n, len(p.Msg))
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
					if !errors.As(err, &ve) || ve.Problems[0].Line != 2 || ve.Problems[0].Col != 1 {
						errs <- fmt.Errorf("bad doc: %v", err)
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
			"<tasks>" + strings.Repeat("<task type=\"bad\"><description>x</description></task>", 500) + "</tasks>",
			strings.Repeat("<a>", 1000),
			billionLaughs,
			xxeFile,
		} {
			schema.Template().Validate("c.xml", []byte(doc))
			schema.Config().Validate("c.xml", []byte(doc))
			schema.ValidateInC(schema.Template(), []byte(doc)) // DTDs reach libxml2
		}
		schema.LoaderRefuses("file:///etc/passwd")
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
	for _, c := range positionCases {
		f.Add([]byte(c.doc))
	}
	files, _ := filepath.Glob("testdata/valid/*.xml")
	for _, file := range files {
		if data, err := os.ReadFile(file); err == nil {
			f.Add(data)
		}
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
			if p.Line < 1 || p.Col < 1 || p.Msg == "" || len(p.Msg) > 600 || strings.ContainsAny(p.Msg, "\n\r") {
				t.Fatalf("bad problem %+v", p)
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
