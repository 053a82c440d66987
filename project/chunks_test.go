package project

import (
	"slices"
	"testing"
)

func TestChunksKeepOrder(t *testing.T) {
	for _, n := range []int{0, 1, chunkLen - 1, chunkLen, chunkLen + 1, 3*chunkLen + 7} {
		var c chunks[int]
		var want []int
		for i := range n {
			c.add(i)
			want = append(want, i)
		}
		if got := c.appendTo([]int{-1}); c.len != n || !slices.Equal(got, append([]int{-1}, want...)) {
			t.Errorf("%d adds: len %d, appendTo gave %d values %v…", n, c.len, len(got), got[:min(len(got), 5)])
		}
	}
}
