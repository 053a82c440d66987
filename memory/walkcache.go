package memory

import (
	"encoding/binary"
	"hash/crc32"
)

// The walk cache lets DirSource skip listing directories that have not
// changed since an earlier walk. A directory whose inode, change time and
// modification time are the ones recorded has the same entries (creating,
// deleting or renaming an entry changes both times), so its entries need
// not be read and matched against the ignore rules again, provided the
// rules in effect are the same: each directory records a digest of the
// identity (inode, size, change and modification time) of every ignore
// file from .git/info/exclude down to its own .gitignore, and one whose
// digest differs is listed again. The files of an unchanged directory are
// still stat'ed one by one, so a changed file is noticed as on a full walk.
//
// A directory changed within walkRacy of the walk that recorded it is not
// trusted (file systems stamp times from a coarse clock, so a change right
// after the listing could keep the same times), nor is an ignore file
// changed that recently.
//
// The cache file:
//
//	"TCTLWALK" magic, u32 version, u32 CRC-32C of the body, then the body:
//	uvarint root length, root, varint walk start (Unix ns), uvarint
//	directory count, and per directory (in walk order): uvarint length of
//	the prefix shared with the previous directory's path, uvarint suffix
//	length, suffix, uvarint inode, varint ctime, varint mtime, u64 digest,
//	flags byte (1: it has a .gitignore), uvarint entry count, and per entry a kind byte (0 file, 1 directory),
//	uvarint name length and name.
const (
	walkMagic   = "TCTLWALK"
	walkVersion = 1
)

// walkRacy is how long before a walk a change makes a directory or an
// ignore file untrusted by the next walk (a variable for tests).
var walkRacy int64 = 2e9 // ns

// walkFile is the name of the walk cache in the index directory.
const walkFile = "walk.bin"

type cachedDir struct {
	ino          uint64
	ctime, mtime int64
	digest       uint64
	ignore       bool // it has a .gitignore
	ents         []cachedEnt
}

type cachedEnt struct {
	name string
	dir  bool
}

type walkCache struct {
	start int64
	dirs  map[string]*cachedDir
}

// stamp identifies one version of a file or directory.
type stamp struct {
	ino          uint64
	size         int64
	ctime, mtime int64
}

// digestOf extends a parent's ignore digest with a directory's ignore file
// (the zero stamp if it has none).
func digestOf(parent uint64, s stamp) uint64 {
	h := parent ^ 0x9e3779b97f4a7c15
	for _, v := range [4]uint64{s.ino, uint64(s.size), uint64(s.ctime), uint64(s.mtime)} {
		h ^= v
		h *= 0x100000001b3
		h ^= h >> 29
	}
	return h
}

// decodeWalkCache reads a walk cache for root; anything it cannot trust
// gives nil.
func decodeWalkCache(data []byte, root string) *walkCache {
	if len(data) < 16 || string(data[:8]) != walkMagic || binary.LittleEndian.Uint32(data[8:]) != walkVersion {
		return nil
	}
	body := data[16:]
	if crc32.Checksum(body, castagnoli) != binary.LittleEndian.Uint32(data[12:]) {
		return nil
	}
	// One string holds every path and name, so decoding allocates little.
	str := string(body)
	r := reader{b: body}
	pos := func() int { return len(body) - len(r.b) }
	take := func(n uint64) string {
		p := pos()
		if r.bytes(n) == nil && n > 0 {
			return ""
		}
		return str[p : p+int(n)]
	}
	if take(r.uvarint()) != root || r.err != nil {
		return nil
	}
	c := &walkCache{start: r.varint()}
	n := r.uvarint()
	if r.err != nil || n > uint64(len(body)) {
		return nil
	}
	c.dirs = make(map[string]*cachedDir, n)
	prev := ""
	for range n {
		shared := r.uvarint()
		suffix := r.bytes(r.uvarint())
		if r.err != nil || shared > uint64(len(prev)) {
			return nil
		}
		rel := prev[:shared] + string(suffix)
		d := &cachedDir{ino: r.uvarint(), ctime: r.varint(), mtime: r.varint()}
		if b := r.bytes(8); b != nil {
			d.digest = binary.LittleEndian.Uint64(b)
		}
		switch r.byte() {
		case 0:
		case 1:
			d.ignore = true
		default:
			return nil
		}
		ne := r.uvarint()
		if r.err != nil || ne > uint64(len(r.b)) {
			return nil
		}
		d.ents = make([]cachedEnt, ne)
		for k := range d.ents {
			kind := r.byte()
			name := take(r.uvarint())
			if r.err != nil || kind > 1 || name == "" {
				return nil
			}
			d.ents[k] = cachedEnt{name, kind == 1}
		}
		c.dirs[rel] = d
		prev = rel
	}
	if r.err != nil || len(r.b) != 0 {
		return nil
	}
	return c
}

// walkCacheWriter encodes a walk cache directory by directory.
type walkCacheWriter struct {
	head []byte
	dirs []byte
	n    int
	prev string
}

func newWalkCacheWriter(root string, start int64) *walkCacheWriter {
	w := &walkCacheWriter{head: make([]byte, 16, 64+len(root)), dirs: make([]byte, 0, 1<<16)}
	copy(w.head, walkMagic)
	binary.LittleEndian.PutUint32(w.head[8:], walkVersion)
	w.head = binary.AppendUvarint(w.head, uint64(len(root)))
	w.head = append(w.head, root...)
	w.head = binary.AppendVarint(w.head, start)
	return w
}

// dir adds a directory and its n entries; ent returns the i-th, keep
// false for one to leave out.
func (w *walkCacheWriter) dir(rel string, d *cachedDir, n int, ent func(i int) (name string, dir, keep bool)) {
	shared := 0
	for shared < len(w.prev) && shared < len(rel) && w.prev[shared] == rel[shared] {
		shared++
	}
	b := w.dirs
	b = binary.AppendUvarint(b, uint64(shared))
	b = binary.AppendUvarint(b, uint64(len(rel)-shared))
	b = append(b, rel[shared:]...)
	b = binary.AppendUvarint(b, d.ino)
	b = binary.AppendVarint(b, d.ctime)
	b = binary.AppendVarint(b, d.mtime)
	b = binary.LittleEndian.AppendUint64(b, d.digest)
	flags := byte(0)
	if d.ignore {
		flags = 1
	}
	b = append(b, flags)
	kept := 0
	for i := range n {
		if _, _, keep := ent(i); keep {
			kept++
		}
	}
	b = binary.AppendUvarint(b, uint64(kept))
	for i := range n {
		name, dir, keep := ent(i)
		if !keep {
			continue
		}
		kind := byte(0)
		if dir {
			kind = 1
		}
		b = append(b, kind)
		b = binary.AppendUvarint(b, uint64(len(name)))
		b = append(b, name...)
	}
	w.dirs = b
	w.n++
	w.prev = rel
}

// bytes returns the encoded cache.
func (w *walkCacheWriter) bytes() []byte {
	b := binary.AppendUvarint(w.head, uint64(w.n))
	b = append(b, w.dirs...)
	binary.LittleEndian.PutUint32(b[12:], crc32.Checksum(b[16:], castagnoli))
	return b
}
