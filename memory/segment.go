package memory

import (
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math"
	"runtime"
	"time"

	statedir "github.com/taskctl/taskctl/state"
)

// A build of more files than fit in memory at once is made in segments, as
// Lucene makes its indexes: the files are analysed in batches of about
// segmentBytes bytes; each batch's postings are sorted by term and written
// to a scratch file of the index directory (a segment), and the batch's
// tables are dropped before the next is analysed. When every batch is
// done, the old index's text dictionary and the segments are merged term by
// term, each input read front to back, into a new dictionary written to
// scratch files, and the index file is assembled from them. What stays in
// memory for the whole build is what every file has (its path, size, time,
// hash and field lengths: some hundreds of bytes), not its postings.
//
// A build whose files fit in one batch makes no segment, and an index that
// lives in memory (no directory) is always made in one.

// segmentBytes is how many bytes of files a batch analyses at most (a
// variable for tests; see batchBytes). The analysis takes about four bytes
// of memory for each byte of its files.
var segmentBytes int64 = 32 << 20

// scratchFile names the scratch files of a segmented build, in the index
// directory (as temporary files of that name, which a later writer removes
// if a killed one left them).
const scratchFile = "index.scratch"

// segments are the segments of one build, in the order of their
// documents' fresh indices.
type segments struct {
	d     *statedir.Dir
	files []*statedir.PendingFile
}

// flush writes the postings of fl to a new segment, one record a term in
// the order of the terms: uvarint term length, the term, uvarint df,
// uvarint last document, uvarint list length, and the list (the
// documents' fresh indices, as a dictionary's list encodes them after df).
func (s *segments) flush(fl *freshLists) error {
	fl.dropTables()
	terms := fl.sorted()
	f, err := s.d.Create(scratchFile, 0o600)
	if err != nil {
		return err
	}
	s.files = append(s.files, f)
	w := bufio.NewWriterSize(f, 1<<16)
	for _, t := range terms {
		// the head, appended where the writer's buffer has room (a
		// batch's lists are far shorter than 4 GiB)
		head := w.AvailableBuffer()
		head = appendUvarint32(head, uint32(len(t.t)))
		head = append(head, t.t...)
		head = appendUvarint32(head, t.l.df)
		head = appendUvarint32(head, t.l.last)
		head = appendUvarint32(head, uint32(len(t.l.buf)))
		w.Write(head)
		w.Write(t.l.buf)
	}
	if err := w.Flush(); err != nil {
		return fmt.Errorf("write a segment of the index: %w", err)
	}
	return nil
}

// close removes the segments' files.
func (s *segments) close() {
	for _, f := range s.files {
		f.Abort()
	}
	s.files = nil
}

// segmentReader reads a segment's records in order.
type segmentReader struct {
	r    *bufio.Reader
	term []byte
	list listBuilder
	done bool
	err  error
}

func newSegmentReader(f io.ReaderAt) *segmentReader {
	sr := &segmentReader{r: bufio.NewReaderSize(io.NewSectionReader(f, 0, math.MaxInt64), 1<<16)}
	sr.next()
	return sr
}

// next reads the next record; at the end done is set, and err if the
// segment ended inside a record.
func (sr *segmentReader) next() {
	n, err := binary.ReadUvarint(sr.r)
	if err == io.EOF {
		sr.done = true
		return
	}
	var df, last, size uint64
	if err == nil {
		sr.term, err = readN(sr.r, sr.term, n)
	}
	if err == nil {
		df, err = binary.ReadUvarint(sr.r)
	}
	if err == nil {
		last, err = binary.ReadUvarint(sr.r)
	}
	if err == nil {
		size, err = binary.ReadUvarint(sr.r)
	}
	if err == nil {
		sr.list.buf, err = readN(sr.r, sr.list.buf, size)
	}
	if err == nil && (df > math.MaxUint32 || last > math.MaxUint32) {
		err = errors.New("document number out of range")
	}
	if err != nil {
		sr.done, sr.err = true, fmt.Errorf("read a segment of the index: %w", err)
		return
	}
	sr.list.df, sr.list.last = uint32(df), uint32(last)
}

// readN reads n bytes into buf's memory (grown if need be).
func readN(r io.Reader, buf []byte, n uint64) ([]byte, error) {
	if n > math.MaxInt32 {
		return buf, errors.New("record too long")
	}
	if uint64(cap(buf)) < n {
		buf = make([]byte, n)
	}
	buf = buf[:n]
	_, err := io.ReadFull(r, buf)
	if err == io.EOF {
		err = io.ErrUnexpectedEOF
	}
	return buf, err
}

// mergeInputs merges the text dictionary of the old index (its documents
// renumbered through keep, dropping -1) and the segments (their fresh
// indices offset by nOld) into w, term by term.
func mergeInputs(old *dict, nOldDocs int, keep []int, nOld int, segs []*segmentReader, w *sectionWriter) error {
	var term []byte
	var list listBuilder
	i := 0
	for {
		// the least term of the inputs
		have := false
		if i < old.n {
			term, have = append(term[:0], old.termBytes(i)...), true
		}
		for _, s := range segs {
			if !s.done && (!have || bytes.Compare(s.term, term) < 0) {
				term, have = append(term[:0], s.term...), true
			}
		}
		if !have {
			break
		}
		list.buf, list.df, list.last = list.buf[:0], 0, 0
		if i < old.n && bytes.Equal(old.termBytes(i), term) {
			it := newIter(old.postings(i), nOldDocs)
			for it.next() {
				if nd := keep[it.doc]; nd >= 0 {
					list.add(uint32(nd), it.tf[0], it.tf[1])
				}
			}
			i++
		}
		for _, s := range segs {
			if !s.done && bytes.Equal(s.term, term) {
				appendList(&list, &s.list, uint32(nOld))
				s.next()
			}
		}
		if list.df > 0 {
			if err := w.add(term, list.df, list.buf); err != nil {
				return err
			}
		}
	}
	for _, s := range segs {
		if s.err != nil {
			return s.err
		}
	}
	return nil
}

// sectionWriter writes a dictionary section too large to hold in memory:
// its four parts (the term offsets, the list offsets, the terms and the
// lists) each go to a scratch file, to be copied into the index in order.
type sectionWriter struct {
	files       [4]*statedir.PendingFile
	w           [4]*bufio.Writer
	n           uint32 // terms written
	strs, posts uint64 // bytes of terms and of lists written
	scratch     []byte
}

const (
	partStrOff = iota
	partPostOff
	partStrs
	partPosts
)

func newSectionWriter(d *statedir.Dir) (*sectionWriter, error) {
	sw := &sectionWriter{}
	for k := range sw.files {
		f, err := d.Create(scratchFile, 0o600)
		if err != nil {
			sw.close()
			return nil, err
		}
		sw.files[k], sw.w[k] = f, bufio.NewWriterSize(f, 1<<16)
	}
	sw.offsets()
	return sw, nil
}

// offsets writes the offsets of the next term.
func (sw *sectionWriter) offsets() {
	sw.scratch = binary.LittleEndian.AppendUint32(sw.scratch[:0], uint32(sw.strs))
	sw.w[partStrOff].Write(sw.scratch)
	sw.scratch = binary.LittleEndian.AppendUint32(sw.scratch[:0], uint32(sw.posts))
	sw.w[partPostOff].Write(sw.scratch)
}

// add writes a term and its list (without df, which it writes first).
func (sw *sectionWriter) add(term []byte, df uint32, list []byte) error {
	sw.scratch = binary.AppendUvarint(sw.scratch[:0], uint64(df))
	sw.strs += uint64(len(term))
	sw.posts += uint64(len(sw.scratch) + len(list))
	if sw.strs > math.MaxUint32 || sw.posts > math.MaxUint32 || sw.n == math.MaxUint32-1 {
		return errors.New("index too large")
	}
	sw.w[partPosts].Write(sw.scratch)
	sw.w[partPosts].Write(list)
	sw.w[partStrs].Write(term)
	sw.n++
	sw.offsets()
	return nil
}

// size returns the section's size in bytes.
func (sw *sectionWriter) size() int64 {
	return 4 + 8*(int64(sw.n)+1) + int64(sw.strs) + int64(sw.posts)
}

// writeTo writes the section to w: the term count, then its parts.
func (sw *sectionWriter) writeTo(w io.Writer) error {
	if _, err := w.Write(binary.LittleEndian.AppendUint32(nil, sw.n)); err != nil {
		return err
	}
	for k, f := range sw.files {
		if err := sw.w[k].Flush(); err != nil {
			return fmt.Errorf("write the index: %w", err)
		}
		if _, err := io.Copy(w, io.NewSectionReader(f, 0, math.MaxInt64)); err != nil {
			return fmt.Errorf("write the index: %w", err)
		}
	}
	return nil
}

// close removes the scratch files.
func (sw *sectionWriter) close() {
	for _, f := range sw.files {
		if f != nil {
			f.Abort()
		}
	}
}

// writeSegmented writes the new index from the old one and the segments:
// the text dictionary is merged to scratch files, and the index file is
// assembled from its documents, that dictionary and the path dictionary;
// it is then mapped, as Open maps it, and installed.
func (r *refresh) writeSegmented(ctx context.Context) (Stats, error) {
	sw, err := r.mergeSegments()
	if sw != nil {
		defer sw.close()
	}
	if err == nil {
		err = ctx.Err()
	}
	if err != nil {
		return r.stats, err
	}
	paths := buildPaths(r.docs) // (which sets the documents' path and name lengths)
	head := encodeDocs(r.docs)
	r.docs = nil
	runtime.GC()
	if err := writeStreamed(r.dir, head, sw, paths, r.fsum); err != nil {
		return r.stats, err
	}
	return r.installWritten()
}

// mergeSegments flushes the last batch to a segment too, and merges the
// old index's text dictionary and the segments into a section writer.
func (r *refresh) mergeSegments() (*sectionWriter, error) {
	if err := r.segs.flush(r.fl); err != nil {
		return nil, err
	}
	// what the merge and the file need of the files is r.docs: the walk's
	// and the analysis's records of them go
	r.fl = &freshLists{n: r.fl.n}
	r.todo, r.slots, r.seen, r.gone = nil, nil, nil, nil
	runtime.GC()
	readers := make([]*segmentReader, len(r.segs.files))
	for k, f := range r.segs.files {
		readers[k] = newSegmentReader(f)
	}
	sw, err := newSectionWriter(r.dir)
	if err != nil {
		return nil, err
	}
	if err := mergeInputs(&r.old.text, len(r.old.docs), r.keep, r.nOld, readers, sw); err != nil {
		return sw, err
	}
	r.segs.close() // merged: their disk space is free for the index
	return sw, nil
}

// installWritten maps the index file just written and installs it. Its
// checksum is not computed again: that would read every page of the file
// (the size of the index) into this process's memory.
func (r *refresh) installWritten() (Stats, error) {
	data, release, err := readIndex(r.dir, indexFile)
	if err == nil && len(data) < headerSize {
		err = corrupt("truncated")
	}
	var dec *decoded
	if err == nil {
		dec, err = decodeBody(data[headerSize:])
	}
	if err != nil {
		return r.stats, fmt.Errorf("index written but unreadable: %w", err)
	}
	st := newState(dec.docs, dec.text, dec.path, int64(len(data)))
	st.filter = r.fsum
	release(st)
	r.ix.install(st)
	r.ix.mu.Lock()
	r.ix.loaded = indexFileID(r.ix.dir)
	r.ix.mu.Unlock()
	r.stats.Written = true
	r.stats.fill(st, time.Since(r.start))
	return r.stats, nil
}

// writeStreamed writes the index file of d from its header and documents
// (encodeDocs), a text dictionary in scratch files and the path
// dictionary, computing the header's length and checksum as it goes.
func writeStreamed(d *statedir.Dir, head []byte, text *sectionWriter, paths []byte, filter uint32) error {
	f, err := d.Create(indexFile, 0o600)
	if err != nil {
		return err
	}
	body := int64(len(head)-headerSize) + text.size() + int64(len(paths))
	preallocate(f.File, headerSize+body)
	sum := crc32.New(crc32.MakeTable(crc32.Castagnoli))
	bw := bufio.NewWriterSize(f, 1<<16)
	w := io.MultiWriter(bw, sum)
	bw.Write(head[:headerSize]) // completed below
	w.Write(head[headerSize:])
	if err := text.writeTo(w); err != nil {
		f.Abort()
		return err
	}
	w.Write(paths)
	if err := bw.Flush(); err != nil {
		f.Abort()
		return fmt.Errorf("write the index: %w", err)
	}
	finishHeader(head, body, sum.Sum32(), filter)
	if _, err := f.WriteAt(head[:headerSize], 0); err != nil {
		f.Abort()
		return fmt.Errorf("write the index: %w", err)
	}
	return f.Commit(false)
}
