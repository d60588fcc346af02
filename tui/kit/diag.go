package kit

import (
	"context"
	"fmt"

	"github.com/palink/palink/core/api"
)

// Diagnose runs fn against the Call's service, which includes
// api.DiagnoseService, under the request timeout; what names the fetch
// for the error ("graph of orders-enrich"), which people read as "could
// not fetch …".
func Diagnose[S api.DiagnoseService, T any](c Call[S], what string, fn func(ctx context.Context, d api.DiagnoseService) (T, error)) (T, error) {
	var out T
	err := c.With(func(ctx context.Context) (err error) {
		out, err = fn(ctx, c.Service)
		return err
	})
	if err != nil {
		return out, fmt.Errorf("fetch %s: %w", what, err)
	}
	return out, nil
}
