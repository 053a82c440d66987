package memory

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"testing"
)

// TestDecodeLarge round-trips an index whose body is checksummed beside
// its decoding (parallelCRC or more), checks that every document's path
// comes back whole (they share one string), and that a byte flipped
// anywhere in the body, where the decoder itself may see nothing wrong,
// is caught by the checksum.
func TestDecodeLarge(t *testing.T) {
	var docs []docInfo
	for i := 0; len(docs)*40 < 2*parallelCRC; i++ {
		d := docInfo{rel: fmt.Sprintf("pkg/dir%03d/file%05d.go", i/50, i), size: int64(i), mtime: int64(i) << 20, flags: byte(i % 3 & 1)}
		d.hash[0], d.lens = byte(i), [nFields]uint32{uint32(i), 2, 3, 4}
		docs = append(docs, d)
	}
	w := newDictWriter(1, 8, 8)
	w.add("term", 1, []byte{0, 1, 1})
	text := w.appendTo(nil)
	parts, err := encode(docs, text, text, 0x5eed)
	if err != nil {
		t.Fatal(err)
	}
	data := bytes.Join(parts, nil)
	if len(data)-headerSize < parallelCRC {
		t.Fatalf("body of %d bytes, want %d or more", len(data)-headerSize, parallelCRC)
	}
	dec, err := decode(data)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(dec.docs, docs) {
		t.Errorf("decoded documents differ from those encoded")
	}
	if dec.filter != 0x5eed {
		t.Errorf("decoded filter %#x, want 0x5eed", dec.filter)
	}
	for _, off := range []int{headerSize, headerSize + 1000, len(data) / 2, len(data) - 1} {
		bad := slices.Clone(data)
		bad[off] ^= 0x10
		if _, err := decode(bad); !errors.Is(err, ErrCorrupt) {
			t.Errorf("byte %d flipped: decode error %v, want ErrCorrupt", off, err)
		}
	}
}
