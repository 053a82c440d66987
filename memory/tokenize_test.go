package memory_test

import (
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/taskctl/taskctl/memory"
)

var tokenizeTests = []struct {
	in   string
	want []string
}{
	{"", nil},
	{"the and of", nil},
	{"Authentication", []string{"authent"}},
	{"authenticateUser", []string{"authent", "user", "authenticateuser"}},
	{"auth_token", []string{"auth", "token", "authtoken"}},
	{"AUTH_TOKEN", []string{"auth", "token", "authtoken"}},
	{"kebab-style-name", []string{"kebab", "style", "name", "kebabstylename"}},
	{"parseHTTPRequest", []string{"pars", "http", "request", "parsehttprequest"}},
	{"HTTPServer", []string{"http", "server", "httpserver"}},
	{"utf8Decode", []string{"utf", "decod", "utf8decode"}}, // single digits are noise
	{"base64", []string{"base", "64", "base64"}},
	{"x := 12345678", nil},                  // single letters and long numbers are noise
	{"error 404", []string{"error", "404"}}, // short numbers are kept
	{"func main() { return nil }", []string{"main"}},
	{"running interpreters ignoring", []string{"run", "interpret", "ignor"}},
	{"--flag -x a-", []string{"flag"}},
	{"Grüße aus Köln", []string{"grüße", "aus", "köln"}},
	{"self.userName", []string{"user", "name", "username"}},
	{"__init__", []string{"init"}},
	{strings.Repeat("a", 41), nil}, // over-long runs
	// a whole identifier seen first does not stand in for the word's term
	{"readConfigs readconfigs", []string{"read", "config", "readconfigs", "readconfig"}},
	// data, not words: long hex literals, hashes, base64, UUIDs
	{"0x1f 0x8140 0XDEADBEEF", []string{"0x1f"}},
	{"0x8g00", []string{"00", "0x8g00"}}, // not hex
	{"e3b0c44298fc1c149afbf4c8996fb924", nil},
	{"sha512-AF3r7P5dWxL8MxyITRMlORQNaOA2IkAFaTr4k7BU", nil},
	{"658abbf4-e6c6-4239-a483-3307763cf6e0", nil},
	{"job3379 x86_64 utf8ToUtf16 ipv4v6", []string{"job", "3379", "job3379", "86", "64", "x8664", "utf", "utf", "16", "utf8toutf16", "ipv", "ipv4v6"}},
}

func TestTokenize(t *testing.T) {
	for _, tt := range tokenizeTests {
		got := memory.Tokenize(tt.in)
		if !slices.Equal(got, tt.want) {
			t.Errorf("Tokenize(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func FuzzTokenize(f *testing.F) {
	for _, tt := range tokenizeTests {
		f.Add(tt.in)
	}
	f.Add("\xff\xfe camelCase\x00snake_case")
	f.Add("ǅungla ΣΊΣΥΦΟΣ İstanbul ﬃ")
	f.Fuzz(func(t *testing.T, s string) {
		got := memory.Tokenize(s)
		if again := memory.Tokenize(s); !slices.Equal(got, again) {
			t.Fatalf("Tokenize(%q) not deterministic: %q then %q", s, got, again)
		}
		for _, term := range got {
			if term == "" {
				t.Fatalf("Tokenize(%q) gave an empty term: %q", s, got)
			}
			if utf8.ValidString(s) && !utf8.ValidString(term) {
				t.Fatalf("Tokenize(%q) gave invalid UTF-8 term %q", s, term)
			}
			if strings.ContainsAny(term, " \t\n/._-") {
				t.Fatalf("Tokenize(%q) gave term %q with a separator", s, term)
			}
		}
	})
}
