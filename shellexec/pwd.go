package shellexec

// runPwd prints the command's directory.
func runPwd(c *cmd, args []string) int {
	c.out.WriteString(c.dir)
	c.out.WriteByte('\n')
	return 0
}
