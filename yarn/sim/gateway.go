package sim

import (
	"net/http"
)

// gatewayHandler serves the SQL Gateway REST API.
func (c *Cluster) gatewayHandler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /info", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusOK, map[string]string{"productName": "Apache Flink", "version": c.opts.FlinkVersion})
	})
	return mux
}
