package memory

import "strings"

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

// alternates maps a stemmed term to the stemmed terms of its partners.
func alternates(a *analyzer) map[string][]string {
	m := map[string][]string{}
	add := func(x, y string) {
		if x == "" || y == "" || x == y {
			return
		}
		for _, z := range m[x] {
			if z == y {
				return
			}
		}
		m[x] = append(m[x], y)
	}
	for _, pair := range strings.Fields(abbreviations) {
		long, short, _ := strings.Cut(pair, ":")
		l, s := normalise(long), strings.ToLower(short)
		if !stopWords[s] {
			s = normalise(short)
		} else {
			continue
		}
		add(l, s)
		add(s, l)
	}
	return m
}
