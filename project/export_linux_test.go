package project

// OpenBeneath reads c by the open readBeneath makes alone: no lstat
// before it, no fstat after.
func OpenBeneath(p *Project, c Candidate) ([]byte, error) { return p.fsys.OpenBeneathOnly(c.Path) }
