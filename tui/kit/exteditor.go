package kit

import (
	"os"
	"strings"
)

// EditorArgv is the user's editor: $VISUAL, else $EDITOR, else vi. Its
// value may carry arguments ("code --wait"). It reads the environment, so
// a Cmd calls it, not Update.
func EditorArgv() []string {
	for _, v := range []string{"VISUAL", "EDITOR"} {
		if f := strings.Fields(os.Getenv(v)); len(f) > 0 {
			return f
		}
	}
	return []string{"vi"}
}

// FileSafe turns a name into a part of a file name.
func FileSafe(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' {
			return r
		}
		return '_'
	}, s)
}
