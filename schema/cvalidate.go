package schema

/*
// libxml2 is opened when first needed (dlopen), not linked: a process
// that never validates a document (index, search) does not load it and the
// ICU and C++ libraries it pulls in, about a millisecond of a 4 ms start.
// --as-needed drops the -lxml2 of pkg-config, to which nothing refers.
#cgo linux LDFLAGS: -Wl,--as-needed
#cgo pkg-config: libxml-2.0
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/tree.h>
#include <libxml/xmlerror.h>
#include <libxml/xmlschemas.h>
#include <libxml/xmlIO.h>

// The libxml2 functions used, each called through tc_<name>.
#define TC_FUNCS(X) \
	X(xmlInitParser) X(xmlSetExternalEntityLoader) X(xmlSetGenericErrorFunc) X(xmlNewParserCtxt) \
	X(xmlFreeParserCtxt) X(xmlLoadExternalEntity) X(xmlFreeInputStream) X(xmlSchemaNewMemParserCtxt) \
	X(xmlSchemaSetParserStructuredErrors) X(xmlSchemaParse) X(xmlSchemaFreeParserCtxt) X(xmlCtxtReadMemory) \
	X(xmlFreeDoc) X(xmlSchemaNewValidCtxt) X(xmlSchemaSetValidStructuredErrors) X(xmlSchemaValidateDoc) \
	X(xmlSchemaFreeValidCtxt) X(xmlDocGetRootElement) X(xmlGetLineNo)
#define TC_PTR(f) static __typeof__(&f) tc_##f;
TC_FUNCS(TC_PTR)

static char tc_load_err[256];

static const char *tc_load_error(void) { return tc_load_err; }

// tc_load opens the libxml2 library lib and finds its functions; 0 when
// done, else -1 with the reason in tc_load_err.
static int tc_load(const char *lib) {
	void *h = dlopen(lib, RTLD_NOW | RTLD_LOCAL);
	if (h == NULL) {
		const char *e = dlerror();
		snprintf(tc_load_err, sizeof tc_load_err, "%s", e != NULL ? e : "dlopen failed");
		return -1;
	}
#define TC_SYM(f) \
	if ((tc_##f = (__typeof__(&f))dlsym(h, #f)) == NULL) { \
		snprintf(tc_load_err, sizeof tc_load_err, "%s has no %s", lib, #f); \
		return -1; \
	}
	TC_FUNCS(TC_SYM)
	return 0;
}

static void tc_silent(void *ctx, const char *msg, ...);

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
	xmlDocPtr doc;
} tc_acc;

// elemIndex returns the document-order index of element e in doc, or -1.
static int tc_elem_index(xmlDocPtr doc, xmlNodePtr e) {
	if (doc == NULL || e == NULL) return -1;
	xmlNodePtr n = tc_xmlDocGetRootElement(doc);
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
	// The node is borrowed: resolve what we need now. Schema-parse errors
	// have no document of ours, so a->doc is NULL then.
	if (a->doc != NULL && e->node != NULL) {
		xmlNodePtr n = (xmlNodePtr)e->node;
		if (n->type == XML_ATTRIBUTE_NODE) {
			if (n->name != NULL) strncpy(p->attr, (const char *)n->name, sizeof p->attr - 1);
			n = n->parent;
		}
		if (n != NULL && n->type == XML_ELEMENT_NODE) {
			p->elem = tc_elem_index(a->doc, n);
			if (p->line == 0) p->line = (int)tc_xmlGetLineNo(n);
		}
	}
}

static void tc_valid_err(void *ud, xmlErrorPtr e) { tc_push((tc_acc *)ud, e); }

// Parser errors: in libxml2 2.9 the structured handler gets ctxt->userData,
// which is the parser context itself; the accumulator lives in _private.
static void tc_parse_err(void *ud, xmlErrorPtr e) {
	xmlParserCtxtPtr c = (xmlParserCtxtPtr)ud;
	if (c != NULL) tc_push((tc_acc *)c->_private, e);
}

// No external entity, DTD or schema is ever loaded.
static xmlParserInputPtr tc_no_loader(const char *url, const char *id, xmlParserCtxtPtr ctxt) {
	return NULL;
}

// tc_loader_refuses reports whether the process's external entity loader
// refuses url (tests use it to prove the loader is in place).
static int tc_loader_refuses(const char *url) {
	tc_xmlSetGenericErrorFunc(NULL, tc_silent);
	xmlParserCtxtPtr c = tc_xmlNewParserCtxt();
	if (c == NULL) return 0;
	xmlParserInputPtr in = tc_xmlLoadExternalEntity(url, NULL, c);
	int refused = in == NULL;
	if (in != NULL) tc_xmlFreeInputStream(in);
	tc_xmlFreeParserCtxt(c);
	return refused;
}

static int tc_init(const char *lib) {
	if (tc_load(lib) != 0) return -1;
	tc_xmlInitParser();
	tc_xmlSetExternalEntityLoader(tc_no_loader);
	return 0;
}

static void tc_silent(void *ctx, const char *msg, ...) {}

static xmlSchemaPtr tc_compile(const char *buf, int len, tc_acc *a) {
	// The schema document's own parse errors go to the generic handler
	// (per thread in libxml2 2.9): silence it on this thread.
	tc_xmlSetGenericErrorFunc(NULL, tc_silent);
	xmlSchemaParserCtxtPtr pc = tc_xmlSchemaNewMemParserCtxt(buf, len);
	if (pc == NULL) return NULL;
	tc_xmlSchemaSetParserStructuredErrors(pc, tc_valid_err, a);
	xmlSchemaPtr s = tc_xmlSchemaParse(pc);
	tc_xmlSchemaFreeParserCtxt(pc);
	return s;
}

// tc_validate parses buf and validates it against s. It returns 0 when the
// document is valid, 1 when it has problems (in a, which may be empty if
// libxml2 reported none), 2 when it holds a DTD, -1 when out of memory.
static int tc_validate(xmlSchemaPtr s, const char *buf, int len, tc_acc *a) {
	tc_xmlSetGenericErrorFunc(NULL, tc_silent);
	xmlParserCtxtPtr c = tc_xmlNewParserCtxt();
	if (c == NULL) return -1;
	c->_private = a;
	c->sax->serror = tc_parse_err;
	c->sax->error = tc_silent;
	c->sax->warning = tc_silent;
	c->vctxt.error = tc_silent;
	c->vctxt.warning = tc_silent;
	// The bytes are read as UTF-8 whatever the XML declaration says, so
	// libxml2 and the Go scan that finds DOCTYPEs and columns see the same
	// characters. Never NOENT, DTDLOAD, DTDATTR, DTDVALID, XINCLUDE or HUGE.
	int opts = XML_PARSE_NONET | XML_PARSE_BIG_LINES | XML_PARSE_NOWARNING | XML_PARSE_IGNORE_ENC;
	// No URL: the document's name is known on the Go side, and a document
	// with a URL makes libxml2 2.9 walk back over every preceding node
	// (looking for XInclude markers) for each error it raises, which is
	// quadratic on a document with many problems.
	xmlDocPtr d = tc_xmlCtxtReadMemory(c, buf, len, NULL, "UTF-8", opts);
	int wellformed = c->wellFormed;
	tc_xmlFreeParserCtxt(c);
	if (d == NULL || !wellformed) {
		if (d != NULL) tc_xmlFreeDoc(d);
		return 1;
	}
	if (d->intSubset != NULL || d->extSubset != NULL) {
		tc_xmlFreeDoc(d);
		return 2;
	}
	a->doc = d;
	xmlSchemaValidCtxtPtr v = tc_xmlSchemaNewValidCtxt(s);
	if (v == NULL) { a->doc = NULL; tc_xmlFreeDoc(d); return -1; }
	tc_xmlSchemaSetValidStructuredErrors(v, tc_valid_err, a);
	int rc = tc_xmlSchemaValidateDoc(v, d);
	tc_xmlSchemaFreeValidCtxt(v);
	a->doc = NULL;
	tc_xmlFreeDoc(d);
	if (rc == 0 && a->n == 0) return 0;
	return 1;
}
*/
import "C"

import (
	"errors"
	"fmt"
	"os"
	"runtime"
	"sync"
	"unsafe"
)

var (
	initOnce sync.Once
	initErr  error
)

// initLibxml loads and initialises libxml2 once: the library
// $TASKCTL_LIBXML2 names (a file name or path, for a libxml2 outside the
// loader's search path), else the one of the system (libLibxml2). The
// error says why it could not be loaded.
func initLibxml() error {
	initOnce.Do(func() {
		lib := os.Getenv("TASKCTL_LIBXML2")
		if lib == "" {
			lib = libLibxml2()
		}
		cs := C.CString(lib)
		defer C.free(unsafe.Pointer(cs))
		if C.tc_init(cs) != 0 {
			initErr = fmt.Errorf("libxml2 cannot be loaded: %s (install it, e.g. apt-get install libxml2, or name it in TASKCTL_LIBXML2)", C.GoString(C.tc_load_error()))
		}
	})
	return initErr
}

// libLibxml2 is the file name of the system's libxml2.
func libLibxml2() string {
	if runtime.GOOS == "darwin" {
		return "libxml2.2.dylib"
	}
	return "libxml2.so.2"
}

// maxProblems is how many problems one validation reports.
const maxProblems = 100

type rawProblem struct {
	line, col, elem int
	attr, msg       string
	parse           bool // a well-formedness problem (libxml2's parser domain)
}

func newAcc() (*C.tc_acc, func()) {
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
	return a, func() {
		C.free(unsafe.Pointer(a.p))
		C.free(unsafe.Pointer(a))
	}
}

func problemsOf(a *C.tc_acc) ([]rawProblem, int) {
	n := int(a.n)
	ps := unsafe.Slice(a.p, maxProblems)[:n]
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
	return out, int(a.dropped)
}

// compile parses an XSD held in memory.
func compileXSD(xsd []byte) (unsafe.Pointer, []rawProblem, error) {
	if err := initLibxml(); err != nil {
		return nil, nil, err
	}
	if len(xsd) == 0 {
		return nil, nil, errors.New("empty schema")
	}
	buf := C.CBytes(xsd)
	defer C.free(buf)
	a, free := newAcc()
	defer free()
	s := C.tc_compile((*C.char)(buf), C.int(len(xsd)), a)
	ps, _ := problemsOf(a)
	if s == nil {
		return nil, ps, errors.New("schema does not compile")
	}
	return unsafe.Pointer(s), nil, nil
}

// validateC parses and validates data; dtd reports a document type
// declaration.
func validateC(s unsafe.Pointer, data []byte) (ps []rawProblem, dropped int, dtd bool, err error) {
	if err := initLibxml(); err != nil {
		return nil, 0, false, err
	}
	buf := C.CBytes(data)
	defer C.free(buf)
	a, free := newAcc()
	defer free()
	rc := C.tc_validate((C.xmlSchemaPtr)(s), (*C.char)(buf), C.int(len(data)), a)
	switch rc {
	case -1:
		return nil, 0, false, errors.New("libxml2: out of memory")
	case 2:
		return nil, 0, true, nil
	}
	ps, dropped = problemsOf(a)
	if len(ps) == 0 && rc != 0 {
		// Invalid, yet libxml2 said nothing: never let that pass as valid.
		ps = []rawProblem{{line: 1, col: 1, elem: -1, msg: "document is not valid (libxml2 reported no detail)"}}
	}
	return ps, dropped, false, nil
}

// loaderRefuses reports whether the process-wide external entity loader
// refuses url.
func loaderRefuses(url string) bool {
	if initLibxml() != nil {
		return false
	}
	u := C.CString(url)
	defer C.free(unsafe.Pointer(u))
	return C.tc_loader_refuses(u) != 0
}
