package budget_test

import (
	"reflect"
	"testing"

	"github.com/taskctl/taskctl/contextgen/budget"
)

func TestKeep(t *testing.T) {
	items := []budget.Item{
		{Cost: 50, Rank: 2, Score: 0.2, Order: 0}, // scored: kept after the higher score
		{Cost: 30, Rank: 0, Order: 1},             // literal: first
		{Cost: 40, Rank: 2, Score: 0.9, Order: 2},
		{Cost: 20, Rank: 1, Order: 3}, // command: second
		{Cost: 10, Rank: 2, Score: 0.2, Order: 4},
	}
	for _, tt := range []struct {
		used, max int
		kept      []bool
		dropped   []budget.Drop
	}{
		{0, 1000, []bool{true, true, true, true, true}, nil},
		// 30+20+40 = 90 used when the 0.2s come: 50 does not fit 100, 10 does.
		{0, 100, []bool{false, true, true, true, true}, []budget.Drop{{Item: 0, Used: 90}}},
		// Ten spent already: the 0.9 match does not fit, the later ones do.
		{10, 70, []bool{false, true, false, true, true}, []budget.Drop{{Item: 2, Used: 60}, {Item: 0, Used: 60}}},
		{0, 0, []bool{false, false, false, false, false},
			[]budget.Drop{{Item: 1}, {Item: 3}, {Item: 2}, {Item: 0}, {Item: 4}}},
	} {
		kept, dropped := budget.Keep(items, 2, tt.used, tt.max)
		if !reflect.DeepEqual(kept, tt.kept) || !reflect.DeepEqual(dropped, tt.dropped) {
			t.Errorf("Keep(used %d, max %d) = %v, %v; want %v, %v", tt.used, tt.max, kept, dropped, tt.kept, tt.dropped)
		}
	}
}

func TestPrefix(t *testing.T) {
	cost := func(k int) int { return 5 + 3*k } // a heading, then 3 a line
	for _, tt := range []struct{ n, room, want int }{
		{10, 100, 10}, // all fit
		{10, 4, -1},   // not even the heading
		{10, 5, 0},
		{10, 20, 5},
		{10, 34, 9},
		{0, 5, 0},
	} {
		if got := budget.Prefix(tt.n, tt.room, cost); got != tt.want {
			t.Errorf("Prefix(%d, %d) = %d, want %d", tt.n, tt.room, got, tt.want)
		}
	}
}
