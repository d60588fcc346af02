package cli

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/pprof"
	"time"
)

// servePprof serves Go's profiles (net/http/pprof's /debug/pprof/) on
// addr until ctx is done, for measuring an agent under load. Only a
// loopback address is taken: profiles show what the process holds and
// does, and anyone who reaches them can make it work; a remote look goes
// through an SSH tunnel. It returns the address it listens on.
func servePprof(ctx context.Context, addr string) (string, error) {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return "", fmt.Errorf("--pprof %s: want host:port on loopback, like 127.0.0.1:6060: %w", addr, err)
	}
	ips, err := net.DefaultResolver.LookupIPAddr(ctx, host)
	if host == "" || err != nil || len(ips) == 0 {
		return "", fmt.Errorf("--pprof %s: the profiles are served on loopback only (127.0.0.1, ::1 or localhost)", addr)
	}
	for _, ip := range ips {
		if !ip.IP.IsLoopback() {
			return "", fmt.Errorf("--pprof %s: %s is not a loopback address; the profiles are served on loopback only (127.0.0.1, ::1 or localhost)", addr, ip.IP)
		}
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return "", fmt.Errorf("--pprof %s: %w", addr, err)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/cmdline", pprof.Cmdline)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() {
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			_ = err // the agent runs on without its profiles
		}
	}()
	go func() {
		<-ctx.Done()
		_ = srv.Close()
	}()
	return ln.Addr().String(), nil
}
