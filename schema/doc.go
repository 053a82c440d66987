// Package schema holds taskctl's XML Schemas — taskctl.xsd for task
// templates and config.xsd for configuration files — embedded in the binary,
// and validates documents against them with libxml2.
//
// lestrrat-go/libxml2 parses the documents (with the options below) and
// compiles the embedded XSDs. A small cgo layer of our own does what the
// wrapper cannot: it collects libxml2's errors as structured errors
// (xmlSetStructuredErrorFunc, xmlSchemaSetValidStructuredErrors) with
// their lines, columns and nodes — the wrapper keeps only the last parse
// error, without a column, and gathers validation errors by printf into a
// fixed buffer that a long message overflows —, runs the validation with a
// context of its own, checks for a DTD, and sets the external entity
// loader. libxml2 is linked (pkg-config libxml-2.0), so a binary that
// starts has it.
//
// Guarantees:
//   - Every problem carries file:line:col. Lines count from 1; columns count
//     Unicode code points (runes) from 1, a leading byte-order mark not
//     counted. Validity problems point at the '<' of the element concerned,
//     or at the attribute a message names when it is in the start tag;
//     well-formedness problems are at the position libxml2 reports (where
//     its parser stopped).
//   - Documents are UTF-8, with or without a byte-order mark, or UTF-16LE or
//     UTF-16BE with one, as XML 1.0 requires (package internal/xmltext
//     decodes them; template.Parse reads them the same way); positions are
//     the same in every encoding. The bytes decide whatever the XML
//     declaration says; UTF-32, UTF-16 without a mark, EBCDIC, undecodable
//     UTF-16 and, in a UTF-8 document, an invalid byte are positioned
//     problems. A NUL character is refused wherever it is (libxml2 would
//     stop reading at one outside an element).
//   - libxml2's warnings (an XML 1.1 declaration, a bad xml:space value) are
//     not problems: a document is valid when libxml2 reports no error.
//   - No network access, no external entity, DTD or schema is ever loaded: a
//     document with a DOCTYPE is refused before libxml2 parses it, parsing
//     uses XML_PARSE_NONET and never XML_PARSE_NOENT/DTDLOAD/HUGE, and a
//     process-wide external entity loader (set once) refuses every URL.
//     xsi:schemaLocation hints are ignored. The same loader refuses
//     xs:include and xs:import, so every embedded XSD is self-contained.
//   - Inputs over MaxInput (1 MiB, counted in the bytes given) are refused;
//     at most 100 problems are reported (then "N more problems not shown").
//   - Nothing is printed to the process's stderr.
//   - Validate is safe for concurrent use.
package schema
