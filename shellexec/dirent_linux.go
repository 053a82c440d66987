//go:build linux

package shellexec

import (
	"io/fs"
	"os"
	"syscall"
	"unsafe"
)

// readDirents lists the open directory f in readdir order with the
// types getdents64 reports. os.File.ReadDir on a file opened through an
// os.Root lstats every entry; that doubles the syscalls of a walk, so the
// entries are read from f's descriptor directly. The descriptor still
// came from the Root. Entries of unknown type are lstat-ed through d.
func readDirents(d *os.Root, f *os.File) ([]dent, error) {
	var out []dent
	buf := make([]byte, 32<<10)
	fd := int(f.Fd())
	for {
		n, err := syscall.Getdents(fd, buf)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return out, err
		}
		if n <= 0 {
			return out, nil
		}
		for off := 0; off < n; {
			// struct linux_dirent64 { u64 ino; s64 off; u16 reclen; u8 type; char name[]; }
			reclen := int(*(*uint16)(unsafe.Pointer(&buf[off+16])))
			typ := buf[off+18]
			nameBytes := buf[off+19 : off+reclen]
			for i, b := range nameBytes {
				if b == 0 {
					nameBytes = nameBytes[:i]
					break
				}
			}
			off += reclen
			name := string(nameBytes)
			if name == "." || name == ".." {
				continue
			}
			var mode fs.FileMode
			switch typ {
			case syscall.DT_REG:
				mode = 0
			case syscall.DT_DIR:
				mode = fs.ModeDir
			case syscall.DT_LNK:
				mode = fs.ModeSymlink
			case syscall.DT_FIFO:
				mode = fs.ModeNamedPipe
			case syscall.DT_SOCK:
				mode = fs.ModeSocket
			case syscall.DT_CHR:
				mode = fs.ModeDevice | fs.ModeCharDevice
			case syscall.DT_BLK:
				mode = fs.ModeDevice
			default:
				fi, err := d.Lstat(name)
				if err != nil {
					continue // vanished
				}
				mode = fi.Mode().Type()
			}
			out = append(out, dent{name: name, typ: mode})
		}
	}
}
