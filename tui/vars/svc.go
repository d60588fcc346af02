package vars

import (
	"github.com/palink/palink/core/api"
	"github.com/palink/palink/tui/kit"
)

// Service is what the variables view asks of core: a cluster's variables
// (Vars), setting and removing one (SetVar, RemoveVar), and who the user
// is (WhoAmI), to offer those only to whom the role table lets.
type Service interface {
	api.CatalogService
	api.TeamService
}

// call is what the package's Cmds capture: the session's context and
// timeout, and its service as a Service. It is the one place the package
// reads kit.Env.Svc (tui's TestScreensUseTheirService).
func call(e *kit.Env) kit.Call[Service] { return kit.CallOf[Service](e, e.Svc) }
