package sim

import (
	"net/http"
)

// clusterInfo is the RM's {"clusterInfo":{…}} (ResourceManagerRest.md, Cluster Information API).
type clusterInfo struct {
	ID                            int64  `json:"id"`
	StartedOn                     int64  `json:"startedOn"`
	State                         string `json:"state"`
	HAState                       string `json:"haState"`
	RMStateStoreName              string `json:"rmStateStoreName"`
	ResourceManagerVersion        string `json:"resourceManagerVersion"`
	ResourceManagerBuildVersion   string `json:"resourceManagerBuildVersion"`
	ResourceManagerVersionBuiltOn string `json:"resourceManagerVersionBuiltOn"`
	HadoopVersion                 string `json:"hadoopVersion"`
	HadoopBuildVersion            string `json:"hadoopBuildVersion"`
	HadoopVersionBuiltOn          string `json:"hadoopVersionBuiltOn"`
	HAZooKeeperConnectionState    string `json:"haZooKeeperConnectionState"`
}

const hadoopVersion = "3.3.6"

// rmHandler serves one ResourceManager's listener.
func (c *Cluster) rmHandler(rm *rmServer) http.Handler {
	mux := http.NewServeMux()
	info := func(w http.ResponseWriter, r *http.Request) {
		c.mu.Lock()
		ha := "ACTIVE"
		if c.active != rm.idx {
			ha = "STANDBY"
		}
		zk := "ResourceManager HA is not enabled."
		if len(c.rms) > 1 {
			zk = "CONNECTED"
		}
		c.mu.Unlock()
		writeJSON(w, http.StatusOK, map[string]clusterInfo{"clusterInfo": {
			ID: rm.startMs, StartedOn: rm.startMs, State: "STARTED", HAState: ha,
			RMStateStoreName:              "org.apache.hadoop.yarn.server.resourcemanager.recovery.ZKRMStateStore",
			ResourceManagerVersion:        hadoopVersion,
			ResourceManagerBuildVersion:   hadoopVersion + " from sim by palink source checksum 0",
			ResourceManagerVersionBuiltOn: "2023-06-18T08:22Z",
			HadoopVersion:                 hadoopVersion,
			HadoopBuildVersion:            hadoopVersion + " from sim by palink source checksum 0",
			HadoopVersionBuiltOn:          "2023-06-18T08:22Z",
			HAZooKeeperConnectionState:    zk,
		}})
	}
	mux.HandleFunc("GET /ws/v1/cluster", info)
	mux.HandleFunc("GET /ws/v1/cluster/info", info)
	return mux
}
