//go:build tuning

package main

import (
	"encoding/json"
	"os"
	"strconv"

	"github.com/taskctl/taskctl/memory"
)

// With -tags tuning, each query the harness ranks is written to the JSON
// Lines file $TUNE_DUMP (the first line: the constants' values): its
// candidates before the boosts (memory.TuneDump, the $TUNE_K best by
// score, 150 by default), its gold files and the harness's own ranking,
// for bench/tune to rank again with other constants.

type tuneLine struct {
	ID     string
	Limit  int // 40: a bug-report run (tests left out), 10: a commit run
	Gold   []string
	Ranked []string
	Tests  []bool // with Limit 40: whether each candidate is a test's (isBugTestPath)
	memory.TuneQuery
}

func init() {
	name := os.Getenv("TUNE_DUMP")
	if name == "" {
		return
	}
	k, err := strconv.Atoi(os.Getenv("TUNE_K"))
	if err != nil || k <= 0 {
		k = 150
	}
	f, err := os.OpenFile(name, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o644)
	if err != nil {
		panic(err)
	}
	enc := json.NewEncoder(f)
	if err := enc.Encode(memory.TuneConsts); err != nil {
		panic(err)
	}
	tuneItem = func(ix *memory.Index, src memory.Source, query, id string, gold, ranked []string, limit int) {
		l := tuneLine{ID: id, Limit: limit, Gold: gold, Ranked: ranked,
			TuneQuery: ix.TuneDump(query, memory.SearchOptions{Limit: limit, Source: src}, k)}
		if limit == 40 {
			for _, c := range l.Cands {
				l.Tests = append(l.Tests, isBugTestPath(c.Rel))
			}
		}
		if err := enc.Encode(l); err != nil {
			panic(err)
		}
	}
}
