package contextgen

// XMLSafe returns s with every character XML 1.0 cannot carry (C0 controls
// other than tab, newline and carriage return; U+FFFE, U+FFFF; invalid
// UTF-8) replaced by U+FFFD, as the xml style writes file content. It is
// what other packages that write XML for a model (workflow's prompts) use,
// so that there is one definition of what XML can carry.
func XMLSafe(s string) string {
	s, _ = xmlSafe(s)
	return s
}
