package reading

import (
	"bytes"
	"testing"
)

// TestArenaKeepsPiecesApart: what keep returns cannot grow into the next
// buffer, so that appending to one file's content never writes over
// another's.
func TestArenaKeepsPiecesApart(t *testing.T) {
	var a arena
	first := a.keep(append(a.buffer(), "first"...))
	second := a.keep(append(a.buffer(), "second"...))
	if cap(first) != len(first) {
		t.Fatalf("kept content has capacity %d beyond its %d bytes", cap(first), len(first))
	}
	_ = append(first, "XXXXXXXX"...)
	if string(first) != "first" || string(second) != "second" {
		t.Fatalf("after appending to the first piece: %q, %q", first, second)
	}
	empty := a.keep(a.buffer()[:0])
	if cap(empty) != 0 {
		t.Fatalf("an empty piece has capacity %d", cap(empty))
	}
	// A piece read elsewhere leaves the block as it was.
	before := cap(a.buffer())
	other := a.keep(bytes.Repeat([]byte("x"), 10))
	if cap(a.buffer()) != before || string(other) != "xxxxxxxxxx" {
		t.Fatalf("content from elsewhere moved the block: capacity %d, was %d", cap(a.buffer()), before)
	}
}
