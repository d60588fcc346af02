package sim

import (
	"fmt"
	"net/http"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync"
)

// webProxy is the RM's web application proxy, /proxy/<appId>/…. Like
// Hadoop's WebAppProxyServlet it forwards only GET and PUT to the
// application's tracking URL (the JobManager); any other method gets 405
// (reference README §3), which is why actions must go to amRPCAddress.
type webProxy struct {
	mu        *sync.Mutex // the cluster lock
	clock     Clock
	ha        *rmHA
	yarn      *yarnApps
	jms       *jobManagers
	transport *http.Transport // carries the proxy's requests to JobManagers
}

// ServeHTTP forwards a GET or PUT to the application's JobManager.
func (p *webProxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodPut {
		w.Header().Set("Content-Type", "text/html; charset=iso-8859-1")
		w.WriteHeader(http.StatusMethodNotAllowed)
		fmt.Fprintf(w, "<html><body><h2>HTTP ERROR 405</h2><p>HTTP method %s is not supported by this URL</p></body></html>\n", r.Method)
		return
	}
	rest := strings.TrimPrefix(r.URL.Path, "/proxy/")
	id, sub, _ := strings.Cut(rest, "/")
	p.mu.Lock()
	a := p.yarn.get(id, p.clock.Now())
	var addr, state, rmURL string
	var jmh http.Handler
	if rm := p.ha.activeRM(); rm != nil {
		rmURL = rm.url
	}
	if a != nil {
		state = a.state
		if a.state == yarnRunning {
			if jm := p.jms.ensure(a); jm != nil {
				addr, jmh = jm.addr, jm.srv.Handler
			}
		}
	}
	p.mu.Unlock()
	switch {
	case a == nil:
		http.Error(w, "Application "+id+" could not be found in RM or history server", http.StatusNotFound)
		return
	case yarnFinal(state):
		// The AM is gone; the proxy sends the user to the RM's app page.
		http.Redirect(w, r, rmURL+"/cluster/app/"+id, http.StatusFound)
		return
	case addr == "":
		http.Error(w, "Application "+id+" has not started yet (state "+state+"): its tracking URL is not assigned", http.StatusNotFound)
		return
	}
	if jmh != nil && p.jms.faults.quiet(KindJM) {
		// The JobManager is in this process: with no fault on its wire to
		// play, the proxy hands it the request itself rather than over a
		// loopback connection of its own. The answer is the same; a
		// fleet of thousands of JobManagers read through the proxy no
		// longer costs a connection (and a listener's accept) per request
		// beyond the few the proxy keeps idle, which made the simulator,
		// not palink, the cost of a scale measurement.
		in := r.Clone(r.Context())
		in.URL = &url.URL{Path: "/" + sub, RawQuery: r.URL.RawQuery}
		in.RequestURI = in.URL.RequestURI()
		in.Header.Del("Cookie") // the proxy strips the user's cookies
		jmh.ServeHTTP(w, in)
		return
	}
	target := &url.URL{Scheme: "http", Host: addr}
	rp := &httputil.ReverseProxy{
		Rewrite: func(pr *httputil.ProxyRequest) {
			pr.SetURL(target)
			pr.Out.URL.Path = "/" + sub
			pr.Out.URL.RawPath = ""
			pr.Out.URL.RawQuery = r.URL.RawQuery
			pr.Out.Header.Del("Cookie") // the proxy strips the user's cookies
		},
		Transport: p.transport,
		ErrorHandler: func(w http.ResponseWriter, _ *http.Request, err error) {
			http.Error(w, "sim proxy: "+id+": the ApplicationMaster at "+addr+" did not answer: "+err.Error(), http.StatusInternalServerError)
		},
	}
	rp.ServeHTTP(w, r)
}
