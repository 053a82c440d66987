package secrets

import (
	"bytes"
	"encoding/base64"
	"math"

	"github.com/taskctl/taskctl/internal/lazyregexp"
)

// entropy returns the Shannon entropy of b in bits per byte.
func entropy(b []byte) float64 {
	if len(b) == 0 {
		return 0
	}
	var counts [256]int
	for _, c := range b {
		counts[c]++
	}
	n := float64(len(b))
	h := 0.0
	for _, k := range counts {
		if k > 0 {
			p := float64(k) / n
			h -= p * math.Log2(p)
		}
	}
	return h
}

const (
	hasLower = 1 << iota
	hasUpper
	hasDigit
	hasSymbol
)

func classes(b []byte) int {
	c := 0
	for _, x := range b {
		switch {
		case 'a' <= x && x <= 'z':
			c |= hasLower
		case 'A' <= x && x <= 'Z':
			c |= hasUpper
		case '0' <= x && x <= '9':
			c |= hasDigit
		default:
			c |= hasSymbol
		}
	}
	return c
}

// placeholders are lower-case fragments that mark a value as not real.
var placeholders = [][]byte{
	[]byte("changeme"), []byte("change_me"), []byte("change-me"), []byte("changeit"),
	[]byte("example"), []byte("placeholder"), []byte("your_"), []byte("your-"), []byte("yourkey"),
	[]byte("yourtoken"), []byte("yoursecret"), []byte("yourpass"), []byte("xxxx"), []byte("****"),
	[]byte("...."), []byte("…"), []byte("redacted"), []byte("dummy"), []byte("sample"), []byte("fake"),
	[]byte("replace"), []byte("insert"), []byte("todo"), []byte("fixme"), []byte("notasecret"),
	[]byte("not_a_secret"), []byte("not-a-secret"), []byte("123456"), []byte("abcdef"), []byte("qwerty"),
	[]byte("password"), []byte("passwd"), []byte("secret"), []byte("token"),
	[]byte("privatekey"), []byte("private_key"), []byte("apikey"), []byte("api_key"),
	[]byte("accesskey"), []byte("access_key"), []byte("authkey"), []byte("auth_key"),
	[]byte("${"), []byte("{{"), []byte("$("), []byte("%("), []byte("#{"),
	[]byte("getenv"), []byte("environ"), []byte("process.env"), []byte("vault:"),
	[]byte("<"), []byte(">"),
}

func isPlaceholder(b []byte) bool {
	var buf [256]byte
	low := buf[:0]
	if len(b) <= len(buf) {
		for _, c := range b {
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			low = append(low, c)
		}
	} else {
		low = bytes.ToLower(b)
	}
	for _, p := range placeholders {
		if bytes.Contains(low, p) {
			return true
		}
	}
	return false
}

// metaSuffixes end key names that hold facts about a secret, not the
// secret: token_type, secret_name, password_file, api_key_header …
var metaSuffixes = []string{
	"name", "names", "file", "filename", "path", "dir", "url", "uri", "endpoint", "host",
	"type", "kind", "field", "header", "len", "length", "size", "count", "max", "min",
	"prefix", "suffix", "id", "ids", "env", "var", "ref", "format", "algorithm", "alg",
	"mode", "timeout", "ttl", "expiry", "expires", "expiration", "version", "label",
	"policy", "provider", "store", "class", "source", "template", "pattern", "regex",
	"algo", "hashalgo",
}

// validGeneric vets a generic assignment: key names metadata → no; the
// value must look random, not like a placeholder, a reference, an
// identifier, a path or a URL.
func validGeneric(v, key []byte) bool {
	k := make([]byte, 0, len(key))
	for _, c := range key {
		switch {
		case 'A' <= c && c <= 'Z':
			k = append(k, c+'a'-'A')
		case 'a' <= c && c <= 'z', '0' <= c && c <= '9':
			k = append(k, c)
		}
	}
	for _, s := range metaSuffixes {
		if bytes.HasSuffix(k, []byte(s)) {
			return false
		}
	}
	switch v[0] {
	case '$', '%', '@', '/', '.', '~', '\\', '&', '*', '!':
		return false
	}
	if bytes.Contains(v, []byte("://")) || isPlaceholder(v) || bytes.Equal(bytes.ToLower(v), k) ||
		bytes.HasSuffix(v, []byte("...")) || sequential(v) || spellsKey(v, k) ||
		passwdLineRe.Re().Match(v) || hashParamsRe.Re().Match(v) || encodedWords(v) {
		return false
	}
	c := classes(v)
	if c&(hasLower|hasUpper) == 0 {
		return false // numbers, dates, versions
	}
	if c&hasDigit == 0 && c != hasLower|hasUpper|hasSymbol {
		return false // words and identifiers
	}
	h := entropy(v)
	if h < 3.0 || (len(v) >= 24 && h < 3.3) {
		return false
	}
	return true
}

// passwdLineRe matches an /etc/passwd entry (name:x:uid:gid:…), which a
// variable named passwdLine or similar holds.
var passwdLineRe = lazyregexp.New(`^[a-z_][a-z0-9_.\-]*:[^:]*:[0-9]+:[0-9]+:`)

// hashParamsRe matches a password-hashing algorithm's name with its
// parameters (argon2id-v19-m65536, pbkdf2_sha256$260000$) and nothing that
// could be a salt or a hash.
var hashParamsRe = lazyregexp.New(`(?i)^(?:argon2(?:id|i|d)?|pbkdf2|bcrypt|scrypt|yescrypt|sha(?:1|224|256|384|512)|md5|hmac|blake2[bs]?)` +
	`(?:[$_\-,:=]+(?:argon2(?:id|i|d)?|pbkdf2|bcrypt|scrypt|sha(?:1|224|256|384|512)|md5|hmac|blake2[bs]?|[a-z]?[0-9]{1,7}|[a-z]=[0-9]{1,7}))*[$_\-,:=]*$`)

// sequential reports whether v's letters and digits each run in order
// (A1B2C3D4E5F6G7H8I9J0, abc123def456 is not): a typed-in placeholder.
func sequential(v []byte) bool {
	var lastL, lastD byte
	nl, nd := 0, 0
	for _, c := range v {
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z':
			c |= 0x20
			if nl > 0 && c != lastL+1 {
				return false
			}
			lastL, nl = c, nl+1
		case '0' <= c && c <= '9':
			if nd > 0 && c != lastD+1 && !(lastD == '9' && c == '0') {
				return false
			}
			lastD, nd = c, nd+1
		case c == '-' || c == '_':
		default:
			return false
		}
	}
	return nl >= 4 && nd >= 4
}

// spellsKey reports whether v, read as leetspeak, is the key's own name or
// its end (k: lower-case letters and digits), or is made of credential
// words only: client_secret: Cl1ent$ecret!, secret = "Cl1ent$ecret!",
// password: "P@ssw0rd123".
func spellsKey(v, k []byte) bool {
	var letters, key []byte
	for _, c := range k {
		if 'a' <= c && c <= 'z' {
			key = append(key, c)
		}
	}
	for _, c := range v {
		switch c {
		case '0':
			c = 'o'
		case '1':
			c = 'i'
		case '3':
			c = 'e'
		case '4', '@':
			c = 'a'
		case '5', '$':
			c = 's'
		case '7':
			c = 't'
		}
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if 'a' <= c && c <= 'z' {
			letters = append(letters, c)
		}
	}
	// The letters "l" and "i" are both spelled "1".
	norm := func(b []byte) []byte { return bytes.ReplaceAll(b, []byte("l"), []byte("i")) }
	if len(letters) < 6 {
		return false
	}
	return bytes.HasSuffix(norm(key), norm(letters)) || vocabulary(norm(letters))
}

// credentialWords are the words a made-up credential is spelled from, with
// "l" read as "i" (see spellsKey).
var credentialWords = [][]byte{
	[]byte("ciient"), []byte("secret"), []byte("password"), []byte("passwd"), []byte("pass"),
	[]byte("token"), []byte("api"), []byte("key"), []byte("access"), []byte("auth"),
	[]byte("private"), []byte("my"), []byte("test"), []byte("dummy"), []byte("admin"),
	[]byte("user"), []byte("root"),
}

// vocabulary reports whether b is made of credentialWords only.
func vocabulary(b []byte) bool {
	if len(b) > 64 {
		return false
	}
	var ok [65]bool // ok[i]: b[:i] is made of words
	ok[0] = true
	for i := range len(b) {
		if !ok[i] {
			continue
		}
		for _, w := range credentialWords {
			if bytes.HasPrefix(b[i:], w) {
				ok[i+len(w)] = true
			}
		}
	}
	return ok[len(b)]
}

// encodedWords reports whether v is base64 whose decoded bytes are
// printable text that is a placeholder or only letters (QUNDRVNTX0tFWQ0K is
// "ACCESS_KEY\r\n"): encoded words, not key material. Decoded text with
// digits or symbols, as a real password has, still counts.
func encodedWords(v []byte) bool {
	var buf [192]byte
	if max(base64.StdEncoding.DecodedLen(len(v)), base64.RawStdEncoding.DecodedLen(len(v))) > len(buf) {
		return false
	}
	n, err := base64.StdEncoding.Decode(buf[:], v)
	if err != nil {
		if n, err = base64.RawStdEncoding.Decode(buf[:], v); err != nil {
			return false
		}
	}
	d := buf[:n]
	letters := true
	for _, c := range d {
		switch {
		case c == '\r' || c == '\n' || c == '\t' || c == ' ':
		case c < 0x20 || c > 0x7e:
			return false
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', c == '_', c == '-':
		default:
			letters = false
		}
	}
	return letters || isPlaceholder(d)
}
