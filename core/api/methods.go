package api

import (
	"slices"
	"time"

	"github.com/palink/palink/model"
)

// Method is the one declaration of an API method: what the agent's role
// check, its server and its client, the CLI's --read-only and the tests
// that walk every method as a viewer all read. A method of Service (or of
// DiagnoseService, Debugger) without a declaration fails
// TestEveryMethodIsDeclared; one whose role is lowered fails the role
// table's golden file (core/api/testdata/roles.txt).
type Method struct {
	// Name is the Go method's name.
	Name string
	// Role is the least role that may call it.
	Role model.Role
	// Writes: it changes what palink keeps or does (a command, a job, a
	// definition), so --read-only refuses it whatever the role. A method
	// that only reads may still need more than a viewer (a bulk copy of
	// the store).
	Writes bool
	// What names the action in a refusal: "remove function: user bob is an
	// operator on this agent; it needs an admin".
	What string
	// Local: it runs in the caller's own process (a debug run, saving a log
	// to the caller's file), so the agent serves no such call.
	Local bool
	// Timeout bounds the agent's work on one call (default one minute).
	Timeout time.Duration
}

// DefaultTimeout bounds an agent call whose declaration sets none.
const DefaultTimeout = time.Minute

// methods is every API method, by interface, in the interfaces' order.
var methods = []Method{
	// Service: jobs and actions.
	{Name: "ListJobs", Role: model.Viewer},
	{Name: "Job", Role: model.Viewer},
	// SyncJob writes the cluster's answer into the job, as state sync
	// does: asking for the truth is a viewer's right.
	{Name: "SyncJob", Role: model.Viewer},
	{Name: "CreateJob", Role: model.Operator, Writes: true, What: "create job"},
	{Name: "SaveSpec", Role: model.Operator, Writes: true, What: "save spec"},
	{Name: "Specs", Role: model.Viewer},
	{Name: "Plan", Role: model.Viewer},
	{Name: "Act", Role: model.Operator, Writes: true, What: "act on a job"},
	// WaitCommand is answered in bounded rounds (the agent's client asks again).
	{Name: "WaitCommand", Role: model.Viewer, Timeout: time.Hour},
	{Name: "Command", Role: model.Viewer},
	{Name: "Commands", Role: model.Viewer},
	{Name: "Clusters", Role: model.Viewer},
	{Name: "ClusterOverview", Role: model.Viewer},
	{Name: "Adopt", Role: model.Operator, Writes: true, What: "adopt"},
	{Name: "DisposeSavepoint", Role: model.Operator, Writes: true, What: "dispose savepoint", Timeout: 5 * time.Minute},
	// A project names a repository and a build command the agent runs:
	// defining one is defining what runs.
	{Name: "AddProject", Role: model.Admin, Writes: true, What: "add project"},
	{Name: "Projects", Role: model.Viewer},
	{Name: "BuildProject", Role: model.Operator, Writes: true, What: "build project", Timeout: 6 * time.Hour},
	{Name: "Artifacts", Role: model.Viewer},
	{Name: "BuildStatus", Role: model.Viewer},
	// Watch crosses the socket as the agent's WatchNext long poll.
	{Name: "Watch", Role: model.Viewer, Timeout: time.Hour},
	{Name: "ReadOnly", Role: model.Viewer, Local: true},
	// Backup copies every spec of every job, with whatever secrets their
	// SQL holds, and the audit log.
	{Name: "Backup", Role: model.Operator, What: "back up the store", Timeout: 10 * time.Minute},

	// MetricsService. SetInterest says which jobs a console shows: it
	// steers measuring, and keeps nothing.
	{Name: "SetInterest", Role: model.Viewer},
	{Name: "JobMetrics", Role: model.Viewer},
	{Name: "Alerts", Role: model.Viewer},
	{Name: "ActOnAlert", Role: model.Operator, Writes: true, What: "act on alert"},

	// LogService. SaveLog writes the caller's own file, fed by ReadLog.
	{Name: "Logs", Role: model.Viewer},
	{Name: "ReadLog", Role: model.Viewer},
	{Name: "FindInLog", Role: model.Viewer},
	{Name: "SaveLog", Role: model.Viewer, Local: true},

	// SQLPlanner. Explain runs the script's DDL on the cluster's gateway
	// under the agent's identity.
	{Name: "Explain", Role: model.Operator, What: "explain on the SQL Gateway"},
	{Name: "FlinkVersion", Role: model.Viewer},

	// CatalogService: shared definitions every job of a cluster gets,
	// variables with their secret commands among them.
	{Name: "Tables", Role: model.Viewer},
	{Name: "Table", Role: model.Viewer},
	{Name: "PutTable", Role: model.Admin, Writes: true, What: "change the table catalog"},
	{Name: "RemoveTable", Role: model.Admin, Writes: true, What: "change the table catalog"},
	{Name: "Vars", Role: model.Viewer},
	{Name: "SetVar", Role: model.Admin, Writes: true, What: "set a variable"},
	{Name: "RemoveVar", Role: model.Admin, Writes: true, What: "remove a variable"},

	// UDFService: the functions every SQL job gets, from their artifacts.
	{Name: "UDFs", Role: model.Viewer},
	{Name: "AddUDF", Role: model.Admin, Writes: true, What: "add function"},
	{Name: "RemoveUDF", Role: model.Admin, Writes: true, What: "remove function"},

	// DiagnoseService: reads of the cluster's own views.
	{Name: "JobGraph", Role: model.Viewer},
	{Name: "Vertex", Role: model.Viewer},
	{Name: "Checkpoints", Role: model.Viewer},
	{Name: "Checkpoint", Role: model.Viewer},
	{Name: "TaskManagers", Role: model.Viewer},
	{Name: "TaskManager", Role: model.Viewer},
	{Name: "FlinkConfig", Role: model.Viewer},
	{Name: "FlameGraph", Role: model.Viewer},
	{Name: "Exceptions", Role: model.Viewer},
	{Name: "ContainerLogs", Role: model.Viewer},

	// Debugger: a debug run is the caller's own process, on its data.
	{Name: "Debug", Role: model.Viewer, Local: true},
}

// Methods lists every declared API method.
func Methods() []Method { return slices.Clone(methods) }

// MethodOf is the declaration of the method called name.
func MethodOf(name string) (Method, bool) {
	for _, m := range methods {
		if m.Name == name {
			if m.Timeout == 0 {
				m.Timeout = DefaultTimeout
			}
			return m, true
		}
	}
	return Method{}, false
}

// Refusal says why a caller of role may not call m (nil when it may):
// ErrReadOnly for a write by a viewer or under --read-only, ErrForbidden for
// a call its role does not reach otherwise. who names the caller and where
// the role holds, for the message ("user bob", " on this agent"); readOnly
// is --read-only (the caller's or the agent's).
func (m Method) Refusal(role model.Role, readOnly bool, who, where string) error {
	switch {
	case m.Writes && readOnly:
		return ReadOnly(m.What)
	case role.Allows(m.Role):
		return nil
	case m.Writes && role == model.Viewer:
		return &refusal{what: m.What, who: who, where: where, role: role, need: m.Role, is: model.ErrReadOnly}
	}
	return &refusal{what: m.What, who: who, where: where, role: role, need: m.Role, is: model.ErrForbidden}
}

// refusal is a call refused for the caller's role.
type refusal struct {
	what, who, where string
	role, need       model.Role
	is               error
}

func (r *refusal) Error() string {
	msg := r.what + ": " + r.who + " is a" + article(r.role) + " " + r.role.String() + r.where
	switch {
	case r.need == model.Admin:
		return msg + "; it needs an admin (admins: in the config)"
	case r.is == model.ErrReadOnly:
		return msg
	}
	return msg + "; ask an operator"
}

func (r *refusal) Unwrap() error { return r.is }

func article(r model.Role) string {
	if r == model.Admin || r == model.Operator {
		return "n"
	}
	return ""
}
