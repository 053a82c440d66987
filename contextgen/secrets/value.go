package secrets

import (
	"bytes"
	"math"
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
	if bytes.Contains(v, []byte("://")) || isPlaceholder(v) || bytes.Equal(bytes.ToLower(v), k) {
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
