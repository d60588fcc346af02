package core

import (
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/palink/palink/config"
	"github.com/palink/palink/core/api"
	"github.com/palink/palink/yarn"
)

// Cluster is palink's connection to one configured cluster: its RM (with
// HA), the SQL Gateway, and a factory of JobManager clients. It also keeps
// the cluster's connectivity for the header.
type Cluster struct {
	Name    string
	Cfg     config.Cluster
	RM      *yarn.ResourceManager
	Gateway *yarn.SQLGateway // nil when the cluster has no sql_gateway
	opts    yarn.Options
	// flink is the root JobManager client: every application's client
	// derives from it and shares its connection pool.
	flink *yarn.Flink

	mu     sync.Mutex
	status api.ClusterStatus
}

// NewClusters builds the clients of every configured cluster. It does no I/O.
func NewClusters(cfg *config.Config, log *slog.Logger) (map[string]*Cluster, error) {
	out := map[string]*Cluster{}
	for _, cc := range cfg.Clusters {
		c, err := NewCluster(cc)
		if err != nil {
			return nil, err
		}
		out[cc.Name] = c
	}
	return out, nil
}

// NewCluster builds one cluster's clients.
func NewCluster(cc config.Cluster) (*Cluster, error) {
	o := yarn.Options{
		Timeout:            cc.Timeout.D(),
		CAFile:             cc.TLS.CAFile,
		InsecureSkipVerify: cc.TLS.InsecureSkipVerify,
		SimpleAuthUser:     cc.User,
		UserAgent:          "palink",
	}
	if cc.Auth.User != "" {
		pw, err := cc.Auth.Password()
		if err != nil {
			return nil, fmt.Errorf("cluster %s: %w", cc.Name, err)
		}
		o.Username, o.Password = cc.Auth.User, pw
	}
	rm, err := yarn.NewResourceManager(cc.RM, o)
	if err != nil {
		return nil, fmt.Errorf("cluster %s: %w", cc.Name, err)
	}
	root, err := yarn.NewFlink(rm.ProxyURL(""), "", o)
	if err != nil {
		return nil, fmt.Errorf("cluster %s: %w", cc.Name, err)
	}
	c := &Cluster{Name: cc.Name, Cfg: cc, RM: rm, opts: o, flink: root, status: api.ClusterStatus{Name: cc.Name}}
	if cc.SQLGateway != "" {
		gw, err := yarn.NewSQLGateway(cc.SQLGateway, o)
		if err != nil {
			return nil, fmt.Errorf("cluster %s: %w", cc.Name, err)
		}
		c.Gateway = gw
	}
	return c, nil
}

// Flink returns a JobManager client for a running application. Reads go
// through the RM web proxy (the application's current tracking URL) unless
// the cluster is configured for direct access; actions always go straight
// to the JobManager at amRPCAddress, since the proxy forwards only GET and PUT.
func (c *Cluster) Flink(app yarn.Application) (*yarn.Flink, error) {
	if c.Cfg.FlinkAccess == "direct" {
		if app.AMRPCAddress == "" {
			return nil, fmt.Errorf("JobManager of %s: %w: no amRPCAddress", app.ID, yarn.ErrUnavailable)
		}
		direct := "http://" + app.AMRPCAddress
		return c.flink.WithBases(direct, direct)
	}
	return c.flink.ForApplication(app, false)
}

// observe records the outcome of a call for the cluster's connectivity.
func (c *Cluster) observe(err error, now time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if err == nil {
		c.status.Connected, c.status.LastOK, c.status.LastError = true, now, ""
		c.status.ActiveRM = c.RM.Active()
		return
	}
	if errors.Is(err, yarn.ErrNotFound) {
		return // the cluster answered
	}
	c.status.Connected, c.status.LastError = false, err.Error()
}

// Status is the cluster's connectivity as last observed.
func (c *Cluster) Status() api.ClusterStatus {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.status
}

// Tags palink puts on every application it submits, so that a crashed
// submission can be found and adopted instead of repeated. Every tag is
// global: the store id is minted at random when a store is created, job
// ids are random, and a command id carries a random part besides its
// sequence number, so no tag of one store (or of an earlier copy of the
// same store, restored from a backup) names another's submission.
const tagPalink = "palink"

func storeTag(storeID string) string { return "palink-store-" + strings.ToLower(storeID) }
func jobTag(jobID string) string     { return "palink-job-" + strings.ToLower(jobID) }
func cmdTag(cmdID string) string     { return "palink-cmd-" + strings.ToLower(cmdID) }

// submissionTags are the YARN application tags of a deploy (YARN lower-cases tags).
func submissionTags(storeID, jobID, cmdID string) []string {
	return []string{tagPalink, storeTag(storeID), jobTag(jobID), cmdTag(cmdID)}
}

// submittedBy reports whether application a was submitted by command
// cmdID of job jobID from the store storeID: every one of those tags must
// be on it. Commands created before stores had ids (their id has no random
// part) tagged no store; for them the job and command tags must match and
// no other store's tag may be there.
func submittedBy(a yarn.Application, storeID, jobID, cmdID string) bool {
	tags := a.Tags()
	if !hasTag(tags, jobTag(jobID)) || !hasTag(tags, cmdTag(cmdID)) {
		return false
	}
	if hasTag(tags, storeTag(storeID)) {
		return true
	}
	if !legacyCommandID(cmdID) {
		return false
	}
	for _, t := range tags {
		if strings.HasPrefix(t, "palink-store-") {
			return false
		}
	}
	return true
}

// legacyCommandID reports whether a command id is of the form palink gave
// before store identities: "c" and the sequence number alone.
func legacyCommandID(id string) bool { return !strings.Contains(id, "-") }
