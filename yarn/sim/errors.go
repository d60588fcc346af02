package sim

import (
	"encoding/json"
	"errors"
	"net/http"
	"time"
)

// Errors of the Go API. They are wrapped with the entity they concern.
var (
	// ErrNotFound: no such application, job or session.
	ErrNotFound = errors.New("not found")
	// ErrState: the entity is not in a state that allows the operation.
	ErrState = errors.New("wrong state")
	// ErrInvalid: the request is malformed.
	ErrInvalid = errors.New("invalid request")
	// ErrClosed: the cluster is closed.
	ErrClosed = errors.New("cluster closed")
)

// remoteException is the error shape of the YARN RM REST API
// (ResourceManagerRest.md, "Bad Request Error Response").
type remoteException struct {
	RemoteException struct {
		Exception     string `json:"exception"`
		Message       string `json:"message"`
		JavaClassName string `json:"javaClassName"`
	} `json:"RemoteException"`
}

// writeRemoteException answers like the RM's GenericExceptionHandler.
// exception is the simple class name, class the fully qualified one.
func writeRemoteException(w http.ResponseWriter, status int, exception, class, message string) {
	var e remoteException
	e.RemoteException.Exception = exception
	e.RemoteException.Message = message
	e.RemoteException.JavaClassName = class
	writeJSON(w, status, e)
}

// flinkErrors is Flink's ErrorResponseBody.
type flinkErrors struct {
	Errors []string `json:"errors"`
}

// writeFlinkError answers like Flink's AbstractHandler, shared by the
// JobManager REST API and the SQL Gateway.
func writeFlinkError(w http.ResponseWriter, status int, msgs ...string) {
	writeJSON(w, status, flinkErrors{Errors: msgs})
}

// writeJSON writes v as a JSON body with status.
func writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		http.Error(w, "sim: encode response: "+err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json; charset=UTF-8")
	w.WriteHeader(status)
	_, _ = w.Write(b)
}

// writeStalled writes the first half of a JSON answer, then waits out its
// stall (or the client's going away) before the rest: a JobManager that
// stops answering halfway through a body.
func writeStalled(w http.ResponseWriter, r *http.Request, a jmAnswer) {
	b, err := json.Marshal(a.body)
	if err != nil {
		http.Error(w, "sim: encode response: "+err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json; charset=UTF-8")
	w.WriteHeader(a.status)
	_, _ = w.Write(b[:len(b)/2])
	if f, ok := w.(http.Flusher); ok {
		f.Flush()
	}
	t := time.NewTimer(a.stall)
	defer t.Stop()
	select {
	case <-t.C:
		_, _ = w.Write(b[len(b)/2:])
	case <-r.Context().Done():
	}
}
