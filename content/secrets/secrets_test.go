package secrets_test

import (
	"bytes"
	"encoding/base64"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/taskctl/taskctl/content/secrets"
)

// The planted secrets are generated, never written out, so this file holds
// nothing a scanner of our own repository would flag.
var rng = rand.New(rand.NewPCG(1, 2))

const (
	alnum   = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
	upperD  = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
	b64     = alnum + "+/"
	b64url  = alnum + "-_"
	lowerDn = "abcdefghijklmnopqrstuvwxyz0123456789"
)

func rnd(alphabet string, n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = alphabet[rng.IntN(len(alphabet))]
	}
	return string(b)
}

func pemBody(sep string) string {
	var lines []string
	for range 6 {
		lines = append(lines, rnd(b64, 64))
	}
	return strings.Join(lines, sep)
}

func jwt() string {
	enc := base64.RawURLEncoding.EncodeToString
	return enc([]byte(`{"alg":"HS256","typ":"JWT"}`)) + "." +
		enc([]byte(`{"sub":"1234567890","name":"Jane","iat":1516239022}`)) + "." + rnd(b64url, 43)
}

type plant struct {
	name   string
	text   string // content; the secret is where %s is
	secret string
	rule   string
	line   int // where the finding begins: a private key's BEGIN line
}

// reportedAt is where a finding of the bytes from start begins: start, or
// for a private-key block its -----BEGIN header.
func reportedAt(content []byte, rule string, start int) int {
	if rule == "private-key" || rule == "gcp-service-account" {
		return bytes.LastIndex(content[:start], []byte("-----BEGIN "))
	}
	return start
}

func plants() []plant {
	rsa := pemBody("\n")
	ssh := pemBody("\n")
	ec := pemBody("\n")
	enc := pemBody("\n")
	pgp := pemBody("\n")
	gcp := pemBody(`\n`)
	return []plant{
		{"rsa key", "// key\n-----BEGIN RSA PRIVATE KEY-----\n%s\n-----END RSA PRIVATE KEY-----\n", rsa, "private-key", 2},
		{"openssh key", "-----BEGIN OPENSSH PRIVATE KEY-----\r\n%s\r\n-----END OPENSSH PRIVATE KEY-----", ssh, "private-key", 1},
		{"ec key", "x := `-----BEGIN EC PRIVATE KEY-----\n%s\n-----END EC PRIVATE KEY-----`", ec, "private-key", 1},
		{"encrypted key", "a\nb\n-----BEGIN ENCRYPTED PRIVATE KEY-----\n%s\n-----END ENCRYPTED PRIVATE KEY-----\n", enc, "private-key", 3},
		{"pgp key", "-----BEGIN PGP PRIVATE KEY BLOCK-----\n\n%s\n-----END PGP PRIVATE KEY BLOCK-----\n", pgp, "private-key", 1},
		{"truncated key", "-----BEGIN PRIVATE KEY-----\n%s\n", rsa, "private-key", 1},
		{"gcp service account", "{\n  \"type\": \"service_account\",\n  \"private_key\": \"-----BEGIN PRIVATE KEY-----\\n%s\\n-----END PRIVATE KEY-----\\n\",\n}", gcp, "gcp-service-account", 3},
		{"aws key id", "[default]\naws_access_key_id = %s\n", "AKIA" + rnd(upperD, 16), "aws-access-key-id", 2},
		{"aws session key id", "id: \"%s\"", "ASIA" + rnd(upperD, 16), "aws-access-key-id", 1},
		{"aws secret ini", "[default]\naws_secret_access_key = %s\n", rnd(b64, 40), "aws-secret-access-key", 2},
		{"aws secret env", "export AWS_SECRET_ACCESS_KEY=\"%s\"\n", rnd(b64, 40), "aws-secret-access-key", 1},
		{"aws secret go", "creds := aws.Credentials{\n\tSecretAccessKey: \"%s\",\n}", rnd(b64, 40), "aws-secret-access-key", 2},
		{"gcp api key", "const mapsKey = \"%s\"", "AIza" + rnd(b64url, 35), "gcp-api-key", 1},
		{"azure storage", "conn: DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=%s;EndpointSuffix=core.windows.net",
			rnd(b64, 86) + "==", "azure-storage-key", 1},
		{"azure service bus", "Endpoint=sb://ns.servicebus.windows.net/;SharedAccessKeyName=Root;SharedAccessKey=%s",
			rnd(b64, 43) + "=", "azure-shared-access-key", 1},
		{"github classic", "GITHUB_TOKEN=%s\n", "ghp_" + rnd(alnum, 36), "github-token", 1},
		{"github oauth", "x\n\"%s\"", "gho_" + rnd(alnum, 36), "github-token", 2},
		{"github fine-grained", "token: %s", "github_pat_" + rnd(alnum, 22) + "_" + rnd(alnum, 59), "github-token", 1},
		{"gitlab", "glab auth login --token %s", "glpat-" + rnd(b64url, 20), "gitlab-token", 1},
		{"slack bot", "SLACK_BOT=%s", "xoxb-" + rnd("0123456789", 12) + "-" + rnd("0123456789", 13) + "-" + rnd(alnum, 24), "slack-token", 1},
		{"slack app", "app_token: '%s'", "xapp-1-A" + rnd(upperD, 10) + "-" + rnd("0123456789", 13) + "-" + rnd("0123456789abcdef", 64), "slack-token", 1},
		{"slack webhook", "url = \"https://hooks.slack.com/%s\"", "services/T" + rnd(upperD, 8) + "/B" + rnd(upperD, 8) + "/" + rnd(alnum, 24), "slack-webhook", 1},
		{"stripe live", "Stripe.apiKey = \"%s\";", "sk_live_" + rnd(alnum, 24), "stripe-key", 1},
		{"stripe restricted", "k: %s", "rk_live_" + rnd(alnum, 99), "stripe-key", 1},
		{"anthropic", "ANTHROPIC_API_KEY=%s", "sk-ant-api03-" + rnd(b64url, 93) + "AA", "anthropic-api-key", 1},
		{"openai project", "client = OpenAI(api_key=\"%s\")", "sk-proj-" + rnd(b64url, 150), "openai-api-key", 1},
		{"openai legacy", "\n\n\tkey: %s", "sk-" + rnd(alnum, 48), "openai-api-key", 3},
		{"npm", "//registry.npmjs.org/:_authToken=%s", "npm_" + rnd(alnum, 36), "npm-token", 1},
		{"jwt", "Authorization: Bearer %s\n", jwt(), "jwt", 1},
		{"generic env", "DB_HOST=db\nDB_PASSWORD=%s\n", "pX7" + rnd(alnum, 13), "generic-secret", 2},
		{"generic yaml", "service:\n  api_key: %s\n", rnd(alnum, 32), "generic-secret", 2},
		{"generic yaml quoted", "auth:\n  password: '%s'\n", "Tr0ub4dor&3" + rnd(alnum, 5), "generic-secret", 2},
		{"generic json", "{\"client_secret\": \"%s\"}", rnd(lowerDn, 40), "generic-secret", 1},
		{"generic go :=", "func f() {\n\ttoken := \"%s\"\n}", rnd(alnum, 30), "generic-secret", 2},
		{"generic go const", "const apiKey = \"%s\"", rnd("0123456789abcdef", 32), "generic-secret", 1},
		{"generic go typed var", "var authToken string = \"%s\"", rnd(alnum, 20), "generic-secret", 1},
		{"generic go struct", "cfg := Config{\n\tPassword: \"%s\",\n}", "a1" + rnd(alnum, 14), "generic-secret", 2},
		{"generic ini", "[db]\npassword = %s", "h7" + rnd(alnum, 14), "generic-secret", 2},
		{"generic ruby", ":secret_key_base => '%s'", rnd(lowerDn, 64), "generic-secret", 1},
		{"generic backquote", "Token = `%s`", rnd(alnum, 24), "generic-secret", 1},
		{"generic makefile", "API_TOKEN ?= %s\n", "q9" + rnd(alnum, 20), "generic-secret", 1},
		{"generic base64 manifest", "data:\n  password: %s\n", base64.StdEncoding.EncodeToString([]byte("pX7" + rnd(alnum, 14))), "generic-secret", 2},
		{"generic leet password", "password = '%s'", "S3cr3t" + rnd(alnum, 10), "generic-secret", 1},
		{"generic list item", "env:\n  - secret: \"%s\"\n", rnd(b64, 28) + "9", "generic-secret", 2},
	}
}

func TestScanPlanted(t *testing.T) {
	for _, p := range plants() {
		t.Run(p.name, func(t *testing.T) {
			content := []byte(strings.Replace(p.text, "%s", p.secret, 1))
			start := bytes.Index(content, []byte(p.secret))
			want := secrets.Finding{Rule: p.rule, Line: p.line, Start: start, End: start + len(p.secret)}
			at := reportedAt(content, p.rule, start)
			want.Col = at - (bytes.LastIndexByte(content[:at], '\n') + 1) + 1
			got := secrets.Scan(content)
			if len(got) != 1 || got[0] != want {
				t.Fatalf("Scan(%q) = %+v, want [%+v]", content, got, want)
			}
			red := secrets.Redact(content, got)
			wantRed := strings.Replace(p.text, "%s", "[REDACTED:"+p.rule+"]", 1)
			if string(red) != wantRed {
				t.Errorf("Redact = %q, want %q", red, wantRed)
			}
			if bytes.Contains(red, []byte(p.secret)) {
				t.Errorf("redacted content still holds the secret")
			}
		})
	}
}

func TestScanSeveral(t *testing.T) {
	gh := "ghp_" + rnd(alnum, 36)
	aws := "AKIA" + rnd(upperD, 16)
	content := []byte("a := \"" + gh + "\" // and\nb := \"" + aws + "\"\n")
	got := secrets.Scan(content)
	if len(got) != 2 || got[0].Rule != "github-token" || got[1].Rule != "aws-access-key-id" || got[1].Line != 2 || got[1].Col != 7 {
		t.Fatalf("Scan = %+v", got)
	}
	want := "a := \"[REDACTED:github-token]\" // and\nb := \"[REDACTED:aws-access-key-id]\"\n"
	if red := secrets.Redact(content, got); string(red) != want {
		t.Errorf("Redact = %q, want %q", red, want)
	}
	// A token assigned to a generic key name is reported once, by its
	// specific rule.
	content = []byte("GITHUB_TOKEN=" + gh)
	if got := secrets.Scan(content); len(got) != 1 || got[0].Rule != "github-token" {
		t.Errorf("Scan(%q) = %+v, want one github-token", content, got)
	}
}

func TestScanIgnoresPlaceholders(t *testing.T) {
	for _, s := range []string{
		`password = "changeme"`,
		`password = "password"`,
		`password = "password123456"`,
		`password: ""`,
		`token: ${GITHUB_TOKEN}`,
		`token: "${GITHUB_TOKEN_FROM_ENV}"`,
		`api_key = os.Getenv("API_KEY")`,
		`apiKey := os.Getenv("SERVICE_API_KEY")`,
		`secret: <your-secret-here>`,
		`secret: "<your-client-secret>"`,
		`password: "xxxxxxxxxxxxxxxx"`,
		`token = "****************"`,
		`password: {{ .Values.database.password }}`,
		`password = $DATABASE_PASSWORD_VALUE`,
		`password = %DATABASE_PASSWORD%`,
		`token := tok.Lit`,
		`token := p.expect(token.IDENTIFIER)`,
		`secret = strings.TrimSpace(input)`,
		`api_key = config.ApiKeyFromEnvironment`,
		`secretName: my-application-credentials`,
		`token_type: bearer_with_refresh`,
		`token_url: https://auth.example.com/oauth2/token`,
		`password_file: /run/secrets/db_password_2`,
		`tokenEndpoint = "https://oauth2.googleapis.com/token"`,
		`secret = "2024-01-01T00:00:00Z"`,
		`token: averylongbutordinaryword`,
		`token: an_identifier_with_words`,
		`aws_access_key_id = AKIAIOSFODNN7EXAMPLE`,
		`aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY`,
		`GITHUB_TOKEN=ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx`,
		`token: ghp_1234567890abcdef1234567890abcdef1234`,
		"-----BEGIN RSA PRIVATE KEY-----\n...\n-----END RSA PRIVATE KEY-----",
		"-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBg...\n-----END PRIVATE KEY-----",
		`run: pip install scikit-learn sk-learnish-package-name-here`,
		`task-0123456789abcdefghijklmnopqrstuvwxyzABCD`,
		`eyJhbGciOiJIUzI1NiJ9 is a header without the rest`,
		`x := "eyJub3QiOiJhIGp3dCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.c2lnbmF0dXJl"`, // header has no "alg"
		`if token == "abcdefghijklmno" {`,
		`api_key: "example-key-1234567"`,
		`api_key: "sk_test_0123456789"`,
		`client_secret: ""`,
		`password := cfg.Password`,
		`Password: password,`,
		`token := strings.Repeat("x", 64)`,
		`"password": "%s"`,
		`secret: !vault |`,
		// An identifier that contains "passwd", holding an /etc/passwd line.
		`passwdLine := "testuser:x:1001:1001::/home/testuser:/bin/sh"`,
		// An elided value.
		`"identitytoken": "9cbaf023786cd7..."`,
		// Base64 of words: "ACCESS_KEY\r\n", "testingtesting\n".
		`"access_key": "QUNDRVNTX0tFWQ0K"`,
		`  password: dGVzdGluZ3Rlc3RpbmcK`,
		// A sequential placeholder.
		`AccessKey: "A1B2C3D4E5F6G7H8I9J0"`,
		`        access_key: A1B2C3D4E5F6G7H8I9J0`,
		// Algorithm names and parameters.
		`passwordHashAlgo = "argon2id-v19-m65536"`,
		`password_hash = "pbkdf2_sha256$260000$"`,
		// The key's own name in leetspeak.
		`  client_secret: Cl1ent$ecret!`,
		`	dummyClientSecret config_util.Secret = "Cl1ent$ecret!"`,
		`password: "P@ssw0rd123"`,
	} {
		if got := secrets.Scan([]byte(s)); len(got) != 0 {
			t.Errorf("Scan(%q) = %+v, want no findings", s, got)
		}
	}
}

func TestFindingHoldsNoSecret(t *testing.T) {
	// Finding has no field that could hold text but Rule, and Rule is
	// always one of the rule IDs.
	valid := map[string]bool{}
	for _, id := range secrets.Rules() {
		valid[id] = true
	}
	for _, p := range plants() {
		for _, f := range secrets.Scan([]byte(strings.Replace(p.text, "%s", p.secret, 1))) {
			if !valid[f.Rule] {
				t.Errorf("%s: finding rule %q is not a rule ID", p.name, f.Rule)
			}
		}
	}
}

func TestRedactTolerates(t *testing.T) {
	content := []byte("0123456789")
	fs := []secrets.Finding{
		{Rule: "r", Start: 6, End: 8},
		{Rule: "r", Start: 2, End: 4},
		{Rule: "r", Start: 3, End: 5},   // overlaps: skipped
		{Rule: "r", Start: 9, End: 20},  // out of bounds: skipped
		{Rule: "r", Start: 5, End: 5},   // empty: skipped
		{Rule: "r", Start: -1, End: 1},  // negative: skipped
		{Rule: "r", Start: 8, End: 7},   // reversed: skipped
		{Rule: "r", Start: 10, End: 11}, // past the end: skipped
	}
	want := "01[REDACTED:r]45[REDACTED:r]89"
	if got := secrets.Redact(content, fs); string(got) != want {
		t.Errorf("Redact = %q, want %q", got, want)
	}
	if string(content) != "0123456789" {
		t.Errorf("Redact modified its input")
	}
}

func TestRules(t *testing.T) {
	want := []string{"private-key", "gcp-service-account", "aws-access-key-id", "aws-secret-access-key",
		"gcp-api-key", "azure-storage-key", "azure-shared-access-key", "github-token", "gitlab-token",
		"slack-token", "slack-webhook", "stripe-key", "anthropic-api-key", "openai-api-key", "npm-token",
		"jwt", "url-credentials", "generic-secret"}
	seen := map[string]bool{}
	for _, id := range secrets.Rules() {
		seen[id] = true
	}
	for _, id := range want {
		if !seen[id] {
			t.Errorf("Rules() lacks %q", id)
		}
	}
	if len(seen) != len(want) {
		t.Errorf("Rules() = %v, want the IDs %v", secrets.Rules(), want)
	}
}

func FuzzScan(f *testing.F) {
	for _, p := range plants() {
		f.Add([]byte(strings.Replace(p.text, "%s", p.secret, 1)))
	}
	f.Add([]byte("-----BEGIN RSA PRIVATE KEY-----"))
	f.Add([]byte("password = \"\\\"\"\npassword="))
	f.Fuzz(func(t *testing.T, content []byte) {
		orig := bytes.Clone(content)
		fs := secrets.Scan(content)
		last := 0
		for _, f := range fs {
			if f.Start < last || f.End <= f.Start || f.End > len(content) {
				t.Fatalf("Scan(%q): bad range in %+v (all: %+v)", content, f, fs)
			}
			at := reportedAt(content, f.Rule, f.Start)
			if at < 0 || f.Line < 1 || f.Col < 1 || f.Line != bytes.Count(content[:at], []byte("\n"))+1 ||
				f.Col != at-bytes.LastIndexByte(content[:at], '\n') {
				t.Fatalf("Scan(%q): bad position in %+v", content, f)
			}
			last = f.End
		}
		red := secrets.Redact(content, fs)
		if len(fs) == 0 && !bytes.Equal(red, content) {
			t.Fatalf("Redact without findings changed the content")
		}
		if !bytes.Equal(content, orig) {
			t.Fatalf("Scan or Redact modified the input")
		}
	})
}

// goroot returns $(go env GOROOT)/src, or skips.
func gorootSrc(tb testing.TB) string {
	tb.Helper()
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		tb.Skip("go env GOROOT:", err)
	}
	return filepath.Join(strings.TrimSpace(string(out)), "src")
}

// stdlibFiles returns the Go source files under GOROOT/src that are neither
// tests nor under a testdata directory.
func stdlibFiles(tb testing.TB) (root string, files []string) {
	root = gorootSrc(tb)
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == "testdata" {
			return filepath.SkipDir
		}
		if d.Type().IsRegular() && strings.HasSuffix(path, ".go") && !strings.HasSuffix(path, "_test.go") {
			files = append(files, path)
		}
		return nil
	})
	if err != nil {
		tb.Fatal(err)
	}
	if len(files) < 1000 {
		tb.Skipf("only %d Go files under %s", len(files), root)
	}
	return root, files
}

// stdlibAllowed lists findings on ordinary standard-library code that are
// real matches, by file (relative to GOROOT/src) and rule. It is empty: with
// Go 1.26 no rule fires on non-test, non-testdata stdlib code (the one test
// key outside tests, net/http/internal/testcert, is spelled "TESTING KEY").
// Add an entry only for a true secret, never to hide a rule that misfires.
var stdlibAllowed = map[string]string{}

func TestNoFalseAlarmsOnStdlib(t *testing.T) {
	if testing.Short() {
		t.Skip("reads all of GOROOT/src")
	}
	root, files := stdlibFiles(t)
	var total int64
	for _, path := range files {
		content, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		total += int64(len(content))
		rel, _ := filepath.Rel(root, path)
		for _, f := range secrets.Scan(content) {
			if stdlibAllowed[filepath.ToSlash(rel)] == f.Rule {
				continue
			}
			line := content[f.Start-f.Col+1:]
			if i := bytes.IndexByte(line, '\n'); i >= 0 {
				line = line[:i]
			}
			t.Errorf("%s:%d:%d: %s: %q", rel, f.Line, f.Col, f.Rule, line)
		}
	}
	t.Logf("scanned %d files, %d bytes", len(files), total)
}

func BenchmarkScanStdlib(b *testing.B) {
	_, files := stdlibFiles(b)
	var contents [][]byte
	var total int64
	for _, path := range files {
		c, err := os.ReadFile(path)
		if err != nil {
			b.Fatal(err)
		}
		contents = append(contents, c)
		total += int64(len(c))
	}
	b.SetBytes(total)
	b.ResetTimer()
	for b.Loop() {
		for _, c := range contents {
			secrets.Scan(c)
		}
	}
}

// hostile returns inputs built to make a careless scanner quadratic: runs
// of keywords, unterminated blocks, lines full of assignments, and content
// made of findings.
func hostile(size int) map[string][]byte {
	rep := func(s string) []byte { return bytes.Repeat([]byte(s), size/len(s)+1)[:size] }
	aws := "AKIA" + rnd(upperD, 16) + " "
	return map[string][]byte{
		"jwt run":         rep("-eyJ"),
		"jwt segments":    rep("eyJhbGciOi.eyJhbGciOi."),
		"openai run":      rep("sk-"),
		"pem headers":     rep("-----BEGIN PRIVATE KEY-----\n"),
		"pem no footer":   append([]byte("-----BEGIN RSA PRIVATE KEY-----\n"), rep("QUJD\n")...),
		"pem footers":     rep("-----BEGIN PRIVATE KEY-----\n" + strings.Repeat("QUJD", 20) + "\n-----END PRIVATE KEY-----\n"),
		"assignments":     rep("token="),
		"long line":       rep("password: a1b2c3d4e5f6g7h8i9 "),
		"secret and =":    rep("secret=secret=="),
		"many findings":   rep(aws),
		"overlaps":        rep("GITHUB_TOKEN=" + "ghp_" + rnd(alnum, 36) + ";"),
		"account keys":    rep("AccountKey="),
		"slack hooks":     rep("hooks.slack.com/services/"),
		"keyword soup":    rep("PRIVATE KEYAKIAghp_xoxb-sk-npm_eyJAIzaglpat-"),
		"no keyword byte": rep("\x00\xff"),
	}
}

func TestScanHostile(t *testing.T) {
	const size = 1 << 18 // quadratic work on this would not finish
	for name, in := range hostile(size) {
		fs := secrets.Scan(in)
		last := 0
		for _, f := range fs {
			if f.Start < last || f.End <= f.Start || f.End > len(in) {
				t.Fatalf("%s: bad finding %+v", name, f)
			}
			last = f.End
		}
		if name == "many findings" && len(fs) != size/21 {
			t.Errorf("%s: %d findings, want %d", name, len(fs), size/21)
		}
	}
}

func BenchmarkScanHostile(b *testing.B) {
	for name, in := range hostile(1 << 20) {
		b.Run(strings.ReplaceAll(name, " ", "-"), func(b *testing.B) {
			b.SetBytes(int64(len(in)))
			for b.Loop() {
				secrets.Scan(in)
			}
		})
	}
}

func TestRedactLinesKeepsLineNumbers(t *testing.T) {
	for _, p := range plants() {
		content := []byte(strings.Replace(p.text, "%s", p.secret, 1))
		red := secrets.RedactLines(content, secrets.Scan(content))
		if bytes.Count(red, []byte("\n")) != bytes.Count(content, []byte("\n")) || bytes.Contains(red, []byte(p.secret)) {
			t.Errorf("%s: RedactLines = %q", p.name, red)
		}
	}
}

// TestScanLongBase64Values: a long value that is base64 with or without
// padding is vetted without trouble, whatever its length.
func TestScanLongBase64Values(t *testing.T) {
	for n := 180; n <= 300; n++ {
		content := []byte("password: " + rnd(alnum, n) + "\n")
		secrets.Scan(content)
	}
}
