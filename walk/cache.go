package walk

import (
	"context"
	"encoding/binary"
	"hash/crc32"
	"io/fs"
	"math"
	"sync"
	"time"
	"unsafe"
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
//	type byte, uvarint length and name, and for a directory a uvarint: 1 +
//	the number of its own directory record, or 0 if it has none.
//
// The records of subdirectories let a walk go from a directory's record
// to its subdirectories' without looking them up by path.
const (
	walkMagic   = "TCTLPWLK"
	walkVersion = 2
)

// walkRacy is how long before a walk a change makes a directory untrusted
// by the next walk (a variable for tests).
var walkRacy = int64(2 * time.Second)

// dirStamp identifies one version of a directory.
type dirStamp struct {
	ino          uint64
	ctime, mtime int64
}

type cachedEnt struct {
	name string
	typ  fs.FileMode // type bits only
	sub  int32       // in prev: 1 + the number of a directory's own record, or 0
}

type cachedDir struct {
	rel   string
	stamp dirStamp
	ents  []cachedEnt
}

// walkCache is what one walk recorded (prev) or records (next).
type walkCache struct {
	start int64
	dirs  []cachedDir // prev: the records, in the order of the file
	root  *cachedDir  // prev: the record of the walk's root directory
	files int         // prev: entries that are not directories

	byRelOnce sync.Once
	byRel     map[string]*cachedDir // prev: the records by rel, made when first needed

	mu    sync.Mutex
	next  []*cachedDir
	dirty bool // a directory was listed
}

// trusted reports whether d, one of c's records, may stand for its
// directory, whose stamp is now s: the stamp is the one recorded and the
// directory changed well before the recording walk.
func (c *walkCache) trusted(d *cachedDir, s dirStamp) bool {
	lim := c.start - walkRacy
	return d.stamp == s && s.ctime < lim && s.mtime < lim
}

// rootDir returns the record of the walk's root directory, or nil (also
// for a nil c).
func (c *walkCache) rootDir() *cachedDir {
	if c == nil {
		return nil
	}
	return c.root
}

// sub returns the record of the subdirectory of d (nil for none) that e,
// one of d's entries, names: through e when d's listing came from c, else
// by path (a map of c's records, made once).
func (c *walkCache) sub(e *dirEnt, rel string) *cachedDir {
	if c == nil {
		return nil
	}
	if e.sub > 0 {
		return &c.dirs[e.sub-1]
	}
	if e.fromCache {
		return nil
	}
	c.byRelOnce.Do(func() {
		c.byRel = make(map[string]*cachedDir, len(c.dirs))
		for i := range c.dirs {
			c.byRel[c.dirs[i].rel] = &c.dirs[i]
		}
	})
	return c.byRel[rel]
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
	num := make(map[string]int, len(dirs))
	for i, d := range dirs {
		num[d.rel] = i
	}
	var sub []byte // a subdirectory's rel
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
			code := typeCode(e.typ)
			b = append(b, code)
			b = binary.AppendUvarint(b, uint64(len(e.name)))
			b = append(b, e.name...)
			if code == dirCode {
				sub = sub[:0]
				if d.rel != "" {
					sub = append(append(sub, d.rel...), '/')
				}
				sub = append(sub, e.name...)
				n, ok := num[string(sub)]
				if !ok {
					n = -1
				}
				b = binary.AppendUvarint(b, uint64(n+1))
			}
		}
	}
	binary.LittleEndian.PutUint32(b[12:], crc32.Checksum(b[16:], crc32.MakeTable(crc32.Castagnoli)))
	return b
}

// decodeWalkCache reads a walk cache recorded for root; anything it cannot
// trust gives nil. The paths and names of the result are data's bytes:
// data must not change while the result is in use.
func decodeWalkCache(data []byte, root string) *walkCache {
	if len(data) < 16 || string(data[:8]) != walkMagic || binary.LittleEndian.Uint32(data[8:]) != walkVersion {
		return nil
	}
	body := data[16:]
	if len(body) == 0 || crc32.Checksum(body, crc32.MakeTable(crc32.Castagnoli)) != binary.LittleEndian.Uint32(data[12:]) {
		return nil
	}
	str := unsafe.String(&body[0], len(body)) // every path and name is a substring
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
	c.dirs = make([]cachedDir, n) // one allocation for all directories
	var slab []cachedEnt          // and one for many directories' entries
	for i := range c.dirs {
		d := &c.dirs[i]
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
			if bad || int(code) >= len(typeCodes) || !entryName(name) {
				return nil // not a name a directory can hold
			}
			d.ents[k] = cachedEnt{name: name, typ: typeCodes[code]}
			if code != dirCode {
				c.files++
				continue
			}
			sub := uv()
			if bad || sub > n || sub > math.MaxInt32 {
				return nil
			}
			d.ents[k].sub = int32(sub)
		}
		if d.rel == "" && c.root == nil {
			c.root = d
		}
	}
	if bad || off != len(body) {
		return nil
	}
	// A subdirectory's record must be the one of its path.
	for i := range c.dirs {
		d := &c.dirs[i]
		for _, e := range d.ents {
			if e.sub > 0 && !isChild(c.dirs[e.sub-1].rel, d.rel, e.name) {
				return nil
			}
		}
	}
	return c
}

// entryName reports whether name can name an entry of a directory: not
// empty, "." or "..", and without a slash or NUL.
func entryName(name string) bool {
	if name == "" || name == "." || name == ".." {
		return false
	}
	for i := 0; i < len(name); i++ {
		if c := name[i]; c == '/' || c == 0 {
			return false
		}
	}
	return true
}

// dirCode is the type code of a directory.
const dirCode = 1

// isChild reports whether rel is the path of entry name of directory dir.
func isChild(rel, dir, name string) bool {
	if dir == "" {
		return rel == name
	}
	return len(rel) == len(dir)+1+len(name) && rel[:len(dir)] == dir && rel[len(dir)] == '/' && rel[len(dir)+1:] == name
}

// Cached is Files given the state an earlier Cached returned (nil for
// none): directories whose inode and times are unchanged since then are
// not listed again, their recorded entries are used (see the top of this
// file). It yields exactly what Files would. It returns the state for the
// next walk, or nil when prev still describes every directory walked. A
// state it cannot use (damaged, from another tree) is ignored. prev must
// not be modified while Cached runs; nothing it yields or returns refers
// to prev.
func Cached(ctx context.Context, r *Tree, prev []byte, fn func(c Candidate, info fs.FileInfo) error) (next []byte, err error) {
	if !canStampDirs(r) {
		return nil, Files(ctx, r, fn)
	}
	c := &walkCache{start: time.Now().UnixNano()}
	var old *walkCache
	if prev != nil {
		old = decodeWalkCache(prev, r.dir)
	}
	if err := walkTree(ctx, r, old, c, fn); err != nil {
		return nil, err
	}
	if old != nil && !c.dirty && len(c.next) == len(old.dirs) {
		return nil, nil
	}
	return encodeWalkCache(r.dir, c.start, c.next), nil
}

// A StatInfo is the fs.FileInfo of Tree.Lstat on Linux (Sys is nil).
type StatInfo struct {
	name  string
	size  int64
	mtime time.Time
	mode  fs.FileMode
	nlink uint64 // hard links to the file (0 where unknown)
	ino   uint64 // its inode number (0 where unknown)
}

func (s *StatInfo) Name() string       { return s.name }
func (s *StatInfo) Size() int64        { return s.size }
func (s *StatInfo) Mode() fs.FileMode  { return s.mode }
func (s *StatInfo) ModTime() time.Time { return s.mtime }
func (s *StatInfo) IsDir() bool        { return s.mode.IsDir() }
func (s *StatInfo) Sys() any           { return nil }
