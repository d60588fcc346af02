package tables

import (
	"github.com/palink/palink/core/api"
	"github.com/palink/palink/tui/kit"
)

// Service is what the catalog list asks of core: a cluster's catalog
// tables (Tables), saving an edit of one (PutTable), and who the user is
// (WhoAmI), to offer editing only to whom the role table lets.
type Service interface {
	api.CatalogService
	api.TeamService
}

// call is what the package's Cmds capture: the session's context and
// timeout, and its service as a Service. It is the one place the package
// reads kit.Env.Svc (tui's TestScreensUseTheirService).
func call(e *kit.Env) kit.Call[Service] { return kit.CallOf[Service](e, e.Svc) }
