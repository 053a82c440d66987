package tokens

import (
	"bufio"
	"bytes"
	"cmp"
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"slices"
	"sync"

	"github.com/taskctl/taskctl/state"
)

// MaxCacheEntries bounds a [Cache]: beyond it the least recently used counts
// are dropped (down to nine tenths of the bound, so eviction is amortised).
const MaxCacheEntries = 200_000

// CacheFile is the name of the cache's file inside its directory.
const CacheFile = "counts.v3"

// maxCacheFileSize caps what OpenCache reads; a bigger file is ignored.
const maxCacheFileSize = 64 << 20

var magic = []byte("taskctl token counts v3\n")

// A Cache remembers token counts by [Sum] of the content and encoding name.
// The zero value is not usable; a nil *Cache is, and caches nothing.
type Cache struct {
	dir string
	key [16]byte // the secret the sums are made with, kept in the file
	// home is the identity of the directory the file was written in, and
	// of its writer (see place): a file found anywhere else is not used.
	home place
	gcm  sync.Pool // of cipher.AEAD under key

	mu      sync.Mutex
	entries map[cacheKey]cacheEntry
	clock   uint64 // recency stamp of the last use
	// dirty says a count was added or dropped since the file was read or
	// written. A hit only moves its entry's recency stamp, which the file
	// gets with the next save: a run that only found counts (a pack of an
	// unchanged tree) does not rewrite the file, so the order on disk is
	// that of the last run that counted something.
	dirty bool
}

// A Sum names a content in one [Cache]: the GMAC of the content under the
// cache's own random key (the tag AES-GCM gives with the content as its
// only data), computed at several gigabytes a second, where sha256 ran at
// under two. Two contents have the same sum with a chance of about their
// length in blocks in 2^128 for anyone who does not know the key, which
// only the cache's file holds: a project's files cannot be made to
// collide, so no file can take another's count.
type Sum [16]byte

type cacheKey struct {
	sum Sum
	enc string
	len uint64 // the content's length in bytes
}

// maxTokenBytes bounds the bytes of one token of any encoding taskctl
// has (o200k_base's longest is far shorter): a content of n bytes counts
// between n/maxTokenBytes and n tokens.
const maxTokenBytes = 1024

// plausible reports whether n tokens can be the count of a content of
// size bytes.
func plausible(n int, size uint64) bool {
	return uint64(n) <= size && uint64(n)*maxTokenBytes >= size
}

type cacheEntry struct {
	n    int
	used uint64
}

// OpenCache returns the cache kept in dir (its file is dir/[CacheFile]),
// a directory of taskctl's state named by its real path (see
// state.Dir). A missing, unreadable, oversized or corrupt file, or
// one that is not a regular file (a symlink, say), gives an empty cache:
// the cache can only make a run faster, never stop it. OpenCache does not
// create dir.
//
// The file holds the key its sums are made with, so whoever writes it can
// make any content count anything: a cache is only used where taskctl
// wrote it. A file that another user owns, or that records another
// directory than the one it is found in (by device and inode, which a
// repository, an archive or a copy cannot foresee), is ignored like a
// corrupt one; the caller ignores one that git tracks (it came with the
// repository). Each count is also bound to its content's length: a count
// that length could not give (more tokens than bytes, or fewer than one
// token for every 1,024 bytes) is not used.
func OpenCache(dir string) *Cache {
	c := &Cache{dir: dir, entries: make(map[cacheKey]cacheEntry)}
	if data, home, err := readCacheFile(dir); err == nil {
		c.home = home
		if err := c.decode(data); err == nil {
			return c
		}
		clear(c.entries)
		c.clock = 0
	}
	rand.Read(c.key[:]) // never fails (crypto/rand)
	return c
}

// Sum returns content's sum in ch (zero for a nil cache).
func (ch *Cache) Sum(content []byte) Sum {
	var s Sum
	if ch == nil {
		return s
	}
	g, _ := ch.gcm.Get().(cipher.AEAD)
	if g == nil {
		b, err := aes.NewCipher(ch.key[:])
		if err != nil {
			panic(err) // a 16-byte key always makes a cipher
		}
		if g, err = cipher.NewGCM(b); err != nil {
			panic(err)
		}
	}
	var nonce [12]byte // one key, one nonce: the tag is a MAC, nothing is encrypted
	g.Seal(s[:0], nonce[:], nil, content)
	ch.gcm.Put(g)
	return s
}

// Count returns the number of tokens in content for counter c, from the
// cache when it holds them (hit is then true and c is not called), otherwise
// from c, remembering the result. Safe for concurrent use; the tokenizer runs
// outside the cache's lock, so counts of different contents proceed in
// parallel.
func (ch *Cache) Count(c Counter, content []byte) (n int, hit bool) {
	if ch == nil {
		return c.Count(content), false
	}
	return ch.CountSum(c, ch.Sum(content), content)
}

// Lookup returns the count the cache holds for content of size bytes whose
// [Cache.Sum] is sum in counter c's encoding, if it holds one.
func (ch *Cache) Lookup(c Counter, sum Sum, size int) (n int, ok bool) {
	if ch == nil {
		return 0, false
	}
	k := cacheKey{sum: sum, enc: c.Name(), len: uint64(size)}
	ch.mu.Lock()
	defer ch.mu.Unlock()
	return ch.hit(k)
}

// hit returns the count of k, moving it to the most recently used, if the
// cache holds one; ch.mu must be held.
func (ch *Cache) hit(k cacheKey) (int, bool) {
	e, ok := ch.entries[k]
	if !ok {
		return 0, false
	}
	ch.clock++
	e.used = ch.clock
	ch.entries[k] = e
	return e.n, true
}

// CountSum is Count for a caller that already has sum, content's
// [Cache.Sum] (it is not checked).
func (ch *Cache) CountSum(c Counter, sum Sum, content []byte) (n int, hit bool) {
	if ch == nil {
		return c.Count(content), false
	}
	k := cacheKey{sum: sum, enc: c.Name(), len: uint64(len(content))}
	ch.mu.Lock()
	if n, ok := ch.hit(k); ok {
		ch.mu.Unlock()
		return n, true
	}
	ch.mu.Unlock()

	n = c.Count(content)

	if !plausible(n, k.len) && len(content) > 0 {
		return n, false // (a count the file could not hold: not kept)
	}
	ch.mu.Lock()
	ch.clock++
	ch.entries[k] = cacheEntry{n: n, used: ch.clock}
	ch.dirty = true
	if len(ch.entries) > MaxCacheEntries {
		ch.evict(MaxCacheEntries * 9 / 10)
	}
	ch.mu.Unlock()
	return n, false
}

// Len returns the number of counts the cache holds.
func (ch *Cache) Len() int {
	if ch == nil {
		return 0
	}
	ch.mu.Lock()
	defer ch.mu.Unlock()
	return len(ch.entries)
}

// evict drops the least recently used entries until keep remain.
// ch.mu must be held.
func (ch *Cache) evict(keep int) {
	if keep <= 0 || keep >= len(ch.entries) {
		return
	}
	stamps := make([]uint64, 0, len(ch.entries))
	for _, e := range ch.entries {
		stamps = append(stamps, e.used)
	}
	slices.Sort(stamps)
	cut := stamps[len(stamps)-keep] // stamps are unique: keep those ≥ cut
	ch.dirty = true
	for k, e := range ch.entries {
		if e.used < cut {
			delete(ch.entries, k)
		}
	}
}

// Save writes the cache to its file if a count was added or dropped since
// it was opened or last saved (hits alone do not rewrite it; see dirty). It creates the directory if needed (with a .gitignore that
// ignores everything, so the cache is never committed), writes a temporary
// file in the same directory and renames it over the old one, so readers see
// the old or the new cache, never a mix. It refuses to replace anything but
// a regular file: a symlink at the destination is an error and is left as
// it is. Concurrent processes saving the same cache: the last one wins.
func (ch *Cache) Save() error {
	if ch == nil {
		return nil
	}
	ch.mu.Lock()
	if !ch.dirty {
		ch.mu.Unlock()
		return nil
	}
	data := ch.encode()
	ch.dirty = false
	ch.mu.Unlock()

	if err := ch.write(data); err != nil {
		ch.mu.Lock()
		ch.dirty = true
		ch.mu.Unlock()
		return fmt.Errorf("saving token cache: %w", err)
	}
	return nil
}

// write replaces the cache's file with data, making its directory (with a
// .gitignore) if need be; see state.Dir.
func (ch *Cache) write(data []byte) error {
	d, err := state.Make(ch.dir)
	if err != nil {
		return err
	}
	defer d.Close()
	home, err := placeOf(ch.dir)
	if err != nil {
		return err
	}
	return d.WriteFile(CacheFile, withPlace(data, home), 0o600)
}

// place is where a cache file was written: its directory's device and
// inode, and the user who wrote it.
type place struct{ dev, ino, uid uint64 }

var errForeign = errors.New("token cache: written elsewhere or by another user")

// readCacheFile reads the cache's file in dir, if this user owns it, and
// says where it is (the place its content must name).
func readCacheFile(dir string) ([]byte, place, error) {
	d, err := state.Open(dir)
	if err != nil {
		return nil, place{}, err
	}
	defer d.Close()
	f, err := d.Open(CacheFile)
	if err != nil {
		return nil, place{}, err
	}
	defer f.Close()
	if !ownedByUs(f) {
		return nil, place{}, errForeign
	}
	data, err := io.ReadAll(io.LimitReader(f, maxCacheFileSize+1))
	if err != nil {
		return nil, place{}, err
	}
	if len(data) > maxCacheFileSize {
		return nil, place{}, errCorrupt
	}
	home, err := placeOf(dir)
	return data, home, err
}

// The file: magic, the 16-byte key, the place it was written (uvarint
// device, inode and user id), uvarint count of encoding names and
// each name (uvarint length, bytes), uvarint count of entries and each
// entry (16-byte sum, uvarint name index, uvarint content length, uvarint
// token count) from least to most recently used, then the CRC-32C of
// everything before it (4 bytes, little endian). A file of another version
// (counts.v1 kept sha256 sums, counts.v2 no place and no lengths) is simply
// another name: it is never read.

// placeOffset is where the place starts in the file.
var placeOffset = len(magic) + len(Sum{})

// withPlace puts home in an encoded cache (which encode leaves without a
// place) and its checksum at its end.
func withPlace(data []byte, home place) []byte {
	body := data[:len(data)-4]
	out := make([]byte, 0, len(data)+30)
	out = append(out, body[:placeOffset]...)
	out = binary.AppendUvarint(out, home.dev)
	out = binary.AppendUvarint(out, home.ino)
	out = binary.AppendUvarint(out, home.uid)
	out = append(out, body[placeOffset:]...)
	return binary.LittleEndian.AppendUint32(out, crc32.Checksum(out, crc32.MakeTable(crc32.Castagnoli)))
}

// encode serialises the cache; ch.mu must be held.
func (ch *Cache) encode() []byte {
	type rec struct {
		k cacheKey
		e cacheEntry
	}
	recs := make([]rec, 0, len(ch.entries))
	nameIdx := map[string]uint64{}
	var names []string
	for k, e := range ch.entries {
		recs = append(recs, rec{k, e})
		if _, ok := nameIdx[k.enc]; !ok {
			nameIdx[k.enc] = uint64(len(names))
			names = append(names, k.enc)
		}
	}
	slices.SortFunc(recs, func(a, b rec) int { return cmp.Compare(a.e.used, b.e.used) })

	buf := make([]byte, 0, len(magic)+len(recs)*40+64)
	buf = append(buf, magic...)
	buf = append(buf, ch.key[:]...)
	buf = binary.AppendUvarint(buf, uint64(len(names)))
	for _, n := range names {
		buf = binary.AppendUvarint(buf, uint64(len(n)))
		buf = append(buf, n...)
	}
	buf = binary.AppendUvarint(buf, uint64(len(recs)))
	for _, r := range recs {
		buf = append(buf, r.k.sum[:]...)
		buf = binary.AppendUvarint(buf, nameIdx[r.k.enc])
		buf = binary.AppendUvarint(buf, r.k.len)
		buf = binary.AppendUvarint(buf, uint64(r.e.n))
	}
	return binary.LittleEndian.AppendUint32(buf, crc32.Checksum(buf, crc32.MakeTable(crc32.Castagnoli)))
}

var errCorrupt = errors.New("corrupt token cache")

// decode fills an empty cache from data; on error the cache may be partly
// filled and the caller clears it.
func (ch *Cache) decode(data []byte) error {
	if len(data) < len(magic)+len(ch.key)+4 || !bytes.HasPrefix(data, magic) {
		return errCorrupt
	}
	body, sum := data[:len(data)-4], data[len(data)-4:]
	if crc32.Checksum(body, crc32.MakeTable(crc32.Castagnoli)) != binary.LittleEndian.Uint32(sum) {
		return errCorrupt
	}
	copy(ch.key[:], body[len(magic):])
	r := bufio.NewReader(bytes.NewReader(body[placeOffset:]))
	var at place
	for _, p := range []*uint64{&at.dev, &at.ino, &at.uid} {
		v, err := binary.ReadUvarint(r)
		if err != nil {
			return errCorrupt
		}
		*p = v
	}
	if at != ch.home {
		return errForeign
	}
	nNames, err := binary.ReadUvarint(r)
	if err != nil || nNames > 1024 {
		return errCorrupt
	}
	names := make([]string, nNames)
	for i := range names {
		l, err := binary.ReadUvarint(r)
		if err != nil || l > 256 {
			return errCorrupt
		}
		b := make([]byte, l)
		if _, err := io.ReadFull(r, b); err != nil {
			return errCorrupt
		}
		names[i] = string(b)
	}
	nRecs, err := binary.ReadUvarint(r)
	if err != nil || nRecs > uint64(len(body)/(len(Sum{})+2)) {
		return errCorrupt
	}
	ch.entries = make(map[cacheKey]cacheEntry, nRecs) // sized once, not grown entry by entry
	for range nRecs {
		var k cacheKey
		if _, err := io.ReadFull(r, k.sum[:]); err != nil {
			return errCorrupt
		}
		idx, err := binary.ReadUvarint(r)
		if err != nil || idx >= uint64(len(names)) {
			return errCorrupt
		}
		if k.len, err = binary.ReadUvarint(r); err != nil {
			return errCorrupt
		}
		n, err := binary.ReadUvarint(r)
		if err != nil || n > 1<<40 || !plausible(int(n), k.len) {
			return errCorrupt
		}
		k.enc = names[idx]
		ch.clock++
		ch.entries[k] = cacheEntry{n: int(n), used: ch.clock}
	}
	if _, err := r.ReadByte(); err != io.EOF {
		return errCorrupt
	}
	if len(ch.entries) > MaxCacheEntries {
		ch.evict(MaxCacheEntries)
	}
	return nil
}
