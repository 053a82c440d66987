package shellexec

import (
	"fmt"
	"strings"
)

// opt is one parsed option: a short letter ("n") or a long name ("include").
type opt struct {
	name string
	val  string
}

// parseOpts parses GNU-style options: clustered short flags ("-rn"),
// short options with attached or separate values ("-m1", "-m 1"), long
// options ("--include=x", "--include x"), "--" and option permutation.
// short lists letters, a letter followed by ':' takes a value; long maps a
// long name to whether it takes a value.
func parseOpts(args []string, short string, long map[string]bool) ([]opt, []string, error) {
	var opts []opt
	var operands []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			operands = append(operands, args[i+1:]...)
			return opts, operands, nil
		case strings.HasPrefix(a, "--"):
			name, val, hasVal := strings.Cut(a[2:], "=")
			takes, ok := long[name]
			if !ok {
				return nil, nil, fmt.Errorf("unrecognized option '%s'", a)
			}
			if takes && !hasVal {
				if i+1 >= len(args) {
					return nil, nil, fmt.Errorf("option '--%s' requires an argument", name)
				}
				i++
				val = args[i]
			} else if !takes && hasVal {
				return nil, nil, fmt.Errorf("option '--%s' doesn't allow an argument", name)
			}
			opts = append(opts, opt{name, val})
		case len(a) > 1 && a[0] == '-':
			for j := 1; j < len(a); j++ {
				k := strings.IndexByte(short, a[j])
				if k < 0 || a[j] == ':' {
					return nil, nil, fmt.Errorf("invalid option -- '%c'", a[j])
				}
				if k+1 < len(short) && short[k+1] == ':' {
					val := a[j+1:]
					if val == "" {
						if i+1 >= len(args) {
							return nil, nil, fmt.Errorf("option requires an argument -- '%c'", a[j])
						}
						i++
						val = args[i]
					}
					opts = append(opts, opt{string(a[j]), val})
					break
				}
				opts = append(opts, opt{string(a[j]), ""})
			}
		default:
			operands = append(operands, a)
		}
	}
	return opts, operands, nil
}
