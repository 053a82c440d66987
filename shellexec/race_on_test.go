//go:build race

package shellexec_test

// raceEnabled: the race detector makes sync.Pool drop what is put back,
// so the regular expressions' machines are made again for each match and
// what a run allocates in all says nothing of what it holds.
const raceEnabled = true
