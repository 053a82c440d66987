package schema

// lestrrat-go/libxml2 parses the documents (package parser) and compiles
// the embedded XSDs (package xsd). The small C layer below does what the
// wrapper cannot: it collects libxml2's errors as structured xmlErrors with
// their positions and nodes (the wrapper keeps only the last parse error,
// without a column, and gathers validation errors by printf into a fixed
// buffer that a long message overflows), validates with a validation
// context of its own, refuses every external entity process-wide, and
// checks for a DTD.

/*
#cgo pkg-config: libxml-2.0
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/tree.h>
#include <libxml/xmlerror.h>
#include <libxml/xmlschemas.h>
#include <libxml/xmlIO.h>

// One problem, copied out of libxml2's xmlError while the document is alive.
typedef struct {
	int domain, code, level, line, col;
	int elem;        // document-order index of the element concerned, or -1
	char attr[128];  // the attribute concerned, if any
	char msg[512];   // the message, truncated
} tc_problem;

typedef struct {
	int n, cap, dropped;
	tc_problem *p;
	xmlDocPtr doc;   // the document being validated, to resolve nodes in
} tc_acc;

// tc_elem_index returns the document-order index of element e in doc, or -1.
static int tc_elem_index(xmlDocPtr doc, xmlNodePtr e) {
	if (doc == NULL || e == NULL) return -1;
	xmlNodePtr n = xmlDocGetRootElement(doc);
	int i = 0;
	while (n != NULL) {
		if (n->type == XML_ELEMENT_NODE) {
			if (n == e) return i;
			i++;
		}
		if (n->children != NULL && n->type == XML_ELEMENT_NODE) { n = n->children; continue; }
		while (n != NULL && n->next == NULL) {
			n = n->parent;
			if (n == NULL || n->type == XML_DOCUMENT_NODE) return -1;
		}
		if (n != NULL) n = n->next;
	}
	return -1;
}

static void tc_push(tc_acc *a, xmlErrorPtr e) {
	if (a == NULL || e == NULL) return;
	// Warnings ("Unsupported version '1.1'", "Invalid value for xml:space")
	// do not make a document invalid: libxml2 goes on and builds the tree.
	if (e->level == XML_ERR_WARNING) return;
	if (a->n >= a->cap) { a->dropped++; return; }
	tc_problem *p = &a->p[a->n++];
	memset(p, 0, sizeof *p);
	p->domain = e->domain;
	p->code = e->code;
	p->level = e->level;
	p->line = e->line;
	p->col = e->int2;
	p->elem = -1;
	if (e->message != NULL) {
		strncpy(p->msg, e->message, sizeof p->msg - 1);
	}
	// The node is borrowed: resolve what we need now. Parse and
	// schema-compile errors have no document of ours (a->doc is NULL).
	if (a->doc != NULL && e->node != NULL) {
		xmlNodePtr n = (xmlNodePtr)e->node;
		if (n->type == XML_ATTRIBUTE_NODE) {
			if (n->name != NULL) strncpy(p->attr, (const char *)n->name, sizeof p->attr - 1);
			n = n->parent;
		}
		if (n != NULL && n->type == XML_ELEMENT_NODE) {
			p->elem = tc_elem_index(a->doc, n);
			if (p->line == 0) p->line = (int)xmlGetLineNo(n);
		}
	}
}

static void tc_collect(void *a, xmlErrorPtr e) { tc_push((tc_acc *)a, e); }

static void tc_silent(void *ctx, const char *msg, ...) {}

// tc_begin sends every error libxml2 raises on this thread to a, and
// prints nothing: the parser contexts the wrapper makes have no structured
// handler of their own, so libxml2 falls back to the thread's. Both
// handlers are per thread in libxml2, so the caller stays on one thread
// until tc_end.
static void tc_begin(tc_acc *a) {
	xmlSetGenericErrorFunc(NULL, tc_silent);
	xmlSetStructuredErrorFunc(a, tc_collect);
}

static void tc_end(void) { xmlSetStructuredErrorFunc(NULL, NULL); }

// No external entity, DTD or schema is ever loaded.
static xmlParserInputPtr tc_no_loader(const char *url, const char *id, xmlParserCtxtPtr ctxt) {
	return NULL;
}

static void tc_init(void) {
	xmlInitParser();
	xmlSetExternalEntityLoader(tc_no_loader);
}

// tc_loader_refuses reports whether the process's external entity loader
// refuses url (tests use it to prove the loader is in place).
static int tc_loader_refuses(const char *url) {
	xmlSetGenericErrorFunc(NULL, tc_silent);
	xmlParserCtxtPtr c = xmlNewParserCtxt();
	if (c == NULL) return 0;
	xmlParserInputPtr in = xmlLoadExternalEntity(url, NULL, c);
	int refused = in == NULL;
	if (in != NULL) xmlFreeInputStream(in);
	xmlFreeParserCtxt(c);
	return refused;
}

// tc_validate validates the parsed document doc against the compiled schema
// (both pointers as the wrapper hands them out). It returns 0 when the
// document is valid, 1 when it has problems (in a), 2 when it holds a DTD,
// -1 when out of memory.
static int tc_validate(uintptr_t schema, uintptr_t doc, tc_acc *a) {
	xmlSchemaPtr s = (xmlSchemaPtr)schema;
	xmlDocPtr d = (xmlDocPtr)doc;
	if (d->intSubset != NULL || d->extSubset != NULL) return 2;
	xmlSchemaValidCtxtPtr v = xmlSchemaNewValidCtxt(s);
	if (v == NULL) return -1;
	a->doc = d;
	xmlSchemaSetValidStructuredErrors(v, tc_collect, a);
	int rc = xmlSchemaValidateDoc(v, d);
	xmlSchemaFreeValidCtxt(v);
	a->doc = NULL;
	if (rc == 0 && a->n == 0) return 0;
	return 1;
}

// The parser options, for the test that the wrapper's constants are
// libxml2's.
static int tc_parse_options(void) {
	return XML_PARSE_NONET | XML_PARSE_BIG_LINES | XML_PARSE_NOWARNING | XML_PARSE_IGNORE_ENC;
}
*/
import "C"

import (
	"errors"
	"runtime"
	"sync"
	"unsafe"

	"github.com/lestrrat-go/libxml2/parser"
	"github.com/lestrrat-go/libxml2/xsd"
)

// docParser reads documents without network access (NONET) and without
// loading or substituting entities (never NOENT, DTDLOAD, DTDATTR,
// DTDVALID, XINCLUDE or HUGE); line numbers past 65535 are kept
// (BIG_LINES). The bytes are read as UTF-8 whatever the XML declaration
// says (IGNORE_ENC), so libxml2 and the Go scan that finds DOCTYPEs and
// columns see the same characters. The wrapper names no encoding, so
// libxml2 would still switch on the first four bytes of a UTF-16, UCS-4
// or EBCDIC document: package xmltext has turned those into UTF-8 or
// refused them before a document gets here.
//
// The parser gives libxml2 no document URL: with one, libxml2 2.9 walks
// back over every preceding node (looking for XInclude markers) for each
// error it raises, which is quadratic on a document with many problems.
var docParser = parser.New(parser.XMLParseNoNet, parser.XMLParseBigLines, parser.XMLParseNoWarning, parser.XMLParseIgnoreEnc)

var initOnce sync.Once

// initLibxml initialises libxml2 once and sets the process-wide external
// entity loader that refuses every URL, before anything is parsed.
func initLibxml() { initOnce.Do(func() { C.tc_init() }) }

// maxProblems is how many problems one validation reports.
const maxProblems = 100

type rawProblem struct {
	line, col, elem int
	attr, msg       string
	parse           bool // a well-formedness problem (libxml2's parser domain)
}

// collector gathers the errors libxml2 raises on the calling goroutine's
// thread, which it locks, until done is called.
type collector struct {
	a *C.tc_acc
}

func collect() *collector {
	initLibxml()
	a := (*C.tc_acc)(C.calloc(1, C.size_t(unsafe.Sizeof(C.tc_acc{}))))
	if a == nil {
		panic("schema: out of C memory")
	}
	a.cap = maxProblems
	a.p = (*C.tc_problem)(C.calloc(maxProblems, C.size_t(unsafe.Sizeof(C.tc_problem{}))))
	if a.p == nil {
		C.free(unsafe.Pointer(a))
		panic("schema: out of C memory")
	}
	runtime.LockOSThread()
	C.tc_begin(a)
	return &collector{a: a}
}

func (c *collector) done() {
	C.tc_end()
	runtime.UnlockOSThread()
	C.free(unsafe.Pointer(c.a.p))
	C.free(unsafe.Pointer(c.a))
}

// problems returns what was collected, and how many more were dropped.
func (c *collector) problems() ([]rawProblem, int) {
	n := int(c.a.n)
	ps := unsafe.Slice(c.a.p, maxProblems)[:n]
	out := make([]rawProblem, 0, n)
	for i := range ps {
		p := &ps[i]
		out = append(out, rawProblem{
			line:  int(p.line),
			col:   int(p.col),
			elem:  int(p.elem),
			attr:  C.GoString(&p.attr[0]),
			msg:   C.GoString(&p.msg[0]),
			parse: p.domain == C.XML_FROM_PARSER || p.domain == C.XML_FROM_NAMESPACE || p.domain == C.XML_FROM_IO,
		})
	}
	return out, int(c.a.dropped)
}

// compileXSD compiles an XSD held in memory with the wrapper's xsd.Parse.
// Its errors (the wrapper returns none but "failed to parse") are
// collected. The wrapper does not free the schema document it parses: a
// schema is compiled once per process, so that is a few kilobytes once.
func compileXSD(src []byte) (*xsd.Schema, []rawProblem, error) {
	if len(src) == 0 {
		return nil, nil, errors.New("empty schema")
	}
	c := collect()
	defer c.done()
	s, err := xsd.Parse(src)
	ps, _ := c.problems()
	if err != nil {
		if len(ps) > 0 && ps[0].parse {
			// The XSD is not well-formed XML: say so before the parser's
			// own messages, as libxml2 does when it reads the XSD itself.
			ps = append([]rawProblem{{msg: "Failed to parse the XSD: it is not well-formed XML"}}, ps...)
		}
		return nil, ps, errors.New("schema does not compile")
	}
	return s, nil, nil
}

// validateC parses data and validates it against s; dtd reports a
// document type declaration.
func validateC(s *xsd.Schema, data []byte) (ps []rawProblem, dropped int, dtd bool, err error) {
	c := collect()
	defer c.done()
	rc := C.int(1) // not well-formed, unless parsed
	if doc, perr := docParser.Parse(data); perr == nil {
		rc = C.tc_validate(C.uintptr_t(s.Pointer()), C.uintptr_t(doc.Pointer()), c.a)
		doc.Free()
	}
	switch rc {
	case -1:
		return nil, 0, false, errors.New("libxml2: out of memory")
	case 2:
		return nil, 0, true, nil
	}
	ps, dropped = c.problems()
	if len(ps) == 0 && rc != 0 {
		// Invalid, yet libxml2 said nothing: never let that pass as valid.
		ps = []rawProblem{{line: 1, col: 1, elem: -1, msg: "document is not valid (libxml2 reported no detail)"}}
	}
	return ps, dropped, false, nil
}

// loaderRefuses reports whether the process-wide external entity loader
// refuses url.
func loaderRefuses(url string) bool {
	initLibxml()
	u := C.CString(url)
	defer C.free(unsafe.Pointer(u))
	return C.tc_loader_refuses(u) != 0
}

// parseOptions returns the parser's options as the wrapper spells them and
// as libxml2's headers do.
func parseOptions() (wrapper, libxml2 int) {
	return int(docParser.Options), int(C.tc_parse_options())
}
