package diag_test

import (
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"strconv"
	"strings"
	"testing"

	"github.com/taskctl/taskctl/internal/diag"
)

// TestRegistry: every Code constant of codes.go is in Codes once, with its
// doc comment (less the name) as its description, and its value is the
// upper-case form of its name (PathNotFound is PATH_NOT_FOUND), so a
// reader can go from either to the other.
func TestRegistry(t *testing.T) {
	f, err := parser.ParseFile(token.NewFileSet(), "codes.go", nil, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	docs := map[diag.Code]string{}
	var order []diag.Code
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.CONST {
			continue
		}
		for _, s := range g.Specs {
			vs := s.(*ast.ValueSpec)
			name := vs.Names[0].Name
			lit, ok := vs.Values[0].(*ast.BasicLit)
			if !ok {
				t.Fatalf("%s: value is not a literal", name)
			}
			v, _ := strconv.Unquote(lit.Value)
			if want := upperSnake(name); v != want {
				t.Errorf("%s = %q, want %q", name, v, want)
			}
			doc := strings.TrimSpace(vs.Doc.Text())
			desc, ok := strings.CutPrefix(doc, name+": ")
			if !ok || strings.Contains(desc, "\n") {
				t.Errorf("%s: doc comment %q is not one line \"%s: ...\"", name, doc, name)
			}
			docs[diag.Code(v)] = desc
			order = append(order, diag.Code(v))
		}
	}
	codes := diag.Codes()
	if len(codes) != len(order) {
		t.Errorf("Codes() has %d codes, codes.go declares %d", len(codes), len(order))
	}
	for i, in := range codes {
		if i < len(order) && in.Code != order[i] {
			t.Errorf("Codes()[%d] = %s, declared %s there", i, in.Code, order[i])
		}
		if in.Description != docs[in.Code] {
			t.Errorf("%s: description %q, doc comment %q", in.Code, in.Description, docs[in.Code])
		}
		if in.Code.Description() != in.Description {
			t.Errorf("%s.Description() = %q", in.Code, in.Code.Description())
		}
	}
	if got := diag.Code("NO_SUCH_CODE").Description(); got != "" {
		t.Errorf("Description of an unknown code = %q, want \"\"", got)
	}
}

func upperSnake(s string) string {
	var b strings.Builder
	for i, r := range s {
		if i > 0 && r >= 'A' && r <= 'Z' && !(s[i-1] >= 'A' && s[i-1] <= 'Z') {
			b.WriteByte('_')
		}
		b.WriteRune(r)
	}
	return strings.ToUpper(b.String())
}

// TestJSON: the shapes the CLI's envelope prints.
func TestJSON(t *testing.T) {
	for _, tt := range []struct {
		in   any
		want string
	}{
		{diag.Warning{Code: diag.PathNotFound, Message: "m", Path: "/p"}, `{"code":"PATH_NOT_FOUND","message":"m","path":"/p"}`},
		{diag.Warning{Code: diag.BudgetExceeded, Message: "m"}, `{"code":"BUDGET_EXCEEDED","message":"m"}`},
		{diag.Problem{File: "/t.xml", Line: 2, Col: 3, Message: "m"}, `{"file":"/t.xml","line":2,"col":3,"message":"m"}`},
		{diag.Problem{File: "/t.xml", Line: 2, Col: 3, Message: "m", Code: diag.EmptyContext}, `{"file":"/t.xml","line":2,"col":3,"message":"m","code":"EMPTY_CONTEXT"}`},
	} {
		b, err := json.Marshal(tt.in)
		if err != nil || string(b) != tt.want {
			t.Errorf("json.Marshal(%+v) = %s, %v; want %s", tt.in, b, err, tt.want)
		}
	}
}

func TestStrings(t *testing.T) {
	for _, tt := range []struct {
		got, want string
	}{
		{(&diag.Warning{Code: diag.PathNotFound, Message: "m", Path: "/p"}).Error(), "PATH_NOT_FOUND: /p: m"},
		{(&diag.Warning{Code: diag.BudgetExceeded, Message: "m"}).Error(), "BUDGET_EXCEEDED: m"},
		{diag.Problem{File: "t.xml", Line: 2, Col: 3, Message: "m"}.String(), "t.xml:2:3: m"},
	} {
		if tt.got != tt.want {
			t.Errorf("got %q, want %q", tt.got, tt.want)
		}
	}
}

func TestLines(t *testing.T) {
	ps := []diag.Problem{{File: "a.xml", Line: 1, Col: 2, Message: "one"}, {File: "b.xml", Line: 3, Col: 4, Message: "two"}}
	if got, want := diag.Lines(ps), "a.xml:1:2: one\nb.xml:3:4: two"; got != want {
		t.Fatalf("Lines = %q, want %q", got, want)
	}
	if got := diag.Lines(nil); got != "" {
		t.Fatalf("Lines(nil) = %q", got)
	}
}

// TestWarningString: the one renderer of a warning (both front doors use
// it). A position comes from the fields, never from re-reading the
// message: FILE:LINE:COL: as problems print (an editor jumps to it); a
// message that only looks like a position is text. It replaces the CLI's
// re-parse of "LINE:COL: " (#29 point 3).
func TestWarningString(t *testing.T) {
	p := diag.Problem{File: "/p/t.xml", Line: 1, Col: 44, Message: `task "a" inherits nothing`, Code: diag.EmptyContext}
	for _, c := range []struct {
		w    diag.Warning
		want string
	}{
		{diag.At(p), `EMPTY_CONTEXT: /p/t.xml:1:44: task "a" inherits nothing`},
		{diag.Warning{Code: diag.PathIgnored, Path: "/p/x", Message: "12:5: not a position"}, "PATH_IGNORED: /p/x: 12:5: not a position"},
		{diag.Warning{Code: diag.PathIgnored, Path: "/p/a\nb", Message: "m"}, `PATH_IGNORED: "/p/a\nb": m`},
		{diag.Warning{Code: diag.PathIgnored, Path: "/p/a\x1b[31m\u202e", Message: "m"}, `PATH_IGNORED: "/p/a\x1b[31m\u202e": m`},
		{diag.Warning{Code: diag.CommandFailed, Message: "first\nsecond\n"}, "COMMAND_FAILED: first\n    second"},
	} {
		if got := c.w.String(); got != c.want {
			t.Errorf("%+v.String() = %q, want %q", c.w, got, c.want)
		}
	}
	if w := diag.At(p); w.Message != `1:44: task "a" inherits nothing` || w.Line != 1 || w.Col != 44 {
		t.Errorf("At = %+v: the envelope's message keeps its LINE:COL head, the fields the position", w)
	}
}
