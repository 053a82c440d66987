package project

import "golang.org/x/sys/unix"

// OpenBeneath reads c by the open readBeneath makes alone: no lstat
// before it, no fstat after.
func OpenBeneath(p *Project, c Candidate) ([]byte, error) {
	_, r, rel, w := p.readTarget(c)
	if w != nil {
		return nil, w
	}
	fd, err := r.openBeneath(rel)
	if err != nil {
		return nil, err
	}
	defer unix.Close(fd)
	return readFD(fd, 0, 1<<20, nil)
}
