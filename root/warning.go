package root

import (
	"fmt"

	"github.com/taskctl/taskctl/internal/diag"
)

func warnf(code diag.Code, path, format string, args ...any) *diag.Warning {
	return &diag.Warning{Code: code, Path: path, Message: fmt.Sprintf(format, args...)}
}
