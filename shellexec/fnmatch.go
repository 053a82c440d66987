package shellexec

import "unicode"

// fnmatch reports whether name matches the shell pattern pat, like
// fnmatch(3) without FNM_PATHNAME or FNM_PERIOD: '*' and '?' match any
// byte including '/', brackets take '!' or '^' negation, ranges and
// [:class:] names, and '\' quotes the next byte. fold ignores ASCII case.
func fnmatch(pat, name string, fold bool) bool {
	px, nx := 0, 0
	nextPx, nextNx := 0, 0
	for px < len(pat) || nx < len(name) {
		if px < len(pat) {
			switch c := pat[px]; c {
			case '*':
				nextPx, nextNx = px, nx+1
				px++
				continue
			case '?':
				if nx < len(name) {
					px++
					nx++
					continue
				}
			case '[':
				if nx < len(name) {
					if ok, width, valid := matchBracket(pat[px:], name[nx], fold); valid {
						if ok {
							px += width
							nx++
							continue
						}
						break
					}
				}
				// An unclosed '[' is an ordinary byte.
				if nx < len(name) && name[nx] == '[' && !validBracket(pat[px:]) {
					px++
					nx++
					continue
				}
			case '\\':
				if px+1 < len(pat) {
					if nx < len(name) && eqByte(pat[px+1], name[nx], fold) {
						px += 2
						nx++
						continue
					}
					break
				}
				fallthrough
			default:
				if nx < len(name) && eqByte(c, name[nx], fold) {
					px++
					nx++
					continue
				}
			}
		}
		if 0 < nextNx && nextNx <= len(name) {
			px, nx = nextPx, nextNx
			continue
		}
		return false
	}
	return true
}

func eqByte(a, b byte, fold bool) bool {
	if a == b {
		return true
	}
	return fold && lower(a) == lower(b)
}

func lower(b byte) byte {
	if 'A' <= b && b <= 'Z' {
		return b + 'a' - 'A'
	}
	return b
}

func validBracket(p string) bool {
	_, _, ok := matchBracket(p, 'a', false)
	return ok
}

// matchBracket matches c against the bracket expression at the start of
// p ("[...]"). It returns whether c matched, the expression's width and
// whether the expression is well formed.
func matchBracket(p string, c byte, fold bool) (matched bool, width int, valid bool) {
	i := 1
	neg := false
	if i < len(p) && (p[i] == '!' || p[i] == '^') {
		neg = true
		i++
	}
	first := true
	for i < len(p) {
		if p[i] == ']' && !first {
			return matched != neg, i + 1, true
		}
		first = false
		if p[i] == '[' && i+1 < len(p) && p[i+1] == ':' {
			end := -1
			for j := i + 2; j+1 < len(p); j++ {
				if p[j] == ':' && p[j+1] == ']' {
					end = j
					break
				}
			}
			if end > 0 {
				if classMatch(p[i+2:end], c) || fold && (classMatch(p[i+2:end], lower(c)) || classMatch(p[i+2:end], upper(c))) {
					matched = true
				}
				i = end + 2
				continue
			}
		}
		lo := p[i]
		if lo == '\\' && i+1 < len(p) {
			i++
			lo = p[i]
		}
		i++
		hi := lo
		if i+1 < len(p) && p[i] == '-' && p[i+1] != ']' {
			hi = p[i+1]
			if hi == '\\' && i+2 < len(p) {
				hi = p[i+2]
				i++
			}
			i += 2
		}
		if lo <= c && c <= hi || fold && (lo <= lower(c) && lower(c) <= hi || lo <= upper(c) && upper(c) <= hi) {
			matched = true
		}
	}
	return false, 0, false
}

func upper(b byte) byte {
	if 'a' <= b && b <= 'z' {
		return b - ('a' - 'A')
	}
	return b
}

func classMatch(class string, c byte) bool {
	r := rune(c)
	if c >= 0x80 {
		return false
	}
	switch class {
	case "alpha":
		return unicode.IsLetter(r)
	case "digit":
		return '0' <= c && c <= '9'
	case "alnum":
		return unicode.IsLetter(r) || '0' <= c && c <= '9'
	case "upper":
		return 'A' <= c && c <= 'Z'
	case "lower":
		return 'a' <= c && c <= 'z'
	case "space":
		return c == ' ' || '\t' <= c && c <= '\r'
	case "blank":
		return c == ' ' || c == '\t'
	case "punct":
		return c > 32 && c < 127 && !unicode.IsLetter(r) && !unicode.IsDigit(r)
	case "xdigit":
		return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
	case "cntrl":
		return c < 32 || c == 127
	case "print":
		return c >= 32 && c < 127
	case "graph":
		return c > 32 && c < 127
	}
	return false
}
