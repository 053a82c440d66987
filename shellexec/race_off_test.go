//go:build !race

package shellexec_test

const raceEnabled = false
