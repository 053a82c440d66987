package project

import (
	"context"
	"encoding/binary"
	"hash/crc32"
	"io/fs"
	"strings"
	"sync"
	"time"
)

// The walk cache lets WalkCached skip listing directories that have not
// changed since an earlier walk. It records the raw listing of every
// directory a walk listed (every name and its type, before any ignore rule
// or policy is applied) with the directory's inode, change time and
// modification time. Creating, deleting or renaming an entry changes a
// directory's times, so a directory whose inode and times are the ones
// recorded has the recorded entries, and the walk takes them instead of
// opening and reading the directory. Everything else is done as in Walk:
// the ignore rules, the policy and the name checks are applied to the
// entries afresh, every regular file is lstat'ed and every symlink
// resolved, so the cache changes what a walk costs, never what it yields.
//
// A directory whose change or modification time lies within walkRacy of
// the walk that recorded it is not trusted (file systems stamp times from a
// coarse clock, so a change right after the listing could keep the times).
// The cache is checked, never trusted: a damaged one, or one recorded for
// another directory, is ignored. Only Linux keeps one (elsewhere a
// directory cannot be stat'ed without opening it through the root).
//
// The format:
//
//	"TCTLPWLK" magic, u32 version, u32 CRC-32C of the body, then the body:
//	uvarint root length, root, varint walk start (Unix ns), uvarint
//	directory count, and per directory: uvarint length, rel path, uvarint
//	inode, varint ctime, varint mtime, uvarint entry count, and per entry a
//	type byte and uvarint length and name.
const (
	walkMagic   = "TCTLPWLK"
	walkVersion = 1
)

// walkRacy is how long before a walk a change makes a directory untrusted
// by the next walk (a variable for tests).
var walkRacy = int64(2 * time.Second)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// dirStamp identifies one version of a directory.
type dirStamp struct {
	ino          uint64
	ctime, mtime int64
}

type cachedEnt struct {
	name string
	typ  fs.FileMode // type bits only
}

type cachedDir struct {
	rel   string
	stamp dirStamp
	ents  []cachedEnt
}

// walkCache is what one walk recorded (prev) or records (next).
type walkCache struct {
	start int64
	dirs  map[string]*cachedDir // prev: by rel
	files int                   // prev: entries that are not directories

	mu    sync.Mutex
	next  []*cachedDir
	dirty bool // a directory was listed
}

// trusted returns the recorded directory rel if its stamp is s and it
// changed well before the recording walk.
func (c *walkCache) trusted(rel string, s dirStamp) (*cachedDir, bool) {
	if c == nil || c.dirs == nil {
		return nil, false
	}
	d := c.dirs[rel]
	lim := c.start - walkRacy
	if d == nil || d.stamp != s || s.ctime >= lim || s.mtime >= lim {
		return nil, false
	}
	return d, true
}

// record keeps a directory's listing for the next walk.
func (c *walkCache) record(d *cachedDir, listed bool) {
	c.mu.Lock()
	c.next = append(c.next, d)
	c.dirty = c.dirty || listed
	c.mu.Unlock()
}

var typeCodes = []fs.FileMode{0, fs.ModeDir, fs.ModeSymlink, fs.ModeNamedPipe, fs.ModeSocket,
	fs.ModeDevice | fs.ModeCharDevice, fs.ModeDevice, fs.ModeIrregular}

func typeCode(t fs.FileMode) byte {
	for i, m := range typeCodes {
		if m == t {
			return byte(i)
		}
	}
	return byte(len(typeCodes) - 1)
}

func encodeWalkCache(root string, start int64, dirs []*cachedDir) []byte {
	b := make([]byte, 16, 1<<16)
	copy(b, walkMagic)
	binary.LittleEndian.PutUint32(b[8:], walkVersion)
	b = binary.AppendUvarint(b, uint64(len(root)))
	b = append(b, root...)
	b = binary.AppendVarint(b, start)
	b = binary.AppendUvarint(b, uint64(len(dirs)))
	for _, d := range dirs {
		b = binary.AppendUvarint(b, uint64(len(d.rel)))
		b = append(b, d.rel...)
		b = binary.AppendUvarint(b, d.stamp.ino)
		b = binary.AppendVarint(b, d.stamp.ctime)
		b = binary.AppendVarint(b, d.stamp.mtime)
		b = binary.AppendUvarint(b, uint64(len(d.ents)))
		for _, e := range d.ents {
			b = append(b, typeCode(e.typ))
			b = binary.AppendUvarint(b, uint64(len(e.name)))
			b = append(b, e.name...)
		}
	}
	binary.LittleEndian.PutUint32(b[12:], crc32.Checksum(b[16:], castagnoli))
	return b
}

// decodeWalkCache reads a walk cache recorded for root; anything it cannot
// trust gives nil.
func decodeWalkCache(data []byte, root string) *walkCache {
	if len(data) < 16 || string(data[:8]) != walkMagic || binary.LittleEndian.Uint32(data[8:]) != walkVersion {
		return nil
	}
	body := data[16:]
	if crc32.Checksum(body, castagnoli) != binary.LittleEndian.Uint32(data[12:]) {
		return nil
	}
	str := string(body) // one string holds every path and name
	off := 0
	bad := false
	uv := func() uint64 {
		v, n := binary.Uvarint(body[off:])
		if n <= 0 {
			bad = true
			return 0
		}
		off += n
		return v
	}
	sv := func() int64 {
		v, n := binary.Varint(body[off:])
		if n <= 0 {
			bad = true
			return 0
		}
		off += n
		return v
	}
	take := func(n uint64) string {
		if bad || n > uint64(len(body)-off) {
			bad = true
			return ""
		}
		s := str[off : off+int(n)]
		off += int(n)
		return s
	}
	if take(uv()) != root || bad {
		return nil
	}
	c := &walkCache{start: sv()}
	n := uv()
	if bad || n > uint64(len(body))/5 { // a directory takes 5 bytes at least
		return nil
	}
	c.dirs = make(map[string]*cachedDir, n)
	dirs := make([]cachedDir, n) // one allocation for all directories
	var slab []cachedEnt         // and one for many directories' entries
	for i := range dirs {
		d := &dirs[i]
		d.rel = take(uv())
		d.stamp = dirStamp{ino: uv(), ctime: sv(), mtime: sv()}
		ne := uv()
		if bad || ne > uint64(len(body)-off) {
			return nil
		}
		if ne > uint64(cap(slab)-len(slab)) {
			slab = make([]cachedEnt, 0, max(ne, 4096))
		}
		d.ents = slab[len(slab) : len(slab)+int(ne) : len(slab)+int(ne)]
		slab = slab[:len(slab)+int(ne)]
		for k := range d.ents {
			if off >= len(body) {
				return nil
			}
			code := body[off]
			off++
			name := take(uv())
			if bad || int(code) >= len(typeCodes) || name == "" || name == "." || name == ".." ||
				strings.ContainsAny(name, "/\x00") {
				return nil // not a name a directory can hold
			}
			d.ents[k] = cachedEnt{name, typeCodes[code]}
			if code != 1 { // not fs.ModeDir
				c.files++
			}
		}
		c.dirs[d.rel] = d
	}
	if bad || off != len(body) {
		return nil
	}
	return c
}

// WalkCached is Walk given the state an earlier WalkCached returned (nil
// for none): directories whose inode and times are unchanged since then
// are not listed again, their recorded entries are used (see walkcache.go).
// It yields exactly what Walk would. It returns the state for the next
// walk, or nil when prev still describes every directory walked. A state
// it cannot use (damaged, from another project dir) is ignored.
func (p *Project) WalkCached(ctx context.Context, prev []byte, fn func(c Candidate, info fs.FileInfo) error) (next []byte, err error) {
	r := p.roots[0]
	if !canStampDirs(r) {
		return nil, p.Walk(ctx, fn)
	}
	c := &walkCache{start: time.Now().UnixNano()}
	var old *walkCache
	if prev != nil {
		old = decodeWalkCache(prev, r.dir)
	}
	if err := p.walk(ctx, old, c, fn); err != nil {
		return nil, err
	}
	if old != nil && !c.dirty && len(c.next) == len(old.dirs) {
		return nil, nil
	}
	return encodeWalkCache(r.dir, c.start, c.next), nil
}

// statInfo is the fs.FileInfo of lstatIn on Linux (Sys is nil).
type statInfo struct {
	name  string
	size  int64
	mtime time.Time
	mode  fs.FileMode
}

func (s *statInfo) Name() string       { return s.name }
func (s *statInfo) Size() int64        { return s.size }
func (s *statInfo) Mode() fs.FileMode  { return s.mode }
func (s *statInfo) ModTime() time.Time { return s.mtime }
func (s *statInfo) IsDir() bool        { return s.mode.IsDir() }
func (s *statInfo) Sys() any           { return nil }
