package schema

// ValidateWithLimit is Validate with another size limit, so tests can send
// libxml2 documents larger than MaxInput.
func ValidateWithLimit(s *Schema, file string, data []byte, limit int) error {
	return s.validate(file, data, limit)
}

// LoaderRefuses reports whether the process-wide external entity loader
// refuses url.
var LoaderRefuses = loaderRefuses
