package sim

import (
	"strings"
	"time"
)

// The dispatcher's savepoint disposal (POST /savepoint-disposal and GET
// /savepoint-disposal/{triggerid}, rest_v1_dispatcher.yml): any running
// JobManager deletes a savepoint by path, asynchronously. A path the
// simulated file system does not hold fails as Flink's does, with the
// missing _metadata. A disposed savepoint can no longer be restored.

// Disposal is one savepoint disposal the cluster did, for tests to check.
type Disposal struct {
	Path  string    `json:"path"`
	At    time.Time `json:"at"`
	AppID string    `json:"appId"` // the application whose JobManager did it
	Error string    `json:"error,omitempty"`
}

// disposals are the disposal operations by trigger id, and the log.
type disposals struct {
	ops map[string]*Disposal
	log []Disposal
}

func jmTriggerDisposal(x *jmReq) jmAnswer {
	var body struct {
		SavepointPath string `json:"savepoint-path"`
	}
	if err := decodeBody(x.r, &body); err != nil || body.SavepointPath == "" {
		return badRequestFlink("Request did not match expected format SavepointDisposalRequest.")
	}
	d := &Disposal{Path: body.SavepointPath, At: x.now, AppID: x.a.id}
	f := x.m.flink
	p := strings.TrimRight(body.SavepointPath, "/")
	if cp, ok := f.points.byPath[p]; ok && !cp.discarded && cp.savepoint {
		f.points.discard(cp)
	} else if !f.points.lenient {
		d.Error = "java.io.FileNotFoundException: Cannot find meta data file '_metadata' in directory '" + p +
			"'. Please try to load the checkpoint/savepoint directly from the metadata file instead of the directory."
	}
	id := hex32(f.rng)
	if f.disposals.ops == nil {
		f.disposals.ops = map[string]*Disposal{}
	}
	f.disposals.ops[id] = d
	f.disposals.log = append(f.disposals.log, *d)
	return ok(map[string]string{"request-id": id})
}

func jmDisposalStatus(x *jmReq) jmAnswer {
	tid := x.r.PathValue("triggerid")
	d, found := x.m.flink.disposals.ops[tid]
	if !found {
		return notFound("Operation not found under key: OperationKey{triggerId=" + tid + "}")
	}
	operation := map[string]any{}
	if d.Error != "" {
		operation["failure-cause"] = failureCause(d.Error)
	}
	return ok(map[string]any{"status": map[string]string{"id": "COMPLETED"}, "operation": operation})
}

// of returns the disposals application appID's dispatcher did, oldest first.
func (d *disposals) of(appID string) []Disposal {
	var out []Disposal
	for _, x := range d.log {
		if x.AppID == appID {
			out = append(out, x)
		}
	}
	return out
}
