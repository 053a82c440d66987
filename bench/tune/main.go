// Command tune fits the ranker's boosts and demotions (memory/search.go's
// boost* and demote* constants, demoteNotCodeReport, unitMix) jointly over
// several evaluation sets, from dumps of their candidates, and estimates
// what the fit is worth on a set it was not fitted on: leave one set out.
//
// A dump is what the retrieval harness built with -tags tuning writes to
// $TUNE_DUMP for one set (bench/retrieval/tune.go): each query's best
// candidates before the boosts, the factors that applied to each, its best
// unit's share and the gold files. tune ranks each query again as Search
// would with a vector of constants (rerank) and scores it as the harness
// does: the first ten files, tests' left out in a bug-report run
// (Hit@1/5/10 and MRR of the first gold file), all files in a commit run
// (Recall@1/5/10 of the gold files, MRR). With the dump's own constants
// the ranking must be the harness's, item for item: tune says where it is
// not.
//
//	go run ./bench/tune [-cv] [-fit] [-try name=value,...] DUMP...
//
// The objective is the mean over sets of their MRR, each set weighing the
// same. The fit is a coordinate ascent on the constants' logarithms, from
// the dump's values, each constant kept on its side of 1 (a boost stays a
// boost) and boostPartner at most boostSubject (the bound rank's early stop
// assumes). What it does not fit: the weights inside the base score (BM25F's
// fields, partners, defShare) and codePart's doc-comment weight (the dump
// has the part it gave at demoteDocLong's value).
package main

import (
	"bufio"
	"cmp"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
)

// params are the constants tune fits, with their bounds.
var params = []struct {
	name   string
	lo, hi float64
}{
	{"boostMention", 1, 6}, {"boostSubject", 1, 4}, {"boostSubjectLong", 1, 4}, {"boostPartner", 1, 4}, {"boostPhraseLong", 1, 4},
	{"boostFrame", 1, 6}, {"boostScope", 1, 4}, {"boostLang", 1, 4},
	{"demoteRole", 0.02, 1}, {"demoteDoc", 0.02, 1}, {"demoteDocLong", 0.02, 1},
	{"demoteOtherLong", 0.02, 1}, {"demoteOtherShort", 0.02, 1}, {"demoteTemplateLong", 0.005, 1},
	{"demoteNotCodeReport", 0.02, 1}, {"unitMix", 0.02, 0.9},
}

func paramIndex(name string) int {
	for i, p := range params {
		if p.name == name {
			return i
		}
	}
	return -1
}

var (
	iMix     = paramIndex("unitMix")
	iDocLong = paramIndex("demoteDocLong")
	iSubject = paramIndex("boostSubject")
	iPartner = paramIndex("boostPartner")
)

// unitCands is the number of files rank's best the unit stage reads
// (memory/units.go), from the dump.
var unitCands = 24

type cand struct {
	rel   string
	raw   float64
	exps  []int8 // the power of each param adjust multiplied raw by
	read  bool
	share float64
	form  bool
	code  float64
	test  bool
}

type item struct {
	id     string
	limit  int // 40: a bug-report run, tests left out; 10: a commit run
	gold   map[string]bool
	ngold  int
	ranked []string // the harness's own first ten
	units  bool
	cands  []cand
	rawCut float64
	// inexact: the last rerank may have missed a file the dump left out
	inexact bool
}

type set struct {
	name    string
	items   []item
	commits bool
	notes   int    // candidates whose factors the dump could not account for
	uses    []bool // uses[k]: params[k] applies to some candidate
}

type dumpLine struct {
	ID       string
	Limit    int
	Gold     []string
	Ranked   []string
	Tests    []bool
	Long     bool
	Units    bool
	RawCut   float64
	Mismatch int
	Cands    []struct {
		Rel   string
		Raw   float64
		F     map[string]int
		Read  bool
		Share float64
		Form  bool
		Code  float64
	}
}

// load reads a dump; it returns the set and the constants it was made with.
func load(name string) (*set, []float64, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 256<<20)
	if !sc.Scan() {
		return nil, nil, fmt.Errorf("%s: empty", name)
	}
	var consts map[string]float64
	if err := json.Unmarshal(sc.Bytes(), &consts); err != nil {
		return nil, nil, fmt.Errorf("%s: %w", name, err)
	}
	cur := make([]float64, len(params))
	for i, p := range params {
		v, ok := consts[p.name]
		if !ok {
			v = 1 // a dump made before the constant came in: it applies nowhere
		}
		cur[i] = v
	}
	unitCands = int(consts["unitCands"])
	s := &set{name: strings.TrimSuffix(filepath.Base(name), ".dump"), uses: make([]bool, len(params))}
	for sc.Scan() {
		var l dumpLine
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			return nil, nil, fmt.Errorf("%s: %w", name, err)
		}
		it := item{id: l.ID, limit: l.Limit, gold: map[string]bool{}, ngold: len(l.Gold), ranked: l.Ranked,
			units: l.Units, rawCut: l.RawCut}
		for _, g := range l.Gold {
			it.gold[g] = true
		}
		s.commits = l.Limit == 10
		s.notes += l.Mismatch
		for i, c := range l.Cands {
			tc := cand{rel: c.Rel, raw: c.Raw, exps: make([]int8, len(params)), read: c.Read, share: c.Share,
				form: c.Form, code: c.Code}
			for n, e := range c.F {
				k := paramIndex(n)
				if k < 0 {
					return nil, nil, fmt.Errorf("%s: unknown factor %s", name, n)
				}
				tc.exps[k] = int8(e)
				s.uses[k] = s.uses[k] || e != 0
			}
			if i < len(l.Tests) {
				tc.test = l.Tests[i]
			}
			it.cands = append(it.cands, tc)
		}
		s.uses[iMix] = s.uses[iMix] || it.units
		s.uses[iDocLong] = s.uses[iDocLong] || l.Long && it.units
		s.items = append(s.items, it)
	}
	return s, cur, sc.Err()
}

// rerank returns it's ranking with the constants v as the harness reads
// it: the first ten files, tests' left out in a bug-report run. It follows
// memory's rank (by score as adjusted, ties by path, capped at 1) and
// unitScores (the first unitCands mixed with their best unit's share and
// sorted again).
func (it *item) rerank(v []float64, buf []scored) []string {
	cs := buf[:0]
	for i := range it.cands {
		c := &it.cands[i]
		s := c.raw
		for k, e := range c.exps {
			for ; e > 0; e-- {
				s *= v[k]
			}
		}
		cs = append(cs, scored{i, s, s})
	}
	slices.SortFunc(cs, func(x, y scored) int {
		if c := cmp.Compare(y.s, x.s); c != 0 {
			return c
		}
		return strings.Compare(it.cands[x.i].rel, it.cands[y.i].rel)
	})
	wide := it.limit
	if max(it.limit, 10) < unitCands {
		wide = unitCands
	}
	if len(cs) > wide && it.limit == 10 {
		cs = cs[:wide]
	}
	for i := range cs {
		cs[i].s = min(cs[i].s, 1)
	}
	if n := min(len(cs), unitCands); it.units && len(cs) >= 2 {
		top := 0.0
		for _, x := range cs[:n] {
			if c := &it.cands[x.i]; c.read {
				top = max(top, c.share)
			}
		}
		if top > 0 {
			for j := range cs[:n] {
				c := &it.cands[cs[j].i]
				if !c.read {
					continue
				}
				cs[j].s *= 1 - v[iMix] + v[iMix]*c.share/top
				if c.form {
					cs[j].s *= v[iDocLong]
				} else if c.code > 0 {
					cs[j].s *= c.code
				}
			}
			slices.SortStableFunc(cs[:n], func(x, y scored) int { return cmp.Compare(y.s, x.s) })
		}
	}
	var out []string
	last := min(len(cs), unitCands) - 1 // the deepest position of rank's order read
	for j, x := range cs {
		c := &it.cands[x.i]
		if it.limit == 40 && c.test {
			continue
		}
		out = append(out, c.rel)
		last = max(last, j)
		if len(out) == 10 {
			break
		}
	}
	// a file the dump left out scores at most rawCut: it would have
	// been read or ranked if that beats the deepest score used
	it.inexact = it.rawCut > 0 && (last < 0 || len(out) < 10 || adjAt(cs, last) < it.rawCut)
	return out
}

type scored struct {
	i   int
	s   float64
	adj float64 // s as rank adjusted it, before the cap and the units
}

func adjAt(cs []scored, j int) float64 { return cs[j].adj }

// figures are a set's Hit@1/5/10 (Recall in a commit run) and MRR.
type figures struct {
	hit [3]float64
	mrr float64
}

func (f figures) String() string {
	return fmt.Sprintf("%5.1f %5.1f %5.1f %.3f", f.hit[0], f.hit[1], f.hit[2], f.mrr)
}

// score returns s's figures with the constants v and how many of its
// items rank otherwise than the harness did (meaningful at the dump's
// constants).
func (s *set) score(v []float64) (figures, int) {
	f, differ, _ := s.scoreInexact(v)
	return f, differ
}

// scoreInexact is score, and how many items' rankings may have missed a
// file the dump left out.
func (s *set) scoreInexact(v []float64) (figures, int, int) {
	var f figures
	inexact := 0
	var hits [3]int
	gold, differ := 0, 0
	buf := make([]scored, 0, 256)
	for i := range s.items {
		it := &s.items[i]
		r := it.rerank(v, buf)
		if it.inexact {
			inexact++
		}
		if !slices.Equal(r, it.ranked) {
			differ++
			if debugDiff {
				fmt.Println(it.id, "\n ours", r, "\n harness", it.ranked)
			}
		}
		first := 0
		for k, rel := range r {
			if !it.gold[rel] {
				continue
			}
			if first == 0 {
				first = k + 1
			}
			if s.commits {
				for j, cut := range [3]int{1, 5, 10} {
					if k < cut {
						hits[j]++
					}
				}
			}
		}
		if s.commits {
			gold += it.ngold
		} else if first > 0 {
			for j, cut := range [3]int{1, 5, 10} {
				if first <= cut {
					hits[j]++
				}
			}
		}
		if first > 0 {
			f.mrr += 1 / float64(first)
		}
	}
	n := len(s.items)
	if !s.commits {
		gold = n
	}
	for j := range hits {
		f.hit[j] = 100 * float64(hits[j]) / float64(max(gold, 1))
	}
	f.mrr /= float64(max(n, 1))
	return f, differ, inexact
}

// objective is the mean MRR of sets with the constants v.
func objective(sets []*set, v []float64) float64 {
	sum := 0.0
	for _, s := range sets {
		f, _ := s.score(v)
		sum += f.mrr
	}
	return sum / float64(len(sets))
}

// debugDiff prints the items ranked otherwise than the harness did (-diff).
var debugDiff bool

// ridge weighs the fit's distance from the dump's constants (-ridge).
var ridge float64

// fit climbs from v, one constant at a time, over multiplicative steps
// that shrink when no step helps, and returns the best vector found. A
// step of a constant scores again only the sets it applies in.
func fit(sets []*set, start []float64) []float64 { return fitOnly(sets, start, nil) }

// fitOnly is fit moving only the constants free names (all when nil).
func fitOnly(sets []*set, start []float64, free []bool) []float64 {
	v := slices.Clone(start)
	mrr := make([]float64, len(sets))
	for i, s := range sets {
		f, _ := s.score(v)
		mrr[i] = f.mrr
	}
	mean := func(m []float64) float64 {
		sum := 0.0
		for _, x := range m {
			sum += x
		}
		return sum / float64(len(m))
	}
	penalty := func() float64 {
		p := 0.0
		for k := range v {
			d := math.Log(v[k] / start[k])
			p += ridge * d * d
		}
		return p
	}
	best := mean(mrr) - penalty()
	trial := make([]float64, len(sets))
	for _, steps := range [][]float64{{0.5, 0.7, 0.85, 1 / 0.85, 1 / 0.7, 2}, {0.93, 1 / 0.93}} {
		for pass := 0; pass < 6; pass++ {
			moved := false
			for k, p := range params {
				if free != nil && !free[k] {
					continue
				}
				base := v[k]
				bestK := base
				for _, m := range steps {
					x := math.Min(p.hi, math.Max(p.lo, base*m))
					if x == base {
						continue
					}
					if k == iPartner && x > v[iSubject] || k == iSubject && x < v[iPartner] {
						continue
					}
					v[k] = x
					copy(trial, mrr)
					for i, s := range sets {
						if s.uses[k] {
							f, _ := s.score(v)
							trial[i] = f.mrr
						}
					}
					// a step must gain a little: a tie keeps the value
					if o := mean(trial) - penalty(); o > best+1e-5 {
						best, bestK = o, x
					}
				}
				v[k] = bestK
				for i, s := range sets {
					if s.uses[k] {
						f, _ := s.score(v)
						mrr[i] = f.mrr
					}
				}
				if bestK != base {
					moved = true
				}
			}
			if !moved {
				break
			}
		}
	}
	return v
}

func main() {
	cv := flag.Bool("cv", false, "leave one set out: fit on the others, score on it")
	each := flag.Bool("each", false, "leave one set out, fitting one constant at a time")
	doFit := flag.Bool("fit", false, "fit on all sets and print the vector")
	flag.BoolVar(&debugDiff, "diff", false, "print each item the dump's constants rank otherwise than the harness did")
	flag.Float64Var(&ridge, "ridge", 0, "what the fit pays, in mean MRR, for each constant's squared log ratio to the dump's value")
	try := flag.String("try", "", "score this vector instead of fitting: name=value,... (the others the dump's)")
	flag.Parse()
	var sets []*set
	var cur []float64
	for _, name := range flag.Args() {
		s, c, err := load(name)
		if err != nil {
			fmt.Fprintln(os.Stderr, "tune:", err)
			os.Exit(1)
		}
		if cur != nil && !slices.Equal(c, cur) {
			fmt.Fprintf(os.Stderr, "tune: %s was dumped with other constants\n", name)
			os.Exit(1)
		}
		cur = c
		sets = append(sets, s)
	}
	if len(sets) == 0 {
		fmt.Fprintln(os.Stderr, "usage: tune [-cv] [-fit] [-try name=value,...] DUMP...")
		os.Exit(2)
	}
	fmt.Println("the dumps' constants reproduce the harness (items ranked otherwise, candidates unaccounted):")
	for _, s := range sets {
		f, differ, in := s.scoreInexact(cur)
		fmt.Printf("  %-12s %4d items  %s  differ %d  unaccounted %d  may miss %d\n", s.name, len(s.items), f, differ, s.notes, in)
	}
	if *try != "" {
		v := slices.Clone(cur)
		for _, kv := range strings.Split(*try, ",") {
			n, val, _ := strings.Cut(kv, "=")
			k := paramIndex(n)
			var x float64
			if _, err := fmt.Sscan(val, &x); k < 0 || err != nil {
				fmt.Fprintf(os.Stderr, "tune: -try %q\n", kv)
				os.Exit(2)
			}
			v[k] = x
		}
		compare(sets, cur, v, "tried")
	}
	if *cv {
		crossValidate(sets, cur)
	}
	if *each {
		crossValidateEach(sets, cur)
	}
	if *doFit {
		v := fit(sets, cur)
		printVector(cur, v)
		compare(sets, cur, v, "fitted on all")
	}
}

// crossValidate fits on all sets but one and scores that one, for each,
// two at a time.
func crossValidate(sets []*set, cur []float64) {
	fits := make([][]float64, len(sets))
	var wg sync.WaitGroup
	sem := make(chan bool, 2)
	for i := range sets {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- true
			defer func() { <-sem }()
			rest := slices.Concat(sets[:i], sets[i+1:])
			fits[i] = fit(rest, cur)
		}()
	}
	wg.Wait()
	fmt.Println("\nleave one set out (Hit@1/5/10 MRR; Recall in a commit set):")
	fmt.Printf("  %-12s %5s  %-24s  %-24s  %s\n", "set", "items", "current", "fitted on the others", "ΔMRR")
	up, down, sum := 0, 0, 0.0
	for i, s := range sets {
		a, _ := s.score(cur)
		b, _ := s.score(fits[i])
		d := b.mrr - a.mrr
		sum += d
		switch {
		case d > 0.0005:
			up++
		case d < -0.0005:
			down++
		}
		fmt.Printf("  %-12s %5d  %s  %s  %+.3f\n", s.name, len(s.items), a, b, d)
	}
	fmt.Printf("  mean ΔMRR %+.4f; %d sets up, %d down, %d level\n", sum/float64(len(sets)), up, down, len(sets)-up-down)
	fmt.Println("\neach fold's vector (constants in params order):")
	for i, s := range sets {
		var b strings.Builder
		for k := range params {
			fmt.Fprintf(&b, " %.3g", fits[i][k])
		}
		fmt.Printf("  -%-11s%s\n", s.name, b.String())
	}
}

func printVector(cur, v []float64) {
	fmt.Println("\nfitted on all sets:")
	for k, p := range params {
		mark := ""
		if v[k] != cur[k] {
			mark = " *"
		}
		fmt.Printf("  %-20s %6.3g -> %6.3g%s\n", p.name, cur[k], v[k], mark)
	}
}

// compare prints each set's figures with cur and with v.
func compare(sets []*set, cur, v []float64, what string) {
	fmt.Printf("\ncurrent vs %s:\n", what)
	for _, s := range sets {
		a, _ := s.score(cur)
		b, _, in := s.scoreInexact(v)
		fmt.Printf("  %-12s %s  %s  %+.3f  (%d may miss a file)\n", s.name, a, b, b.mrr-a.mrr, in)
	}
	fmt.Printf("  objective %.4f -> %.4f\n", objective(sets, cur), objective(sets, v))
}

// crossValidateEach is crossValidate for each constant alone, the others
// kept at the dump's values: which constant's fit holds on a set it was
// not fitted on.
func crossValidateEach(sets []*set, cur []float64) {
	fmt.Println("\none constant at a time, leave one set out (ΔMRR on the set left out; the fit on all sets):")
	for k, p := range params {
		free := make([]bool, len(params))
		free[k] = true
		var used []*set
		for _, s := range sets {
			if s.uses[k] {
				used = append(used, s)
			}
		}
		if len(used) < 2 {
			continue
		}
		up, down, sum := 0, 0, 0.0
		for i, s := range used {
			v := fitOnly(slices.Concat(used[:i], used[i+1:]), cur, free)
			a, _ := s.score(cur)
			b, _ := s.score(v)
			d := b.mrr - a.mrr
			sum += d
			switch {
			case d > 0.0005:
				up++
			case d < -0.0005:
				down++
			}
		}
		all := fitOnly(used, cur, free)
		fmt.Printf("  %-20s %2d sets  mean ΔMRR %+.4f  %2d up %2d down   all: %.3g -> %.3g\n",
			p.name, len(used), sum/float64(len(sets)), up, down, cur[k], all[k])
	}
}
