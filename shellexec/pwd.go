package shellexec

func runPwd(c *cmd, args []string) int {
	c.out.WriteString(c.dir)
	c.out.WriteByte('\n')
	return 0
}
