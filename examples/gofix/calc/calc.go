// Package calc is the worked example's tiny package: Add has a bug that
// its test finds.
package calc

// Add returns the sum of a and b.
func Add(a, b int) int {
	return a - b
}
