package sim

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strconv"
)

// The admin API lives under /sim/ on every RM listener. It is not YARN: it
// is how a fake `flink` CLI submits, and how a demo or a test breaks
// things. Wire faults never apply to it, so faults can always be turned off.
//
//	GET  /sim/state                      now, RMs, gateway, every app (App JSON)
//	POST /sim/submit                     SubmitRequest → Submitted
//	GET  /sim/faults, PUT /sim/faults    Faults JSON (durations as "250ms")
//	POST /sim/rm-failover                the next RM becomes active
//	POST /sim/apps/{id}/jm-failover      FailoverJM
//	POST /sim/apps/{id}/kill             KillApp
//	POST /sim/apps/{id}/fail[?transient=true]   FailJob / InterruptJob
//	POST /sim/jobs/{id}/fail[?transient=true]   the same, by Flink job id
//	PUT  /sim/jobs/{id}/diagnosis        Diagnosis JSON (durations in ns)
//	PUT  /sim/jobs/{id}/graph            Graph JSON
//	PUT  /sim/nodes/{n}                  NodeHealth JSON: a NodeManager's state and health report
type admin struct {
	c *Cluster // the admin API is the Go API over HTTP
}

// routes registers the admin API on an RM listener's mux.
func (ad *admin) routes(mux *http.ServeMux) {
	c := ad.c
	mux.HandleFunc("GET /sim/state", func(w http.ResponseWriter, r *http.Request) {
		state := map[string]any{"now": c.Now(), "rms": c.RMURLs(), "activeRM": c.ActiveRMURL(),
			"gateway": c.GatewayURL(), "faults": c.Faults(), "apps": c.Apps()}
		writeJSON(w, http.StatusOK, state)
	})
	mux.HandleFunc("POST /sim/submit", func(w http.ResponseWriter, r *http.Request) {
		var req SubmitRequest
		if err := json.NewDecoder(io.LimitReader(r.Body, 1<<20)).Decode(&req); err != nil {
			adminError(w, errors.Join(ErrInvalid, err))
			return
		}
		out, err := c.Submit(r.Context(), req)
		if err != nil {
			adminError(w, err)
			return
		}
		writeJSON(w, http.StatusOK, out)
	})
	mux.HandleFunc("GET /sim/faults", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusOK, c.Faults())
	})
	mux.HandleFunc("PUT /sim/faults", func(w http.ResponseWriter, r *http.Request) {
		var f Faults
		if err := json.NewDecoder(io.LimitReader(r.Body, 1<<20)).Decode(&f); err != nil {
			adminError(w, errors.Join(ErrInvalid, err))
			return
		}
		if err := c.SetFaults(f); err != nil {
			adminError(w, errors.Join(ErrInvalid, err))
			return
		}
		writeJSON(w, http.StatusOK, c.Faults())
	})
	mux.HandleFunc("POST /sim/rm-failover", func(w http.ResponseWriter, r *http.Request) {
		c.FailoverRM()
		writeJSON(w, http.StatusOK, map[string]string{"activeRM": c.ActiveRMURL()})
	})
	act := func(fn func(id string, transient bool) error) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			if err := fn(r.PathValue("id"), r.URL.Query().Get("transient") == "true"); err != nil {
				adminError(w, err)
				return
			}
			writeJSON(w, http.StatusOK, map[string]string{"status": "ok"})
		}
	}
	fail := func(id string, transient bool) error {
		if transient {
			return c.InterruptJob(id)
		}
		return c.FailJob(id)
	}
	mux.HandleFunc("POST /sim/apps/{id}/jm-failover", act(func(id string, _ bool) error { return c.FailoverJM(id) }))
	mux.HandleFunc("POST /sim/apps/{id}/kill", act(func(id string, _ bool) error { return c.KillApp(id) }))
	mux.HandleFunc("POST /sim/apps/{id}/fail", act(fail))
	mux.HandleFunc("POST /sim/jobs/{id}/fail", act(fail))
	mux.HandleFunc("PUT /sim/jobs/{id}/diagnosis", func(w http.ResponseWriter, r *http.Request) {
		var d Diagnosis
		if err := json.NewDecoder(io.LimitReader(r.Body, 1<<20)).Decode(&d); err != nil {
			adminError(w, errors.Join(ErrInvalid, err))
			return
		}
		act(func(id string, _ bool) error { return c.Diagnose(id, d) })(w, r)
	})
	mux.HandleFunc("PUT /sim/jobs/{id}/graph", func(w http.ResponseWriter, r *http.Request) {
		var g Graph
		if err := json.NewDecoder(io.LimitReader(r.Body, 8<<20)).Decode(&g); err != nil {
			adminError(w, errors.Join(ErrInvalid, err))
			return
		}
		act(func(id string, _ bool) error { return c.SetJobGraph(id, g) })(w, r)
	})
	mux.HandleFunc("PUT /sim/nodes/{n}", func(w http.ResponseWriter, r *http.Request) {
		var h NodeHealth
		if err := json.NewDecoder(io.LimitReader(r.Body, 1<<20)).Decode(&h); err != nil {
			adminError(w, errors.Join(ErrInvalid, err))
			return
		}
		n, err := strconv.Atoi(r.PathValue("n"))
		if err != nil {
			adminError(w, errors.Join(ErrInvalid, err))
			return
		}
		act(func(string, bool) error {
			c.mu.Lock()
			defer c.mu.Unlock()
			return c.yarn.setNodeState(n, h, c.clock.Now())
		})(w, r)
	})
}

func adminError(w http.ResponseWriter, err error) {
	status := http.StatusInternalServerError
	switch {
	case errors.Is(err, ErrNotFound):
		status = http.StatusNotFound
	case errors.Is(err, ErrState):
		status = http.StatusConflict
	case errors.Is(err, ErrInvalid):
		status = http.StatusBadRequest
	case errors.Is(err, ErrClosed):
		status = http.StatusServiceUnavailable
	}
	writeJSON(w, status, map[string]string{"error": err.Error()})
}
