// Package secrets finds credentials in file content before it goes into a
// context document, and redacts them.
//
// [Scan] reports each secret as a [Finding]: the ID of the rule that found
// it, the line and column where it begins (for a private-key block, its
// -----BEGIN line), and the byte range of the secret itself. A
// Finding never holds the secret's text, so findings can be logged, printed
// and put in JSON envelopes safely. [Redact] replaces exactly those bytes
// with "[REDACTED:<rule>]" and keeps everything around them; [RedactLines]
// also keeps the newlines a secret spanned, so line numbers still hold.
//
// The rules (their IDs are stable; see [Rules]):
//
//	private-key            -----BEGIN … PRIVATE KEY----- blocks (RSA, EC, DSA, OPENSSH,
//	                       ENCRYPTED, PGP … PRIVATE KEY BLOCK); the secret is the body
//	gcp-service-account    the same block as the "private_key" of a service-account JSON
//	aws-access-key-id      AKIA…/ASIA… key IDs (20 characters)
//	aws-secret-access-key  40-character secret keys assigned to aws_secret_access_key & co.
//	gcp-api-key            AIza… API keys
//	azure-storage-key      AccountKey=… in storage connection strings
//	azure-shared-access-key SharedAccessKey=… in Service Bus / Event Hubs connection strings
//	github-token           ghp_ gho_ ghu_ ghs_ ghr_ tokens and github_pat_ fine-grained tokens
//	gitlab-token           glpat- personal access tokens
//	slack-token            xoxb- xoxp- xoxa- xoxe- xoxr- xoxs- xapp- tokens
//	slack-webhook          hooks.slack.com/services|workflows|triggers/… URLs; the secret is the path
//	stripe-key             sk_live_ and rk_live_ keys
//	anthropic-api-key      sk-ant-… keys
//	openai-api-key         sk-… keys (also sk-proj-, sk-svcacct-, sk-admin-)
//	npm-token              npm_… tokens
//	jwt                    three base64url segments whose first decodes to a JSON header with "alg"
//	url-credentials        the password of scheme://user:password@host (git remotes, database
//	                       URLs), short ones too, unless a placeholder or a variable ($PASS, ${PASS})
//	generic-secret         password, passwd, secret, token, api_key, access_key, auth_key and
//	                       private_key assignments (=, :, :=, =>, in code, YAML, JSON, .env,
//	                       INI) whose value looks random (see below)
//
// A generic assignment counts only when its value is at least 12 bytes, has
// high Shannon entropy, mixes letters with digits (or with upper case and
// symbols), and is not a placeholder or a reference: values such as
// changeme, <your-key>, xxxx, ***, example, ${VAR}, $VAR, os.Getenv(…), a
// bare identifier, a path or a URL are ignored, and so are values elided
// with "...", typed-in sequences (A1B2C3D4E5F6G7H8I9J0), the key's own
// name or credential words in leetspeak (client_secret: Cl1ent$ecret!,
// P@ssw0rd123), base64 that decodes to
// words ("QUNDRVNTX0tFWQ0K" is "ACCESS_KEY\r\n"; encoded text with digits
// or symbols still counts), /etc/passwd lines, and password-hashing
// algorithm names with their parameters (argon2id-v19-m65536,
// pbkdf2_sha256$260000$); keys that name metadata rather than a secret
// (token_type, secret_name, password_file, password_hash_algo …) are
// ignored too.
// Token rules ignore values that are visibly fake (xxxx, EXAMPLE, 123456…).
//
// Documented examples (example.go): generic-secret, url-credentials and jwt
// findings are dropped where documentation shows examples — Markdown fenced
// blocks, reStructuredText literal blocks (after "::" or a code-block
// directive), shell and REPL prompt lines ("$ ", ">>> "), inline code in a
// line of prose — and a URL password of placeholder words (user:pass@, or
// the user name again) is dropped where the URL is no assignment's value or
// names a test host (localhost, private addresses, example.com, *.test).
// Tokens of a known format are reported wherever they are. Precision on
// real repositories beside gitleaks: docs/benchmarks.md.
//
// Scanning is fast and linear in the size of the content, hostile content
// included: one pass of a keyword automaton (Aho-Corasick over ASCII-folded
// bytes) finds every place a rule could match; each rule's regular expression
// (RE2) then makes one anchored match of bounded length there: from the
// keyword for token formats, from the start of the key name for assignments.
// Keywords inside a run of token characters or inside the previous match of
// the same rule are not tried again. Content without a keyword costs one
// pass (about 340 MB/s on the Go source tree on one core of this machine).
//
// Non-guarantees: the rules find common credential formats, not every
// secret. A password without digits, a passphrase with spaces, a key split
// over string concatenations or encoded differently is not found.
// Conversely a well-formed but revoked or test credential (a fixture key in
// a test) is still reported: the caller decides what to do with findings.
package secrets
