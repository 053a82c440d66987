package memory

import (
	"slices"
	"strings"
	"sync"
)

// abbreviations pairs words with the short forms programmers write for
// them. A query term also matches its partners, at altWeight of a match of
// the term itself, inside the same BM25F saturation.
const abbreviations = `authentication:auth authenticate:auth authorization:authz configuration:config
configuration:cfg configuration:conf database:db repository:repo implementation:impl initialize:init
initialization:init message:msg error:err request:req response:resp context:ctx environment:env
argument:arg arguments:args parameter:param parameters:params administrator:admin application:app
directory:dir documentation:doc documentation:docs information:info library:lib package:pkg
transaction:tx transaction:txn synchronize:sync specification:spec temporary:tmp temporary:temp
statistics:stats manager:mgr service:svc utility:util utilities:utils number:num buffer:buf
memory:mem command:cmd password:passwd password:pwd kubernetes:k8s internationalization:i18n
reference:ref references:refs value:val calculate:calc generate:gen generator:gen attribute:attr
allocate:alloc allocation:alloc certificate:cert connection:conn destination:dst source:src
previous:prev register:reg expression:expr function:fn index:idx`

const altWeight = 0.5

// moreAbbrevs are short forms programmers write that the abbreviations
// above do not pair with a word: with those, what three initials must not
// be read as (acronymTerms).
const moreAbbrevs = `ptr str obj ret res cur pos max min std len tmp var val arg buf err msg ctx cfg env
src dst idx num pkg lib cmd doc app req`

// codeAbbrevs returns the short forms of abbreviations and moreAbbrevs.
var codeAbbrevs = sync.OnceValue(func() map[string]bool {
	m := wordSet(moreAbbrevs)
	for _, pair := range strings.Fields(abbreviations) {
		_, short, _ := strings.Cut(pair, ":")
		m[short] = true
	}
	return m
})

// concepts are groups of words that name the same software concept in
// different projects: a request's words are often not the code's ("spread
// requests over backends" where the code says "balance" and "upstream").
// A short request's term also matches the other words of its groups, at
// conceptWeight of a match of the term itself, inside the same BM25F
// saturation: an exact match always counts more. A long text (a report, a
// commit message) is not expanded: it says most things several ways
// already, and the partners only added noise there. A group is a line; its
// words are stemmed as the index stems them. Groups are kept narrow (words
// a programmer would use for one another), since every partner also
// brings its own false matches.
const concepts = `balance balancer upstream backend
spread distribute balance
select selection pick choose
policy strategy
circular cycle cyclic
scrub redact sanitize mask censor obfuscate hide
archive rotate roll
compress gzip deflate zstd zlib snappy
serialize marshal encode
deserialize unmarshal decode
retry backoff reattempt
remove erase purge
evict expire prune purge
terminate shutdown stop halt
spawn launch
cancel abort interrupt
pause suspend
resume unpause
throttle ratelimit quota
timeout deadline
expiry expire ttl
login signin authenticate
logout signout
permission privilege acl
secret credential
encrypt cipher
hash digest checksum
cache memoize
lock mutex semaphore
concurrent parallel
scheduler cron
watch monitor observe
listener subscriber observer
callback hook
proxy relay forward
router mux dispatch
certificate x509 tls
duplicate dedupe dedup
diff delta
undo revert rollback
snapshot checkpoint backup
replay recover recovery restore
wal journal
health healthcheck probe
metric telemetry instrument
trace span tracing
deprecate deprecation obsolete
escape quote
truncate shorten
indent indentation
wrap wrapper decorator
flatten unnest
plugin extension addon
migrate migration upgrade
lint linter golangci flake8 eslint pylint ruff staticcheck
formatter gofmt prettier
ci workflow pipeline
pagination paginate
timezone tz
localization l10n i18n translation
random shuffle
uuid guid
parent ancestor
child descendant
mock stub fake
crash panic
hang deadlock stuck freeze
leak
slow latency performance
garbage gc
free release dealloc deallocate
validate validation verify check
distinct unique
estimate approximate approximation
reply response respond
save persist store
limit cap maximum
copy clone
merge combine
split partition
sort order
notify notification alert
send transmit emit
publish broadcast
convert transform
reload restart
middleware interceptor
endpoint route
background asynchronous deferred lazy
worker thread
user account
error failure fault
display render
colour color
password passphrase`

// conceptWeight is what a match of a concept partner counts for: below
// an abbreviation's (the same word, written short), well below the term.
const conceptWeight = 0.3

// A partner is a term a query term also matches, and what its match
// counts for.
type partner struct {
	term    string
	weight  float64
	concept bool // from concepts, not abbreviations
}

// alternates maps a stemmed term to its partners: abbreviations both ways
// (altWeight), then the other words of its concept groups
// (conceptWeight).
func alternates(a *analyzer) map[string][]partner {
	m := map[string][]partner{}
	add := func(x, y string, w float64, concept bool) {
		if x == "" || y == "" || x == y {
			return
		}
		for _, z := range m[x] {
			if z.term == y {
				return
			}
		}
		m[x] = append(m[x], partner{y, w, concept})
	}
	for _, pair := range strings.Fields(abbreviations) {
		long, short, _ := strings.Cut(pair, ":")
		l, s := normalise(long), strings.ToLower(short)
		if !stopWords[s] {
			s = normalise(short)
		} else {
			continue
		}
		add(l, s, altWeight, false)
		add(s, l, altWeight, false)
	}
	for _, line := range strings.Split(concepts+"\n"+broadConcepts, "\n") {
		var group []string
		for _, w := range strings.Fields(line) {
			if t := normalise(w); t != "" && !slices.Contains(group, t) {
				group = append(group, t)
			}
		}
		for _, x := range group {
			for _, y := range group {
				add(x, y, conceptWeight, true)
			}
		}
	}
	return m
}
