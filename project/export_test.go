package project

import "github.com/taskctl/taskctl/internal/diag"

// ReadBeneath is Read by the openat2 way alone (see readBeneath): served
// is false where that way declined and Read would go on through the
// os.Root.
func ReadBeneath(p *Project, c Candidate) (f *File, w *diag.Warning, served bool) {
	return p.fsys.ReadBeneathOnly(c.Path)
}

// Beneath reports whether p reads with openat2 (Linux 5.6 and later, where
// no seccomp filter refuses it).
func Beneath(p *Project) bool { return len(p.roots) > 0 && p.roots[0].fd >= 0 }

// DisableBeneath makes p read every file through its os.Root, as where
// openat2 is missing.
func DisableBeneath(p *Project) {
	p.fsys.DisableBeneath()
	for _, r := range p.roots {
		r.fd = -1
	}
}
