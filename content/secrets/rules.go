package secrets

import (
	"bytes"
	"encoding/base64"
	"encoding/json"

	"github.com/taskctl/taskctl/internal/lazyregexp"
)

// Rule IDs.
const (
	RulePrivateKey         = "private-key"
	RuleGCPServiceAccount  = "gcp-service-account"
	RuleAWSAccessKeyID     = "aws-access-key-id"
	RuleAWSSecretAccessKey = "aws-secret-access-key"
	RuleGCPAPIKey          = "gcp-api-key"
	RuleAzureStorageKey    = "azure-storage-key"
	RuleAzureSharedAccess  = "azure-shared-access-key"
	RuleGitHubToken        = "github-token"
	RuleGitLabToken        = "gitlab-token"
	RuleSlackToken         = "slack-token"
	RuleSlackWebhook       = "slack-webhook"
	RuleStripeKey          = "stripe-key"
	RuleAnthropicAPIKey    = "anthropic-api-key"
	RuleOpenAIAPIKey       = "openai-api-key"
	RuleNPMToken           = "npm-token"
	RuleJWT                = "jwt"
	RuleURLCredentials     = "url-credentials"
	RuleGenericSecret      = "generic-secret"
)

// Rules returns the IDs of all rules, most specific first: when two rules
// match overlapping bytes, the earlier one in this list wins.
func Rules() []string {
	ids := make([]string, len(rules))
	for i, r := range rules {
		ids[i] = r.id
	}
	return ids
}

type ruleKind int

const (
	// prefixRule: the keyword is where the secret's match starts; re is
	// anchored (^) and runs on the bytes from the keyword on.
	prefixRule ruleKind = iota
	// lineRule: the keyword is inside a key name; re is anchored (^) and
	// runs on the rest of the line from the start of that name. Submatch 1
	// is the key name, the first non-empty later submatch the secret.
	lineRule
	// pemRule: private-key blocks, handled by scanPEM.
	pemRule
)

type rule struct {
	id       string
	kind     ruleKind
	keywords []string // matched case-sensitively unless fold
	fold     bool
	re       *lazyregexp.Regexp
	group    int  // submatch holding the secret; 0 = whole match
	boundary bool // prefixRule: the keyword must not follow a word character
	maxLen   int  // prefixRule: longest match
	// valid vets the secret bytes (and, for lineRule, the key name).
	valid func(secret, key []byte) bool
}

// Shared pieces of the assignment rules: an optional closing quote after
// the key, an optional Go type, the operator, then a quoted or bare value.
const (
	assignOp    = "[\"'`]?(?:\\s+string)?\\s*(?::=|=>|[?+]?=|:)[ \\t]*"
	quotedValue = "(?:\"([^\"\\\\\\s]{12,})\"|'([^'\\\\\\s]{12,})'|`([^`\\s]{12,})`|([^\\s\"'`,;()\\[\\]{}<>]{12,}))"
)

var (
	genericKeywords = []string{
		"password", "passwd", "secret", "token",
		"api_key", "api-key", "apikey",
		"access_key", "access-key", "accesskey",
		"auth_key", "auth-key", "authkey",
		"private_key", "private-key", "privatekey",
	}

	genericRe = lazyregexp.New("(?i)^" +
		"([a-z0-9_.\\-]*(?:password|passwd|secret|token|api[_\\-]?key|access[_\\-]?key|auth[_\\-]?key|private[_\\-]?key)[a-z0-9_.\\-]*)" +
		assignOp + quotedValue)

	awsSecretRe = lazyregexp.New("(?i)^[a-z0-9_.\\-]*?" +
		"((?:aws_?)?secret_?access_?key|aws_?secret_?key)" + assignOp +
		"[\"'`]?([A-Za-z0-9/+]{40})(?:[^A-Za-z0-9/+=]|$)")

	pemHeaderRe = lazyregexp.New(`-----BEGIN ((?:[A-Z0-9]+ )*)PRIVATE KEY(?: BLOCK)?-----`)
)

// rules, most specific first (the order decides overlaps).
var rules = []*rule{
	{id: RulePrivateKey, kind: pemRule, keywords: []string{"PRIVATE KEY"}},
	{id: RuleGCPServiceAccount, kind: pemRule}, // found by the private-key rule
	{id: RuleAWSAccessKeyID, kind: prefixRule, keywords: []string{"AKIA", "ASIA"}, boundary: true, maxLen: 20,
		re: lazyregexp.New(`^A(?:KI|SI)A[A-Z0-9]{16}`), valid: tokenBody(4, 3.0)},
	{id: RuleGCPAPIKey, kind: prefixRule, keywords: []string{"AIza"}, boundary: true, maxLen: 39,
		re: lazyregexp.New(`^AIza[0-9A-Za-z_\-]{35}`), valid: tokenBody(4, 3.5)},
	{id: RuleAzureStorageKey, kind: prefixRule, keywords: []string{"AccountKey="}, maxLen: 11 + 88,
		re: lazyregexp.New(`^AccountKey=([A-Za-z0-9+/]{86}==)`), group: 1, valid: tokenBody(0, 4.0)},
	{id: RuleAzureSharedAccess, kind: prefixRule, keywords: []string{"SharedAccessKey="}, maxLen: 16 + 44,
		re: lazyregexp.New(`^SharedAccessKey=([A-Za-z0-9+/]{42,43}=)`), group: 1, valid: tokenBody(0, 3.5)},
	{id: RuleGitHubToken, kind: prefixRule, keywords: []string{"ghp_", "gho_", "ghu_", "ghs_", "ghr_"}, boundary: true, maxLen: 255,
		re: lazyregexp.New(`^gh[pousr]_[A-Za-z0-9]{36,}`), valid: tokenBody(4, 3.5)},
	{id: RuleGitHubToken, kind: prefixRule, keywords: []string{"github_pat_"}, boundary: true, maxLen: 255,
		re: lazyregexp.New(`^github_pat_[A-Za-z0-9_]{40,}`), valid: tokenBody(11, 3.5)},
	{id: RuleGitLabToken, kind: prefixRule, keywords: []string{"glpat-"}, boundary: true, maxLen: 320,
		re: lazyregexp.New(`^glpat-[A-Za-z0-9_\-]{20,}(?:\.[0-9a-z]{2}\.[0-9a-z]{7,9})?`), valid: tokenBody(6, 3.5)},
	{id: RuleSlackToken, kind: prefixRule, keywords: []string{"xoxb-", "xoxp-", "xoxa-", "xoxe-", "xoxr-", "xoxs-", "xapp-"}, boundary: true, maxLen: 260,
		re: lazyregexp.New(`^(?:xox[bpaers]|xapp)-[0-9A-Za-z\-]{20,}`), valid: tokenBody(5, 3.0)},
	{id: RuleSlackWebhook, kind: prefixRule, keywords: []string{"hooks.slack.com/"}, maxLen: 200,
		re: lazyregexp.New(`^hooks\.slack\.com/((?:services|workflows|triggers)/[A-Za-z0-9+/_\-]{20,})`), group: 1,
		valid: tokenBody(0, 3.5)},
	{id: RuleStripeKey, kind: prefixRule, keywords: []string{"sk_live_", "rk_live_"}, boundary: true, maxLen: 255,
		re: lazyregexp.New(`^[sr]k_live_[0-9A-Za-z]{20,}`), valid: tokenBody(8, 3.5)},
	{id: RuleAnthropicAPIKey, kind: prefixRule, keywords: []string{"sk-"}, boundary: true, maxLen: 255,
		re: lazyregexp.New(`^sk-ant-[a-z]{2,8}[0-9]{0,3}-[A-Za-z0-9_\-]{32,}`), valid: tokenBody(7, 3.5)},
	{id: RuleOpenAIAPIKey, kind: prefixRule, keywords: []string{"sk-"}, boundary: true, maxLen: 255,
		re: lazyregexp.New(`^sk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_\-]{32,}`), valid: tokenBody(3, 3.5)},
	{id: RuleNPMToken, kind: prefixRule, keywords: []string{"npm_"}, boundary: true, maxLen: 40,
		re: lazyregexp.New(`^npm_[A-Za-z0-9]{36}`), valid: tokenBody(4, 3.5)},
	{id: RuleJWT, kind: prefixRule, keywords: []string{"eyJ"}, boundary: true, maxLen: 16 << 10,
		re:    lazyregexp.New(`^eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{2,}\.[A-Za-z0-9_\-]*`),
		valid: validJWT},
	// scheme://user:password@host: the secret is the password. The match
	// takes the host too, so that it ends where the URL's authority does.
	{id: RuleURLCredentials, kind: prefixRule, keywords: []string{"://"}, maxLen: 3 + 2*256 + 2 + 256,
		re: lazyregexp.New(`^://[A-Za-z0-9._~%!$&'()*+,;=\-]{1,256}:([^\s/?#@"'<>\[\]\\{}|^` + "`" + `]{1,256})@[A-Za-z0-9_.\-\[\]]+`), group: 1,
		valid: validURLPassword},
	{id: RuleAWSSecretAccessKey, kind: lineRule, keywords: []string{"secret"}, fold: true,
		re: awsSecretRe, group: 2, valid: func(s, _ []byte) bool { return plausibleToken(s, 3.5) }},
	{id: RuleGenericSecret, kind: lineRule, keywords: genericKeywords, fold: true,
		re: genericRe, valid: validGeneric},
}

// tokenBody vets a token whose random part starts after prefix bytes.
func tokenBody(prefix int, minEntropy float64) func(secret, key []byte) bool {
	return func(s, _ []byte) bool {
		if len(s) < prefix {
			return false
		}
		return plausibleToken(s[prefix:], minEntropy)
	}
}

// plausibleToken reports whether b looks like random key material rather
// than a placeholder: no placeholder words, enough entropy, some digits.
func plausibleToken(b []byte, minEntropy float64) bool {
	if isPlaceholder(b) || entropy(b) < minEntropy {
		return false
	}
	return classes(b)&hasDigit != 0 || len(b) >= 40
}

// validJWT accepts a JWT whose header decodes to a JSON object with "alg".
func validJWT(tok, _ []byte) bool {
	header, _, _ := bytes.Cut(tok, []byte("."))
	raw, err := base64.RawURLEncoding.DecodeString(string(bytes.TrimRight(header, "=")))
	if err != nil {
		return false
	}
	var h map[string]any
	if json.Unmarshal(raw, &h) != nil {
		return false
	}
	alg, ok := h["alg"].(string)
	return ok && alg != ""
}

// validURLPassword vets the password of a URL's user information: any real
// value counts, short ones too (user:pass@), but not a placeholder
// (password, changeme, xxxx, <pass>, ${PASS}), a variable ($PASS, %s,
// :pass in a template) or a run of one character (***).
func validURLPassword(v, _ []byte) bool {
	switch {
	case isPlaceholder(v), v[0] == '$', v[0] == '%', v[0] == ':':
		return false
	case bytes.Count(v, v[:1]) == len(v):
		return false
	}
	return true
}
