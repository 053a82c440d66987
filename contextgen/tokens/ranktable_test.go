package tokens

import (
	"bytes"
	"flag"
	"os"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the rank table files")

// TestRankTableFiles checks that the embedded rank tables are what
// buildRanks makes of the embedded vocabularies (go test -update rewrites
// them), and that the table in use is read in place.
func TestRankTableFiles(t *testing.T) {
	for _, tc := range []struct {
		name, vocab, table, file string
	}{
		{O200kBase, o200kBaseTokens, o200kBaseRanks, "o200k_base.ranks"},
		{Cl100kBase, cl100kBaseTokens, cl100kBaseRanks, "cl100k_base.ranks"},
	} {
		want := encodeRanks(buildRanks(tc.vocab))
		if *update {
			if err := os.WriteFile(tc.file, want, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if !bytes.Equal([]byte(tc.table), want) {
			t.Errorf("%s: %s is not the rank table of the vocabulary: run go test -run TestRankTableFiles -update", tc.name, tc.file)
			continue
		}
		if _, ok := loadRanks(tc.table, tc.vocab); !ok && littleEndian() {
			t.Errorf("%s: the embedded table cannot be read in place", tc.name)
		}
	}
}

// TestRankTableFileRefused: loadRanks takes nothing but a whole table file
// at an aligned address; anything else falls back to building the table.
func TestRankTableFileRefused(t *testing.T) {
	good := o200kBaseRanks
	for name, data := range map[string]string{
		"empty":      "",
		"magic":      "x" + good[1:],
		"short":      good[:len(good)-4],
		"long":       good + "\x00\x00\x00\x00",
		"misaligned": (" " + good)[1:],
		"bits":       good[:len(rankFileMagic)] + "\x30\x00\x00\x00" + good[len(rankFileMagic)+4:],
	} {
		if _, ok := loadRanks(data, o200kBaseTokens); ok {
			t.Errorf("%s: loadRanks took it", name)
		}
	}
	for name, vocab := range map[string]string{
		"other vocabulary": cl100kBaseTokens,
		"changed token":    o200kBaseTokens[:100] + "x" + o200kBaseTokens[101:],
	} {
		if _, ok := loadRanks(good, vocab); ok {
			t.Errorf("%s: loadRanks took it", name)
		}
	}
	if _, ok := loadRanks(good, o200kBaseTokens); !ok && littleEndian() {
		t.Error("the embedded table was refused")
	}
}
