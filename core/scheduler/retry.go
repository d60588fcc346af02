package scheduler

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"time"

	"github.com/palink/palink/store"
	"github.com/palink/palink/yarn"
)

// permanentCauses are Java exceptions a server reports that no retry can
// mend: the statement, the jar or the request itself is wrong.
var permanentCauses = []string{
	"ValidationException", "SqlParserException", "SqlValidateException", "ParseException",
	"ClassNotFoundException", "NoSuchMethodException", "IllegalArgumentException",
	"FileNotFoundException", "JobSubmissionException", "ProgramInvocationException",
}

// transient reports whether err is a failure of the cluster's moment rather
// than of the request: no answer, a timeout, a gateway or overloaded
// server, a garbled body, or a 500 whose cause names no request error.
// Only such failures are retried inside a command.
func transient(err error) bool {
	if err == nil || errors.Is(err, context.Canceled) || errors.Is(err, errLeaseLost) {
		return false
	}
	// A store that did not answer (etcd's members) is as transient as a
	// cluster that did not: both are model.ErrUnavailable.
	if errors.Is(err, yarn.ErrUnavailable) || errors.Is(err, store.ErrUnavailable) || errors.Is(err, yarn.ErrTimeout) {
		return true
	}
	var de *yarn.DecodeError
	if errors.As(err, &de) {
		return true
	}
	var re *yarn.RequestError
	if errors.As(err, &re) {
		return true
	}
	var he *yarn.HTTPError
	if errors.As(err, &he) && he.Status == http.StatusInternalServerError {
		text := strings.Join(he.Errors, "\n")
		for _, c := range permanentCauses {
			if strings.Contains(text, c) {
				return false
			}
		}
		return true
	}
	return false
}

// retryDelay is the wait before retry n (1-based) of a command's step.
func (s *Scheduler) retryDelay(n int) time.Duration {
	d := s.opts.RetryBackoff << (n - 1)
	return min(d, 30*time.Second)
}
