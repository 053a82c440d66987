package walk

import "time"

// SetWalkRacy sets how long before a walk a directory's change makes the
// walk cache distrust it, and returns a function restoring the old value.
func SetWalkRacy(d time.Duration) func() {
	old := walkRacy
	walkRacy = int64(d)
	return func() { walkRacy = old }
}
