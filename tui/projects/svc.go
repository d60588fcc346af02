package projects

import (
	"github.com/palink/palink/core/api"
	"github.com/palink/palink/tui/kit"
)

// Service is what the projects and build views ask of core: the
// projects and their artifacts (Projects, Artifacts), a build
// (BuildProject) and how the running one goes (BuildStatus).
type Service interface {
	api.ProjectService
}

// call is what the package's Cmds capture: the session's context and
// timeout, and its service as a Service. It is the one place the package
// reads kit.Env.Svc (tui's TestScreensUseTheirService).
func call(e *kit.Env) kit.Call[Service] { return kit.CallOf[Service](e, e.Svc) }
