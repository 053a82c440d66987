package budget

import "sort"

// An Item is one file competing for room in a document.
type Item struct {
	Cost  int     // tokens: its content's and its markup's
	Rank  int     // lower ranks are kept first
	Score float64 // within a rank of Keep's scored or above: higher first
	Order int     // its place in the document: earlier first, last of all
}

// A Drop is an item that did not fit: its index in Keep's items and the
// tokens used when its turn came.
type Drop struct {
	Item, Used int
}

// Keep takes the items in priority order (by rank; within a rank of
// scored or above by score, higher first; then by order) and keeps each
// that still fits: used tokens are spent already, and the kept items'
// costs may take the total up to max. It returns whether each item (in
// the order given) is kept, and the items dropped in priority order.
func Keep(items []Item, scored, used, max int) (kept []bool, dropped []Drop) {
	prio := make([]int, len(items))
	for i := range prio {
		prio[i] = i
	}
	sort.SliceStable(prio, func(i, j int) bool {
		a, b := items[prio[i]], items[prio[j]]
		if a.Rank != b.Rank {
			return a.Rank < b.Rank
		}
		if a.Rank >= scored && a.Score != b.Score {
			return a.Score > b.Score
		}
		return a.Order < b.Order
	})
	kept = make([]bool, len(items))
	for _, i := range prio {
		if used+items[i].Cost <= max {
			used += items[i].Cost
			kept[i] = true
			continue
		}
		dropped = append(dropped, Drop{Item: i, Used: used})
	}
	return kept, dropped
}

// Prefix returns how many of n entries fit room tokens, where cost(k) is
// what the first k cost together and grows with k: n when all fit, -1
// when not even none does (cost(0), a heading, is over room). The longest
// prefix that fits is found by halving.
func Prefix(n, room int, cost func(k int) int) int {
	if cost(n) <= room {
		return n
	}
	if cost(0) > room {
		return -1
	}
	lo, hi := 0, n // cost(lo) <= room < cost(hi)
	for hi-lo > 1 {
		if m := (lo + hi) / 2; cost(m) <= room {
			lo = m
		} else {
			hi = m
		}
	}
	return lo
}
