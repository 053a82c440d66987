package memory

import (
	"context"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"hash/crc32"
	"math"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/go-git/go-git/v5/plumbing"
	statedir "github.com/taskctl/taskctl/state"
)

// History. A project's commit messages say in its people's words what
// the files they touched do: "spread requests over backends" may be no
// word of the code, but the commit that added the balancer said it. The
// index keeps, for the newest historyCommits commits that are not merges
// and change at most historyMaxFiles files, the terms of each message and
// the paths it changed (history.bin in the index directory, kept with the
// head it was read at). A refresh that finds the head moved reads the
// commits again from the new head, and analyses only those it does not
// hold yet (a commit is the same commit whatever comes after it); a
// history rewritten under it costs more reading, never a wrong record.
// Search counts a query term's appearances in the messages of the commits
// that changed a file as one more field of that file, at historyWeight of
// its content, so an exact match in the code always counts more.

const (
	historyCommits  = 2000               // commits kept, the newest
	historyMaxFiles = 20                 // a commit changing more files says little about each
	historyTerms    = 64                 // terms kept of a message, in order
	historyVisit    = 4 * historyCommits // commits read at most, those left out included
	historyFile     = "history.bin"
	historyVersion  = 1
)

// historyWeight is what a term's appearance in a commit message of a file
// counts for against one in its content, inside the same saturation.
const historyWeight = 0.5

// A HistorySource is a Source that can read the project's commit history.
// ProjectSource is one when the project has a git directory of its own.
type HistorySource interface {
	Source
	// Head returns the commit the project is at, "" when it has none
	// (no repository, an unborn branch).
	Head() (string, error)
	// Log calls fn with the commits reachable from head and not from
	// since ("" for none), newest first, merges left out, until fn
	// returns false or an error. It reports whether head descends from
	// since (see GitLog.Log).
	Log(ctx context.Context, head, since string, fn func(LogCommit) (bool, error)) (bool, error)
}

// A LogCommit is a commit a HistorySource lists: its hash, its message,
// and what lists the paths it changes (called only for a commit the index
// does not hold yet).
type LogCommit struct {
	Hash    string
	Message string
	Changed func() ([]string, error)
}

// A commitRecord is what the index keeps of one commit.
type commitRecord struct {
	hash  string
	terms []string // its message's terms, each once
	files []string // the paths it changed, slash-separated
}

// history is the history section: the head it was read at and the
// commits kept, newest first; assoc is built from them on first use.
type history struct {
	head     string
	commits  []commitRecord
	fresh    int // commits whose changes were read by the refresh that made it
	nCounted int // commits that change a few files (counted)

	once   sync.Once
	byTerm map[string][]int32 // term → the commits whose messages have it
	length map[string]float64 // path → terms of its commits' messages
	avg    float64
}

// index builds h's term lists.
func (h *history) index() {
	h.once.Do(func() {
		h.byTerm = map[string][]int32{}
		h.length = map[string]float64{}
		for i, c := range h.commits {
			for _, f := range c.files {
				h.length[f] += float64(len(c.terms))
			}
			for _, t := range c.terms {
				h.byTerm[t] = append(h.byTerm[t], int32(i))
			}
		}
		sum := 0.0
		for _, l := range h.length {
			sum += l
		}
		if len(h.length) > 0 {
			h.avg = sum / float64(len(h.length))
		}
	})
}

// messageTerms returns the terms of a commit message, each once, in
// order, at most historyTerms: trailers (Signed-off-by and the like) name
// people and are left out.
func messageTerms(a *analyzer, msg string) []string {
	seen := map[string]bool{}
	var out []string
	for _, line := range strings.Split(msg, "\n") {
		l := strings.ToLower(strings.TrimSpace(line))
		if trailer(l) {
			continue
		}
		a.words(line, func(w string) {
			a.identifier(w, func(t string, _ bool) {
				if !seen[t] && len(out) < historyTerms {
					seen[t] = true
					out = append(out, t)
				}
			})
		})
	}
	return out
}

// trailer reports whether a lower-cased line of a commit message is a
// trailer that names a person or a change ID.
func trailer(l string) bool {
	for _, p := range []string{"signed-off-by:", "co-authored-by:", "reviewed-by:", "change-id:", "acked-by:", "tested-by:", "reported-by:", "cc:"} {
		if strings.HasPrefix(l, p) {
			return true
		}
	}
	return false
}

// readHistory brings old (nil for none) up to date with src's head:
// when the head descends from old's, the commits since old's head are read
// and put before old's; else the commits from the head on are listed
// again, those old holds reused as they are. It returns old itself when
// the head has not moved, and nil when src has no history.
func readHistory(ctx context.Context, src HistorySource, old *history) (*history, error) {
	head, err := src.Head()
	if err != nil || head == "" {
		return nil, err
	}
	if old != nil && old.head == head {
		return old, nil
	}
	known := map[string]*commitRecord{}
	if old == nil {
		h, _, err := listCommits(ctx, src, head, "", known)
		return h, err
	}
	for i := range old.commits {
		known[old.commits[i].hash] = &old.commits[i]
	}
	h, ff, err := listCommits(ctx, src, head, old.head, known)
	if err != nil || ff {
		for _, c := range old.commits {
			if err != nil || !h.add(c) {
				break
			}
		}
		return h, err
	}
	// another branch, or history rewritten: list it all, reading only
	// the commits neither list has seen
	for i := range h.commits {
		known[h.commits[i].hash] = &h.commits[i]
	}
	fresh := h.fresh
	h, _, err = listCommits(ctx, src, head, "", known)
	if h != nil {
		h.fresh += fresh
	}
	return h, err
}

// listCommits lists the commits of head not reachable from since (""
// for none) into a new history, reusing the records of those known holds;
// it reports whether head descends from since.
func listCommits(ctx context.Context, src HistorySource, head, since string, known map[string]*commitRecord) (*history, bool, error) {
	h := &history{head: head}
	a := newAnalyzer()
	ff, err := src.Log(ctx, head, since, func(c LogCommit) (bool, error) {
		r := known[c.Hash]
		if r == nil {
			files, err := c.Changed()
			if errors.Is(err, plumbing.ErrObjectNotFound) {
				// a shallow clone's last commit: its changes are
				// unknown, and it is kept without them
				files, err = nil, nil
			}
			if err != nil {
				return false, err
			}
			h.fresh++
			r = &commitRecord{hash: c.Hash}
			if len(files) > 0 && len(files) <= historyMaxFiles {
				// the message as the source filters a file's text (the
				// command line redacts secrets)
				msg := string(filter(src, []byte(c.Message)))
				r.files, r.terms = files, messageTerms(a, msg)
			}
		}
		return h.add(*r), nil
	})
	return h, ff, err
}

// add appends a commit to h, and reports whether h has room for more. A
// commit that changes too much (or nothing) is kept, unused, so that the
// next refresh need not read its trees again.
func (h *history) add(c commitRecord) bool {
	h.commits = append(h.commits, c)
	if len(c.files) > 0 {
		h.nCounted++
	}
	return h.nCounted < historyCommits && len(h.commits) < historyVisit
}

// History section format: "TKHS", version, the analysis ID's CRC, the
// head, a table of the strings (terms and paths) the commits use, the
// number of commits, then each commit's hash (20 bytes), terms and files
// as indices into the table (uvarint counts and indices), and the CRC-32C
// of all before it.
var historyMagic = [4]byte{'T', 'K', 'H', 'S'}

func encodeHistory(h *history) []byte {
	b := append([]byte(nil), historyMagic[:]...)
	b = binary.AppendUvarint(b, historyVersion)
	b = binary.LittleEndian.AppendUint32(b, crc32.Checksum([]byte(analysisID), crcTable))
	putStr := func(s string) {
		b = binary.AppendUvarint(b, uint64(len(s)))
		b = append(b, s...)
	}
	putStr(h.head)
	ids := map[string]uint64{}
	var table []string
	for _, c := range h.commits {
		for _, s := range slices.Concat(c.terms, c.files) {
			if _, ok := ids[s]; !ok {
				ids[s] = uint64(len(table))
				table = append(table, s)
			}
		}
	}
	b = binary.AppendUvarint(b, uint64(len(table)))
	for _, s := range table {
		putStr(s)
	}
	b = binary.AppendUvarint(b, uint64(len(h.commits)))
	for _, c := range h.commits {
		var raw [20]byte
		hex.Decode(raw[:], []byte(c.hash)) // hashes are 40 hex digits (LogCommit)
		b = append(b, raw[:]...)
		for _, list := range [][]string{c.terms, c.files} {
			b = binary.AppendUvarint(b, uint64(len(list)))
			for _, s := range list {
				b = binary.AppendUvarint(b, ids[s])
			}
		}
	}
	return binary.LittleEndian.AppendUint32(b, crc32.Checksum(b, crcTable))
}

var crcTable = crc32.MakeTable(crc32.Castagnoli)

var errHistory = errors.New("history section damaged")

// decodeHistory reads what encodeHistory wrote; anything else (damaged,
// of another version or analysis) is an error and never a panic.
func decodeHistory(data []byte) (*history, error) {
	if len(data) < 8 || [4]byte(data[:4]) != historyMagic {
		return nil, errHistory
	}
	body := data[:len(data)-4]
	if crc32.Checksum(body, crcTable) != binary.LittleEndian.Uint32(data[len(data)-4:]) {
		return nil, errHistory
	}
	d := decoder{b: body[4:]}
	if v := d.uvarint(); v != historyVersion {
		return nil, errHistory
	}
	if d.u32() != crc32.Checksum([]byte(analysisID), crcTable) {
		return nil, errHistory
	}
	h := &history{head: d.str()}
	table := make([]string, d.count())
	for i := range table {
		table[i] = d.str()
	}
	n := d.count()
	if n > historyVisit {
		return nil, errHistory
	}
	for range n {
		raw := d.bytes(20)
		c := commitRecord{hash: hex.EncodeToString(raw)}
		for k := range 2 {
			m := d.count()
			list := make([]string, 0, m)
			for range m {
				i := d.uvarint()
				if i >= uint64(len(table)) {
					return nil, errHistory
				}
				list = append(list, table[i])
			}
			if m == 0 {
				list = nil
			}
			if k == 0 {
				c.terms = list
			} else {
				c.files = list
			}
		}
		h.commits = append(h.commits, c)
	}
	if d.bad || len(d.b) != 0 {
		return nil, errHistory
	}
	return h, nil
}

// decoder reads uvarints and strings, noting (not panicking) when the
// data ends early.
type decoder struct {
	b   []byte
	bad bool
}

func (d *decoder) uvarint() uint64 {
	v, n := binary.Uvarint(d.b)
	if n <= 0 {
		d.bad, d.b = true, nil
		return 0
	}
	d.b = d.b[n:]
	return v
}

func (d *decoder) u32() uint32 {
	if len(d.b) < 4 {
		d.bad, d.b = true, nil
		return 0
	}
	v := binary.LittleEndian.Uint32(d.b)
	d.b = d.b[4:]
	return v
}

// count reads a count of items each at least one byte long.
func (d *decoder) count() uint64 {
	n := d.uvarint()
	if n > uint64(len(d.b)) {
		d.bad, d.b = true, nil
		return 0
	}
	return n
}

func (d *decoder) bytes(n int) []byte {
	if len(d.b) < n {
		d.bad, d.b = true, nil
		return make([]byte, n)
	}
	v := d.b[:n]
	d.b = d.b[n:]
	return v
}

func (d *decoder) str() string {
	n := d.uvarint()
	if n > uint64(len(d.b)) {
		d.bad, d.b = true, nil
		return ""
	}
	s := string(d.b[:n])
	d.b = d.b[n:]
	return s
}

// history brings the index's history up to date with src, when src is a
// HistorySource, and notes it in r's statistics. Reading the history is
// no part of what a refresh promises: when it fails (a damaged or shallow
// repository), the history held is kept and the failure is not reported;
// a project without commits has none.
func (r *refresh) history(ctx context.Context, src Source) error {
	hs, ok := src.(HistorySource)
	r.ix.mu.RLock()
	held := r.ix.hist
	r.ix.mu.RUnlock()
	if !ok {
		r.stats.Commits = held.counted()
		return nil
	}
	old := held
	if !r.inMemory {
		if h := readHistoryFile(r.dir); h != nil && (old == nil || h.head != old.head) {
			old = h // written by another process, or not loaded (Update)
		}
	}
	h, err := readCollecting(ctx, hs, old)
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		h = old // kept, not reported
	}
	if h != old {
		r.stats.NewCommits = h.fresh
		if !r.inMemory {
			if err := writeHistory(r.dir, h); err != nil {
				return err
			}
		}
	}
	if h != held {
		r.ix.mu.Lock()
		r.ix.hist = h
		r.ix.gen++
		r.ix.mu.Unlock()
	}
	r.stats.Commits = h.counted()
	return nil
}

// readCollecting is readHistory with the collector on: go-git reads a
// pack's index into memory (tens of megabytes for a large repository)
// and inflates every object it reads, all of it garbage once the history
// is read, which a program that runs with the collector off (the command
// line) would otherwise keep beside the refresh's own memory.
func readCollecting(ctx context.Context, src HistorySource, old *history) (*history, error) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	h, err := readHistory(ctx, src, old)
	if h != old {
		// the pack index go-git read (megabytes) is garbage now: given
		// back, so that the refresh's own memory does not come on top
		debug.FreeOSMemory()
	}
	return h, err
}

// counted returns how many of h's commits count (change a few files).
func (h *history) counted() int {
	if h == nil {
		return 0
	}
	n := 0
	for _, c := range h.commits {
		if len(c.files) > 0 {
			n++
		}
	}
	return n
}

// loadHistory reads the history section of the index directory dir, nil
// when there is none or it cannot be used (it is then read again from the
// repository by the next Refresh).
func loadHistory(dir string) *history {
	if dir == "" {
		return nil
	}
	d, err := statedir.Open(dir)
	if err != nil {
		return nil
	}
	defer d.Close()
	return readHistoryFile(d)
}

func readHistoryFile(d *statedir.Dir) *history {
	data, release, err := readIndex(d, historyFile)
	if err != nil {
		return nil
	}
	h, err := decodeHistory(data)
	release(new(state))
	if err != nil {
		return nil
	}
	return h
}

// histDoc is a live document's count of a term in its commits' messages,
// length-normalised as a field of the document.
type histDoc struct {
	doc     uint32
	tf      float64
	commits int // the commits that changed it whose messages have the term
}

// historyB is the length normalisation of the history field: a file that
// many commits changed (a changelog, a package's hub) has every word.
const historyB = 0.75

// histBase is a document of a term's history list, and the term's
// weighted field frequencies in it without the history (accumulate).
type histBase struct {
	term  int
	h     histDoc
	tilde float64
}

// historyScores adds to acc what the history gives each term, saturated
// with the term's own matches (later holds those), and returns the weight
// of the terms only the history has (which count toward the total the
// scores are shares of). A file gains from the history only when it has
// one of the query's terms itself (exact): a commit's words lift a file
// the query already points at, and never bring in one it does not (a
// filter's file type, a test fixture a commit touched along with the code).
func (st *state) historyScores(qs []qterm, later []histBase, exact []bool, acc []float64) float64 {
	N := float64(st.live)
	extra := 0.0
	for i := 0; i < len(later); {
		j := i
		for j < len(later) && later[j].term == later[i].term {
			j++
		}
		q := &qs[later[i].term]
		if q.weight == 0 {
			// only the history has it: its weight from the files that
			// have one of the query's terms
			df := 0
			for _, b := range later[i:j] {
				if exact[b.h.doc] {
					df++
				}
			}
			if df > 0 {
				q.idf = math.Log(1 + (N-float64(df)+0.5)/(float64(df)+0.5))
				q.weight = q.idf * (1 + math.Log(q.tf))
				extra += q.weight
			}
		}
		for _, b := range later[i:j] {
			if !exact[b.h.doc] {
				continue
			}
			t0, t1 := b.tilde, b.tilde+historyWeight*b.h.tf
			acc[b.h.doc] += q.weight * (t1/(k1+t1) - t0/(k1+t0))
		}
		i = j
	}
	return extra
}

// historyDocs returns the live documents whose commits' messages have
// term t, with its normalised count in them.
func (st *state) historyDocs(h *history, t string) []histDoc {
	h.index()
	cs := h.byTerm[t]
	if len(cs) == 0 {
		return nil
	}
	byRel := st.docsByRel()
	count := map[uint32]int{}
	var order []uint32
	for _, ci := range cs {
		for _, f := range h.commits[ci].files {
			d, ok := byRel[f]
			if !ok || st.dead[d] {
				continue
			}
			if count[d] == 0 {
				order = append(order, d)
			}
			count[d]++
		}
	}
	out := make([]histDoc, 0, len(order))
	for _, d := range order {
		norm := 1 - historyB + historyB*h.length[st.docs[d].rel]/h.avg
		out = append(out, histDoc{d, float64(count[d]) / norm, count[d]})
	}
	return out
}

// docsByRel maps the paths of st's documents to their IDs.
func (st *state) docsByRel() map[string]uint32 {
	st.relOnce.Do(func() {
		st.byRel = make(map[string]uint32, len(st.docs))
		for i, d := range st.docs {
			if !st.dead[i] {
				st.byRel[d.rel] = uint32(i)
			}
		}
	})
	return st.byRel
}

// noteHistory notes in the reasons of the matches (out, by document in
// pos) the query terms q found in their commits' messages: "spread (3
// commits)" under "history"; with explain, it adds their weighted counts
// to the score of the term. Only a match with one of the query's terms
// itself (exact, by document) gains from the history (historyScores).
func noteHistory(out []Match, pos map[uint32]int, q qterm, exact map[uint32]bool, explain bool) {
	for _, h := range q.hist {
		i, ok := pos[h.doc]
		if !ok || !exact[h.doc] {
			continue
		}
		r := &out[i].Reason
		label := q.surface + " (1 commit)"
		if h.commits != 1 {
			label = q.surface + " (" + strconv.Itoa(h.commits) + " commits)"
		}
		r.Terms["history"] = append(r.Terms["history"], label)
		if explain {
			r.Scores[q.surface] += historyWeight * h.tf
		}
	}
}

// writeHistory replaces the history section of d with h's, or removes it
// when h is nil. Failing is no error (the next refresh reads the history
// again), unless something stands in the file's place.
func writeHistory(d *statedir.Dir, h *history) error {
	var err error
	if h == nil {
		err = d.RemoveFile(historyFile)
	} else {
		_, err = writeParts(d, historyFile, [][]byte{encodeHistory(h)}, nil)
	}
	var se *statedir.UnsafeError
	if errors.As(err, &se) {
		return err
	}
	return nil
}
