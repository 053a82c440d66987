//go:build race

package pages

const raceEnabled = true
