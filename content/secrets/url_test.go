package secrets_test

import (
	"strings"
	"testing"

	"github.com/taskctl/taskctl/content/secrets"
)

// TestURLCredentials: the password of a URL's user information is a secret
// (#21 Also), short ones included; placeholders and variables are not.
func TestURLCredentials(t *testing.T) {
	pw := rnd(alnum, 14)
	for _, tc := range []struct {
		text, secret string // secret "" means no finding
	}{
		{"DATABASE_URL=postgres://user:pass@db.internal:5432/app", "pass"},
		{"url = https://user:" + pw + "@github.com/o/r.git", pw},
		{"\turl = https://x-access-token:" + pw + "@github.com/o/r.git", pw},
		{`dsn: "mysql://root:s3cr3t!@tcp(127.0.0.1)/db"`, "s3cr3t!"},
		{"amqp://guest:hunter2@rabbit/", "hunter2"},
		{"redis://:" + pw + "@cache:6379/0", ""}, // no user: not this shape
		{"postgres://user:password@localhost/db", ""},
		{"postgres://user:${DB_PASSWORD}@localhost/db", ""},
		{"postgres://user:$PASS@localhost/db", ""},
		{"https://user:<token>@example.org", ""},
		{"https://user:****@host", ""},
		{"https://host:8080/path", ""},
		{"see http://a.b/c?x=1:2@3", ""},
	} {
		fs := secrets.Scan([]byte(tc.text))
		var got []string
		for _, f := range fs {
			if f.Rule == secrets.RuleURLCredentials {
				got = append(got, tc.text[f.Start:f.End])
			}
		}
		want := []string{}
		if tc.secret != "" {
			want = append(want, tc.secret)
		}
		if strings.Join(got, ",") != strings.Join(want, ",") {
			t.Errorf("Scan(%q): url-credentials %q, want %q", tc.text, got, want)
		}
	}
}
