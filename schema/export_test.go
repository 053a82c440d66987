package schema

// ValidateWithLimit is Validate with another size limit, so tests can send
// libxml2 documents larger than MaxInput.
func ValidateWithLimit(s *Schema, file string, data []byte, limit int) error {
	return s.validate(file, data, limit)
}

// LoaderRefuses reports whether the process-wide external entity loader
// refuses url.
var LoaderRefuses = loaderRefuses

// ParseOptions returns the document parser's options as lestrrat-go/libxml2
// spells them and as libxml2's headers do.
var ParseOptions = parseOptions

// ValidateInC sends data straight to libxml2, past the Go-side checks
// (size, encoding, DOCTYPE), and returns libxml2's messages and whether it
// found a DTD: the defences libxml2 itself is set up with.
func ValidateInC(s *Schema, data []byte) (msgs []string, dtd bool, err error) {
	if err := s.compile(); err != nil {
		return nil, false, err
	}
	raw, _, dtd, err := validateC(s.compiled, data)
	for _, r := range raw {
		msgs = append(msgs, r.msg)
	}
	return msgs, dtd, err
}

// CompileError compiles xsd as an embedded schema would be and returns the
// error.
func CompileError(name string, xsd []byte) error {
	return (&Schema{name: name, src: xsd}).compile()
}
