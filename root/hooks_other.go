//go:build !linux

package root

import "github.com/taskctl/taskctl/internal/diag"

// ReadBeneathOnly is Read by the openat2 way alone, which is Linux's:
// elsewhere it never serves.
func (r *Root) ReadBeneathOnly(path string) (f *File, w *diag.Warning, served bool) {
	return nil, nil, false
}
