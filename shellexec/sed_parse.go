package shellexec

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

type sedParser struct {
	s   string
	i   int
	ere bool
}

func (p *sedParser) eof() bool { return p.i >= len(p.s) }

func (p *sedParser) skipSpace() {
	for !p.eof() && (p.s[p.i] == ' ' || p.s[p.i] == '\t') {
		p.i++
	}
}

func (p *sedParser) parseBlock(inner bool) ([]*sedCmd, error) {
	var prog []*sedCmd
	for {
		for !p.eof() && strings.IndexByte(" \t\n;", p.s[p.i]) >= 0 {
			p.i++
		}
		if p.eof() {
			if inner {
				return nil, fmt.Errorf("unmatched `{'")
			}
			return prog, nil
		}
		if p.s[p.i] == '}' {
			if !inner {
				return nil, fmt.Errorf("unexpected `}'")
			}
			p.i++
			return prog, nil
		}
		if p.s[p.i] == '#' {
			for !p.eof() && p.s[p.i] != '\n' {
				p.i++
			}
			continue
		}
		c, err := p.parseCmd()
		if err != nil {
			return nil, err
		}
		prog = append(prog, c)
	}
}

func (p *sedParser) parseAddr() (*sedAddr, error) {
	if p.eof() {
		return nil, nil
	}
	switch ch := p.s[p.i]; {
	case ch >= '0' && ch <= '9':
		j := p.i
		for p.i < len(p.s) && p.s[p.i] >= '0' && p.s[p.i] <= '9' {
			p.i++
		}
		n, _ := strconv.Atoi(p.s[j:p.i])
		return &sedAddr{kind: 'n', line: n}, nil
	case ch == '$':
		p.i++
		return &sedAddr{kind: '$'}, nil
	case ch == '/' || ch == '\\':
		if ch == '\\' {
			p.i++
		}
		re, err := p.regex()
		if err != nil {
			return nil, err
		}
		if !p.eof() && p.s[p.i] == 'I' {
			p.i++
			re = regexp.MustCompile("(?i)" + re.String())
		}
		return &sedAddr{kind: '/', re: re}, nil
	}
	return nil, nil
}

// delimited reads text up to an unescaped delimiter (the current byte).
func (p *sedParser) delimited() (string, error) {
	if p.eof() {
		return "", fmt.Errorf("unterminated address regex")
	}
	delim := p.s[p.i]
	p.i++
	var b strings.Builder
	for !p.eof() {
		ch := p.s[p.i]
		if ch == '\\' && p.i+1 < len(p.s) {
			if p.s[p.i+1] == delim {
				b.WriteByte(delim)
			} else if p.s[p.i+1] == 'n' {
				b.WriteByte('\n')
			} else {
				b.WriteByte('\\')
				b.WriteByte(p.s[p.i+1])
			}
			p.i += 2
			continue
		}
		if ch == delim {
			p.i++
			return b.String(), nil
		}
		b.WriteByte(ch)
		p.i++
	}
	return "", fmt.Errorf("unterminated `s' command")
}

func (p *sedParser) regex() (*regexp.Regexp, error) {
	s, err := p.delimited()
	if err != nil {
		return nil, err
	}
	return compileSedRegex(s, p.ere, "")
}

func compileSedRegex(s string, ere bool, flags string) (*regexp.Regexp, error) {
	t, err := translateRegex(s, ere)
	if err != nil {
		return nil, err
	}
	return regexp.Compile(flags + t)
}

func (p *sedParser) parseCmd() (*sedCmd, error) {
	c := &sedCmd{}
	if err := p.parseAddrs(c); err != nil {
		return nil, err
	}
	if p.eof() {
		return nil, fmt.Errorf("missing command")
	}
	c.name = p.s[p.i]
	p.i++
	var err error
	switch c.name {
	case '{':
		c.block, err = p.parseBlock(true)
		return c, err
	case 'p', 'd', '=', 'n', 'h', 'H', 'g', 'G', 'x', 'N', 'P':
	case 'q', 'Q':
		p.skipSpace()
		j := p.i
		for !p.eof() && p.s[p.i] >= '0' && p.s[p.i] <= '9' {
			p.i++
		}
		c.exit, _ = strconv.Atoi(p.s[j:p.i])
	case 'a', 'i', 'c':
		if !p.eof() && p.s[p.i] == '\\' {
			p.i++
			if !p.eof() && p.s[p.i] == '\n' {
				p.i++
			}
		}
		p.skipSpace()
		j := p.i
		for !p.eof() && p.s[p.i] != '\n' {
			p.i++
		}
		c.text = p.s[j:p.i]
	case 'y':
		if err := p.parseTranslit(c); err != nil {
			return nil, err
		}
	case 's':
		if err := p.parseSubst(c); err != nil {
			return nil, err
		}
	case 'w', 'W':
		return nil, &DeniedError{Construct: "w", Msg: "sed may not write files"}
	case 'e':
		return nil, &DeniedError{Construct: "e", Msg: "sed may not run commands"}
	case 'r', 'R':
		return nil, &DeniedError{Construct: string(c.name), Msg: "reading other files from a sed script is not supported"}
	default:
		return nil, fmt.Errorf("unknown command: `%c'", c.name)
	}
	p.skipSpace()
	if !p.eof() && p.s[p.i] == '}' {
		return c, nil
	}
	if !p.eof() && p.s[p.i] != ';' && p.s[p.i] != '\n' {
		return nil, fmt.Errorf("extra characters after command")
	}
	return c, nil
}

// parseAddrs reads a command's addresses (none, one, or a range) and its
// negations.
func (p *sedParser) parseAddrs(c *sedCmd) error {
	var err error
	if c.a1, err = p.parseAddr(); err != nil {
		return err
	}
	if c.a1 != nil && !p.eof() && p.s[p.i] == ',' {
		p.i++
		if c.a2, err = p.parseAddr(); err != nil {
			return err
		}
		if c.a2 == nil {
			return fmt.Errorf("unexpected `,'")
		}
	}
	p.skipSpace()
	for !p.eof() && p.s[p.i] == '!' {
		c.neg = true
		p.i++
		p.skipSpace()
	}
	return nil
}

// parseTranslit reads the strings of y/from/to/.
func (p *sedParser) parseTranslit(c *sedCmd) error {
	from, err := p.delimited()
	if err != nil {
		return err
	}
	p.i--
	to, err := p.delimited()
	if err != nil {
		return err
	}
	if len(from) != len(to) {
		return fmt.Errorf("strings for `y' command are different lengths")
	}
	c.from, c.to = []byte(from), []byte(to)
	return nil
}

// parseSubst reads s/regex/replacement/flags; the w and e flags are
// refused.
func (p *sedParser) parseSubst(c *sedCmd) error {
	pat, err := p.delimited()
	if err != nil {
		return err
	}
	p.i--
	repl, err := p.delimitedRaw()
	if err != nil {
		return err
	}
	c.repl = repl
	flags := ""
	c.nth = 1
loop:
	for !p.eof() {
		switch ch := p.s[p.i]; {
		case ch == 'g':
			c.global = true
		case ch == 'p':
			c.print = true
		case ch == 'i' || ch == 'I':
			flags = "(?i)"
		case ch == 'm' || ch == 'M':
		case ch >= '1' && ch <= '9':
			j := p.i
			for p.i+1 < len(p.s) && p.s[p.i+1] >= '0' && p.s[p.i+1] <= '9' {
				p.i++
			}
			c.nth, _ = strconv.Atoi(p.s[j : p.i+1])
		case ch == 'w' || ch == 'W':
			return &DeniedError{Construct: "s///w", Msg: "sed may not write files"}
		case ch == 'e':
			return &DeniedError{Construct: "s///e", Msg: "sed may not run commands"}
		default:
			break loop
		}
		p.i++
	}
	c.re, err = compileSedRegex(pat, p.ere, flags)
	return err
}

// delimitedRaw reads the replacement of s, keeping escapes for appendRepl.
func (p *sedParser) delimitedRaw() (string, error) {
	delim := p.s[p.i]
	p.i++
	var b strings.Builder
	for !p.eof() {
		ch := p.s[p.i]
		if ch == '\\' && p.i+1 < len(p.s) {
			if p.s[p.i+1] == delim {
				b.WriteByte(delim)
			} else if p.s[p.i+1] == '\n' {
				b.WriteByte('\n')
			} else {
				b.WriteString(p.s[p.i : p.i+2])
			}
			p.i += 2
			continue
		}
		if ch == delim {
			p.i++
			return b.String(), nil
		}
		b.WriteByte(ch)
		p.i++
	}
	return "", fmt.Errorf("unterminated `s' command")
}
