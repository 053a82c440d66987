package memory

// SetWriteHook sets a function called after each chunk of an index file is
// written (for the crash-safety test); nil removes it.
func SetWriteHook(f func(written int)) { writeHook = f }

// SetSegmentBytes makes refreshes analyse batches of n bytes (see
// segmentBytes) until the returned function restores the size.
func SetSegmentBytes(n int64) (restore func()) {
	old := segmentBytes
	segmentBytes = n
	return func() { segmentBytes = old }
}

// EncodeHistory encodes a history of the given commits (hash, terms,
// files) and decodes data, for the history section's tests.
func EncodeHistory(head string, commits [][3][]string) []byte {
	h := &history{head: head}
	for _, c := range commits {
		h.commits = append(h.commits, commitRecord{hash: c[0][0], terms: c[1], files: c[2]})
	}
	return encodeHistory(h)
}

// DecodeHistory decodes a history section: its head and commit count.
func DecodeHistory(data []byte) (string, int, error) {
	h, err := decodeHistory(data)
	if err != nil {
		return "", 0, err
	}
	return h.head, len(h.commits), nil
}

// SetMaxPackIndexBytes sets the bound of the pack indexes whose history is
// read, and returns a function that restores it.
func SetMaxPackIndexBytes(n int64) (restore func()) {
	old := maxPackIndexBytes
	maxPackIndexBytes = n
	return func() { maxPackIndexBytes = old }
}

// DocLines flags the lines of a code file that are doc comments (docLines).
func DocLines(rel string, data []byte) []bool { return docLines(rel, data) }

// ReadHTML reads a long text that is HTML as its text (readHTML).
func ReadHTML(q string) string { return readHTML(q) }

// NameKey, NameHead and LeadsWith are documented code's names
// (nameKey, nameHead, leadsWith).
func NameKey(name string) string       { return nameKey(name) }
func NameHead(key string) string       { return nameHead(key) }
func LeadsWith(name, head string) bool { return leadsWith(name, head) }
