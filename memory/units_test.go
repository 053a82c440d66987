package memory

import (
	"reflect"
	"testing"
)

// cutUnits tiles a file's lines: a header, then each definition from its
// leading comments and decorators, methods apart from their class; a file
// of no known language (or without definitions) in windows.
func TestCutUnits(t *testing.T) {
	py := `"""Module doc."""
import os


class Pool:
    """A pool of connections."""

    size = 4

    # acquire takes one
    @locked
    def acquire(self):
        return None

    def release(self, c):
        pass


def helper():
    return 1
`
	lines := func(s string) []int {
		starts := []int{0}
		for i := 0; i < len(s); i++ {
			if s[i] == '\n' && i+1 < len(s) {
				starts = append(starts, i+1)
			}
		}
		return starts
	}
	got := cutUnits("pool.py", []byte(py), lines(py))
	want := []unit{
		{0, 4, ""},
		{4, 9, "Pool"},
		{9, 14, "Pool.acquire"},
		{14, 18, "Pool.release"},
		{18, 20, "helper"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("cutUnits(pool.py) =\n%v\nwant\n%v", got, want)
	}

	var long []byte
	for range 90 {
		long = append(long, "key = value\n"...)
	}
	got = cutUnits("settings.ini", long, lines(string(long)))
	want = []unit{{0, 40, ""}, {40, 80, ""}, {80, 90, ""}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("cutUnits(settings.ini) = %v, want %v", got, want)
	}
}

// The best unit is the one that holds the terms together, and a match in
// a definition's comment counts more than one in its body.
func TestBestUnit(t *testing.T) {
	src := `package wal

// Open opens the log file for replay later.
func Open() {}

// Replay applies the records of the write-ahead log in order.
func Replay() {}

func Other() {
	// replay, log: mentioned in passing
}
`
	terms := []unitTerm{{needles: []string{"replay"}, weight: 2}, {needles: []string{"log"}, weight: 1}}
	u, share, _ := bestUnit("wal/wal.go", []byte(src), terms, unitDocTF, nil)
	if u.name != "Replay" || share <= 0 || share > 1 {
		t.Errorf("bestUnit = %v %.3f, want Replay with a share in (0,1]", u, share)
	}
}

// In a short request, a doc comment that names what a unit does counts for
// more than its words said twice each in another unit's body, of the same
// length.
func TestBestUnitDocCommentOverBody(t *testing.T) {
	src := `package chunk

func Append() {
	gorilla(xor); gorilla(xor)
}

// Gorilla XOR compression of samples.
func Encode() {

}
`
	terms := []unitTerm{{needles: []string{"gorilla"}, weight: 1}, {needles: []string{"xor"}, weight: 1}}
	if u, _, _ := bestUnit("chunk/chunk.go", []byte(src), terms, unitDocTF, nil); u.name != "Encode" {
		t.Errorf("bestUnit = %v, want Encode", u)
	}
}

// TestCutUnitsDocBlocks checks that a doc written as a block above its
// definition (Elixir's @doc heredoc) starts the definition's unit: it was
// the end of the unit above (the text between the quotes is no comment
// line), so each function's unit held the next one's doc, and a request
// in a doc's words met the function before it. Its name's line is the
// def's, not the doc's first line.
func TestCutUnitsDocBlocks(t *testing.T) {
	ex := `defmodule App.Export do
  @moduledoc """
  Exports notebooks.
  """

  @doc """
  Renders a notebook as Markdown.
  """
  @spec markdown(map()) :: String.t()
  def markdown(notebook) do
    notebook
  end

  @doc """
  Renders a notebook as an Elixir script.
  """
  def script(notebook), do: notebook
end
`
	starts := []int{0}
	for i := 0; i+1 < len(ex); i++ {
		if ex[i] == '\n' {
			starts = append(starts, i+1)
		}
	}
	got := cutUnits("lib/app/export.ex", []byte(ex), starts)
	want := []unit{{0, 5, "Export"}, {5, 13, "Export.markdown"}, {13, 18, "Export.script"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("cutUnits =\n%v\nwant\n%v", got, want)
	}
	blocks := docBlocks(defLangOf("lib/app/export.ex"), []byte(ex), starts)
	if def := got[1].defLine([]byte(ex), starts, blocks); def != 9 {
		t.Errorf("defLine(markdown) = %d, want 9 (the def's line)", def)
	}
}
