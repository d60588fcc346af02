package scheduler

import "strings"

// clientCause is why a `flink run` that deployed nothing failed, from its
// output: the exception the client printed ("The program finished with
// the following exception:") and its innermost cause, without the stack.
// "" when it printed none.
func clientCause(out string) string {
	var first, last string
	for _, l := range strings.Split(out, "\n") {
		l = strings.TrimSpace(l)
		switch {
		case strings.HasPrefix(l, "Caused by: "):
			last = strings.TrimPrefix(l, "Caused by: ")
		case first == "" && isExceptionLine(l):
			first = l
		}
	}
	switch {
	case first == "":
		return last
	case last == "" || strings.Contains(first, last):
		return first
	}
	return first + " (caused by " + last + ")"
}

// isExceptionLine is a line that starts with a Java exception's class:
// "org.apache.flink.….ProgramInvocationException: …".
func isExceptionLine(l string) bool {
	cls, _, ok := strings.Cut(l, ": ")
	if !ok || strings.ContainsAny(cls, " \t[]") || !strings.Contains(cls, ".") {
		return false
	}
	return strings.HasSuffix(cls, "Exception") || strings.HasSuffix(cls, "Error")
}
