package kit

import (
	"context"
	"errors"
	"fmt"

	"github.com/palink/palink/core/api"
)

// ErrNoDiagnostics is what a diagnostic fetch answers over a service that
// does not offer api.DiagnoseService (an agent of an older palink).
var ErrNoDiagnostics = errors.New("this palink service does not offer diagnostics (an older agent?)")

// Diagnose runs fn against the service's DiagnoseService under the request
// timeout; what names the fetch for the error ("graph of orders-enrich"),
// which people read as "could not fetch …".
func Diagnose[T any](c Call, what string, fn func(ctx context.Context, d api.DiagnoseService) (T, error)) (T, error) {
	var out T
	d, ok := c.Svc.(api.DiagnoseService)
	if !ok {
		return out, fmt.Errorf("fetch %s: %w", what, ErrNoDiagnostics)
	}
	err := c.With(func(ctx context.Context) (err error) {
		out, err = fn(ctx, d)
		return err
	})
	if err != nil {
		return out, fmt.Errorf("fetch %s: %w", what, err)
	}
	return out, nil
}
