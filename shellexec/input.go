package shellexec

import (
	"bytes"
	"io/fs"
)

// splitLines splits data into lines without their terminator.
func splitLines(data []byte, sep byte) [][]byte {
	if len(data) == 0 {
		return nil
	}
	if data[len(data)-1] == sep {
		data = data[:len(data)-1]
	}
	return bytes.Split(data, []byte{sep})
}

// inputs reads each operand (or stdin when there are none) and calls fn.
func (c *cmd) inputs(operands []string, fn func(name string, data []byte)) int {
	if len(operands) == 0 {
		operands = []string{"-"}
	}
	status := 0
	for _, name := range operands {
		if c.writeErr() {
			break
		}
		held := c.held
		data, err := c.readInput(name)
		if err != nil {
			c.errorf("%s", c.pathMsg(err))
			if pe, ok := err.(*fs.PathError); ok && pe.Err.Error() == "is a directory" {
				c.errorf("%s: Is a directory", name)
			}
			status = 1
			continue
		}
		fn(name, data)
		if !c.keepInput {
			c.uncharge(c.held - held) // the operand is done with
		}
	}
	return status
}
